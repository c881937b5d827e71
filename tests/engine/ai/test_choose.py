"""The practice opponent's contract: always a legal action, within its node budget,
reproducible from its seed, and the same from a state as from its text."""

from __future__ import annotations

import pickle
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import engine.ai
from engine.ai import Level, analyse, choose, evaluator, level
from engine.ai.search import Budget, Evaluator, Search
from engine.atmalof import Drop
from engine.core import OptionError, Outcome
from engine.playout import favouring, playout

CASES = [
    ("atmalof", "standard", {}),
    ("atmalof", "junior", {}),
    ("morris", "standard", {}),
    ("morris", "standard", {"flying": False, "no_remill": True, "move_limit": 10}),
    ("morris", "six", {}),
    ("morris", "twelve", {}),
    ("abalone", "standard", {}),
    ("abalone", "belgian-daisy", {}),
]
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def random_position(case: int, seed: int, plies: int) -> tuple[str, object]:
    """A position some random plies into a game (drops favoured, so Atmalof lines appear)."""
    name, variant, options = CASES[case]
    game = engine.get_game(name)
    prefer = None
    if name == "atmalof":
        prefer = favouring(Drop, 0.7)
    return name, playout(game, game.new(variant, **options), random.Random(seed), plies, prefer)


@SETTINGS
@given(
    case=st.integers(0, len(CASES) - 1),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 120),
    level_number=st.integers(1, 5),
)
def test_the_choice_is_always_legal(case: int, seed: int, plies: int, level_number: int) -> None:
    name, state = random_position(case, seed, plies)
    game = engine.get_game(name)
    if game.result(state) is not None:
        with pytest.raises(ValueError):
            choose(name, state, level_number, seed, nodes=300)
        return
    action = choose(name, state, level_number, seed, nodes=300)
    assert action in game.legal(state)
    assert game.is_legal(state, action)


@pytest.mark.parametrize("name", ["atmalof", "morris", "abalone"])
@pytest.mark.parametrize("nodes", [1, 57, 700])
def test_the_search_keeps_to_its_node_budget(name: str, nodes: int) -> None:
    game = engine.get_game(name)
    state = playout(game, game.new(), random.Random(3), 12)
    spec = Level(nodes=nodes, depth=20, seconds=60.0, noise=0.0, blunder=0.0)
    result = analyse(name, state, spec, seed=1)
    assert result.nodes == nodes  # depth 20 cannot finish: the whole budget is spent, no more
    assert result.action in game.legal(state)


@pytest.mark.parametrize("name", ["atmalof", "morris", "abalone"])
def test_the_same_seed_and_budget_give_the_same_choice_from_state_or_text(name: str) -> None:
    game = engine.get_game(name)
    state = playout(game, game.new(), random.Random(8), 15)
    text = game.to_text(state)
    chosen = {
        choose(name, state, 3, seed=42, nodes=2_000),
        choose(name, text, 3, seed=42, nodes=2_000),
        choose(name, pickle.loads(pickle.dumps(state)), 3, seed=42, nodes=2_000),
    }
    assert len(chosen) == 1


def test_low_levels_vary_with_the_seed_and_high_levels_do_not() -> None:
    game = engine.get_game("morris")
    state = game.new()
    low = {choose("morris", state, 1, seed=s) for s in range(12)}
    high = {choose("morris", state, 5, seed=s, nodes=3_000) for s in range(3)}
    assert len(low) > 3
    assert len(high) == 1


def test_a_level_outside_one_to_five_is_refused() -> None:
    with pytest.raises(OptionError):
        choose("morris", engine.get_game("morris").new(), 6)
    with pytest.raises(OptionError):
        level(0)


@pytest.mark.parametrize("name", ["atmalof", "morris", "abalone"])
def test_level_5s_cpu_bound_is_a_tenth_of_a_second_under_the_issues_two(name: str) -> None:
    # A search looks at the clock every 128 nodes and the caller's own work comes on top:
    # with a 2.0 s bound Abalone's level 5 measured 2.03 s (docs/practice.md). That the
    # bound stops a search is test_the_time_bound_stops_a_search_that_still_has_nodes.
    assert level(5, name).seconds <= 1.9


