"""One player's Glicko-2 rating and the update for one rated game, over the `glicko2` library.

Why Glicko-2 (deepy/glicko2 on PyPI): it is what Lichess uses, one game at a time, and its rating
deviation (RD) gives the "provisional" mark for free: a new player starts at 1500 with RD 350 and
shows a "?" until RD falls below 110, Lichess's threshold. Two-player games with draws are all a
ladder here needs, so openskill's team and multi-player machinery would buy nothing.

Conventions (Glickman's paper, "Example of the Glicko-2 system", 2022):
- every game is its own rating period for both players, updated simultaneously from the two
  ratings *before* the game (as Lichess does);
- inactivity widens RD by one library step (``did_not_compete``) per whole ``RATING_PERIOD``
  since the last game, capped at the starting RD, so a returning player moves fast again;
- no rating maths lives here. (Known: glicko2 2.1.0's volatility step reads mu where the paper
  reads phi in f(x); per game it moves volatility in the sixth digit and ratings by < 0.001, and
  the paper's example still comes out as printed, so we use the library as it is.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import glicko2

START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
PROVISIONAL_RD = 110.0
"""RD at or above which a rating is provisional and shown with "?" (Lichess: 110)."""
RATING_PERIOD = timedelta(days=1) / 0.21436
"""Idle time that widens RD by one Glicko-2 rating period (one ``did_not_compete`` step): about
4.7 days, Lichess's 0.21436 periods a day. An idle player at RD 60 is provisional after a year."""
MAX_IDLE_PERIODS = 800
"""Bound on inactivity steps applied at once (ten years); RD reaches its cap long before."""


@dataclass(frozen=True, slots=True)
class RatingState:
    """A player's standing on one ladder; the default is a newcomer (1500, RD 350, no games)."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY
    games: int = 0
    last_played: datetime | None = None
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def provisional(self) -> bool:
        return is_provisional(self)


NEW_PLAYER = RatingState()


def is_provisional(state: RatingState) -> bool:
    """True while the rating is not yet trusted (RD >= ``PROVISIONAL_RD``, as Lichess marks it)."""
    return state.rd >= PROVISIONAL_RD


PROVISIONAL_NOTE = (
    '"?" marks a provisional rating: too few recent rated games to be sure of it yet; '
    "it settles as the player plays."
)


def rating_text(state: RatingState) -> str:
    """The rating as players read it: "1662" or "1662?" when provisional."""
    return f"{round(state.rating)}{'?' if is_provisional(state) else ''}"


def rating_change_text(before: RatingState, after: RatingState, name: str | None = None) -> str:
    """A result line: "Alice 1500? → 1662? (+162)"; the change is of the rounded numbers shown."""
    delta = round(after.rating) - round(before.rating)
    sign = "±" if delta == 0 else ("+" if delta > 0 else "-")
    text = f"{rating_text(before)} → {rating_text(after)} ({sign}{abs(delta)})"
    return f"{name} {text}" if name else text


def idle_periods(state: RatingState, at: datetime) -> int:
    """Whole rating periods between the player's last game and ``at`` (0 for a newcomer)."""
    if state.last_played is None or at <= state.last_played:
        return 0
    return min(MAX_IDLE_PERIODS, (at - state.last_played) // RATING_PERIOD)


def with_inactivity(state: RatingState, at: datetime) -> RatingState:
    """The state with RD widened for the rating periods it sat idle before ``at``."""
    periods = idle_periods(state, at)
    if periods == 0 or state.rd >= START_RD:
        return state
    player = _player(state)
    for _ in range(periods):
        player.did_not_compete()
        if player.getRd() >= START_RD:
            break
    return replace(state, rd=min(START_RD, player.getRd()))


def update(
    a: RatingState, b: RatingState, score_a: float, at: datetime
) -> tuple[RatingState, RatingState]:
    """Both players after one game at ``at``; ``score_a`` is 1 (a won), 0.5 (draw) or 0 (b won)."""
    if score_a not in (0, 0.5, 1):
        raise ValueError(f"a game scores 1, 0.5 or 0 for the first player, not {score_a!r}")
    a, b = with_inactivity(a, at), with_inactivity(b, at)
    return _rated(a, b, score_a, at), _rated(b, a, 1 - score_a, at)


def rate_period(state: RatingState, results: Sequence[tuple[RatingState, float]]) -> RatingState:
    """Rating, RD and volatility after one rating period against ``(opponent, score)`` results
    (Glickman's example plays three games in one period); counts and dates are left as they are.
    """
    if not results:
        raise ValueError("a rating period needs at least one game")
    player = _player(state)
    player.update_player(
        [o.rating for o, _ in results], [o.rd for o, _ in results], [score for _, score in results]
    )
    return replace(state, rating=player.getRating(), rd=player.getRd(), volatility=player.vol)


def _rated(me: RatingState, other: RatingState, score: float, at: datetime) -> RatingState:
    rated = rate_period(me, [(other, score)])
    return replace(
        rated,
        games=me.games + 1,
        last_played=at if me.last_played is None else max(me.last_played, at),
        wins=me.wins + (score == 1),
        losses=me.losses + (score == 0),
        draws=me.draws + (score == 0.5),
    )


def _player(state: RatingState) -> glicko2.Player:
    return glicko2.Player(state.rating, state.rd, state.volatility)
