"""A bot that cannot serve says why in one line and exits non-zero at once, having closed what
it opened: a restart policy (Docker's) restarts a process that exits, never one that hangs.

The metrics port is held by a real listening socket and ``python -m bot`` runs as a process of
its own; Discord is "unreachable" by pointing discord.py's REST base at a local port nothing
listens on, so the real aiohttp connection is refused.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from discord.http import Route

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTAx.fake-token.for-start-tests"


def discord_at(monkeypatch: pytest.MonkeyPatch, port: int, db: str) -> None:
    """The bot's settings for a start against a Discord at ``port`` of this host (closed or
    mute), with the database ``db``, JSON logs, and no metrics or heartbeat."""
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("REFEREE_DB", db)
    monkeypatch.setenv("LOG_FORMAT", "json")
    monkeypatch.delenv("METRICS_PORT", raising=False)
    monkeypatch.delenv("REFEREE_HEARTBEAT", raising=False)


@pytest.fixture
def held_port() -> Iterator[int]:
    """A port some other process listens on."""
    with socket.socket() as held:
        held.bind(("0.0.0.0", 0))
        held.listen()
        yield held.getsockname()[1]


@pytest.fixture
def closed_port() -> int:
    """A local port nothing listens on: a connection there is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_bot(tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` with a token, a fresh database and ``settings``, as a process."""
    env = {k: v for k, v in os.environ.items() if k not in ("LOG_FORMAT", "REFEREE_HEARTBEAT")}
    env.update(
        DISCORD_TOKEN=TOKEN, REFEREE_DB=str(tmp_path / "m.db"), PYTHONPATH=str(ROOT), **settings
    )
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=30,
    )


def test_a_metrics_port_in_use_is_one_line_and_a_prompt_exit(
    held_port: int, tmp_path: Path
) -> None:
    done = run_bot(tmp_path, METRICS_PORT=str(held_port))  # once a traceback, then waited forever
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    (line,) = [x for x in done.stderr.splitlines() if "CRITICAL" in x]
    assert f"METRICS_PORT={held_port} cannot be opened" in line and "free one" in line
    assert "stopped" in done.stderr  # the store and the referee were closed on the way out


def test_a_metrics_host_not_of_this_host_is_one_line_and_exit_1(
    closed_port: int, tmp_path: Path
) -> None:
    """An address that reads well (so no configuration error) but is no interface here: the
    listen fails, and the line names METRICS_HOST rather than blaming the port."""
    done = run_bot(tmp_path, METRICS_PORT=str(closed_port), METRICS_HOST="192.0.2.1")  # TEST-NET-1
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    (line,) = [x for x in done.stderr.splitlines() if "CRITICAL" in x]
    assert "METRICS_HOST=192.0.2.1 cannot be listened on" in line, line
    assert "METRICS_PORT" not in line
    assert "stopped" in done.stderr


@pytest.mark.usefixtures("root_logging")
@pytest.mark.parametrize("command", [[], ["sync", "123456789"]])
def test_discord_unreachable_is_one_json_line_and_exit_1(
    command: list[str],
    closed_port: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    discord_at(monkeypatch, closed_port, str(tmp_path / "n.db"))
    assert main(command) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and TOKEN not in out + err
    lines = [json.loads(line) for line in err.splitlines()]  # every line is JSON
    (failed,) = [line for line in lines if line["level"] == "CRITICAL"]
    assert "cannot reach Discord" in failed["message"]
    assert f"127.0.0.1:{closed_port}" in failed["message"]


@pytest.mark.usefixtures("root_logging")
def test_the_start_logs_no_warning_about_voice(
    closed_port: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """discord.py warns once a process that PyNaCl and davey are missing; the referee never
    joins a voice channel, so an operator's log began with two warnings about nothing."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as in a fresh process
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    discord_at(monkeypatch, closed_port, str(tmp_path / "v.db"))
    assert main([]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [x["message"] for x in lines if x["level"] == "WARNING"] == []


@pytest.mark.usefixtures("root_logging")
def test_the_start_names_the_database_it_opened(
    closed_port: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A mistyped REFEREE_DB makes a new, empty database where it points (only the bot makes
    one): the log says which file, in full, so an operator sees why the games are gone."""
    monkeypatch.chdir(tmp_path)
    discord_at(monkeypatch, closed_port, "sqlite:///typo/referee.db")
    assert main([]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    full = str(tmp_path / "typo" / "referee.db")
    (said,) = [x for x in lines if x["message"].startswith("database: ")]
    assert said["message"] == f"database: {full}" and said["database"] == full


@pytest.mark.usefixtures("root_logging")
def test_sigterm_during_login_stops_cleanly_with_exit_0(
    held_port: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``docker stop`` while Discord has not answered the login yet (a port that takes the
    connection and never replies): the gateway task fails on the closed connector, and that
    error, never read, came out as asyncio's "Task exception was never retrieved" traceback."""
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{held_port}/api/v10")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "t.db"))
    monkeypatch.delenv("METRICS_PORT", raising=False)
    monkeypatch.delenv("REFEREE_HEARTBEAT", raising=False)
    monkeypatch.delenv("LOG_FORMAT", raising=False)
    timer = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGTERM))
    timer.start()
    try:
        assert main([]) == 0
    finally:
        timer.cancel()
    gc.collect()  # an unread task exception is logged when the task is collected
    err = capsys.readouterr().err
    assert "signal received: shutting down" in err and "stopped" in err
    assert "never retrieved" not in err and "Traceback" not in err, err
