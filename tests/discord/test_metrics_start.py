"""What ``serve`` exposes before the bot has swept once, and on which address.

``serve`` runs as it does in production, on a real SQLite file that already holds running games;
Discord's login is sent to a local socket that takes the connection and never answers (as a
slow Discord would), so the bot stays short of READY, where the sweeper starts. The metrics are
scraped over HTTP. Closing that socket ends the login: ``serve`` stops with CannotStart, having
closed what it opened.

The address: 127.0.0.2 is this machine too on Linux (all of 127/8 is loopback) but not the
address bound, so it stands for "another interface of this host".
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from discord.http import Route

from bot.clock import ManualClock
from bot.config import Config
from bot.discord_ui.app import CannotStart, serve
from bot.metrics import Metrics
from bot.referee import Referee
from bot.referee.replies import Where
from bot.shards import Shards, shard_of
from bot.store import SqliteStore
from tests.bot.conftest import ALICE, BOB
from tests.discord.test_metrics import scrape

TOKEN = "MTAx.fake-token.for-start-tests"
ON_SHARD_0 = 1  # guild ids Discord sends to shard 0 and 1 of 2
ON_SHARD_1 = 1 << 22


@pytest.fixture
def silent_discord(monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """Discord's REST base on a port that listens and never answers; close it to end the login."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{held.getsockname()[1]}/api/v10")
        monkeypatch.delenv("REFEREE_HEARTBEAT", raising=False)
        yield held


async def running_games(path: Path, guilds: list[int]) -> None:
    """One running game (challenged, accepted, a move made) in each of ``guilds``."""
    store = await SqliteStore.open(str(path))
    referee = Referee(store, ManualClock(), render=False)
    for n, guild in enumerate(guilds):
        where = Where(guild, 100 + n)
        await referee.challenge(where, ALICE, "morris", opponent=BOB, starter="me")
        await referee.accept(where, BOB)
        await referee.act(where, ALICE, "place d7")
    await store.close()


async def listening(
    caplog: pytest.LogCaptureFixture, serving: asyncio.Task[None]
) -> tuple[str, int]:
    """The (host, port) ``serve`` says it serves metrics on, once it does."""
    for _ in range(500):
        for record in caplog.records:
            if hasattr(record, "metrics_port"):  # the start line's extra= fields
                return str(record.__dict__["metrics_host"]), int(record.__dict__["metrics_port"])
        assert not serving.done(), serving.exception()
        await asyncio.sleep(0.01)
    raise AssertionError("serve never said where its metrics are")


async def stop(serving: asyncio.Task[None], discord: socket.socket) -> None:
    """Discord "goes away": the login fails and ``serve`` ends as it does then."""
    discord.close()
    with pytest.raises(CannotStart, match="cannot reach Discord"):
        await asyncio.wait_for(serving, 30)


def answers(host: str, port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=5) as response:
            return bool(response.status == 200)
    except urllib.error.URLError as exc:
        assert isinstance(exc.reason, ConnectionRefusedError), exc
        return False


@pytest.mark.parametrize(
    ("shards", "counted"),
    [(Shards(), 3), (Shards(2, (0,)), 2), (Shards(2, (1,)), 1)],
)
async def test_the_running_games_are_counted_before_any_sweep(
    shards: Shards,
    counted: int,
    tmp_path: Path,
    silent_discord: socket.socket,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A scrape right after a restart read 0 until the first sweep (which waits for READY)."""
    assert (shard_of(ON_SHARD_0, 2), shard_of(ON_SHARD_1, 2)) == (0, 1)
    db = tmp_path / "running.db"
    await running_games(db, [ON_SHARD_0, ON_SHARD_0, ON_SHARD_1])
    metrics = Metrics()
    config = Config(token=TOKEN, db_path=str(db), shards=shards, metrics_port=0)
    caplog.set_level(logging.INFO, "bot.discord")
    serving = asyncio.create_task(serve(config, metrics))
    _, port = await listening(caplog, serving)
    samples = await scrape(port)
    assert samples[("referee_active_games", ())] == counted
    assert not serving.done()  # still logging in: no READY, so no sweep ran
    await stop(serving, silent_discord)


async def test_metrics_listen_on_loopback_only_unless_told(
    tmp_path: Path, silent_discord: socket.socket, caplog: pytest.LogCaptureFixture
) -> None:
    config = Config.from_env({"DISCORD_TOKEN": TOKEN, "REFEREE_DB": str(tmp_path / "a.db")})
    assert config.metrics_host == "127.0.0.1"
    caplog.set_level(logging.INFO, "bot.discord")
    serving = asyncio.create_task(serve(dataclasses.replace(config, metrics_port=0), Metrics()))
    host, port = await listening(caplog, serving)
    assert host == "127.0.0.1"
    assert answers("127.0.0.1", port)
    assert not answers("127.0.0.2", port)  # another address of this host: refused
    await stop(serving, silent_discord)


async def test_metrics_host_is_honoured(
    tmp_path: Path,
    silent_discord: socket.socket,
    caplog: pytest.LogCaptureFixture,
) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "REFEREE_DB": str(tmp_path / "b.db"), "METRICS_HOST": "0.0.0.0"}
    config = Config.from_env(env)
    assert config.metrics_host == "0.0.0.0"
    caplog.set_level(logging.INFO, "bot.discord")
    serving = asyncio.create_task(serve(dataclasses.replace(config, metrics_port=0), Metrics()))
    host, port = await listening(caplog, serving)
    assert host == "0.0.0.0"
    assert answers("127.0.0.1", port) and answers("127.0.0.2", port)  # every interface
    await stop(serving, silent_discord)
