"""Faces searched once: the Atmalof evaluation groups a drop's faces by the position they lead
to, and the search weighs one search per group. A grouping that joined two different positions
would make the search value the wrong one, so the groups are checked against the engine's own
``apply``, and the grouped search against one that searches every face."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.ai import evaluator
from engine.ai.atmalof import AtmalofEvaluator
from engine.ai.search import Budget, Search, each_face
from engine.atmalof import Drop
from engine.playout import favouring, playout

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
GAME = engine.get_game("atmalof")
EVAL = AtmalofEvaluator()


def _position(variant: str, seed: int, plies: int) -> Any:
    return playout(GAME, GAME.new(variant), random.Random(seed), plies, favouring(Drop, 0.7))


def _whole(state: Any) -> tuple[Any, ...]:
    """Everything a state carries, the fields equality leaves out included."""
    return (GAME.to_text(state), state.history, state.outcome, state.quiet, state.hands)


@SETTINGS
@given(
    variant=st.sampled_from(["standard", "junior", "atmalos"]),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 60),
)
def test_faces_in_one_group_lead_to_one_position(variant: str, seed: int, plies: int) -> None:
    state = _position(variant, seed, plies)
    if GAME.result(state) is not None:
        return
    by_group: dict[Hashable, tuple[Any, ...]] = {}
    for action in GAME.legal(state):
        faces = GAME.die_faces(state, action)
        if not faces:
            continue
        groups = EVAL.chance_groups(state, action, faces)
        assert sum(count for _, count, _ in groups) == faces
        assert len({group for group, _, _ in groups}) == len(groups)
        children = {roll: _whole(GAME.apply(state, action, roll)) for roll in range(1, faces + 1)}
        for group, _, roll in groups:
            # The group's roll stands for the group: every position the group covers is its.
            by_group.setdefault(group, children[roll])
            assert by_group[group] == children[roll]
        # Every face is in the group of the position it makes, and is counted once.
        counted = {group: count for group, count, _ in groups}
        for child in children.values():
            matches = [g for g, _, r in groups if children[r] == child]
            assert len(matches) == 1
            counted[matches[0]] -= 1
        assert set(counted.values()) == {0}
    positions = list(by_group.values())
    assert len(positions) == len(set(positions))  # different groups: different positions


class _EveryFace:
    """The Atmalof evaluator with every face its own group: the search without grouping."""

    def __init__(self) -> None:
        self.inner = AtmalofEvaluator()
        self.noise_scale = self.inner.noise_scale

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def chance_groups(
        self, state: Any, action: Any, faces: int
    ) -> Sequence[tuple[Hashable, int, int]]:
        return each_face(action, faces)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("width", [0, 4])
def test_grouped_faces_give_the_values_of_every_face_searched(seed: int, width: int) -> None:
    state = _position("standard", seed, 10 + 3 * seed)
    if GAME.result(state) is not None:
        pytest.skip("the playout ended the game")
    budget = Budget(nodes=10**7, depth=2, seconds=600.0, width=width)
    grouped = Search(GAME, evaluator("atmalof"), budget).run(state)
    every = Search(GAME, _EveryFace(), budget).run(state)  # type: ignore[arg-type]
    assert grouped.depth == every.depth == 2
    assert grouped.value == pytest.approx(every.value, rel=1e-9, abs=1e-6)
    assert grouped.nodes < every.nodes  # the point of grouping: fewer positions searched
