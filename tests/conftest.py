"""Session-wide fixtures: the real PostgreSQL server (tests/postgres.py), started once if asked;
the event loop every async test runs on."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from bot import event_loop
from tests.postgres import Postgres, running_postgres

_STARTED: list[Postgres] = []


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One PostgreSQL server for the whole session, in a temp dir, deleted afterwards."""
    with running_postgres() as server:
        _STARTED.append(server)
        yield server


@pytest.fixture
async def postgres_url(postgres: Postgres) -> AsyncIterator[str]:
    """A fresh database of this test's own on the session's server; dropped after the test."""
    url = await postgres.create_database()
    yield url
    await postgres.drop_database(url)


@pytest.fixture(scope="session")
def migrated_template(postgres: Postgres) -> str:
    """The name of a database at the newest schema, made once: a store test's database is a copy
    of it (``CREATE DATABASE ... TEMPLATE``, a file copy), not 8 migrations per test."""
    import asyncio

    from bot.store.postgres import PostgresStore

    async def make() -> str:
        url = await postgres.create_database()
        await (await PostgresStore.open(url)).close()
        return urlsplit(url).path.lstrip("/")

    # in a thread of its own: it may first be asked for from inside a running test's loop
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, make()).result()


@pytest.fixture
async def migrated_postgres_url(postgres: Postgres, migrated_template: str) -> AsyncIterator[str]:
    """A database of this test's own, already at the newest schema; dropped after the test."""
    url = await postgres.create_database(template=migrated_template)
    yield url
    await postgres.drop_database(url)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for server in _STARTED:
        if server.data_dir is not None:
            line = f"PostgreSQL (pgserver) started in {server.started_in:.2f} s"
            terminalreporter.write_line(line)


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict[str, object]:
    """Every async test runs on the bot's own event loop (uvloop, ``bot.event_loop``); a test
    marked ``both_loops`` runs on asyncio's as well (``EVENT_LOOP=asyncio``)."""
    names = event_loop.LOOPS if item.get_closest_marker("both_loops") else (event_loop.DEFAULT,)
    return {name: event_loop.factory(name) for name in names}


@pytest.fixture
def root_logging() -> Iterator[None]:
    """``configure_logging`` points the root logger at this test's (captured) stderr: put the
    handlers back after, or later tests log into a closed stream."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
