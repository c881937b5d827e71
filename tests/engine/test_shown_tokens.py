"""A player's token in an error's parameters (each language's message shows it): every game
cuts it and shows unprintable characters as '?', with one helper (engine.core.shown_token)."""

from __future__ import annotations

import pytest

import engine
from engine.core import ParseError, shown_token


def test_shown_token_cuts_and_masks() -> None:
    assert shown_token("drop") == "drop"
    assert shown_token("x" * 30) == "x" * 24 + "..."
    assert shown_token("ab\u200bc\x00", 16) == "ab?c?"


@pytest.mark.parametrize("game", engine.GAME_NAMES)
def test_an_unknown_command_echoes_its_word_cut_and_printable(game: str) -> None:
    rules = engine.get_game(game)
    word = "zz\u200b" + "q" * 40  # no game's command; a zero-width space inside
    with pytest.raises(ParseError) as caught:
        rules.parse(rules.new(), word)
    assert caught.value.code == "unknown_command"
    token = str(caught.value.params["token"])
    assert token.isprintable() and token.endswith("...") and len(token) == 27
    assert token.startswith("zz?q")
