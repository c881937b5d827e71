"""Whom a game's end pings (``Reply.mentions``): a result one player's command made (a
resignation, an accepted draw, a claim, an abort, a winning move) is news to the other player
only; a moderator's decision and a flag nobody's command found, to both players; the end of a
practice game its person caused, to nobody; the bot is never pinged. "Game over: alice
(White) wins (bob (Black) resigned)." pinged nobody (a player's review)."""

from __future__ import annotations

import random

import pytest

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.names import CONSOLE_BOT
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, MOD, both_act, play, start, swept

TALL = {"rows": 5, "cols": 3, "beyond_rows": 0, "beyond_cols": 0, "pieces": 6, "line": 5}


async def test_a_resignation_pings_the_winner_not_the_one_who_resigned(referee: Referee) -> None:
    await start(referee, "morris")
    await both_act(referee, HERE, ALICE, BOB)
    ended = await referee.resign(HERE, BOB)
    assert ended.finished and "bob (Black) resigned" in ended.text, ended.text
    assert ended.mentions == [ALICE.id]


async def test_an_accepted_draw_pings_the_one_who_offered_it(referee: Referee) -> None:
    await start(referee, "morris")
    await referee.offer_draw(HERE, ALICE)
    agreed = await referee.answer_draw(HERE, BOB, True)
    assert agreed.finished and "agreed by both players" in agreed.text, agreed.text
    assert agreed.mentions == [ALICE.id]
    await start(referee, "morris")  # a draw offered back accepts the first: the same
    await referee.offer_draw(HERE, BOB)
    met = await referee.offer_draw(HERE, ALICE)
    assert met.finished and met.mentions == [BOB.id], met.text


async def test_an_abort_pings_the_other_player(referee: Referee) -> None:
    await start(referee, "morris")
    aborted = await referee.abort(HERE, BOB)
    assert aborted.finished and aborted.mentions == [ALICE.id], aborted.text


async def test_a_claim_and_a_late_command_ping_the_one_whose_flag_fell(
    referee: Referee, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+0")
    await referee.act(HERE, ALICE, "place d7")
    clock.advance(61)  # bob, to move, has run out of time
    claimed = await referee.claim(HERE, ALICE)
    assert claimed.finished and "bob (Black) ran out of time" in claimed.text, claimed.text
    assert claimed.mentions == [BOB.id]
    await start(referee, "morris", clock="1+0")
    clock.advance(61)  # alice, to move, has run out of time, and finds it by moving
    late = await referee.act(HERE, ALICE, "place d7")
    assert late.finished and "alice (White) ran out of time" in late.text, late.text
    assert late.mentions == [BOB.id]


async def test_an_abandonment_claim_pings_the_one_who_left(
    referee: Referee, clock: ManualClock
) -> None:
    await start(referee, "morris")
    await referee.act(HERE, ALICE, "place d7")
    clock.advance(referee.abandon_after + 60)
    claimed = await referee.claim(HERE, ALICE)
    assert claimed.finished and "left the game" in claimed.text, claimed.text
    assert claimed.mentions == [BOB.id]


async def test_a_winning_move_pings_the_other_player(referee: Referee) -> None:
    """An Atmalof game on a board whose lines run only down a column, played to its end by
    random drops: the reply to the last one pings only the player who did not make it."""
    await start(referee, "atmalof", variant="custom", options=TALL)
    rng = random.Random(7)
    for _ in range(200):
        for person in (ALICE, BOB):
            moves = await referee.legal_moves(HERE, person)
            if moves:
                break
        else:
            raise AssertionError("nobody may move, yet the game goes on")
        reply = await play(referee, HERE, person, rng.choice(moves))
        assert reply.ok, reply.text
        if reply.finished:
            break
    else:
        raise AssertionError("the game did not end")
    other = BOB if person is ALICE else ALICE
    assert "Game over" in reply.text, reply.text
    assert reply.mentions == [other.id], (person.name, reply.text)


async def test_a_moderators_decision_pings_both_players(referee: Referee) -> None:
    await start(referee, "morris")
    awarded = await referee.award(HERE, MOD, ALICE, "bob left the server")
    assert awarded.finished and awarded.mentions == [ALICE.id, BOB.id], awarded.text
    await start(referee, "morris")
    aborted = await referee.moderator_abort(HERE, MOD, "wrong channel")
    assert aborted.finished and aborted.mentions == [ALICE.id, BOB.id], aborted.text


async def test_a_flag_the_sweeper_finds_pings_both_players(
    referee: Referee, clock: ManualClock
) -> None:
    """Nobody's command ended it, and either player may have walked away."""
    await start(referee, "morris", clock="1+0")
    clock.advance(61)
    (notice,) = await swept(referee)
    assert notice.reply.finished and sorted(notice.reply.mentions) == [ALICE.id, BOB.id]


@pytest.fixture
async def practising(store: Store, clock: ManualClock):
    r = Referee(store, clock, render=False, practice_nodes=40)
    yield r
    await r.close()


async def test_a_practice_game_its_person_ends_pings_nobody(practising: Referee) -> None:
    started = await practising.practice(HERE, ALICE, "morris", bot=CONSOLE_BOT, starter="me")
    assert started.ok, started.text
    resigned = await practising.resign(HERE, ALICE)
    assert resigned.finished and resigned.mentions == [], resigned.text
