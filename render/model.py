"""The small values the renderers share: the error, the last action, a board's pixel layout."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MIN_SIZE = 200
MAX_SIZE = 2000


class RenderError(ValueError):
    """A drawing request that cannot be honoured (unknown theme or game, size out of bounds)."""


@dataclass(frozen=True, slots=True)
class Last:
    """What the referee knows after applying an action: the state before it, the action, the roll.

    ``Last(before, action, roll)`` is all a renderer needs for the overlays (announced line and
    die, arrows, removed men, pushed marbles): it compares ``before`` with the state drawn.
    """

    before: Any
    action: Any
    roll: int | None = None


Point = tuple[float, float]
Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Label:
    """A coordinate label beside the board: its text, where and how large it is drawn, and the
    box its glyphs cover (so overlays can keep clear of it, and tests can check they do)."""

    text: str
    centre: Point
    px: int
    box: Box


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel geometry of one board at one size: the centre of every cell and the piece radius.

    Keys are the game's own cell names: Atmalof (row, col) tuples, Morris point names "a7",
    Abalone cell names "a1" (row letter + diagonal number, lower case).
    """

    width: int
    height: int
    centres: Mapping[Any, Point]  # keyed by each game's own cell names (above)
    radius: float  # of a piece, in pixels
    spacing: float  # distance between neighbouring cell centres, in pixels
    board: tuple[int, int, int, int]  # the box the board is drawn in (x0, y0, x1, y1)
    labels: tuple[Label, ...] = ()  # the coordinate labels drawn around the board


def check_size(size: Any) -> int:
    """The image width in pixels, or RenderError when it is not a whole number in bounds."""
    if isinstance(size, bool) or not isinstance(size, int):
        raise RenderError(f"size must be a whole number of pixels, not {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RenderError(f"size must be between {MIN_SIZE} and {MAX_SIZE} pixels, not {size}")
    return size
