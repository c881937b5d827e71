"""What only the PostgreSQL store has to show, on the suite's real server: several processes'
stores on one database draw distinct ids and never both land a change; a lost connection, a
read-only database and a newer schema are the same errors as SQLite's; forgetting a server
deletes through the append-only triggers and nothing else can; the seed is the owner's only."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot import deadline, ladder_store
from bot.clock import ManualClock
from bot.ladder_store import rebuild_store
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store import SchemaTooNew, StoreUnavailable, open_store
from bot.store.postgres import PostgresStore
from bot.store.postgres_schema import PG_LATEST
from tests.bot.conftest import ALICE, BOB, HERE, both_act, play, start
from tests.postgres import Postgres


@pytest.fixture
async def pg(migrated_postgres_url: str):
    store = await PostgresStore.open(migrated_postgres_url)
    yield store
    await store.close()


async def _admin(postgres: Postgres, sql: str) -> None:
    conn = await asyncpg.connect(postgres.url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


async def test_processes_starting_games_at_once_draw_distinct_ids(
    pg: PostgresStore, migrated_postgres_url: str
) -> None:
    """Four stores (four processes) start twenty games in twenty channels at once: every game
    lands, with ids from the identity column (MAX(id)+1 would have collided)."""
    stores = [pg] + [await open_store(migrated_postgres_url) for _ in range(3)]
    clock = ManualClock()
    try:
        referees = [Referee(s, clock, render=False) for s in stores]

        async def one(n: int) -> bool:
            where = Where(guild_id=1, channel_id=1000 + n)
            first, second = Actor(500 + 2 * n, f"p{n}"), Actor(501 + 2 * n, f"q{n}")
            ref = referees[n % 4]
            made = await ref.challenge(where, first, "morris", opponent=second, starter="me")
            accepted = await referees[(n + 1) % 4].accept(where, second)
            return made.ok and accepted.ok

        assert all(await asyncio.gather(*(one(n) for n in range(20))))
        async with pg.reading() as rx:
            ids = await rx.game_ids()  # type: ignore[attr-defined]
        assert sorted(ids) == list(range(1, 21))
        assert await pg.running_games() == 20
    finally:
        for s in stores[1:]:
            await s.close()


async def test_a_lost_connection_is_cant_save_and_the_store_goes_on(
    pg: PostgresStore, postgres: Postgres, migrated_postgres_url: str
) -> None:
    referee = Referee(pg, ManualClock(), render=False)
    await start(referee, "morris")
    with pytest.raises(StoreUnavailable, match="cannot be reached"):
        async with pg.transaction("a write the server drops") as tx:
            await tx.set_takebacks(1, False, 5.0)
            await _admin(  # the server ends the connection in the middle of the transaction
                postgres,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                f" WHERE datname = '{_name(migrated_postgres_url)}'",
            )
    assert (await play(referee, HERE, ALICE, "place d7")).ok  # a new connection: it goes on
    assert (await pg.guild_settings(1))["takebacks"] is True  # the failed write left nothing


async def test_a_read_only_database_is_cant_save_with_nothing_changed(
    pg: PostgresStore, postgres: Postgres, migrated_postgres_url: str
) -> None:
    referee = Referee(pg, ManualClock(), render=False)
    await start(referee, "morris")
    name = _name(migrated_postgres_url)
    await _admin(postgres, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    fresh = await open_store(migrated_postgres_url)  # its connections are read-only
    try:
        with pytest.raises(StoreUnavailable, match="read-only"):
            await fresh.set_takebacks(1, False, 5.0)
        g = await fresh.game(1)
        assert g is not None and g.seq == 0  # reads still work
    finally:
        await fresh.close()
        await _admin(postgres, f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')


async def test_a_write_held_up_by_another_says_cant_save_when_the_answer_is_due(
    pg: PostgresStore, migrated_postgres_url: str
) -> None:
    await start(Referee(pg, ManualClock(), render=False), "morris")
    g = await pg.game(1)
    assert g is not None
    blocker = await asyncpg.connect(migrated_postgres_url)  # another process, mid-transaction
    answered = False
    try:
        await blocker.execute("BEGIN; SELECT 1 FROM games WHERE id = 1 FOR UPDATE")
        deadline.start(0.3, lambda: answered)  # Discord's answer is due in 0.3 s
        began = time.monotonic()
        with pytest.raises(StoreUnavailable, match="locked by another writer"):
            async with pg.transaction("a move") as tx:
                await tx.change_game(g, {"draw_offer": 0})
        assert time.monotonic() - began < pg.busy_timeout_ms / 1000  # told before 2 s
        answered = True  # "can't save" was the answer: the check below has no deadline
    finally:
        await blocker.close()
    assert await pg.game(1) == g


async def test_a_database_from_a_newer_bot_is_refused(
    pg: PostgresStore, migrated_postgres_url: str
) -> None:
    async with pg.pool.acquire() as conn:
        await conn.execute("UPDATE referee_schema SET version = version + 1")
    newer = rf"schema {PG_LATEST + 1}; this bot knows {PG_LATEST}"  # whatever the newest is
    with pytest.raises(SchemaTooNew, match=newer):
        await open_store(migrated_postgres_url)


async def test_forgetting_a_server_passes_the_triggers_and_nothing_else_does(
    pg: PostgresStore,
) -> None:
    referee = Referee(pg, ManualClock(), render=False)
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    elsewhere = Where(guild_id=2, channel_id=20)
    await start(referee, "morris", where=elsewhere)
    async with pg.pool.acquire() as conn:
        with pytest.raises(asyncpg.RestrictViolationError, match="append-only"):
            await conn.execute("DELETE FROM actions")
    async with pg.transaction("forgetting guild 1") as tx:
        found = await tx.forget_guild(1, delete=True)
    assert found.game_ids == (1,) and found.counts["actions"] == 1
    assert await pg.game(1) is None and await pg.actions(1) == []
    assert (await pg.game(2)) is not None and len(await pg.events(2)) == 1
    async with pg.pool.acquire() as conn:  # the exception ended with that transaction
        with pytest.raises(asyncpg.RestrictViolationError, match="append-only"):
            await conn.execute("DELETE FROM events WHERE game_id = 2")


async def test_the_seed_is_readable_by_the_owner_only(
    pg: PostgresStore, postgres: Postgres, migrated_postgres_url: str
) -> None:
    await start(Referee(pg, ManualClock(), render=False), "morris")
    role = "nosy_" + _name(migrated_postgres_url)[-8:]
    await _admin(postgres, f"CREATE ROLE {role} LOGIN")
    try:
        parts = urlsplit(migrated_postgres_url)
        nosy_url = urlunsplit(parts._replace(netloc=f"{role}@{parts.hostname or ''}"))
        nosy = await asyncpg.connect(nosy_url)
        try:
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await nosy.fetchval("SELECT seed FROM games")
        finally:
            await nosy.close()
    finally:
        await _admin(postgres, f"DROP OWNED BY {role}; DROP ROLE {role}")


async def test_two_stores_race_one_move_and_one_lands(
    pg: PostgresStore, migrated_postgres_url: str
) -> None:
    other = await open_store(migrated_postgres_url)
    try:
        clock = ManualClock()
        await start(Referee(pg, clock, render=False), "morris")
        a, b = Referee(pg, clock, render=False), Referee(other, clock, render=False)
        replies = await asyncio.gather(
            play(a, HERE, ALICE, "place d7"), play(b, HERE, ALICE, "place a1")
        )
        assert sum(r.ok for r in replies) == 1
        g = await pg.game(1)
        assert g is not None and g.seq == 1 and len(await pg.all_actions(1)) == 1
        assert BOB.id in g.players
    finally:
        await other.close()


async def test_the_bot_runs_on_a_postgresql_url(postgres_url: str) -> None:
    """``REFEREE_DB=postgresql://...``: the same entry point migrates an empty database and
    keeps a game there (the console front end, as the Discord one opens its store alike)."""
    lines = "alice: challenge bob morris\nbob: accept\nalice: place d7\nbob: resign\n"
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "console"],
        cwd=Path(__file__).resolve().parents[2],
        input=lines,
        env={**os.environ, "REFEREE_DB": postgres_url, "DISCORD_TOKEN": ""},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "resigned)" in done.stdout  # who moves first is drawn: alice's move may be refused
    store = await open_store(postgres_url)
    try:
        g = await store.game(1)
        assert g is not None and (g.game, g.status, g.termination) == (
            "morris",
            "finished",
            "resignation",
        )
    finally:
        await store.close()


async def test_two_processes_ending_games_of_one_player_both_count(
    pg: PostgresStore, migrated_postgres_url: str
) -> None:
    """Alice's two rated games end at once in two processes: both reach her rating (no lost
    update), and the ladder equals a rebuild from the games."""
    other = await open_store(migrated_postgres_url)
    try:
        clock = ManualClock()
        a, b = Referee(pg, clock, render=False), Referee(other, clock, render=False)
        there = Where(guild_id=1, channel_id=11)
        carol = Actor(303, "carol")
        for _ in range(3):
            await start(a, "morris", rated=True)
            await start(a, "morris", where=there, second=carol, rated=True)
            await both_act(a, HERE, ALICE, BOB)
            await both_act(a, there, ALICE, carol)
            ended = await asyncio.gather(a.resign(HERE, BOB), b.resign(there, carol))
            assert all(r.ok and r.finished for r in ended)
        table = await ladder_store.ratings(pg, 1, "morris", 1)
        assert table[ALICE.id].games == 6 and table[ALICE.id].wins == 6
        report = await rebuild_store(pg, None, check=True)
        assert report.differences == []
    finally:
        await other.close()
