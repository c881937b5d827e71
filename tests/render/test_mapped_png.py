"""board_png maps only what a move drew (render/canvas.py): its pixels must be exactly those of
the whole drawn image mapped onto the palette, for every scene, theme and size."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from render import to_palette
from render.gallery import random_game, scenes
from render.theme import get_theme

PLAYERS = ("Alice", "Bob")


def mapped_whole(game: str, state, last, theme: str, **options) -> Image.Image:
    drawn = render.board_image(game, state, last, theme=theme, **options)
    return to_palette(drawn, render.renderer(game).game, get_theme(theme))


def decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def assert_same(png: bytes, whole: Image.Image) -> None:
    got = decoded(png)
    assert got.mode == "P"
    assert got.getpalette() == whole.getpalette()
    assert got.tobytes() == whole.tobytes()


@pytest.mark.parametrize("size", [400, 800, 613])
@pytest.mark.parametrize("theme", render.THEME_NAMES)
def test_every_gallery_scene_is_the_whole_image_mapped(theme, size) -> None:
    for scene in scenes():
        options = {"players": PLAYERS, "size": size, **scene.options}
        png = render.board_png(scene.game, scene.state, scene.last, theme=theme, **options)
        assert_same(png, mapped_whole(scene.game, scene.state, scene.last, theme, **options))


@pytest.mark.parametrize("game", ["atmalof", "morris", "abalone"])
def test_cards_kept_from_earlier_boards_are_the_cards_drawn_now(game) -> None:
    """Each position is drawn twice: the second time its cards come from the kept tiles."""
    steps = random_game(game, seed=8, plies=50)
    for _ in range(2):
        for state, last in steps[::4]:
            png = render.board_png(game, state, last, players=PLAYERS)
            assert_same(png, mapped_whole(game, state, last, "dark", players=PLAYERS))
