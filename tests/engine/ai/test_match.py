"""The match runner: Wilson intervals, tallies over games, colours and openings per pair."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.ai.match import (
    Pairs,
    Tally,
    make_player,
    pairs,
    play_game,
    random_opening,
    run_match,
    summary,
    wilson,
)
from engine.atmalof import Drop, Move


def test_wilson_matches_the_textbook_values() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


def test_a_game_between_random_players_ends_by_the_rules_or_at_the_cap() -> None:
    player = make_player("atmalof", "random")
    winner, plies, capped = play_game("atmalof", (player, player), seed=3, max_plies=40)
    assert plies <= 40
    if capped:
        assert winner is None and plies == 40
    else:
        assert plies < 40 or winner is not None


def test_a_match_counts_every_game_once_and_alternates_colours() -> None:
    seats: list[int] = []

    def progress(g: int, result: int | None, plies: int) -> None:
        seats.append(g % 2)

    tally = run_match("morris", 2, "random", 4, seed=5, nodes_scale=0.2, progress=progress)
    assert tally.games == 4 == len(tally.plies)
    assert seats == [0, 1, 0, 1]
    assert all(p <= 600 for p in tally.plies)
    # The level's CPU per move is kept: one entry per action it chose, none for random's.
    assert len(tally.seconds) >= 4 and all(t >= 0 for t in tally.seconds)
    assert len(tally.seconds) <= sum(tally.plies)


def test_pairs_say_which_side_won_both_games_of_a_pair() -> None:
    # Game 2k: the level plays the first side; 2k+1: the second (a lone last game is no pair).
    results = [1, 1, 1, -1, -1, 1, -1, -1, 0, 1, 1, 1, -1]
    assert pairs(results) == Pairs(
        both_won=2, first_won_both=1, second_won_both=1, both_lost=1, with_a_draw=1
    )
    tally = Tally(wins=7, draws=1, losses=5, plies=[20] * 13, results=results)
    assert (
        "pairs (the same dice or opening, colours swapped): 2 won twice, 2 split "
        "(the first to move won both in 1, the second in 1), 1 lost twice, 1 with a draw"
    ) in summary("atmalof", 5, "greedy", tally)
    assert "pairs" not in summary("atmalof", 5, "greedy", Tally(wins=1, plies=[9], results=[1]))


def test_a_match_keeps_each_games_result_in_order() -> None:
    tally = run_match("atmalof", 1, "random", 4, seed=2, nodes_scale=0.2)
    assert len(tally.results) == 4 and set(tally.results) <= {-1, 0, 1}
    assert tally.results.count(1) == tally.wins and tally.results.count(-1) == tally.losses
    assert tally.results.count(0) == tally.draws


def test_openings_are_reproducible_from_their_seed_and_differ_between_pairs() -> None:
    openings = [random_opening("abalone", "standard", 1_000 + pair) for pair in range(4)]
    assert all(len(o) == 2 for o in openings)
    assert len({tuple(o) for o in openings}) > 1
    assert random_opening("abalone", "standard", 1_002) == openings[2]


def _red_landings(blue_steps: bool) -> list[int]:
    """The columns where Red's drops into rows 1 to 6 land, while Blue either drops into
    column 7 every turn or drops once and then steps up and down column 7 (no rolls)."""
    game = engine.get_game("atmalof")
    landed: list[int] = []
    seen: list[bytes] = []

    def red(state: Any, _history: list[Any], _seed: int) -> Any:
        if seen:
            pairs = enumerate(zip(seen[-1], state.board, strict=True))
            landed.extend(i % state.cols + 1 for i, (a, b) in pairs if b == 1 and a != 1)
        seen.append(state.board)
        return Drop("row", len(seen))

    def blue(state: Any, _history: list[Any], _seed: int) -> Any:
        steps = [a for a in game.legal(state) if isinstance(a, Move)]
        if blue_steps and steps:
            return next(m for m in steps if m.target[1] == 7)
        return Drop("col", 7)

    play_game("atmalof", (red, blue), seed=9, max_plies=13, dice_seed=4)
    return landed


def test_each_colour_rolls_the_same_dice_in_both_games_of_a_pair() -> None:
    # Blue's steps roll no die; Red's drops still meet the same values as when Blue drops.
    # (Row drops never land in column 7, so Blue never blocks them.)
    assert len(_red_landings(blue_steps=False)) == 6
    assert _red_landings(blue_steps=True) == _red_landings(blue_steps=False)
