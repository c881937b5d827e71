"""A write transaction's connection that sends BEGIN IMMEDIATE with its first statement.

Each statement sent through aiosqlite is a round trip to its thread, ~40 us of CPU between the
two threads (issue 17; ``python -m bench discord`` counts 12 a move). A write used to spend one
trip on BEGIN alone; here the first statement carries it, and ``batch`` runs several statements
in one trip (a move's row, its action and its request id). The transaction is the same as
before: it begins, taking SQLite's write lock, before its first statement runs, and a write that
runs no statement has nothing to commit.

``aiosqlite`` has no public way to run a function in its thread, so this uses its
``Connection._execute`` and ``_conn`` (aiosqlite is pinned to 0.22 in pyproject.toml; every
store test goes through here).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")

BEGIN = "BEGIN IMMEDIATE"


class LazyBegin:
    """The statements of one write transaction on ``db`` (the store's lock held)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self.begun = False  # BEGIN IMMEDIATE has been sent (with the first statement)

    @property
    def in_transaction(self) -> bool:
        return self._db.in_transaction

    async def batch(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` in aiosqlite's thread: every statement it runs in one trip."""
        begin, self.begun = not self.begun, True
        conn = self._db._conn

        def run() -> T:
            if begin:
                conn.execute(BEGIN)
            return work(conn)

        return await self._db._execute(run)

    async def execute(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()
    ) -> aiosqlite.Cursor:
        cursor = await self.batch(lambda conn: conn.execute(sql, parameters))
        return aiosqlite.Cursor(self._db, cursor)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> aiosqlite.Cursor:
        cursor = await self.batch(lambda conn: conn.executemany(sql, parameters))
        return aiosqlite.Cursor(self._db, cursor)

    async def execute_fetchall(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any] = ()
    ) -> list[sqlite3.Row]:
        return await self.batch(lambda conn: conn.execute(sql, parameters).fetchall())


Conn = aiosqlite.Connection | LazyBegin
"""What the store's readers and writers run statements on."""
