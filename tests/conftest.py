"""Session-wide fixtures: the real PostgreSQL server (tests/postgres.py), started once if asked."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for server in _STARTED:
        if server.data_dir is not None:
            line = f"PostgreSQL (pgserver) started in {server.started_in:.2f} s"
            terminalreporter.write_line(line)
