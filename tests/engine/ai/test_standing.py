"""``engine.ai.standing``: how a seat stands by the greedy look one ply ahead, the measure the
practice opponent answers draw offers by (docs/practice.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.ai import evaluator, standing
from engine.ai.levels import GREEDY
from engine.ai.search import WIN, Budget, Search


def positions(name: str, seed: int, count: int) -> list[Any]:
    """Positions of random games, every tenth ply, games over included."""
    game = engine.get_game(name)
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new("standard")
        for ply in range(300):
            if ply % 10 == 9 or game.result(state) is not None:
                found.append(state)
            if game.result(state) is not None:
                break
            action = rng.choice(game.legal(state))
            faces = game.die_faces(state, action)
            state = game.apply(state, action, rng.randint(1, faces) if faces else None)
    return found[:count]


@pytest.mark.parametrize("name", ["atmalof", "morris", "abalone"])
def test_one_seat_stands_as_well_as_the_other_stands_badly(name: str) -> None:
    for state in positions(name, 3, 12):
        assert standing(name, state, 0) == -standing(name, state, 1)


@pytest.mark.parametrize("name", ["atmalof", "morris"])
def test_a_finished_game_stands_won_lost_or_even(name: str) -> None:
    game = engine.get_game(name)
    ended = [s for s in positions(name, 5, 40) if game.result(s) is not None]
    assert ended, "no random game ended"
    for state in ended:
        winner = game.result(state).winner
        for seat in (0, 1):
            expected = 0.0 if winner is None else WIN if winner == seat else -WIN
            assert standing(name, state, seat) == expected


def test_a_five_one_step_away_stands_won_for_its_owner_whoever_is_to_move() -> None:
    """Red's four on row 1 has its hole at the fifth square and a Red piece one step from it:
    with Red to move that is a win next ply; with Blue to move Blue cannot stop it, so Blue's
    best look still stands far worse than even."""
    board = "RRRR.../....R../......./......./......./......./......B"
    game = engine.get_game("atmalof")
    red = game.from_text(f"standard board={board} hands=17,21 turn=red ply=10")
    assert standing("atmalof", red, 0) == WIN - 1 and standing("atmalof", red, 1) == 1 - WIN
    blue = game.from_text(f"standard board={board} hands=17,21 turn=blue ply=10")
    assert standing("atmalof", blue, 0) > 0.5 * WIN


def test_a_position_with_one_action_is_valued_all_the_same() -> None:
    """``run`` spares the search when one action is legal; ``standing`` needs the value. White's
    only move here is b6-b4 (from a random game)."""
    game = engine.get_game("morris")
    state = game.from_text("standard board=..BWBWBWB...WBB..BB..B.. hand=0,0 turn=w ply=81")
    (action,) = game.legal(state)
    budget = Budget(GREEDY.nodes, GREEDY.depth, GREEDY.seconds)
    assert Search(game, evaluator("morris"), budget).run(state).value == 0.0
    child = game.apply(state, action)
    assert game.result(child) is None and child.to_move != state.to_move
    after = -evaluator("morris").evaluate(child)
    assert after != 0.0 and standing("morris", state, 0) == after
