"""Forget a server: remove everything the store keeps about one guild, in one transaction.

What goes (docs/privacy.md says the same to server admins): the guild's games with their whole
action and event logs (running games too) and the dispute threads noted as theirs, its
challenges, the answers kept for repeated requests about those games, its ladders (ratings, the
rating log, seasons and their archives), its settings, and the players who appear nowhere else.

What stays, because other servers' records need it: a player who also played, challenged or is
rated elsewhere keeps their one ``players`` row (id and last display name), which those other
games show and verify with. Every game's log is chained on its own, so other guilds' games
verify exactly as before. Records people already downloaded are theirs and verify offline.

The store does the removing in one transaction (``Transaction.forget_guild``); the action and
event logs stay append-only for every other guild.
"""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.i18n import Msg, msg
from bot.store import Access, Store, open_store

SHOWN = (
    "games",
    "events",
    "actions",
    "challenges",
    "settings",
    "seasons",
    "ratings",
    "rating log entries",
    "request answers",
    "dispute rooms",
)  # games first: the order people read


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """What was (or, without ``deleted``, would be) removed, and what was kept and why."""

    guild_id: int
    deleted: bool
    counts: dict[str, int] = field(default_factory=dict)
    game_ids: tuple[int, ...] = ()
    players_removed: int = 0
    players_kept: int = 0  # they also play on other servers

    @property
    def empty(self) -> bool:
        return not any(self.counts.values()) and not self.players_removed

    def _shown(self) -> list[tuple[str, int]]:
        """The kinds of row that had any, in the order people read (``SHOWN``)."""
        return sorted(
            ((what, n) for what, n in self.counts.items() if n), key=lambda i: SHOWN.index(i[0])
        )

    def said(self) -> list[Msg]:
        """What was removed and what was kept, as sentences a moderator reads in their
        language (``lines`` is the operator's English report)."""
        counts = [
            msg("forget.count", what=msg(f"forget.kind.{what.replace(' ', '_')}"), n=n)
            for what, n in [*self._shown(), ("players", self.players_removed)]
        ]
        lines = [msg("forget.removed", counts=counts)]
        if self.players_kept:
            lines.append(msg("forget.kept", n=self.players_kept))
        return lines

    def lines(self) -> list[str]:
        verb = "removed" if self.deleted else "would remove"
        parts = [_count(n, what) for what, n in self._shown()]
        parts.append(_count(self.players_removed, "players"))
        lines = [f"server {self.guild_id}: {verb} " + ", ".join(parts)]
        if self.players_kept:
            lines.append(
                f"kept the name and id of {self.players_kept} player(s) who also play on other "
                "servers: those servers' games show and verify with them"
            )
        return lines


SINGULAR = {"rating log entries": "rating log entry", "settings": "settings"}


def _count(n: int, what: str) -> str:
    """``2 games``, ``1 game``."""
    return f"{n} {what if n != 1 else SINGULAR.get(what, what.removesuffix('s'))}"


async def forget_guild(store: Store, guild_id: int, *, delete: bool = True) -> ForgetReport:
    """Remove the guild's data (see the module's docstring) in one transaction; with
    ``delete=False`` only count what would go."""
    verb = "forgetting" if delete else "counting the data of"
    async with store.transaction(f"{verb} guild {guild_id}") as tx:
        found = await tx.forget_guild(guild_id, delete=delete)
    return ForgetReport(
        guild_id=guild_id,
        deleted=delete,
        counts=found.counts,
        game_ids=found.game_ids,
        players_removed=found.removed,
        players_kept=found.kept,
    )


async def _forget(db_path: str, guild_id: int, delete: bool) -> ForgetReport:
    # counting only reads: it never creates, migrates or switches the file (nor does deleting
    # create one: a mistyped REFEREE_DB is refused, not reported as a server with no data)
    store = await open_store(db_path, Access.EXISTING if delete else Access.READ)
    try:
        return await forget_guild(store, guild_id, delete=delete)
    finally:
        await store.close()


def cli(config: Any, guild_id: int, *, delete: bool, out: TextIO | None = None) -> int:
    """``python -m bot store forget --guild ID [--yes]``: without --yes, only say what would go."""
    out = out or sys.stdout
    started = time.perf_counter()
    report = asyncio.run(_forget(str(config.db_path), guild_id, delete))
    for line in report.lines():
        print(line, file=out)
    if report.empty:
        print(f"nothing of server {guild_id} is stored in {config.db_path}", file=out)
    elif not delete:
        print("nothing changed: run again with --yes to delete", file=out)
    else:
        print(f"done in {time.perf_counter() - started:.2f} s (one transaction)", file=out)
    return 0
