"""Disputes at the referee: frozen clocks, the moderators' rewind, resume, restore, void, award,
every step logged in the chain with who did it; the stored log stays verifiable."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

import engine
from bot import texts
from bot.clock import ManualClock
from bot.console import table as console
from bot.console.format import reply_text
from bot.i18n import reply_words, say
from bot.referee import Referee
from bot.referee.records import Ending, check_stored, event_ending, stored_record
from bot.referee.replies import Actor, Reply, Where
from bot.referee.turns import one_after_another, rolls_said
from bot.store import Store
from engine.core import Outcome, Termination
from engine.record import Record, verify
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, MOD, THERE, play, start, swept
from tests.languages import english_in
from translations import words


async def morris_moves(referee: Referee, count: int) -> None:
    """Alternate placements: alice a1, bob a4, alice a7 ... (no mill in the first six)."""
    points = ["a1", "b2", "a7", "b6", "g7", "f6", "d7", "d1"]
    for i in range(count):
        reply = await play(referee, HERE, (ALICE, BOB)[i % 2], f"place {points[i]}")
        assert reply.ok, reply.text


async def kinds(store: Store, game_id: int = 1) -> list[tuple[str, int | None]]:
    return [(e.kind, e.user_id) for e in await store.events(game_id)]


async def test_only_a_player_of_the_channels_game_may_dispute(referee: Referee) -> None:
    await start(referee, "morris")
    assert not (await referee.dispute(HERE, CAROL, "x")).ok  # a spectator
    assert not (await referee.dispute(THERE, ALICE, "x")).ok  # another channel
    reply = await referee.dispute(HERE, BOB, "alice moved twice")
    assert reply.ok and "bob" in reply.text and "alice moved twice" in reply.text
    again = await referee.dispute(HERE, ALICE, "me too")
    assert not again.ok and "already open" in again.text


async def test_the_dispute_packet_has_the_log_the_commitment_and_the_head(
    referee: Referee, store: Store
) -> None:
    await start(referee, "atmalof")
    await play(referee, HERE, ALICE, "drop row 4")
    reply = await referee.dispute(HERE, BOB, "the die")
    g = await store.game(1)
    assert "1. Red: drop row 4, rolled" in reply.text
    assert g.commitment in reply.text and g.seed not in reply.text
    assert f"Log #{g.last_hash[:10]}" in reply_text(reply) and reply.chain == g.last_hash
    record = Record.from_json(reply.file)
    assert record.seed is None and record.head == g.last_hash
    assert g.seed not in reply.file.decode()
    assert set(reply.mentions) == {ALICE.id, BOB.id}


async def test_a_frozen_game_takes_no_move_claim_or_offer_and_no_flag_falls(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+0")
    await morris_moves(referee, 2)
    clock.advance(20)
    await referee.dispute(HERE, ALICE, "lag")
    before = await store.game(1)
    clock.advance(3600)  # an hour frozen: far beyond alice's minute
    for reply in (
        await referee.act(HERE, ALICE, "place a7"),
        await referee.claim(HERE, BOB),
        await referee.offer_draw(HERE, BOB),
        await referee.resign(HERE, BOB),
    ):
        assert not reply.ok and "frozen" in reply.text, reply.text
    assert await swept(referee) == []
    assert await referee.legal_for(HERE, ALICE) == []
    board = await referee.board(HERE)
    assert "Clocks: White 0:40, Black 1:00" in board.text, board.text  # alice had 40 s left
    assert "Frozen for a dispute" in board.text
    after = await store.game(1)
    assert (after.status, after.bank0, after.bank1) == ("active", before.bank0, before.bank1)


async def test_resume_continues_the_clocks_from_where_they_stopped(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="1+0")
    await morris_moves(referee, 2)
    clock.advance(20)  # alice has 40 s left
    await referee.dispute(HERE, ALICE, "lag")
    clock.advance(500)
    assert not (await referee.resume(HERE, ALICE)).ok  # players cannot resume
    reply = await referee.resume(HERE, MOD, "no fault")
    assert reply.ok and "0:40" in reply.text, reply.text
    g = await store.game(1)
    assert g.frozen_at is None and g.deadline == clock.now() + 40
    clock.advance(39)
    assert (await play(referee, HERE, ALICE, "place a7")).ok  # still in time
    g = await store.game(1)
    assert g.bank0 == 60 - 20 - 39
    assert ("resume", MOD.id) in await kinds(store)


async def test_resume_at_once_does_not_say_a_pause_of_no_time(
    referee: Referee, clock: ManualClock
) -> None:
    """A pause under a second shows as "0:00 paused": noise, so the line leaves it out (in
    every language); a longer pause is still told."""
    await start(referee, "morris", clock="1+0")
    await morris_moves(referee, 2)
    await referee.dispute(HERE, ALICE, "lag")
    clock.advance(0.9)
    reply = await referee.resume(HERE, MOD, "no fault")
    assert reply.ok and reply.notice == "resumed_clocks_at_once", reply.text
    for lang in ("en", "hu", "eo", "is"):
        said = reply_words(reply, lang)
        assert "0:00" not in said and "mod" in said, (lang, said)
    await referee.dispute(HERE, ALICE, "lag again")
    clock.advance(61)
    reply = await referee.resume(HERE, MOD, "no fault")
    assert reply.notice == "resumed_clocks" and "1:01" in reply_words(reply, "hu")


async def test_rewind_shows_an_earlier_position_and_changes_nothing_else(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    await morris_moves(referee, 4)
    await referee.dispute(HERE, ALICE, "x")
    assert not (await referee.rewind(HERE, BOB, 1)).ok
    assert not (await referee.rewind(HERE, MOD, 9)).ok
    reply = await referee.rewind(HERE, MOD, 1, "checking")
    assert reply.ok and "after action 1: place a1;" in reply.text
    now = await referee.board(HERE)
    assert reply.board_text and reply.board_text != now.board_text  # an earlier position
    g = await store.game(1)
    assert g.seq == 4 and g.frozen_at is not None
    events = await store.events(1)
    assert (events[-1].kind, events[-1].user_id) == ("rewind", MOD.id)
    assert events[-1].details == {"to": 1, "reason": "checking"}


async def test_a_rewind_names_the_roll_of_the_drop_it_shows(referee: Referee, store: Store) -> None:
    """The rewind named "action 1 (drop row 4)" without what the die did with it."""
    await start(referee, "atmalof")
    await play(referee, HERE, ALICE, "drop row 4")
    roll = (await store.actions(1))[0].roll
    reply = await referee.rewind(HERE, MOD, 1, "check")
    landed = f"after action 1: drop row 4, rolled {roll}: landed on (4,{roll}); bob (Blue) to move"
    assert reply.ok and landed in reply.text, reply.text
    theirs = {
        "eo": f"drop row 4, ĵeto: {roll} – la peco falis sur (4,{roll})",
        "hu": f"drop row 4, dobás: {roll} – a bábu helye (4,{roll})",
        "is": f"drop row 4, kast: {roll}: steinninn lenti á (4,{roll})",
    }
    for lang, said in theirs.items():
        assert said in reply_words(reply, lang), reply_words(reply, lang)


async def test_restore_continues_from_an_earlier_action_and_keeps_the_later_ones_logged(
    referee: Referee, store: Store
) -> None:
    await start(referee, "atmalof")
    await play(referee, HERE, ALICE, "drop row 4")
    await play(referee, HERE, BOB, "drop col 2")
    await play(referee, HERE, ALICE, "drop row 3")
    await referee.dispute(HERE, BOB, "misclick, we agree to go back")
    assert not (await referee.restore(HERE, MOD, 1, "")).ok  # a reason is required
    reply = await referee.restore(HERE, MOD, 1, "both agree")
    two, three = (await store.all_actions(1))[1:3]
    assert reply.ok and f"drop col 2, rolled {two.roll}: " in reply.text, reply.text
    assert f"; drop row 3, rolled {three.roll}: " in reply.text  # each with its roll
    assert "(they stay in the log)" in reply.text  # two actions: said in the plural
    for lang in ("eo", "hu", "is"):  # was the English notice on every server
        said = reply_words(reply, lang)
        assert english_in(said, lang) == [] and "drop col 2, " in said, said
        assert "rolled" not in said and f"{three.roll}" in said, said
    g = await store.game(1)
    assert g.seq == 1 and g.frozen_at is None and g.rolls == 3  # rolls keep counting
    assert (await play(referee, HERE, BOB, "drop col 5")).ok
    g = await store.game(1)
    assert g.rolls == 4 and [a.action for a in await store.actions(1)][-1] == "drop col 5"
    assert len(await store.all_actions(1)) == 4
    verdict = await check_stored(store, g)
    assert verdict.ok, verdict.reason
    await referee.resign(HERE, ALICE)
    g = await store.game(1)
    record = await stored_record(store, g)
    assert verify(record).ok and verify(record).rolls_checked  # rolls 1..4 from the seed


async def test_void_ends_the_game_unrated_with_the_reason_logged(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris", rated=True)
    await morris_moves(referee, 2)
    await referee.dispute(HERE, ALICE, "cheating")
    assert not (await referee.void(HERE, BOB, "because")).ok
    reply = await referee.void(HERE, MOD, "engine use")
    assert reply.ok and reply.finished and "voided by moderator mod: engine use" in reply.text
    g = await store.game(1)
    assert (g.status, g.winner, g.termination, g.frozen_at) == ("aborted", None, "aborted", None)
    last = (await store.events(1))[-1]
    assert (last.kind, last.user_id, last.details["reason"]) == ("void", MOD.id, "engine use")
    assert (await check_stored(store, g)).ok


VOIDED = {  # a moderator's void, with their name
    "hu": "mod moderátor érvénytelenítette",
    "eo": "nuligita de moderiganto mod",
    "is": "stjórnandinn mod ógilti viðureignina",
}
ABORTED = {  # a moderator's abort, with their name and reason
    "hu": "mod moderátor megszakította: wrong channel",
    "eo": "ĉesigita de moderiganto mod: wrong channel",
    "is": "stjórnandinn mod hætti við viðureignina: wrong channel",
}

ABORT_WORD = {"hu": "megszakít", "eo": "ĉesig", "is": "hætt"}  # in any abort's sentence


async def test_a_void_is_told_as_a_moderators_void_not_as_an_abort(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    """The result line, the board shown later, the text board and /verify say that a moderator
    voided the game, in every language; known from the log's ending event, never its text."""
    await start(referee, "morris")
    await morris_moves(referee, 2)
    voided = await referee.void(HERE, MOD, "engine use")
    board = await referee.board(HERE)
    verified = await referee.verify(HERE)
    for lang, void in VOIDED.items():
        for reply in (voided, board):
            said = reply_words(reply, lang)
            assert f"{void}: engine use" in said and ABORT_WORD[lang] not in said, (lang, said)
        said = reply_words(verified, lang)
        assert void in said and ABORT_WORD[lang] not in said, (lang, said)
    assert "no result (voided by moderator mod: engine use)" in board.board_text
    said = "Nine Men's Morris, 2 actions, 4 log rows, no result (voided by moderator mod"
    assert f"Verified: {said}" in verified.text, verified.text
    assert "- result: no result (voided by moderator mod: engine use)" in verified.text
    drawn = await Referee(store, clock).board(HERE)  # with its picture and alt text
    assert "No result: voided by moderator mod: engine use." in drawn.alt_text, drawn.alt_text
    exported = (await referee.record(HERE)).file
    assert exported is not None
    imported = await Referee(store, clock).import_record(THERE, exported, name="voided.json")
    assert "No result: voided by moderator mod: engine use." in imported.alt_text, imported.alt_text


