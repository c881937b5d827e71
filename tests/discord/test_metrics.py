"""The metrics a bot process serves to Prometheus, scraped over HTTP as Prometheus would.

The bot is the real ``RefereeBot`` on a real store, driven by the harness; its metrics live on a
registry of their own, served on a free port of 127.0.0.1, and every assertion reads the text
the endpoint returns.
"""

from __future__ import annotations

import asyncio
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.clock import ManualClock
from bot.discord_ui.app import RefereeBot
from bot.metrics import Metrics
from bot.referee import Referee
from bot.store import SqliteStore
from bot.texts import CANT_SAVE
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness
from tests.discord.play import start_game


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Harness, int]]:
    store = await SqliteStore.open(str(tmp_path / "metrics.db"))
    metrics = Metrics()
    bot = RefereeBot(Referee(store, clock=ManualClock()), sweep_seconds=None, metrics=metrics)
    harness = await Harness(bot).start()
    _, port = metrics.serve(0)
    try:
        yield harness, port
    finally:
        await harness.close()
        await store.close()


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample on the endpoint: (name, sorted labels) -> value."""

    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            assert response.status == 200
            return response.read().decode()

    text = await asyncio.to_thread(get)
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def count(samples: dict, command: str, outcome: str) -> float:
    key = ("referee_interactions_total", (("command", command), ("outcome", outcome)))
    return samples.get(key, 0.0)


async def test_commands_are_counted_by_command_and_outcome(served: tuple[Harness, int]) -> None:
    harness, port = served
    before = await scrape(port)
    assert count(before, "challenge", "ok") == 0
    await start_game(harness, ALICE, BOB, "atmalof")  # /challenge, then Accept (a button)
    refused = await harness.slash(BOB, "drop row", k=3)  # out of turn
    assert refused.all_ephemeral
    await harness.slash(ALICE, "board")
    samples = await scrape(port)
    assert count(samples, "challenge", "ok") == 1
    assert count(samples, "button", "ok") == 1
    assert count(samples, "drop row", "refused") == 1
    assert count(samples, "board", "ok") == 1
    assert count(samples, "drop row", "ok") == 0


async def test_every_first_answer_is_timed_once(served: tuple[Harness, int]) -> None:
    harness, port = served
    posted = await start_game(harness, ALICE, BOB, "atmalof")
    assert posted.calls
    drop = await harness.slash(ALICE, "drop row", k=3)  # an answer, then the roll as a followup
    assert len(drop.messages) >= 2
    samples = await scrape(port)
    commands = samples[("referee_first_response_seconds_count", (("kind", "command"),))]
    buttons = samples[("referee_first_response_seconds_count", (("kind", "button"),))]
    assert (commands, buttons) == (2, 1)  # /challenge and /drop row; Accept: one per interaction
    total = samples[("referee_first_response_seconds_sum", (("kind", "command"),))]
    assert 0 < total < 3 * commands  # each within Discord's three seconds, here
    bucket = ("referee_first_response_seconds_bucket", (("kind", "command"), ("le", "3.0")))
    within = samples[bucket]
    assert within == commands


async def test_a_store_fault_is_counted_as_cant_save(served: tuple[Harness, int]) -> None:
    harness, port = served
    await start_game(harness, ALICE, BOB, "atmalof")
    store = harness.bot.referee.store
    await store.db.execute("PRAGMA query_only = ON")  # SQLite refuses writes: a read-only file
    answer = await harness.slash(ALICE, "resign")
    assert answer.text == CANT_SAVE
    samples = await scrape(port)
    assert count(samples, "resign", "cant_save") == 1
    assert samples[("referee_store_faults_total", (("where", "command"),))] == 1


async def test_the_sweeper_refreshes_the_active_games_gauge(served: tuple[Harness, int]) -> None:
    harness, port = served
    await harness.bot.post_notices()
    assert (await scrape(port))[("referee_active_games", ())] == 0
    await start_game(harness, ALICE, BOB, "atmalof")
    assert (await scrape(port))[("referee_active_games", ())] == 0  # until the next round
    await harness.bot.post_notices()
    assert (await scrape(port))[("referee_active_games", ())] == 1
    await harness.slash(ALICE, "resign")
    await harness.bot.post_notices()
    assert (await scrape(port))[("referee_active_games", ())] == 0


async def test_the_gateway_state_of_each_shard(served: tuple[Harness, int]) -> None:
    harness, port = served
    bot = harness.bot
    bot.dispatch("shard_connect", 0)  # as AutoShardedConnectionState does on READY
    bot.dispatch("shard_connect", 1)
    bot.dispatch("shard_disconnect", 1)  # as the shard does when its websocket drops
    await asyncio.sleep(0.05)  # the listeners run as tasks
    samples = await scrape(port)
    assert samples[("referee_gateway_connected", (("shard", "0"),))] == 1
    assert samples[("referee_gateway_connected", (("shard", "1"),))] == 0
    bot.dispatch("shard_resumed", 1)
    await asyncio.sleep(0.05)
    assert (await scrape(port))[("referee_gateway_connected", (("shard", "1"),))] == 1
