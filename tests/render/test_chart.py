"""Ladder images: the rating chart and the leaderboard decode at their size with theme colours."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image, ImageChops, ImageFont

from render.chart import (
    Standing,
    chart_point_xy,
    leaderboard_png,
    rating_chart_png,
    rating_charts_png,
)
from render.model import RenderError
from render.paint import font
from render.theme import THEME_NAMES, get_theme

T0 = datetime(2025, 6, 1, tzinfo=UTC)
POINTS = [(T0 + timedelta(days=i), r) for i, r in enumerate([1662, 1750, 1544, 1512, 1635, 1620])]


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


@pytest.mark.parametrize("theme", THEME_NAMES)
@pytest.mark.parametrize("size", [(600, 300), (400, 200), (800, 260)])
def test_chart_decodes_at_its_size_with_the_line_colour_at_every_point(
    theme: str, size: tuple[int, int]
) -> None:
    img = decode(rating_chart_png(POINTS, theme, size))
    assert img.size == size
    accent = get_theme(theme).accent
    for i in range(len(POINTS)):
        assert img.getpixel(chart_point_xy(POINTS, i, size)) == accent


def test_chart_with_a_title_moves_its_points_and_still_hits_them() -> None:
    img = decode(rating_chart_png(POINTS, "light", title="Alice · Atmalof"))
    xy = chart_point_xy(POINTS, 0, title="Alice · Atmalof")
    assert xy != chart_point_xy(POINTS, 0)
    assert img.getpixel(xy) == get_theme("light").accent


def test_higher_ratings_are_drawn_higher() -> None:
    ys = [chart_point_xy(POINTS, i)[1] for i in range(len(POINTS))]
    assert ys[1] < ys[0] < ys[4] < ys[3]  # 1750 above 1662 above 1635 above 1512


def test_a_single_game_and_a_long_history_both_draw() -> None:
    one = decode(rating_chart_png(POINTS[:1]))
    assert one.getpixel(chart_point_xy(POINTS[:1], 0)) == get_theme("dark").accent
    long = [(T0 + timedelta(days=i), 1500 + (i % 40) * 5.0) for i in range(300)]
    img = decode(rating_chart_png(long, "contrast"))
    assert img.getpixel(chart_point_xy(long, 299)) == get_theme("contrast").accent


def test_a_chart_without_games_says_so_and_draws_no_line() -> None:
    img = decode(rating_chart_png([], "dark"))
    assert img.size == (600, 300)
    colours = {colour for _, colour in img.getcolors(1 << 20) or []}
    assert get_theme("dark").accent not in colours and len(colours) > 2  # some text


def test_chart_refuses_sizes_out_of_bounds_and_unknown_themes() -> None:
    with pytest.raises(RenderError, match="width"):
        rating_chart_png(POINTS, size=(50, 300))
    with pytest.raises(RenderError, match="height"):
        rating_chart_png(POINTS, size=(600, 9000))
    with pytest.raises(RenderError, match="theme"):
        rating_chart_png(POINTS, theme="neon")


ROWS = [
    Standing(i + 1, name, 1800 - 37.0 * i, i == 2, 20 + i, 10 + i, 5, i % 3)
    for i, name in enumerate(["Alice", "Bob", "Cara", "Dmitri", "Eve"])
]


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_leaderboard_decodes_at_its_width_and_grows_with_rows(theme: str) -> None:
    five = decode(leaderboard_png(ROWS, "Atmalof ladder", theme))
    two = decode(leaderboard_png(ROWS[:2], "Atmalof ladder", theme, width=400))
    assert five.size[0] == 600 and two.size[0] == 400
    assert five.size[1] > two.size[1] > 0
    assert five.getpixel((2, 2)) == get_theme(theme).background


def test_the_callers_row_below_the_top_is_marked_with_the_accent_bar() -> None:
    caller = Standing(17, "You", 1402, True, 4, 1, 3, 0, you=True)
    plain = decode(leaderboard_png(ROWS, "Atmalof ladder", "dark"))
    marked = decode(leaderboard_png(ROWS, "Atmalof ladder", "dark", caller=caller))
    assert marked.size[1] > plain.size[1]
    accent = get_theme("dark").accent
    bar = [marked.getpixel((1, y)) for y in range(plain.size[1] - 10, marked.size[1])]
    assert accent in bar
    assert accent not in [plain.getpixel((1, y)) for y in range(plain.size[1])]


def test_a_caller_already_in_the_top_is_not_drawn_twice() -> None:
    rows = [*ROWS[:2], Standing(3, "You", 1700, you=True)]
    once = decode(leaderboard_png(rows, "t", caller=rows[2]))
    assert once.size == decode(leaderboard_png(rows, "t")).size


def test_standing_copies_a_ladder_row_and_takes_the_display_name() -> None:
    class Row:  # the shape of bot.ladder.LeaderboardRow
        rank, rating, provisional, games, wins, losses, draws = 4, 1666.6, True, 9, 5, 3, 1

    assert Standing.of(Row(), "Alice", you=True) == Standing(
        4, "Alice", 1666.6, True, 9, 5, 3, 1, True
    )


def test_an_empty_leaderboard_still_draws() -> None:
    img = decode(leaderboard_png([], "Abalone ladder", "light", width=400))
    assert img.size[0] == 400 and img.size[1] > 40


UNASSIGNED = "\U0010fffd"  # no font has it: drawn as the missing-glyph box, or left out


def ink_box(img: Image.Image) -> tuple[int, int, int, int]:
    """Bounding box of the pixels that are not the crop's most common colour (its background)."""
    background = max(img.getcolors(1 << 16) or [], key=lambda c: c[0])[1]
    box = ImageChops.difference(img, Image.new("RGB", img.size, background)).getbbox()
    assert box is not None
    return box


