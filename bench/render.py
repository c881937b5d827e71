"""Board image speed: median and p99 time, and bytes, of one 800 px PNG per game (target: median
< 15 ms, < 150 KB).

Positions are mid-game (seeded random play) with the last action's overlays, drawn after a
warm-up so the cached backgrounds and sprites are in place, as in a running bot. Also shows the
drawing alone, the PNG encoding at a few zlib levels (why ``render.png.LEVEL`` is 1) and a
replay GIF.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import render
from bench.timing import percentile
from render.gallery import random_game
from render.png import encode_png

GAMES = ("atmalof", "morris", "abalone")
RUNS = 40


def _times_ms(fn: Callable[[], object], runs: int = RUNS) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _median_ms(fn: Callable[[], object], runs: int = RUNS) -> float:
    return statistics.median(_times_ms(fn, runs))


def _board(game: str) -> str:
    state, last = random_game(game, seed=5, plies=30)[-1]
    names = ("Alice", "Bob")
    png = render.board_png(game, state, last, players=names)
    totals = _times_ms(lambda: render.board_png(game, state, last, players=names), RUNS * 5)
    draw = _median_ms(lambda: render.board_image(game, state, last, players=names))
    img = render.board_image(game, state, last)
    levels = ", ".join(
        f"z{level} {_median_ms(lambda lv=level: encode_png(img, lv), 15):.1f} ms "
        f"{len(encode_png(img, level)) // 1024} KB"
        for level in (1, 3, 6)
    )
    return (
        f"render {game:8s} board_png 800px median {statistics.median(totals):5.1f} ms, "
        f"p99 {percentile(totals, 99):5.1f} ms, {len(png) // 1024:4d} KB"
        f" (drawing median {draw:.1f} ms; encode median {levels})"
    )


def main() -> None:
    for game in GAMES:
        print(_board(game))
    frames = random_game("morris", seed=2, plies=60)
    gif = render.replay_gif(frames)
    print(
        f"render replay_gif morris {len(frames)} frames 480px: median "
        f"{_median_ms(lambda: render.replay_gif(frames), 3):.0f} ms (3 runs), {len(gif) // 1024} KB"
    )


if __name__ == "__main__":
    main()
