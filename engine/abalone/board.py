"""Abalone's board geometry and starting layouts, precomputed once at import.

The 61 cells are numbered 0..60 in reading order A1..A5, B1..B6, ..., I5..I9 (rows A..I from
Black's side, numbers 1..9 the diagonals running lower left to upper right). Index ``OFF`` (61)
stands for "off the board": every neighbour table maps an edge step to ``OFF`` and ``OFF`` to
itself, and a board is read with one extra ``BORDER`` byte appended, so move generation never
needs a bounds check.
"""

from __future__ import annotations

ROWS = "abcdefghi"
EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
"""Cell contents in a board's bytes; side ``s`` owns the value ``s + 1``."""

CELLS: tuple[tuple[int, int], ...] = tuple(
    (row, number) for row in range(9) for number in range(max(1, row - 3), min(9, row + 5) + 1)
)
"""Each cell as (row letter index 0..8 for A..I, diagonal number 1..9), in index order."""

CELL_NAMES: tuple[str, ...] = tuple(f"{ROWS[row]}{number}" for row, number in CELLS)
CELL_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}
N_CELLS = len(CELLS)
OFF = N_CELLS

DIRECTIONS: tuple[str, ...] = ("ne", "e", "se", "sw", "w", "nw")
"""Clockwise from north-east; direction ``d`` and ``(d + 3) % 6`` are opposite."""
DIRECTION_WORDS: tuple[str, ...] = (
    "north-east",
    "east",
    "south-east",
    "south-west",
    "west",
    "north-west",
)
STEPS: tuple[tuple[int, int], ...] = ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))
"""(row step, number step) of each direction."""
AXES: tuple[int, ...] = (0, 1, 5)
"""The directions (ne, e, nw) that lead from a lower cell index to a higher one."""

_POSITION = {cell: i for i, cell in enumerate(CELLS)}


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def _step(cell: int, direction: int) -> int:
    row, number = CELLS[cell]
    dr, dn = STEPS[direction]
    return _POSITION.get((row + dr, number + dn), OFF)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    (*(_step(c, d) for c in range(N_CELLS)), OFF) for d in range(6)
)
"""``NEIGHBOURS[d][cell]``: the next cell in direction ``d``, or ``OFF``."""

LAYOUTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "standard": (
        ("a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6", "c3", "c4", "c5"),
        ("i5", "i6", "i7", "i8", "i9", "h4", "h5", "h6", "h7", "h8", "h9", "g5", "g6", "g7"),
    ),
    "belgian-daisy": (
        ("a1", "a2", "b1", "b2", "b3", "c2", "c3", "i8", "i9", "h7", "h8", "h9", "g7", "g8"),
        ("a4", "a5", "b4", "b5", "b6", "c5", "c6", "i5", "i6", "h4", "h5", "h6", "g4", "g5"),
    ),
    "german-daisy": (
        ("b1", "b2", "c1", "c2", "c3", "d2", "d3", "f7", "f8", "g7", "g8", "g9", "h8", "h9"),
        ("b5", "b6", "c5", "c6", "c7", "d6", "d7", "f3", "f4", "g3", "g4", "g5", "h4", "h5"),
    ),
}
"""Black's and White's starting cells for each variant (Black is side 0 and moves first)."""
VARIANTS: tuple[str, ...] = tuple(LAYOUTS)
MARBLES_PER_SIDE = 14


def start_board(variant: str) -> bytes:
    """The 61-byte board a variant starts from."""
    board = bytearray(N_CELLS)
    for side, names in enumerate(LAYOUTS[variant]):
        for name in names:
            board[CELL_INDEX[name]] = side + 1
    return bytes(board)


def direction_between(a: int, b: int) -> int | None:
    """The direction leading from cell ``a`` to its neighbour ``b`` (None if not neighbours)."""
    for d in range(6):
        if NEIGHBOURS[d][a] == b:
            return d
    return None


def line_axis(a: int, b: int) -> tuple[int, int] | None:
    """(axis direction, steps) of the straight line from ``a`` to ``b``; None if off-line.

    The axis is one of ``AXES`` and the line runs from the lower index to the higher one.
    """
    (ra, na), (rb, nb) = CELLS[a], CELLS[b]
    dr, dn = abs(rb - ra), abs(nb - na)
    if dr == 0:
        return 1, dn
    if dn == 0:
        return 5, dr
    if (rb - ra) == (nb - na):
        return 0, dr
    return None