def diff_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int]:
    assert a.size == b.size
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None
    return box


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_an_unranked_players_rank_is_drawn_as_a_dash_not_a_missing_glyph_box(theme: str) -> None:
    def board(rank: int | None) -> Image.Image:
        caller = Standing(rank, "You", 1402, True, 4, 1, 3, 0, you=True)
        return decode(leaderboard_png(ROWS, "Atmalof ladder", theme, caller=caller))

    unranked = board(None)
    cell = unranked.crop(diff_box(unranked, board(7)))  # where the rank is drawn
    left, top, right, bottom = ink_box(cell)
    assert right - left > 2 * (bottom - top) and bottom - top <= 4  # a flat bar: "–"


def test_accented_names_are_drawn_with_their_letters_not_a_missing_glyph_box() -> None:
    def board(name: str) -> Image.Image:
        return decode(leaderboard_png([Standing(1, name, 1600)], "t", "light"))

    accented, missing = board("Zoé"), board("Zo" + UNASSIGNED)
    assert accented.tobytes() != missing.tobytes()
    assert accented.tobytes() != board("Zoe").tobytes()


def test_chart_titles_keep_accents_and_leave_out_what_the_font_cannot_draw() -> None:
    named = decode(rating_chart_png(POINTS, title="Zoé · Atmalof"))
    assert named.tobytes() != decode(rating_chart_png(POINTS, title="Zo · Atmalof")).tobytes()
    emoji = decode(rating_chart_png(POINTS, title="Zo 🎲 · Atmalof"))
    assert emoji.tobytes() == decode(rating_chart_png(POINTS, title="Zo · Atmalof")).tobytes()


def test_the_shipped_font_draws_the_dash_accents_and_marks_the_images_use() -> None:
    shipped = font(20)
    assert isinstance(shipped, ImageFont.FreeTypeFont)
    assert shipped.getname() == ("DejaVu Sans", "Book")
    box = shipped.getmask(UNASSIGNED).getbbox()
    for char in "–…·?éüÇğÖ":
        assert shipped.getmask(char).getbbox() not in (None, box), char


def test_a_long_title_ends_inside_the_picture() -> None:
    """A long name was drawn past the right edge, cut by it mid-letter (a player's finding);
    it shrinks, then ends with "…", leaving the right margin empty."""
    title = "Đorđe Száva-Kováts Þórhallsdóttir · Abalone (belgian-daisy)"
    size = (600, 300)
    img = decode(rating_chart_png(POINTS, "light", size, title=title))
    background = get_theme("light").background
    band = [img.getpixel((x, y)) for x in range(size[0] - 6, size[0]) for y in range(0, 40)]
    assert set(band) == {background}


def test_the_charts_dates_are_in_each_languages_own_words() -> None:
    """The axis's first and last dates: CLDR's medium date where it is the language's own, the
    numeric date in Esperanto, whose CLDR data has English month abbreviations ("2025-Jun-01")."""
    from render.chart import _date
    from translations import words

    said = {lang: _date(T0, words(lang)) for lang in ("en", "eo", "hu", "is")}
    assert said == {
        "en": "Jun 1, 2025",
        "eo": "2025-06-01",
        "hu": "2025. jún. 1.",
        "is": "1. jún. 2025",
    }, said


def test_several_charts_stack_each_exactly_as_drawn_alone_and_are_bounded() -> None:
    titled = [("Alice · Atmalof", POINTS), ("Alice · Abalone", POINTS[:2])]
    img = decode(rating_charts_png(titled, "light"))
    alone = [decode(rating_chart_png(p, "light", title=t)) for t, p in titled]
    assert img.size == (600, 600)
    assert img.crop((0, 0, 600, 300)).tobytes() == alone[0].tobytes()
    assert img.crop((0, 300, 600, 600)).tobytes() == alone[1].tobytes()
    for wrong in ([], titled * 4):
        with pytest.raises(RenderError):
            rating_charts_png(wrong)
