"""Atmalof images: pieces where the engine says, shading, and the last action's overlays."""

from __future__ import annotations

import colorsys

import pytest

import engine
import render
from engine.core import Termination
from render import Last
from render.atmalof import die_centre
from render.gallery import random_game
from render.theme import THEMES
from tests.render.pixels import close, labels_unchanged, nearest, pixel

GAME = engine.get_game("atmalof")


def position(board: str, turn: str = "red", ply: int = 8):
    """A standard-game position; the hands are what the board leaves of 22 pieces each."""
    hands = f"{22 - board.count('R')},{22 - board.count('B')}"
    return GAME.from_text(f"standard board={board} hands={hands} turn={turn} ply={ply}")


def palette(theme) -> dict[str, tuple[int, int, int]]:
    red, blue = theme.atmalof
    return {
        "red": red.fill,
        "blue": blue.fill,
        "square": theme.square,
        "shade": theme.shade,
        "grid": theme.grid,
    }


@pytest.mark.parametrize("theme_name", render.THEME_NAMES)
@pytest.mark.parametrize("variant,seed", [("standard", 1), ("junior", 2), ("atmalos", 3)])
def test_each_square_shows_its_owner_or_nothing(theme_name, variant, seed) -> None:
    state, last = random_game("atmalof", variant, seed=seed, plies=40)[-1]
    theme = THEMES[theme_name]
    img = render.board_image("atmalof", state, last, theme=theme_name)
    lay = render.layout("atmalof", state)
    touched = render.touched_cells("atmalof", state, last)
    colours = palette(theme)
    for square, side in state.cells():
        seen = nearest(pixel(img, lay.centres[square]), colours)
        if side is not None:
            assert seen == ("red", "blue")[side], square
        elif square not in touched:
            assert seen in ("square", "shade"), square


def test_rows_and_columns_beyond_the_die_are_shaded() -> None:
    state = GAME.new("standard")
    img = render.board_image("atmalof", state)
    lay = render.layout("atmalof", state)
    theme = THEMES["dark"]
    assert close(pixel(img, lay.centres[(1, 1)]), theme.square, 3)
    assert close(pixel(img, lay.centres[(6, 6)]), theme.square, 3)
    assert close(pixel(img, lay.centres[(7, 1)]), theme.shade, 3)
    assert close(pixel(img, lay.centres[(2, 7)]), theme.shade, 3)
    corner = pixel(img, lay.centres[(7, 7)])
    assert corner != pixel(img, lay.centres[(7, 1)])  # no drop reaches (7,7): darker still


def test_junior_board_has_no_shaded_line() -> None:
    state = GAME.new("junior")
    img = render.board_image("atmalof", state)
    lay = render.layout("atmalof", state)
    for square in lay.centres:
        assert close(pixel(img, lay.centres[square]), THEMES["dark"].square, 3)


def test_a_drop_outlines_the_announced_row_and_shows_the_rolled_die() -> None:
    before = GAME.new("standard")
    action = GAME.parse(before, "drop row 4")
    after = GAME.apply(before, action, roll=6)
    img = render.board_image("atmalof", after, Last(before, action, 6))
    lay = render.layout("atmalof", after)
    theme = THEMES["dark"]
    cell = lay.spacing
    x, y = lay.centres[(4, 3)]
    assert close(pixel(img, (x, y - cell / 2)), theme.accent)  # the row's outline
    assert not close(pixel(img, (x, y - 1.5 * cell)), theme.accent)  # row 3 is not outlined
    lx, ly = lay.centres[(4, 6)]
    assert nearest(pixel(img, (lx, ly)), palette(theme)) == "red"
    tint = pixel(img, (lx - cell * 0.44, ly - cell * 0.44))
    assert nearest(tint, {"tint": theme.accent, "plain": theme.square}) == "tint"
    die_x, die_y = die_centre(lay, "row", 4)  # beyond row 4's label on the right
    assert die_y == pytest.approx(ly)
    assert close(pixel(img, (die_x, ly)), (250, 250, 248), 10)  # a six's face is blank mid-face
    other_row = pixel(img, (die_x, ly - cell))
    assert not close(other_row, (250, 250, 248), 30)


@pytest.mark.parametrize("axis", ["row", "col"])
@pytest.mark.parametrize(
    "variant,options", [("standard", {}), ("junior", {}), ("custom", {"rows": 8, "cols": 11})]
)
def test_the_rolled_die_never_covers_a_label(axis, variant, options) -> None:
    """Issue 12: the die was drawn on the label at the end of the announced line."""
    before = GAME.new(variant, **options)
    count = before.rows if axis == "row" else before.cols
    faces = before.row_faces if axis == "row" else before.col_faces
    for index in range(1, count + 1):
        action = GAME.parse(before, f"drop {axis} {index}")
        after = GAME.apply(before, action, roll=faces)
        lay = render.layout("atmalof", after)
        plain = render.board_image("atmalof", after)
        drawn = render.board_image("atmalof", after, Last(before, action, faces))
        assert labels_unchanged(plain, drawn, lay) == [], (axis, index)
        die = pixel(drawn, die_centre(lay, axis, index))
        assert die != pixel(plain, die_centre(lay, axis, index))


