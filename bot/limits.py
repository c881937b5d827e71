"""How much one person may hold at once, so nobody can fill the store or the channels: at most
``MAX_OPEN_CHALLENGES`` challenges waiting and ``MAX_ACTIVE_GAMES`` games running per user.

The counts are read just before the write that would add one, so two commands racing can pass
the limit by one; the limits are about abuse, not an invariant the rules depend on.
"""

from __future__ import annotations

from bot.store import Store

MAX_OPEN_CHALLENGES = 3
MAX_ACTIVE_GAMES = 10


async def open_challenges(store: Store, user_id: int, now: float) -> int:
    """Challenges ``user_id`` posted that still wait for an answer (expired ones do not count)."""
    row = await store._one(
        "SELECT COUNT(*) FROM challenges WHERE status = 'open' AND challenger_id = ?"
        " AND expires_at > ?",
        (user_id, now),
    )
    return int(row[0]) if row else 0


async def active_games(store: Store, user_id: int) -> int:
    row = await store._one(
        "SELECT COUNT(*) FROM games WHERE status = 'active' AND (player0 = ? OR player1 = ?)",
        (user_id, user_id),
    )
    return int(row[0]) if row else 0


async def challenge_problem(store: Store, user_id: int, now: float) -> str | None:
    """Why ``user_id`` may not post another challenge, or None."""
    if await open_challenges(store, user_id, now) >= MAX_OPEN_CHALLENGES:
        return (
            f"you already have {MAX_OPEN_CHALLENGES} challenges waiting: wait for an answer, "
            "or withdraw one (decline your own challenge) before posting another"
        )
    return await games_problem(store, user_id, "you are")


async def games_problem(store: Store, user_id: int, who: str) -> str | None:
    """Why ``user_id`` may not start another game (``who``: "you are" or "alice is"), or None."""
    if await active_games(store, user_id) >= MAX_ACTIVE_GAMES:
        return f"{who} already playing {MAX_ACTIVE_GAMES} games: finish one before starting another"
    return None
