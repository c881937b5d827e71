"""The PostgreSQL store: the same ``Store`` contract as SQLite's, over an asyncpg pool, for
several processes writing one database.

The statements both dialects share are the SQLite store's (``SqliteReader``, ``SqliteTransaction``
and the ladders' mixins): they run here through ``PgConnection``, which numbers the ``?``
placeholders and answers as aiosqlite does. Where PostgreSQL must differ it is overridden below
(``postgres_ladders`` for the ladders):

- ids come from the identity columns (a game's id is drawn from its sequence before ``build``
  needs it), never ``MAX(id) + 1``, which two processes would both take;
- every change is one transaction (READ COMMITTED) guarded by the game's version: the second of
  two racing ``UPDATE ... WHERE version = $n`` waits for the first's row lock, then finds the
  version moved and lands nothing (``GameMovedOn``);
- the per-user limits hold under concurrency: a transaction that counts a user's challenges or
  games first takes that user's transaction-scoped advisory lock, so a second count for the same
  user waits until the first transaction has landed its row (``Store.create_challenge`` and
  ``start_game`` take every person's lock up front, in id order, so two never deadlock).
  SERIALIZABLE would also hold, but a refused commit must re-run the whole ``async with`` body,
  which the unit of work cannot do for its caller;
- a guild's ladder changes one transaction at a time: a transaction's first ladder read of a
  guild (season, ratings, rated games, the rebuild's mark) takes that guild's advisory lock, so
  two games of one player ending at once in two processes both reach the rating (SQLite's
  write lock gives the same); it comes before any ladder row, and no transaction locks a game's
  row after it, so no cycle forms;
- a reading is one REPEATABLE READ, read-only snapshot;
- times are ``timestamptz`` in the database and unix seconds (floats) in the rows, converted
  by a codec on every connection, so the shared statements pass and get floats;
- faults (the server gone, read-only, disk full, a lock or statement timeout, shutdown) raise
  ``StoreUnavailable`` with one log line, nothing changed; a bug in a statement raises as is. A
  write waits for another's row lock at most ``BUSY_TIMEOUT_MS``, and no longer than the
  request's answer is due (``bot.deadline``), as SQLite's busy timeout does.

The seed is a column only the database owner's role may read (no grant to anyone else).

Why it is long: it is all of PostgreSQL's plumbing (pool, faults, deadlines) and
every statement whose dialect or locking differs from SQLite's, in one place beside the contract.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from typing import Any, TypeVar, cast

import asyncpg

from bot import deadline
from bot.errors import Conflict as GameMovedOn
from bot.errors import StoreUnavailable
from bot.ladder import FinishedGame, Table
from bot.ladder.ratings import RatingState
from bot.store.postgres_forget import forget_guild
from bot.store.postgres_ladders import PgLadderReads, PgLadderWrites
from bot.store.postgres_schema import PG_LATEST, SchemaNewer, migrate, schema_version
from bot.store.protocol import (
    ChannelBusy,
    ForgetCounts,
    GameRow,
    Guard,
    NewEvent,
    Reader,
    SchemaTooNew,
    Store,
    Transaction,
)
from bot.store.sqlite import (
    _GAME_SELECT,
    _INSERT_ACTION,
    _INSERT_EVENT,
    _INSERT_REQUEST,
    SqliteReader,
    SqliteTransaction,
    _event_rows,
)
from engine import chain
from engine.record import LOG_VERSION

T = TypeVar("T")
log = logging.getLogger("bot.store")

BUSY_TIMEOUT_MS = 2_000  # a lock held longer is "can't save" within Discord's 3 s
POOL_SIZE = 10  # connections per process; PostgreSQL's default max_connections is 100
USER_LOCK = 0x5245_4655  # advisory lock namespace ("REFU"): one key per user id
LADDER_LOCK = 0x5245_464C  # advisory lock namespace ("REFL"): one key per guild's ladder
_PG_EPOCH_US = 946_684_800_000_000  # 2000-01-01 UTC in unix microseconds

# SQLSTATE classes and codes that mean "not now" rather than "this statement is wrong".
FAULTS = (
    ("08", "the database cannot be reached"),
    ("25006", "the database is read-only"),
    ("53100", "the disk is full"),
    ("53200", "the database is out of memory"),
    ("53300", "the database has no free connection"),
    ("53", "the database is out of resources"),
    ("40001", "the database is locked by another writer"),
    ("40P01", "the database is locked by another writer"),
    ("55P03", "the database is locked by another writer"),
    ("57014", "the database is busy: no answer in time"),
    ("57", "the database is shutting down or restarting"),
    ("58", "the disk failed to read or write"),
    ("XX001", "the database is damaged"),
    ("XX002", "the database is damaged"),
)


# What the driver raises: a fault when ``fault_of`` names one, else a bug in a statement.
DRIVER_ERRORS = (
    OSError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,  # e.g. a statement on a connection the server ended
)


def fault_of(exc: BaseException) -> str | None:
    """The fault an asyncpg error stands for (see FAULTS), or None for a bug in a statement."""
    if unmet := session_unmet(exc):
        return unmet
    if isinstance(exc, (OSError, asyncpg.exceptions.ConnectionDoesNotExistError)):
        return "the database cannot be reached"
    if isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc):
        return "the database cannot be reached"
    if isinstance(exc, asyncpg.exceptions.InternalClientError):
        return "the database cannot be reached"
    state = getattr(exc, "sqlstate", None) or ""
    return next((reason for prefix, reason in FAULTS if state.startswith(prefix)), None)


_SESSION = {"primary": "a primary", "standby": "a standby"}  # else read-write, read-only


def session_unmet(exc: BaseException) -> str | None:
    """What a server reached but refused for ``target_session_attrs`` (in the URL or
    PGTARGETSESSIONATTRS) is, in one line: it was "the database cannot be reached", which sent
    the operator after the network when the host was a standby asked to be the primary."""
    if not isinstance(exc, asyncpg.exceptions.TargetServerAttributeNotMatched):
        return None
    found = re.search(r"'([a-z-]+)'>?\s*$", str(exc))  # asyncpg: "... <SessionAttribute.x: 'x'>"
    if found is None:
        return "the server answers, but is not what target_session_attrs asks for"
    wanted = found.group(1)
    return (
        f"the server answers, but is not {_SESSION.get(wanted, wanted)}, as "
        f"target_session_attrs={wanted} asks"
    )


def redacted(url: str) -> str:
    """The URL without its password, for a log line."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


@lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (no shared statement has a
    ``?`` inside a string literal)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


class _Done:
    """What aiosqlite's cursor tells the shared statements: how many rows a write touched."""

    def __init__(self, status: str) -> None:
        last = status.rsplit(" ", 1)[-1]
        self.rowcount = int(last) if last.isdigit() else -1
        self.lastrowid = None


class PgConnection:
    """One asyncpg connection answering the calls the shared statements make on aiosqlite's."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self.conn.fetch(_numbered(sql), *params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> _Done:
        return _Done(await self.conn.execute(_numbered(sql), *params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            await self.conn.executemany(_numbered(sql), rows)

    async def fetchval(self, sql: str, *params: Any) -> Any:
        return await self.conn.fetchval(_numbered(sql), *params)


async def _init(conn: asyncpg.Connection) -> None:
    """Every connection: ``timestamptz`` in and out as unix seconds (what the rows carry)."""
    await conn.set_type_codec(
        "timestamptz",
        schema="pg_catalog",
        encoder=lambda t: (round(t * 1_000_000) - _PG_EPOCH_US,),
        decoder=lambda v: (v[0] + _PG_EPOCH_US) / 1_000_000,
        format="tuple",
    )


class PostgresStore(Store):
    """A PostgreSQL database. Open with ``await PostgresStore.open(url)``."""

    def __init__(
        self, url: str, pool: asyncpg.Pool, busy_timeout_ms: int = BUSY_TIMEOUT_MS
    ) -> None:
        self.url = url
        self.busy_timeout_ms = busy_timeout_ms  # the longest a write waits for another's lock
        self.path = redacted(url)  # what log lines name
        self._pool: asyncpg.Pool | None = pool

    @classmethod
    async def open(
        cls, url: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, pool_size: int = POOL_SIZE
    ) -> PostgresStore:
        """Connect and migrate (under an advisory lock: processes starting at once are safe).
        Raises SchemaTooNew for a database a newer bot migrated, StoreUnavailable when the
        server cannot be reached; each with one log line naming the database (no password)."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                init=_init,
                server_settings={
                    "lock_timeout": str(int(busy_timeout_ms)),
                    "application_name": "referee",
                },
            )
        except DRIVER_ERRORS as exc:  # target_session_attrs unmet: an InternalClientError
            said = " ".join(str(exc).split())  # one line: asyncpg may add a HINT: line
            reason = fault_of(exc) or f"{type(exc).__name__}: {said}"
            log.critical("cannot open the database %s: %s", redacted(url), reason)
            raise StoreUnavailable(reason, f"opening {redacted(url)}") from exc
        store = cls(url, pool, busy_timeout_ms)
        try:
            async with pool.acquire() as conn:
                await conn.execute("SET lock_timeout = 0")  # migrating may wait for another
                try:
                    current = await schema_version(conn)
                    if current > PG_LATEST:
                        raise SchemaNewer(
                            f"the database is at schema {current}; this bot knows {PG_LATEST}"
                        )
                    if current < PG_LATEST:  # a database at the newest is only read
                        await migrate(conn)
                except SchemaNewer as exc:
                    message = (
                        f"refusing to open {store.path}: {exc}. Run that version (never "
                        "downgrade the database), or point REFEREE_DB at another one"
                    )
                    log.critical(message)
                    raise SchemaTooNew(message) from None
                finally:
                    await conn.execute("RESET lock_timeout")
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the pool; safe to call twice."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the store is closed")
        return self._pool

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await schema_version(conn)

    async def migrate(self, upto: int = PG_LATEST) -> int:
        async with self.pool.acquire() as conn:
            return (await migrate(conn, upto))[1]

    # --- plumbing ---------------------------------------------------------------------------

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
    async def _connection(self, what: str, **options: Any) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection inside one transaction (``options``: asyncpg's), waiting no
        longer than the request's deadline for a free connection; faults as StoreUnavailable."""
        left = deadline.left()
        try:
            conn = await self.pool.acquire(timeout=None if left is None else max(left, 0.001))
        except TimeoutError:
            busy = "the database is busy: no answer in time"
            log.error("cannot save: %s (no free connection) on %s", busy, self.path)
            raise StoreUnavailable(busy, what) from None
        except DRIVER_ERRORS as exc:
            fault = fault_of(exc)
            if fault is None:
                raise
            raise self._unavailable(fault, what, exc) from exc
        try:
            async with conn.transaction(**options):
                if left is not None and left * 1000 < self.busy_timeout_ms:
                    # a lock wait ends when the answer is due: "can't save" in time, not late
                    ms = max(1, int(left * 1000))
                    await conn.execute(f"SET LOCAL lock_timeout = {ms}")
                yield conn
        except DRIVER_ERRORS as exc:
            reason = fault_of(exc) or (
                "the database cannot be reached" if conn.is_closed() else None
            )
            if reason is None:
                raise
            raise self._unavailable(reason, what, exc) from exc
        finally:
            try:
                await self.pool.release(conn)
            except DRIVER_ERRORS:
                conn.terminate()  # a broken connection: the pool opens a new one

    def transaction(self, what: str = "a write") -> AbstractAsyncContextManager[Transaction]:
        return self._transaction(what)

    @asynccontextmanager
    async def _transaction(self, what: str) -> AsyncIterator[Transaction]:
        async with self._connection(what) as conn:
            yield PostgresTransaction(PgConnection(conn), what)

    def reading(self) -> AbstractAsyncContextManager[Reader]:
        return self._reading()

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Reader]:
        async with self._connection("a read", isolation="repeatable_read", readonly=True) as c:
            yield PostgresReader(PgConnection(c))

    # The two writes a per-user limit guards: every person's lock first, in id order.

    async def create_challenge(
        self,
        fields: Mapping[str, Any],
        people: Sequence[tuple[int, str]],
        now: float,
        guard: Guard | None = None,
    ) -> int:
        async with self.transaction(f"a challenge in channel {fields['channel_id']}") as tx:
            if guard is not None:
                await cast(PostgresTransaction, tx).lock_users(p for p, _ in people)
                await guard(tx)
            return await tx.create_challenge(fields, people, now)

    async def start_game(
        self,
        challenge_id: int,
        people: Sequence[tuple[int, str]],
        build: Callable[[int], tuple[dict[str, Any], NewEvent]],
        now: float,
        guard: Guard | None = None,
    ) -> GameRow:
        async with self.transaction(f"starting the game of challenge {challenge_id}") as tx:
            if guard is not None:
                await cast(PostgresTransaction, tx).lock_users(p for p, _ in people)
                await guard(tx)
            return await tx.start_game(challenge_id, people, build, now)

    async def start_practice(
        self,
        fields: Mapping[str, Any],
        people: Sequence[tuple[int, str]],
        build: Callable[[int, int], tuple[dict[str, Any], NewEvent]],
        now: float,
        guard: Guard | None = None,
    ) -> GameRow:
        async with self.transaction(f"a practice game in channel {fields['channel_id']}") as tx:
            if guard is not None:
                await cast(PostgresTransaction, tx).lock_users(p for p, _ in people)
                await guard(tx)
            cid = await tx.create_challenge(fields, people, now)
            return await tx.start_game(cid, people, lambda gid: build(cid, gid), now)


