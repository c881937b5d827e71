"""The store's own guards: columns a change may not set, a COMMIT that fails, and a bug in a
statement told apart from a fault of the file ("can't save")."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.referee import Referee
from bot.store import NewAction, NewEvent, Store, StoreUnavailable
from tests.bot.conftest import ALICE, BOB, HERE, play, start
from tests.bot.test_faults import snapshot


@pytest.mark.parametrize(
    "changes",
    [
        {"version": 99},
        {"id": 7},
        {"links": 0},
        {"no_such_column": 1},
        {"name0": "mallory"},  # shown from the players table, never stored in the game's row
        {"ply": 3, "version": 99},  # one bad key spoils the whole change
    ],
)
async def test_a_change_may_not_set_these_columns(
    referee: Referee, store: Store, changes: dict[str, object]
) -> None:
    await start(referee, "morris")
    g = await store.game(1)
    before = await snapshot(store)
    with pytest.raises(ValueError, match="not changeable here") as raised:
        async with store.transaction() as tx:
            await tx.change_game(g, changes)
    assert str(sorted(set(changes) - {"ply"})) in str(raised.value)
    assert await snapshot(store) == before


async def test_moves_may_not_also_set_seq_or_the_head(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    g = await store.game(1)
    assert g.log_version == 2
    move = NewAction(side=0, actor=ALICE.id, action="place d7", roll=None, at=1.0)
    for key in ("seq", "last_hash"):
        with pytest.raises(ValueError, match=f"not changeable here: \\['{key}'\\]"):
            async with store.transaction() as tx:
                await tx.change_game(g, {key: "x"}, actions=[move])
    event = NewEvent("note", 1.0, seat=0, user_id=ALICE.id, note={})
    with pytest.raises(ValueError, match="not changeable here: \\['last_hash'\\]"):
        async with store.transaction() as tx:
            await tx.change_game(g, {"last_hash": "x"}, events=[event])
    assert (await store.game(1)).version == g.version


@pytest.mark.sqlite_only
async def test_a_commit_that_fails_is_rolled_back_and_the_store_goes_on(
    referee: Referee, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A deferred foreign key fails only at COMMIT, which leaves the transaction open: the
    store must roll it back (or every later write fails: "transaction within a transaction"),
    and, being a bug in what was written rather than a fault of the file, say so."""
    await start(referee, "morris")
    before = await snapshot(store)
    caplog.clear()
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with store.transaction("a bad write") as tx:
            db = tx.db  # type: ignore[attr-defined]  # SQLite's own, for this test
            await db.execute("PRAGMA defer_foreign_keys = ON")
            await db.execute("UPDATE games SET player0 = 424242 WHERE id = 1")
    assert not store.db.in_transaction
    assert not [r for r in caplog.records if "cannot save" in r.getMessage()]
    assert await snapshot(store) == before
    moved = await play(referee, HERE, ALICE, "place d7")  # the next write lands
    assert moved.ok, moved.text
    assert [a.action for a in await store.actions(1)] == ["place d7"]


@pytest.mark.sqlite_only
async def test_a_bug_in_a_statement_is_raised_as_a_bug_not_as_cant_save(
    referee: Referee, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    before = await snapshot(store)
    caplog.set_level(logging.ERROR, logger="bot.store")
    caplog.clear()
    with pytest.raises(sqlite3.OperationalError, match="no such column") as raised:
        async with store.transaction("a buggy write") as tx:
            db = tx.db  # type: ignore[attr-defined]  # SQLite's own, for this test
            await db.execute("UPDATE games SET ply = 9 WHERE id = 1")  # lands, then undone
            await db.execute("UPDATE games SET no_such_column = 1")
    assert not isinstance(raised.value, StoreUnavailable)
    assert not [r for r in caplog.records if r.name == "bot.store"]  # no "cannot save" line
    assert not store.db.in_transaction
    assert await snapshot(store) == before
    assert (await play(referee, HERE, BOB, "place d1")).ok
