"""The suite's PostgreSQL is a real server, each test's database its own, and nothing is left."""

from __future__ import annotations

import asyncio
import os
import time

import asyncpg
import pytest

from tests.postgres import EXTERNAL, Postgres, running_postgres


async def test_the_server_is_a_real_postgresql_16_or_later(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        version = int(await conn.fetchval("SHOW server_version_num"))
        assert version >= 160000
        # A trigger that refuses an update is something only a real server does.
        await conn.execute("CREATE TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY, v BIGINT)")
        await conn.execute(
            "CREATE FUNCTION no() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'append-only'; END $$"
        )
        await conn.execute(
            "CREATE TRIGGER t_no BEFORE UPDATE ON t FOR EACH ROW EXECUTE FUNCTION no()"
        )
        assert await conn.fetchval("INSERT INTO t (v) VALUES ($1) RETURNING id", 2**62) == 1
        with pytest.raises(asyncpg.RaiseError, match="append-only"):
            await conn.execute("UPDATE t SET v = 0")
    finally:
        await conn.close()


async def test_each_test_has_a_database_of_its_own(postgres_url: str, postgres: Postgres) -> None:
    other = await postgres.create_database()
    try:
        assert other != postgres_url
        a = await asyncpg.connect(postgres_url)
        b = await asyncpg.connect(other)
        try:
            await a.execute("CREATE TABLE only_here (x int)")
            assert await b.fetchval("SELECT to_regclass('only_here')") is None
        finally:
            await a.close()
            await b.close()
    finally:
        await postgres.drop_database(other)
    admin = await asyncpg.connect(postgres.url)
    try:
        names = await admin.fetch("SELECT datname FROM pg_database")
    finally:
        await admin.close()
    assert other.rsplit("/", 1)[1].split("?")[0] not in {r["datname"] for r in names}


@pytest.mark.skipif(bool(os.environ.get(EXTERNAL)), reason="an external server is not ours")
def test_a_server_of_our_own_is_stopped_and_its_folder_deleted() -> None:
    with running_postgres() as server:
        assert server.data_dir is not None and os.path.isdir(server.data_dir)
        pid_file = os.path.join(server.data_dir, "postmaster.pid")
        with open(pid_file) as f:
            pid = int(f.readline())
        os.kill(pid, 0)  # running
        assert asyncio.run(_one(server.url)) == 1
    assert not os.path.exists(server.data_dir)
    with pytest.raises(ProcessLookupError):
        for _ in range(50):
            os.kill(pid, 0)
            time.sleep(0.1)


async def _one(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT 1")
    finally:
        await conn.close()
