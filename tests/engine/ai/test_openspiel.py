"""Our Morris and OpenSpiel's nine_mens_morris agree action for action (the [bench] extra)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai.openspiel import from_openspiel, to_openspiel

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize("seed", range(4))
def test_a_random_game_maps_both_ways_at_every_ply(seed: int) -> None:
    game = engine.get_game("morris")
    os_game = pyspiel.load_game("nine_mens_morris")
    state, os_state = game.new(), os_game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(150):
        if game.result(state) is not None or os_state.is_terminal():
            break
        ours = game.legal(state)
        assert sorted(to_openspiel(os_state, a) for a in ours) == sorted(os_state.legal_actions())
        assert [from_openspiel(state, os_state, to_openspiel(os_state, a)) for a in ours] == ours
        assert state.to_move == os_state.current_player()
        action = rng.choice(ours)
        os_state.apply_action(to_openspiel(os_state, action))
        state = game.apply(state, action)
