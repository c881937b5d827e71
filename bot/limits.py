"""How much one person may hold at once, so nobody can fill the store or the channels: at most
``MAX_OPEN_CHALLENGES`` challenges waiting and ``MAX_ACTIVE_GAMES`` games running per user.

The counts that decide are read inside the write transaction that would add one (a ``Guard``
the store runs first in it): no other command, in this process or another on the same
file, can insert between the count and the insert, so forty commands at once still leave three
challenges and ten games. The same counts read outside a transaction answer early, before any
work (``challenge_problem`` on the store), and may only refuse sooner, never allow more.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.errors import RefereeError
from bot.i18n import Msg, msg, say
from bot.store import Guard, Reader, Store

MAX_OPEN_CHALLENGES = 3
MAX_ACTIVE_GAMES = 10

# A store (each count its own read), or the reads of a unit of work (inside its transaction)
Source = Store | Reader


class OverLimit(RefereeError):
    """A guard refused the write: ``said`` says which limit, as a catalog message for the
    person's language (``reason``, and ``str()``, its English)."""

    def __init__(self, said: Msg) -> None:
        self.said = said
        self.reason = say(said)
        super().__init__(self.reason)


async def open_challenges(source: Source, user_id: int, now: float) -> int:
    """Challenges ``user_id`` posted that still wait for an answer (expired ones do not count)."""
    if isinstance(source, Store):
        async with source.reading() as rx:
            return await rx.open_challenges(user_id, now)
    return await source.open_challenges(user_id, now)


async def active_games(source: Source, user_id: int) -> int:
    if isinstance(source, Store):
        async with source.reading() as rx:
            return await rx.active_games(user_id)
    return await source.active_games(user_id)


async def challenge_problem(source: Source, user_id: int, now: float) -> Msg | None:
    """Why ``user_id`` may not post another challenge, or None."""
    if await open_challenges(source, user_id, now) >= MAX_OPEN_CHALLENGES:
        return msg("limit.challenges_waiting", n=MAX_OPEN_CHALLENGES)
    return await games_problem(source, user_id)


async def games_problem(source: Source, user_id: int, name: str | None = None) -> Msg | None:
    """Why ``user_id`` may not start another game, or None; ``name``: theirs when it is not
    the person asking ("alice is already playing..."), None for "you are"."""
    if await active_games(source, user_id) >= MAX_ACTIVE_GAMES:
        if name is None:
            return msg("limit.games_you", n=MAX_ACTIVE_GAMES)
        return msg("limit.games_other", name=name, n=MAX_ACTIVE_GAMES)
    return None


def challenge_guard(user_id: int, now: float) -> Guard:
    """For ``Store.create_challenge``: raise OverLimit if ``user_id`` may not post another."""

    async def guard(rx: Reader) -> None:
        problem = await challenge_problem(rx, user_id, now)
        if problem:
            raise OverLimit(problem)

    return guard


def games_guard(players: Sequence[tuple[int, str | None]]) -> Guard:
    """For ``Store.start_game``: raise OverLimit if one of ``players`` (user id, and their
    name, None for the person asking) may not start another game."""

    async def guard(rx: Reader) -> None:
        for user_id, name in players:
            problem = await games_problem(rx, user_id, name)
            if problem:
                raise OverLimit(problem)

    return guard
