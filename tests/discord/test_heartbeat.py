"""The heartbeat Docker's health check reads means "connected to Discord and serving".

The bot is the real ``RefereeBot`` on a real store, its sweeper running; the gateway's part is
played through discord.py's own connection state: ``parse_ready`` (the READY payload, which
dispatches ``connect`` and then ``ready``), ``parse_resumed``, and the ``disconnect`` event that
``Client.connect`` dispatches when the websocket drops.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.__main__ import heartbeat_status
from bot.clock import ManualClock
from bot.discord_ui.app import RefereeBot
from bot.referee import Referee
from bot.store import SqliteStore
from tests.discord.harness import BOT_USER_ID, Harness, user_payload

SWEEP = 0.02  # seconds between the sweeper's rounds in these tests
OLD = 10_000.0  # seconds: an mtime this far back is stale by any measure


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[RefereeBot]:
    store = await SqliteStore.open(str(tmp_path / "beat.db"))
    bot = RefereeBot(
        Referee(store, clock=ManualClock()),
        sweep_seconds=SWEEP,
        heartbeat=tmp_path / "alive",
        guild_ready_timeout=0.01,
    )
    harness = await Harness(bot).start()
    try:
        yield bot
    finally:
        gc.unfreeze()  # READY froze what the process held (freeze_startup): collect as before
        await bot.close()
        await harness.close()
        await store.close()


def ready_payload() -> dict[str, object]:
    return {
        "v": 10,
        "user": user_payload(BOT_USER_ID, "referee", bot=True),
        "guilds": [],
        "session_id": "session",
        "shard": [0, 1],  # the bot is sharded: every READY names its shard
        "resume_gateway_url": "wss://gateway.invalid",
        "application": {"id": "700000000000000001", "flags": 0},
    }


def age(path: Path) -> float:
    return time.time() - path.stat().st_mtime


def make_stale(path: Path) -> None:
    then = time.time() - OLD
    os.utime(path, (then, then))


async def rounds(n: int = 5) -> None:
    await asyncio.sleep(SWEEP * n)


async def test_no_heartbeat_before_the_gateway_is_ready(bot: RefereeBot) -> None:
    assert bot.heartbeat is not None
    assert not bot.beat() and not bot.heartbeat.exists()
    assert heartbeat_status(str(bot.heartbeat)) == 1


async def test_the_heartbeat_goes_stale_after_a_disconnect_and_returns_on_resume(
    bot: RefereeBot,
) -> None:
    beat = bot.heartbeat
    assert beat is not None
    bot._connection.shard_ids = [0]  # as AutoShardedClient.launch_shards does
    bot._connection.parse_ready(ready_payload())  # type: ignore[arg-type]
    await asyncio.wait_for(bot.wait_until_ready(), timeout=5)
    await rounds()
    assert beat.exists() and age(beat) < 1
    assert heartbeat_status(str(beat)) == 0

    bot.dispatch("disconnect")  # as Client.connect does when the websocket drops
    await rounds()
    make_stale(beat)
    await rounds()  # the sweeper goes on, but no longer touches the file
    assert age(beat) > OLD - 5
    assert heartbeat_status(str(beat)) == 1

    bot._connection.parse_resumed({"__shard_id__": 0})  # type: ignore[arg-type]
    await rounds()
    assert age(beat) < 1
    assert heartbeat_status(str(beat)) == 0


async def test_closing_the_bot_removes_the_heartbeat(bot: RefereeBot) -> None:
    beat = bot.heartbeat
    assert beat is not None
    bot._connection.shard_ids = [0]  # as AutoShardedClient.launch_shards does
    bot._connection.parse_ready(ready_payload())  # type: ignore[arg-type]
    await asyncio.wait_for(bot.wait_until_ready(), timeout=5)
    assert beat.exists()
    await bot.close()
    assert not beat.exists() and not bot.serving


async def test_what_the_process_holds_when_ready_is_frozen_out_of_the_collector_once(
    bot: RefereeBot,
) -> None:
    """A full collection then scans only what commands made since (issue 17: its pauses)."""
    assert gc.get_freeze_count() == 0  # the fixture unfreezes after each test
    bot._connection.shard_ids = [0]
    bot._connection.parse_ready(ready_payload())  # type: ignore[arg-type]
    await asyncio.wait_for(bot.wait_until_ready(), timeout=5)
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # discord.py, the commands, the catalogs...
    bot._connection.parse_ready(ready_payload())  # type: ignore[arg-type]  # a new session
    await rounds()
    assert gc.get_freeze_count() <= frozen  # once a process (frozen objects may still be freed)


def test_a_folder_is_no_heartbeat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A directory's time changes with its files, never with the bot: health used to say 0."""
    folder = tmp_path / "beat"
    folder.mkdir()
    assert heartbeat_status(str(folder)) == 1
    assert "is not a file" in capsys.readouterr().err
    beat = tmp_path / "beat.file"
    beat.touch()
    assert heartbeat_status(str(beat)) == 0
