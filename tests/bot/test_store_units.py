"""The Store protocol's units of work against the real SQLite and PostgreSQL (issues 14, 16): a
transaction lands whole or not at all, a reading sees one snapshot, and of two changes to one
version only one lands (even from two connections, or two processes' stores, at once)."""

from __future__ import annotations

import asyncio
import sqlite3

import asyncpg
import pytest

from bot.referee import Referee
from bot.store import GameMovedOn, Store
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
