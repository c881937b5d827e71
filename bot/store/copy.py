"""``python -m bot store copy --from data/referee.db --to postgresql://...``: move a server's
whole history from SQLite to PostgreSQL, then prove every game survived the move.

The source file is opened read-only and must be at the newest schema (start the bot on it once
first); the target is migrated (``bot.store.postgres_schema``) and must hold no games yet.
Every table is copied in one PostgreSQL transaction, ids kept (the dice and the chain name a
game by its id), times turned into ``timestamptz``; the identity sequences then continue
after the highest id. Afterwards each game is read back through the PostgreSQL store and its
chain verified (``bot.store.verify``: every hash recomputed, each row's place, the game row's
head and length, the live line).
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO, cast
from urllib.parse import unquote, urlsplit

import asyncpg

from bot.store.files import Kind, inspect, read_only_uri
from bot.store.migrations import LATEST
from bot.store.postgres import DRIVER_ERRORS, session_unmet
from bot.store.postgres_schema import migrate
from bot.store.verify import chain_problem

# Parents before children, so every foreign key finds its row.
TABLES = (
    "players",
    "games",
    "challenges",
    "actions",
    "events",
    "dispute_rooms",
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


class CannotOpen(CopyError):
    """The source is no database of this bot at the newest schema, or cannot be read: like a
    database that cannot be opened anywhere else, exit 3 (README)."""


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


async def _column_types(conn: asyncpg.Connection, table: str) -> dict[str, str]:
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1",
        table,
    )
    return {r["column_name"]: r["data_type"] for r in rows}


def _source(path: Path) -> sqlite3.Connection:
    """A read-only connection to this bot's database at ``path``, at the newest schema."""
    try:
        found = inspect(path)
    except (OSError, sqlite3.Error) as exc:
        raise CannotOpen(f"{path}: cannot read it: {exc}") from exc
    if found.kind is Kind.MISSING:
        raise CannotOpen(f"{path}: no database file there")
    if found.kind is not Kind.OURS:
        raise CannotOpen(f"{path} is not a database of this bot: {found.why}")
    db = sqlite3.connect(read_only_uri(path), uri=True)
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > LATEST:  # "start the bot on it" would only meet the bot's own refusal
        db.close()
        raise CannotOpen(
            f"{path} is at schema {version}, newer than this bot's {LATEST}: it was written by "
            "a newer version of the bot; copy it with that version"
        )
    if version != LATEST:
        db.close()
        raise CannotOpen(
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
    finally:
        await conn.close()
        src.close()
    report.games, report.failed = await verify_all(target)
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


async def verify_all(target: str) -> tuple[int, list[tuple[int, str]]]:
    """Verify every game's chain as stored in PostgreSQL, read through the PostgreSQL store
    (``bot.store.verify``): (games checked, [(id, problem)])."""
    from bot.store.postgres import PostgresStore

    store = await PostgresStore.open(target)
    failed: list[tuple[int, str]] = []
    try:
        async with store.reading() as rx:
            ids = await cast(Any, rx).game_ids()
        for game_id in ids:
            async with store.reading() as rx:
                g = await rx.game(game_id)
                assert g is not None
                problem = await chain_problem(rx, g)
            if problem is not None:
                failed.append((game_id, problem))
    finally:
        await store.close()
    return len(ids), failed


def _reason(exc: BaseException, target: str) -> str:
    """``exc`` as one line (asyncpg adds a ``HINT:`` line) that never quotes the password."""
    if unmet := session_unmet(exc):  # asyncpg's own says "<SessionAttribute.standby: ...>"
        return unmet
    said = " ".join(str(exc).split()) or type(exc).__name__
    password = urlsplit(target).password
    if password:  # as written in the URL, and as asyncpg decodes it
        for secret in (password, unquote(password)):
            said = said.replace(secret, "***")
    return said


def cli(source: str, target: str, out: TextIO, err: TextIO | None = None) -> int:
    """The command: 0 when every game verified on PostgreSQL, 1 when one did not, 2 a target
    that is not a URL or not empty, 3 a database that cannot be opened (the source, or
    PostgreSQL unreachable or refusing), as the README's exit codes say.
    What was copied and verified goes to ``out``, why nothing was to ``err`` (default:
    standard error), so a script that pipes the results still sees the refusal."""
    err = err or sys.stderr
    if not target.startswith(("postgresql://", "postgres://")):
        shown = "another kind of URL" if "://" in target else repr(target)  # may hold a password
        print(f"--to must be a postgresql:// URL, not {shown}", file=err)
        return 2
    try:
        report = asyncio.run(copy(Path(source), target))
    except CopyError as exc:
        print(f"nothing copied: {exc}", file=err)
        return 3 if isinstance(exc, CannotOpen) else 2
    except DRIVER_ERRORS as exc:  # refused, unreachable, timed out, TLS, the URL's options
        print(f"nothing copied: PostgreSQL: {_reason(exc, target)}", file=err)
        return 3
    for table, n in report.rows.items():
        print(f"{table}: {n} rows", file=out)
    if report.ok:
        print(f"verified: all {report.games} games' chains check out on PostgreSQL", file=out)
        return 0
    for game_id, problem in report.failed:
        print(f"game {game_id} does NOT verify after the copy: {problem}", file=out)
    print(f"{len(report.failed)} of {report.games} games failed verification", file=out)
    return 1
