"""Pure rules for Atmalof, Nine Men's Morris and Abalone: no I/O, no asyncio, no Discord.

>>> import engine
>>> game = engine.get_game("atmalof")
>>> state = game.new("standard")
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engine.core import (
    Effect,
    EngineError,
    Game,
    IllegalAction,
    Landing,
    OptionError,
    Outcome,
    ParseError,
    Termination,
)

GAME_NAMES: tuple[str, ...] = ("atmalof", "morris", "abalone")
_ALIASES = {
    "nine men's morris": "morris",
    "nine mens morris": "morris",
    "ninemensmorris": "morris",
    "mill": "morris",
    "mills": "morris",
}


def get_game(name: str) -> Game[Any, Any]:
    """The game object for a name ("atmalof", "morris", "abalone"); raises OptionError."""
    key = _ALIASES.get(str(name).strip().lower(), str(name).strip().lower())
    if key not in GAME_NAMES:
        raise OptionError(f"unknown game {name!r}: choose one of {', '.join(GAME_NAMES)}")
    return import_module(f"engine.{key}").GAME


__all__ = [
    "GAME_NAMES",
    "Effect",
    "EngineError",
    "Game",
    "IllegalAction",
    "Landing",
    "OptionError",
    "Outcome",
    "ParseError",
    "Termination",
    "get_game",
]
