"""The Store protocol's units of work against the real SQLite and PostgreSQL (issues 14, 16): a
transaction lands whole or not at all, a reading sees one snapshot, and of two changes to one
version only one lands (even from two connections, or two processes' stores, at once)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time

import asyncpg
import pytest

from bot.referee import Referee
from bot.store import GameMovedOn, Store
from bot.store.protocol import NewAction
from tests.bot.conftest import start


async def test_a_transaction_that_raises_leaves_nothing(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    g = await store.game(1)
    assert g is not None
    with pytest.raises(RuntimeError, match="after the writes"):
        async with store.transaction("a change that fails late") as tx:
            await tx.change_game(g, {"draw_offer": 0})
            await tx.set_takebacks(1, False, 5.0)
            raise RuntimeError("after the writes")
    assert await store.game(1) == g
    assert (await store.guild_settings(1))["takebacks"] is True
    async with store.transaction() as tx:  # the store goes on
        assert (await tx.change_game(g, {"draw_offer": 0})).version == g.version + 1


async def test_two_changes_to_one_version_land_once(
    referee: Referee, store: Store, other: Store
) -> None:
    await start(referee, "morris")
    g = await store.game(1)
    assert g is not None

    async def change(s: Store, offer: int) -> str:
        try:
            async with s.transaction() as tx:
                await tx.change_game(g, {"draw_offer": offer})
        except GameMovedOn:
            return "moved on"
        return "landed"

    results = await asyncio.gather(change(store, 0), change(other, 1))
    assert sorted(results) == ["landed", "moved on"]
    after = await store.game(1)
    assert after is not None and after.version == g.version + 1
    assert after.draw_offer == results.index("landed")


async def test_a_reading_sees_one_snapshot(referee: Referee, store: Store, other: Store) -> None:
    await start(referee, "morris")
    async with store.reading() as rx:
        first = await rx.game(1)
        assert first is not None
        async with other.transaction() as tx:  # another process commits meanwhile
            await tx.change_game(first, {"draw_offer": 1})
        again = await rx.game(1)
    assert again == first
    now = await store.game(1)
    assert now is not None and now.version == first.version + 1


async def test_guarded_undoes_a_bug_and_keeps_the_rest(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    g = await store.game(1)
    assert g is not None

    async def buggy() -> None:
        await tx.set_takebacks(1, False, 5.0)
        raise ValueError("a bug in the composed work")

    async with store.transaction() as tx:
        await tx.change_game(g, {"draw_offer": 0})
        assert await tx.guarded("a test", buggy) is None
    assert (await store.game(1)).draw_offer == 0  # type: ignore[union-attr]
    assert (await store.guild_settings(1))["takebacks"] is True  # the bug's write is undone

    async def bad_statement() -> None:
        await tx.db.execute("UPDATE games SET no_such_column = 1")  # type: ignore[attr-defined]

    fresh = await store.game(1)
    assert fresh is not None
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedColumnError)):
        async with store.transaction() as tx:
            await tx.change_game(fresh, {"draw_offer": 1})
            await tx.guarded("a test", bad_statement)
    assert await store.game(1) == fresh  # a store error fails the whole transaction


async def test_languages_are_read_together_and_each_may_be_unset(store: Store) -> None:
    assert await store.languages(1, 7) == (None, None)
    assert await store.languages(None, None) == (None, None)
    await store.set_guild_language(1, "hu", 5.0)
    assert await store.languages(1, 7) == ("hu", None)
    await store.set_user_language(7, "is", 6.0)
    assert await store.languages(1, 7) == ("hu", "is")
    assert await store.languages(2, 7) == (None, "is")  # another guild: its own (unset)
    assert await store.languages(None, 8) == (None, None)


@pytest.mark.sqlite_only
async def test_a_write_locks_with_its_first_statement_and_one_with_none_commits_nothing(
    referee: Referee, store: Store, db_path: str
) -> None:
    """BEGIN IMMEDIATE goes with a write's first statement (one trip fewer, issue 17): from that
    statement on, another writer waits; a write that runs no statement leaves nothing open."""
    await start(referee, "morris")
    g = await store.game(1)
    assert g is not None
    async with store.transaction("nothing at all"):
        pass
    assert not store.db.in_transaction  # type: ignore[attr-defined]
    other = sqlite3.connect(db_path, timeout=0, isolation_level=None)
    try:
        async with store.transaction("a change") as tx:
            other.execute("BEGIN IMMEDIATE")  # free until the first statement
            other.execute("ROLLBACK")
            assert await tx.game(1) == g  # a read as the first statement begins it
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            await tx.change_game(g, {"draw_offer": 0})
        other.execute("BEGIN IMMEDIATE")  # committed: free again
        other.execute("ROLLBACK")
    finally:
        other.close()
    after = await store.game(1)
    assert after is not None and after.version == g.version + 1 and after.draw_offer == 0


@pytest.mark.sqlite_only
async def test_a_move_is_written_in_two_trips_to_the_database_thread(
    referee: Referee, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row, the action and the request id in one trip, and COMMIT (issue 17): each trip
    to aiosqlite's thread costs ~40 us of CPU. A game that moved on writes none of them."""
    await start(referee, "morris")
    g = await store.game(1)
    assert g is not None
    trips: list[object] = []
    db = store.db  # type: ignore[attr-defined]
    real = db._execute

    async def counted(fn: object, *args: object, **kwargs: object) -> object:
        trips.append(fn)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(db, "_execute", counted)
    entry = NewAction(0, "alice", "place d7", None, "2026-11-26T00:00:00Z")
    async with store.transaction("a move") as tx:
        await tx.change_game(g, {"position": g.position}, [entry], request=("r1", {"ok": True}))
    assert len(trips) == 2
    assert await store.request_reply("r1") == {"ok": True}
    assert [r.action for r in await store.log(1) if hasattr(r, "action")] == ["place d7"]
    trips.clear()
    with pytest.raises(GameMovedOn):
        async with store.transaction("a move on a stale version") as tx:
            await tx.change_game(g, {"position": g.position}, [entry], request=("r2", {}))
    assert len(trips) == 2  # the statements, then ROLLBACK
    assert await store.request_reply("r2") is None
    assert len(await store.log(1)) == 2  # the start event and the one move


@pytest.mark.sqlite_only
async def test_a_read_cancelled_while_its_begin_waits_leaves_no_transaction_open(
    store: Store,
) -> None:
    """A reading cancelled while its BEGIN waits in aiosqlite's thread (behind a slow
    statement): the BEGIN still runs there after the cancel, and the read it opened must be
    ended before the store's lock lets a write in, which cannot begin inside it."""
    db = store.db  # type: ignore[attr-defined]

    async def read() -> None:
        async with store.reading() as reader:
            await reader.game(1)

    busy = asyncio.ensure_future(db._execute(time.sleep, 0.3))  # the thread is busy
    task = asyncio.create_task(read())
    await asyncio.sleep(0.05)  # the read's BEGIN waits behind the sleep
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await busy
    await asyncio.sleep(0.05)
    assert not db.in_transaction
    async with store.reading() as reader:  # the store reads and writes as before
        assert await reader.game(1) is None
