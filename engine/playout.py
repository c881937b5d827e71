"""Seeded random play over any game: random steps, playouts, mid-game positions, perft counts.

Tests, benchmarks and the render gallery all need "a position some way into a random game";
one seeded walk here means they reach the same positions the same way. Pure: the caller passes
the ``random.Random`` (or a seed), and every die is rolled from it, never from the dice module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.core import Game

Prefer = Callable[[Any, list[Any], random.Random], list[Any]]
"""(state, legal actions, rng) -> the actions to pick from (e.g. drops only, pushes first)."""


def favouring(kind: type, chance: float) -> Prefer:
    """Pick among the actions of type ``kind`` (say ``Drop``) with probability ``chance``,
    else among all; a player who drops early reaches lines and the tie-break sooner."""

    def prefer(state: Any, actions: list[Any], rng: random.Random) -> list[Any]:
        chosen = [a for a in actions if isinstance(a, kind)]
        return chosen if chosen and rng.random() < chance else actions

    return prefer


@dataclass(frozen=True, slots=True)
class Step:
    """One random ply: the position before, the action, its roll (or None), the position after."""

    before: Any
    action: Any
    roll: int | None
    after: Any


def random_steps(
    game: Game[Any, Any],
    state: Any,
    rng: random.Random,
    plies: int,
    prefer: Prefer | None = None,
) -> Iterator[Step]:
    """Up to ``plies`` random legal actions from ``state``, stopping when the game is over.

    Each ply draws ``rng.choice`` among the legal actions (narrowed by ``prefer``), then
    ``rng.randint(1, faces)`` when the action rolls a die.
    """
    for _ in range(plies):
        actions = game.legal(state)
        if not actions:
            return
        action = rng.choice(prefer(state, actions, rng) if prefer else actions)
        faces = game.die_faces(state, action)
        roll = rng.randint(1, faces) if faces else None
        after = game.apply(state, action, roll)
        yield Step(state, action, roll, after)
        state = after


def playout(
    game: Game[Any, Any],
    state: Any,
    rng: random.Random,
    plies: int = 1000,
    prefer: Prefer | None = None,
) -> Any:
    """The position after ``random_steps`` (the game's end, or ``plies`` actions in)."""
    for step in random_steps(game, state, rng, plies, prefer):
        state = step.after
    return state


def mid_game_positions(
    game: Game[Any, Any],
    variant: str = "standard",
    count: int = 100,
    *,
    seed: int = 2024,
    plies: tuple[int, int] = (10, 60),
    prefer: Prefer | None = None,
) -> list[Any]:
    """``count`` unfinished positions, each from a new seeded random game ``plies`` in (lo..hi-1).

    Games that end before their stop are skipped, so every position has legal actions.
    """
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = playout(game, game.new(variant), rng, rng.randrange(*plies), prefer)
        if game.result(state) is None:
            found.append(state)
    return found


def perft(game: Game[Any, Any], state: Any, depth: int) -> int:
    """Leaves of the game tree ``depth`` plies down, counting chance: a drop counts once per
    face of its die. Without dice this is the usual perft (1, 24, 552... for Morris)."""
    if depth <= 0:
        return 1
    actions = game.legal(state)
    if depth == 1:
        return sum(game.die_faces(state, a) or 1 for a in actions)
    total = 0
    for action in actions:
        faces = game.die_faces(state, action)
        for roll in range(1, faces + 1) if faces else (None,):
            total += perft(game, game.apply(state, action, roll), depth - 1)
    return total
