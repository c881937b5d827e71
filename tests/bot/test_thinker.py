"""The practice workers (bot/referee/thinker.py) after a worker dies: the search that finds its
pool broken searches again in a new worker (once), and a new pool another search made
meanwhile is left alone. Real worker processes, killed by SIGKILL."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
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


async def test_a_search_that_finds_its_worker_killed_runs_again_in_a_new_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    thinker = Thinker()
    state = MORRIS.new()
    try:
        first = await thinker.turn("morris", state, 3, seed=1, nodes=NODES)
        worker = await kill_worker(thinker._executor())
        broken = thinker._executor()
        with caplog.at_level(logging.WARNING, logger="bot.referee.thinker"):
            again = await thinker.turn("morris", state, 3, seed=1, nodes=NODES)
        assert again == first  # the same search, at once, in a new worker
        said = [r.getMessage() for r in caplog.records if r.name == "bot.referee.thinker"]
        assert said == ["a practice search's worker died (morris, level 3): searching again"]
        assert thinker._executor() is not broken
        assert await asyncio.wrap_future(thinker._executor().submit(os.getpid)) != worker
    finally:
        thinker.close()


async def test_a_search_that_finds_its_pool_broken_leaves_a_newer_pool_alone() -> None:
    """Two searches find the pool broken; the first's failure closed it and a third search made
    a new pool before the second's failure arrived. The second must not shut that one down:
    the third search would be abandoned, and the next search would start yet another worker."""
    thinker = Thinker()
    state = MORRIS.new()
    try:
        await kill_worker(thinker._executor())
        late = asyncio.ensure_future(thinker.turn("morris", state, 3, seed=1, nodes=NODES))
        await asyncio.sleep(0)  # its first step: it submits to the broken pool, from a thread
        thinker.close()  # the first search's failure closed the broken pool, and ...
        fresh = thinker._executor()  # ... a third search made a new one
        assert (await late)[0] in MORRIS.legal(state)  # searched again, in the new pool
        assert thinker._executor() is fresh
        turn = await thinker.turn("morris", state, 3, seed=1, nodes=NODES)
        assert turn[0] in MORRIS.legal(state) and thinker._executor() is fresh
    finally:
        thinker.close()


class KillsItsWorker:
    """A position that ends the process that unpickles it (a worker), as a search that brings
    its worker down every time would."""

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return os._exit, (9,)


async def test_a_search_that_kills_its_worker_again_fails() -> None:
    """The retry is once: work that kills every worker it runs in is not searched for ever."""
    thinker = Thinker()
    try:
        with pytest.raises(BrokenProcessPool):
            await thinker.turn("morris", KillsItsWorker(), 3, seed=1, nodes=NODES)
        turn = await thinker.turn("morris", MORRIS.new(), 3, seed=1, nodes=NODES)
        assert turn[0] in MORRIS.legal(MORRIS.new())  # and the next search works
    finally:
        thinker.close()


async def test_a_search_given_up_stops_in_its_worker() -> None:
    """A search whose caller left (a sweep closed at shutdown, a cancelled answer) ran on to
    its 1.9 s CPU bound, and the next search in that worker waited behind it: it now stops at
    its next look at the clock. Measured in the worker's own CPU time, not the wall clock."""
    thinker = Thinker()
    abalone = engine.get_game("abalone")
    try:
        pool = thinker._executor()
        base = await asyncio.wrap_future(pool.submit(time.process_time))  # the worker's start
        search = asyncio.create_task(
            thinker.turn("abalone", abalone.new(), 5, seed=1, nodes=10**8)  # to the CPU bound
        )
        await asyncio.sleep(0.4)  # well under way
        search.cancel()
        with pytest.raises(asyncio.CancelledError):
            await search
        used = await asyncio.wrap_future(pool.submit(time.process_time)) - base
        assert used < 1.2, used  # a search left to its bound uses 1.9 s
        again = await thinker.turn("morris", MORRIS.new(), 3, seed=1, nodes=NODES)
        assert again  # the worker serves the next search
    finally:
        thinker.close()


def test_searching_is_the_first_searches_asked_for_as_many_as_there_are_workers() -> None:
    """The pool takes work in the order asked, ``workers`` at a time: a game whose search
    waits behind others' is not being searched yet (Discord shows its move's board at 3 s
    then, and waits longer only for a search under way: bot/discord_ui/turns.py)."""
    one, two = Thinker(1), Thinker(2)
    for thinker in (one, two):
        with thinker.asked(7), thinker.asked(8), thinker.asked(9):
            searched = [g for g in (7, 8, 9) if thinker.searching(g)]
            assert searched == [7, 8, 9][: thinker.workers]
        assert not thinker.searching(7)  # answered: nothing is searched
    first, second = one.asked(7), one.asked(8)
    first.__enter__()
    second.__enter__()
    assert not one.searching(8)  # behind 7's
    first.__exit__(None, None, None)  # 7's answer came: the next in line is searched
    assert one.searching(8)
    second.__exit__(None, None, None)
