"""A real PostgreSQL server for the tests, started by the suite itself: no mock, no set-up.

pgserver's wheel carries PostgreSQL 16's binaries, so a fresh clone on a fresh machine needs
nothing installed by hand. The server lives in a temporary folder for one test session and is
stopped and deleted at its end; each test that asks gets a database of its own on it.
``REFEREE_TEST_POSTGRES`` (a superuser URL) points the suite at a server that is already running
instead (a container in CI, say).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import asyncpg

EXTERNAL = "REFEREE_TEST_POSTGRES"


@dataclass(frozen=True, slots=True)
class Postgres:
    """One running server: the superuser URL of its ``postgres`` database, and how it started."""

    url: str
    started_in: float  # seconds from nothing to accepting connections (0 for an external one)
    data_dir: str | None  # None: an external server, not ours to delete

    def database_url(self, name: str) -> str:
        """The URL of database ``name`` on this server (the same user, host and options)."""
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path="/" + name))

    async def create_database(self, template: str | None = None) -> str:
        """A new database, empty or a copy of ``template`` (a database's name); its URL."""
        name = "t_" + uuid.uuid4().hex[:16]
        admin = await asyncpg.connect(self.url)
        try:
            copy = "" if template is None else f' TEMPLATE "{template}"'
            await admin.execute(f'CREATE DATABASE "{name}"{copy}')
        finally:
            await admin.close()
        return self.database_url(name)

    async def drop_database(self, url: str) -> None:
        """Drop a database made by ``create_database`` (its connections are ended first)."""
        name = urlsplit(url).path.lstrip("/")
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A server for as long as the block runs: the external one, or pgserver's in a temp dir."""
    external = os.environ.get(EXTERNAL, "").strip()
    if external:
        yield Postgres(url=external, started_in=0.0, data_dir=None)
        return
    with warnings.catch_warnings():  # platformdirs: no XDG_RUNTIME_DIR (falls back to /tmp)
        warnings.simplefilter("ignore")
        import pgserver  # only needed when the suite starts the server itself

    # A short path: the server's Unix socket lives in it and socket paths are capped at 107 bytes.
    data_dir = tempfile.mkdtemp(prefix="referee-pg-")
    began = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pgserver.get_server(data_dir, cleanup_mode="delete")
    try:
        started = time.perf_counter() - began
        yield Postgres(url=server.get_uri(), started_in=started, data_dir=data_dir)
    finally:
        server.cleanup()
        shutil.rmtree(data_dir, ignore_errors=True)
