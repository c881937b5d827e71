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
from typing import Any

from babel.dates import format_date
from PIL import Image, ImageDraw

from render.model import RenderError
from render.paint import fit_text, font, printable
from render.theme import RGB, Theme, get_theme
from translations import Words, words

SCALE = 3
MIN_SIDE, MAX_SIDE = 120, 2000
MAX_POINTS = 2000
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
    if title:
        text((x0, px * 0.5), title, px + 2, colours.text, "la")
    if not points:
        text(((x0 + x1) / 2, (y0 + y1) / 2), w.t("chart.no_games"), px + 2, colours.muted, "mm")
        return _png(img.reduce(s))

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
    return _png(img.reduce(s))


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


def _date(at: datetime, w: Words) -> str:
    """ "3 Mar 2026", in the language's own order and month names (CLDR, through Babel)."""
    return format_date(at, "medium", locale=w.lang)


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
    """The standings as a table: rank, name, rating ("1662?" when provisional), W/L/D, games.

    ``caller`` is drawn below a gap when it is not already among ``rows``. At most ``MAX_ROWS``.
    """
    colours = get_theme(theme)
    width = _side(width, "width")
    rows = list(rows[:MAX_ROWS])
    extra = caller is not None and all(not (r.you or r == caller) for r in rows)
    px = max(12, round(width / 30))
    row_h = round(px * 1.9)
    head_h = round(px * 3.9)
    foot_h = round(px * 1.8) if footnote else round(px * 0.6)
    gap_h = round(row_h * 0.6) if extra else 0
    body = max(1, len(rows) + (1 if extra else 0)) * row_h + gap_h
    height = head_h + body + foot_h
    img = Image.new("RGB", (width, height), colours.background)
    w = _words(words)
    draw = ImageDraw.Draw(img)
    margin = round(px * 0.8)
    _text(draw, (margin, round(px * 0.6)), title, px + 4, colours.text, "la")
    cols = _columns(width, margin, px)
    header_y = head_h - round(px * 0.8)
    for label, (x, anchor) in zip(
        (w.t(f"chart.{key}") for key in ("rank", "player", "rating", "wld", "games_column")),
        cols,
        strict=True,
    ):
        _text(draw, (x, header_y), label, px - 2, colours.muted, anchor[0] + "m")
    y = head_h
    if not rows and not extra:
        _text(draw, (width / 2, y + row_h / 2), w.t("chart.no_players"), px, colours.muted, "mm")
    for i, row in enumerate(rows):
        _row(draw, colours, row, y, row_h, width, margin, cols, px, striped=i % 2 == 0)
        y += row_h
    if extra and caller is not None:
        _text(draw, (width / 2, y + gap_h / 2), "…", px, colours.muted, "mm")
        y += gap_h
        _row(draw, colours, caller, y, row_h, width, margin, cols, px, striped=False)
        y += row_h
    if footnote:
        _text(draw, (margin, y + foot_h / 2), footnote, px - 3, colours.muted, "lm")
    return _png(img)


def _columns(width: int, margin: int, px: int) -> list[tuple[float, str]]:
    """x and anchor of each column: rank (right), name (left), rating, W/L/D, games (right)."""
    games_x = width - margin
    wld_x = games_x - px * 4.2
    rating_x = wld_x - px * 6.6
    return [
        (margin + px * 1.9, "r"),
        (margin + px * 2.6, "l"),
        (rating_x, "r"),
        (wld_x, "r"),
        (games_x, "r"),
    ]


def _row(
    draw: ImageDraw.ImageDraw,
    colours: Theme,
    row: Standing,
    y: float,
    h: int,
    width: int,
    margin: int,
    cols: list[tuple[float, str]],
    px: int,
    *,
    striped: bool,
) -> None:
    if row.you:
        draw.rectangle((0, y, width, y + h - 1), fill=colours.panel)
        draw.rectangle((0, y, max(3, px // 4), y + h - 1), fill=colours.accent)
    elif striped:
        draw.rectangle((margin // 2, y, width - margin // 2, y + h - 1), fill=_mix(colours, 0.35))
    mid = y + h / 2
    ink = colours.text
    rank = "–" if row.rank is None else str(row.rank)
    name_room = cols[2][0] - px * 4.6 - cols[1][0]
    name, name_px = _fit(row.name, name_room, px, max(10, px - 5), bold=row.you)
    rating = f"{row.rating:.0f}"
    cells = (
        (rank, colours.muted if row.rank is None else ink, px),
        (name, ink, name_px),
        (rating, colours.accent if row.you else ink, px),
        (f"{row.wins} / {row.losses} / {row.draws}", colours.muted, px - 2),
        (str(row.games), colours.muted, px - 2),
    )
    for (text, fill, size), (x, anchor) in zip(cells, cols, strict=True):
        _text(draw, (x, mid), text, size, fill, anchor + "m", bold=row.you and text == name)
    if row.provisional:  # after the number, so the digits of every row stay aligned
        _text(draw, (cols[2][0] + 1, mid), PROVISIONAL_MARK, px, colours.muted, "lm")


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