class PostgresReader(PgLadderReads, SqliteReader):
    """The reads of one unit of work on one pooled connection (a transaction open)."""

    def __init__(self, db: PgConnection) -> None:
        super().__init__(cast(Any, db))
        self.pg = db

    async def game_ids(self) -> list[int]:
        """Every game's id, ascending (``store copy``'s verification)."""
        return [int(r[0]) for r in await self._all("SELECT id FROM games ORDER BY id")]


class PostgresTransaction(PgLadderWrites, PostgresReader, SqliteTransaction):
    """One write transaction on one pooled connection."""

    def __init__(self, db: PgConnection, what: str = "a write") -> None:
        PostgresReader.__init__(self, db)
        self.what = what
        self._locked: set[int] = set()
        self._ladders: set[int] = set()

    async def _write_change(
        self,
        update: str,
        params: Sequence[Any],
        actions: list[tuple[Any, ...]],
        events: list[tuple[Any, ...]],
        request: tuple[Any, ...] | None,
    ) -> bool:
        """``change_game``'s statements, one by one (asyncpg: each is a trip to the server)."""
        if (await self.pg.execute(update, params)).rowcount != 1:
            return False
        await self.pg.executemany(_INSERT_ACTION, actions)
        await self.pg.executemany(_INSERT_EVENT, events)
        if request is not None:
            await self.pg.execute(_INSERT_REQUEST, request)
        return True

    async def lock_users(self, user_ids: Any) -> None:
        """Hold these users' advisory locks until the transaction ends (ascending ids)."""
        for uid in sorted(set(user_ids) - self._locked):
            await self.pg.conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))",
                                       USER_LOCK, str(uid))  # fmt: skip
            self._locked.add(uid)

    async def lock_ladder(self, guild: int) -> None:
        """Hold the guild's ladder lock until the transaction ends."""
        if guild not in self._ladders:
            await self.pg.conn.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2))", LADDER_LOCK, str(guild)
            )
            self._ladders.add(guild)

    async def season(self, guild: int) -> int:
        await self.lock_ladder(guild)
        return await super().season(guild)

    async def ladder_mark(self, guild: int) -> tuple[Any, ...]:
        await self.lock_ladder(guild)
        return await super().ladder_mark(guild)

    async def rated_games(
        self, guild: int, season: int | None, ids: Sequence[int] | None = None
    ) -> list[tuple[int, FinishedGame]]:
        await self.lock_ladder(guild)
        return await super().rated_games(guild, season, ids)

    async def rated_later(
        self, game_id: int, guild: int, season: int, ladder: str, players: tuple[int, int]
    ) -> bool:
        await self.lock_ladder(guild)
        return await super().rated_later(game_id, guild, season, ladder, players)

    async def ratings(
        self, guild: int, ladder: str, season: int, players: Sequence[int] | None = None
    ) -> dict[int, RatingState]:
        await self.lock_ladder(guild)
        return await super().ratings(guild, ladder, season, players)

    async def table(self, guild: int, season: int | None) -> dict[int, Table]:
        await self.lock_ladder(guild)
        return await super().table(guild, season)

    async def open_challenges(self, user_id: int, now: float) -> int:
        await self.lock_users((user_id,))
        return await super().open_challenges(user_id, now)

    async def active_games(self, user_id: int) -> int:
        await self.lock_users((user_id,))
        return await super().active_games(user_id)

    async def prune_requests(self, before: float, limit: int) -> int:
        done = await self.pg.execute(
            "DELETE FROM request_ids WHERE request_id IN (SELECT request_id FROM request_ids"
            " WHERE at < ? ORDER BY at LIMIT ? FOR UPDATE SKIP LOCKED)",
            (before, limit),
        )
        return done.rowcount

    async def set_guild_settings(
        self,
        guild_id: int,
        now: float,
        *,
        theme: str | None = None,
        ladder: Mapping[str, Any] | None = None,
    ) -> None:
        await self.pg.execute(
            "INSERT INTO guild_settings AS s (guild_id, theme, ladder, updated_at)"
            " VALUES (?,?,?,?) ON CONFLICT (guild_id) DO UPDATE SET"
            " theme = COALESCE(excluded.theme, s.theme),"
            " ladder = CASE WHEN ? THEN excluded.ladder ELSE s.ladder END,"
            " updated_at = excluded.updated_at",
            (guild_id, theme, json.dumps(dict(ladder or {})), now, ladder is not None),
        )

    async def create_challenge(
        self,
        fields: Mapping[str, Any],
        people: Sequence[tuple[int, str]],
        now: float,
    ) -> int:
        busy = await self._all(
            "SELECT 1 FROM games WHERE channel_id = ? AND status = 'active' UNION ALL "
            "SELECT 1 FROM challenges WHERE channel_id = ? AND status = 'open'",
            (fields["channel_id"], fields["channel_id"]),
        )
        if busy:
            raise ChannelBusy
        for pid, name in people:
            await self._upsert_player(cast(Any, self.pg), pid, name, now)
        cols = ", ".join(fields)
        try:
            async with self.pg.conn.transaction():  # a savepoint: a lost race undoes only this
                got = await self.pg.fetchval(
                    f"INSERT INTO challenges ({cols}) VALUES ({', '.join('?' * len(fields))})"
                    " RETURNING id",
                    *fields.values(),
                )
        except asyncpg.UniqueViolationError:
            raise ChannelBusy from None  # another process's challenge landed first
        return int(got)

    async def start_game(
        self,
        challenge_id: int,
        people: Sequence[tuple[int, str]],
        build: Callable[[int], tuple[dict[str, Any], NewEvent]],
        now: float,
    ) -> GameRow:
        """As SQLite's, with the id drawn from the identity column's sequence."""
        pg = self.pg
        game_id = int(await pg.fetchval("SELECT nextval(pg_get_serial_sequence('games', 'id'))"))
        done = await pg.execute(
            "UPDATE challenges SET status = 'accepted', game_id = ? WHERE id = ?"
            " AND status = 'open'",
            (game_id, challenge_id),
        )
        if done.rowcount != 1:
            raise GameMovedOn
        for pid, name in people:
            await self._upsert_player(cast(Any, pg), pid, name, now)
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
            async with pg.conn.transaction():  # a savepoint, so the unique index's refusal
                await pg.execute(  # is a ChannelBusy, not a failed transaction
                    f"INSERT INTO games ({', '.join(columns)})"
                    f" VALUES ({', '.join('?' * len(columns))})",
                    tuple(columns.values()),
                )
        except asyncpg.UniqueViolationError:
            raise ChannelBusy from None
        await pg.executemany(_INSERT_EVENT, events)
        row = await pg.conn.fetchrow(_numbered(_GAME_SELECT + "WHERE g.id = ?"), game_id)
        return GameRow(*row)

    async def forget_guild(self, guild_id: int, *, delete: bool) -> ForgetCounts:
        return await forget_guild(self.pg.conn, guild_id, delete=delete)

    async def guarded(self, what: str, work: Callable[[], Awaitable[T]]) -> T | None:
        savepoint = self.pg.conn.transaction()
        await savepoint.start()
        try:
            done: T | None = await work()
        except DRIVER_ERRORS:
            if not self.pg.conn.is_closed():
                await savepoint.rollback()
            raise  # a fault or a bad statement: the whole transaction fails
        except asyncio.CancelledError:
            await savepoint.rollback()
            raise
        except Exception:
            log.exception(
                "%s failed; its writes were undone, the rest of %s goes on", what, self.what
            )
            await savepoint.rollback()
            self._locked.clear()  # locks taken inside it may have gone with it: take them again
            self._ladders.clear()
            return None
        await savepoint.commit()
        return done
