"""The practice opponent (engine/ai): search speed per game, and the strength tables.

Speed: nodes per CPU second and CPU seconds per move of level 5 on mid-game positions (the
level's bound is two CPU seconds). Strength: the issue's goals as a table per game, each level
against the one below and level 5 against ``random`` and ``greedy``, over a few games each
(``PRACTICE_GAMES``, default 2, colours alternating), with the win count. Few games show a
broken level, not a measured one: docs/practice.md records the longer runs made with
``python -m engine.ai.match``. ``PRACTICE_NODES_SCALE`` (default 1) shrinks every budget for a
quick look at the wiring.
"""

from __future__ import annotations

import os
import time

import engine
from engine.ai import analyse, level
from engine.ai.match import run_match
from engine.playout import mid_game_positions

GAMES = int(os.environ.get("PRACTICE_GAMES", "2"))
NODES_SCALE = float(os.environ.get("PRACTICE_NODES_SCALE", "1"))
PAIRS = (
    (2, "level:1"),
    (3, "level:2"),
    (4, "level:3"),
    (5, "level:4"),
    (5, "random"),
    (5, "greedy"),
)
"""The cells of a strength table: (level, opponent)."""


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


def strength_table(name: str) -> None:
    """One row of cells: wins-draws-losses of the level against the opponent."""
    cells = []
    for number, opponent in PAIRS:
        tally = run_match(name, number, opponent, GAMES, seed=7, nodes_scale=NODES_SCALE)
        them = opponent.removeprefix("level:")
        cells.append(f"{number} vs {them}: {tally.wins}-{tally.draws}-{tally.losses}")
    print(f"{name:8} " + " | ".join(cells))


def main() -> None:
    for name in engine.GAME_NAMES:
        speed_line(name)
    print(f"strength, wins-draws-losses over {GAMES} games per cell (docs/practice.md: goals):")
    for name in engine.GAME_NAMES:
        strength_table(name)


if __name__ == "__main__":
    main()
