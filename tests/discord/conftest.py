"""Fixtures: a real bot on a real SQLite file, driven offline through ``harness.Harness``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.discord_ui.app import RefereeBot
from bot.referee import Referee
from bot.store import BUSY_TIMEOUT_MS, SqliteStore, Store
from tests.discord.harness import Harness, Person

ALICE = Person(900_000_000_000_000_001, "alice")
BOB = Person(900_000_000_000_000_002, "bob")
CAROL = Person(900_000_000_000_000_003, "carol")
MODERATOR = Person(900_000_000_000_000_004, "mo", permissions=(1 << 13) | (1 << 11) | (1 << 15))


async def start_bot(
    db: Path,
    clock: ManualClock,
    *,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    practice_nodes: int | None = None,
) -> tuple[Harness, Store]:
    """A bot as ``python -m bot`` makes it, on the given file, with a hand-moved clock
    (``practice_nodes``: the practice opponent's node budget, lowered by its tests)."""
    store = await SqliteStore.open(str(db), busy_timeout_ms=busy_timeout_ms)
    referee = Referee(store, clock=clock, practice_nodes=practice_nodes)
    bot = RefereeBot(referee, sweep_seconds=None)
    # a practice move's own board waits this long for the bot's answer: in tests, long enough
    # that a loaded machine never shows it early (the test of a late answer shortens it)
    bot.board_after = 120.0
    return await Harness(bot).start(), store


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "referee.db"


@pytest.fixture
async def harness(db_path: Path, clock: ManualClock) -> AsyncIterator[Harness]:
    async for h in running(db_path, clock):
        yield h


async def running(db: Path, clock: ManualClock, **options: Any) -> AsyncIterator[Harness]:
    """A started bot (``start_bot``'s options) for a fixture to yield; closed after, and no
    request left unanswered by the recorded HTTP."""
    h, store = await start_bot(db, clock, **options)
    try:
        yield h
    finally:
        await h.close()
        await store.close()
    assert not h.stray, f"stray requests: {[(c.method, c.path) for c in h.stray]}"
