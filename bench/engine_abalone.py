"""Abalone engine speed: legal() and apply() on mid-game positions, random playouts, perft."""

from __future__ import annotations

import random

from bench.positions import apply_line, legal_line, perft_line, playout_line
from engine.abalone import GAME, AbaloneState, Push, moved_marbles
from engine.playout import mid_game_positions

TARGET_LEGAL_US = 200.0
START_PERFT = {  # tests/engine/data/perft_abalone.json
    "standard": 98_912,
    "belgian-daisy": 149_322,
    "german-daisy": 493_480,
}


def pushes_first(state: AbaloneState, actions: list[Push], rng: random.Random) -> list[Push]:
    """An aggressive player: pushes whenever a push is legal (games end, marbles fall off)."""
    pushes = [a for a in actions if len(moved_marbles(state, a)) > len(a.cells)]
    return pushes or actions


def main() -> None:
    for variant in GAME.variants:
        positions = mid_game_positions(GAME, variant, 60, plies=(20, 80), prefer=pushes_first)
        legal_line(GAME, variant, positions, TARGET_LEGAL_US)
        apply_line(GAME, variant, positions[:30], which=-1)
    playout_line(GAME, "uniform")
    playout_line(GAME, "aggressive", prefer=pushes_first)
    for variant in GAME.variants:
        perft_line(GAME, variant, GAME.new(variant), 3, START_PERFT.get(variant))


if __name__ == "__main__":
    main()
