"""The practice workers (bot/referee/thinker.py) after a worker dies: the search that finds its
pool broken fails, and a later one starts a new worker. Real worker processes, killed by
SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool

import pytest

import engine
from bot.referee.thinker import Thinker

NODES = 40  # a search, and a fast one
MORRIS = engine.get_game("morris")


async def kill_worker(pool: Executor) -> int:
    """Kill the pool's worker process (SIGKILL, as the kernel's OOM killer does) and wait until
    the pool knows: its id."""
    worker = await asyncio.wrap_future(pool.submit(os.getpid))
    os.kill(worker, signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):  # raised by submit, or by the task it queued
        await asyncio.wrap_future(pool.submit(os.getpid))
    return worker


async def test_a_search_after_the_worker_was_killed_runs_in_a_new_one() -> None:
    thinker = Thinker()
    state = MORRIS.new()
    try:
        first = await thinker.turn("morris", state, 3, seed=1, nodes=NODES)
        worker = await kill_worker(thinker._executor())
        with pytest.raises(BrokenProcessPool):  # the search in the dead worker's pool fails
            await thinker.turn("morris", state, 3, seed=1, nodes=NODES)
        again = await thinker.turn("morris", state, 3, seed=1, nodes=NODES)
        assert again == first  # the same search, in a new worker
        assert await asyncio.wrap_future(thinker._executor().submit(os.getpid)) != worker
    finally:
        thinker.close()
