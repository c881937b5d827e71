"""Ladder speed: one rating update, a rebuild of a server's history, a leaderboard, the images.

Every figure is the median time of one call over several timed batches (``bench.timing``).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bench.timing import fmt_time, per_call
from bot.ladder import FinishedGame, ladder_ratings, leaderboard, rebuild
from bot.ladder.ratings import NEW_PLAYER, update
from bot.ladder.stats import player_stats
from engine.core import Termination
from render.chart import Standing, leaderboard_png, rating_chart_png

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def history(games: int, players: int, seed: int = 1) -> list[FinishedGame]:
    rng = random.Random(seed)
    out = []
    for i in range(games):
        a, b = rng.sample(range(1, players + 1), 2)
        out.append(
            FinishedGame(
                guild_id=1,
                game="atmalof",
                variant="standard",
                players=(a, b),
                winner=rng.choice([0, 1, 1, 0, None]),
                termination=Termination.LINE,
                rated=True,
                ended_at=T0 + timedelta(minutes=37 * i),
                season=1,
            )
        )
    return out


def line(label: str, seconds: float, extra: str = "") -> None:
    print(f"{label:<34} median {fmt_time(seconds)}{extra}")


def main() -> None:
    line("rating update, one game", per_call(lambda: update(NEW_PLAYER, NEW_PLAYER, 1, T0)))
    games = history(10_000, 500)
    t = per_call(lambda: rebuild(games), repeat=3)
    line("rebuild 10k games, 500 players", t, f" ({len(games) / t:,.0f} games/s)")
    ratings = ladder_ratings(rebuild(games), 1, "atmalof")
    now = games[-1].ended_at
    line("leaderboard of 500 players", per_call(lambda: leaderboard(ratings, caller=250, now=now)))
    t = per_call(lambda: player_stats(games, 7, "atmalof", opponent=8), repeat=3)
    line("player_stats over 10k games", t)
    points = player_stats(games, 7).history["atmalof"]
    line(f"rating_chart_png, {len(points)} points", per_call(lambda: rating_chart_png(points)))
    rows = [Standing(i + 1, f"player {i}", 1800 - 10 * i) for i in range(10)]
    line("leaderboard_png, 10 rows", per_call(lambda: leaderboard_png(rows, "Atmalof ladder")))
