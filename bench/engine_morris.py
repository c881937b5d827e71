"""Morris engine speed: legal() and apply() on mid-game positions, random playouts, perft."""

from __future__ import annotations

from bench.positions import apply_line, legal_line, perft_line, playout_line
from engine.morris import GAME
from engine.playout import mid_game_positions

TARGET_LEGAL_US = 20.0
START_PERFT = {1: 24, 2: 552, 3: 12_144, 4: 255_024, 5: 5_100_480}  # the rules file's counts


def main() -> None:
    positions = mid_game_positions(GAME, "standard", 200, plies=(8, 80))  # both phases
    legal_line(GAME, "standard", positions, TARGET_LEGAL_US)
    apply_line(GAME, "standard", positions[:50], which=0)
    playout_line(GAME, "uniform", max_plies=400)
    for depth in (3, 4, 5):
        perft_line(GAME, "standard start", GAME.new(), depth, START_PERFT[depth])


if __name__ == "__main__":
    main()
