"""Where games live: the ``Store`` protocol with its units of work (``protocol``), the SQLite
implementation (``sqlite``: every line of SQLite-specific code), the PostgreSQL one
(``postgres``, its schema in ``postgres_schema``), SQLite's schema migrations (``migrations``),
owner-only files (``files``) and ``python -m bot store`` (``cli``).

Nothing outside this package touches a store's private members or writes SQL
(``tests/bot/test_store_boundary.py``).
"""

from bot.errors import Conflict as GameMovedOn  # the store's name for it
from bot.errors import StoreUnavailable
from bot.store.files import Access
from bot.store.protocol import (
    ActionRow,
    ChallengeRow,
    ChannelBusy,
    EventRow,
    FileLost,
    ForgetCounts,
    GameRow,
    GameView,
    Guard,
    LoggedChange,
    NewAction,
    NewEvent,
    Reader,
    SchemaTooNew,
    Store,
    StoreDamaged,
    Transaction,
)
from bot.store.sqlite import BUSY_TIMEOUT_MS, SqliteStore


def is_url(where: str) -> bool:
    """A PostgreSQL URL rather than a SQLite file path."""
    return where.startswith(("postgresql://", "postgres://"))


async def open_store(url: str, access: Access = Access.CREATE) -> Store:
    """The store at ``url``, opened and migrated: a ``postgresql://`` URL (PostgreSQL, for
    several processes) or a SQLite file path (or ':memory:'). ``access``: what may happen to a
    SQLite file (``Access``: the bot may create one; operators' commands open an existing
    database of this bot only, and those that only read never write it)."""
    if is_url(url):
        from bot.store.postgres import PostgresStore  # asyncpg only when it is used

        return await PostgresStore.open(url)
    return await SqliteStore.open(url, access=access)


__all__ = [
    "BUSY_TIMEOUT_MS",
    "Access",
    "ActionRow",
    "ChallengeRow",
    "ChannelBusy",
    "EventRow",
    "FileLost",
    "ForgetCounts",
    "GameMovedOn",
    "GameRow",
    "GameView",
    "Guard",
    "LoggedChange",
    "NewAction",
    "NewEvent",
    "Reader",
    "SchemaTooNew",
    "SqliteStore",
    "Store",
    "StoreDamaged",
    "StoreUnavailable",
    "Transaction",
    "is_url",
    "open_store",
]
