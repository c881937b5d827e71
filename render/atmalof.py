"""Atmalof boards: the R x C grid, numbers on all four sides, the squares beyond the die shaded.

Overlays: a drop's announced line outlined, the rolled die at the end of that line (and in the
status bar), the landing square tinted (or marked "lost turn" when it was occupied); a move's
arrow; a win struck through; at a tie-break every counted run of L-1 drawn, with the counts.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.atmalof import SIDE_NAMES, AtmalofState, Drop, Move, fours, winning_lines
from engine.core import Outcome, Termination
from render.board import BoardRenderer, mix, result_status, who
from render.canvas import mark
from render.frame import Hand, Status, bands, board_box
from render.model import Last, Layout
from render.paint import (
    die_sprite,
    disc_sprite,
    draw_arrows,
    draw_box,
    draw_labels,
    draw_segment,
    draw_text,
    label,
    paste_centred,
    text_px,
)
from render.theme import Theme
from translations import Words

MARGIN = 0.62  # label margin around the grid, in cells
DIE_ROOM = 0.62  # room for the rolled die beyond the labels, right and below, in cells
DIE = 0.52  # the die's side, in cells
LABEL = 0.38  # label size, in cells
PIECE = 0.39  # piece radius, in cells


@lru_cache(maxsize=64)
def _geometry(rows: int, cols: int, size: int) -> Layout:
    x0, y0, x1, y1 = board_box(size)
    pad = size * 0.01
    across, down = cols + 2 * MARGIN + DIE_ROOM, rows + 2 * MARGIN + DIE_ROOM
    cell = int(min((x1 - x0 - 2 * pad) / across, (y1 - y0 - 2 * pad) / down))
    gx = x0 + round((x1 - x0 - cell * across) / 2 + MARGIN * cell)
    gy = y0 + round((y1 - y0 - cell * down) / 2 + MARGIN * cell)
    gx1, gy1 = gx + cell * cols, gy + cell * rows
    centres = {
        (r, c): (gx + (c - 0.5) * cell, gy + (r - 0.5) * cell)
        for r in range(1, rows + 1)
        for c in range(1, cols + 1)
    }
    m = MARGIN * cell
    px = text_px(cell, LABEL)
    labels = [
        label(str(r), (x, gy + (r - 0.5) * cell), px)
        for r in range(1, rows + 1)
        for x in (gx - m / 2, gx1 + m / 2)
    ] + [
        label(str(c), (gx + (c - 0.5) * cell, y), px)
        for c in range(1, cols + 1)
        for y in (gy - m / 2, gy1 + m / 2)
    ]
    return Layout(size, size, centres, PIECE * cell, float(cell), (gx, gy, gx1, gy1), tuple(labels))


def die_centre(layout: Layout, axis: str, index: int) -> tuple[float, float]:
    """Where the rolled die is drawn: beyond the label at the end of the announced line."""
    cell = layout.spacing
    gx, gy, gx1, gy1 = layout.board
    beyond = (MARGIN + DIE / 2 + 0.08) * cell
    if axis == "row":
        return (gx1 + beyond, gy + (index - 0.5) * cell)
    return (gx + (index - 0.5) * cell, gy1 + beyond)


def _square_colour(state_dims: tuple[int, int, int, int], theme: Theme, r: int, c: int):
    rows, cols, by, bx = state_dims
    beyond_row = r > rows - by
    beyond_col = c > cols - bx
    if beyond_row and beyond_col:
        return mix(theme.shade, theme.grid, 0.3)  # no drop reaches it
    if beyond_row or beyond_col:
        return theme.shade
    return theme.square


@lru_cache(maxsize=48)
def _background(dims: tuple[int, int, int, int], theme: Theme, size: int) -> Image.Image:
    rows, cols, _, _ = dims
    lay = _geometry(rows, cols, size)
    cell = int(lay.spacing)
    gx, gy, gx1, gy1 = lay.board
    img = Image.new("RGB", (size, size), theme.background)
    _, bottom = bands(size)
    ImageDraw.Draw(img).rectangle((0, size - bottom, size, size), fill=theme.panel)
    m = MARGIN * cell
    draw_box(
        img, (gx - m, gy - m, gx1 + m, gy1 + m), theme.panel, 1, radius=cell * 0.3, fill=theme.panel
    )
    d = ImageDraw.Draw(img)
    line = max(1, round(cell * 0.04))
    d.rectangle((gx - line, gy - line, gx1 + line - 1, gy1 + line - 1), fill=theme.grid)
    for (r, c), (x, y) in lay.centres.items():
        h = cell / 2
        d.rectangle(
            (
                round(x - h) + line // 2 + (line % 2),
                round(y - h) + line // 2 + (line % 2),
                round(x + h) - 1 - line // 2,
                round(y + h) - 1 - line // 2,
            ),
            fill=_square_colour(dims, theme, r, c),
        )
    draw_labels(img, lay.labels, theme.muted)
    return img


def _dims(state: AtmalofState) -> tuple[int, int, int, int]:
    return (state.rows, state.cols, state.beyond_rows, state.beyond_cols)


def _sq(square: tuple[int, int]) -> str:
    return f"({square[0]},{square[1]})"


def _landing(last: Last) -> tuple[int, int] | None:
    action = last.action
    if not isinstance(action, Drop) or last.roll is None:
        return None
    return (action.index, last.roll) if action.axis == "row" else (last.roll, action.index)


def _lost(last: Last) -> bool:
    """True when the drop hit an occupied square (the turn was lost)."""
    square = _landing(last)
    return square is not None and last.before.at(square) is not None


class AtmalofRenderer(BoardRenderer):
    game = "atmalof"
    side_names = SIDE_NAMES
    marks = ("●", "○")  # Red (who moves first), Blue

    def check(self, state: Any) -> None:
        if not isinstance(state, AtmalofState):
            raise TypeError("expected an Atmalof state")

    def layout(self, state: AtmalofState, size: int) -> Layout:
        return _geometry(state.rows, state.cols, size)

    def background(self, state: AtmalofState, theme: Theme, size: int, labels: str) -> Image.Image:
        return _background(_dims(state), theme, size)

    def draw(
        self,
        img,
        state: AtmalofState,
        lasts: Sequence[Last],
        theme: Theme,
        layout: Layout,
        outcome: Outcome | None,
    ) -> None:
        cell = layout.spacing
        # Tints go under the pieces: the last action's squares.
        for last in lasts:
            square = _landing(last)
            if square is not None:
                colour = theme.warn if _lost(last) else theme.accent
                self._tint(img, state, layout, theme, square, colour)
            elif isinstance(last.action, Move):
                self._tint(img, state, layout, theme, last.action.origin, theme.accent, 0.3)
                self._tint(img, state, layout, theme, last.action.target, theme.accent)
        styles = theme.atmalof
        sprites = [disc_sprite(style, round(layout.radius)) for style in styles]
        for square, side in state.cells():
            if side is not None:
                paste_centred(img, sprites[side], layout.centres[square])
        for last in lasts:
            self._overlay(img, state, last, theme, layout)
        if outcome is not None and outcome.termination is Termination.LINE:
            for run in winning_lines(state):
                self._strike(img, layout, run, theme.strike, (20, 20, 20), cell * 0.13)
        if outcome is not None and outcome.termination is Termination.TIEBREAK:
            for side in (0, 1):
                style = styles[side]
                for k, run in enumerate(fours(state, side), start=1):
                    self._strike(img, layout, run, theme.text, style.edge, cell * 0.1, 0.15)
                    self._badge(img, layout, run, k, style.fill, style.edge)

    def _badge(self, img, layout: Layout, run, number: int, fill, edge) -> None:
        """The count of a tie-break run, in a disc between its two middle pieces."""
        cell = layout.spacing
        mid = len(run) // 2
        (ax, ay), (bx, by) = layout.centres[run[mid - 1]], layout.centres[run[mid]]
        centre = ((ax + bx) / 2, (ay + by) / 2)
        r = cell * 0.19
        draw_segment(img, centre, centre, fill, 2 * r, (255, 255, 255))
        draw_text(img, centre, str(number), round(r * 1.3), (255, 255, 255), "mm", bold=True)

    def _tint(self, img, state, layout, theme, square, colour, amount=0.55) -> None:
        x, y = layout.centres[square]
        h = layout.spacing / 2
        base = _square_colour(_dims(state), theme, *square)
        inset = max(1, round(layout.spacing * 0.04))
        box = (
            round(x - h) + inset,
            round(y - h) + inset,
            round(x + h) - inset - 1,
            round(y + h) - inset - 1,
        )
        mark(img, (box[0], box[1], box[2] + 1, box[3] + 1))
        ImageDraw.Draw(img).rectangle(box, fill=mix(base, colour, amount))

    def _strike(self, img, layout, run, fill, outline, width, extend=0.3) -> None:
        (ax, ay), (bx, by) = layout.centres[run[0]], layout.centres[run[-1]]
        n = max(1, len(run) - 1)
        ux, uy = (bx - ax) / n, (by - ay) / n
        a = (ax - ux * extend, ay - uy * extend)
        b = (bx + ux * extend, by + uy * extend)
        draw_segment(img, a, b, fill, width, outline)

    def _overlay(self, img, state: AtmalofState, last: Last, theme: Theme, layout: Layout) -> None:
        cell = layout.spacing
        gx, gy, gx1, gy1 = layout.board
        action = last.action
        if isinstance(action, Drop):
            k = action.index
            box: tuple[float, float, float, float]
            if action.axis == "row":
                box = (gx, gy + (k - 1) * cell, gx1, gy + k * cell)
            else:
                box = (gx + (k - 1) * cell, gy, gx + k * cell, gy1)
            die_at = die_centre(layout, action.axis, k)
            w = max(2, round(cell * 0.07))
            outline = (box[0] - w // 2, box[1] - w // 2, box[2] + w // 2, box[3] + w // 2)
            mark(img, (outline[0], outline[1], outline[2] + 1, outline[3] + 1))
            ImageDraw.Draw(img).rounded_rectangle(
                outline, radius=round(cell * 0.12), outline=theme.accent, width=w
            )
            if last.roll is not None:
                side = round(cell * DIE) | 1
                paste_centred(img, die_sprite(last.roll, side), die_at)
                square = _landing(last)
                if _lost(last) and square is not None:
                    x, y = layout.centres[square]
                    self._cross(img, (x + cell * 0.3, y - cell * 0.3), cell * 0.17, theme)
        elif isinstance(action, Move):
            a = layout.centres[action.origin]
            b = layout.centres[action.target]
            dx, dy = b[0] - a[0], b[1] - a[1]
            dist = (dx * dx + dy * dy) ** 0.5
            tip = 1 - (layout.radius * 0.55) / dist
            start = 0.1
            draw_arrows(
                img,
                [((a[0] + dx * start, a[1] + dy * start), (a[0] + dx * tip, a[1] + dy * tip))],
                theme.accent,
                (20, 20, 20),
                cell * 0.12,
                cell * 0.3,
            )

    def _cross(self, img, centre, r, theme: Theme) -> None:
        """A small "lost turn" badge: a cross in a disc of the warning colour."""
        x, y = centre
        draw_segment(img, (x, y), (x, y), theme.warn, 2 * r, (255, 255, 255))
        k = r * 0.5
        draw_segment(img, (x - k, y - k), (x + k, y + k), (255, 255, 255), r * 0.32)
        draw_segment(img, (x - k, y + k), (x + k, y - k), (255, 255, 255), r * 0.32)

    def end_params(self, state: AtmalofState) -> dict[str, object]:
        return {"k": state.line}

    def hand(
        self, state: AtmalofState, side: int, theme: Theme, outcome: Outcome | None, w: Words
    ) -> Hand:
        if outcome is not None and outcome.termination is Termination.TIEBREAK:
            n = len(fours(state, side))
            runs = w.t("atmalof.runs", n=n, k=state.line - 1)
            return Hand(w.t("hand.runs_in_hand", runs=runs, n=state.in_hand(side)), shorter=(runs,))
        in_hand = w.t("hand.in_hand", n=state.in_hand(side))
        both = w.t("hand.in_hand_on_board", n=state.in_hand(side), board=state.on_board(side))
        return Hand(both, shorter=(in_hand,))

    def status(
        self,
        state: AtmalofState,
        lasts: Sequence[Last],
        names: tuple[str, str],
        outcome: Outcome | None,
        w: Words,
    ) -> Status:
        sides = self.sides(w)
        if outcome is not None:
            if outcome.termination is Termination.TIEBREAK:
                counts = [len(fours(state, s)) for s in (0, 1)]
                k = state.line - 1
                if outcome.winner is None:
                    text = w.t("atmalof.tiebreak_draw", k=k, n=counts[0])
                else:
                    winner = who(names, sides, outcome.winner, w)
                    text = w.t("atmalof.tiebreak_win", who=winner, k=k, a=counts[0], b=counts[1])
                return Status(text, tone="accent")
            return result_status(outcome, names, sides, w, **self.end_params(state))
        if not lasts:
            return Status(w.t("atmalof.to_move", who=who(names, sides, state.to_move, w)))
        return self._last_status(lasts[-1], w)

    def _last_status(self, last: Last, w: Words) -> Status:
        action = last.action
        mover = self.sides(w)[last.before.to_move]
        if isinstance(action, Drop):
            axis = "row" if action.axis == "row" else "col"
            if last.roll is None:
                return Status(w.t(f"atmalof.announced.{axis}", side=mover, k=action.index))
            faces = last.before.row_faces if action.axis == "row" else last.before.col_faces
            landed = _landing(last)
            assert landed is not None  # a drop with its roll lands somewhere
            square = _sq(landed)
            if _lost(last):
                text = w.t(f"atmalof.lost.{axis}", side=mover, k=action.index, square=square)
                return Status(text, die=(last.roll, faces), tone="warn")
            text = w.t(f"atmalof.lands.{axis}", side=mover, k=action.index, square=square)
            return Status(text, die=(last.roll, faces))
        a, b = _sq(action.origin), _sq(action.target)
        return Status(w.t("atmalof.moved", side=mover, a=a, b=b))

    def said(self, last: Last, w: Words) -> str:
        """The last action for the alt text: a rolled drop as a sentence (who announced which
        line, the roll, where the piece landed), not the image's short caption."""
        action = last.action
        if not isinstance(action, Drop) or last.roll is None:
            return self._last_status(last, w).text
        landed = _landing(last)
        assert landed is not None  # a drop with its roll lands somewhere
        axis = "row" if action.axis == "row" else "col"
        key = f"alt.atmalof.{'lost' if _lost(last) else 'lands'}.{axis}"
        mover = self.sides(w)[last.before.to_move]
        return w.t(key, side=mover, k=action.index, roll=last.roll, square=_sq(landed))

    def touched(self, state: AtmalofState, lasts: Sequence[Last]) -> set[Hashable]:
        out: set[Hashable] = set()
        for last in lasts:
            square = _landing(last)
            if square is not None:
                out.add(square)
            if isinstance(last.action, Move):
                out |= {last.action.origin, last.action.target}
        return out

    def describe_position(
        self, state: AtmalofState, names: tuple[str, str], w: Words, *, over: bool = False
    ) -> list[str]:
        out = [w.t("alt.atmalof.board", rows=state.rows, cols=state.cols, line=state.line)]
        sides = self.sides(w)
        for side in (0, 1):
            squares = state.squares_of(side)
            # by row, then column: "(1,2), (3,4)", as a reader looks them up
            where = ", ".join(_sq(s) for s in sorted(squares)) if squares else w.t("alt.none")
            out.append(w.t("alt.side_hand", side=sides[side], n=state.in_hand(side), where=where))
        return out

    def text_board(self, state: AtmalofState, labels: str, w: Words) -> str:
        width = len(str(max(state.rows, state.cols)))
        head = " " * (width + 1) + " ".join(f"{c:>{width}}" for c in range(1, state.cols + 1))
        lines = [head]
        chars = {None: ".", 0: self.marks[0], 1: self.marks[1]}
        for r in range(1, state.rows + 1):
            cells = " ".join(
                f"{chars[state.at((r, c))]:>{width}}" for c in range(1, state.cols + 1)
            )
            lines.append(f"{r:>{width}} {cells}")
        sides = self.marked_sides(w)
        hands = w.t(
            "text.hands",
            side0=sides[0],
            a=state.in_hand(0),
            side1=sides[1],
            b=state.in_hand(1),
            side=sides[state.to_move],
        )
        lines.append(hands)
        return "\n".join(lines)


RENDERER = AtmalofRenderer()
