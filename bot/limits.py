"""How much one person may hold at once, so nobody can fill the store or the channels: at most
``MAX_OPEN_CHALLENGES`` challenges waiting and ``MAX_ACTIVE_GAMES`` games running per user.

The counts that decide are read inside the write transaction that would add one (a ``Guard``
the store runs after BEGIN IMMEDIATE): no other command, in this process or another on the same
file, can insert between the count and the insert, so forty commands at once still leave three
challenges and ten games. The same counts read outside a transaction answer early, before any
work (``challenge_problem`` on the store), and may only refuse sooner, never allow more.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import aiosqlite

from bot.errors import RefereeError
from bot.store import Guard, Store

MAX_OPEN_CHALLENGES = 3
MAX_ACTIVE_GAMES = 10

# A store's own reads, or a transaction's connection (its lock is already held there)
Source = Store | aiosqlite.Connection


class OverLimit(RefereeError):
    """A guard refused the write: ``reason`` says which limit, in words for the person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _rows(source: Source) -> Callable[[str, Sequence[Any]], Awaitable[Iterable[Any]]]:
    return source._all if isinstance(source, Store) else source.execute_fetchall


async def _count(source: Source, sql: str, params: Sequence[Any]) -> int:
    row = next(iter(await _rows(source)(sql, params)), None)
    return int(row[0]) if row else 0


async def open_challenges(source: Source, user_id: int, now: float) -> int:
    """Challenges ``user_id`` posted that still wait for an answer (expired ones do not count)."""
    return await _count(
        source,
        "SELECT COUNT(*) FROM challenges WHERE status = 'open' AND challenger_id = ?"
        " AND expires_at > ?",
        (user_id, now),
    )


async def active_games(source: Source, user_id: int) -> int:
    return await _count(
        source,
        # one index range per seat (migration 6), not a scan of every active game
        "SELECT (SELECT COUNT(*) FROM games WHERE status = 'active' AND player0 = ?)"
        " + (SELECT COUNT(*) FROM games WHERE status = 'active' AND player1 = ? AND player0 != ?)",
        (user_id, user_id, user_id),
    )


async def challenge_problem(source: Source, user_id: int, now: float) -> str | None:
    """Why ``user_id`` may not post another challenge, or None."""
    if await open_challenges(source, user_id, now) >= MAX_OPEN_CHALLENGES:
        return (
            f"you already have {MAX_OPEN_CHALLENGES} challenges waiting: wait for an answer, "
            "or withdraw one (decline your own challenge) before posting another"
        )
    return await games_problem(source, user_id, "you are")


async def games_problem(source: Source, user_id: int, who: str) -> str | None:
    """Why ``user_id`` may not start another game (``who``: "you are" or "alice is"), or None."""
    if await active_games(source, user_id) >= MAX_ACTIVE_GAMES:
        return f"{who} already playing {MAX_ACTIVE_GAMES} games: finish one before starting another"
    return None


def challenge_guard(user_id: int, now: float) -> Guard:
    """For ``Store.create_challenge``: raise OverLimit if ``user_id`` may not post another."""

    async def guard(db: aiosqlite.Connection) -> None:
        problem = await challenge_problem(db, user_id, now)
        if problem:
            raise OverLimit(problem)

    return guard


def games_guard(players: Sequence[tuple[int, str]]) -> Guard:
    """For ``Store.start_game``: raise OverLimit if one of ``players`` (user id, and "you are"
    or "alice is") may not start another game."""

    async def guard(db: aiosqlite.Connection) -> None:
        for user_id, who in players:
            problem = await games_problem(db, user_id, who)
            if problem:
                raise OverLimit(problem)

    return guard
