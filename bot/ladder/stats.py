"""A player's record from stored games: results, streaks, rating history, head-to-head, and
Atmalof dice luck. Plain functions over ``FinishedGame`` lists; the store supplies the games.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from bot.ladder.ratings import RatingState
from bot.ladder.tables import FinishedGame, PerVariant, Table, apply_game, counts, game_ladder


class RatingPoint(NamedTuple):
    """The player's rating just after one counted game (a point of the chart)."""

    at: datetime
    rating: float
    rd: float


@dataclass(frozen=True, slots=True)
class Record:
    """Wins, losses and draws."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def text(self) -> str:
        return f"{self.wins}W {self.losses}L {self.draws}D"


class CasualRecords(NamedTuple):
    """A player's unrated results in one server: against people, and apart, against the
    practice bot (a level the player chose is practice, not a record between people)."""

    people: Record = Record()
    practice: Record = Record()


@dataclass(frozen=True, slots=True)
class Streak:
    """A run of one result: kind "W", "L" or "D" and its length (length 0: no games)."""

    kind: str = ""
    length: int = 0

    def text(self) -> str:
        names = {"W": "win", "L": "loss", "D": "draw"}
        if not self.length:
            return "none"
        plural = "es" if self.kind == "L" else "s"
        return f"{self.length} {names[self.kind]}{plural if self.length != 1 else ''}"


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything /stats shows for one player (on one game, or all games when ``game`` is None).

    ``record``, streaks and head-to-head count rated games only (the ones that move ratings);
    ``ratings`` and ``history`` are per ladder key ("atmalof", or "atmalof/junior").
    """

    player: int
    record: Record
    current_streak: Streak
    best_win_streak: Streak
    ratings: dict[str, RatingState] = field(default_factory=dict)
    history: dict[str, list[RatingPoint]] = field(default_factory=dict)
    opponent: int | None = None
    head_to_head: Record | None = None


def player_stats(
    games: Iterable[FinishedGame],
    player: int,
    game: str | None = None,
    opponent: int | None = None,
    *,
    per_variant: PerVariant = False,
) -> PlayerStats:
    """One player's stats from one server's games of one season (oldest first after sorting).

    Ratings are replayed over every counted game (opponents' ratings matter), so the history
    matches the live ladder.
    """
    ordered = sorted((g for g in games if counts(g)), key=lambda g: g.ended_at)
    table: Table = {}
    results: list[str] = []
    h2h = Counter[str]()
    history: dict[str, list[RatingPoint]] = {}
    ratings: dict[str, RatingState] = {}
    for g in ordered:
        change = apply_game(table, g, per_variant)
        assert change is not None  # counted games always rate
        table.update(change.rows())
        if player not in g.players or (game is not None and g.game != game):
            continue
        seat = g.players.index(player)
        result = "D" if g.winner is None else ("W" if g.winner == seat else "L")
        results.append(result)
        if opponent is not None and g.players[1 - seat] == opponent:
            h2h[result] += 1
        ladder = game_ladder(g, per_variant)
        after = change.after[seat]
        ratings[ladder] = after
        history.setdefault(ladder, []).append(RatingPoint(g.ended_at, after.rating, after.rd))
    tally = Counter(results)
    return PlayerStats(
        player=player,
        record=Record(tally["W"], tally["L"], tally["D"]),
        current_streak=_current_streak(results),
        best_win_streak=Streak("W", _longest_run(results, "W")),
        ratings=ratings,
        history=history,
        opponent=opponent,
        head_to_head=None if opponent is None else Record(h2h["W"], h2h["L"], h2h["D"]),
    )


def _current_streak(results: Sequence[str]) -> Streak:
    if not results:
        return Streak()
    last = results[-1]
    length = 0
    for result in reversed(results):
        if result != last:
            break
        length += 1
    return Streak(last, length)


def _longest_run(results: Sequence[str], kind: str) -> int:
    best = run = 0
    for result in results:
        run = run + 1 if result == kind else 0
        best = max(best, run)
    return best


