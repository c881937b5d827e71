"""A reply says what happened as data (its kind, whom it addresses, its events), besides the
words: a front end, or a language, can make its own text from it."""

from __future__ import annotations

import random
import re

from bot import texts
from bot.clock import ManualClock
from bot.console.format import reply_lines
from bot.i18n import say
from bot.referee import Referee
from bot.referee.replies import LostTurn, Moved, Rated, ReplyKind, Result
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, MOD, THERE, both_act, play, start


async def test_a_move_is_a_public_move_event_addressed_to_the_player_to_move(
    referee: Referee,
) -> None:
    started = await start(referee, "morris")
    assert started.kind is ReplyKind.BOARD and started.events == []
    moved = await referee.act(HERE, ALICE, "place d7")
    assert moved.kind is ReplyKind.MOVE and moved.addressed == [BOB.id]
    assert moved.events == [Moved(0, "place d7", None)]


async def test_an_ending_carries_its_result_and_a_refusal_its_reason(referee: Referee) -> None:
    await start(referee, "morris")
    refused = await referee.act(HERE, CAROL, "place d7")
    assert refused.kind is ReplyKind.REFUSAL and refused.addressed == []
    ended = await referee.resign(HERE, ALICE)
    assert ended.kind is ReplyKind.GAME_END
    (result,) = ended.events
    assert isinstance(result, Result) and (result.termination, result.winner) == ("resignation", 1)
    shown = await referee.board(HERE)
    assert shown.kind is ReplyKind.BOARD and shown.events == []
    assert (await referee.handle(HERE, ALICE, "help")).kind is ReplyKind.PRIVATE


async def test_every_atmalof_drop_says_its_roll_and_whether_the_turn_was_lost(
    referee: Referee, store: Store
) -> None:
    """Cross-checked with the history, which marks a lost turn by replaying the log. The dice
    come from each game's secret seed, so a game may end before any drop lands on a taken
    square: then the next game is played, until one has."""
    rng, lost = random.Random(5), set()
    for _game in range(5):
        started = await start(referee, "atmalof")
        lost = await _play_random_drops(referee, store, rng, started.game_id)
        marked = set()
        for page in range(1, 6):
            for line in (await referee.history(HERE, page)).text.splitlines():
                found = re.match(r"(\d+)\. .*the turn lost", line)
                if found:
                    marked.add(int(found[1]))
        assert marked == lost
        if lost:
            break
        await referee.resign(HERE, ALICE)
    assert lost, "no drop lost its turn in five games"


async def _play_random_drops(
    referee: Referee, store: Store, rng: random.Random, game_id: int | None
) -> set[int]:
    """Random legal actions (up to 80) until the game ends; the log numbers of lost turns,
    each checked against its reply's events."""
    lost = set()
    for _ in range(80):
        choices = {p: await referee.legal_for(HERE, p, limit=None) for p in (ALICE, BOB)}
        mover = ALICE if choices[ALICE] else BOB
        if not choices[mover]:
            break
        choice = rng.choice(choices[mover])
        reply = await play(referee, HERE, mover, choice)
        assert reply.ok, reply.text
        (moved, *rest) = reply.events
        assert isinstance(moved, Moved) and moved.action == choice
        assert (moved.roll is not None) == choice.startswith("drop")
        if any(isinstance(e, LostTurn) for e in rest):
            assert rest[0] == LostTurn(moved.side, moved.roll or 0)
            g = await store.game(game_id or 0)
            assert g is not None
            lost.add(g.seq)
        if reply.finished:
            assert isinstance(reply.events[-1], Result) and reply.kind is ReplyKind.GAME_END
            break
    return lost


async def test_the_chain_head_is_data_and_each_front_end_shows_it(referee: Referee) -> None:
    """The referee never writes the chain head into its sentence (Discord shows it in the
    footer and used to cut it out of the text by a pattern); the console's formatter adds it."""
    await start(referee, "morris")
    moved = await referee.act(HERE, ALICE, "place d7")
    assert moved.chain and "Log #" not in moved.text
    assert reply_lines(moved)[1] == f"Log #{moved.chain[:10]}"
    history = await referee.history(HERE)
    assert "Log head #" not in history.text
    assert reply_lines(history)[1] == f"Log head #{history.chain[:10]}"  # type: ignore[index]


async def test_offers_and_answers_are_notices_with_their_code_and_parameters(
    referee: Referee,
) -> None:
    await start(referee, "morris")
    offered = await referee.offer_draw(HERE, ALICE)
    assert offered.notice == "draw_offered" and offered.params == {"actor": "alice", "other": "bob"}
    assert offered.kind is ReplyKind.NOTICE and offered.addressed == [BOB.id]
    assert offered.text == texts.notice_text(offered.notice, offered.params)
    declined = await referee.answer_draw(HERE, BOB, False)
    assert (declined.notice, declined.text) == (
        "draw_declined",
        "bob declines the draw.\nalice (White) to move.",
    )
    made = await referee.challenge(THERE, ALICE, "abalone", opponent=BOB)
    withdrawn = await referee.decline(THERE, ALICE)
    assert withdrawn.notice == "challenge_withdrawn" and made.challenge_id == withdrawn.challenge_id


async def test_a_rated_ending_carries_the_rating_change_as_data(referee: Referee) -> None:
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    ended = await referee.resign(HERE, BOB)
    result, rated = ended.events
    assert isinstance(result, Result) and result.winner == 0
    assert isinstance(rated, Rated) and rated.players == (ALICE.id, BOB.id)
    assert rated.after[0] > rated.before[0] and rated.after[1] < rated.before[1]
    assert rated.provisional_before == (True, True)  # newcomers
    (line,) = [x for x in ended.text.splitlines() if x.startswith("Ratings (")]
    assert line == say(texts.rating_lines(rated, ["alice", "bob"])[0])
    gain = round(rated.after[0]) - round(rated.before[0])
    assert f"alice {round(rated.before[0])}? → {round(rated.after[0])}? (+{gain})" in line
    assert (await referee.board(HERE)).events == [rated]  # shown again later: still there


async def test_settings_answer_with_their_notice_code(referee: Referee) -> None:
    off = await referee.set_setting(HERE, MOD, "takebacks", False)
    assert off.notice == "takebacks_off" and off.text == texts.takebacks_setting_text(False)
    role = await referee.set_mod_role(HERE, MOD, 77)
    assert (role.notice, role.params, role.text) == (
        "mod_role_set",
        {"role": 77},
        "Disputes now notify <@&77>.",
    )
    assert (await referee.set_mod_role(HERE, MOD, None)).notice == "mod_role_cleared"


async def test_a_moderators_resume_and_restore_are_notices_with_their_parameters(
    referee: Referee, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="10+0")
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await play(referee, HERE, BOB, "place d1")).ok
    assert (await referee.dispute(HERE, ALICE, "wrong point")).ok
    clock.advance(5)  # a pause worth telling (under a second it is left out)
    resumed = await referee.resume(HERE, MOD, "fine")
    assert resumed.notice == "resumed_clocks" and resumed.params["why"] == "fine"
    assert resumed.text.startswith(texts.notice_text("resumed_clocks", resumed.params))
    assert (await referee.dispute(HERE, ALICE, "wrong point")).ok
    restored = await referee.restore(HERE, MOD, 1, "agreed")
    assert restored.notice == "restored"
    undone = restored.params.pop("undone")  # the actions as a sentence: a roll has its words
    assert say(undone) == "place d1"
    assert restored.params == {"moderator": "mod", "number": 1, "why": "agreed", "n": 1}
