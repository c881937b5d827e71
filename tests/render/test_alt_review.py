"""The alt text as a player hears it (the seventeenth session's review of games between two
people): what it says must be true of the variant on the board."""

from __future__ import annotations

import engine
import render
from translations import words

LANGUAGES = ("en", "eo", "hu", "is")


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
