"""``python -m bot store copy --from data/referee.db --to postgresql://...``: move a server's
whole history from SQLite to PostgreSQL, then prove every game survived the move.

The source file is opened read-only and must be at the newest schema (start the bot on it once
first); the target is migrated (``bot.store.postgres_schema``) and must hold no games yet.
Every table is copied in one PostgreSQL transaction, ids kept (the dice and the chain name a
game by its id), times turned into ``timestamptz``; the identity sequences then continue
after the highest id. Afterwards each game is read back from PostgreSQL and verified as
``/verify`` does (``bot.referee.records.check_stored``: every hash of its chain, the game
row's head, the live line).

Moves to ``bot/store/`` with the PostgreSQL store once that package lands.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import asyncpg

from bot.store import ActionRow, EventRow, GameRow
from bot.store.migrations import LATEST
from bot.store.postgres_schema import migrate

# Parents before children, so every foreign key finds its row.
TABLES = (
    "players",
    "games",
    "challenges",
    "actions",
    "events",
    "guild_settings",
    "user_languages",
    "request_ids",
    "seasons",
    "ratings",
    "rating_changes",
)
IDENTITY = ("games", "challenges", "actions", "events")
BATCH = 1000


class CopyError(Exception):
    """The copy cannot start (the source or the target is not fit); nothing was written."""


@dataclass
class CopyReport:
    """Rows copied per table, and each game whose chain failed to verify afterwards."""

    rows: dict[str, int] = field(default_factory=dict)
    games: int = 0
    failed: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed


def _epoch_to_tz(value: Any) -> Any:
    return None if value is None else datetime.fromtimestamp(float(value), UTC)


def _tz_to_epoch(value: Any) -> Any:
    return value.timestamp() if isinstance(value, datetime) else value


async def _column_types(conn: asyncpg.Connection, table: str) -> dict[str, str]:
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1",
        table,
    )
    return {r["column_name"]: r["data_type"] for r in rows}


def _source(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise CopyError(f"{path}: no database file there")
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version != LATEST:
        db.close()
        raise CopyError(
            f"{path} is at schema {version}, this bot's is {LATEST}: start the bot on it once "
            "(it migrates the file), then copy"
        )
    return db


async def copy(source: Path, target: str) -> CopyReport:
    """Copy every row of ``source`` into the database at ``target``, then verify every game."""
    src = _source(source)  # an offline command: reading the file in the loop is fine
    report = CopyReport()
    conn = await asyncpg.connect(target)
    try:
        await migrate(conn)
        if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM games)"):
            raise CopyError("the target already holds games: copy only into an empty database")
        async with conn.transaction():
            for table in TABLES:
                report.rows[table] = await _copy_table(src, conn, table)
            for table in IDENTITY:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
        report.games, report.failed = await verify_all(conn)
    finally:
        await conn.close()
        src.close()
    return report


async def _copy_table(src: sqlite3.Connection, conn: asyncpg.Connection, table: str) -> int:
    types = await _column_types(conn, table)
    cursor = src.execute(f"SELECT * FROM {table} ORDER BY rowid")
    columns = [d[0] for d in cursor.description]
    missing = [c for c in columns if c not in types]
    if missing:
        raise CopyError(f"{table}: no column {', '.join(missing)} in the target")
    stamp = [types[c] == "timestamp with time zone" for c in columns]
    marks = ", ".join(f"${n}" for n in range(1, len(columns) + 1))
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
    copied = 0
    while rows := cursor.fetchmany(BATCH):
        values = [
            tuple(_epoch_to_tz(v) if s else v for v, s in zip(row, stamp, strict=True))
            for row in rows
        ]
        await conn.executemany(sql, values)
        copied += len(values)
    return copied


class PostgresLog:
    """The reads ``check_stored`` needs, from PostgreSQL: a game's live line, events and log."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.conn.fetchrow(
            "SELECT g.*, p0.name AS name0, p1.name AS name1 FROM games g"
            " JOIN players p0 ON p0.id = g.player0 JOIN players p1 ON p1.id = g.player1"
            " WHERE g.id = $1",
            game_id,
        )
        return None if row is None else GameRow(**{k: _tz_to_epoch(v) for k, v in row.items()})

    async def actions(
        self, game_id: int, upto: int | None = None, after: int = 0
    ) -> list[ActionRow]:
        if upto is None:
            upto = int(
                await self.conn.fetchval("SELECT seq FROM games WHERE id = $1", game_id) or 0
            )
        rows = await self.conn.fetch(
            "SELECT * FROM actions WHERE game_id = $1 AND seq > $2 AND seq <= $3 ORDER BY id",
            game_id,
            after,
            upto,
        )
        line = {r["seq"]: ActionRow(**dict(r)) for r in rows}
        return [line[n] for n in sorted(line)]

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self.conn.fetch("SELECT * FROM events WHERE game_id = $1 ORDER BY id", game_id)
        return [EventRow(**{k: _tz_to_epoch(v) for k, v in r.items()}) for r in rows]

    async def log(self, game_id: int) -> list[ActionRow | EventRow]:
        actions = await self.conn.fetch(
            "SELECT * FROM actions WHERE game_id = $1 AND link IS NOT NULL", game_id
        )
        rows: list[ActionRow | EventRow] = [ActionRow(**dict(r)) for r in actions]
        rows += [e for e in await self.events(game_id) if e.link is not None]
        return sorted(rows, key=lambda r: (r.link or 0, isinstance(r, EventRow), r.id))


async def verify_all(conn: asyncpg.Connection) -> tuple[int, list[tuple[int, str]]]:
    """Verify every game's chain as stored in PostgreSQL: (games checked, [(id, problem)])."""
    from bot.referee.records import check_stored  # the referee's own verification, unchanged

    reader = PostgresLog(conn)
    failed: list[tuple[int, str]] = []
    ids: Sequence[int] = [r["id"] for r in await conn.fetch("SELECT id FROM games ORDER BY id")]
    for game_id in ids:
        g = await reader.game(game_id)
        assert g is not None
        verdict = await check_stored(reader, g)  # type: ignore[arg-type]
        if not verdict.ok:
            failed.append((game_id, verdict.reason or "does not verify"))
    return len(ids), failed


def cli(source: str, target: str, out: TextIO) -> int:
    """The command: 0 when every game verified on PostgreSQL, 1 when one did not, 2 unusable."""
    if not target.startswith(("postgresql://", "postgres://")):
        print(f"--to must be a postgresql:// URL, not {target!r}", file=out)
        return 2
    try:
        report = asyncio.run(copy(Path(source), target))
    except CopyError as exc:
        print(f"nothing copied: {exc}", file=out)
        return 2
    except (OSError, asyncpg.PostgresError) as exc:
        print(f"nothing copied: PostgreSQL: {exc}", file=out)
        return 2
    for table, n in report.rows.items():
        print(f"{table}: {n} rows", file=out)
    if report.ok:
        print(f"verified: all {report.games} games' chains check out on PostgreSQL", file=out)
        return 0
    for game_id, problem in report.failed:
        print(f"game {game_id} does NOT verify after the copy: {problem}", file=out)
    print(f"{len(report.failed)} of {report.games} games failed verification", file=out)
    return 1
