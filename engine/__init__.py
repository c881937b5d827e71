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

REGISTRY: dict[str, str] = {
    "atmalof": "engine.atmalof",
    "morris": "engine.morris",
    "abalone": "engine.abalone",
}
"""Every game: its name and the subpackage whose ``GAME`` plays it (imported on first use)."""
GAME_NAMES: tuple[str, ...] = tuple(REGISTRY)
_LOADED: dict[str, Game[Any, Any]] = {}
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
    game = _LOADED.get(key)
    if game is None:
        if key not in REGISTRY:
            raise OptionError(
                f"unknown game {name!r}: choose one of {', '.join(GAME_NAMES)}",
                "unknown_game",
                name=str(name)[:40],
                choices=list(GAME_NAMES),
            )
        game = _LOADED[key] = import_module(REGISTRY[key]).GAME
    return game


def game_of(state: Any) -> str:
    """The name of the game a state belongs to (from the subpackage that defines its type)."""
    module = type(state).__module__
    for name, package in REGISTRY.items():
        if module == package or module.startswith(package + "."):
            return name
    raise OptionError(f"a {type(state).__name__} is no game's state", "unknown_state")


__all__ = [
    "GAME_NAMES",
    "REGISTRY",
    "Effect",
    "EngineError",
    "Game",
    "IllegalAction",
    "Landing",
    "OptionError",
    "Outcome",
    "ParseError",
    "Termination",
    "game_of",
    "get_game",
]
