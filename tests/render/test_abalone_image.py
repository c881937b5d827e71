"""Abalone images: marbles in their cells, captures, and arrows for every marble that moved."""

from __future__ import annotations

import pytest

import engine
import render
from engine.abalone import CELL_NAMES, marble_at, marbles_off
from engine.abalone.board import CELLS, DIRECTIONS, STEPS
from render.frame import footer_status, move_label
from render.gallery import PLAYERS, abalone_position, play, random_game, scenes
from render.theme import THEMES
from tests.render.pixels import close, labels_unchanged, nearest, pixel
from translations import words

GAME = engine.get_game("abalone")


def palette(theme) -> dict[str, tuple[int, int, int]]:
    black, white = theme.abalone
    return {"black": black.fill, "white": white.fill, "hole": theme.hole, "plate": theme.hexagon}


@pytest.mark.parametrize("theme_name", render.THEME_NAMES)
@pytest.mark.parametrize("variant", GAME.variants)
def test_each_cell_shows_its_marble_or_an_empty_hole(theme_name, variant) -> None:
    state, last = random_game("abalone", variant, seed=4, plies=30)[-1]
    img = render.board_image("abalone", state, last, theme=theme_name)
    lay = render.layout("abalone", state)
    touched = render.touched_cells("abalone", state, last)
    colours = palette(THEMES[theme_name])
    for name in CELL_NAMES:
        seen = nearest(pixel(img, lay.centres[name]), colours)
        side = marble_at(state, name)
        if side is not None:
            assert seen == ("black", "white")[side], name
        elif name not in touched:
            assert seen == "hole", name


def test_rows_run_left_to_right_and_row_a_is_at_the_bottom() -> None:
    lay = render.layout("abalone", GAME.new())
    c = lay.centres
    assert c["a1"][1] > c["e1"][1] > c["i5"][1]  # A at the bottom
    assert c["e1"][0] < c["e5"][0] < c["e9"][0]  # east is right
    assert c["b2"][0] > c["a1"][0] and c["b2"][1] < c["a1"][1]  # north-east is up-right
    assert c["b1"][0] < c["a1"][0] and c["b1"][1] < c["a1"][1]  # north-west is up-left
    assert c["e5"] == pytest.approx((400, (lay.board[1] + lay.board[3]) / 2), abs=1)


def sumito():
    position = abalone_position(
        "a1 a2 a3 b2 b3 b4 c3 c4 c5 d4 e4 e5 e6 d5", "f6 g6 h6 g5 h5 i5 h4 i6 i7 f7", 0, 30
    )
    return play("abalone", position, ("push d4 e5 ne", None))


def test_a_sumito_draws_arrows_for_own_and_pushed_marbles() -> None:
    state, lasts = sumito()
    img = render.board_image("abalone", state, lasts)
    lay = render.layout("abalone", state)
    theme = THEMES["dark"]

    def between(a: str, b: str) -> tuple[float, float]:
        (ax, ay), (bx, by) = lay.centres[a], lay.centres[b]
        return ((ax + bx) / 2, (ay + by) / 2)

    assert close(pixel(img, between("d4", "e5")), theme.accent, 50)
    assert close(pixel(img, between("e5", "f6")), theme.accent, 50)
    assert close(pixel(img, between("f6", "g7")), theme.warn, 50)  # the pushed White marble
    assert not close(pixel(img, between("c3", "d4")), theme.accent, 50)  # c3 did not move
    assert nearest(pixel(img, lay.centres["g7"]), palette(theme)) == "white"
    assert "sumito, 1 marble pushed: f6" in render.alt_text("abalone", state, lasts)


def test_a_push_off_fills_a_capture_slot_and_wins_at_six() -> None:
    position = abalone_position(
        "e2 e3 e4 c3 c4 c5 b2 b3 d4 d5 a3 a4 b4 c6", "e1 i5 i6 h5 h6 g5 g6 h7 i7", 0, 77
    )
    assert marbles_off(position, 1) == 5
    state, lasts = play("abalone", position, ("push e4 e2 w", None))
    assert marbles_off(state, 1) == 6
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winner == 0
    alt = render.alt_text("abalone", state, lasts, players=("Alice", "Bob"))
    assert "Alice (Black) wins" in alt
    said = render.renderer("abalone").said(lasts[-1], words("en"))
    assert said == (
        "Black pushed e4-e2 west: the White marble that stood on e1 went off the board "
        "(White has lost 6 of 6)"
    )
    before = render.board_image("abalone", position)
    after = render.board_image("abalone", state, lasts)
    card = (0, 0, 400, 100)
    assert before.crop(card).tobytes() != after.crop(card).tobytes()
    lay = render.layout("abalone", state)
    x, y = lay.centres["e1"]
    ghost = pixel(after, (x - lay.spacing, y))  # the marble pushed off, one step west of e1
    assert ghost != pixel(before, (x - lay.spacing, y))


