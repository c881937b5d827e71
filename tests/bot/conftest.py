"""Fixtures for the referee tests: a real store (a SQLite file, and a PostgreSQL database), a
hand-moved clock, named players."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, ButtonKind, Notice, Reply, Where
from bot.store import SqliteStore, Store, open_store

ALICE = Actor(101, "alice")
BOB = Actor(202, "bob")
CAROL = Actor(303, "carol")
MOD = Actor(909, "mod", is_moderator=True)
HERE = Where(guild_id=1, channel_id=10)
THERE = Where(guild_id=1, channel_id=11)


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "referee.db")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which store a test runs on: every test that takes ``store`` (or ``referee``) runs on both
    a real SQLite file and a real PostgreSQL database (the suite's own server)."""
    return str(request.param)


@pytest.fixture
async def store(backend: str, db_path: str, request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    if backend == "sqlite":
        s: Store = await SqliteStore.open(db_path)
        yield s
        await s.close()
        return
    server = request.getfixturevalue("postgres")  # sync fixtures: started once, lazily
    url = await server.create_database(template=request.getfixturevalue("migrated_template"))
    s = await open_store(url)
    yield s
    await s.close()
    await server.drop_database(url)


@pytest.fixture
def store_url(store: Store, db_path: str) -> str:
    """Where ``store`` lives, for opening a second store on it (another process, say)."""
    return str(getattr(store, "url", db_path))


@pytest.fixture
async def other(store_url: str) -> AsyncIterator[Store]:
    """A second store on the same database: another process of the bot, say."""
    s = await open_store(store_url)
    yield s
    await s.close()


async def poke(store: Store, sql: str, *params: object) -> None:
    """Run one statement on the store's database behind its back (``?`` placeholders), as an
    operator or an attacker with the database could: SQLite or PostgreSQL."""
    if hasattr(store, "pool"):
        from bot.store.postgres import _numbered

        async with store.pool.acquire() as conn:
            await conn.execute(_numbered(sql), *params)
    else:
        await store.db.execute(sql, params)  # type: ignore[attr-defined]


async def rows(store: Store, sql: str, *params: object) -> list[tuple[object, ...]]:
    """The rows one query finds in the store's database, read behind its back."""
    if hasattr(store, "pool"):
        from bot.store.postgres import _numbered

        async with store.pool.acquire() as conn:
            return [tuple(r) for r in await conn.fetch(_numbered(sql), *params)]
    return [tuple(r) for r in await store.db.execute_fetchall(sql, params)]  # type: ignore[attr-defined]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked ``sqlite_only`` (it handles the SQLite file itself) runs on SQLite only."""
    items[:] = [
        item
        for item in items
        if not (item.get_closest_marker("sqlite_only") and "[postgres" in item.nodeid)
    ]


@pytest.fixture
def referee(store: Store, clock: ManualClock) -> Referee:
    return Referee(store, clock, render=False)


async def start(
    referee: Referee,
    game: str = "atmalof",
    where: Where = HERE,
    first: Actor = ALICE,
    second: Actor = BOB,
    **kwargs,
) -> Reply:
    """A game in ``where`` with ``first`` moving first; the accept reply."""
    made = await referee.challenge(where, first, game, opponent=second, starter="me", **kwargs)
    assert made.ok, made.text
    reply = await referee.accept(where, second)
    assert reply.ok, reply.text
    return reply


async def play(referee: Referee, where: Where, actor: Actor, text: str) -> Reply:
    """``act`` and, for an announced drop, the roll: the final reply. A drop into a full line
    is confirmed when the referee asks (as a random player would press Announce)."""
    reply = await referee.act(where, actor, text)
    if any(b.kind is ButtonKind.DROP_CONFIRM for b in reply.buttons):
        reply = await referee.act(where, actor, f"{text} confirm")
    if reply.ok and reply.pending_roll:
        reply = await referee.roll_pending(where)
    return reply


async def morris_mill(referee: Referee, where: Where = HERE) -> Reply:
    """A Morris game where alice (White) has just closed a7-d7-g7 by placing g7 and not yet
    named the man to remove (bob's a1 and d1 can go)."""
    await start(referee, "morris", where)
    for actor, text in [(ALICE, "place a7"), (BOB, "place a1"), (ALICE, "place d7"),
                        (BOB, "place d1")]:  # fmt: skip
        assert (await play(referee, where, actor, text)).ok
    mill = await play(referee, where, ALICE, "place g7")
    assert mill.ok, mill.text
    return mill


async def both_act(referee: Referee, where: Where, first: Actor, second: Actor) -> None:
    """``first`` then ``second`` play their first legal action: a rated game can then be
    resigned by either (a player who has not acted aborts instead)."""
    for mover in (first, second):
        moves = await referee.legal_for(where, mover)
        assert moves, f"{mover.name} has nothing to play"
        reply = await play(referee, where, mover, moves[0])
        assert reply.ok, reply.text


async def random_game(
    referee: Referee, where: Where, players: dict[int, Actor], seed: int, limit: int = 2000
) -> Reply:
    """Play random legal actions for whoever is to move until the game ends."""
    rng = random.Random(seed)
    reply = await referee.board(where)
    for _ in range(limit):
        if reply.finished:
            return reply
        mover = players[reply.to_move]
        moves = await referee.legal_for(where, mover)
        assert moves, reply.text
        reply = await play(referee, where, mover, rng.choice(moves))
        assert reply.ok, reply.text
    raise AssertionError("the game did not end")


def checks_out(reply: Reply) -> bool:
    """Whether a /verify (or /import) reply's verdict is positive: its first line tells every
    player that every move checks out, and the moderators' details under it open "Verified:"."""
    first, *details = reply.text.splitlines()
    return first.startswith("Every move") and any(d.startswith("Verified: ") for d in details)


async def swept(referee: Referee, now: float | None = None, **options: Any) -> list[Notice]:
    """Every notice of one sweep (``Referee.sweep``'s async iterator), in the order it yielded
    them."""
    return [notice async for notice in referee.sweep(now, **options)]


async def file_with_games(path: Path, *, keep_open: bool = False) -> Referee:
    """A database of this bot with three games (left open, in WAL, with ``keep_open``)."""
    referee = Referee(await SqliteStore.open(path), ManualClock(), render=False)
    for n in range(3):
        where = Where(1, 100 + n)
        await referee.challenge(where, ALICE, "morris", opponent=BOB, starter="me")
        await referee.accept(where, BOB)
        await referee.act(where, ALICE, "place d7")
    if not keep_open:
        await referee.store.close()
    return referee
