"""Forgetting a guild in PostgreSQL: the statements behind ``Transaction.forget_guild``.

The logs' triggers refuse every DELETE unless the transaction has set
``referee.forgetting = 'on'`` (``bot.store.postgres_schema``); it is set here, with ``SET LOCAL``,
only around the guild's own deletes, inside the caller's transaction, and off again after. What
is counted and removed is the SQLite store's list (``bot.store.sqlite_forget``), in this dialect.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from bot.store.protocol import ForgetCounts
from bot.store.sqlite_forget import _ELSEWHERE, _GAMES, _PARTS, _PEOPLE


def _pg(sql: str) -> str:
    return sql.replace("IS NOT :g", "IS DISTINCT FROM $1").replace(":g", "$1")


async def forget_guild(conn: asyncpg.Connection, guild_id: int, *, delete: bool) -> ForgetCounts:
    """Count, and with ``delete`` remove, the guild's rows (inside the caller's transaction)."""
    game_ids = tuple(r[0] for r in await conn.fetch(_pg(_GAMES + " ORDER BY id"), guild_id))
    people = {r[0] for r in await conn.fetch(_pg(_PEOPLE), guild_id)}
    elsewhere = {r[0] for r in await conn.fetch(_pg(_ELSEWHERE), guild_id)}
    counts: dict[str, int] = {}
    for what, table, where in _PARTS:
        counts[what] = int(
            await conn.fetchval(_pg(f"SELECT COUNT(*) FROM {table} WHERE {where}"), guild_id)
        )
    gone: list[Any] = sorted(people - elsewhere)
    if delete:
        await conn.execute("SET LOCAL referee.forgetting = 'on'")
        for _, table, where in _PARTS:
            await conn.execute(_pg(f"DELETE FROM {table} WHERE {where}"), guild_id)
        await conn.execute("SET LOCAL referee.forgetting = 'off'")
        await conn.execute("DELETE FROM players WHERE id = ANY($1::bigint[])", gone)
    return ForgetCounts(counts, game_ids, len(gone), len(people & elsewhere))
