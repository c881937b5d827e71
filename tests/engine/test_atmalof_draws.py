"""Atmalof's referee draws (issue 13.8): the author gives none, yet pieces can shuffle for ever,
so the referee adds Morris's and Abalone's: a third repetition, and a move limit."""

from __future__ import annotations

import json

import pytest

from engine import OptionError, Termination
from engine.atmalof import GAME, AtmalofState
from engine.record import Record, Recorder, verify


def act(state: AtmalofState, text: str, roll: int | None = None) -> AtmalofState:
    return GAME.apply(state, GAME.parse(state, text), roll)


def shuffled(state: AtmalofState, times: int) -> list[AtmalofState]:
    """Red's piece on 4,1 and Blue's on 1,4 step away and back ``times`` rounds."""
    states = [state]
    steps = ("move 4,1 5,1", "move 1,4 1,5", "move 5,1 4,1", "move 1,5 1,4")
    for i in range(4 * times):
        states.append(act(states[-1], steps[i % 4]))
    return states


def with_two_pieces(**options: object) -> AtmalofState:
    state = act(GAME.new("standard", **options), "drop col 1", 4)  # Red lands on 4,1
    return act(state, "drop row 1", 4)  # Blue lands on 1,4


def test_the_draw_rules_are_options_of_every_variant_with_defaults() -> None:
    for variant in ("standard", "junior", "atmalos", "custom"):
        options = GAME.options(GAME.new(variant))
        assert (options["repetition"], options["move_limit"]) == (True, 50)
    state = GAME.new("standard", repetition="off", move_limit="0")
    assert (GAME.options(state)["repetition"], GAME.options(state)["move_limit"]) == (False, 0)
    with pytest.raises(OptionError, match="move_limit must be"):
        GAME.new("standard", move_limit=-1)
    with pytest.raises(OptionError, match="repetition must be on or off"):
        GAME.new("standard", repetition="maybe")


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    states = shuffled(with_two_pieces(), 2)
    assert all(GAME.result(s) is None for s in states[:-1])
    outcome = GAME.result(states[-1])
    assert outcome is not None and outcome.termination is Termination.REPETITION
    assert outcome.winner is None


def test_without_repetition_the_shuffle_goes_on() -> None:
    states = shuffled(with_two_pieces(repetition=False), 10)
    assert GAME.result(states[-1]) is None


def test_the_move_limit_counts_actions_each_since_a_piece_landed() -> None:
    state = with_two_pieces(repetition=False, move_limit=3)
    steps = ("move 4,1 5,1", "move 1,4 1,5", "move 5,1 4,1", "move 1,5 1,4")
    for number in range(1, 7):
        assert GAME.result(state) is None
        state = act(state, steps[(number - 1) % 4])
    assert state.quiet == 6
    outcome = GAME.result(state)
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT
    assert "3 actions each without a piece landing" in outcome.reason


def test_a_landing_piece_resets_the_count() -> None:
    state = with_two_pieces(repetition=False, move_limit=2)
    state = act(act(act(state, "move 4,1 5,1"), "move 1,4 1,5"), "move 5,1 4,1")
    assert state.quiet == 3
    state = act(state, "drop row 2", 2)  # Blue lands on 2,2
    assert state.quiet == 0 and GAME.result(state) is None


def test_the_position_text_keeps_the_count() -> None:
    state = shuffled(with_two_pieces(move_limit=7), 1)[-2]
    text = GAME.to_text(state)
    assert "quiet=3" in text and "move_limit=7" in text
    assert GAME.from_text(text) == state


def test_a_record_from_before_the_draw_options_replays_without_them() -> None:
    """Its stored options lack both, so the game was played (and must replay) without them."""
    rec = Recorder("atmalof", options={"repetition": False, "move_limit": 0}, game_id="old")
    rec.play("drop col 1")
    rec.play("drop col 7")
    (red,), (blue,) = rec.state.squares_of(0), rec.state.squares_of(1)
    steps = [
        f"move {red[0]},{red[1]} {red[0]},{red[1] + 1}",
        f"move {blue[0]},{blue[1]} {blue[0]},{blue[1] - 1}",
        f"move {red[0]},{red[1] + 1} {red[0]},{red[1]}",
        f"move {blue[0]},{blue[1] - 1} {blue[0]},{blue[1]}",
    ]
    for i in range(12):
        rec.play(steps[i % 4])
    data = json.loads(rec.finish().to_json())
    for key in ("repetition", "move_limit"):
        del data["options"][key]
    verdict = verify(Record.from_dict(data))
    assert verdict.ok, verdict.reason


def test_turns_the_die_wastes_never_repeat_a_position_into_a_draw() -> None:
    """Two players whose drops keep landing on taken squares have repeated nothing themselves:
    only positions reached by a step count, so the dice never draw a game (the move limit still
    counts the wasted turns)."""
    state = with_two_pieces()  # Red on 4,1, Blue on 1,4; Red to move
    for _ in range(12):  # each side announces the other's occupied square's line; both lost
        state = act(state, "drop col 1", 4) if state.to_move == 0 else act(state, "drop row 1", 4)
        assert GAME.result(state) is None
    assert state.quiet == 12
    limited = with_two_pieces(move_limit=3)
    for _ in range(6):
        limited = (
            act(limited, "drop col 1", 4) if limited.to_move == 0 else act(limited, "drop row 1", 4)
        )
    outcome = GAME.result(limited)
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT
