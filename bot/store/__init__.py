"""Where games live: the ``Store`` protocol with its units of work (``protocol``), the SQLite
implementation (``sqlite``: every line of SQLite-specific code), its schema migrations
(``migrations``), owner-only files (``files``) and ``python -m bot store`` (``cli``).

Nothing outside this package touches a store's private members or writes SQL
(``tests/bot/test_store_boundary.py``).
"""

from bot.errors import Conflict as GameMovedOn  # the store's name for it
from bot.errors import StoreUnavailable
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


async def open_store(url: str) -> Store:
    """The store at ``url``: a SQLite file path (or ':memory:'), opened and migrated."""
    return await SqliteStore.open(url)


__all__ = [
    "BUSY_TIMEOUT_MS",
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
    "open_store",
]
