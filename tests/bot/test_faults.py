"""Database faults: a read-only file, a full disk, a lock held by another writer, a file from a
newer schema. Each refuses with one clear log line and the polite "can't save" note, leaves the
game, its log and the referee's position cache exactly as they were, and clears by itself: the
next command works without a restart.

The faults are real SQLite conditions on a real file: ``PRAGMA query_only`` makes SQLite refuse
writes as on a read-only file (the tests run as root, for whom file modes do not bite),
``PRAGMA max_page_count`` makes it answer "database or disk is full", and a second connection
holds the write lock past the store's busy timeout.
"""

from __future__ import annotations

import hashlib
import logging
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor
from bot.store import SchemaTooNew, SqliteStore, Store, StoreUnavailable
from bot.store.migrations import LATEST
from bot.texts import CANT_SAVE
from tests.bot.conftest import ALICE, BOB, HERE, play, start, swept

LOCK_WAIT_MS = 50  # the store's busy timeout in these tests: the lock test waits this long
UNLIMITED_PAGES = 1_073_741_823


@pytest.fixture
async def store(db_path: str) -> AsyncIterator[Store]:
    s = await SqliteStore.open(db_path, busy_timeout_ms=LOCK_WAIT_MS)
    yield s
    await s.close()


async def snapshot(store: Store) -> dict[str, Any]:
    """Every row of every table: what "nothing changed" is measured against."""
    if hasattr(store, "pool"):  # PostgreSQL: the same, from its catalog
        async with store.pool.acquire() as conn:
            names = await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() ORDER BY table_name"
            )
            return {
                r[0]: sorted(tuple(x) for x in await conn.fetch(f"SELECT * FROM {r[0]}"))
                for r in names
            }
    tables = [
        r[0]
        for r in await store.db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )
    ]
    out = {}
    for name in tables:
        out[name] = [tuple(r) for r in await store.db.execute_fetchall(f"SELECT * FROM {name}")]
    return out


async def pragma(store: Store, text: str) -> None:
    await store.db.execute(f"PRAGMA {text}")


def assert_cache_not_ahead(referee: Referee, game_id: int, last_hash: str) -> None:
    """The referee's cached position, if any, belongs to the log head in the file."""
    cached = referee.ctx.states.get(game_id)
    assert cached is None or cached[0] == last_hash


def fault_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.store" and r.levelno >= logging.ERROR
    ]


async def refused_without_change(
    referee: Referee,
    store: Store,
    caplog: pytest.LogCaptureFixture,
    actor: Actor,
    text: str,
    reason: str,
) -> None:
    """``text`` cannot be saved: the referee's wrapper answers "can't save" (the reason as data),
    so does the console text path, one log line names the fault and the game, and no row of
    any table changed."""
    before = await snapshot(store)
    caplog.clear()
    answer = await referee.act(HERE, actor, text)
    assert not answer.ok and answer.ephemeral and answer.reason == "cant_save"
    assert answer.text == CANT_SAVE
    (line,) = fault_lines(caplog)
    assert reason in line and "a change to game 1" in line and store.path in line, line
    reply = await referee.handle(HERE, actor, text)
    assert not reply.ok and reply.ephemeral and reply.text == CANT_SAVE
    assert await snapshot(store) == before
    g = await store.game(1)
    assert_cache_not_ahead(referee, g.id, g.last_hash)


