"""What every engine benchmark measures, printed the same way for the three games.

legal() and apply() are timed on each of many mid-game positions (``engine.playout``), and the
spread over positions is reported: the median, the 99th percentile and the slowest, in
microseconds per call. Playouts report games and plies per second; perft its count and time.
Not a benchmark itself (``python -m bench`` skips it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from bench.timing import fmt_us, per_call, percentile
from engine.core import Game
from engine.playout import Prefer, perft, playout


def spread(seconds: Sequence[float]) -> str:
    """ "median 9.1 us, p99 30.2 us, max 41.0 us" for per-call times in seconds."""
    values = list(seconds)
    median = percentile(values, 50)
    return (
        f"median {fmt_us(median)}, p99 {fmt_us(percentile(values, 99))}, max {fmt_us(max(values))}"
    )


def legal_line(
    game: Game[Any, Any], label: str, positions: Sequence[Any], target_us: float
) -> None:
    """legal() per call on each position, against the target for its median."""
    times = [per_call(lambda s=s: game.legal(s), repeat=5, number=200) for s in positions]
    moves = percentile([len(game.legal(s)) for s in positions], 50)
    verdict = "ok" if percentile(times, 50) * 1e6 < target_us else "SLOWER THAN TARGET"
    print(
        f"{label} legal(): {spread(times)} per call over {len(positions)} mid-game positions "
        f"(median {moves:.0f} actions; target median < {target_us:.0f} us: {verdict})"
    )


def apply_line(game: Game[Any, Any], label: str, positions: Sequence[Any], which: int) -> None:
    """apply() per call of each position's ``legal()[which]`` (a roll of 1 if it rolls a die)."""
    times = []
    for s in positions:
        action = game.legal(s)[which]
        roll = 1 if game.die_faces(s, action) else None
        times.append(
            per_call(lambda s=s, a=action, r=roll: game.apply(s, a, r), repeat=5, number=200)
        )
    print(f"{label} apply(): {spread(times)} per call over {len(positions)} positions")


def playout_line(
    game: Game[Any, Any],
    label: str,
    variant: str = "standard",
    *,
    seconds: float = 2.0,
    max_plies: int = 1000,
    prefer: Prefer | None = None,
) -> None:
    """Seeded random games from the start, back to back for ``seconds``."""
    rng = random.Random(7)
    lengths: list[int] = []
    started = time.perf_counter()
    while time.perf_counter() - started < seconds or not lengths:
        lengths.append(playout(game, game.new(variant), rng, max_plies, prefer).ply)
    elapsed = time.perf_counter() - started
    print(
        f"{label} random playouts ({variant}, to the end or {max_plies} plies): "
        f"{len(lengths) / elapsed:,.1f} games/s, {sum(lengths) / elapsed:,.0f} plies/s "
        f"(median {percentile(lengths, 50):.0f} plies a game)"
    )


def perft_line(
    game: Game[Any, Any], label: str, state: Any, depth: int, expected: int | None = None
) -> None:
    """perft(depth) with its time and leaves per second; checked when ``expected`` is known."""
    started = time.perf_counter()
    nodes = perft(game, state, depth)
    elapsed = time.perf_counter() - started
    status = ""
    if expected is not None:
        status = ", ok" if nodes == expected else f", WRONG (expected {expected:,})"
    print(
        f"{label} perft({depth}) = {nodes:,} leaves in {elapsed:.2f} s "
        f"({nodes / elapsed:,.0f} leaves/s{status})"
    )
