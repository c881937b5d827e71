"""The SQLite store (aiosqlite): games, the append-only chained action log, challenges, players,
guild settings and request ids. Work in progress: the interface is ``await Store.open(path)``,
``await store.close()``."""

from __future__ import annotations


class Store:
    """One SQLite file (or ':memory:'), opened with ``await Store.open(path)``."""

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    async def open(cls, path: str) -> Store:
        """Open (creating if needed) and migrate to the newest schema."""
        return cls(path)

    async def close(self) -> None:
        """Close the connection; safe to call twice."""
