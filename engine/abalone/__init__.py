"""Abalone: the game's public names.

``game.py`` is the ``Game`` object and the accessors (its docstring describes them);
``board.py`` the cells; ``moves.py`` Push, move generation and refusals; ``notation.py``
commands and the position text; ``history.py`` the repetition history.
"""

from __future__ import annotations

from engine.abalone.game import (
    CELL_NAMES,
    CELLS,
    GAME,
    N_CELLS,
    AbaloneGame,
    AbaloneState,
    Push,
    aba_pro,
    marble_at,
    marbles,
    marbles_off,
    moved_marbles,
)

__all__ = [
    "CELLS",
    "CELL_NAMES",
    "GAME",
    "N_CELLS",
    "AbaloneGame",
    "AbaloneState",
    "Push",
    "aba_pro",
    "marble_at",
    "marbles",
    "marbles_off",
    "moved_marbles",
]
