"""The per-user limits as units on a real SQLite connection: the counts, the exact reasons a
person reads, and the guards' OverLimit (what mutation testing found unchecked)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiosqlite
import pytest

from bot.i18n import say
from bot.limits import (
    MAX_ACTIVE_GAMES,
    MAX_OPEN_CHALLENGES,
    OverLimit,
    active_games,
    challenge_guard,
    challenge_problem,
    games_guard,
    games_problem,
    open_challenges,
)
from bot.store import SqliteStore
from bot.store.sqlite import SqliteReader

NOW = 1_000.0
ME, YOU = 5, 6


@pytest.fixture
async def db() -> AsyncIterator[SqliteReader]:
    """The reads of a unit of work over a connection with just the columns the limits read."""
    conn = await aiosqlite.connect(":memory:")
    await conn.executescript(
        "CREATE TABLE challenges (status TEXT, challenger_id INTEGER, expires_at REAL);"
        "CREATE TABLE games (status TEXT, player0 INTEGER, player1 INTEGER);"
    )
    yield SqliteReader(conn)
    await conn.close()


async def challenges(db: SqliteReader, *rows: tuple[str, int, float]) -> None:
    await db.db.executemany("INSERT INTO challenges VALUES (?,?,?)", rows)


async def games(db: SqliteReader, *rows: tuple[str, int, int]) -> None:
    await db.db.executemany("INSERT INTO games VALUES (?,?,?)", rows)


async def test_open_challenges_count_only_mine_open_and_unexpired(
    db: SqliteReader,
) -> None:
    await challenges(
        db,
        ("open", ME, NOW + 1),
        ("open", ME, NOW + 60),
        ("open", ME, NOW),  # expires now: no longer waiting
        ("accepted", ME, NOW + 60),
        ("open", YOU, NOW + 60),
    )
    assert await open_challenges(db, ME, NOW) == 2
    assert await open_challenges(db, YOU, NOW) == 1
    assert await open_challenges(db, 77, NOW) == 0


async def test_active_games_count_either_seat(db: SqliteReader) -> None:
    await games(db, ("active", ME, YOU), ("active", YOU, ME), ("finished", ME, YOU))
    assert await active_games(db, ME) == 2
    assert await active_games(db, 77) == 0


async def test_the_challenge_limit_and_its_reason(db: SqliteReader) -> None:
    await challenges(db, *[("open", ME, NOW + 60)] * (MAX_OPEN_CHALLENGES - 1))
    assert await challenge_problem(db, ME, NOW) is None
    await challenge_guard(ME, NOW)(db)  # allowed: raises nothing
    await challenges(db, ("open", ME, NOW + 60))
    reason = (
        "you already have 3 challenges waiting: wait for an answer, "
        "or withdraw one before posting another"
    )
    problem = await challenge_problem(db, ME, NOW)
    assert problem is not None and say(problem) == reason
    with pytest.raises(OverLimit) as raised:
        await challenge_guard(ME, NOW)(db)
    assert raised.value.reason == reason and str(raised.value) == reason
    assert say(raised.value.said, "hu").startswith("már 3 kihívásod vár válaszra")  # a message


async def test_the_games_limit_names_who_is_over_it(db: SqliteReader) -> None:
    await games(db, *[("active", ME, YOU)] * (MAX_ACTIVE_GAMES - 1))
    assert await games_problem(db, ME) is None
    await games(db, ("active", YOU, ME))
    mine = "you are already playing 10 games: finish one before starting another"
    assert say(await games_problem(db, ME)) == mine  # type: ignore[arg-type]
    assert say(await challenge_problem(db, ME, NOW)) == mine  # type: ignore[arg-type]
    assert await challenge_problem(db, 77, NOW) is None
    with pytest.raises(OverLimit) as raised:
        await games_guard([(77, "carol"), (YOU, "bob")])(db)
    theirs = "bob is already playing 10 games: a new one can start once they finish one"
    assert str(raised.value) == theirs


async def test_a_store_is_a_source_too(tmp_path) -> None:
    store = await SqliteStore.open(tmp_path / "limits.db")
    try:
        assert await open_challenges(store, ME, NOW) == 0
        assert await active_games(store, ME) == 0
        assert await challenge_problem(store, ME, NOW) is None
    finally:
        await store.close()
