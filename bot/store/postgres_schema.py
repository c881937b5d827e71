"""The store's schema on PostgreSQL: the one numbered list of ``bot.store.migrations``, each
step's PostgreSQL script, run under an advisory lock. Where PostgreSQL differs on purpose:

- ids come from the database (identity columns), never ``MAX(id)+1``: several processes write;
- Discord ids are BIGINT (snowflakes pass 2**53), times are ``timestamptz`` (the store converts
  the floats its rows carry); an action's ``at`` stays the ISO text its chain hash covers;
- the logs are append-only by triggers that refuse UPDATE, DELETE and TRUNCATE; forgetting a
  server (docs/privacy.md) deletes its rows with ``SET LOCAL referee.forgetting = 'on'`` in its
  own transaction, the one case where a DELETE passes;
- ``migrate`` runs the missing steps in one transaction under an advisory lock, so processes
  starting at once wait for the first and then find nothing left to do.
"""

from __future__ import annotations

from typing import Any

from bot.store.migrations import LATEST, STEPS

MIGRATION_LOCK = 0x5245_4645_5245_4531  # pg_advisory_xact_lock key: "REFEREE1"

PG_MIGRATIONS: tuple[str, ...] = tuple(step.on_postgres for step in STEPS)
PG_LATEST = LATEST


class SchemaNewer(Exception):
    """The database was migrated by a newer version of the bot; this one will not touch it."""


async def schema_version(conn: Any) -> int:
    """The version the database is at (0: empty)."""
    exists = await conn.fetchval("SELECT to_regclass('referee_schema') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT version FROM referee_schema") or 0)


async def migrate(conn: Any, upto: int = PG_LATEST) -> tuple[int, int]:
    """Bring the database to ``upto`` on an asyncpg connection: one transaction, under the
    advisory lock, so concurrent starts serialise. Returns (version before, version after)."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS referee_schema ("
            " one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one), version INTEGER NOT NULL)"
        )
        await conn.execute(
            "INSERT INTO referee_schema (version) VALUES (0) ON CONFLICT (one) DO NOTHING"
        )
        before = int(await conn.fetchval("SELECT version FROM referee_schema"))
        if before > PG_LATEST:
            raise SchemaNewer(
                f"the database is at schema {before}; this bot knows {PG_LATEST}: upgrade the bot"
            )
        for number in range(before + 1, upto + 1):
            await conn.execute(PG_MIGRATIONS[number - 1])
        after = max(before, upto)
        await conn.execute("UPDATE referee_schema SET version = $1", after)
    return before, after
