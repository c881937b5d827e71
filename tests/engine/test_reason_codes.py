"""Every refusal of a command or an action carries a reason code of its own and parameters a
translator can use (plain values: text, numbers, true/false, lists of text), besides the English
message. Random commands built from each game's words, on random positions, reach the refusal
paths; so do actions of one position applied to another."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.core import EngineError, IllegalAction, ParseError
from engine.playout import playout

WORDS = {
    "atmalof": [
        "drop", "move", "row", "col", "column", "r4", "c9", "4", "0", "99", "1,1", "4,4",
        "3,4", "8,8", "r3c4", "ne", "sw", "x", "to", "north", "up",
    ],
    "morris": [
        "place", "move", "fly", "remove", "take", "a7", "d7", "d6", "g1", "a1", "b", "x", "z9",
        "d5", "g7", "b6", "c5", "e4",
    ],
    "abalone": [
        "push", "a1", "a3", "c3", "b2", "e5", "i9", "i5", "g5", "ne", "e", "sw", "w", "nw",
        "up", "a1b2", "c3c5d4", "z1",
    ],
}  # fmt: skip
CODES_OF_CLASS = {ParseError.default_code, IllegalAction.default_code, EngineError.default_code}
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _plain(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return all(_plain(v) for v in value)
    return isinstance(value, str | int | bool)


def _check(error: EngineError) -> None:
    assert error.code not in CODES_OF_CLASS, f"no code of its own: {error}"
    assert error.code.isidentifier() and error.code.islower()
    assert all(_plain(v) for v in error.params.values()), error.params
    assert str(error)  # the English message is kept


def _positions(name: str) -> list[Any]:
    game = engine.get_game(name)
    rng = random.Random(5)
    return [playout(game, game.new(), rng, plies) for plies in (0, 3, 12, 40, 120, 400)]


POSITIONS = {name: _positions(name) for name in engine.GAME_NAMES}


@pytest.mark.parametrize("name", engine.GAME_NAMES)
@SETTINGS
@given(data=st.data())
def test_every_refused_command_has_a_code(name: str, data: st.DataObject) -> None:
    game = engine.get_game(name)
    state = data.draw(st.sampled_from(POSITIONS[name]))
    words = data.draw(st.lists(st.sampled_from(WORDS[name]), min_size=0, max_size=5))
    try:
        game.parse(state, " ".join(words))
    except EngineError as error:
        _check(error)


@pytest.mark.parametrize("name", engine.GAME_NAMES)
def test_every_refused_action_has_a_code(name: str) -> None:
    """Legal actions of every position applied to every other (and to the finished ones)."""
    game = engine.get_game(name)
    positions = POSITIONS[name]
    actions = {a for s in positions for a in game.legal(s)}
    refused = 0
    for state in positions:
        for action in sorted(actions, key=repr)[:400]:
            faces = game.die_faces(state, action)
            try:
                game.apply(state, action, 1 if faces else None)
            except IllegalAction as error:
                _check(error)
                refused += 1
    assert refused > 50


@pytest.mark.parametrize(
    ("name", "moves", "text", "code", "params"),
    [
        ("atmalof", [], "move 1,1 1,2", "empty", {"square": "1,1"}),
        ("atmalof", [], "drop row 9", "no_such_line", {"axis": "row", "index": 9, "limit": 7}),
        ("atmalof", [], "jump 1,1", "unknown_command", {"token": "jump"}),  # quoted by a catalog
        ("morris", ["place d7"], "place d7", "occupied", {"point": "d7"}),
        ("morris", [], "move a7 d7", "men_to_place", {"side": 0, "men": 9}),
        ("morris", [], "place q9", "not_a_point", {"token": "q9"}),
        ("abalone", [], "push a1 a3 w", "own_marble_off", {"cell": "a1", "direction": "w"}),
        ("abalone", [], "push e5 ne", "empty", {"cell": "e5"}),
        ("abalone", [], "push a1 b4 ne", "not_in_line", {"first": "a1", "last": "b4"}),
    ],
)
def test_codes_and_params_of_known_refusals(
    name: str, moves: list[str], text: str, code: str, params: dict[str, Any]
) -> None:
    game = engine.get_game(name)
    state = game.new()
    for move in moves:
        state = game.apply(state, game.parse(state, move))
    with pytest.raises(EngineError) as caught:
        game.parse(state, text)
    assert (caught.value.code, caught.value.params) == (code, params)


@pytest.mark.parametrize("name", sorted(WORDS))
def test_a_first_word_that_is_no_command_of_the_game_is_unknown(name: str) -> None:
    """Each game names a first word it has no command for (the referee tells an unknown word
    from a move word with bad arguments by it), with the word as typed, unquoted."""
    game = engine.get_game(name)
    with pytest.raises(ParseError) as caught:
        game.parse(game.new(), "hello there")
    assert caught.value.code == "unknown_command" and caught.value.params["token"] == "hello"
    title = {"atmalof": "an Atmalof", "morris": "a Nine Men's Morris", "abalone": "an Abalone"}
    assert str(caught.value).startswith(f"'hello' is not {title[name]} command: ")  # which game's
    for known in {"atmalof": "drop", "morris": "place", "abalone": "push"}[name], WORDS[name][1]:
        try:
            game.parse(game.new(), known)
        except EngineError as exc:
            assert exc.code != "unknown_command", (known, exc)
