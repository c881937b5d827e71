"""Morris boards (Nine, Six and Twelve Men's Morris): nested squares, men, men in hand.

Overlays: closed mills glow under the men; the last placement is ringed, a move or fly has an
arrow from the point it left, a removed man leaves a crossed-out ghost; while a removal is
pending, the men that may be taken are ringed with dashes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.core import EngineError, Outcome
from engine.morris import (
    SIDES,
    MorrisState,
    Move,
    Place,
    Remove,
    closes_mill,
    men,
    men_in_hand,
    men_on_board,
    mills,
    pending_removal,
    removable,
)
from engine.morris import layout as board_layout
from engine.morris.board import Layout as Board
from render.board import BoardRenderer, one_after_another, result_status, who
from render.frame import Hand, Status, bands, board_box
from render.model import Last, Layout
from render.paint import (
    Sprite,
    disc_sprite,
    draw_arrows,
    draw_box,
    draw_labels,
    draw_ring,
    draw_segment,
    draw_text,
    label,
    paste_centred,
    text_px,
)
from render.theme import PieceStyle, Theme
from translations import Words

MARGIN = 1.0  # label margin around the outer square, in grid units
MAN = 0.36  # a man's radius, in grid units
DOT = 0.11  # an empty point's dot
LABEL = 0.34  # label size, in grid units
LABEL_AT = 0.27  # a label's centre from the board's edge, in margins (0.4 touched a ring)


@lru_cache(maxsize=32)
def _geometry(board: Board, size: int) -> Layout:
    x0, y0, x1, y1 = board_box(size)
    pad = size * 0.01
    side = (y1 - y0) - 2 * pad
    unit = side / (6 + 2 * MARGIN)
    ox = (x0 + x1) / 2 - 3 * unit
    oy = (y0 + y1) / 2 - 3 * unit
    centres = {
        name: (round(ox + f * unit), round(oy + (6 - r) * unit))
        for name, (f, r) in zip(board.points, board.coords, strict=True)
    }
    m = MARGIN * unit
    box = (round(ox - m), round(oy - m), round(ox + 6 * unit + m), round(oy + 6 * unit + m))
    px = text_px(unit, LABEL)
    edge = m * LABEL_AT  # a ringed corner man (0.49 units) stays clear of its labels
    labels = [
        label("abcdefg"[f], (box[0] + m + f * unit, y), px)
        for f in range(7)
        for y in (box[1] + edge, box[3] - edge)
    ] + [
        label(str(r + 1), (x, box[3] - m - r * unit), px)
        for r in range(7)
        for x in (box[0] + edge, box[2] - edge)
    ]
    return Layout(size, size, centres, MAN * unit, unit, box, tuple(labels))


@lru_cache(maxsize=48)
def _background(board: Board, theme: Theme, size: int, labels: str) -> Image.Image:
    lay = _geometry(board, size)
    unit = lay.spacing
    img = Image.new("RGB", (size, size), theme.background)
    _, bottom = bands(size)
    ImageDraw.Draw(img).rectangle((0, size - bottom, size, size), fill=theme.panel)
    draw_box(img, lay.board, theme.wood, 1, radius=unit * 0.35, fill=theme.wood)
    names = board.points
    width = unit * 0.075
    for a, b in board.edges:
        draw_segment(img, lay.centres[names[a]], lay.centres[names[b]], theme.line, width)
    for x, y in lay.centres.values():
        draw_segment(img, (x, y), (x, y), theme.line, 2 * DOT * unit)
    if labels == "letters":
        px = text_px(unit, LABEL * 0.9)
        for name, letter in zip(names, board.letters, strict=True):
            x, y = lay.centres[name]
            draw_text(
                img, (x - unit * 0.43, y - unit * 0.43), letter, px, theme.line, "mm", bold=True
            )
    else:
        draw_labels(img, lay.labels, theme.line)
    return img


@lru_cache(maxsize=32)
def _ghost(style: PieceStyle, radius: int) -> Sprite:
    return disc_sprite(style, radius, False).faded(0.4)


def _name(state: MorrisState, point: int) -> str:
    return board_layout(state).points[point]


def _turns(lasts: Sequence[Last]) -> list[tuple[Last, int | None]]:
    """The last actions as turns: a removal right after the same side's placement or move is
    said with it ("White placed g7 and removed b6"), with the point it took."""
    turns: list[tuple[Last, int | None]] = []
    for last in lasts:
        previous = turns[-1][0] if turns else None
        if (
            isinstance(last.action, Remove)
            and previous is not None
            and not isinstance(previous.action, Remove)
            and previous.action.remove is None
            and turns[-1][1] is None
            and previous.before.to_move == last.before.to_move
        ):
            turns[-1] = (previous, last.action.point)
        else:
            turns.append((last, None))
    return turns


def _removed(last: Last) -> int | None:
    action = last.action
    if isinstance(action, Remove):
        return action.point
    if isinstance(action, (Place, Move)):
        return action.remove
    return None


def closed_mills(state: MorrisState, lasts: Sequence[Last]) -> list[tuple[int, ...]]:
    """The mills the last action(s) closed: the mover's mills through the point a man was just
    placed on or moved to. Mills that stood before are not highlighted (they would hide the
    new one, and they are not news)."""
    out: list[tuple[int, ...]] = []
    for last in lasts:
        action = last.action
        if isinstance(action, Place):
            point = action.point
        elif isinstance(action, Move):
            point = action.dst
        else:
            continue
        for mill in mills(state, last.before.to_move):
            if point in mill and mill not in out:
                out.append(mill)
    return out


def _flew(last: Last) -> bool:
    action = last.action
    if not isinstance(action, Move):
        return False
    return not board_layout(last.before).neighbours[action.src] >> action.dst & 1


class MorrisRenderer(BoardRenderer):
    game = "morris"
    side_names = SIDES
    marks = ("○", "●")  # White, Black

    def check(self, state: Any) -> None:
        if not isinstance(state, MorrisState):
            raise TypeError("expected a Morris state")

    def layout(self, state: MorrisState, size: int) -> Layout:
        return _geometry(board_layout(state), size)

    def background(self, state: MorrisState, theme: Theme, size: int, labels: str) -> Image.Image:
        return _background(board_layout(state), theme, size, labels)

    def draw(
        self,
        img,
        state: MorrisState,
        lasts: Sequence[Last],
        theme: Theme,
        layout: Layout,
        outcome: Outcome | None,
    ) -> None:
        board = board_layout(state)
        unit = layout.spacing
        c = layout.centres
        names = board.points
        for mill in closed_mills(state, lasts):
            draw_segment(img, c[names[mill[0]]], c[names[mill[-1]]], theme.accent, unit * 0.2)
        styles = theme.morris
        radius = round(layout.radius)
        for side in (0, 1):
            sprite = disc_sprite(styles[side], radius)
            for p in men(state, side):
                paste_centred(img, sprite, c[names[p]])
        self._hands(img, state, theme, layout)
        for last in lasts:
            self._overlay(img, state, last, theme, layout)
        if pending_removal(state) and outcome is None:
            for p in sorted(removable(state)):
                draw_ring(
                    img,
                    c[names[p]],
                    layout.radius + unit * 0.1,
                    theme.warn,
                    unit * 0.07,
                    dashed=True,
                )

    def _hands(self, img, state: MorrisState, theme: Theme, layout: Layout) -> None:
        """Men still to place, stacked in a column at each side of the board."""
        bx0, by0, bx1, by1 = layout.board
        unit = layout.spacing
        r = round(min(unit * 0.26, bx0 * 0.32))
        step = min(2 * r + 4, (by1 - by0) / max(1, state.rules.pieces))
        for side in (0, 1):
            n = men_in_hand(state, side)
            if not n:
                continue
            sprite = disc_sprite(theme.morris[side], r)
            x = bx0 / 2 if side == 0 else (bx1 + layout.width) / 2
            top = (by0 + by1) / 2 - step * (state.rules.pieces - 1) / 2
            for k in range(n):
                paste_centred(img, sprite, (x, top + k * step))

    def _overlay(self, img, state: MorrisState, last: Last, theme: Theme, layout: Layout) -> None:
        unit = layout.spacing
        c = layout.centres
        action = last.action
        before = last.before
        dark = (20, 20, 20)
        if isinstance(action, Place):
            draw_ring(
                img,
                c[_name(before, action.point)],
                layout.radius + unit * 0.09,
                theme.accent,
                unit * 0.08,
            )
        elif isinstance(action, Move):
            a = c[_name(before, action.src)]
            b = c[_name(before, action.dst)]
            draw_ring(img, a, layout.radius * 0.75, theme.accent, unit * 0.06, dashed=True)
            dx, dy = b[0] - a[0], b[1] - a[1]
            dist = (dx * dx + dy * dy) ** 0.5 or 1.0
            # From the empty point's middle to the man's rim: even a one-unit step gets an
            # arrow of about two thirds of a unit, with a head a player sees at 400 px.
            tip = 1 - (layout.radius - unit * 0.02) / dist
            draw_arrows(
                img,
                [(a, (a[0] + dx * tip, a[1] + dy * tip))],
                theme.accent,
                dark,
                unit * 0.2,
                unit * 0.42,
            )
        removed = _removed(last)
        if removed is not None:
            x, y = c[_name(before, removed)]
            victim = 1 - before.to_move
            paste_centred(img, _ghost(theme.morris[victim], round(layout.radius)), (x, y))
            k = layout.radius * 0.55
            for a, b in (((x - k, y - k), (x + k, y + k)), ((x - k, y + k), (x + k, y - k))):
                draw_segment(img, a, b, theme.warn, unit * 0.09)

    def hand(
        self, state: MorrisState, side: int, theme: Theme, outcome: Outcome | None, w: Words
    ) -> Hand:
        hand, board = men_in_hand(state, side), men_on_board(state, side)
        if men_in_hand(state, 0) or men_in_hand(state, 1):  # both cards say the same facts
            both = w.t("hand.in_hand_on_board", n=hand, board=board)
            return Hand(both, shorter=(w.t("hand.in_hand", n=hand),))
        return Hand(w.t("hand.on_board", n=board))

    def turn_tag(self, state: MorrisState, w: Words) -> str:
        return w.t("tag.to_remove") if pending_removal(state) else w.t("tag.to_move")

    def turn_said(self, state: MorrisState, who: str, w: Words) -> str:
        """A mill's owed removal, as the badge's "TO REMOVE" and the reply say it."""
        if pending_removal(state):
            return w.t("alt.morris.to_remove", who=who, side=self.sides(w)[1 - state.to_move])
        return w.t("alt.to_move", who=who)

    def status(
        self,
        state: MorrisState,
        lasts: Sequence[Last],
        names: tuple[str, str],
        outcome: Outcome | None,
        w: Words,
    ) -> Status:
        sides = self.sides(w)
        if outcome is not None:
            return result_status(outcome, names, sides, w)
        if pending_removal(state):
            return Status(w.t("morris.mill_remove", side=sides[state.to_move]), tone="warn")
        if not lasts:
            key = "morris.to_place" if men_in_hand(state, state.to_move) else "status.to_move"
            return Status(w.t(key, who=who(names, sides, state.to_move, w)))
        parts = [self._said(last, w, taken) for last, taken in _turns(lasts)]
        return Status(one_after_another(parts, w))

    def said(self, last: Last, w: Words) -> str:
        return self._said(last, w, None)

    def said_turns(self, lasts: Sequence[Last], w: Words) -> list[str]:
        out = []
        for last, taken in _turns(lasts):
            with contextlib.suppress(EngineError):
                out.append(self._said(last, w, taken))
        return out

    def _said(self, last: Last, w: Words, taken: int | None) -> str:
        action = last.action
        before = last.before
        mover = self.sides(w)[before.to_move]
        if isinstance(action, Remove):
            return w.t("morris.removed", side=mover, point=_name(before, action.point))
        if action.remove is not None:
            taken = action.remove
        gone = None if taken is None else _name(before, taken)
        # a mill whose removal is still to come (or removes nothing): said in every language
        mill = "_mill" if gone is None and closes_mill(before, action) else ""
        if isinstance(action, Place):
            point = _name(before, action.point)
            if gone is None:
                return w.t(f"morris.placed{mill}", side=mover, point=point)
            return w.t("morris.placed_removed", side=mover, point=point, taken=gone)
        verb = "flew" if _flew(last) else "moved"
        a, b = _name(before, action.src), _name(before, action.dst)
        if gone is None:
            return w.t(f"morris.{verb}{mill}", side=mover, a=a, b=b)
        return w.t(f"morris.{verb}_removed", side=mover, a=a, b=b, taken=gone)

    def touched(self, state: MorrisState, lasts: Sequence[Last]) -> set[Hashable]:
        out: set[Hashable] = set()
        for last in lasts:
            action = last.action
            if isinstance(action, Move):
                out |= {_name(last.before, action.src), _name(last.before, action.dst)}
            removed = _removed(last)
            if removed is not None:
                out.add(_name(last.before, removed))
        return out

    def describe_position(
        self, state: MorrisState, names: tuple[str, str], w: Words, *, over: bool = False
    ) -> list[str]:
        board = board_layout(state)
        sides = self.sides(w)
        out = []
        for side in (0, 1):
            # in notation order ("a1, a4, b2"), as a reader looks them up: not the points' order
            where = ", ".join(sorted(board.points[p] for p in men(state, side))) or w.t("alt.none")
            hand = men_in_hand(state, side)
            out.append(w.t("alt.side_hand", side=sides[side], n=hand, where=where))
        closed = mills(state)
        if closed:
            listed = ", ".join("-".join(board.points[p] for p in m) for m in closed)
            out.append(w.t("alt.morris.mills", mills=listed))
        if pending_removal(state) and not over:
            takeable = ", ".join(sorted(board.points[p] for p in removable(state)))
            out.append(w.t("alt.morris.must_remove", side=sides[state.to_move], points=takeable))
        return out

    def text_board(self, state: MorrisState, labels: str, w: Words) -> str:
        board = board_layout(state)
        grid = [[" "] * 25 for _ in range(13)]
        at = {}
        for name, (f, r) in zip(board.points, board.coords, strict=True):
            at[name] = (12 - 2 * r, 4 * f)
        for a, b in board.edges:
            (ya, xa), (yb, xb) = at[board.points[a]], at[board.points[b]]
            if ya == yb:
                for x in range(min(xa, xb) + 1, max(xa, xb)):
                    grid[ya][x] = "-"
            elif xa == xb:
                for y in range(min(ya, yb) + 1, max(ya, yb)):
                    grid[y][xa] = "|"
        chars = {}
        for side, ch in enumerate(self.marks):
            for p in men(state, side):
                chars[board.points[p]] = ch
        for i, name in enumerate(board.points):
            y, x = at[name]
            grid[y][x] = chars.get(name, board.letters[i].lower() if labels == "letters" else ".")
        rows = []
        for y, row in enumerate(grid):
            label = str(7 - y // 2) if y % 2 == 0 and labels != "letters" else " "
            rows.append(f"{label} {''.join(row)}".rstrip())
        if labels != "letters":
            rows.append("  a   b   c   d   e   f   g")
        sides = self.marked_sides(w)
        counts = [men_in_hand(state, 0), men_in_hand(state, 1)]
        key = "text.hands_remove" if pending_removal(state) else "text.hands"
        if not any(counts):  # every man placed: the men on the board count (three fly)
            counts = [len(men(state, 0)), len(men(state, 1))]
            key = "text.men_remove" if pending_removal(state) else "text.men"
        rows.append(
            w.t(
                key,
                side0=sides[0],
                a=counts[0],
                side1=sides[1],
                b=counts[1],
                side=sides[state.to_move],
            )
        )
        return "\n".join(rows)


RENDERER = MorrisRenderer()
