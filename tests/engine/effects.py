"""What a line of commands did, action by action (``Game.effect``): shared by the games' tests."""

from __future__ import annotations

from typing import Any

from engine.core import Effect


def effects_of(
    game: Any, state: Any, commands: tuple[str, ...] | list[str]
) -> tuple[list[Effect], Any]:
    """Each command's effect in turn, and the position after the last."""
    effects = []
    for text in commands:
        action = game.parse(state, text)
        after = game.apply(state, action)
        effects.append(game.effect(state, action, None, after))
        state = after
    return effects, state
