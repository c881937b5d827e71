"""Seeded random games: the gallery's pictures and the sample each palette is built from."""

from __future__ import annotations

import random
from typing import Any

import engine
from engine.playout import Prefer, random_steps
from render.model import Last


def random_game(
    game_name: str,
    variant: str = "standard",
    seed: int = 1,
    plies: int = 2000,
    prefer: Prefer | None = None,
    **options: Any,
) -> list[tuple[Any, Last | None]]:
    """A seeded random game as (state, last) pairs, the start first (last None)."""
    game = engine.get_game(game_name)
    state = game.new(variant, **options)
    steps = random_steps(game, state, random.Random(seed), plies, prefer)
    return [(state, None)] + [(s.after, Last(s.before, s.action, s.roll)) for s in steps]
