"""The Morris boards: points, names, lines and mills, precomputed as bitmasks at import.

A point is an ``int`` index into its board's ``names``. On the 24-point board (Nine and Twelve
Men's Morris) the index follows the seed's letters, so 0 is A (a7) and 23 is X (g1). Every point
has a grid name on the 7x7 grid (files a..g, ranks 1..7) and a letter A..X (the seed's labels).

Input names: a letter followed by a digit is a grid point ("d7"); a bare single letter is the
seed's letter name ("b" is B, which is d7, never the file b). Both are case-insensitive.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import ParseError, shown_token

_GRID_NAMES = "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1"
GRID_OF_LETTER: dict[str, str] = dict(
    zip("ABCDEFGHIJKLMNOPQRSTUVWX", _GRID_NAMES.split(" "), strict=True)
)
"""The seed's letter for each point of the 24-point board, to its grid name."""

_NINE_EDGES = (
    "AB BC CO OX XW WV VJ JA DE EF FN NU UT TS SK KD GH HI IM MR RQ QP PL LG "
    "BE EH JK KL MN NO QT TW"
)
_NINE_MILLS = "ABC DEF GHI JKL MNO PQR STU VWX AJV DKS GLP BEH QTW IMR FNU COX"
_DIAGONAL_EDGES = "AD DG CF FI VS SP XU UR"
_DIAGONAL_MILLS = "ADG CFI PSV RUX"
_SIX_POINTS = "ABCDEFJKNOSTUVWX"
_SIX_EDGES = "AB BC CO OX XW WV VJ JA DE EF FN NU UT TS SK KD BE JK NO TW"
_SIX_MILLS = "ABC VWX AJV COX DEF STU DKS FNU"


@dataclass(frozen=True, slots=True)
class Layout:
    """One board: its points, lines and mills, plus the bitmask tables the rules run on."""

    points: tuple[str, ...]  # grid names in index order
    letters: tuple[str, ...]  # the seed's letter of each point
    coords: tuple[tuple[int, int], ...]  # (file 0..6 for a..g, rank 0..6 for 1..7, from bottom)
    edges: tuple[tuple[int, int], ...]
    mills: tuple[tuple[int, int, int], ...]
    neighbours: tuple[int, ...] = field(repr=False)  # bitmask of the neighbours of each point
    mill_masks: tuple[int, ...] = field(repr=False)
    mills_at: tuple[tuple[int, ...], ...] = field(repr=False)  # masks of the mills through a point
    full: int = field(repr=False)  # bitmask of every point
    index: dict[str, int] = field(repr=False, compare=False, hash=False)

    @property
    def size(self) -> int:
        return len(self.points)

    def point(self, token: str) -> int:
        """The index of a point named in input ("d7", "D7", "b", "B"); raises ParseError."""
        key = token.strip().lower()
        found = self.index.get(key)
        if found is None:
            shown = shown_token(token.strip(), 12)
            if len(key) == 1 and key.isalpha():
                raise ParseError(
                    f"'{shown}' is not a point on this board (letters A..X name points)",
                    "not_a_point",
                    token=shown,
                )
            raise ParseError(f"'{shown}' is not a point on the board", "not_a_point", token=shown)
        return found


def _build(letters: str, edges: str, mills: str) -> Layout:
    order = {letter: i for i, letter in enumerate(letters)}
    names = tuple(GRID_OF_LETTER[letter] for letter in letters)
    coords = tuple((ord(name[0]) - ord("a"), int(name[1]) - 1) for name in names)
    edge_list = tuple((order[pair[0]], order[pair[1]]) for pair in edges.split())
    mill_list = tuple(tuple(order[c] for c in trio) for trio in mills.split())
    neighbours = [0] * len(letters)
    for a, b in edge_list:
        neighbours[a] |= 1 << b
        neighbours[b] |= 1 << a
    masks = tuple(sum(1 << p for p in mill) for mill in mill_list)
    mills_at = tuple(tuple(m for m in masks if m >> p & 1) for p in range(len(letters)))
    index: dict[str, int] = {}
    for i, (name, letter) in enumerate(zip(names, letters, strict=True)):
        index[name] = i
        index[letter.lower()] = i
    return Layout(
        points=names,
        letters=tuple(letters),
        coords=coords,
        edges=edge_list,
        mills=mill_list,  # type: ignore[arg-type]
        neighbours=tuple(neighbours),
        mill_masks=masks,
        mills_at=mills_at,
        full=(1 << len(letters)) - 1,
        index=index,
    )


NINE = _build("ABCDEFGHIJKLMNOPQRSTUVWX", _NINE_EDGES, _NINE_MILLS)
TWELVE = _build(
    "ABCDEFGHIJKLMNOPQRSTUVWX",
    f"{_NINE_EDGES} {_DIAGONAL_EDGES}",
    f"{_NINE_MILLS} {_DIAGONAL_MILLS}",
)
SIX = _build(_SIX_POINTS, _SIX_EDGES, _SIX_MILLS)


def bits_table(offset: int) -> tuple[tuple[int, ...], ...]:
    """For every 12-bit mask, the indices of its set bits (plus ``offset``), ascending."""
    return tuple(tuple(i + offset for i in range(12) if m >> i & 1) for m in range(4096))


BITS_LO = bits_table(0)
BITS_HI = bits_table(12)


def bits(mask: int) -> tuple[int, ...]:
    """The points of a bitmask of at most 24 points, ascending."""
    return BITS_LO[mask & 4095] + BITS_HI[mask >> 12]
