"""Ladder images: a player's rating-history chart and a leaderboard table, as PNG bytes.

Pure functions of plain values (points, rows, a theme name), like the board renderers. Lines and
dots are drawn at ``SCALE`` times the size and box-reduced, so they are smooth and the middle of
every dot keeps the theme's exact accent colour. Text uses the boards' font (DejaVu Sans from
render/fonts, ``render.paint.font``), so accented names and the unranked dash draw as letters, and
characters it lacks (emoji) are left out rather than drawn as boxes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from babel.dates import format_date
from PIL import Image, ImageDraw

from render.model import RenderError
from render.paint import fit_text, font, printable, text_width
from render.theme import RGB, Theme, get_theme
from translations import Words, words

SCALE = 3
MIN_SIDE, MAX_SIDE = 120, 2000
MAX_POINTS = 2000
MAX_CHARTS = 6
"""Charts in one picture: 1,800 pixels high at the default size, still legible on a phone."""
MAX_ROWS = 30
PROVISIONAL_MARK = "?"

ChartPoint = tuple[datetime, float] | tuple[datetime, float, float]
"""(time, rating) or (time, rating, rd), e.g. ``bot.ladder.stats.RatingPoint``."""


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG")  # optimize=True costs ~6x the time for ~3% of the bytes
    return out.getvalue()


def _side(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_SIDE <= value <= MAX_SIDE:
        raise RenderError(f"{what} must be {MIN_SIDE} to {MAX_SIDE} pixels, not {value!r}")
    return value


# --- rating history ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _ChartLayout:
    """Where things go on a chart, in final pixels: the plot box, the label size, the axis."""

    px: int
    box: tuple[int, int, int, int]
    low: float
    high: float
    step: float
    count: int

    def xy(self, index: int, rating: float) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        x = (x0 + x1) / 2 if self.count == 1 else x0 + index / (self.count - 1) * (x1 - x0)
        return x, y1 - (rating - self.low) / (self.high - self.low) * (y1 - y0)


def _layout(ratings: Sequence[float], size: tuple[int, int], titled: bool) -> _ChartLayout:
    width, height = size
    px = max(11, round(min(width / 30, height / 14)))
    box = (
        round(px * 3.4),
        round(px * (2.4 if titled else 1.0)),
        width - round(px * 3.6),
        height - round(px * 2.2),
    )
    low, high, step = _axis(min(ratings), max(ratings)) if ratings else (0.0, 1.0, 1.0)
    return _ChartLayout(px, box, low, high, step, len(ratings))


def rating_chart_png(
    points: Sequence[ChartPoint],
    theme: str | Theme = "dark",
    size: tuple[int, int] = (600, 300),
    *,
    title: str | None = None,
    words: Words | None = None,
) -> bytes:
    """The rating after each game, oldest left, one step per game (bursts of games stay readable).

    Gridlines carry round rating numbers; the first and last dates sit under the axis; the last
    point is labelled with its rating. No points: a friendly w.t("chart.no_games") card.
    """
    return _png(_chart(points, theme, size, title=title, words=words))


def rating_charts_png(
    charts: Sequence[tuple[str, Sequence[ChartPoint]]],
    theme: str | Theme = "dark",
    size: tuple[int, int] = (600, 300),
    *,
    words: Words | None = None,
) -> bytes:
    """Several titled charts of ``size``, one under another, in one picture: a player rated in
    several games sees each game's history (a message carries one picture in every front
    end). At most ``MAX_CHARTS``; each is exactly ``rating_chart_png(points, title=title)``."""
    if not charts or len(charts) > MAX_CHARTS:
        raise RenderError(f"1 to {MAX_CHARTS} charts, not {len(charts)}")
    drawn = [_chart(points, theme, size, title=title, words=words) for title, points in charts]
    img = Image.new("RGB", (drawn[0].width, sum(d.height for d in drawn)))
    for i, one in enumerate(drawn):
        img.paste(one, (0, i * one.height))
    return _png(img)


def _chart(
    points: Sequence[ChartPoint],
    theme: str | Theme,
    size: tuple[int, int],
    *,
    title: str | None,
    words: Words | None,
) -> Image.Image:
    colours = get_theme(theme)
    w = _words(words)
    width, height = _side(size[0], "width"), _side(size[1], "height")
    points = points[-MAX_POINTS:]
    ratings = [float(p[1]) for p in points]
    lay = _layout(ratings, (width, height), bool(title))
    s, px = SCALE, lay.px
    img = Image.new("RGB", (width * s, height * s), colours.background)
    draw = ImageDraw.Draw(img)

    def text(xy: tuple[float, float], words: str, size: int, fill: RGB, anchor: str) -> None:
        _text(draw, (xy[0] * s, xy[1] * s), words, size, fill, anchor, scale=s)

    x0, y0, x1, y1 = lay.box
    if title:  # a long name shrinks, then is cut with "…", never past the right edge
        shown, title_px = _fit(title, width - x0 - px * 0.5, px + 2, px - 2, bold=False)
        text((x0, px * 0.5), shown, title_px, colours.text, "la")
    if not points:
        text(((x0 + x1) / 2, (y0 + y1) / 2), w.t("chart.no_games"), px + 2, colours.muted, "mm")
        return img.reduce(s)

    tick = lay.low
    while tick <= lay.high + 1e-9:
        y = lay.xy(0, tick)[1]
        draw.line([(x0 * s, y * s), (x1 * s, y * s)], fill=colours.panel, width=s)
        text((x0 - px * 0.4, y), f"{tick:.0f}", px, colours.muted, "rm")
        tick += lay.step
    below = y1 + px * 0.8
    text((x0, below), _date(points[0][0], w), px, colours.muted, "la")
    if len(points) > 1:
        text((x1, below), _date(points[-1][0], w), px, colours.muted, "ra")
    games = w.t("chart.games", n=len(points))
    text(((x0 + x1) / 2, below), games, px, colours.muted, "ma")

    xy = [lay.xy(i, r) for i, r in enumerate(ratings)]
    big = [(x * s, y * s) for x, y in xy]
    if len(big) > 1:
        draw.line(big, fill=colours.accent, width=max(2, round(width / 200)) * s, joint="curve")
    dot = max(3, round(width / 120)) * s
    for x, y in big if len(big) <= 60 else big[-1:]:  # many games: dot the last one only
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=colours.accent)
    last_x, last_y = xy[-1]
    label_x = last_x + dot / s + px * 0.4
    text((label_x, last_y), f"{ratings[-1]:.0f}", px, colours.text, "lm")
    return img.reduce(s)


def chart_point_xy(
    points: Sequence[ChartPoint],
    index: int,
    size: tuple[int, int] = (600, 300),
    *,
    title: str | None = None,
) -> tuple[int, int]:
    """Pixel centre of point ``index`` in ``rating_chart_png(points, size=size, title=title)``."""
    points = points[-MAX_POINTS:]
    ratings = [float(p[1]) for p in points]
    x, y = _layout(ratings, size, bool(title)).xy(index, ratings[index])
    return round(x), round(y)


def _axis(lo: float, hi: float) -> tuple[float, float, float]:
    """Round gridline bounds and step around [lo, hi]: at most ~5 lines, steps of 10/25/50/100..."""
    if hi - lo < 40:  # a short history still gets a readable scale around it
        lo, hi = (lo + hi) / 2 - 20, (lo + hi) / 2 + 20
    span = hi - lo
    for step in (10, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 4:
            break
    low = (lo // step) * step
    high = -((-hi) // step) * step
    if high - low < step:
        high = low + step
    if high - hi < step * 0.15:  # leave headroom for the last label
        high += step
    if lo - low < step * 0.15:
        low -= step
    return low, high, float(step)


DATE_PATTERNS = {"eo": "yyyy-MM-dd"}
"""Languages whose CLDR medium date is not their own: Babel's Esperanto data has English month
abbreviations ("2023-Nov-14", a player's finding), so Esperanto gets the numeric date."""


def _date(at: datetime, w: Words) -> str:
    """ "Mar 3, 2026", in the language's own order and month names (CLDR, through Babel)."""
    return format_date(at, DATE_PATTERNS.get(w.lang, "medium"), locale=w.lang)


def _words(given: Words | None) -> Words:
    return words("en") if given is None else given


# --- leaderboard -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One leaderboard line as drawn: the rank (None: unranked), a display name, the numbers."""

    rank: int | None
    name: str
    rating: float
    provisional: bool = False
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    you: bool = False  # the caller's own line, highlighted

    @classmethod
    def of(cls, row: Any, name: str, *, you: bool = False) -> Standing:
        """From any row with rank, rating, provisional, games, wins, losses and draws
        (``bot.ladder.LeaderboardRow``) and the player's display name."""
        return cls(
            rank=row.rank,
            name=name,
            rating=row.rating,
            provisional=row.provisional,
            games=row.games,
            wins=row.wins,
            losses=row.losses,
            draws=row.draws,
            you=you,
        )


Ink = Literal["text", "muted", "accent"]  # a colour of the theme


@dataclass(frozen=True, slots=True)
class Cell:
    """One text of the leaderboard as drawn: at ``xy`` by Pillow's ``anchor`` ("rm": its right
    end, halfway up), ``px`` pixels high, in the theme's ``ink``."""

    text: str
    xy: tuple[float, float]
    px: int
    anchor: str
    ink: Ink = "text"
    bold: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """One drawn row of the leaderboard: its top, whether it is the caller's (highlighted) or
    striped (every other row of the top), its texts."""

    y: int
    you: bool
    striped: bool
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """Where everything of a leaderboard goes, in final pixels: the column headers, the rows
    (the caller's own last, below the "…" at ``more_y``, when it is not among the top)."""

    px: int
    head_h: int
    row_h: int
    headers: tuple[Cell, ...]
    lines: tuple[Line, ...]
    more_y: float | None
    bottom: int  # below the last row


COLUMNS = ("rank", "player", "rating", "wld", "games_column")  # their headers: chart.<key>
MIN_NAME_EMS = 5  # the least room a name gets before the headers give way: ~8 letters
MIN_HEADER_PX = 10


def leaderboard_table(
    rows: Sequence[Standing],
    *,
    caller: Standing | None = None,
    width: int = 600,
    words: Words | None = None,
) -> Table:
    """The leaderboard's layout: each column as wide as its widest text in this language (its
    header or a value, as the font measures them), laid from the right edge with a gap between
    columns, the names taking the room left. Headers shrink, then are cut to their values'
    width, only when the width would leave a name less than ``MIN_NAME_EMS`` font sizes."""
    width = _side(width, "width")
    top = list(rows[:MAX_ROWS])
    extra = caller is not None and all(not (r.you or r == caller) for r in top)
    shown = [*top, caller] if extra and caller is not None else top
    px = max(12, round(width / 30))
    row_h = round(px * 1.9)
    head_h = round(px * 3.9)
    w = _words(words)
    cols = _columns(shown, [w.t(f"chart.{key}") for key in COLUMNS], width, px)
    header_y = head_h - round(px * 0.8)
    headers = tuple(
        Cell(text, (x, header_y), cols.header_px, anchor + "m", "muted")
        for text, (x, anchor) in zip(cols.headers, cols.anchors, strict=True)
    )
    lines, y, more_y = [], head_h, None
    for i, row in enumerate(shown):
        if i == len(top):  # the caller, below a gap
            gap_h = round(row_h * 0.6)
            more_y, y = y + gap_h / 2, y + gap_h
        striped = i % 2 == 0 and i < len(top)
        lines.append(Line(y, row.you, striped, _cells(row, y + row_h / 2, cols, px)))
        y += row_h
    bottom = y if shown else head_h + row_h
    return Table(px, head_h, row_h, headers, tuple(lines), more_y, bottom)


def leaderboard_png(
    rows: Sequence[Standing],
    title: str,
    theme: str | Theme = "dark",
    *,
    caller: Standing | None = None,
    width: int = 600,
    footnote: str | None = None,
    words: Words | None = None,
) -> bytes:
    """The standings as a table: rank, name, rating ("1662?" when provisional), W/L/D, games,
    where ``leaderboard_table`` lays them out.

    ``caller`` is drawn below a gap when it is not already among ``rows``. At most ``MAX_ROWS``.
    """
    colours = get_theme(theme)
    table = leaderboard_table(rows, caller=caller, width=width, words=words)
    px, row_h = table.px, table.row_h
    foot_h = round(px * 1.8) if footnote else round(px * 0.6)
    img = Image.new("RGB", (width, table.bottom + foot_h), colours.background)
    draw = ImageDraw.Draw(img)
    margin = round(px * 0.8)
    _text(draw, (margin, round(px * 0.6)), title, px + 4, colours.text, "la")
    for cell in table.headers:
        _cell(draw, colours, cell)
    if not table.lines:
        no_one = _words(words).t("chart.no_players")
        _text(draw, (width / 2, table.head_h + row_h / 2), no_one, px, colours.muted, "mm")
    for line in table.lines:
        y = line.y
        if line.you:
            draw.rectangle((0, y, width, y + row_h - 1), fill=colours.panel)
            draw.rectangle((0, y, max(3, px // 4), y + row_h - 1), fill=colours.accent)
        elif line.striped:
            box = (margin // 2, y, width - margin // 2, y + row_h - 1)
            draw.rectangle(box, fill=_mix(colours, 0.35))
        for cell in line.cells:
            _cell(draw, colours, cell)
    if table.more_y is not None:
        _text(draw, (width / 2, table.more_y), "…", px, colours.muted, "mm")
    if footnote:
        _text(draw, (margin, table.bottom + foot_h / 2), footnote, px - 3, colours.muted, "lm")
    return _png(img)


@dataclass(frozen=True, slots=True)
class _Columns:
    """x and anchor of each column (rank and numbers by their right end, the name by its left),
    the room a name has, and the headers as they fit, at ``header_px``."""

    anchors: tuple[tuple[float, str], ...]
    name_room: float
    headers: tuple[str, ...]
    header_px: int


def _values(row: Standing) -> tuple[str, str, str, str, str]:
    rank = "–" if row.rank is None else str(row.rank)
    wld = f"{row.wins} / {row.losses} / {row.draws}"
    return rank, printable(row.name), f"{row.rating:.0f}", wld, str(row.games)


def _columns(shown: Sequence[Standing], titles: list[str], width: int, px: int) -> _Columns:
    """The columns from the measured widths of the headers and the values, right to left."""
    values = [_values(row) for row in shown]
    sizes = (px, px, px, px - 2, px - 2)  # rank, name, rating, W/L/D, games
    value_w = [
        max((text_width(v[i], sizes[i]) for v in values), default=0.0) if i != 1 else 0.0
        for i in range(len(COLUMNS))
    ]
    value_w[0] = max(value_w[0], text_width("00", px))  # a tenth player moves no column
    titles = [printable(t) for t in titles]
    for header_px in range(px - 2, MIN_HEADER_PX - 1, -1):
        cols = _place(titles, header_px, value_w, width, px)
        if cols.name_room >= MIN_NAME_EMS * px:
            return cols
    # Still too narrow: the numbers' headers are cut to the width of their numbers.
    cut = [
        t if i == 1 else fit_text(t, max(value_w[i], px), MIN_HEADER_PX, MIN_HEADER_PX)[0]
        for i, t in enumerate(titles)
    ]
    return _place(cut, MIN_HEADER_PX, value_w, width, px)


def _place(
    titles: list[str], header_px: int, value_w: list[float], width: int, px: int
) -> _Columns:
    margin, gap = round(px * 0.8), round(px * 0.9)
    col_w = [max(v, text_width(t, header_px)) for v, t in zip(value_w, titles, strict=True)]
    mark = text_width(PROVISIONAL_MARK, px) + 1  # after the rating, before the next column
    games_x = width - margin
    wld_x = games_x - col_w[4] - gap
    rating_x = wld_x - col_w[3] - gap - mark
    rank_x = margin + col_w[0]
    name_x = rank_x + round(px * 0.7)
    name_room = rating_x - col_w[2] - gap - name_x
    player = fit_text(titles[1], max(0.0, name_room), header_px, header_px)[0]
    return _Columns(
        ((rank_x, "r"), (name_x, "l"), (rating_x, "r"), (wld_x, "r"), (games_x, "r")),
        name_room,
        (titles[0], player, *titles[2:]),
        header_px,
    )


def _cells(row: Standing, mid: float, cols: _Columns, px: int) -> tuple[Cell, ...]:
    """One row's texts; the name shrunk, then cut, to its room, so it never covers the rating."""
    rank, name, rating, wld, games = _values(row)
    name, name_px = _fit(name, cols.name_room, px, max(10, px - 5), bold=row.you)
    (rank_x, _), (name_x, _), (rating_x, _), (wld_x, _), (games_x, _) = cols.anchors
    cells = [
        Cell(rank, (rank_x, mid), px, "rm", "muted" if row.rank is None else "text"),
        Cell(name, (name_x, mid), name_px, "lm", "text", bold=row.you),
        Cell(rating, (rating_x, mid), px, "rm", "accent" if row.you else "text"),
        Cell(wld, (wld_x, mid), px - 2, "rm", "muted"),
        Cell(games, (games_x, mid), px - 2, "rm", "muted"),
    ]
    if row.provisional:  # after the number, so the digits of every row stay aligned
        cells.append(Cell(PROVISIONAL_MARK, (rating_x + 1, mid), px, "lm", "muted"))
    return tuple(cells)


def _cell(draw: ImageDraw.ImageDraw, colours: Theme, cell: Cell) -> None:
    ink = {"text": colours.text, "muted": colours.muted, "accent": colours.accent}[cell.ink]
    _text(draw, cell.xy, cell.text, cell.px, ink, cell.anchor, bold=cell.bold)


def _mix(colours: Theme, t: float) -> RGB:
    a, b = colours.background, colours.panel
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _fit(text: str, room: float, px: int, min_px: int, *, bold: bool) -> tuple[str, int]:
    """Shrink to ``min_px``, then cut with an ellipsis, so a long name never covers the rating."""
    text = printable(str(text)) or "?"
    cut, size = fit_text(text, room, px, min_px, bold)
    return cut or text[0] + "…", size


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    px: int,
    fill: RGB,
    anchor: str,
    *,
    bold: bool = False,
    scale: int = 1,
) -> None:
    """Text at a size in final pixels, on an image drawn ``scale`` times larger."""
    draw.text(xy, printable(text), font=font(px * scale, bold), fill=fill, anchor=anchor)
