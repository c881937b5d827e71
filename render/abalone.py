"""Abalone boards: the 61-cell hexagon, row letters A..I and diagonals 1..9, shaded marbles.

Row A is at the bottom (Black's side). A cell (row r, diagonal n) sits at x = n - r/2 cells
from the left corner, so E (0,+1) points right, NE (+1,+1) up-right and NW (+1,0) up-left, as
the rules define. The marbles each side has pushed off fill six slots on its player card.
Overlays: an arrow across the gap each moved marble crossed (own in the accent colour, pushed
ones in the warning colour), rings on the cells left empty, and a fading ghost beyond the edge
for a marble pushed off.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.abalone import (
    CELL_NAMES,
    CELLS,
    AbaloneState,
    marble_at,
    marbles,
    marbles_off,
    moved_marbles,
)
from engine.abalone.board import DIRECTIONS, STEPS
from engine.abalone.moves import SIDE_NAMES
from engine.core import EngineError, Outcome
from render.board import BoardRenderer, result_status, who
from render.frame import Hand, Status, bands, board_box
from render.model import Last, Layout, Point
from render.paint import (
    SUPERSAMPLE,
    Sprite,
    disc_sprite,
    draw_arrows,
    draw_labels,
    draw_ring,
    label,
    paste_centred,
    text_px,
)
from render.theme import PieceStyle, Theme
from translations import Words

SQRT3_2 = math.sqrt(3) / 2
MARBLE = 0.46  # radius, in cell spacings
HOLE = 0.36
PLATE = 0.9  # how far the plate reaches beyond the outer cells
GHOST = 0.36  # radius of a marble pushed off, drawn one step beyond the edge, in spacings
LABEL_OUT = 1.72  # labels sit this far beyond the outer cells: clear of any pushed-off ghost
LABEL = 0.44  # label size, in spacings
ROWS = "ABCDEFGHI"
WIN = 6


def _offset(dr: int, dn: int) -> tuple[float, float]:
    """Pixel step (in spacings) of a (row step, number step)."""
    return (dn - dr / 2, -dr * SQRT3_2)


@lru_cache(maxsize=16)
def _geometry(size: int) -> Layout:
    x0, y0, x1, y1 = board_box(size)
    pad = size * 0.01
    half_w = 4 + LABEL_OUT + 0.3
    half_h = (4 + LABEL_OUT) * SQRT3_2 + 0.26
    u = min((x1 - x0 - 2 * pad) / (2 * half_w), (y1 - y0 - 2 * pad) / (2 * half_h))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    centres = {}
    for name, (r, n) in zip(CELL_NAMES, CELLS, strict=True):
        dx, dy = _offset(r - 4, n - 5)
        centres[name] = (cx + dx * u, cy + dy * u)
    box = (
        round(cx - half_w * u),
        round(cy - half_h * u),
        round(cx + half_w * u),
        round(cy + half_h * u),
    )
    px = text_px(u, LABEL)
    labels = []
    for r in range(9):  # row letters west of each row's first cell
        first = min(n for rr, n in CELLS if rr == r)
        x, y = centres[f"{ROWS[r].lower()}{first}"]
        dx, dy = _offset(0, -1)
        labels.append(label(ROWS[r], (x + dx * u * LABEL_OUT, y + dy * u * LABEL_OUT), px))
    for n in range(1, 10):  # diagonal numbers south-east of each diagonal's lowest cell
        low = min(r for r, nn in CELLS if nn == n)
        x, y = centres[f"{ROWS[low].lower()}{n}"]
        dx, dy = _offset(-1, 0)
        labels.append(label(str(n), (x + dx * u * LABEL_OUT, y + dy * u * LABEL_OUT), px))
    return Layout(size, size, centres, MARBLE * u, u, box, tuple(labels))


def _corners(cx: float, cy: float, reach: float) -> list[Point]:
    """The plate's six corners: left and right points, flat top and bottom."""
    return [
        (cx + reach * math.cos(math.radians(a)), cy - reach * math.sin(math.radians(a)))
        for a in (0, 60, 120, 180, 240, 300)
    ]


