"""Per-server ladders, pure: Glicko-2 ratings (``ratings``), rating tables and leaderboards
(``tables``), and players' statistics (``stats``), all computed from plain rows with no I/O.

The store keeps the rows; the referee reads them, calls these functions and writes the result in
its own unit of work. Nothing here imports the store or the referee.
"""

from bot.ladder.tables import (
    INACTIVE_DAYS,
    MAX_TOP,
    FinishedGame,
    Leaderboard,
    LeaderboardRow,
    PerVariant,
    RatingChange,
    RatingKey,
    SeasonArchive,
    Table,
    apply_game,
    close_season,
    counts,
    game_ladder,
    is_inactive,
    ladder_key,
    ladder_ratings,
    leaderboard,
    rebuild,
)

__all__ = [
    "INACTIVE_DAYS",
    "MAX_TOP",
    "FinishedGame",
    "Leaderboard",
    "LeaderboardRow",
    "PerVariant",
    "RatingChange",
    "RatingKey",
    "SeasonArchive",
    "Table",
    "apply_game",
    "close_season",
    "counts",
    "game_ladder",
    "is_inactive",
    "ladder_key",
    "ladder_ratings",
    "leaderboard",
    "rebuild",
]
