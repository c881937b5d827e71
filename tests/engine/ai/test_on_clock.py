"""The practice opponent's time management (``engine.ai.on_clock``): a clocked search gets a
share of what is left on the bot's clock, so a short clock no longer runs out under it (a
player's finding: level 5 lost a 1+0 Abalone game on time after 37 moves, 3-0 up)."""

from __future__ import annotations

import pytest

import engine
import engine.ai
from engine.ai import level, on_clock
from engine.ai.levels import FLOOR, RESERVE


def test_plenty_of_time_leaves_the_level_as_it_is() -> None:
    spec = level(5, "abalone")
    assert on_clock(spec, 3600.0, 0.0) is spec  # an hour: the level's own 1.9 s bound
    assert on_clock(spec, 60.0, 10.0) is spec  # a large increment pays for the whole search


@pytest.mark.parametrize(
    ("remaining", "increment", "seconds"),
    [
        (60.0, 0.0, (60.0 - RESERVE) / 40),  # 1+0 at the start: a fortieth of the bank
        (20.0, 0.0, (20.0 - RESERVE) / 40),
        (20.0, 1.0, (20.0 - RESERVE) / 40 + 0.75),  # and three quarters of the increment
        (2.5, 0.0, FLOOR),  # nearly out: never below the floor
        (-1.0, 0.0, FLOOR),  # (a reading just past the flag: still a move to make)
    ],
)
def test_a_clocked_search_spends_a_share_of_the_bank_and_the_increment(
    remaining: float, increment: float, seconds: float
) -> None:
    spec = level(5, "abalone")
    timed = on_clock(spec, remaining, increment)
    assert timed.seconds == pytest.approx(seconds)
    # the node budget shrinks with the bound, so the nodes (not the machine) still end it
    assert timed.nodes == max(1, int(spec.nodes * timed.seconds / spec.seconds))
    assert (timed.depth, timed.noise, timed.blunder, timed.width) == (
        spec.depth,
        spec.noise,
        spec.blunder,
        spec.width,
    )


def test_a_bank_spent_move_by_move_lasts_well_past_the_reviews_37_moves() -> None:
    """A 1+0 bank, the player answering at once, and each search using its whole bound plus a
    tenth of a second of wall clock: the bank shrinks by a fortieth a move, not by 1.9 s."""
    bank, spec = 60.0, level(5, "abalone")
    for _ in range(100):
        bank -= on_clock(spec, bank, 0.0).seconds + 0.1
    assert bank > 0.0, bank


def test_the_same_budget_gives_the_same_turn() -> None:
    """A result depends on the seed and the budget: one clock reading, one move."""
    abalone = engine.get_game("abalone")
    state = abalone.new("standard")
    timed = on_clock(level(5, "abalone"), 8.0, 0.0)
    turns = {
        str(engine.ai.choose_turn("abalone", state, 5, 3, nodes=timed.nodes, seconds=5.0))
        for _ in range(2)
    }
    assert len(turns) == 1
