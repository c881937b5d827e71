"""Stopping without cutting commands off: on SIGTERM the bot takes no new interaction, lets
those being handled finish (for up to ``GRACE_SECONDS``), and only then closes the gateway and
the store. Without it every command still waiting on the store died with "the store is closed",
each logged as an error, though nothing was wrong but the timing.

Every interaction's handler runs in its own task (discord.py starts one per interaction); the
checks at its start (``RefereeTree.interaction_check``, ``RefereeButton.interaction_check``)
call ``admitted``, which registers that task, so ``Drain.stop`` knows what is in flight.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.i18n import msg

log = logging.getLogger("bot.discord")

GRACE_SECONDS = 10.0
RESTARTING = msg("discord.restarting")


class Drain:
    """The interactions being handled, and whether new ones are still taken."""

    def __init__(self) -> None:
        self.stopping = False
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def in_flight(self) -> int:
        return sum(not t.done() for t in self._tasks)

    def admit(self) -> bool:
        """Called in the interaction's own task as its handling starts: False once stopping."""
        if self.stopping:
            return False
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return True

    async def stop(self, grace: float = GRACE_SECONDS) -> int:
        """Take no new interaction; wait up to ``grace`` seconds for those in flight, then
        cancel what is left. Returns how many had to be cancelled (logged once)."""
        self.stopping = True
        current = asyncio.current_task()
        pending = {t for t in self._tasks if not t.done() and t is not current}
        if pending:
            log.info("stopping: waiting for %d interaction(s) in flight", len(pending))
            _, pending = await asyncio.wait(pending, timeout=grace)
        if pending:
            log.warning(
                "stopping: %d interaction(s) still running after %.1f s were cancelled",
                len(pending),
                grace,
            )
            for task in pending:
                task.cancel()
            await asyncio.wait(pending, timeout=1.0)
        return len(pending)


def admitted(interaction: Any) -> bool:
    """True when the bot still takes interactions (a client without a Drain always does)."""
    drain: Drain | None = getattr(interaction.client, "drain", None)
    return drain is None or drain.admit()
