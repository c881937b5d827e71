"""When the first answer to the request being handled is due (Discord waits three seconds).

The Discord layer starts the clock as an interaction comes in, with a way to tell whether it
has been answered (a response or a defer: after that a followup may take its time); until then
the store waits for its connection, and for SQLite's busy handler, no longer than what is left
(``Store``'s lock), so a command held up by another writer is told "can't save" in time instead
of not at all. Requests without a deadline (the console, the sweeper, tests that call the
referee) wait as before. A context variable: each interaction's task has its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar

ANSWER_WITHIN = 2.2  # seconds for the store; the rest of Discord's 3 s draws and sends the answer

_due: ContextVar[tuple[float, Callable[[], bool]] | None] = ContextVar("answer_due", default=None)


def _never() -> bool:
    return False


def start(within: float = ANSWER_WITHIN, answered: Callable[[], bool] = _never) -> None:
    """A request arrived now: its first answer is due ``within`` seconds from now, unless
    ``answered()`` says it has been given (then there is no deadline any more)."""
    _due.set((time.monotonic() + within, answered))


def left() -> float | None:
    """Seconds until the answer is due (negative when late), None without a deadline."""
    due = _due.get()
    if due is None or due[1]():
        return None
    return due[0] - time.monotonic()
