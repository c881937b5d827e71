"""The event loop the bot's processes run on: uvloop unless ``EVENT_LOOP=asyncio``.

Every command crosses the loop a few dozen times (discord.py's dispatch, a task per
interaction, each statement a round trip to aiosqlite's thread woken through the loop), and
uvloop does that bookkeeping in C: a round trip to aiosqlite's thread costs ~15 us of CPU on
it against ~23 us on asyncio's own loop (3,000 ``SELECT 1`` through aiosqlite, CPU of both
threads, eight alternating runs on the 2-core machine), and ``python -m bench discord`` says
which loop its figures are from. asyncio's loop stays one setting away (``EVENT_LOOP=asyncio``,
and the default where uvloop has no wheels: Windows), to rule the loop out when chasing a
problem; the test suite runs on uvloop, and the tests marked ``both_loops`` on both.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

LOOPS = ("uvloop", "asyncio")
DEFAULT = "asyncio" if sys.platform == "win32" else "uvloop"  # pyproject.toml: no uvloop there


def factory(name: str = DEFAULT) -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes a new loop of kind ``name`` (one of ``LOOPS``)."""
    if name == "uvloop":
        import uvloop

        return uvloop.new_event_loop
    if name == "asyncio":
        return asyncio.new_event_loop
    raise ValueError(f"an event loop is one of {', '.join(LOOPS)}, not {name!r}")


def run(main: Coroutine[Any, Any, T], name: str = DEFAULT) -> T:
    """``asyncio.run(main)`` on a loop of kind ``name``."""
    with runner(name) as on_loop:
        return on_loop.run(main)


def runner(name: str = DEFAULT) -> asyncio.Runner:
    """An ``asyncio.Runner`` on a loop of kind ``name`` (several ``run`` calls on one loop)."""
    return asyncio.Runner(loop_factory=factory(name))


def kind(loop: asyncio.AbstractEventLoop) -> str:
    """Which of ``LOOPS`` ``loop`` is, for a log line or a benchmark's header."""
    return "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"