@lru_cache(maxsize=16)
def _background(theme: Theme, size: int) -> Image.Image:
    lay = _geometry(size)
    u = lay.spacing
    img = Image.new("RGB", (size, size), theme.background)
    _, bottom = bands(size)
    ImageDraw.Draw(img).rectangle((0, size - bottom, size, size), fill=theme.panel)
    cx, cy = lay.centres["e5"]
    s = SUPERSAMPLE
    x0, y0, x1, y1 = lay.board
    layer = Image.new("RGBA", ((x1 - x0) * s, (y1 - y0) * s), (*theme.hexagon, 0))
    d = ImageDraw.Draw(layer)
    reach = (4 + PLATE) * u
    corners = [((x - x0) * s, (y - y0) * s) for x, y in _corners(cx, cy, reach)]
    d.polygon(corners, fill=(*theme.hexagon, 255))
    rim = [((x - x0) * s, (y - y0) * s) for x, y in _corners(cx, cy, reach)]
    d.line([*rim, rim[0]], fill=(*theme.hole, 255), width=round(u * 0.06 * s), joint="curve")
    hr = HOLE * u * s
    for x, y in lay.centres.values():
        lx, ly = (x - x0) * s, (y - y0) * s
        d.ellipse((lx - hr, ly - hr, lx + hr, ly + hr), fill=(*theme.hole, 255))
    small = layer.reduce(s)
    img.paste(small, (x0, y0), small)
    draw_labels(img, lay.labels, theme.muted)
    return img


@lru_cache(maxsize=32)
def _ghost(style: PieceStyle, radius: int) -> Sprite:
    return disc_sprite(style, radius, False).faded(0.4)


def _moves(last: Last) -> list[tuple[str, str | None]]:
    try:
        return moved_marbles(last.before, last.action)
    except EngineError:
        return []


def _pushed_off(last: Last, off: list[str], w: Words, sides: Sequence[Any]) -> dict[str, Any]:
    """A push-off's words: who pushed which line where, whose marble went off from where it
    stood (``off``: the cells of those that went off), and how many of the six that win the
    pushed side has now lost."""
    mover = last.before.to_move
    cells = last.action.cells  # in the notation's order, as the record writes them
    return {
        "side": sides[mover],
        "span": cells[0] if len(cells) == 1 else f"{cells[0]}-{cells[-1]}",
        "dir": w.t(f"dir.{last.action.direction}"),
        "other": sides[1 - mover],
        "off": off[0],
        "n": marbles_off(last.before, 1 - mover) + len(off),
        "goal": WIN,
    }


