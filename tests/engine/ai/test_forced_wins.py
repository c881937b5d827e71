"""The practice opponent finds the wins it must find and stops the loss it must stop, at every
level that searches (levels 1 and 2 may play a random move on purpose; see engine/ai/levels.py).
Positions are built from text, in each game's own position format."""

from __future__ import annotations

from dataclasses import replace

import pytest

import engine
from engine.ai import analyse, choose, choose_turn, level
from engine.atmalof import Drop
from engine.core import Termination
from engine.morris import POINT_NAMES, Move, Remove

SEARCHING_LEVELS = (3, 4, 5)


def morris_position(white: set[str], black: set[str], turn: str = "w") -> str:
    board = "".join("W" if p in white else "B" if p in black else "." for p in POINT_NAMES)
    return f"standard board={board} hand=0,0 turn={turn} ply=40 quiet=0"


# Rows 2, 3, 5 and 6 hold Red columns 1-4 and 6, and (2,3) (3,4) (5,6) (6,7) make a diagonal
# through (4,5): whatever the die says after "drop row 4", the piece completes a five.
ATMALOF_ANY_ROLL_WINS = (
    "standard board=BB.BB../RRRR.R./RRRR.R./......./RRRR.R./RRRR.RR/BB.BB.. "
    "hands=1,14 turn=red ply=60"
)


@pytest.mark.parametrize("level_number", SEARCHING_LEVELS)
def test_atmalof_plays_the_certain_win(level_number: int) -> None:
    game = engine.get_game("atmalof")
    state = game.from_text(ATMALOF_ANY_ROLL_WINS)
    action = choose("atmalof", state, level_number, seed=11)
    if isinstance(action, Drop):
        rolls = range(1, game.die_faces(state, action) + 1)
        outcomes = [game.result(game.apply(state, action, roll)) for roll in rolls]
    else:  # a step that completes a five is as certain as the drop
        outcomes = [game.result(game.apply(state, action))]
    assert all(o is not None and o.termination is Termination.LINE for o in outcomes)
    assert all(o.winner == 0 for o in outcomes if o is not None)


def test_atmalof_values_the_drop_that_any_roll_completes_as_a_win() -> None:
    result = analyse("atmalof", ATMALOF_ANY_ROLL_WINS, level(3), seed=1)
    assert result.value > 900_000  # a win (less its distance), not a good-looking position


def test_atmalof_a_line_the_die_may_miss_is_worth_a_fraction_of_a_win() -> None:
    # Red's column 1 has rows 2, 3, 5 and 6; no step reaches (4,1), and a drop lands there on
    # one face of six ("drop col 2" is better still: three faces put a piece next to (4,1),
    # from where a step completes the five next turn). Expectimax averages over the die.
    text = (
        "standard board=......B/R.....B/R....../......./R....../R....../...BB.. "
        "hands=18,18 turn=red ply=8"
    )
    result = analyse("atmalof", text, level(3), seed=1)
    assert isinstance(result.action, Drop)
    assert 100_000 < result.value < 900_000  # a chance of a win, not a certain one


@pytest.mark.parametrize("level_number", SEARCHING_LEVELS)
def test_morris_closes_the_mill_that_wins(level_number: int) -> None:
    game = engine.get_game("morris")
    # White moves g4-g7 to close a7-d7-g7; Black has three men, so any removal wins.
    text = morris_position({"a7", "d7", "g4", "b2", "f2"}, {"c5", "e5", "d3"})
    state = game.from_text(text)
    action = choose("morris", text, level_number, seed=5, nodes=4_000)
    assert action == Move(POINT_NAMES.index("g4"), POINT_NAMES.index("g7"))
    pending = game.apply(state, action)
    assert pending.to_move == 0 and pending.pending  # the same side now removes
    removal = choose("morris", pending, level_number, seed=5)
    assert isinstance(removal, Remove)
    outcome = game.result(game.apply(pending, removal))
    assert outcome is not None and outcome.winner == 0


@pytest.mark.parametrize("level_number", (1, *SEARCHING_LEVELS))
def test_the_bots_turn_is_the_mill_and_the_removal_its_search_chose(level_number: int) -> None:
    """``choose_turn`` gives the mill and its removal at once (the practice opponent plays
    them as one command); the removal is the one the same search chose below the mill, so a
    removal that does not win (d3 instead of c5 or e5, which break nothing) is never it."""
    game = engine.get_game("morris")
    text = morris_position({"a7", "d7", "g4", "b2", "f2"}, {"c5", "e5", "d3"})
    state = game.from_text(text)
    mill, removal = choose_turn("morris", text, level_number, seed=5, nodes=4_000)
    if level_number > 1:  # level 1 may play a random move on purpose
        assert mill == Move(POINT_NAMES.index("g4"), POINT_NAMES.index("g7"))
        spec = replace(level(level_number, "morris"), nodes=4_000)
        found = analyse("morris", state, spec, seed=5)
        assert found.then == removal  # from the table: no second search
    pending = game.apply(state, mill)
    assert pending.to_move == 0 and pending.pending and removal in game.legal(pending)
    outcome = game.result(game.apply(pending, removal))
    assert level_number == 1 or (outcome is not None and outcome.winner == 0)


def test_a_turn_without_a_mill_is_one_action() -> None:
    for name in ("atmalof", "morris", "abalone"):
        state = engine.get_game(name).new()
        (action,) = choose_turn(name, state, 3, seed=2, nodes=300)
        assert action in engine.get_game(name).legal(state)


@pytest.mark.parametrize("level_number", SEARCHING_LEVELS)
def test_morris_blocks_the_mill_that_would_lose(level_number: int) -> None:
    game = engine.get_game("morris")
    # White has three men (it may fly); Black threatens g4-g7, closing a7-d7-g7.
    text = morris_position({"a1", "d5", "f6"}, {"a7", "d7", "g4", "c4"})
    action = choose("morris", text, level_number, seed=5, nodes=4_000)
    assert isinstance(action, Move) and POINT_NAMES[action.dst] == "g7"
    assert game.result(game.from_text(text)) is None


@pytest.mark.parametrize("level_number", SEARCHING_LEVELS)
def test_abalone_pushes_off_the_sixth_marble(level_number: int) -> None:
    game = engine.get_game("abalone")
    # White has lost five; Black's c3-b2 pushes a1 off to the south-west.
    text = "standard w4/1b4/2b4/bbb5/bbbbbb3/8/7/www3/wwwww b 100"
    state = game.from_text(text)
    action = choose("abalone", text, level_number, seed=2)
    outcome = game.result(game.apply(state, action))
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.SIX_OFF, 0)
