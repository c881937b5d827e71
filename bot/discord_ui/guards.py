"""Guards at the Discord boundary: an interaction delivered twice is handled once, and the
expensive commands have per-user cooldowns so one person cannot slow the bot for everyone.

Both keep their state on the bot (``bot.deliveries``, ``bot.cooldowns``), so a fresh bot starts
fresh; set either to None to switch it off (a benchmark, a fuzzer). Time is the interaction's
own ``created_at``, as discord.py's cooldowns use it.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

log = logging.getLogger("bot.discord")

T = TypeVar("T")

# (uses, per seconds) for each user: the commands that read a whole game, draw a board or
# frames, or scan the ladder, and opening a thread for a challenge. Moves are not limited: the
# referee answers them in milliseconds (and their board is drawn once per move).
COOLDOWNS: Mapping[str, tuple[int, float]] = {
    "board": (5, 15.0),
    "thread": (3, 300.0),  # threads a user's challenges open (bot.discord_ui.cogs.play)
    "replay": (4, 60.0),
    "record": (5, 30.0),
    "verify": (5, 30.0),
    "history": (8, 30.0),
    # an organiser reads a few players' stats and the ladder in a row: a burst of 10, at the
    # same long-run rate as 5 in 30 s (one a player reviewer hit after four looks)
    "stats": (10, 60.0),
    "ladder": (10, 60.0),
    "import": (3, 60.0),
    # each dispute pings the moderators' role and opens a private thread: a player in several
    # games may call them to a few, nobody to ten at once (one player may play ten games);
    # only disputes opened count (bot.discord_ui.cogs.disputes)
    "dispute": (3, 600.0),
}
REMEMBERED = 4096  # interaction ids kept; Discord redelivers within seconds, not thousands later


class Deliveries:
    """The ids of recent interactions: ``first(id)`` is True once per id."""

    def __init__(self, size: int = REMEMBERED) -> None:
        self.size = size
        self._seen: OrderedDict[int, None] = OrderedDict()

    def first(self, interaction_id: int) -> bool:
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = None
        if len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return True


def first_delivery(interaction: discord.Interaction[Any]) -> bool:
    """False (and a log line) for an interaction this bot has already taken."""
    deliveries: Deliveries | None = getattr(interaction.client, "deliveries", None)
    if deliveries is None or deliveries.first(interaction.id):
        return True
    log.warning(
        "duplicate interaction %s ignored (user %s, channel %s)",
        interaction.id,
        interaction.user.id,
        interaction.channel_id,
    )
    return False


class Cooldowns:
    """Per-user, per-command buckets (discord.py's ``app_commands.Cooldown``)."""

    def __init__(self, table: Mapping[str, tuple[int, float]] = COOLDOWNS) -> None:
        self.table = dict(table)
        self._buckets: dict[tuple[str, int], app_commands.Cooldown] = {}

    def check(self, name: str, user_id: int, now: float) -> None:
        """Count one use of ``name`` by ``user_id``; CommandOnCooldown when over the limit."""
        if name not in self.table:
            return
        self._forget_idle(now)
        bucket = self._buckets.get((name, user_id))
        if bucket is None:
            bucket = self._buckets[(name, user_id)] = app_commands.Cooldown(*self.table[name])
        retry_after = bucket.update_rate_limit(now)
        if retry_after is not None:
            raise app_commands.CommandOnCooldown(bucket, retry_after)

    def wait(self, name: str, user_id: int, now: float) -> float:
        """Seconds until ``user_id`` may use ``name`` again (0.0: now), counting nothing: for a
        command that counts a use only when it did something (``check`` after it)."""
        bucket = self._buckets.get((name, user_id))
        return 0.0 if bucket is None else bucket.get_retry_after(now)

    def _forget_idle(self, now: float) -> None:
        idle = [k for k, b in self._buckets.items() if now > b._last + b.per]
        for key in idle:
            del self._buckets[key]


def expensive(name: str) -> Callable[[T], T]:
    """A check for an expensive command: at most ``COOLDOWNS[name]`` uses per user."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        book: Cooldowns | None = getattr(interaction.client, "cooldowns", None)
        if book is not None:
            book.check(name, interaction.user.id, interaction.created_at.timestamp())
        return True

    return app_commands.check(predicate)
