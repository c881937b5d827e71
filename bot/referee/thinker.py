"""The practice opponent's search in worker processes, so the event loop never waits for it.

``workers`` processes (``ProcessPoolExecutor``; ``PRACTICE_WORKERS``, default 1), made when the
first search needs them and shut down by ``close``: that many practice games are searched at
once, and the rest queue. One keeps a two-core machine's other core for the bot's boards; an
operator with more cores gives the practice games more. Started by forkserver (else spawn),
never by forking a process that runs an event loop and the store's threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import engine.ai
from bot.config import MAX_PRACTICE_WORKERS

log = logging.getLogger(__name__)

THINK_TIMEOUT = 60.0  # seconds to wait for one turn (a search is bounded by 1.9 s of CPU)
CANCELLED_KEPT = 16  # the last searches given up, whose workers stop them at their next look

_given_up: Any = None  # in a worker: the pool's shared array of searches given up


def _start_worker(given_up: Any) -> None:
    """A worker's start: it ends with the bot, and it reads which searches were given up."""
    global _given_up
    _given_up = given_up
    _exit_with_parent()


def _turn(
    task: int,
    game: str,
    state: Any,
    level: int,
    seed: int,
    nodes: int | None,
    seconds: float | None,
) -> Any:
    """``choose_turn`` in a worker, stopped as soon as the bot gives the search up (a sweep
    closed at shutdown, a cancelled answer): it no longer holds the worker to its CPU bound."""

    def stop() -> bool:
        return _given_up is not None and task in _given_up[:]

    return engine.ai.choose_turn(game, state, level, seed, nodes=nodes, seconds=seconds, stop=stop)


def _exit_with_parent() -> None:
    """In a worker: end it when the bot's process ends, however it ends. A worker holds both
    ends of its task queue's pipe, so a bot killed by SIGKILL left it (and its forkserver)
    waiting for tasks for ever; the parent's sentinel closes when the parent dies."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: nothing to watch
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)  # a search in flight has nobody to answer to

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class Thinker:
    """The bot's search, in ``workers`` processes made when first needed and shut down by
    ``close``: a search never holds the event loop, and searches beyond ``workers`` queue."""

    def __init__(self, workers: int = 1) -> None:
        if not 1 <= workers <= MAX_PRACTICE_WORKERS:
            raise ValueError(f"workers must be 1..{MAX_PRACTICE_WORKERS}, not {workers}")
        self.workers = workers
        self._pool: Executor | None = None
        self._given_up: Any = None  # the pool's shared ring of searches given up
        self._tasks = itertools.count(1)
        self._ring = itertools.count()
        self._asked: dict[int, None] = {}  # games whose search is awaited, in the order asked

    def _executor(self) -> Executor:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            method = "forkserver" if "forkserver" in methods else "spawn"  # never fork a loop
            context = multiprocessing.get_context(method)
            self._given_up = context.Array("q", CANCELLED_KEPT)
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_start_worker,
                initargs=(self._given_up,),
            )
        return self._pool

    async def turn(
        self,
        game: str,
        state: Any,
        level: int,
        seed: int,
        nodes: int | None,
        seconds: float | None = None,
    ) -> list[Any]:
        """The bot's turn in ``state``: its action, and the removal a mill owes (engine.ai's
        ``choose_turn``, in the worker; ``nodes`` and ``seconds`` replace the level's budget)."""
        task = next(self._tasks)
        work = functools.partial(_turn, task, game, state, level, seed, nodes, seconds)
        try:
            return await self._run(work)
        except (asyncio.CancelledError, TimeoutError):  # nobody waits for its answer now
            self._give_up(task)
            raise
        except BrokenProcessPool:
            # Its worker died (killed, out of memory): search once more in a new one, so the
            # bot answers now rather than at the sweeper's next look; work that kills its
            # worker again fails.
            log.warning(
                "a practice search's worker died (%s, level %s): searching again", game, level
            )
            return await self._run(work)

    async def _run(self, work: functools.partial[Any]) -> Any:
        """``work`` in a worker; a pool found broken is shut down (the next run makes one)."""
        pool = self._executor()
        try:
            # submitted from a thread: the first submit starts the worker process (about 80 ms,
            # measured by bench/practice_referee.py), which must not stall the loop
            future = await asyncio.to_thread(pool.submit, work)
            return await asyncio.wait_for(asyncio.wrap_future(future), THINK_TIMEOUT)
        except BrokenProcessPool:
            self._discard(pool)
            raise

    @contextlib.contextmanager
    def asked(self, game_id: int) -> Iterator[None]:
        """While a search for ``game_id`` is awaited, so that ``searching`` can tell it."""
        self._asked[game_id] = None
        try:
            yield
        finally:
            self._asked.pop(game_id, None)

    def searching(self, game_id: int) -> bool:
        """Whether a worker is searching ``game_id``'s move now, not queued behind other
        games': the pool takes its work in the order it was asked for, ``workers`` at a time
        (two searches asked in the same instant may reach it in either order). Discord holds a
        move's own board while its answer is being searched (``bot.discord_ui.turns``)."""
        return game_id in itertools.islice(self._asked, self.workers)

    def _give_up(self, task: int) -> None:
        """Tell the workers that search ``task`` is no longer wanted (they look with the clock,
        every 128 nodes); the oldest of ``CANCELLED_KEPT`` given up makes room."""
        if self._given_up is not None:
            self._given_up[next(self._ring) % CANCELLED_KEPT] = task

    def _discard(self, pool: Executor) -> None:
        """Shut ``pool`` down, and forget it if it is still the one searches use: a search that
        finds its pool broken must not shut down a new one another search made meanwhile."""
        pool.shutdown(wait=False, cancel_futures=True)
        if self._pool is pool:
            self._pool = None

    def close(self) -> None:
        """Shut the workers down (a search in flight is abandoned); the next search makes them."""
        if self._pool is not None:
            self._discard(self._pool)