class AbaloneRenderer(BoardRenderer):
    game = "abalone"
    side_names = SIDE_NAMES
    marks = ("●", "○")  # Black, White

    def check(self, state: Any) -> None:
        if not isinstance(state, AbaloneState):
            raise TypeError("expected an Abalone state")

    def layout(self, state: AbaloneState, size: int) -> Layout:
        return _geometry(size)

    def background(self, state: AbaloneState, theme: Theme, size: int, labels: str) -> Image.Image:
        return _background(theme, size)

    def draw(
        self,
        img,
        state: AbaloneState,
        lasts: Sequence[Last],
        theme: Theme,
        layout: Layout,
        outcome: Outcome | None,
    ) -> None:
        c = layout.centres
        radius = round(layout.radius)
        sprites = [disc_sprite(style, radius) for style in theme.abalone]
        for name, value in zip(CELL_NAMES, state.board, strict=True):
            if value:
                paste_centred(img, sprites[value - 1], c[name])
        for last in lasts:
            self._overlay(img, state, last, theme, layout)

    def _overlay(self, img, state, last: Last, theme: Theme, layout: Layout) -> None:
        u = layout.spacing
        c = layout.centres
        moves = _moves(last)
        if not moves:
            return
        mover = last.before.to_move
        dr, dn = STEPS[DIRECTIONS.index(last.action.direction)]
        ox, oy = _offset(dr, dn)
        arrived = {t for _, t in moves if t is not None}
        for origin, _ in moves:
            if origin not in arrived:
                draw_ring(img, c[origin], HOLE * u * 0.62, theme.accent, u * 0.06)
        own, pushed = [], []
        for origin, target in moves:
            x, y = c[origin]
            mid = (x + ox * u / 2, y + oy * u / 2)
            half = (ox * u * 0.3, oy * u * 0.3)
            arrow = ((mid[0] - half[0], mid[1] - half[1]), (mid[0] + half[0], mid[1] + half[1]))
            if marble_at(last.before, origin) == mover:
                own.append(arrow)
            else:
                pushed.append(arrow)
                if target is None:
                    ghost = _ghost(theme.abalone[1 - mover], round(GHOST * u))
                    paste_centred(img, ghost, (x + ox * u, y + oy * u))
        dark = (20, 20, 20)
        draw_arrows(img, own, theme.accent, dark, u * 0.16, u * 0.34)
        draw_arrows(img, pushed, theme.warn, dark, u * 0.16, u * 0.34)

    def hand(
        self, state: AbaloneState, side: int, theme: Theme, outcome: Outcome | None, w: Words
    ) -> Hand:
        taken = marbles_off(state, 1 - side)
        return Hand(
            w.t("hand.pushed_off", n=taken),
            # the last form is no words: the tokens alone count them on the smallest replays
            shorter=(w.t("hand.off", n=taken), ""),
            side_last=True,  # the card's marble shows the side; a vague label shows nothing
            tokens=min(taken, WIN),
            token_style=theme.abalone[1 - side],
            slots=max(0, WIN - taken),
        )

    def status(
        self,
        state: AbaloneState,
        lasts: Sequence[Last],
        names: tuple[str, str],
        outcome: Outcome | None,
        w: Words,
    ) -> Status:
        sides = self.sides(w)
        if outcome is not None:
            return result_status(outcome, names, sides, w)
        if not lasts:
            return Status(w.t("status.to_move", who=who(names, sides, state.to_move, w)))
        return self._last_status(lasts[-1], w)

    def said(self, last: Last, w: Words) -> str:
        """The caption's words, but a push-off as a sentence of its own: the caption breaks its
        line at " · ", and says "from g3" where a sentence for a listener says the marble that
        stood on g3 (the position it then lists may have another marble on g3)."""
        status = self._last_status(last, w)
        gone = [a for a, b in _moves(last) if b is None]
        if not gone:
            return status.text
        return w.t("alt.abalone.pushed_off", **_pushed_off(last, gone, w, self.sides(w)))

    def _last_status(self, last: Last, w: Words) -> Status:
        moves = _moves(last)
        mover = last.before.to_move
        pushed = [(a, b) for a, b in moves if marble_at(last.before, a) != mover]
        cells = last.action.cells  # in the notation's order, as the record writes them
        span = cells[0] if len(cells) == 1 else f"{cells[0]}-{cells[-1]}"
        where = w.t(f"dir.{last.action.direction}")
        me = self.sides(w)[mover]
        if not pushed:
            return Status(w.t("abalone.moved", side=me, span=span, dir=where))
        # The pushed marbles are named where they stood, as the player saw them.
        off = [a for a, b in pushed if b is None]
        if off:
            text = w.t("abalone.pushed_off", **_pushed_off(last, off, w, self.sides(w)))
            return Status(text, tone="warn")
        named = " ".join(a for a, _ in pushed)
        text = w.t("abalone.sumito", side=me, span=span, dir=where, n=len(pushed), cells=named)
        return Status(text, tone="accent")

    def touched(self, state: AbaloneState, lasts: Sequence[Last]) -> set[Hashable]:
        out: set[Hashable] = set()
        for last in lasts:
            for a, b in _moves(last):
                out.add(a)
                if b is not None:
                    out.add(b)
        return out

    def describe_position(
        self, state: AbaloneState, names: tuple[str, str], w: Words, *, over: bool = False
    ) -> list[str]:
        # row A is Black's side only in the standard layout: the daisies start both sides
        # on rows A and I
        rows = "alt.abalone.rows" if state.variant == "standard" else "alt.abalone.rows_daisy"
        out = [w.t(rows)]
        sides = self.sides(w)
        for side in (0, 1):
            cells = marbles(state, side)
            off = marbles_off(state, 1 - side)
            out.append(
                w.t(
                    "alt.abalone.side",
                    side=sides[side],
                    n=len(cells),
                    off=off,
                    cells=" ".join(cells),
                )
            )
        return out

    def text_board(self, state: AbaloneState, labels: str, w: Words) -> str:
        """Rows I (top) to A; each diagonal's number sits one step south-east of its end."""
        chars = {0: ".", 1: self.marks[0], 2: self.marks[1]}
        grid = {r: [" "] * 23 for r in range(-1, 9)}
        for (r, n), value in zip(CELLS, state.board, strict=True):
            grid[r][2 * n - r + 6] = chars[value]
        for r in range(9):
            grid[r][0] = ROWS[r]
        for n in range(1, 10):
            low = min(r for r, nn in CELLS if nn == n)
            grid[low - 1][2 * n - (low - 1) + 6] = str(n)
        lines = ["".join(grid[r]).rstrip() for r in range(8, -2, -1)]
        sides = self.marked_sides(w)
        lines.append(
            w.t(
                "text.abalone",
                side0=sides[0],
                a=marbles_off(state, 0),
                side1=sides[1],
                b=marbles_off(state, 1),
                side=sides[state.to_move],
            )
        )
        return "\n".join(lines)


RENDERER = AbaloneRenderer()
