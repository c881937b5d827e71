"""Per-server ladders as plain functions over plain data: which games count, the rating table,
its rebuild from stored games, the leaderboard, and closing a season.

A rating table maps ``(guild_id, ladder_key, player_id)`` to a ``RatingState``; a player with no
row is a newcomer (``NEW_PLAYER``). The store keeps one table per (guild, season) and applies
``apply_game`` to it after every finished game; ``rebuild`` folds the same function over the
stored games, so the two agree to the last bit.

Seasons: a game carries the season it was played in, and only games of one season are rated
together. ``close_season`` returns an archive (a frozen snapshot of the guild's table, every
ladder) and the table without that guild's rows: in the new season everyone starts fresh at
1500?, with no games. Archives are read-only history; nothing carries over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import MappingProxyType

from bot.ladder.ratings import NEW_PLAYER, RatingState, is_provisional, update
from engine.core import Termination

RatingKey = tuple[int, str, int]
"""(guild_id, ladder_key, player_id): one row of a rating table."""
Table = dict[RatingKey, RatingState]
PerVariant = bool | Callable[[int, str], bool]
"""Per-variant ladders: one answer for every server, or ``f(guild_id, game) -> bool``."""

INACTIVE_DAYS = 30
"""Players with no counted game in this many days are hidden from the leaderboard by default."""
MAX_TOP = 100


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as the ladder sees it; ``players`` are (seat 0, seat 1) user ids."""

    guild_id: int
    game: str
    variant: str
    players: tuple[int, int]
    winner: int | None  # seat 0 or 1, None for a draw
    termination: Termination | str
    rated: bool
    ended_at: datetime
    season: int = 1
    both_acted: bool = True  # each player made at least one action (``GameRow.moved``)

    @property
    def score(self) -> float:
        """Seat 0's score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return 0.5 if self.winner is None else float(self.winner == 0)


def ladder_key(game: str, variant: str, per_variant: bool = False) -> str:
    """The ladder a game is rated on: "atmalof", or "atmalof/junior" with per-variant ladders."""
    return f"{game}/{variant}" if per_variant else game


def game_ladder(game: FinishedGame, per_variant: PerVariant = False) -> str:
    """``ladder_key`` for a stored game, asking ``per_variant`` about its server and game."""
    split = per_variant(game.guild_id, game.game) if callable(per_variant) else per_variant
    return ladder_key(game.game, game.variant, split)


def both_acted(moved: int) -> bool:
    """Whether each player made an action, from a game row's ``moved`` bits (seat 0: 1,
    seat 1: 2): a rated game counts only then (``counts``)."""
    return moved & 3 == 3


def counts(game: FinishedGame) -> bool:
    """True when the game is rated: flagged rated, two different people, not aborted, and
    played: each player made an action. A game that ended before both had acted (a draw agreed
    at once, a flag that fell before the first move, the first mover resigning before the
    other's reply) is a result but no rating, as a game aborted then is (and as on the chess
    servers): no rating moves for a game never played, nor can two people trade points so.

    A loss on time or by abandonment is an ordinary loss (the referee sets its winner).
    """
    a, b = game.players
    return (
        game.rated
        and game.both_acted
        and a is not None
        and b is not None
        and a != b
        and game.termination != Termination.ABORTED
        and game.winner in (0, 1, None)
    )


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one counted game did to the table: both rows before and after."""

    keys: tuple[RatingKey, RatingKey]
    before: tuple[RatingState, RatingState]
    after: tuple[RatingState, RatingState]

    def rows(self) -> dict[RatingKey, RatingState]:
        """The rows to write back into the table (the store's upsert)."""
        return dict(zip(self.keys, self.after, strict=True))


def apply_game(
    table: Mapping[RatingKey, RatingState], game: FinishedGame, per_variant: PerVariant = False
) -> RatingChange | None:
    """The rating change one game makes on ``table`` (only its two rows are read), or None when
    the game does not count. The caller writes ``change.rows()`` back: the live path."""
    if not counts(game):
        return None
    ladder = game_ladder(game, per_variant)
    keys = ((game.guild_id, ladder, game.players[0]), (game.guild_id, ladder, game.players[1]))
    before = (table.get(keys[0], NEW_PLAYER), table.get(keys[1], NEW_PLAYER))
    after = update(before[0], before[1], game.score, game.ended_at)
    return RatingChange(keys=keys, before=before, after=after)


def rebuild(
    games: Iterable[FinishedGame], *, season: int | None = None, per_variant: PerVariant = False
) -> Table:
    """The rating table recomputed from stored games, oldest first (ties keep the given order).

    ``season``: count only that season's games (None: the caller already chose them).
    """
    chosen = [g for g in games if season is None or g.season == season]
    chosen.sort(key=lambda g: g.ended_at)  # stable: same-instant games keep the store's order
    table: Table = {}
    for game in chosen:
        change = apply_game(table, game, per_variant)
        if change is not None:
            table.update(change.rows())
    return table


