"""The PostgreSQL schema on a real server: migrations under a lock, ids from the database, and
logs the database itself keeps append-only."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store.migrations import LATEST, MIGRATIONS, STEPS
from bot.store.postgres_schema import (
    PG_LATEST,
    PG_MIGRATIONS,
    SchemaNewer,
    migrate,
    schema_version,
)

SNOWFLAKE = 2**63 - 1  # the largest Discord id


def test_one_numbered_list_for_both_dialects() -> None:
    assert PG_LATEST == LATEST == len(STEPS)  # one list: a step is numbered once for both
    assert tuple(step.sqlite for step in STEPS) == MIGRATIONS
    assert tuple(step.on_postgres for step in STEPS) == PG_MIGRATIONS
    shared = [n for n, step in enumerate(STEPS, start=1) if step.postgres is None]
    assert shared == [5, 6, 7, 9]  # the steps whose SQL is the same in both dialects


@pytest.fixture
async def conn(postgres_url: str):
    c = await asyncpg.connect(postgres_url)
    yield c
    await c.close()


async def test_migrate_from_empty_then_nothing_left(conn: asyncpg.Connection) -> None:
    assert await schema_version(conn) == 0
    assert await migrate(conn) == (0, PG_LATEST)
    assert await migrate(conn) == (PG_LATEST, PG_LATEST)
    assert await schema_version(conn) == PG_LATEST


async def test_processes_starting_at_once_migrate_once(postgres_url: str) -> None:
    conns = [await asyncpg.connect(postgres_url) for _ in range(4)]
    try:
        results = await asyncio.gather(*(migrate(c) for c in conns))
    finally:
        for c in conns:
            await c.close()
    assert sorted(results) == [(0, PG_LATEST)] + [(PG_LATEST, PG_LATEST)] * 3


async def test_a_newer_schema_is_refused(conn: asyncpg.Connection) -> None:
    await migrate(conn)
    await conn.execute("UPDATE referee_schema SET version = $1", PG_LATEST + 1)
    with pytest.raises(SchemaNewer):
        await migrate(conn)


async def _game(conn: asyncpg.Connection, channel: int) -> int:
    await conn.execute(
        "INSERT INTO players (id, name, first_seen, last_seen) VALUES ($1, 'a', now(), now())"
        " ON CONFLICT DO NOTHING",
        SNOWFLAKE,
    )
    return await conn.fetchval(
        "INSERT INTO games (guild_id, channel_id, game, variant, player0, player1, position,"
        " last_hash, seed, commitment, created_at, updated_at, turn_started_at)"
        " VALUES ($1, $2, 'morris', 'standard', $3, $3, '', '', '', '', now(), now(), now())"
        " RETURNING id",
        SNOWFLAKE,
        channel,
        SNOWFLAKE,
    )


async def test_ids_come_from_the_database_across_connections(postgres_url: str) -> None:
    first = await asyncpg.connect(postgres_url)
    second = await asyncpg.connect(postgres_url)
    try:
        await migrate(first)
        ids = await asyncio.gather(*(_game(c, 100 + i) for i, c in enumerate([first, second])))
        assert len(set(ids)) == 2
        row = await first.fetchrow("SELECT guild_id, player0 FROM games WHERE id = $1", ids[0])
        assert tuple(row) == (SNOWFLAKE, SNOWFLAKE)  # Discord ids whole, as BIGINT
    finally:
        await first.close()
        await second.close()


async def test_the_logs_are_append_only_in_the_database(conn: asyncpg.Connection) -> None:
    await migrate(conn)
    game = await _game(conn, 1)
    await conn.execute(
        "INSERT INTO actions (game_id, seq, side, actor, action, at, prev_hash, hash)"
        " VALUES ($1, 1, 0, 'a', 'place d7', '2026-01-01T00:00:00+00:00', '', 'h')",
        game,
    )
    await conn.execute("INSERT INTO events (game_id, kind, at) VALUES ($1, 'start', now())", game)
    for sql in (
        "UPDATE actions SET action = 'place a1'",
        "DELETE FROM actions",
        "TRUNCATE actions CASCADE",
        "UPDATE events SET kind = 'award'",
        "DELETE FROM events",
    ):
        with pytest.raises(asyncpg.RestrictViolationError, match="append-only"):
            await conn.execute(sql)
    assert await conn.fetchval("SELECT count(*) FROM actions") == 1
    async with conn.transaction():  # forgetting a server: only inside its own transaction
        await conn.execute("SET LOCAL referee.forgetting = 'on'")
        await conn.execute("DELETE FROM actions WHERE game_id = $1", game)
    assert await conn.fetchval("SELECT count(*) FROM actions") == 0
    with pytest.raises(asyncpg.RestrictViolationError):  # and only while it lasts
        await conn.execute("DELETE FROM events")