def test_a_finished_game_has_nothing_to_choose() -> None:
    game = engine.get_game("abalone")
    over = game.from_text("standard w4/1b4/2b4/bbb5/bbbbbb3/8/7/www3/wwww1 b 100")
    assert game.result(over) is not None
    with pytest.raises(ValueError):
        choose("abalone", over, 3)


@pytest.mark.parametrize("name", ["atmalof", "morris", "abalone"])
def test_the_time_bound_stops_a_search_that_still_has_nodes(name: str) -> None:
    # A clock that advances a tenth of a second at each look: a 2 s bound allows about 20
    # looks (one every 128 nodes), far below the node budget, and a legal action still comes.
    ticks = iter(range(10**6))
    game = engine.get_game(name)
    state = playout(game, game.new(), random.Random(5), 14)
    search = Search(
        game,
        evaluator(name),
        Budget(nodes=10**6, depth=30, seconds=2.0),
        clock=lambda: next(ticks) / 10,
    )
    result = search.run(state)
    assert 128 * 15 <= result.nodes <= 128 * 25
    assert game.is_legal(state, result.action)


class Sleepy:
    """A game's evaluator that sleeps at every node (its result check): the wall clock runs
    on, the process's CPU time hardly."""

    def __init__(self, inner: Evaluator, pause: float) -> None:
        self.inner, self.pause = inner, pause
        self.noise_scale = inner.noise_scale

    def key(self, state: Any) -> Hashable:
        return self.inner.key(state)

    def outcome(self, state: Any) -> Outcome | None:
        time.sleep(self.pause)
        return self.inner.outcome(state)

    def evaluate(self, state: Any) -> float:
        return self.inner.evaluate(state)

    def priority(self, state: Any, action: Any) -> float:
        return self.inner.priority(state, action)

    def chance_groups(
        self, state: Any, action: Any, faces: int
    ) -> Sequence[tuple[Hashable, int, int]]:
        return self.inner.chance_groups(state, action, faces)


def test_the_time_bound_counts_the_processs_cpu_seconds_not_the_wall_clock() -> None:
    # "Two seconds of one core" (levels.py): time the process waits (here 3 ms of sleep at
    # every node, as a machine busy with other work makes it wait) does not count. By the
    # wall clock the search would stop at its first look at the clock, 128 nodes in (at
    # least 0.384 s of sleep, past the 0.3 s bound); by CPU time, a few hundredths of a
    # second, it spends its whole node budget.
    game = engine.get_game("morris")
    state = playout(game, game.new(), random.Random(5), 14)
    budget = Budget(nodes=200, depth=30, seconds=0.3)
    result = Search(game, Sleepy(evaluator("morris"), 0.003), budget).run(state)
    assert result.nodes == 200
    assert game.is_legal(state, result.action)


def test_atmalof_level_5_sees_a_turn_deeper_than_level_4_within_its_node_budget() -> None:
    # A full-width third ply costs about fifty times the second; the beam (the opponent's
    # few best replies by one ply) lets level 5 finish it within its nodes, where the same
    # budget at full width does not (so the beam, not a lucky position, decides). The time
    # bound is lifted so that a busy machine cannot cut the search: the nodes alone decide.
    game = engine.get_game("atmalof")
    state = playout(game, game.new(), random.Random(4), 14, favouring(Drop, 0.7))
    assert game.result(state) is None
    five = replace(level(5, "atmalof"), seconds=600.0)
    four = replace(level(4, "atmalof"), seconds=600.0)
    deep = analyse("atmalof", state, five, seed=1)
    assert five.width and deep.depth == 3 and deep.nodes < five.nodes
    assert game.is_legal(state, deep.action)
    full = analyse("atmalof", state, replace(five, width=0), seed=1)
    assert full.depth == 2 and full.nodes == five.nodes  # the whole budget, a ply short
    assert analyse("atmalof", state, four, seed=1).depth == 2
