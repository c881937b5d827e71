"""Forgetting a guild in SQLite: the statements behind ``Transaction.forget_guild``.

The action and event logs are append-only: triggers refuse any DELETE. Forgetting lifts the two
DELETE triggers for the guild's rows only, inside the caller's transaction, and puts them back as
they were (their SQL read from the schema), so a failure anywhere leaves the file untouched.
``bot.forget`` says what goes and what stays, and why.
"""

from __future__ import annotations

from typing import Any

from bot.store.protocol import ForgetCounts
from bot.store.sqlite_begin import Conn

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
    ("dispute rooms", "dispute_rooms", f"game_id IN ({_GAMES})"),
    ("games", "games", "guild_id = :g"),
)
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


async def forget_guild(db: Conn, guild_id: int, *, delete: bool) -> ForgetCounts:
    """Count, and with ``delete`` remove, the guild's rows (inside the caller's transaction)."""
    g = {"g": guild_id}
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
    return ForgetCounts(counts, game_ids, len(gone), len(people & elsewhere))


async def _rows(db: Conn, sql: str, params: dict[str, Any]) -> list[Any]:
    return list(await db.execute_fetchall(sql, params))


async def _lift_append_only(db: Conn) -> list[str]:
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
