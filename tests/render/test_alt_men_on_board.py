"""The alt text tells a side's men in hand apart from the points they stand on, and lists
those points in the game's notation order, as a reader looks them up."""

from __future__ import annotations

import engine
import render
from translations import words


def _after(game: str, moves: list[str], rolls: dict[int, int] | None = None) -> object:
    rules = engine.get_game(game)
    state = rules.new("standard")
    for i, text in enumerate(moves):
        state = rules.apply(state, rules.parse(state, text), (rolls or {}).get(i))
    return state


def test_morris_men_on_the_board_are_not_in_hand_and_read_in_order() -> None:
    state = _after("morris", ["place g7", "place d1", "place a1", "place b2", "place a4"])
    text = render.alt_text("morris", state)
    assert "White: 6 in hand; on the board: a1, a4, g7." in text
    assert "Black: 7 in hand; on the board: b2, d1." in text


def test_atmalof_pieces_on_the_board_are_said_by_row_then_column() -> None:
    text = render.alt_text("atmalof", _after("atmalof", []))
    assert "Red: 22 in hand; on the board: none." in text
    drops = ["drop row 6", "drop row 2", "drop row 1", "drop col 2"]
    state = _after("atmalof", drops, {0: 5, 1: 5, 2: 3, 3: 6})
    text = render.alt_text("atmalof", state)
    assert "Red: 20 in hand; on the board: (1,3), (6,5)." in text  # (6,5) dropped first
    assert "Blue: 20 in hand; on the board: (2,5), (6,2)." in text


def test_every_language_says_in_hand_apart_from_on_the_board() -> None:
    state = _after("morris", ["place g7", "place d1", "place a1"])
    for lang in ("en", "eo", "hu", "is"):
        text = render.alt_text("morris", state, words=words(lang))
        assert "a1, g7." in text, lang
        assert "(2 " not in text and "(7 " not in text, lang  # no "(7 in hand): a1 g7"


def test_the_men_a_mill_may_take_are_listed_as_the_board_lists_them() -> None:
    """ "must remove one of: b2 d1" read unlike every other list of points in the alt text."""
    moves = ["place a7", "place a1", "place d7", "place d1", "place g7"]  # White's mill
    text = render.alt_text("morris", _after("morris", moves))
    assert "White must remove one of: a1, d1." in text, text


def test_the_turn_sentence_of_an_owed_removal_says_the_removal_as_the_badge_does() -> None:
    """The badge said "TO REMOVE" and the embed "to remove" while the alt text said "to move"."""
    moves = ["place a7", "place a1", "place d7", "place d1", "place g7"]  # White's mill
    state = _after("morris", moves)
    text = render.alt_text("morris", state, players=["Alice", "Bob"])
    assert "Alice (White) to remove one of Black's men." in text, text
    assert "to move" not in text, text
    for lang in ("en", "eo", "hu", "is"):
        said = render.alt_text("morris", state, players=["Alice", "Bob"], words=words(lang))
        moving = words(lang).t("alt.to_move", who="Alice")
        assert moving.split("Alice")[-1].strip() not in said.split(".")[1], (lang, said)
    after = _after("morris", [*moves, "remove a1"])
    assert "Bob (Black) to move." in render.alt_text("morris", after, players=["Alice", "Bob"])
