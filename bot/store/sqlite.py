"""The SQLite store: games, the append-only chained action log, challenges, players, settings.

One file through aiosqlite, WAL, foreign keys on, migrations from ``bot.store.migrations`` at
open. Every change to a game is one transaction guarded by its version
(``UPDATE games SET version = version + 1 ... WHERE id = ? AND version = ?``): of two commands
that race, one lands and the other is told the game has moved on. Each log row carries the hash
of the previous row's hash and its own content (``engine.record.row_hash``), so an edited,
reordered or deleted row shows; what the referee decided goes to an append-only event log.

All statements of one Store run on one connection, one at a time (an asyncio lock), so a read
never sees another coroutine's half-done transaction. Several Store objects (or processes) on
the same file are serialised by SQLite itself (BEGIN IMMEDIATE, a busy timeout).

It is long because it is all of SQLite's file handling (open, check, migrate, faults, the
lock) and the games' statements in one place; the ladders' and forgetting's statements are
beside it (``sqlite_ladders``, ``sqlite_forget``).

Why it is long: it is the whole SQLite side of the ``Store`` protocol (games, logs, challenges,
settings, request ids, ladder rows), with each statement beside the code that runs it, so one
transaction's statements read together.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot import deadline
from bot.errors import Conflict as GameMovedOn
from bot.errors import StoreUnavailable
from bot.ladder.stats import CasualRecords, Record
from bot.store.files import Access, FileIdentity, Kind, inspect, make_new, read_only_uri, tighten
from bot.store.migrations import LATEST, MIGRATIONS, statements
from bot.store.protocol import (
    ActionRow,
    ChallengeRow,
    ChannelBusy,
    EventRow,
    FileLost,
    ForgetCounts,
    GameRow,
    GameView,
    NewAction,
    NewEvent,
    Reader,
    SchemaTooNew,
    Store,
    StoreDamaged,
    Transaction,
)
from bot.store.sqlite_begin import Conn, LazyBegin
from bot.store.sqlite_forget import forget_guild
from bot.store.sqlite_ladders import LadderReads, LadderWrites
from engine import chain
from engine.record import LOG_VERSION, event_hash, iso_time, row_hash

T = TypeVar("T")
BUSY_TIMEOUT_MS = 2_000  # a lock held longer is "can't save" within Discord's 3 s
OPEN_TIMEOUT_MS = 30_000  # how long opening the file may wait for another process's lock

log = logging.getLogger("bot.store")  # the name operators filter on, as before the package
# aiosqlite's DEBUG lines print every statement with its parameters, a running game's secret
# dice seed included: keep them off even when the bot logs at DEBUG.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

# SQLite's answers that mean "not now" rather than "this statement is wrong": the file is
# read-only, the disk (or max_page_count) is full, another writer holds the lock past the busy
# timeout, or the disk failed. sqlite3 names them in ``sqlite_errorname`` (extended codes too).
FAULTS = (
    ("SQLITE_READONLY", "the database is read-only"),
    ("SQLITE_FULL", "the disk is full"),
    ("SQLITE_BUSY", "the database is locked by another writer"),
    ("SQLITE_LOCKED", "the database is locked by another writer"),
    ("SQLITE_IOERR", "the disk failed to read or write"),
    ("SQLITE_CANTOPEN", "the database file cannot be opened"),
    ("SQLITE_PROTOCOL", "the database is locked by another writer"),
    ("SQLITE_NOMEM", "the process is out of memory"),
    ("SQLITE_CORRUPT", "the database file is damaged"),
    ("SQLITE_NOTADB", "the file is not a database (or its header is damaged)"),
)
QUICK_CHECK_ERRORS = 5  # the start's integrity check stops after this many problems


def fault_of(exc: BaseException) -> str | None:
    """The fault an sqlite3 error stands for (see FAULTS), or None for a bug in a statement."""
    name = getattr(exc, "sqlite_errorname", None) or ""
    return next((reason for prefix, reason in FAULTS if name.startswith(prefix)), None)


GAME_COLUMNS = tuple(f.name for f in fields(GameRow) if f.name not in ("name0", "name1"))
# Every column named in GameRow's own order, so a row builds positionally (``GameRow(*row)``):
# ``GameRow(**dict(row))`` cost ~20 us of a command's CPU on each of its game reads (issue 17).
_NAMES = {"name0": "p0.name AS name0", "name1": "p1.name AS name1"}
_GAME_SELECT = (
    f"SELECT {', '.join(_NAMES.get(f.name, f'g.{f.name}') for f in fields(GameRow))} "
    "FROM games g JOIN players p0 ON p0.id = g.player0 JOIN players p1 ON p1.id = g.player1 "
)
_CHALLENGE_SELECT = (
    "SELECT c.*, p.name AS challenger_name, o.name AS opponent_name FROM challenges c "
    "JOIN players p ON p.id = c.challenger_id LEFT JOIN players o ON o.id = c.opponent_id "
)


# Two index lookups (the channel's one active game, else its highest id), never a sort of every
# game the channel has held: /board stays as cheap after 100,000 games as after one.
_LATEST_GAME = _GAME_SELECT + (
    "WHERE g.id = COALESCE("
    "(SELECT id FROM games WHERE channel_id = ? AND status = 'active'),"
    " (SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1))"
)


_INSERT_REQUEST = "INSERT INTO request_ids (request_id, game_id, reply, at) VALUES (?,?,?,?)"


def _game(row: Sequence[Any] | None) -> GameRow | None:
    """A row of ``_GAME_SELECT`` (its columns in GameRow's order) as a GameRow."""
    return None if row is None else GameRow(*row)


def _challenge(row: sqlite3.Row | None) -> ChallengeRow | None:
    return None if row is None else ChallengeRow(**dict(row))


class SqliteStore(Store):
    """One SQLite file (or ':memory:'). Open with ``await SqliteStore.open(path)``."""

    def __init__(self, path: str, db: aiosqlite.Connection) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = db
        self._lock = asyncio.Lock()
        self._file: FileIdentity | None = None  # None for ':memory:'
        self._lost = False  # the file was deleted or replaced: refuse every write

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        check: bool = True,
        access: Access = Access.CREATE,
    ) -> SqliteStore:
        """Open the database, check the file's integrity (``check``: a bounded quick_check) and
        migrate it to the newest schema. ``access``: CREATE (the bot) makes a new file (and its
        folder, owner-only) where nothing is; EXISTING (an operator's command that writes)
        opens only a database of this bot that is there; READ (a command that only reads)
        also never writes: a read-only connection, no migration, no switch to WAL.

        Raises SchemaTooNew, before writing anything, for a file from a newer bot;
        StoreDamaged for a file the check finds damaged; StoreUnavailable when the folder or
        file cannot be made or opened, or the path holds something that is not this bot's
        database (nothing there is changed). Each with one log line that names the file.
        """
        path = str(path)
        read_only = access is Access.READ
        try:
            if path != ":memory:":
                _admit(Path(path), access)
            where = read_only_uri(Path(path)) if read_only and path != ":memory:" else path
            db = await aiosqlite.connect(where, isolation_level=None, uri=where != path)
        except (OSError, sqlite3.Error) as exc:
            error = _cannot_open(path, exc)
            if error is exc:
                raise
            raise error from exc
        db.row_factory = sqlite3.Row
        store = cls(path, db)
        try:
            # opening (WAL switch, migrations) waits longer than a command may: several processes
            # starting on one fresh file queue for its write lock, and no player waits on it
            await db.execute(f"PRAGMA busy_timeout = {max(int(busy_timeout_ms), OPEN_TIMEOUT_MS)}")
            store._lock = _AnswerInTime(store, int(busy_timeout_ms))  # type: ignore[assignment]
            rows = await db.execute_fetchall("PRAGMA user_version")
            version = int(next(iter(rows))[0])
            _refuse_newer(path, version)  # before anything writes the file
            if read_only and version != LATEST:
                raise _refused(
                    path,
                    f"its schema is version {version}, this bot's is {LATEST}, and this command "
                    "only reads: start the bot on it once (it migrates the file), then run it "
                    "again",
                )
            if check:
                await _quick_check(db, path)
            if not read_only:
                await _into_wal(db, OPEN_TIMEOUT_MS)
                await db.execute("PRAGMA synchronous = NORMAL")  # durable across a crash in WAL
            await db.execute("PRAGMA foreign_keys = ON")
            if not read_only:
                await store.migrate()
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if path != ":memory:":
                store._file = FileIdentity.of(path)
        except sqlite3.Error as exc:
            await store.close()
            error = _cannot_open(path, exc)
            if error is exc:
                raise
            raise error from exc
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection; safe to call twice."""
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the store is closed")
        return self._db

    async def schema_version(self) -> int:
        rows = await self.db.execute_fetchall("PRAGMA user_version")
        return int(next(iter(rows))[0])

    async def migrate(self, upto: int = LATEST) -> int:
        """Run the migrations this file has not had yet, each in its own exclusive transaction
        that reads the version first: of several processes opening a fresh file at once, one
        runs each step and the others find it done. The version after."""
        async with self._lock:
            db = self.db
            while True:
                await db.execute("BEGIN EXCLUSIVE")
                try:
                    current = await self.schema_version()
                    _refuse_newer(self.path, current)
                    if current >= upto:
                        await db.execute("COMMIT")
                        return current
                    for statement in statements(MIGRATIONS[current]):
                        await db.execute(statement)
                    await db.execute(f"PRAGMA user_version = {current + 1}")
                    await db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        await db.execute("ROLLBACK")
                    raise

    # --- plumbing ---------------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self, what: str = "a write") -> AsyncIterator[LazyBegin]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, ROLLBACK on any exception).

        BEGIN IMMEDIATE goes with the first statement (``LazyBegin``): one round trip fewer.
        A fault (read-only, full, locked, I/O) rolls everything back, logs one line naming
        ``what`` and raises StoreUnavailable: the file is as it was before.
        """
        async with self._lock:
            db = self.db
            if self._lost:
                log.error("cannot save: %s, during %s on %s", FileLost.REASON, what, self.path)
                raise FileLost(FileLost.REASON, what)
            try:
                tx = LazyBegin(db)
                try:
                    yield tx
                except BaseException:
                    # A cancelled statement still runs in aiosqlite's thread, its BEGIN IMMEDIATE
                    # with it (in_transaction is False until then): the ROLLBACK queued behind
                    # it ends that transaction too, before the lock lets another command in.
                    if tx.begun or db.in_transaction:
                        with suppress(sqlite3.Error):  # a BEGIN that failed began nothing
                            await db.execute("ROLLBACK")
                    raise
                if not tx.begun:
                    return  # no statement ran: nothing began, nothing to commit
                if self._file is not None and not self._file.still_there():
                    await db.execute("ROLLBACK")  # it would land in an unlinked file
                    raise self._file_lost(what)
                await db.execute("COMMIT")
            except sqlite3.Error as exc:
                # A failed COMMIT can leave the transaction open (a deferred foreign key, a busy
                # file; SQLITE_FULL does not): close it whatever the error, or every later
                # write fails with "cannot start a transaction within a transaction".
                if db.in_transaction:
                    with suppress(sqlite3.Error):
                        await db.execute("ROLLBACK")
                reason = fault_of(exc)
                if reason is None:
                    raise
                raise self._unavailable(reason, what, exc) from exc

    def _file_lost(self, what: str) -> FileLost:
        """Refuse this write and every later one, with one critical line for the operator."""
        self._lost = True
        log.critical(
            "the database file %s was deleted or replaced while the bot runs; refusing every "
            "write from now on (nothing more is acknowledged), first refused: %s. Stop the bot, "
            "restore the file from a backup if you have one (docs/reliability.md, Backups), and "
            "start it again",
            self.path,
            what,
        )
        return FileLost(FileLost.REASON, what)

    def _unavailable(self, reason: str, what: str, exc: BaseException) -> StoreUnavailable:
        log.error(
            "cannot save: %s (%s) during %s on %s; nothing was changed",
            reason,
            exc,
            what,
            self.path,
        )
        return StoreUnavailable(reason, what)

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """One read transaction: every statement inside sees the same snapshot of the file, and
        in WAL no writer waits for it (other connections go on committing). The connection is
        this store's, so the store's other commands wait until it ends: keep it to reading."""
        async with self._lock:
            db = self.db
            try:
                try:
                    await db.execute("BEGIN")
                except asyncio.CancelledError:
                    # the BEGIN still runs in aiosqlite's thread: end its read there, before the
                    # lock lets a write in (it could not begin inside an open transaction)
                    with suppress(sqlite3.Error):
                        await db.execute("COMMIT")
                    raise
                try:
                    yield db
                finally:
                    if db.in_transaction:
                        await db.execute("COMMIT")  # a read: nothing to keep or undo
            except sqlite3.Error as exc:
                reason = fault_of(exc)
                if reason is None:
                    raise
                raise self._unavailable(reason, "a read", exc) from exc

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[SqliteReader]:
        """A read of one statement, without BEGIN and COMMIT: a single SELECT is its own
        consistent snapshot, and each statement is a round trip to aiosqlite's thread (~30 us
        of CPU), so this is one where a ``reading`` takes three (issue 17). A second statement
        raises: read what must agree in one ``reading``."""
        async with self._lock:
            try:
                yield _OneStatement(self.db)
            except sqlite3.Error as exc:
                reason = fault_of(exc)
                if reason is None:
                    raise
                raise self._unavailable(reason, "a read", exc) from exc

    # The single reads a command makes on its way (each one statement): see ``_statement``.

    async def game(self, game_id: int) -> GameRow | None:
        async with self._statement() as rx:
            return await rx.game(game_id)

    async def active_game(self, channel_id: int) -> GameRow | None:
        async with self._statement() as rx:
            return await rx.active_game(channel_id)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        async with self._statement() as rx:
            return await rx.latest_game(channel_id)

    async def room_game(self, room_id: int) -> GameRow | None:
        async with self._statement() as rx:
            return await rx.room_game(room_id)

    async def request_reply(self, request_id: str) -> dict[str, Any] | None:
        async with self._statement() as rx:
            return await rx.request_reply(request_id)

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self._statement() as rx:
            return await rx.guild_settings(guild_id)

    async def user_language(self, user_id: int) -> str | None:
        async with self._statement() as rx:
            return await rx.user_language(user_id)

    async def languages(
        self, guild_id: int | None, user_id: int | None
    ) -> tuple[str | None, str | None]:
        async with self._statement() as rx:
            return await rx.languages(guild_id, user_id)

    def transaction(self, what: str = "a write") -> AbstractAsyncContextManager[Transaction]:
        return self._transaction(what)

    @asynccontextmanager
    async def _transaction(self, what: str) -> AsyncIterator[Transaction]:
        async with self._write(what) as db:
            yield SqliteTransaction(db, what)

    def reading(self) -> AbstractAsyncContextManager[Reader]:
        return self._reading()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Reader]:
        async with self._snapshot() as db:
            yield SqliteReader(db)


class SqliteReader(LadderReads):
    """The reads of one unit of work on the store's connection (its lock held, a transaction
    open). ``db`` is the connection, for this package and for tests that poke the file."""

    def __init__(self, db: Conn) -> None:
        self.db = db

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self.db.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        return next(iter(await self._all(sql, params)), None)

    async def game(self, game_id: int) -> GameRow | None:
        return _game(await self._one(_GAME_SELECT + "WHERE g.id = ?", (game_id,)))

    async def active_game(self, channel_id: int) -> GameRow | None:
        return _game(
            await self._one(
                _GAME_SELECT + "WHERE g.channel_id = ? AND g.status = 'active'", (channel_id,)
            )
        )

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's active game, else its most recent one."""
        return _game(await self._one(_LATEST_GAME, (channel_id, channel_id)))

    async def actions(
        self, game_id: int, upto: int | None = None, after: int = 0
    ) -> list[ActionRow]:
        """The game's live line of moves (seq ``after``+1..``upto``, default the game's seq):
        for each seq the newest row, so moves taken back are left out though never deleted."""
        if upto is None:
            row = await self._one("SELECT seq FROM games WHERE id = ?", (game_id,))
            upto = 0 if row is None else int(row[0])
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY id",
            (game_id, after, upto),
        )
        line: dict[int, ActionRow] = {}
        for r in rows:
            line[r["seq"]] = ActionRow(**dict(r))
        return [line[n] for n in sorted(line)]

    async def live_hash(self, game_id: int, seq: int) -> str | None:
        """The hash of the live row at ``seq`` (the newest with that seq), or None."""
        row = await self._one(
            "SELECT hash FROM actions WHERE game_id = ? AND seq = ? ORDER BY id DESC LIMIT 1",
            (game_id, seq),
        )
        return None if row is None else str(row[0])

    async def all_actions(self, game_id: int) -> list[ActionRow]:
        """Every stored move row in insertion order, taken-back ones included."""
        rows = await self._all("SELECT * FROM actions WHERE game_id = ? ORDER BY id", (game_id,))
        return [ActionRow(**dict(r)) for r in rows]

    async def log(self, game_id: int) -> list[ActionRow | EventRow]:
        """A log_version 2 game's whole chain in order: every action (taken back or not) and
        every event, by their place in the log."""
        actions = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND link IS NOT NULL", (game_id,)
        )
        events = await self._all(
            "SELECT * FROM events WHERE game_id = ? AND link IS NOT NULL", (game_id,)
        )
        rows: list[ActionRow | EventRow] = [ActionRow(**dict(r)) for r in actions]
        rows += [EventRow(**dict(r)) for r in events]
        return sorted(rows, key=lambda r: (r.link or 0, isinstance(r, EventRow), r.id))

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self._all("SELECT * FROM events WHERE game_id = ? ORDER BY id", (game_id,))
        return [EventRow(**dict(r)) for r in rows]

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        return _challenge(await self._one(_CHALLENGE_SELECT + "WHERE c.id = ?", (challenge_id,)))

    async def open_challenge(self, channel_id: int) -> ChallengeRow | None:
        return _challenge(
            await self._one(
                _CHALLENGE_SELECT + "WHERE c.channel_id = ? AND c.status = 'open'", (channel_id,)
            )
        )

    async def overdue_games(self, now: float, limit: int = 100) -> list[GameRow]:
        """Active games whose player to move ran out of time by ``now``."""
        rows = await self._all(
            _GAME_SELECT + "WHERE g.status = 'active' AND g.deadline IS NOT NULL"
            " AND g.deadline <= ? ORDER BY g.deadline LIMIT ?",
            (now, limit),
        )
        return [GameRow(*r) for r in rows]

    async def stale_rolls(self, before: float, limit: int = 100) -> list[GameRow]:
        """Active games whose announced roll has waited since ``before`` (a crash between
        the announcement and the roll): the sweeper completes them."""
        rows = await self._all(
            _GAME_SELECT + "WHERE g.status = 'active' AND g.pending IS NOT NULL"
            " AND g.pending_at <= ? ORDER BY g.pending_at LIMIT ?",
            (before, limit),
        )
        return [GameRow(*r) for r in rows]

    async def practice_games(self, after_id: int, limit: int = 100) -> list[GameRow]:
        rows = await self._all(  # the same text in both dialects (PostgreSQL runs it too)
            _GAME_SELECT + "WHERE g.status = 'active' AND g.practice IS NOT NULL AND g.id > ?"
            " AND g.frozen_at IS NULL AND g.pending IS NULL ORDER BY g.id LIMIT ?",
            (after_id, limit),
        )
        return [GameRow(*r) for r in rows]

    async def clocked_turns(
        self, started_before: float, after_id: int, limit: int = 100
    ) -> list[GameRow]:
        rows = await self._all(  # the same text in both dialects (PostgreSQL runs it too)
            _GAME_SELECT + "WHERE g.status = 'active' AND g.deadline IS NOT NULL AND g.id > ?"
            " AND g.turn_started_at < ? AND g.frozen_at IS NULL ORDER BY g.id LIMIT ?",
            (after_id, started_before, limit),
        )
        return [GameRow(*r) for r in rows]

    async def expired_challenges(self, now: float, limit: int = 100) -> list[ChallengeRow]:
        rows = await self._all(
            _CHALLENGE_SELECT + "WHERE c.status = 'open' AND c.expires_at <= ?"
            " ORDER BY c.expires_at LIMIT ?",
            (now, limit),
        )
        return [ChallengeRow(**dict(r)) for r in rows]

    async def request_reply(self, request_id: str) -> dict[str, Any] | None:
        """The stored answer to a request id already handled, or None."""
        row = await self._one("SELECT reply FROM request_ids WHERE request_id = ?", (request_id,))
        return None if row is None else json.loads(row[0])

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        row = await self._one(
            "SELECT theme, ladder, takebacks, language FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return {"theme": None, "ladder": {}, "takebacks": True, "language": None}
        return {
            "theme": row["theme"],
            "ladder": json.loads(row["ladder"]),
            "takebacks": bool(row["takebacks"]),
            "language": row["language"],
        }

    async def user_language(self, user_id: int) -> str | None:
        """The language a user chose for their private replies (None: not chosen)."""
        row = await self._one("SELECT language FROM user_languages WHERE user_id = ?", (user_id,))
        return None if row is None else str(row[0])

    async def languages(
        self, guild_id: int | None, user_id: int | None
    ) -> tuple[str | None, str | None]:
        row = await self._one(
            "SELECT (SELECT language FROM guild_settings WHERE guild_id = ?),"
            " (SELECT language FROM user_languages WHERE user_id = ?)",
            (guild_id, user_id),
        )
        assert row is not None  # a SELECT of two subqueries has one row
        return row[0], row[1]

    async def mod_role(self, guild_id: int) -> int | None:
        """The role a dispute notifies in this guild (None: not set)."""
        row = await self._one("SELECT mod_role FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def room_game(self, room_id: int) -> GameRow | None:
        """The game a dispute opened the private room ``room_id`` for (one statement)."""
        return _game(
            await self._one(
                _GAME_SELECT + "WHERE g.id = (SELECT game_id FROM dispute_rooms WHERE room_id = ?)",
                (room_id,),
            )
        )

    async def game_view(self, game_id: int, *, from_start: bool = False) -> GameView | None:
        game = await self.game(game_id)
        if game is None:
            return None
        after = 0 if from_start else (game.checkpoint_seq or 0)
        if not 0 < after <= game.seq or game.checkpoint_text is None:
            after = 0
        elif await self.live_hash(game_id, after) != game.checkpoint_head:
            after = 0  # its move was taken back (or the log changed): replay from the start
        moves = await self.actions(game_id, game.seq, after=after)
        return GameView(game, tuple(moves), after)

    async def open_challenges(self, user_id: int, now: float) -> int:
        row = await self._one(
            "SELECT COUNT(*) FROM challenges WHERE status = 'open' AND challenger_id = ?"
            " AND expires_at > ?",
            (user_id, now),
        )
        return int(row[0]) if row else 0

    async def active_games(self, user_id: int) -> int:
        row = await self._one(
            # one index range per seat (migration 6), not a scan of every active game
            "SELECT (SELECT COUNT(*) FROM games WHERE status = 'active' AND player0 = ?)"
            " + (SELECT COUNT(*) FROM games WHERE status = 'active' AND player1 = ?"
            " AND player0 != ?)",
            (user_id, user_id, user_id),
        )
        return int(row[0]) if row else 0

    async def running_games(self, shard_count: int = 1, shard_ids: Sequence[int] = (0,)) -> int:
        marks = ", ".join("?" * len(shard_ids))
        row = await self._one(  # the same text in both dialects (PostgreSQL runs it too)
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND (CASE WHEN guild_id IS NULL"
            f" THEN 0 ELSE (guild_id >> 22) % ? END) IN ({marks})",
            (shard_count, *shard_ids),
        )
        return int(row[0]) if row else 0

    async def recent_games(
        self, game: str, guild_id: int | None, player: int, limit: int
    ) -> list[int]:
        where = "guild_id IS NULL" if guild_id is None else "guild_id = ?"
        rows = await self._all(
            f"SELECT id FROM games WHERE game = ? AND {where} AND (player0 = ? OR player1 = ?)"
            " ORDER BY id DESC LIMIT ?",
            (game, *(() if guild_id is None else (guild_id,)), player, player, limit),
        )
        return [int(r[0]) for r in reversed(rows)]

    async def casual_records(
        self,
        guild_id: int | None,
        player: int,
        game: str | None = None,
        opponent: int | None = None,
    ) -> CasualRecords:
        # counted by (against the bot, winner, the player's seat): the same SQL on PostgreSQL;
        # a rated game that ended before both had moved was not rated (``bot.ladder.counts``)
        where = "guild_id IS NULL" if guild_id is None else "guild_id = ?"
        params: list[Any] = [player, player, player]
        params += [] if guild_id is None else [guild_id]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        if opponent is not None:
            where += " AND (player0 = ? OR player1 = ?)"
            params += [opponent, opponent]
        rows = await self._all(
            "SELECT CASE WHEN practice IS NULL THEN 0 ELSE 1 END, winner,"
            " CASE WHEN player0 = ? THEN 0 ELSE 1 END, COUNT(*) FROM games"
            " WHERE status = 'finished' AND (rated = 0 OR moved & 3 <> 3)"
            " AND termination <> 'aborted'"
            f" AND player0 <> player1 AND (player0 = ? OR player1 = ?) AND {where}"
            " GROUP BY 1, 2, 3",
            params,
        )
        counts = {0: [0, 0, 0], 1: [0, 0, 0]}  # wins, losses, draws
        for vs_bot, winner, seat, n in rows:
            counts[int(vs_bot)][2 if winner is None else 0 if winner == seat else 1] += int(n)
        return CasualRecords(Record(*counts[0]), Record(*counts[1]))


class _OneStatement(SqliteReader):
    """A reader outside any transaction (``SqliteStore._statement``): one statement only."""

    _used = False

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        if self._used:
            raise RuntimeError("a second statement outside a transaction: use reading()")
        self._used = True
        return await super()._all(sql, params)


class SqliteTransaction(SqliteReader, LadderWrites):
    """One write transaction (BEGIN IMMEDIATE sent with ``db``'s first statement): the store
    commits it when the block ends, rolls it back when the block raises."""

    def __init__(self, db: LazyBegin, what: str = "a write") -> None:
        super().__init__(db)
        self.tx = db
        self.what = what

    async def keep_reply(
        self, request_id: str, game_id: int | None, reply: dict[str, Any], at: float
    ) -> None:
        """Store (or complete) the answer to ``request_id``: a command whose write could not
        carry it, or a fuller text than the one written with the change."""
        db = self.db
        await db.execute(
            "INSERT INTO request_ids (request_id, game_id, reply, at) VALUES (?,?,?,?)"
            " ON CONFLICT(request_id) DO UPDATE SET reply = excluded.reply",
            (request_id, game_id, json.dumps(reply), at),
        )

    async def prune_requests(self, before: float, limit: int) -> int:
        """Forget at most ``limit`` answered request ids older than ``before`` (oldest first,
        through the index on their time): a repeat that late is no longer a redelivery. Small
        batches keep each write short; the sweeper calls it every round. How many went."""
        db = self.db
        cur = await db.execute(
            "DELETE FROM request_ids WHERE rowid IN"
            " (SELECT rowid FROM request_ids WHERE at < ? ORDER BY at LIMIT ?)",
            (before, limit),
        )
        return cur.rowcount

    async def set_user_language(self, user_id: int, language: str | None, now: float) -> None:
        db = self.db
        if language is None:
            await db.execute("DELETE FROM user_languages WHERE user_id = ?", (user_id,))
            return
        await db.execute(
            "INSERT INTO user_languages (user_id, language, updated_at) VALUES (?,?,?)"
            " ON CONFLICT(user_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at",
            (user_id, language, now),
        )

    async def set_guild_language(self, guild_id: int, language: str, now: float) -> None:
        db = self.db
        await db.execute(
            "INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (?,?,?)"
            " ON CONFLICT(guild_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at",
            (guild_id, language, now),
        )

    async def set_takebacks(self, guild_id: int, allowed: bool, now: float) -> None:
        """Whether casual games on this server may take back a move by consent."""
        db = self.db
        await db.execute(
            "INSERT INTO guild_settings (guild_id, takebacks, updated_at) VALUES (?,?,?)"
            " ON CONFLICT(guild_id) DO UPDATE SET takebacks = excluded.takebacks,"
            " updated_at = excluded.updated_at",
            (guild_id, int(allowed), now),
        )

    async def set_mod_role(self, guild_id: int, role_id: int | None, now: float) -> None:
        db = self.db
        await db.execute(
            "INSERT INTO guild_settings (guild_id, mod_role, updated_at) VALUES (?,?,?)"
            " ON CONFLICT(guild_id) DO UPDATE SET mod_role = excluded.mod_role,"
            " updated_at = excluded.updated_at",
            (guild_id, role_id, now),
        )

    async def open_room(self, room_id: int, game_id: int, now: float) -> None:
        await self.db.execute(
            "INSERT INTO dispute_rooms (room_id, game_id, opened_at) VALUES (?,?,?)"
            " ON CONFLICT(room_id) DO NOTHING",
            (room_id, game_id, now),
        )

    async def set_guild_settings(
        self,
        guild_id: int,
        now: float,
        *,
        theme: str | None = None,
        ladder: Mapping[str, Any] | None = None,
    ) -> None:
        db = self.db
        await db.execute(
            "INSERT INTO guild_settings (guild_id, theme, ladder, updated_at) VALUES (?,?,?,?)"
            " ON CONFLICT(guild_id) DO UPDATE SET theme = COALESCE(excluded.theme, theme),"
            " ladder = CASE WHEN ? THEN excluded.ladder ELSE ladder END,"
            " updated_at = excluded.updated_at",
            (guild_id, theme, json.dumps(dict(ladder or {})), now, ladder is not None),
        )

    async def _upsert_player(self, db: Conn, pid: int, name: str, now: float) -> None:
        await db.execute(
            "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?,?,?,?)"
            " ON CONFLICT(id) DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen",
            (pid, name, now, now),
        )

    async def create_challenge(
        self,
        fields: Mapping[str, Any],
        people: Sequence[tuple[int, str]],
        now: float,
    ) -> int:
        """Insert an open challenge; raises ChannelBusy if the channel has a game or challenge."""
        db = self.db
        busy = await db.execute_fetchall(
            "SELECT 1 FROM games WHERE channel_id = ? AND status = 'active' UNION ALL "
            "SELECT 1 FROM challenges WHERE channel_id = ? AND status = 'open'",
            (fields["channel_id"], fields["channel_id"]),
        )
        if list(busy):
            raise ChannelBusy
        for pid, name in people:
            await self._upsert_player(db, pid, name, now)
        cols = ", ".join(fields)
        cur = await db.execute(
            f"INSERT INTO challenges ({cols}) VALUES ({', '.join('?' * len(fields))})",
            tuple(fields.values()),
        )
        return int(cur.lastrowid or 0)

    async def close_challenge(self, challenge_id: int, status: str) -> bool:
        """Move an open challenge to declined/withdrawn/expired; False if it was not open."""
        db = self.db
        cur = await db.execute(
            "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
            (status, challenge_id),
        )
        return cur.rowcount == 1

    async def start_game(
        self,
        challenge_id: int,
        people: Sequence[tuple[int, str]],
        build: Callable[[int], tuple[dict[str, Any], NewEvent]],
        now: float,
    ) -> GameRow:
        """Accept an open challenge and insert its game.

        ``build(game_id)`` returns the game's columns and its start event (the dice
        commitment, the seats and the toss). Raises GameMovedOn if the challenge is no longer
        open, ChannelBusy if the channel got a game meanwhile.
        """
        db = self.db
        rows = await db.execute_fetchall("SELECT COALESCE(MAX(id), 0) + 1 FROM games")
        game_id = int(next(iter(rows))[0])
        cur = await db.execute(
            "UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ?"
            " AND status = 'open'",
            (game_id, challenge_id),
        )
        if cur.rowcount != 1:
            raise GameMovedOn
        for pid, name in people:
            await self._upsert_player(db, pid, name, now)
        columns, start = build(game_id)
        events, head = _event_rows(game_id, [start], chain.GENESIS, 0)
        columns = {
            **columns,
            "id": game_id,
            "last_hash": head,
            "seq": 0,
            "log_version": LOG_VERSION,
            "links": 1,
        }
        try:
            await db.execute(
                f"INSERT INTO games ({', '.join(columns)})"
                f" VALUES ({', '.join('?' * len(columns))})",
                tuple(columns.values()),
            )
        except sqlite3.IntegrityError:
            raise ChannelBusy from None
        await db.executemany(_INSERT_EVENT, events)
        got = await db.execute_fetchall(_GAME_SELECT + "WHERE g.id = ?", (game_id,))
        return GameRow(*next(iter(got)))

    async def change_game(
        self,
        game: GameRow,
        changes: Mapping[str, Any],
        actions: Sequence[NewAction] = (),
        events: Sequence[NewEvent] = (),
        *,
        request: tuple[str, dict[str, Any]] | None = None,
        checkpoint: str | None = None,
    ) -> GameRow:
        """Apply ``changes`` to the game's row and append ``actions`` and ``events``, if the game
        is still at ``game.version``; raises GameMovedOn otherwise. Returns the row as written.

        Appending moves sets seq and last_hash; a takeback passes seq in ``changes`` instead
        (and, in a log_version 1 game, last_hash). In a log_version 2 game the events are
        chained after the actions, in the order given, and last_hash and links follow.
        ``checkpoint``: the position after ``actions`` (bot.checkpoint), kept with the hash of
        the last of them in the same transaction.
        """
        chained = game.log_version >= LOG_VERSION
        bad = (set(changes) - set(GAME_COLUMNS)) | ({"id", "version", "links"} & set(changes))
        forbidden = ({"seq", "last_hash"} if actions else set()) | (
            {"last_hash"} if chained and events else set()
        )
        bad |= forbidden & set(changes)
        if bad:
            raise ValueError(f"not changeable here: {sorted(bad)}")
        sets = dict(changes)
        rows: list[tuple[Any, ...]] = []
        link = game.links if chained else None
        head = game.last_hash
        if actions:
            rows, head = _chain_rows(game.id, game.seq, head, actions, link)
            sets.update(seq=game.seq + len(actions), last_hash=head)
            if checkpoint is not None:
                sets.update(
                    checkpoint_text=checkpoint, checkpoint_seq=sets["seq"], checkpoint_head=head
                )
        event_rows, head = _event_rows(
            game.id, events, head, None if link is None else link + len(actions)
        )
        if chained and (actions or events):
            sets.update(last_hash=head, links=game.links + len(actions) + len(events))
        assignments = "".join(f", {k} = ?" for k in sets)
        update = f"UPDATE games SET version = version + 1{assignments} WHERE id = ? AND version = ?"
        kept = (
            None
            if request is None
            else (
                request[0],
                game.id,
                json.dumps(request[1]),
                changes.get("updated_at", game.updated_at),  # its age, for pruning
            )
        )
        written = (update, (*sets.values(), game.id, game.version), rows, event_rows, kept)
        if not await self._write_change(*written):
            raise GameMovedOn
        values = {f: getattr(game, f) for f in GameRow.__slots__}  # type: ignore[attr-defined]
        values.update(sets, version=game.version + 1)
        return GameRow(**values)

    async def _write_change(
        self,
        update: str,
        params: Sequence[Any],
        actions: list[tuple[Any, ...]],
        events: list[tuple[Any, ...]],
        request: tuple[Any, ...] | None,
    ) -> bool:
        """``change_game``'s statements, in one trip to aiosqlite's thread (a move's, issue 17);
        False, with nothing written, when the game has moved on from the version in ``update``."""

        def write(conn: sqlite3.Connection) -> bool:
            if conn.execute(update, params).rowcount != 1:
                return False
            if actions:
                conn.executemany(_INSERT_ACTION, actions)
            if events:
                conn.executemany(_INSERT_EVENT, events)
            if request is not None:
                conn.execute(_INSERT_REQUEST, request)
            return True

        return await self.tx.batch(write)

    async def forget_guild(self, guild_id: int, *, delete: bool) -> ForgetCounts:
        return await forget_guild(self.db, guild_id, delete=delete)

    async def guarded(self, what: str, work: Callable[[], Awaitable[T]]) -> T | None:
        await self.db.execute("SAVEPOINT guarded")
        try:
            done: T | None = await work()
        except sqlite3.Error:
            raise  # a fault or a bad statement: the whole transaction fails
        except Exception:
            log.exception(
                "%s failed; its writes were undone, the rest of %s goes on", what, self.what
            )
            await self.db.execute("ROLLBACK TO guarded")
            done = None
        await self.db.execute("RELEASE guarded")
        return done


WAL_RETRY_SECONDS = 0.005  # between tries of the WAL switch; the winner's switch is a few writes


async def _into_wal(db: aiosqlite.Connection, timeout_ms: int) -> None:
    """``PRAGMA journal_mode = WAL``, tried again while another process switches the same fresh
    file: SQLite answers that race with "database is locked" at once, without its busy handler
    (waiting there could deadlock: both hold a shared lock and want the exclusive one), so the
    busy timeout does not cover it. It failed so, rarely, when six processes opened one fresh
    file together on a loaded machine (tests/bot/test_store_open.py)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout_ms / 1000
    while True:
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = (getattr(exc, "sqlite_errorname", "") or "").startswith("SQLITE_BUSY")
            if not busy or loop.time() >= give_up:
                raise
            await asyncio.sleep(WAL_RETRY_SECONDS)


DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")  # the file itself is bad, not the folder


def _cannot_open(path: str, exc: BaseException) -> StoreUnavailable | BaseException:
    """One critical line for a file or folder that cannot be opened; the error to raise (an
    sqlite3 error that is not a known fault is a bug, raised as it is)."""
    hint = ". Check REFEREE_DB, and that the folder is this user's and writable"
    if isinstance(exc, OSError):
        reason = f"{exc.strerror or exc} ({exc.filename or path})"
    else:
        fault = fault_of(exc)
        if fault is None:
            return exc
        name = getattr(exc, "sqlite_errorname", None) or ""
        if name.startswith(DAMAGED):
            return _damaged(path, f"{fault}: {exc}")
        reason = f"{fault} ({exc})"
        if not name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY")):
            hint = ""  # busy, full, I/O: the file is right, the moment or the disk is not
    log.critical("cannot open the database %s: %s%s", path, reason, hint)
    return StoreUnavailable(reason, f"opening {path}")


def _damaged(path: str, found: str) -> StoreDamaged:
    message = (
        f"refusing to open {path}: the integrity check found it damaged ({found}). Restore it "
        "from a backup (docs/reliability.md, Backups); `python -m bot store check` lists the "
        "problems"
    )
    log.critical(message)
    return StoreDamaged("the database file is damaged", f"opening {path}")


async def _quick_check(db: aiosqlite.Connection, path: str) -> None:
    """``PRAGMA quick_check``, stopping after QUICK_CHECK_ERRORS problems: StoreDamaged, with
    one line naming the file and the first problem, when it finds any."""
    found = [
        str(r[0]) for r in await db.execute_fetchall(f"PRAGMA quick_check({QUICK_CHECK_ERRORS})")
    ]
    if found != ["ok"]:
        more = f"; {len(found) - 1} more" if len(found) > 1 else ""
        raise _damaged(path, found[0] + more)


def _admit(path: Path, access: Access) -> None:
    """Let the opener at ``path`` only if it holds this bot's database, or is a new one the bot
    may make (``Access.CREATE`` only): anything else is refused with one line, and nothing
    there is changed (no file or folder made, no mode changed, nothing written)."""
    found = inspect(path)
    if found.kind is Kind.MISSING:
        if access is not Access.CREATE:
            where = "" if path.is_absolute() else f" ({path.absolute()})"
            raise _refused(
                str(path),
                f"there is no database file there{where}; nothing was created (only the bot "
                "itself, `python -m bot`, makes a new one). Check REFEREE_DB",
            )
        make_new(path)
        return
    if found.kind is Kind.FOREIGN or (found.kind is Kind.NEW and access is not Access.CREATE):
        raise _refused(
            str(path),
            f"{found.why}; nothing there was changed. Check REFEREE_DB (or the path given)",
        )
    if found.kind is Kind.OURS:
        _refuse_newer(str(path), found.version)
    if access is not Access.READ:
        tighten(path)


def _refused(path: str, why: str) -> StoreUnavailable:
    """One critical line, ``refusing to open PATH: WHY``, and the error to raise."""
    log.critical("refusing to open %s: %s", path, why)
    return StoreUnavailable(why.split(";")[0], f"opening {path}")


def _refuse_newer(path: str, version: int) -> None:
    """Raise SchemaTooNew (with one clear log line) for a file newer than this bot knows."""
    if version > LATEST:
        message = (
            f"refusing to open {path}: its schema is version {version}, newer than this bot's "
            f"{LATEST}; it was written by a newer version of the bot. Run that version (never "
            "downgrade the file), or point REFEREE_DB at another file"
        )
        log.critical(message)
        raise SchemaTooNew(message)


_INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, side, actor, action, roll, at, announced_at,"
    " prev_hash, hash, link) VALUES (?,?,?,?,?,?,?,?,?,?,?)"
)
_INSERT_EVENT = (
    "INSERT INTO events (game_id, kind, seat, user_id, at, note, link, prev_hash, hash)"
    " VALUES (?,?,?,?,?,?,?,?,?)"
)


def _chain_rows(
    game_id: int, seq: int, prev_hash: str, actions: Sequence[NewAction], link: int | None = None
) -> tuple[list[tuple[Any, ...]], str]:
    """The rows to insert after ``seq``, each hashed over the previous hash and its content;
    ``link``: the log's length before them (None: a log_version 1 game keeps no links)."""
    rows = []
    for a in actions:
        seq += 1
        if link is not None:
            link += 1
        digest = row_hash(prev_hash, seq, a.side, a.actor, a.action, a.roll, a.at)
        rows.append(
            (
                game_id,
                seq,
                a.side,
                a.actor,
                a.action,
                a.roll,
                a.at,
                a.announced_at,
                prev_hash,
                digest,
                link,
            )
        )
        prev_hash = digest
    return rows, prev_hash


def _event_rows(
    game_id: int, events: Sequence[NewEvent], prev_hash: str, link: int | None
) -> tuple[list[tuple[Any, ...]], str]:
    """The event rows to insert; chained after ``prev_hash`` unless ``link`` is None (a
    log_version 1 game, whose events stay unchained). Returns the rows and the new head."""
    rows = []
    for e in events:
        note = json.dumps(dict(e.note), sort_keys=True)
        digest = None
        prev = None
        if link is not None:
            link += 1
            prev = prev_hash
            when = iso_time(datetime.fromtimestamp(e.at, UTC))
            digest = event_hash(prev_hash, e.kind, e.seat, e.user_id, when, json.loads(note))
            prev_hash = digest
        rows.append((game_id, e.kind, e.seat, e.user_id, e.at, note, link, prev, digest))
    return rows, prev_hash


class _AnswerInTime:
    """A store's lock on its one connection that waits no longer than the request's deadline
    (``bot.deadline``): the wait for the lock (behind this store's other commands) and SQLite's
    busy timeout (behind another writer) together end when the answer is due, and then
    StoreUnavailable says "can't save" in time; nothing was changed. Without a deadline it is a
    plain lock, and SQLite waits the store's own busy timeout."""

    def __init__(self, store: SqliteStore, busy_timeout_ms: int) -> None:
        self._lock = asyncio.Lock()
        self._store = store
        self._default_ms = busy_timeout_ms
        self._busy_ms = busy_timeout_ms  # what the connection's busy_timeout is now

    async def __aenter__(self) -> None:
        left = deadline.left()
        if left is None or not self._lock.locked():  # a free lock is taken without waiting
            await self._lock.acquire()
        else:
            try:
                async with asyncio.timeout(max(left, 0.0)):
                    await self._lock.acquire()
            except TimeoutError:
                reason = "the database is busy: no answer in time"
                log.error(
                    "cannot save: %s (this store's other commands held it %.1f s) on %s; "
                    "nothing was changed",
                    reason,
                    max(left, 0.0),
                    self._store.path,
                )
                raise StoreUnavailable(reason, "waiting for the database") from None
        try:
            await self._wait_at_most(deadline.left())
        except BaseException:
            self._lock.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()

    async def _wait_at_most(self, left: float | None) -> None:
        """SQLite's busy timeout for the statements of this turn: what is left, at most the
        store's own (set only when it changes: most commands are done long before)."""
        wait = self._default_ms if left is None else int(max(0.0, left) * 1000)
        wait = min(wait, self._default_ms)
        db = self._store._db
        if wait != self._busy_ms and db is not None:
            await db.execute(f"PRAGMA busy_timeout = {wait}")
            self._busy_ms = wait
