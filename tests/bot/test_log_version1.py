"""Games stored before migration 4 (log_version 1: only the actions are chained, events are not)
still play under the current code: a takeback resets the chain head, events do not crash."""

from __future__ import annotations

import json

import pytest

from bot.clock import ManualClock
from bot.referee import Referee
from bot.store import Store
from engine import chain
from engine.record import Record
from tests.bot.conftest import ALICE, BOB, HERE, MOD, checks_out, play, start

pytestmark = pytest.mark.sqlite_only  # it edits the SQLite file by hand


async def as_log_version_1(store: Store, game_id: int) -> None:
    """What migration 4 leaves of a game started before it: log_version 1, no links, unchained
    events (the new columns NULL), and the head over the actions alone."""
    actions = await store.actions(game_id)
    head = actions[-1].hash if actions else chain.GENESIS
    async with store.transaction("making an old game") as tx:
        db = tx.db  # type: ignore[attr-defined]  # SQLite's own, for this test
        # The log is append-only; the old bot simply never wrote these columns. Lift the
        # guards for this one rewrite and put them back exactly as they were.
        guards = await db.execute_fetchall(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
            " AND name IN ('actions_are_never_updated', 'events_are_never_updated')"
        )
        assert len(guards) == 2
        for name, _ in guards:
            await db.execute(f"DROP TRIGGER {name}")
        await db.execute(
            "UPDATE games SET log_version = 1, links = 0, last_hash = ? WHERE id = ?",
            (head, game_id),
        )
        await db.execute("UPDATE actions SET link = NULL WHERE game_id = ?", (game_id,))
        await db.execute(
            "UPDATE events SET link = NULL, prev_hash = NULL, hash = NULL WHERE game_id = ?",
            (game_id,),
        )
        for _, sql in guards:
            await db.execute(sql)


async def old_game(store: Store, clock: ManualClock) -> Referee:
    """A Morris game as the old bot left it, and a referee (the current code) started afresh."""
    await start(Referee(store, clock, render=False), "morris")
    await as_log_version_1(store, 1)
    g = await store.game(1)
    assert g.log_version == 1 and g.links == 0 and g.last_hash == chain.GENESIS
    return Referee(store, clock, render=False)


async def test_moves_in_an_old_game_chain_the_actions_only(
    store: Store, clock: ManualClock
) -> None:
    referee = await old_game(store, clock)
    for actor, text in ((ALICE, "place d7"), (BOB, "place d1")):
        assert (await play(referee, HERE, actor, text)).ok
    g = await store.game(1)
    rows = await store.actions(1)
    assert [r.prev_hash for r in rows] == [chain.GENESIS, rows[0].hash]
    assert g.last_hash == rows[-1].hash and g.links == 0
    assert all(r.link is None for r in rows)
    assert checks_out(await referee.verify(HERE))


async def test_a_takeback_in_an_old_game_resets_the_chain_head(
    store: Store, clock: ManualClock
) -> None:
    # Kills: answer_takeback skipping `last_hash` for log_version 1 games (or setting the head of
    # what was undone): the next move would chain onto a move that is no longer in the game.
    referee = await old_game(store, clock)
    for actor, text in ((ALICE, "place d7"), (BOB, "place d1"), (ALICE, "place a1")):
        assert (await play(referee, HERE, actor, text)).ok
    assert (await referee.request_takeback(HERE, ALICE)).ok
    assert (await referee.answer_takeback(HERE, BOB, True)).ok
    g = await store.game(1)
    kept = await store.actions(1)
    assert [a.action for a in kept] == ["place d7", "place d1"]
    assert g.seq == 2 and g.last_hash == kept[-1].hash
    assert (await play(referee, HERE, ALICE, "place g7")).ok
    rows = await store.actions(1)
    assert rows[-1].action == "place g7" and rows[-1].prev_hash == kept[-1].hash
    assert checks_out(await referee.verify(HERE))


async def test_a_takeback_of_the_first_move_in_an_old_game_resets_to_genesis(
    store: Store, clock: ManualClock
) -> None:
    referee = await old_game(store, clock)
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await referee.request_takeback(HERE, ALICE)).ok
    assert (await referee.answer_takeback(HERE, BOB, True)).ok
    g = await store.game(1)
    assert g.seq == 0 and g.last_hash == chain.GENESIS
    assert (await play(referee, HERE, ALICE, "place a1")).ok
    assert (await store.actions(1))[0].prev_hash == chain.GENESIS


async def test_events_in_an_old_game_stay_unchained_and_do_not_crash(
    store: Store, clock: ManualClock
) -> None:
    referee = await old_game(store, clock)
    assert (await play(referee, HERE, ALICE, "place d7")).ok
    assert (await referee.offer_draw(HERE, BOB)).ok
    head = (await store.game(1)).last_hash
    ended = await referee.resign(HERE, BOB)
    assert ended.ok and ended.finished
    g = await store.game(1)
    assert (g.status, g.winner, g.termination) == ("finished", 0, "resignation")
    assert g.last_hash == head and g.links == 0  # events never move an old game's head
    events = await store.events(1)
    assert [e.kind for e in events][-1] == "resign"
    assert all(e.link is None and e.hash is None and e.prev_hash is None for e in events)
    verified = await referee.verify(HERE)
    assert checks_out(verified), verified.text
    record = await referee.record(HERE)
    assert record.ok and record.file is not None
    exported = Record.from_json(record.file.decode())
    assert json.loads(record.file)["version"] == 1 and len(exported.actions) == 1


async def test_a_moderators_restore_in_an_old_game_resets_the_chain_head(
    store: Store, clock: ManualClock
) -> None:
    # Kills: restore skipping `last_hash` for log_version 1 games (bot/disputes.py).
    referee = await old_game(store, clock)
    for actor, text in ((ALICE, "place d7"), (BOB, "place d1"), (ALICE, "place a1")):
        assert (await play(referee, HERE, actor, text)).ok
    assert (await referee.dispute(HERE, BOB, "misclick, we agree to go back")).ok
    assert (await referee.restore(HERE, MOD, 1, "both agree")).ok
    g = await store.game(1)
    kept = await store.actions(1)
    assert [a.action for a in kept] == ["place d7"]
    assert g.seq == 1 and g.last_hash == kept[0].hash
    assert (await play(referee, HERE, BOB, "place g7")).ok
    assert (await store.actions(1))[-1].prev_hash == kept[0].hash
    assert checks_out(await referee.verify(HERE))
