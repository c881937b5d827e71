"""Text a player can read where Discord shows the board at 400 px (issue 12), measured in pixels.

An 800 px board is shown at 400 px on a phone, so its text must be twice the height that reads
at 400; a board drawn at 400 px or smaller (a replay) keeps a floor in pixels instead.
"""

from __future__ import annotations

import pytest

import engine
import render
from render.frame import bands, card_text
from render.gallery import random_game
from render.theme import THEMES
from tests.render.pixels import ink_height

GAMES = ("atmalof", "morris", "abalone")
THEME = THEMES["dark"]
GROUNDS = [THEME.background, THEME.panel, THEME.wood, THEME.hexagon, THEME.hole, THEME.square]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size,least", [(400, 9), (800, 18)])
def test_every_coordinate_label_is_tall_enough(game, size, least) -> None:
    state, last = random_game(game, seed=3, plies=20)[-1]
    img = render.board_image(game, state, last, size=size)
    lay = render.layout(game, state, size)
    ink = THEME.line if game == "morris" else THEME.muted
    assert len(lay.labels) >= 18
    for item in lay.labels:
        x0, y0, x1, y1 = item.box
        height = ink_height(img, (x0 - 2, y0 - 2, x1 + 2, y1 + 2), ink, GROUNDS)
        # Capitals and digits are 0.73 of the font size, a lower-case "a" 0.55 of it.
        small = item.text in "aceg"
        assert height >= (least * 0.75 if small else least), (item.text, height)


def test_the_card_and_status_text_is_tall_enough_at_400_px() -> None:
    state = engine.get_game("abalone").new()  # "Black to move": capitals and ascenders only
    size = 400
    img = render.board_image("abalone", state, size=size)
    top, bottom = bands(size)
    footer = (size * 0.3, size - bottom, size, size)
    assert ink_height(img, footer, THEME.text, [THEME.panel]) >= 10
    state = engine.get_game("atmalof").new()  # "22 in hand": digits and ascenders
    img = render.board_image("atmalof", state, size=size)
    lower_card = (size * 0.1, top * 0.55, size * 0.48, top)
    assert ink_height(img, lower_card, THEME.muted, [THEME.panel, THEME.background]) >= 9
    upper_card = (size * 0.1, 0, size * 0.3, top * 0.52)
    assert ink_height(img, upper_card, THEME.text, [THEME.panel, THEME.background]) >= 10


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", [300, 384, 400, 480, 800])
def test_card_lines_are_shortened_by_words_not_cut(game, size) -> None:
    """A replay's 480 px cards read 'Black · pushed…': the hand line drops words instead."""
    for state, _ in random_game(game, seed=2, plies=40)[::8]:
        for card in render.player_cards(game, state, players=("Alice", "Bob")):
            text = card_text(size, card)
            assert not text.detail.endswith("…"), (size, text.detail)
            assert text.detail in (card.hand.text, *card.hand.shorter)
            assert text.detail_px >= 13
            assert text.name == "Alice" or text.name == "Bob", (size, text.name)
