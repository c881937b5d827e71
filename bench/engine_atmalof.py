"""Atmalof engine speed: legal() and apply() on mid-game positions, random playouts, perft."""

from __future__ import annotations

from bench.positions import apply_line, legal_line, perft_line, playout_line
from engine.atmalof import GAME, Drop
from engine.playout import favouring, mid_game_positions

TARGET_LEGAL_US = 50.0
DROPS_EARLY = favouring(Drop, 0.6)  # as players do: games reach lines and the tie-break
START_PERFT = {1: 84, 2: 7056}  # tests/engine/data/perft_atmalof.json, "standard-start"


def main() -> None:
    for variant in ("standard", "atmalos"):
        positions = mid_game_positions(GAME, variant, 100, plies=(10, 60), prefer=DROPS_EARLY)
        legal_line(GAME, variant, positions, TARGET_LEGAL_US)
        apply_line(GAME, variant, positions[:50], which=-1)
    playout_line(GAME, "drops-first", prefer=DROPS_EARLY)
    for depth in (1, 2, 3):
        perft_line(GAME, "standard start", GAME.new(), depth, START_PERFT.get(depth))


if __name__ == "__main__":
    main()
