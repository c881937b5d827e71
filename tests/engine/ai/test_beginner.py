"""Level 1 plays like a beginner, not like a random mover: it blocks an open mill, closes its
own and saves a marble from being pushed off most of the time, and still errs now and then
(a player's finding: the old level 1 let three mills close in the first 16 plies;
docs/practice.md, "Morris levels 1 and 2, Abalone level 1").

Each test counts over 20 seeds, so it fails both ways: a level that ignores the threat (the
old Morris level 1 blocked about one placing-phase threat in five) and one that never errs.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.ai import choose
from engine.morris import Place

SEEDS = range(20)
MOST = 13  # of 20: the level's random moves (25%) leave about 15 on average


def _placed(*points: str) -> Any:
    """A standard Morris position after these placements, the sides alternating."""
    game = engine.get_game("morris")
    state = game.new("standard")
    for point in points:
        state = game.apply(state, game.parse(state, f"place {point}"))
    return state


def _places_at(state: Any, point: str, seed: int) -> bool:
    action = choose("morris", state, 1, seed)
    return type(action) is Place and action.point == state.rules.layout.point(point)


def test_morris_level_1_blocks_an_open_two_most_of_the_time() -> None:
    state = _placed("a7", "b2", "d7")  # White threatens g7; Black has no two of its own
    blocks = sum(_places_at(state, "g7", seed) for seed in SEEDS)
    assert MOST <= blocks < len(SEEDS)


def test_morris_level_1_closes_its_own_mill_most_of_the_time() -> None:
    state = _placed("a7", "b2", "d7", "b4")  # White can close at g7 (Black threatens b6)
    closes = sum(_places_at(state, "g7", seed) for seed in SEEDS)
    assert MOST <= closes < len(SEEDS)


def _exposed(game: Any, state: Any) -> bool:
    """Can the side to move push a marble off now?"""
    other = 2 - state.to_move
    before = state.board.count(other)
    return any(game.apply(state, a).board.count(other) < before for a in game.legal(state))


def test_abalone_level_1_saves_a_marble_from_a_push_off_most_of_the_time() -> None:
    game = engine.get_game("abalone")
    # White to move; Black could push a White marble off next; 10 of White's 79 moves
    # prevent every push-off (a position of a random game).
    state = game.from_text("standard bbbb1/bbb1b1/2b1bb1/5b1b/6b2/1wwww1w1/6w/w1ww2/wwwww w 23")
    safe = [a for a in game.legal(state) if not _exposed(game, game.apply(state, a))]
    assert 0 < len(safe) < len(game.legal(state)) // 4
    saves = sum(
        not _exposed(game, game.apply(state, choose("abalone", state, 1, seed))) for seed in SEEDS
    )
    assert MOST <= saves < len(SEEDS)
