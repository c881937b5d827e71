"""Nine Men's Morris (and Six and Twelve): the game's public names.

``game.py`` is the ``Game`` object (its docstring describes the game); ``rules.py`` the state,
the actions and the rules; ``board.py`` the three boards; ``text.py`` commands, notation and
the position text.
"""

from __future__ import annotations

from engine.morris.game import (
    GAME,
    LETTERS,
    POINT_NAMES,
    POINTS,
    SIDES,
    VARIANTS,
    Layout,
    MorrisAction,
    MorrisGame,
    MorrisState,
    Move,
    Place,
    Remove,
    Rules,
    can_fly,
    closes_mill,
    layout,
    men,
    men_in_hand,
    men_on_board,
    mills,
    pending_removal,
    phase,
    point_name,
    removable,
)

__all__ = [
    "GAME",
    "LETTERS",
    "POINTS",
    "POINT_NAMES",
    "SIDES",
    "VARIANTS",
    "Layout",
    "MorrisAction",
    "MorrisGame",
    "MorrisState",
    "Move",
    "Place",
    "Remove",
    "Rules",
    "can_fly",
    "closes_mill",
    "layout",
    "men",
    "men_in_hand",
    "men_on_board",
    "mills",
    "pending_removal",
    "phase",
    "point_name",
    "removable",
]
