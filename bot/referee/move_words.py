"""Which typed words are moves: the first word of a command as the games read it, and whether
any game knows it (so an unknown word is told apart from a move with bad arguments)."""

from __future__ import annotations

import functools
from typing import Any

import engine
from engine import EngineError, ParseError


@functools.cache
def _fresh(name: str) -> Any:
    """A game's opening position, to ask its parser about a word."""
    return engine.get_game(name).new()


@functools.lru_cache(maxsize=1024)
def is_move_word(word: str) -> bool:
    """Whether some game has a command that starts with ``word`` ("drop", "place", "push",
    "c3"): only a word no game knows (each parser's ``unknown_command`` code) is an unknown
    command; a move word with bad arguments keeps its game's syntax hint."""
    for name in engine.GAME_NAMES:
        try:
            engine.get_game(name).parse(_fresh(name), word)
        except ParseError as exc:
            if exc.code == "unknown_command":
                continue
        except EngineError:
            pass
        return True
    return False


def first_word(text: str) -> str:
    """The first word of a command as the games read it (lower case), "" for none."""
    words = str(text).lower().split()
    return words[0] if words else ""