class DiceDrop(NamedTuple):
    """One Atmalof drop by the player: the die's faces, its roll, whether the piece landed, and
    the chance it would land given the squares occupied when the line was announced."""

    faces: int
    roll: int
    landed: bool
    p_land: float


@dataclass(frozen=True, slots=True)
class DiceLuck:
    """Rolls seen against a fair die, and turns lost against what the board made likely.

    ``roll_z`` and ``lost_z`` are standard scores (0: exactly as expected; beyond +-2: rare).
    ``chi_square`` compares face counts with a uniform die (``chi_df`` degrees of freedom).
    ``turns_saved`` = expected lost turns - lost turns: positive means lucky.
    """

    rolls: int
    mean_roll: float
    expected_mean_roll: float
    roll_z: float
    chi_square: float
    chi_df: int
    lost_turns: int
    expected_lost_turns: float
    lost_z: float

    @property
    def turns_saved(self) -> float:
        return self.expected_lost_turns - self.lost_turns

    def text(self) -> str:
        """One line for /stats: "12 drops, mean roll 3.8 (expected 3.5); lost 2 turns, expected
        3.4 (lucky by 1.4)"."""
        if not self.rolls:
            return "no drops yet"
        saved = self.turns_saved
        verdict = (
            "as expected"
            if abs(saved) < 0.05
            else (f"lucky by {saved:.1f}" if saved > 0 else f"unlucky by {-saved:.1f}")
        )
        return (
            f"{self.rolls} drop{'s' if self.rolls != 1 else ''}, mean roll {self.mean_roll:.1f} "
            f"(expected {self.expected_mean_roll:.1f}); lost {self.lost_turns} "
            f"turn{'s' if self.lost_turns != 1 else ''}, expected "
            f"{self.expected_lost_turns:.1f} ({verdict})"
        )


def dice_luck(drops: Iterable[DiceDrop | tuple[int, int, bool, float]]) -> DiceLuck:
    """Luck over a player's drops. A fair die with f faces has mean (f+1)/2 and variance
    (f^2-1)/12; a drop lands with probability ``p_land``, so lost turns have mean sum(1-p)
    and variance sum(p(1-p))."""
    records = [DiceDrop(*d) for d in drops]
    for d in records:
        if d.faces < 2 or not 1 <= d.roll <= d.faces or not 0.0 <= d.p_land <= 1.0:
            raise ValueError(f"not a drop of a fair die: {d}")
    n = len(records)
    total = sum(d.roll for d in records)
    expected_total = sum((d.faces + 1) / 2 for d in records)
    variance = sum((d.faces**2 - 1) / 12 for d in records)
    lost = sum(not d.landed for d in records)
    expected_lost = sum(1 - d.p_land for d in records)
    lost_var = sum(d.p_land * (1 - d.p_land) for d in records)
    chi, df = _chi_square(records)
    return DiceLuck(
        rolls=n,
        mean_roll=total / n if n else 0.0,
        expected_mean_roll=expected_total / n if n else 0.0,
        roll_z=_z(total - expected_total, variance),
        chi_square=chi,
        chi_df=df,
        lost_turns=lost,
        expected_lost_turns=expected_lost,
        lost_z=_z(lost - expected_lost, lost_var),
    )


def _chi_square(records: Sequence[DiceDrop]) -> tuple[float, int]:
    """Pearson's statistic per die size, summed: sum over faces of (seen - n/f)^2 / (n/f)."""
    chi, df = 0.0, 0
    for faces in sorted({d.faces for d in records}):
        rolls = Counter(d.roll for d in records if d.faces == faces)
        n = sum(rolls.values())
        expected = n / faces
        chi += sum((rolls[k] - expected) ** 2 / expected for k in range(1, faces + 1))
        df += faces - 1
    return chi, df


def _z(deviation: float, variance: float) -> float:
    return deviation / math.sqrt(variance) if variance > 0 else 0.0