def push_offs():
    """Every way a White marble on an edge cell can be pushed off: two Black marbles behind it
    in line push it one step out, for each edge cell and each direction that leaves the board."""
    on_board = set(CELLS)
    names = dict(zip(CELLS, CELL_NAMES, strict=True))
    for (r, n), white in names.items():
        for direction, (dr, dn) in zip(DIRECTIONS, STEPS, strict=True):
            behind = [(r - k * dr, n - k * dn) for k in (1, 2)]
            if (r + dr, n + dn) in on_board or not all(c in on_board for c in behind):
                continue
            # Fill the middle so that neither side is near losing: 10 Black, 10 White.
            middle = [
                c
                for c in CELLS
                if max(abs(c[0] - 4), abs(c[1] - 5), abs(c[0] - 4 - c[1] + 5)) <= 2
                and c not in behind
            ]
            black = " ".join(names[c] for c in [*behind, *middle[:8]])
            whites = " ".join([white, *(names[c] for c in middle[8:17])])
            yield white, direction, abalone_position(black, whites, 0, 10), behind


@pytest.mark.parametrize("size", [400, 800])
def test_a_pushed_off_marble_never_covers_a_label(size) -> None:
    """Issue 12: the ghost of a marble pushed off west of e1 covered the row label "E"."""
    cases = list(push_offs())
    assert len(cases) > 40  # every edge cell, every outward direction with room behind
    for white, direction, position, behind in cases:
        tail, head = (CELL_NAMES[CELLS.index(c)] for c in behind[::-1])
        state, lasts = play("abalone", position, (f"push {tail} {head} {direction}", None))
        assert marbles_off(state, 1) == marbles_off(position, 1) + 1, (white, direction)
        lay = render.layout("abalone", state, size)
        plain = render.board_image("abalone", state, size=size)
        drawn = render.board_image("abalone", state, lasts, size=size)
        assert labels_unchanged(plain, drawn, lay) == [], (white, direction)
        (x, y), (hx, hy) = lay.centres[white], lay.centres[head]
        ghost = (2 * x - hx, 2 * y - hy)  # one step beyond the edge: the ghost is drawn there
        assert pixel(drawn, ghost) != pixel(plain, ghost), (white, direction)


def test_a_push_off_caption_names_whose_marble_went_off_and_the_count_towards_six() -> None:
    """The caption read "the opposing marble on e1 is off!": it now says who pushed, whose
    marble went off from where, and how many of the six that lose, as the alt text's sentence
    does (where "that stood on e1": another marble may stand on e1 now)."""
    (scene,) = [s for s in scenes() if s.name == "abalone-standard-push-off"]
    status = render.renderer("abalone").status(scene.state, scene.last, PLAYERS, None, words("en"))
    assert status.text == "Black pushed e4-e2 west · the White marble from e1 is off: 4 of 6"
    alt = render.alt_text("abalone", scene.state, scene.last, players=PLAYERS)
    said = (
        "Last: Black pushed e4-e2 west: the White marble that stood on e1 went off the board "
        "(White has lost 4 of 6)."
    )
    assert said in alt, alt


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
def test_every_push_off_caption_fits_its_two_lines_at_both_sizes(lang: str) -> None:
    """The longer caption is never cut with "…", for every edge and direction a marble goes
    off by, in every language, on a phone (400 px) and at full size; it names the pushed side
    and the count towards six as the alt text does."""
    w = words(lang)
    white_side = w.t("side.abalone.1")
    for white, direction, position, behind in push_offs():
        tail, head = (CELL_NAMES[CELLS.index(c)] for c in behind[::-1])
        state, lasts = play("abalone", position, (f"push {tail} {head} {direction}", None))
        status = render.renderer("abalone").status(state, lasts, PLAYERS, None, w)
        assert white_side in status.text and white in status.text, (lang, status.text)
        counted = ("5", "6")  # five of White's marbles are off now, of the six that lose
        alt = render.alt_text("abalone", state, lasts, players=PLAYERS, words=w)
        assert all(c in status.text for c in counted) and white_side in alt, (lang, alt)
        label = move_label(199, False, w, after=True)  # the widest number a game reaches
        for size in (400, 800):
            drawn = footer_status(size, label, status)
            assert len(drawn) == 2 and not any("…" in line for line in drawn), (size, drawn)