def ladder_ratings(
    table: Mapping[RatingKey, RatingState], guild_id: int, ladder: str
) -> dict[int, RatingState]:
    """One ladder's rows by player id, the input ``leaderboard`` takes."""
    return {p: s for (g, k, p), s in table.items() if g == guild_id and k == ladder}


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a leaderboard; ``rank`` is None for a caller hidden from the ranking."""

    rank: int | None
    player: int
    rating: float
    rd: float
    provisional: bool
    games: int
    wins: int
    losses: int
    draws: int
    inactive: bool = False


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The top rows, the caller's own row (even outside the top), and how many are ranked.

    ``waiting``: the active provisional players (when they were not asked to be ranked),
    unranked, listed after the ranked rows as far as ``top`` leaves room: on a small server
    everyone is provisional for about twenty games each, and a ladder of no one (or of one)
    told them nothing. They are counted in ``hidden`` too. ``inactive``: how many of
    ``hidden`` are left out for inactivity, which showing provisional players does not undo."""

    rows: tuple[LeaderboardRow, ...]
    caller: LeaderboardRow | None
    ranked: int
    hidden: int  # provisional or inactive players left out
    waiting: tuple[LeaderboardRow, ...] = ()
    inactive: int = 0


def is_inactive(state: RatingState, now: datetime, days: int = INACTIVE_DAYS) -> bool:
    """True when the player's last counted game is more than ``days`` days before ``now``."""
    return state.last_played is None or now - state.last_played > timedelta(days=days)


def leaderboard(
    ratings: Mapping[int, RatingState],
    *,
    top: int = 10,
    caller: int | None = None,
    include_provisional: bool = False,
    include_inactive: bool = False,
    now: datetime,
    inactive_days: int = INACTIVE_DAYS,
) -> Leaderboard:
    """One ladder's standings: rating high to low, then more games, then lower player id.

    Provisional and inactive players are left out of the ranking unless asked for; the caller
    always gets their own row (``rank`` None when they are left out).
    """
    top = max(0, min(top, MAX_TOP))
    order = sorted(ratings.items(), key=lambda item: (-item[1].rating, -item[1].games, item[0]))
    ranked: list[LeaderboardRow] = []
    waiting: list[LeaderboardRow] = []  # provisional and active: listed after the ranked
    left_idle = 0
    caller_row: LeaderboardRow | None = None
    for player, state in order:
        inactive = is_inactive(state, now, inactive_days)
        active = include_inactive or not inactive
        shown = (include_provisional or not is_provisional(state)) and active
        row = _row(len(ranked) + 1 if shown else None, player, state, inactive)
        if shown:
            ranked.append(row)
        elif active:
            waiting.append(row)
        else:
            left_idle += 1
        if player == caller:
            caller_row = row
    return Leaderboard(
        rows=tuple(ranked[:top]),
        caller=caller_row,
        ranked=len(ranked),
        hidden=len(order) - len(ranked),
        waiting=tuple(waiting[: max(0, top - len(ranked))]),
        inactive=left_idle,
    )


def _row(rank: int | None, player: int, state: RatingState, inactive: bool) -> LeaderboardRow:
    return LeaderboardRow(
        rank=rank,
        player=player,
        rating=state.rating,
        rd=state.rd,
        provisional=is_provisional(state),
        games=state.games,
        wins=state.wins,
        losses=state.losses,
        draws=state.draws,
        inactive=inactive,
    )


@dataclass(frozen=True, slots=True)
class SeasonArchive:
    """A closed season of one server: every ladder's final table, read-only."""

    guild_id: int
    season: int
    closed_at: datetime
    ratings: Mapping[tuple[str, int], RatingState] = field(default_factory=dict)

    def ladder(self, ladder: str) -> dict[int, RatingState]:
        """One ladder's final ratings by player id (for ``leaderboard`` of a past season)."""
        return {p: s for (k, p), s in self.ratings.items() if k == ladder}


def close_season(
    table: Mapping[RatingKey, RatingState], guild_id: int, season: int, closed_at: datetime
) -> tuple[SeasonArchive, Table]:
    """Close ``season`` of one server: (its archive, the table the next season starts from).

    The archive is a snapshot of the server's rows; the returned table keeps other servers'
    rows and has none for this server, so every player starts the next season as a newcomer.
    """
    snapshot = {(k, p): s for (g, k, p), s in table.items() if g == guild_id}
    archive = SeasonArchive(guild_id, season, closed_at, MappingProxyType(snapshot))
    fresh = {key: s for key, s in table.items() if key[0] != guild_id}
    return archive, fresh