def test_the_contrast_theme_draws_red_pieces_red_not_orange() -> None:
    """Issue 12: the high-contrast theme's Red was Okabe-Ito vermillion, which reads orange."""
    state = position("R....../......./......./......./......./......./......B", ply=2)
    img = render.board_image("atmalof", state, theme="contrast")
    lay = render.layout("atmalof", state)
    r, g, b = (c / 255 for c in pixel(img, lay.centres[(1, 1)]))
    hue, saturation, value = colorsys.rgb_to_hsv(r, g, b)
    assert min(hue, 1 - hue) * 360 <= 8, hue * 360  # red: within 8 degrees of 0
    assert saturation > 0.7 and value > 0.7
    blue = pixel(img, lay.centres[(7, 7)])
    assert sum(pixel(img, lay.centres[(1, 1)])) > sum(blue)  # lighter than Blue, not only hue


def test_a_drop_on_an_occupied_square_is_marked_as_a_lost_turn() -> None:
    before = position("......./......./......./...B.../......./......./.......", ply=1)
    action = GAME.parse(before, "drop col 4")
    after = GAME.apply(before, action, roll=4)
    last = Last(before, action, 4)
    img = render.board_image("atmalof", after, last)
    lay = render.layout("atmalof", after)
    theme = THEMES["dark"]
    x, y = lay.centres[(4, 4)]
    cell = lay.spacing
    assert close(pixel(img, (x + cell * 0.3 - cell * 0.1, y - cell * 0.3)), theme.warn)
    alt = render.alt_text("atmalof", after, last)
    assert "and rolled 4: (4,4) is occupied, the turn is lost" in alt, alt


def test_a_move_draws_an_arrow_from_the_old_square() -> None:
    before = position("......./......./..R..../......./......./......./.......", ply=1)
    action = GAME.parse(before, "move 3,3 4,4")
    after = GAME.apply(before, action)
    img = render.board_image("atmalof", after, Last(before, action))
    lay = render.layout("atmalof", after)
    (ax, ay), (bx, by) = lay.centres[(3, 3)], lay.centres[(4, 4)]
    assert close(pixel(img, ((ax + bx) / 2, (ay + by) / 2)), THEMES["dark"].accent)
    assert nearest(pixel(img, (bx, by)), palette(THEMES["dark"])) == "red"


@pytest.mark.parametrize("theme_name", render.THEME_NAMES)
def test_a_winning_line_is_struck_through(theme_name) -> None:
    before = position("......./......./......./RRRR.../BBB..../B....../.......")
    action = GAME.parse(before, "drop row 4")
    after = GAME.apply(before, action, roll=5)
    assert after.outcome.termination is Termination.LINE
    img = render.board_image("atmalof", after, Last(before, action, 5), theme=theme_name)
    lay = render.layout("atmalof", after)
    theme = THEMES[theme_name]
    for c in range(1, 5):
        (ax, ay), (bx, _by) = lay.centres[(4, c)], lay.centres[(4, c + 1)]
        assert close(pixel(img, ((ax + bx) / 2, ay)), theme.strike, 30)
    (ax, ay), (bx, _) = lay.centres[(4, 5)], lay.centres[(4, 6)]
    assert not close(pixel(img, ((ax + bx) / 2, ay)), theme.strike, 30)  # the line stops at 5


def test_a_tie_break_draws_every_counted_four_with_its_number() -> None:
    state = position("RRRR.B./BBBB.R./R.R.B.B/B.B.R.R/RR.BB../......./.......", "red", 24)
    fours = engine.atmalof.fours
    red, blue = fours(state, 0), fours(state, 1)
    assert len(red) == 1 and len(blue) == 1
    # Ending the game by a tie-break needs every piece placed; draw the counted runs anyway
    # through a referee-style outcome so the overlay's placement is what is checked.
    outcome = engine.Outcome(
        Termination.TIEBREAK, None, "the tie-break count of lines of four: Red 1, Blue 1"
    )
    img = render.board_image("atmalof", state, outcome=outcome)
    lay = render.layout("atmalof", state)
    theme = THEMES["dark"]
    for side, run in ((0, red[0]), (1, blue[0])):
        (ax, ay), (bx, by) = lay.centres[run[1]], lay.centres[run[2]]
        badge = pixel(img, ((ax + bx) / 2, (ay + by) / 2 + lay.spacing * 0.13))
        assert close(badge, theme.atmalof[side].fill, 40), side


def test_a_real_tie_break_end_is_drawn_with_the_counts() -> None:
    from render.gallery import _tiebreak

    state, last = _tiebreak()
    assert state.outcome.termination is Termination.TIEBREAK
    alt = render.alt_text("atmalof", state, last)
    assert "wins: the tie-break count" in alt
    img = render.board_image("atmalof", state, last)
    assert img.size == (800, 800)
