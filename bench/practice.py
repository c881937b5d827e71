"""The practice opponent (engine/ai): search speed per game, and a small strength table.

Speed: nodes per CPU second and CPU seconds per move of level 5 on mid-game positions (the level's
wall-clock bound is two seconds; a move that hits it is reported). Strength: a few games of
level 3 against ``random`` and against ``greedy`` per game, colours alternating, with the
Wilson interval; docs/practice.md records the longer runs made with ``python -m engine.ai.match``.
"""

from __future__ import annotations

import time

import engine
from engine.ai import analyse, level
from engine.ai.match import run_match, wilson
from engine.playout import mid_game_positions

GAMES = 2  # per row: enough to see a broken level, not to measure a strong one


def speed_line(name: str) -> None:
    game = engine.get_game(name)
    positions = mid_game_positions(game, "standard", 2, seed=11, plies=(10, 40))
    spec = level(5, name)
    times, nodes = [], 0
    for position in positions:
        started = time.process_time()
        result = analyse(name, position, spec, seed=1)
        times.append(time.process_time() - started)
        nodes += result.nodes
    total = sum(times)
    print(
        f"{name} level 5: {nodes / total:,.0f} nodes/s, {total / len(times):.2f} s per move "
        f"(slowest {max(times):.2f} s; bound {spec.seconds:.1f} s) over {len(times)} positions"
    )


def strength_line(name: str, opponent: str) -> None:
    tally = run_match(name, 3, opponent, GAMES, seed=7)
    lo, hi = wilson(tally.wins, tally.games)
    print(
        f"{name} level 3 vs {opponent}: {tally.wins}-{tally.draws}-{tally.losses} "
        f"(win/draw/loss over {tally.games} games; win rate 95% Wilson {lo:.0%}-{hi:.0%})"
    )


def main() -> None:
    for name in engine.GAME_NAMES:
        speed_line(name)
    for name in engine.GAME_NAMES:
        for opponent in ("random", "greedy"):
            strength_line(name, opponent)


if __name__ == "__main__":
    main()
