"""Atmalof (Richard S. Forsyth, CC BY-SA 3.0): the game's public names.

The rules and the ``Game`` object are in ``game.py`` (its docstring describes the game, the
grammar and the position text); ``actions.py`` holds Drop and Move, ``config.py`` the variants
and options.
"""

from __future__ import annotations

from engine.atmalof.game import (
    GAME,
    SIDE_NAMES,
    Action,
    Atmalof,
    AtmalofConfig,
    AtmalofState,
    Drop,
    Move,
    Square,
    drop_is_futile,
    fours,
    landing,
    winning_line,
    winning_lines,
)

__all__ = [
    "GAME",
    "SIDE_NAMES",
    "Action",
    "Atmalof",
    "AtmalofConfig",
    "AtmalofState",
    "Drop",
    "Move",
    "Square",
    "drop_is_futile",
    "fours",
    "landing",
    "winning_line",
    "winning_lines",
]
