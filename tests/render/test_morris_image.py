"""Morris images: men on their points, mills, men in hand and the last action's overlays."""

from __future__ import annotations

import math
import random

import pytest

import engine
import render
from engine.core import Outcome, Termination
from engine.morris import men_in_hand, removable
from render.gallery import play, random_game
from render.theme import THEMES
from tests.render.pixels import close, nearest, pixel

GAME = engine.get_game("morris")


def palette(theme) -> dict[str, tuple[int, int, int]]:
    white, black = theme.morris
    return {"white": white.fill, "black": black.fill, "point": theme.line, "wood": theme.wood}


def owners(state) -> dict[str, int]:
    names = engine.morris.layout(state).points
    return {names[p]: side for side in (0, 1) for p in engine.morris.men(state, side)}


@pytest.mark.parametrize("theme_name", render.THEME_NAMES)
@pytest.mark.parametrize("variant,seed", [("standard", 1), ("six", 2), ("twelve", 3)])
def test_each_point_shows_its_man_or_an_empty_point(theme_name, variant, seed) -> None:
    frames = random_game("morris", variant, seed=seed)
    state, last = frames[len(frames) // 2]
    img = render.board_image("morris", state, last, theme=theme_name)
    lay = render.layout("morris", state)
    touched = render.touched_cells("morris", state, last)
    colours = palette(THEMES[theme_name])
    occupied = owners(state)
    assert len(lay.centres) == {"standard": 24, "six": 16, "twelve": 24}[variant]
    for name, centre in lay.centres.items():
        seen = nearest(pixel(img, centre), colours)
        if name in occupied:
            assert seen == ("white", "black")[occupied[name]], name
        elif name not in touched:
            assert seen == "point", name


MILL_ON_TOP = (  # White closes a7-d7-g7 on its third placement; Black has b6 and f4
    ("place a7", None),
    ("place b6", None),
    ("place d7", None),
    ("place f4", None),
    ("place g7", None),
)


def test_a_closed_mill_is_highlighted_and_a_pending_removal_rings_the_takeable_men() -> None:
    state, lasts = play("morris", GAME.new(), *MILL_ON_TOP)
    img = render.board_image("morris", state, lasts[-1])
    lay = render.layout("morris", state)
    theme = THEMES["dark"]
    (ax, ay), (bx, _by) = lay.centres["a7"], lay.centres["d7"]
    assert close(pixel(img, ((ax + bx) / 2, ay)), theme.accent)
    (ax, ay), (bx, _) = lay.centres["b6"], lay.centres["d6"]
    assert not close(pixel(img, ((ax + bx) / 2, ay)), theme.accent)
    radius = lay.radius + lay.spacing * 0.1
    assert {lay_name(state, p) for p in removable(state)} == {"b6", "f4"}
    for name in ("b6", "f4"):
        x, y = lay.centres[name]
        dash = math.radians(9)  # the first dash runs from 0 to 18 degrees
        assert close(
            pixel(img, (x + radius * math.cos(dash), y + radius * math.sin(dash))), theme.warn, 50
        ), name
    x, y = lay.centres["g7"]
    ring = lay.radius + lay.spacing * 0.09
    assert close(pixel(img, (x, y + ring)), theme.accent, 50)  # the last placement's ring
    assert "remove" in render.alt_text("morris", state, lasts[-1])
    # a draw agreed between the mill and its removal: the alt text owed the removal still
    agreed = Outcome(Termination.AGREEMENT, None, "draw by agreement")
    over = render.alt_text("morris", state, lasts[-1], outcome=agreed)
    assert "must remove" not in over and "Draw: agreed by both players" in over, over


def lay_name(state, point: int) -> str:
    return engine.morris.layout(state).points[point]


def test_a_removed_man_leaves_a_crossed_ghost() -> None:
    state, lasts = play("morris", GAME.new(), *MILL_ON_TOP, ("remove b6", None))
    img = render.board_image("morris", state, lasts[-1])
    lay = render.layout("morris", state)
    assert close(pixel(img, lay.centres["b6"]), THEMES["dark"].warn, 60)
    assert nearest(pixel(img, lay.centres["f4"]), palette(THEMES["dark"])) == "black"


def test_a_move_draws_an_arrow_along_the_line() -> None:
    frames = random_game("morris", seed=5)
    state, last = next(
        (s, x) for s, x in frames if x is not None and type(x.action).__name__ == "Move"
    )
    img = render.board_image("morris", state, last)
    lay = render.layout("morris", state)
    names = engine.morris.layout(state).points
    (ax, ay), (bx, by) = lay.centres[names[last.action.src]], lay.centres[names[last.action.dst]]
    middle = (ax + (bx - ax) * 0.5, ay + (by - ay) * 0.5)
    assert close(pixel(img, middle), THEMES["dark"].accent, 50)


def test_men_in_hand_stand_beside_the_board() -> None:
    start = GAME.new()
    after, _ = play("morris", start, ("place d7", None))
    lay = render.layout("morris", start)
    white = THEMES["dark"].morris[0].fill
    assert men_in_hand(after, 0) == 8
    column_x = lay.board[0] / 2

    def whites(img) -> int:
        return sum(
            1
            for y in range(lay.board[1], lay.board[3])
            if close(img.getpixel((round(column_x), y)), white, 10)
        )

    assert whites(render.board_image("morris", after)) < whites(render.board_image("morris", start))


def test_letters_label_the_points_instead_of_the_grid() -> None:
    state = GAME.new()
    grid = render.board_image("morris", state)
    letters = render.board_image("morris", state, labels="letters")
    assert grid.tobytes() != letters.tobytes()
    lay = render.layout("morris", state)
    x, y = lay.centres["a7"]
    patch = (round(x - lay.spacing * 0.5), round(y - lay.spacing * 0.5), round(x), round(y))
    assert grid.crop(patch).tobytes() != letters.crop(patch).tobytes()


def test_only_the_mill_just_closed_is_highlighted() -> None:
    """Issue 12: every standing mill glowed, so the one just closed did not stand out."""
    state, lasts = play(
        "morris",
        GAME.new(),
        *MILL_ON_TOP,  # White's first mill: a7-d7-g7
        ("remove b6", None),
        ("place b4", None),
        ("place a1", None),
        ("place c4", None),
        ("place d1", None),
        ("place e4", None),
        ("place g1", None),  # White's second mill: a1-d1-g1
    )
    img = render.board_image("morris", state, lasts[-1])
    lay = render.layout("morris", state)
    accent = THEMES["dark"].accent

    def middle(a: str, b: str) -> tuple[float, float]:
        (ax, ay), (bx, by) = lay.centres[a], lay.centres[b]
        return ((ax + bx) / 2, (ay + by) / 2)

    assert close(pixel(img, middle("a1", "d1")), accent)  # the new mill
    assert close(pixel(img, middle("d1", "g1")), accent)
    assert not close(pixel(img, middle("a7", "d7")), accent, 60)  # the old one, not news
    assert not close(pixel(img, middle("d7", "g7")), accent, 60)
    plain = render.board_image("morris", state)  # no last action: nothing is news
    assert not close(pixel(plain, middle("a1", "d1")), accent, 60)


def test_a_one_step_move_has_an_arrow_a_player_sees() -> None:
    """Issue 12: a move between neighbouring points drew an arrow a third of a step long."""
    frames = random_game("morris", seed=5)
    state, last = next(
        (s, x)
        for s, x in frames
        if x is not None
        and type(x.action).__name__ == "Move"
        and _distance(s, x) == pytest.approx(render.layout("morris", s).spacing, abs=1)
    )
    img = render.board_image("morris", state, last)
    lay = render.layout("morris", state)
    names = engine.morris.layout(state).points
    (ax, ay), (bx, by) = lay.centres[names[last.action.src]], lay.centres[names[last.action.dst]]
    accent = THEMES["dark"].accent
    along = [
        close(pixel(img, (ax + (bx - ax) * t / 100, ay + (by - ay) * t / 100)), accent, 50)
        for t in range(101)
    ]
    assert sum(along) >= 45  # nearly half of the step is arrow (the man covers a third)
    nx, ny = -(by - ay) / lay.spacing, (bx - ax) / lay.spacing  # across the shaft, mid-step
    mx, my = (ax + bx) / 2, (ay + by) / 2
    across = [close(pixel(img, (mx + nx * k, my + ny * k)), accent, 50) for k in range(-20, 21)]
    assert sum(across) >= lay.spacing * 0.1  # a shaft, not a hairline


def _distance(state, last) -> float:
    lay = render.layout("morris", state)
    names = engine.morris.layout(state).points
    (ax, ay), (bx, by) = lay.centres[names[last.action.src]], lay.centres[names[last.action.dst]]
    return ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5


def test_the_text_board_counts_men_on_the_board_once_all_are_placed() -> None:
    """While placing, the men in hand; after, the men on the board, which say who may fly."""
    game = engine.get_game("morris")
    state = game.new()
    assert render.text_board("morris", state).endswith(
        "○ White 9 in hand, ● Black 9 in hand; ○ White to move"
    )
    rng = random.Random(3)
    while game.result(state) is None and (state.hand[0] or state.hand[1] or state.ply % 2):
        state = game.apply(state, rng.choice(game.legal(state)))
    assert not state.hand[0] and not state.hand[1]
    on_board = [bin(state.men[s]).count("1") for s in (0, 1)]
    last = render.text_board("morris", state).splitlines()[-1]
    assert last.startswith(f"○ White {on_board[0]} on board, ● Black {on_board[1]} on board; ")