async def test_a_read_only_database_refuses_moves_and_recovers(
    referee: Referee, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    await pragma(store, "query_only = ON")
    await refused_without_change(referee, store, caplog, BOB, "place d1", "read-only")
    board = await referee.board(HERE)  # reading still works
    assert board.ok and "bob" in board.text.lower()
    await pragma(store, "query_only = OFF")
    moved = await play(referee, HERE, BOB, "place d1")
    assert moved.ok, moved.text
    assert [a.action for a in await store.actions(1)] == ["place d7", "place d1"]


async def test_a_full_disk_refuses_the_move_that_does_not_fit_and_recovers(
    referee: Referee, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await start(referee, "abalone")
    pages = next(iter(await store.db.execute_fetchall("PRAGMA page_count")))[0]
    await pragma(store, f"max_page_count = {pages}")
    players, rng = (ALICE, BOB), random.Random(7)
    refused = None
    for n in range(400):  # moves fill the free space left in the file's pages, then one fails
        text = rng.choice(await referee.legal_for(HERE, players[n % 2]))
        reply = await referee.act(HERE, players[n % 2], text)
        if reply.reason == "cant_save":
            refused = (players[n % 2], text)
            break
        assert reply.ok, reply.text
    assert refused is not None, "the file never filled up"
    await refused_without_change(referee, store, caplog, *refused, "the disk is full")
    await pragma(store, f"max_page_count = {UNLIMITED_PAGES}")
    g = await store.game(1)
    moved = await referee.act(HERE, *refused)
    assert moved.ok, moved.text
    assert (await store.game(1)).seq == g.seq + 1


async def test_a_lock_held_past_the_busy_timeout_refuses_and_then_clears(
    referee: Referee, store: Store, db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    await start(referee, "atmalof")
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another writer, e.g. a ladder rebuild
        await refused_without_change(referee, store, caplog, ALICE, "drop row 3", "locked")
        assert (await referee.board(HERE)).ok  # WAL readers are not blocked
        caplog.clear()
        made = await referee.challenge(HERE.__class__(1, 99), ALICE, "morris", opponent=BOB)
        assert not made.ok and made.reason == "cant_save"
        assert "locked" in fault_lines(caplog)[0]
        assert "a challenge in channel 99" in fault_lines(caplog)[0]
    finally:
        other.execute("ROLLBACK")
        other.close()
    reply = await play(referee, HERE, ALICE, "drop row 3")
    assert reply.ok and not reply.pending_roll, reply.text
    assert (await store.actions(1))[0].roll is not None


async def test_a_roll_that_cannot_be_saved_is_rolled_when_the_fault_clears(
    referee: Referee, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await start(referee, "atmalof")
    announced = await referee.act(HERE, ALICE, "drop row 4")
    assert announced.ok and announced.pending_roll
    before = await snapshot(store)
    await pragma(store, "query_only = ON")
    assert (await referee.roll_pending(HERE)).reason == "cant_save"
    with pytest.raises(StoreUnavailable):  # the sweeper is no command: its caller logs it
        await swept(referee, ManualClock().now() + 3600)
    assert await snapshot(store) == before
    await pragma(store, "query_only = OFF")
    board = await referee.board(HERE)  # completes the stored announcement first
    assert board.ok and "rolls" in board.text, board.text
    (drop,) = await store.actions(1)
    assert drop.action == "drop row 4" and drop.roll is not None


async def test_starting_a_game_is_all_or_nothing_under_a_fault(
    referee: Referee, store: Store
) -> None:
    made = await referee.challenge(HERE, ALICE, "morris", opponent=BOB, starter="me")
    assert made.ok
    before = await snapshot(store)
    await pragma(store, "query_only = ON")
    refused = await referee.accept(HERE, BOB)
    assert not refused.ok and refused.reason == "cant_save"
    assert await snapshot(store) == before
    await pragma(store, "query_only = OFF")
    assert (await referee.accept(HERE, BOB)).ok


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def newer_file(path: Path) -> None:
    store = await SqliteStore.open(path)
    await store.close()
    db = sqlite3.connect(path)  # closed here, not whenever it is collected: the last close
    db.execute(f"PRAGMA user_version = {LATEST + 1}")  # moves the WAL into the file, so the
    db.commit()  # digest below is the file as the bot finds it
    db.close()


async def test_a_file_from_a_newer_schema_is_refused_untouched(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "newer.db"
    await newer_file(path)
    digest, listing = file_digest(path), sorted(p.name for p in tmp_path.iterdir())
    caplog.clear()
    with pytest.raises(SchemaTooNew):
        await SqliteStore.open(path)
    (line,) = [r for r in caplog.records if r.name == "bot.store"]
    assert line.levelno == logging.CRITICAL
    text = line.getMessage()
    assert str(path) in text and f"version {LATEST + 1}" in text and str(LATEST) in text
    assert file_digest(path) == digest  # never migrated down, never switched to WAL
    assert sorted(p.name for p in tmp_path.iterdir()) == listing
    store = await SqliteStore.open(tmp_path / "other.db")  # the bot itself is fine with other files
    await store.close()


def test_the_bot_does_not_start_on_a_newer_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import asyncio

    path = tmp_path / "newer.db"
    asyncio.run(newer_file(path))
    digest = file_digest(path)
    monkeypatch.setenv("REFEREE_DB", str(path))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["console"]) == 3
    (line,) = [r.getMessage() for r in caplog.records if r.name == "bot.store"]
    assert line.startswith(f"refusing to open {path}")
    assert file_digest(path) == digest
