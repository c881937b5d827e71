"""Forget a server: remove everything the store keeps about one guild, in one transaction.

What goes (docs/privacy.md says the same to server admins): the guild's games with their whole
action and event logs (running games too), its challenges, the answers kept for repeated
requests about those games, its ladders (ratings, the rating log, seasons and their archives),
its settings, and the players who appear nowhere else.

What stays, because other servers' records need it: a player who also played, challenged or is
rated elsewhere keeps their one ``players`` row (id and last display name), which those other
games show and verify with. Every game's log is chained on its own, so other guilds' games
verify exactly as before. Records people already downloaded are theirs and verify offline.

The action and event logs are append-only: triggers refuse any DELETE. Forgetting lifts the two
DELETE triggers for the guild's rows only, inside the same transaction, and puts them back as
they were (their SQL read from the schema), so a failure anywhere leaves the file untouched.
"""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

import aiosqlite

from bot.store import Store

APPEND_ONLY = ("actions_are_never_deleted", "events_are_never_deleted")

# (what, the rows of the guild in it); ``:g`` is the guild id, ``games`` the guild's game ids.
_GAMES = "SELECT id FROM games WHERE guild_id = :g"
_PARTS: tuple[tuple[str, str, str], ...] = (
    ("request answers", "request_ids", f"game_id IN ({_GAMES})"),
    ("rating log entries", "rating_changes", f"guild_id = :g OR game_id IN ({_GAMES})"),
    ("ratings", "ratings", "guild_id = :g"),
    ("seasons", "seasons", "guild_id = :g"),
    ("settings", "guild_settings", "guild_id = :g"),
    ("challenges", "challenges", f"guild_id = :g OR game_id IN ({_GAMES})"),
    ("actions", "actions", f"game_id IN ({_GAMES})"),
    ("events", "events", f"game_id IN ({_GAMES})"),
    ("games", "games", "guild_id = :g"),
)
SHOWN = tuple(reversed([what for what, _, _ in _PARTS]))  # games first: the order people read
# The guild's people: anyone in one of its games or challenges.
_PEOPLE = (
    "SELECT player0 FROM games WHERE guild_id = :g UNION SELECT player1 FROM games"
    " WHERE guild_id = :g UNION SELECT challenger_id FROM challenges WHERE guild_id = :g"
    " UNION SELECT opponent_id FROM challenges WHERE guild_id = :g AND opponent_id IS NOT NULL"
)
# Still needed by what remains (run after the guild's rows are gone, or excluding them).
_ELSEWHERE = (
    "SELECT player0 FROM games WHERE guild_id IS NOT :g UNION SELECT player1 FROM games"
    " WHERE guild_id IS NOT :g UNION SELECT challenger_id FROM challenges"
    " WHERE guild_id IS NOT :g UNION SELECT opponent_id FROM challenges"
    " WHERE guild_id IS NOT :g AND opponent_id IS NOT NULL"
    " UNION SELECT player_id FROM ratings WHERE guild_id != :g"
    " UNION SELECT player0 FROM rating_changes WHERE guild_id != :g"
    " UNION SELECT player1 FROM rating_changes WHERE guild_id != :g"
)


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

    def lines(self) -> list[str]:
        verb = "removed" if self.deleted else "would remove"
        shown = sorted(self.counts.items(), key=lambda item: SHOWN.index(item[0]))
        parts = [_count(n, what) for what, n in shown if n]
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
    g = {"g": guild_id}
    verb = "forgetting" if delete else "counting the data of"
    async with store.transaction(f"{verb} guild {guild_id}") as db:
        game_ids = tuple(r[0] for r in await _rows(db, _GAMES + " ORDER BY id", g))
        people = {r[0] for r in await _rows(db, _PEOPLE, g)}
        elsewhere = {r[0] for r in await _rows(db, _ELSEWHERE, g)}
        counts: dict[str, int] = {}
        for what, table, where in _PARTS:
            rows = await _rows(db, f"SELECT COUNT(*) FROM {table} WHERE {where}", g)
            counts[what] = int(rows[0][0])
        gone = sorted(people - elsewhere)
        if delete:
            triggers = await _lift_append_only(db)
            for _, table, where in _PARTS:
                await db.execute(f"DELETE FROM {table} WHERE {where}", g)
            for trigger_sql in triggers:
                await db.execute(trigger_sql)
            await db.executemany("DELETE FROM players WHERE id = ?", [(p,) for p in gone])
    return ForgetReport(
        guild_id=guild_id,
        deleted=delete,
        counts=counts,
        game_ids=game_ids,
        players_removed=len(gone),
        players_kept=len(people & elsewhere),
    )


async def _rows(db: aiosqlite.Connection, sql: str, params: dict[str, Any]) -> list[Any]:
    return list(await db.execute_fetchall(sql, params))


async def _lift_append_only(db: aiosqlite.Connection) -> list[str]:
    """Drop the logs' DELETE triggers (inside the caller's transaction); their SQL, to restore."""
    marks = ", ".join("?" * len(APPEND_ONLY))
    found = await db.execute_fetchall(
        f"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ({marks})",
        APPEND_ONLY,
    )
    saved = []
    for name, sql in found:
        await db.execute(f'DROP TRIGGER "{name}"')
        saved.append(sql)
    return saved


async def _forget(db_path: str, guild_id: int, delete: bool) -> ForgetReport:
    store = await Store.open(db_path)
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
