"""The match runner: Wilson intervals, tallies over games, colours and openings per pair."""

from __future__ import annotations

import pytest

from engine.ai.match import make_player, play_game, random_opening, run_match, wilson


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


def test_openings_are_reproducible_from_their_seed_and_differ_between_pairs() -> None:
    openings = [random_opening("abalone", "standard", 1_000 + pair) for pair in range(4)]
    assert all(len(o) == 2 for o in openings)
    assert len({tuple(o) for o in openings}) > 1
    assert random_opening("abalone", "standard", 1_002) == openings[2]
