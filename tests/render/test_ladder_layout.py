"""The ladder image's columns are as wide as their words in the language drawn: no header runs
into another ("Gy / V / DJátszmák" in Hungarian, "Viðureignir" drawn over "S / T / J" in
Icelandic were), no value into its neighbour, with short and long names and numbers alike."""

from __future__ import annotations

import io
from itertools import pairwise

import pytest
from PIL import Image, ImageDraw

from render.chart import Cell, Standing, leaderboard_png, leaderboard_table
from render.paint import font, printable
from render.theme import get_theme
from translations import LANGUAGES, words

WIDTHS = (300, 400, 600, 800)  # the bot draws 600; a phone shows it at about 400
SHORT = [
    Standing(1, "Carol", 1646, True, 1, 1, 0, 0, you=True),
    Standing(2, "Bob", 1567, True, 2, 1, 1, 0),
    Standing(3, "Alice", 1342, True, 3, 1, 2, 0),
]
LONG = [  # the widest numbers a season gives, and names that cannot fit
    Standing(i + 1, name, 2412 - 31 * i, i % 2 == 1, 1312 + i, 650 + i, 620, 42)
    for i, name in enumerate(
        [
            "Hrafnkell Þorgrímsson Guðmundsdóttirsson",
            "Szentgyörgyi-Hőgyészi Kálmánné Erzsébet",
            "Ĉiuĵaŭdaŭ Eĥoŝanĝo Ĝojplena",
            "Wolfeschlegelsteinhausenbergerdorff",
        ]
    )
]
CALLER = Standing(27, "Þórdís Ævarsdóttir", 1203, True, 1203, 600, 590, 13, you=True)
TABLES = {"short": (SHORT, None), "long": (LONG, CALLER)}

Box = tuple[float, float, float, float]


def box(cell: Cell) -> Box:
    """The pixels ``cell`` covers, measured with the font it is drawn in."""
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    f = font(cell.px, cell.bold)
    return draw.textbbox(cell.xy, printable(cell.text), font=f, anchor=cell.anchor)


def apart(cells: tuple[Cell, ...], gap: float) -> list[tuple[str, str]]:
    """The neighbours, left to right, whose boxes come closer than ``gap`` pixels."""
    boxes = sorted((box(c), c.text) for c in cells if c.text)
    return [(a, b) for (abox, a), (bbox, b) in pairwise(boxes) if bbox[0] - abox[2] < gap]


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_header_of_the_ladder_overlaps_another(lang: str, width: int, table: str) -> None:
    rows, caller = TABLES[table]
    laid = leaderboard_table(rows, caller=caller, width=width, words=words(lang))
    assert [c.text for c in laid.headers if c.text], "every column has its header"
    assert apart(laid.headers, gap=4) == []
    for cell in laid.headers:
        left, _, right, _ = box(cell)
        assert left >= 0 and right <= width, cell


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_value_of_the_ladder_overlaps_its_neighbour(lang: str, width: int, table: str) -> None:
    rows, caller = TABLES[table]
    laid = leaderboard_table(rows, caller=caller, width=width, words=words(lang))
    assert len(laid.lines) == len(rows) + (caller is not None)
    for line in laid.lines:
        columns, mark = line.cells[:5], line.cells[5:]  # the provisional "?" after the rating
        assert apart(columns, gap=2) == [], line
        assert apart((*columns[:2], *mark, *columns[3:]), gap=2) == [], line
    assert any(len(line.cells) == 6 for line in laid.lines), "a provisional rating is drawn"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_numbers_stand_under_their_headers(lang: str) -> None:
    """Rating, W/L/D and games end where their header ends; each rank ends under "#"."""
    laid = leaderboard_table(LONG, caller=CALLER, words=words(lang))
    rank, _, rating, wld, games = laid.headers
    for line in laid.lines:
        for header, cell in zip(
            (rank, rating, wld, games), (line.cells[0], *line.cells[2:5]), strict=True
        ):
            assert cell.anchor[0] == header.anchor[0] == "r"
            assert cell.xy[0] == header.xy[0], (header.text, cell.text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_drawn_headers_leave_background_between_them(lang: str) -> None:
    """In the picture itself, a strip of bare background separates every two headers."""
    colours = get_theme("dark")
    img = Image.open(io.BytesIO(leaderboard_png(SHORT, "t", "dark", words=words(lang))))
    img = img.convert("RGB")
    laid = leaderboard_table(SHORT, words=words(lang))
    boxes = sorted(box(c) for c in laid.headers)
    for before, after in pairwise(boxes):
        top, bottom = min(before[1], after[1]), max(before[3], after[3])
        between = {
            img.getpixel((x, y))
            for x in range(round(before[2]) + 1, round(after[0]) - 1)
            for y in range(round(top), round(bottom))
        }
        assert between == {colours.background}, (before, after)
