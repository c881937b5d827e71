"""An active game whose stored log no longer replays (a damaged or hand-edited row): its players
are told once, nothing raises, moderators can void, abort or award it, and the channel is free
again afterwards. The row is edited by hand in the real file, as an operator's mistake would."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.clock import ManualClock
from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.replies import Actor
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, MOD, start, swept

pytestmark = pytest.mark.sqlite_only  # it edits the SQLite file by hand


def hand_edit(path: str, seq: int, action: str) -> None:
    """Rewrite one stored move behind the bot's back (the append-only trigger set aside)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        (trigger,) = db.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'actions_are_never_updated'"
        ).fetchone()
        db.execute("DROP TRIGGER actions_are_never_updated")
        db.execute("UPDATE actions SET action = ? WHERE seq = ?", (action, seq))
        db.execute(trigger)
    finally:
        db.close()


async def broken_game(
    store: Store, db_path: str, clock: ManualClock, time_control: str = "none"
) -> Referee:
    """A morris game with two moves, the first edited into nonsense; a freshly started referee
    (the running one would still hold the position in its cache)."""
    referee = Referee(store, clock, render=False)
    await start(referee, "morris", clock=time_control)
    assert (await referee.act(HERE, ALICE, "place d7")).ok
    assert (await referee.act(HERE, BOB, "place d1")).ok
    hand_edit(db_path, 1, "place q9")
    return Referee(store, clock, render=False)


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_players_of_a_broken_game_are_told_once_and_nothing_raises(
    store: Store, db_path: str, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    referee = await broken_game(store, db_path, clock)
    caplog.clear()
    first = await referee.act(HERE, ALICE, "place d6")
    assert not first.ok and not first.ephemeral, first  # told in the channel
    assert "no longer replays" in first.text and "/referee void" in first.text
    assert "(action 1, 'place q9')" in first.text  # each language quotes it its own way
    assert "(1. művelet, „place q9”)" in reply_words(first, "hu"), reply_words(first, "hu")
    (line,) = errors(caplog)
    assert "game 1" in line and '"channel": 10' in line and '"seq": 1' in line, line
    assert "place q9" in line
    again = await referee.act(HERE, BOB, "place d6")
    assert not again.ok and again.ephemeral  # once is enough: then privately
    for reply in (
        await referee.board(HERE),
        await referee.resign(HERE, ALICE),
        await referee.offer_draw(HERE, BOB),
        await referee.handle(HERE, ALICE, "place d6"),
    ):
        assert not reply.ok and reply.ephemeral, reply
    assert await referee.legal_for(HERE, ALICE) == []
    assert len(errors(caplog)) == 1  # logged once, with its context
    refused = await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB)
    assert not refused.ok  # the channel is still taken until a moderator ends it
    assert (await store.game(1)).status == "active"


@pytest.mark.parametrize("decision", ["void", "abort", "award"])
async def test_a_moderator_ends_a_broken_game_and_frees_the_channel(
    store: Store,
    db_path: str,
    clock: ManualClock,
    caplog: pytest.LogCaptureFixture,
    decision: str,
) -> None:
    referee = await broken_game(store, db_path, clock)
    assert not (await referee.act(HERE, ALICE, "place d6")).ok
    caplog.clear()
    if decision == "void":
        ended = await referee.void(HERE, MOD, "the log was damaged")
    elif decision == "abort":
        ended = await referee.moderator_abort(HERE, MOD, "the log was damaged")
    else:
        ended = await referee.award(HERE, MOD, BOB, "the log was damaged")
    assert ended.ok and ended.finished, ended.text
    g = await store.game(1)
    assert g.status == ("finished" if decision == "award" else "aborted")
    assert not errors(caplog)
    made = await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, starter="me")
    assert made.ok, made.text
    assert (await referee.accept(HERE, BOB)).ok


async def test_the_sweeper_tells_a_broken_overdue_game_once_and_goes_on(
    store: Store, db_path: str, clock: ManualClock
) -> None:
    referee = await broken_game(store, db_path, clock, "1")
    other = Actor(404, "dana")
    there = HERE.__class__(1, 77)
    await start(referee, "morris", where=there, first=other, second=Actor(505, "eve"), clock="1")
    later = clock.now() + 3600
    notices = await swept(referee, later)
    by_channel = {n.where.channel_id: n.reply for n in notices}
    assert "no longer replays" in by_channel[10].text  # told once...
    assert by_channel[77].finished  # ...and the other game's flag still fell
    assert [n for n in await swept(referee, later + 1) if n.where.channel_id == 10] == []


async def test_the_history_of_a_broken_game_lists_its_rows_as_stored(
    store: Store, db_path: str, clock: ManualClock
) -> None:
    """The history groups a mill with its removal by replaying the log; from a row that no
    longer replays it lists each row as stored, so a moderator can still read what happened."""
    referee = await broken_game(store, db_path, clock)
    history = await referee.history(HERE)
    said = [line for line in history.text.splitlines() if line[:1].isdigit()]
    assert [line.split(" (")[0] for line in said] == ["1. White: place q9", "2. Black: place d1"]
