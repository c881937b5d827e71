"""Atmalof's two kinds of action, as small frozen values shared by engine, referee and renderer."""

from __future__ import annotations

from dataclasses import dataclass

Square = tuple[int, int]
"""(row, column), both 1-based; row 1 is drawn at the top, column 1 at the left."""


@dataclass(frozen=True, slots=True)
class Drop:
    """The announcement of a drop: ``axis`` "row" or "col" and the line's number ``index``.

    The die is rolled only after the announcement; ``apply(state, drop, roll=d)`` then puts the
    piece on (index, d) for a row or (d, index) for a column, if that square is empty.
    """

    axis: str
    index: int


@dataclass(frozen=True, slots=True)
class Move:
    """One king step of the mover's own piece from ``origin`` to the adjacent empty ``target``."""

    origin: Square
    target: Square