async def test_an_abort_is_still_told_as_an_abort(referee: Referee) -> None:
    await start(referee, "morris")
    aborted = await referee.moderator_abort(HERE, MOD, "wrong channel")
    for lang, abort in ABORTED.items():
        said = reply_words(aborted, lang)
        assert abort in said and VOIDED[lang] not in said, (lang, said)


async def test_award_decides_a_frozen_game(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    await morris_moves(referee, 2)
    await referee.dispute(HERE, BOB, "x")
    reply = await referee.award(HERE, MOD, BOB, "alice admitted it")
    assert reply.ok and reply.finished
    g = await store.game(1)
    assert (g.winner, g.termination) == (1, "awarded")
    assert [k for k, _ in await kinds(store)] == ["start", "dispute", "award"]
    assert (await check_stored(store, g)).ok


async def test_an_award_says_who_decided_and_why_in_every_language(
    referee: Referee, store: Store
) -> None:
    """The result, the board and the verdict shown later name the moderator and their reason
    in every language (from the award event's note), as the English always did; a log from
    before the note named the moderator says "decided by a moderator"."""
    await start(referee, "morris")
    await morris_moves(referee, 2)
    awarded = await referee.award(HERE, MOD, BOB, "alice admitted it")
    later = [await referee.board(HERE), await referee.verify(HERE)]
    for lang in ("en", "eo", "hu", "is"):
        decided = words(lang).t("end.awarded_by", name="mod", why="alice admitted it")
        for reply in (awarded, *later):
            assert decided in reply_words(reply, lang), (lang, reply_words(reply, lang))
    assert "decided by moderator mod: alice admitted it" in awarded.text
    old = event_ending("award", None, {"reason": "alice admitted it"})
    outcome = Outcome(Termination.AWARDED, 1, "decided by moderator mod: alice admitted it")
    said = texts.outcome_msg("morris", ("alice", "bob"), ("White", "Black"), outcome, ended=old)
    assert say(said, "eo") == "bob (Nigro) venkas (decidita de moderiganto)"


async def test_resuming_a_game_without_a_clock_says_nothing_of_clocks(referee: Referee) -> None:
    await start(referee, "morris")  # no clock
    await morris_moves(referee, 2)
    await referee.dispute(HERE, ALICE, "lag")
    reply = await referee.resume(HERE, MOD, "no fault")
    assert reply.ok and "resumes the game (no fault)" in reply.text
    assert "clock" not in reply.text.lower(), reply.text


async def test_a_frozen_game_without_a_clock_says_nothing_of_clocks(referee: Referee) -> None:
    await start(referee, "morris")  # no clock
    await morris_moves(referee, 2)
    frozen = await referee.dispute(HERE, ALICE, "lag")
    assert "Frozen for a dispute:" in frozen.text, frozen.text
    assert "clocks" not in (await referee.board(HERE)).text


MOD2 = Actor(919, "mod two", is_moderator=True)
# Every moderator action that decides the course or the result of a game: not for its players
ADJUDICATIONS: dict[str, Callable[[Referee, Actor], Awaitable[Reply]]] = {
    "award to self": lambda r, m: r.award(HERE, m, MOD, "I win"),
    "award to the opponent": lambda r, m: r.award(HERE, m, BOB, "generous"),
    "award a draw": lambda r, m: r.award(HERE, m, None, "a draw suits me"),
    "void": lambda r, m: r.void(HERE, m, "losing anyway"),
    "abort": lambda r, m: r.moderator_abort(HERE, m, "losing anyway"),
    "restore": lambda r, m: r.restore(HERE, m, 1, "I want my move back"),
    "resume": lambda r, m: r.resume(HERE, m, "no fault"),
}


@pytest.mark.parametrize("action", ADJUDICATIONS)
async def test_a_moderator_never_adjudicates_a_game_they_play(
    referee: Referee, store: Store, caplog: pytest.LogCaptureFixture, action: str
) -> None:
    """Issue 13.2: Manage Messages was enough to award yourself your own game. A moderator who
    plays is refused (privately, nothing changes, the log says who tried); another moderator
    decides. Rewind, read-only, stays open to them."""
    await start(referee, "morris", first=MOD, second=BOB)
    for person, point in ((MOD, "a1"), (BOB, "b2")):
        assert (await play(referee, HERE, person, f"place {point}")).ok
    assert (await referee.dispute(HERE, BOB, "he moved twice")).ok
    before = await store.game(1)
    caplog.set_level(logging.INFO)
    refused = await ADJUDICATIONS[action](referee, MOD)
    assert not refused.ok and refused.ephemeral and "another moderator" in refused.text
    assert await store.game(1) == before
    (tried,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert str(MOD.id) in tried and "game 1" in tried, tried
    assert (await referee.rewind(HERE, MOD, 1)).ok  # looking back changes nothing
    assert (await ADJUDICATIONS[action](referee, MOD2)).ok


async def test_moderators_act_from_the_disputes_thread(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    await morris_moves(referee, 2)
    thread = type(HERE)(HERE.guild_id, 555, parent_id=HERE.channel_id)
    assert not (await referee.resume(thread, MOD)).ok  # not frozen: the thread finds nothing
    await referee.dispute(HERE, BOB, "x")
    assert (await referee.rewind(thread, MOD, 2)).ok
    assert (await referee.resume(thread, MOD)).ok


async def test_the_log_names_who_did_each_step(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    await morris_moves(referee, 2)
    await referee.dispute(HERE, BOB, "lag")
    await referee.rewind(HERE, MOD, 1)
    await referee.resume(HERE, MOD, "ok")
    steps = [(e.kind, e.user_id, json.loads(e.note).get("reason")) for e in await store.events(1)]
    assert steps[1:] == [
        ("dispute", BOB.id, "lag"),
        ("rewind", MOD.id, "review"),
        ("resume", MOD.id, "ok"),
    ]


async def test_the_console_disputes_exports_and_imports(tmp_path: Path) -> None:
    """``dispute`` freezes the table's game; ``record`` writes the file; ``import`` checks it
    (a good copy verifies, a copy with an edited row names the row) with the chain head shown."""
    script = (
        "alice: challenge bob morris first me\nbob: accept\nalice: place a7\n"
        "bob: dispute she was slow\nalice: place a1\nbob: record\nquit\n"
    )
    out = io.StringIO()
    images = tmp_path / "out"
    await console.play(str(tmp_path / "c.db"), io.StringIO(script), out, images, render=False)
    text = out.getvalue()
    assert "bob (Black) opened a dispute: she was slow" in text
    assert "(refused) the game is frozen" in text
    saved = images / "game-1.json"
    assert "Log #" in text.split("The record of game 1")[1]  # the head shown with the file
    forged = json.loads(saved.read_text())
    forged["log"][1]["notation"] = "place a6"
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    script = f"carol: import {saved}\ncarol: import {tmp_path / 'forged.json'}\nquit\n"
    out = io.StringIO()
    await console.play(str(tmp_path / "d.db"), io.StringIO(script), out, images, render=False)
    text = out.getvalue()
    assert "Imported game-1.json: Nine Men's Morris" in text
    assert "Verified: Nine Men's Morris" in text
    assert 'Problem: row 2 (action 1, "place a6")' in text


async def test_restore_says_the_clocks_continue_from_their_current_times(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris", clock="10+0")
    await morris_moves(referee, 3)
    await referee.dispute(HERE, BOB, "wrong point")
    banks = (await store.game(1)).banks
    reply = await referee.restore(HERE, MOD, 2, "both agree")
    assert reply.ok and "The clocks continue from their current times." in reply.text
    assert (await store.game(1)).banks == banks


async def test_rewind_works_on_a_finished_game_and_it_still_verifies(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    await morris_moves(referee, 4)
    await referee.resign(HERE, BOB)
    reply = await referee.rewind(HERE, MOD, 2, "disputed after the end")
    assert reply.ok and "after action 2: place b2;" in reply.text
    assert "Read-only: the game is over, after action 4." in reply.text
    g = await store.game(1)
    assert (g.status, g.winner) == ("finished", 0)
    assert (await store.events(1))[-1].kind == "resign"  # the chain ends with the result
    verdict = await check_stored(store, g)
    assert verdict.ok, verdict.reason
    assert verify(await stored_record(store, g)).ok


async def test_rewind_of_a_finished_game_from_the_disputes_thread(referee: Referee) -> None:
    await start(referee, "morris")
    await morris_moves(referee, 2)
    await referee.resign(HERE, ALICE)
    thread = Where(HERE.guild_id, 77, parent_id=HERE.channel_id)
    assert (await referee.rewind(thread, MOD, 1)).ok
    assert not (await referee.restore(HERE, MOD, 1, "too late")).ok  # restore stays live-only


async def test_the_dispute_says_once_that_the_clocks_are_stopped(referee: Referee) -> None:
    await start(referee, "morris", clock="10+0")
    reply = await referee.dispute(HERE, ALICE, "slow")
    assert sum("clocks are stopped" in line for line in reply.text.splitlines()) == 1


@pytest.mark.parametrize("lang", ["hu", "eo", "is"])
async def test_a_forged_records_verdict_is_said_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    """Where a forgery goes wrong is said from its codes too: the edited row, its action and
    why, with no English sentence part the language's catalog lacks."""
    script = (
        "alice: challenge bob morris first me\nbob: accept\nalice: place a7\nbob: record\nquit\n"
    )
    images = tmp_path / "out"
    await console.play(str(tmp_path / "c.db"), io.StringIO(script), io.StringIO(), images,
                       render=False)  # fmt: skip
    forged = json.loads((images / "game-1.json").read_text())
    forged["log"][1]["notation"] = "place a6"
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    out = io.StringIO()
    script = f"carol: import {tmp_path / 'forged.json'}\nquit\n"
    await console.play(str(tmp_path / "d.db"), io.StringIO(script), out, images, render=False,
                       lang=lang)  # fmt: skip
    said = [line for line in out.getvalue().splitlines() if "place a6" in line]
    assert said, out.getvalue()
    row = words(lang).t("problem.row_action", n=2, k=1, action='"place a6"')
    assert row in said[0], said
    assert all(english_in(line, lang) == [] for line in said), said


async def test_a_players_abort_says_who_aborted_in_every_language(referee: Referee) -> None:
    """Who aborted is the log's ending event's seat, said with its name in every language
    (English keeps the stored reason; the others said only "aborted"). A moderator's abort
    is said with the moderator's reason."""
    await start(referee, "morris")
    aborted = await referee.abort(HERE, ALICE)
    said = {
        "en": "no result (aborted by alice before both moved)",
        "hu": "nincs eredmény (alice megszakította, mielőtt mindketten léptek volna)",
        "eo": "ĉesigita de alice antaŭ ol ambaŭ movis",
        "is": "alice hætti við viðureignina áður en báðir höfðu leikið",
    }
    later = await referee.board(HERE)
    for lang, text in said.items():
        for reply in (aborted, later):
            assert text in reply_words(reply, lang), (lang, reply_words(reply, lang))
    await start(referee, "morris")
    stopped = await referee.moderator_abort(HERE, MOD, "wrong channel")
    assert "nincs eredmény (mod moderátor megszakította: wrong channel)" in reply_words(
        stopped, "hu"
    )
    assert "aborted by moderator mod: wrong channel" in reply_words(stopped, "en")


async def test_a_moderators_abort_says_its_reason_as_the_english_does(referee: Referee) -> None:
    """The log keeps the reason as typed; the result says it trimmed, as the English
    result does, in every language."""
    await start(referee, "morris")
    stopped = await referee.moderator_abort(HERE, MOD, "   wrong channel   ")
    assert "aborted by moderator mod: wrong channel)" in reply_words(stopped, "en")
    said = reply_words(stopped, "hu")
    assert "nincs eredmény (mod moderátor megszakította: wrong channel)" in said, said


def test_an_abort_with_neither_seat_nor_reason_is_said_as_an_abort() -> None:
    """A record's abort event may hold no seat and no reason (a record is untrusted): it is
    said as 'aborted', not as a moderator's reason that is empty ("aborted by a moderator: ")."""
    assert event_ending("abort", None, {}) == Ending()
    assert event_ending("abort", None, {"reason": "  "}) == Ending()
    assert event_ending("abort", None, {"reason": " why "}) == Ending(stopped="why")
    assert event_ending("abort", 1, {}) == Ending(by=1)
    assert event_ending("void", None, {}) == Ending(voided="")
    assert event_ending("resign", 0, {"reason": "x"}) == Ending()


def test_a_records_moderator_that_is_not_a_short_text_is_not_said() -> None:
    """A record is untrusted: its ending note's ``moderator`` is said only as text, at most
    100 characters; an object, a number or a list is said as no name at all (the result then
    says "a moderator"), never as Python's repr of it."""
    for hostile in ({"name": "x"}, 42, ["mod"], True):
        ended = event_ending("award", None, {"reason": "cheating", "moderator": hostile})
        assert ended == Ending(awarded="cheating"), hostile
    long = event_ending("void", None, {"reason": "spam", "moderator": "m" * 5000})
    assert long == Ending(voided="spam", moderator="m" * 100)


def test_a_void_from_before_the_note_named_the_moderator_says_a_moderator() -> None:
    """A void in a log written before its note held the moderator's name is said "voided by a
    moderator: <reason>" in every other language, not "voided by moderator : <reason>" (the
    English keeps the result's own words)."""
    outcome = Outcome(Termination.ABORTED, None, "voided by moderator mod: spam")
    old = event_ending("void", None, {"reason": "spam"})
    said = texts.outcome_msg("morris", ("alice", "bob"), ("White", "Black"), outcome, ended=old)
    for lang in ("eo", "hu", "is"):
        assert words(lang).t("end.voided_why", why="spam") in say(said, lang), lang


def test_an_abort_from_before_the_note_named_the_moderator_says_a_moderator() -> None:
    """The same for a moderator's abort: "aborted by a moderator: <reason>", no empty name."""
    outcome = Outcome(Termination.ABORTED, None, "aborted by moderator mod: wrong channel")
    old = event_ending("abort", None, {"reason": "wrong channel"})
    said = texts.outcome_msg("morris", ("alice", "bob"), ("White", "Black"), outcome, ended=old)
    for lang in ("eo", "hu", "is"):
        expected = words(lang).t("end.aborted_by_moderator", why="wrong channel")
        assert expected in say(said, lang), (lang, say(said, lang))


async def test_a_dispute_says_that_it_drops_the_question_waiting(referee: Referee) -> None:
    """A draw offer waiting when a dispute froze the game vanished without a word (a player's
    finding): the dispute says it is dropped, in every language; with none waiting, nothing."""
    await start(referee, "morris")
    await morris_moves(referee, 2)
    assert (await referee.offer_draw(HERE, ALICE)).ok
    disputed = await referee.dispute(HERE, BOB, "lag")
    assert "draw offer or takeback request that was waiting is dropped" in disputed.text
    for lang in ("eo", "hu", "is"):
        said = reply_words(disputed, lang)
        assert words(lang).t("dispute.questions_dropped") in said and not english_in(said, lang)
    assert (await referee.resume(HERE, MOD, "ok")).ok
    again = await referee.dispute(HERE, ALICE, "lag again")
    assert "is dropped" not in again.text


async def test_an_import_in_another_server_does_not_tell_that_servers_game(
    referee: Referee,
) -> None:
    """A record of game 1 here, imported in another server, is not compared with game 1 (which
    that server never played): the answer there says no such game was played there."""
    await start(referee, "morris")
    assert (await referee.resign(HERE, BOB)).ok
    exported = (await referee.record(HERE)).file
    assert exported is not None
    here = await referee.import_record(THERE, exported, name="game-1.json")
    assert "This is game 1 of this server" in here.text, here.text
    away = await referee.import_record(Where(guild_id=2, channel_id=20), exported)
    assert "No game 1 was played in this server" in away.text, away.text
    assert "This is game 1" not in away.text


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
def test_a_rewound_drop_whose_square_was_taken_says_the_turn_was_lost(lang: str) -> None:
    """The second drop's die picks the square the first landed on: the turn was lost."""
    rows = [SimpleNamespace(action="drop row 4", roll=2, side=s) for s in (0, 1)]
    start_state = engine.get_game("atmalof").new("standard")
    said = say(one_after_another(rolls_said("atmalof", start_state, rows)), lang)
    w = words(lang)
    landed = w.t("action.rolled", action="drop row 4", roll=2, square="(4,2)")
    lost = w.t("action.rolled_lost", action="drop row 4", roll=2, square="(4,2)")
    assert said == w.t("turns.then", first=landed, second=lost)
    assert lang == "en" or english_in(said, lang) == [], said
