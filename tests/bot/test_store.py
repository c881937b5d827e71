"""The store: migrations, pragmas, the append-only chained log, the version guard, races."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.records import iso
from bot.store import EventRow, GameMovedOn, SqliteStore, Store
from bot.store.migrations import LATEST, MIGRATIONS
from engine import chain
from engine.record import event_hash, row_hash
from tests.bot.conftest import ALICE, BOB, HERE, play, start


async def test_a_fresh_file_gets_the_newest_schema(db_path: str) -> None:
    store = await SqliteStore.open(db_path)
    try:
        assert await store.schema_version() == LATEST
        mode = await store.db.execute_fetchall("PRAGMA journal_mode")
        keys = await store.db.execute_fetchall("PRAGMA foreign_keys")
        assert next(iter(mode))[0] == "wal" and next(iter(keys))[0] == 1
    finally:
        await store.close()


async def test_an_older_file_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:  # what version 1 of the bot left behind
        old.executescript(MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
        old.execute("INSERT INTO players VALUES (1, 'alice', 0, 0)")
    store = await SqliteStore.open(path)
    try:
        assert await store.schema_version() == LATEST
        rows = await store.db.execute_fetchall("SELECT name FROM players")
        assert [r[0] for r in rows] == ["alice"]
        assert await store.guild_settings(5) == {
            "theme": None,
            "ladder": {},
            "takebacks": True,
            "language": None,
        }
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_the_action_log_is_append_only_and_chained(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    await play(referee, HERE, BOB, "place d1")
    rows = await store.log(1)  # the start event, then the two moves: one chain
    assert [getattr(r, "kind", None) or r.action for r in rows] == ["start", "place d7", "place d1"]
    prev = chain.GENESIS
    for row in rows:
        assert row.prev_hash == prev
        if isinstance(row, EventRow):
            when = iso(row.at)
            expected = event_hash(prev, row.kind, row.seat, row.user_id, when, row.details)
        else:
            expected = row_hash(prev, row.seq, row.side, row.actor, row.action, row.roll, row.at)
        assert row.hash == expected
        prev = row.hash
    assert (await store.game(1)).last_hash == prev
    for sql in ("UPDATE actions SET action = 'place a1'", "DELETE FROM actions"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await store.db.execute(sql)


async def test_a_stale_version_does_not_land(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    g = await store.active_game(HERE.channel_id)
    async with store.transaction() as tx:
        await tx.change_game(g, {"draw_offer": 0})
    with pytest.raises(GameMovedOn):
        async with store.transaction() as tx:
            await tx.change_game(g, {"draw_offer": 1})
    assert (await store.game(g.id)).draw_offer == 0


async def test_many_concurrent_commands_one_lands_per_version(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    points = ["place a1", "place a4", "place a7", "place d7", "place g1", "place g4"]
    replies = await asyncio.gather(*(referee.act(HERE, ALICE, p) for p in points * 3))
    landed = [r for r in replies if r.ok]
    assert len(landed) == 1
    # by code, not words: a command that read the game before the move landed finds it moved
    # on, one that read it after finds it the other side's turn
    assert {r.reason for r in replies if not r.ok} <= {"moved_on", "not_your_turn"}
    assert len(await store.actions(landed[0].game_id)) == 1


async def test_two_stores_on_one_file_race_safely(db_path: str) -> None:
    clock = ManualClock()
    one, two = await SqliteStore.open(db_path), await SqliteStore.open(db_path)
    try:
        a, b = Referee(one, clock, render=False), Referee(two, clock, render=False)
        await start(a, "morris")
        for _ in range(5):
            mover = ALICE if len(await one.actions(1)) % 2 == 0 else BOB
            legal = await a.legal_for(HERE, mover)
            replies = await asyncio.gather(
                a.act(HERE, mover, legal[0]), b.act(HERE, mover, legal[-1])
            )
            assert sum(r.ok for r in replies) == 1, [r.text for r in replies]
        g = await two.game(1)
        assert g.seq == 5 and g.version == 5 and len(await one.actions(1)) == 5
    finally:
        await one.close()
        await two.close()
