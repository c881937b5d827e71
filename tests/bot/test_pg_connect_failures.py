"""A PostgreSQL that cannot be connected to, for any reason, is one line and exit 3 (README),
never a traceback and never the URL's password: each command runs as a real ``python -m bot``.

The reasons are real: a TLS root certificate that is not there (asyncpg's
ClientConfigurationError, an InterfaceError), a listening socket that refuses TLS, and the
suite's own PostgreSQL asked for a standby it is not (``target_session_attrs``: an asyncpg
InternalClientError). Each once printed a traceback from ``store copy``, or from the store's
opening (``ladder rebuild``, ``store forget``, the bot's start).
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.bot.conftest import file_with_games

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], tmp_path: Path, db: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path))  # HOME: no ~/.postgresql/root.crt
    if db is not None:
        env["REFEREE_DB"] = db
    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


@pytest.fixture
def source(tmp_path: Path) -> str:
    path = tmp_path / "referee.db"
    asyncio.run(file_with_games(path))
    return str(path)


@pytest.fixture
def refuses_tls() -> Iterator[int]:
    """A local port that answers PostgreSQL's TLS request with 'N' (no TLS here), as a server
    without ssl=on does; its port."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    done = threading.Event()

    def serve() -> None:
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.recv(64)  # the SSLRequest
                conn.sendall(b"N")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    done.set()
    thread.join()
    server.close()


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 3, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "s3cret" not in done.stderr + done.stdout
    (line,) = done.stderr.splitlines()
    return line


def test_a_missing_tls_root_certificate(source: str, tmp_path: Path) -> None:
    url = "postgresql://u:s3cret@127.0.0.1:1/x?sslmode=verify-full"
    line = one_line(run(["store", "copy", "--from", source, "--to", url], tmp_path))
    assert line.startswith("nothing copied: PostgreSQL: root certificate file "), line


def test_a_server_that_refuses_tls(source: str, tmp_path: Path, refuses_tls: int) -> None:
    url = f"postgresql://u:s3cret@127.0.0.1:{refuses_tls}/x?sslmode=require"
    line = one_line(run(["store", "copy", "--from", source, "--to", url], tmp_path))
    assert line.startswith("nothing copied: PostgreSQL: ") and "SSL" in line, line


UNMET = "the server answers, but is not a standby, as target_session_attrs=standby asks"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["store", "copy", "--from", "{source}", "--to", "{url}"], "nothing copied: PostgreSQL: "),
        (["ladder", "rebuild"], "cannot open the database {shown}: "),
        (["store", "forget", "--guild", "1"], "cannot open the database {shown}: "),
    ],
)
def test_a_primary_asked_for_a_standby(
    argv: list[str], said: str, source: str, postgres_url: str, tmp_path: Path
) -> None:
    """The server is reached and answers: it was "the database cannot be reached" (the store's
    opening), or asyncpg's "... <SessionAttribute.standby: 'standby'>" (store copy)."""
    from bot.store.postgres import redacted

    url = postgres_url + ("&" if "?" in postgres_url else "?") + "target_session_attrs=standby"
    if "@" in url and not urlsplit(url).password:  # the suite's server trusts its socket
        url = re.sub(r"://([^:@/]*)(:[^@]*)?@", r"://\1:s3cret@", url, count=1)
    argv = [a.replace("{source}", source).replace("{url}", url) for a in argv]
    line = one_line(run(argv, tmp_path, db=url))
    assert line.endswith(said.replace("{shown}", redacted(url)) + UNMET), line


def test_the_reason_never_quotes_the_password_as_written_or_decoded() -> None:
    from bot.store.copy import _reason

    url = "postgresql://u:s%40cret@h/x"
    assert _reason(OSError("bad s%40cret or s@cret\nHINT: x"), url) == "bad *** or *** HINT: x"


def test_ladder_rebuild_names_postgresql_without_the_password(
    migrated_postgres_url: str, tmp_path: Path
) -> None:
    """Its report and its "no rated games" line printed the URL as given, password and all."""
    url = migrated_postgres_url
    if "@" in url and not urlsplit(url).password:  # the suite's server trusts its socket
        url = re.sub(r"://([^:@/]*)(:[^@]*)?@", r"://\1:s3cret@", url, count=1)
    for argv, code in ((["--check"], 0), (["--guild", "77"], 0)):
        done = run(["ladder", "rebuild", "--db", url, *argv], tmp_path)
        assert done.returncode == code, (done.stdout, done.stderr)
        assert "s3cret" not in done.stdout + done.stderr and ":***@" in done.stdout, done.stdout
