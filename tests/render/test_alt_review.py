"""The alt text as a player hears it (the seventeenth session's review of games between two
people): what it says must be true of the variant on the board."""

from __future__ import annotations

import engine
import render
from translations import words

LANGUAGES = ("en", "eo", "hu", "is")
# a game between two people, Black's 35th push putting White's g3 marble off
PUSHES = [
    "a5 c5 nw",
    "i7 g5 sw",
    "a4 c4 nw",
    "i9 g7 sw",
    "a3 c5 ne",
    "g6 f6 se",
    "a2 e",
    "i6 h5 sw",
    "b1 ne",
    "i5 g5 se",
    "c2 ne",
    "h7 g7 se",
    "a1 e",
    "e6 w",
    "d3 sw",
    "h4 h6 e",
    "d6 d4 w",
    "g7 f7 se",
    "b4 d4 nw",
    "h6 se",
    "b5 w",
    "h5 w",
    "b6 w",
    "e7 w",
    "a3 c5 ne",
    "e6 e5 w",
    "e3 sw",
    "i8 h8 se",
    "b3 d5 ne",
    "h8 sw",
    "a2 ne",
    "f4 g4 sw",
    "b3 d3 nw",
    "h4 e",
    "c3 e3 nw",
]


def test_a_daisy_board_does_not_call_row_a_blacks_side() -> None:
    """In the daisy layouts both sides start on row A and on row I: row A is nobody's side."""
    for variant in ("belgian-daisy", "german-daisy"):
        state = engine.get_game("abalone").new(variant)
        for lang in LANGUAGES:
            text = render.alt_text("abalone", state, words=words(lang))
            side = words(lang).t("alt.abalone.rows")
            assert side not in text, (variant, lang, text)
            assert words(lang).t("alt.abalone.rows_daisy") in text, (variant, lang)
    standard = render.alt_text("abalone", engine.get_game("abalone").new("standard"))
    assert "Rows A (bottom, Black's side) to I" in standard


def test_a_sides_count_of_marbles_pushed_off_says_who_pushed_them() -> None:
    """'Black (14 marbles, 1 pushed off by them)' read as one of Black's 14 pushed off: the
    count is of the opponent's marbles Black has pushed off, as eo, hu and is already say."""
    rules = engine.get_game("abalone")
    state = rules.new("standard")
    for text in PUSHES:
        state = rules.apply(state, rules.parse(state, f"push {text}"))
    alt = render.alt_text("abalone", state)
    assert "by them" not in alt, alt
    assert "Black (14 marbles on the board, has pushed off 1):" in alt, alt
    assert "White (13 marbles on the board, has pushed off 0):" in alt, alt


def _drop(text: str, roll: int, *, ply: int = 0) -> tuple[object, render.Last]:
    rules = engine.get_game("atmalof")
    before = rules.new("standard")
    if ply:  # Red's piece on (4,4) first, then Blue's drop
        before = rules.apply(before, rules.parse(before, "drop row 4"), 4)
    action = rules.parse(before, text)
    return rules.apply(before, action, roll), render.Last(before, action, roll)


def test_an_atmalof_drop_is_said_as_a_sentence_with_its_roll() -> None:
    """'Last: Red row 4: lands on (4,4) (the die rolled 4).' was the image's caption with the
    roll tacked on; a listener hears who announced what, the roll, then where it landed."""
    after, last = _drop("drop row 4", 4)
    alt = render.alt_text("atmalof", after, last)
    assert "Last: Red announced row 4 and rolled 4: a piece landed on (4,4)." in alt, alt
    after, last = _drop("drop col 4", 4, ply=1)
    alt = render.alt_text("atmalof", after, last)
    assert "Last: Blue announced column 4 and rolled 4: (4,4) is occupied, the turn is lost." in alt
    for lang in LANGUAGES:  # each language begins as its announcement did
        w = words(lang)
        for text, ply, axis in (("drop row 4", 0, "row"), ("drop col 4", 1, "col")):
            after, last = _drop(text, 4, ply=ply)
            said = render.renderer("atmalof").said(last, w)
            side = w.t(f"side.atmalof.{ply}")
            announced = w.t(f"atmalof.announced.{axis}", side=side, k=4)
            assert said.startswith(announced) and "(4,4)" in said, (lang, said, announced)
            assert said in render.alt_text("atmalof", after, last, words=w), lang


def test_a_push_off_says_the_marble_went_off_from_where_it_stood() -> None:
    """'the opposing marble on g3 is off!' while the alt text lists a White marble on g3 (the
    one pushed back onto it): the sentence says the marble that stood there went off."""
    rules = engine.get_game("abalone")
    state = rules.new("standard")
    for text in PUSHES[:-1]:
        state = rules.apply(state, rules.parse(state, f"push {text}"))
    action = rules.parse(state, "push c3 e3 nw")
    after, last = rules.apply(state, action), render.Last(state, action)
    alt = render.alt_text("abalone", after, last)
    said = (
        "Black pushed c3-e3 north-west: the White marble that stood on g3 went off the board "
        "(White has lost 1 of 6)"
    )
    assert f"Last: {said}." in alt and "from g3" not in alt, alt
    for lang in LANGUAGES:
        w = words(lang)
        caption = w.t("abalone.pushed_off", side=w.t("side.abalone.0"), span="c3-e3",
                      dir=w.t("dir.nw"), other=w.t("side.abalone.1"), off="g3", n=1,
                      goal=6)  # fmt: skip
        alt = render.alt_text("abalone", after, last, words=w)
        assert caption not in alt and "g3" in render.renderer("abalone").said(last, w), lang
