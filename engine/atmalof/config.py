"""Atmalof's board geometry: the variants, option checking, and tables built once per board.

A board is described by an ``AtmalofConfig``. Configs are interned (one object per parameter
set), so every state of a game shares the same precomputed tables (neighbours, rays, lines) and
comparing two configs is usually an identity check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.atmalof.actions import Drop, Move, Square
from engine.core import OptionError

MIN_SIZE = 3
MAX_SIZE = 12
MIN_LINE = 3
TIEBREAKS = ("either", "both")

DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (-1, 0),
    "ne": (-1, 1),
    "e": (0, 1),
    "se": (1, 1),
    "s": (1, 0),
    "sw": (1, -1),
    "w": (0, -1),
    "nw": (-1, -1),
}
"""Compass steps as (row delta, column delta): north is towards row 1, east towards column C."""

LINE_AXES: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
"""The four directions a line can run: along a row, down a column, and the two diagonals."""

OPTION_NAMES = (
    "rows",
    "cols",
    "beyond_rows",
    "beyond_cols",
    "pieces",
    "line",
    "tiebreak",
    "repetition",
    "move_limit",
)
REFEREE_OPTIONS = ("tiebreak", "repetition", "move_limit")
"""Options every variant takes (the others fix the board, so only ``custom`` changes them)."""
DEFAULT_MOVE_LIMIT = 50  # actions by EACH side without a piece landing; 0: no limit
MAX_MOVE_LIMIT = 1000
# the longest number an option is read as: longer than any board needs, so that one too large
# is refused with its range ("rows must be between 3 and 12") and never called no number
MAX_DIGITS = 40


@dataclass(frozen=True, slots=True)
class Tables:
    """Lookups precomputed for one board size; indices are (row - 1) * cols + (col - 1)."""

    squares: tuple[Square, ...]  # index -> (row, col)
    drops: tuple[Drop, ...]  # every announcement: rows 1..R, then columns 1..C
    steps: tuple[tuple[tuple[int, Move], ...], ...]  # index -> ((neighbour index, Move), ...)
    rays: tuple[tuple[tuple[int, ...], ...], ...]  # index -> per LINE_AXES: (forward, backward)
    segments: tuple[tuple[int, ...], ...]  # every maximal straight line of 2+ squares


@dataclass(frozen=True, slots=True)
class AtmalofConfig:
    """One atmaloid board: R x C, the last Y rows / X columns beyond the die, P pieces, line L."""

    rows: int
    cols: int
    beyond_rows: int
    beyond_cols: int
    pieces: int
    line: int
    tiebreak: str
    repetition: bool  # the referee's draw: the third occurrence of a position
    move_limit: int  # the referee's draw: this many actions each without a piece landing
    tables: Tables = field(compare=False, hash=False, repr=False)

    @property
    def row_faces(self) -> int:
        """Faces of the die rolled after announcing a row: it picks the column."""
        return self.cols - self.beyond_cols

    @property
    def col_faces(self) -> int:
        """Faces of the die rolled after announcing a column: it picks the row."""
        return self.rows - self.beyond_rows

    def contains(self, square: Square) -> bool:
        r, c = square
        return 1 <= r <= self.rows and 1 <= c <= self.cols

    def index(self, square: Square) -> int:
        return (square[0] - 1) * self.cols + square[1] - 1

    def as_options(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in OPTION_NAMES}


VARIANT_PRESETS: dict[str, dict[str, Any]] = {
    "standard": dict(rows=7, cols=7, beyond_rows=1, beyond_cols=1, pieces=22, line=5),
    "junior": dict(rows=6, cols=6, beyond_rows=0, beyond_cols=0, pieces=16, line=5),
    # Atmalos: the author gives no piece count; 36 keeps standard's ratio (22/49 ~ 36/81).
    "atmalos": dict(rows=9, cols=9, beyond_rows=1, beyond_cols=1, pieces=36, line=7),
    "custom": dict(rows=7, cols=7, beyond_rows=1, beyond_cols=1, pieces=22, line=5),
}
VARIANTS: tuple[str, ...] = tuple(VARIANT_PRESETS)


def defaults(variant: str) -> dict[str, Any]:
    """The full option set a variant starts from (custom starts from standard's)."""
    return {
        **VARIANT_PRESETS[variant],
        "tiebreak": "either",
        "repetition": True,
        "move_limit": DEFAULT_MOVE_LIMIT,
    }


def build_config(variant: str, options: dict[str, Any]) -> AtmalofConfig:
    """Check a variant and its options and return the shared config; raises OptionError."""
    if not isinstance(variant, str) or variant.strip().lower() not in VARIANT_PRESETS:
        raise OptionError(
            f"unknown Atmalof variant {variant!r}: choose one of {', '.join(VARIANTS)}",
            "unknown_variant",
            variant=str(variant)[:40],
            choices=list(VARIANTS),
        )
    variant = variant.strip().lower()
    values = defaults(variant)
    for name, raw in options.items():
        if name not in OPTION_NAMES:
            raise OptionError(
                f"unknown Atmalof option {name!r}: the options are {', '.join(OPTION_NAMES)}",
                "unknown_option",
                option=str(name)[:40],
                choices=list(OPTION_NAMES),
            )
        value: str | bool | int
        if name == "tiebreak":
            value = _tiebreak(raw)
        elif name == "repetition":
            value = _on_off(name, raw)
        elif name == "move_limit":
            value = _move_limit(raw)
        else:
            value = _whole_number(name, raw)
        if variant != "custom" and name not in REFEREE_OPTIONS and value != values[name]:
            raise OptionError(
                f"the {variant} variant has {name}={values[name]}; "
                f"use the custom variant to change it",
                "preset_fixed",
                variant=variant,
                name=name,
                value=values[name],
            )
        values[name] = value
    _check_sane(values)
    return _interned(**values)


def _whole_number(name: str, raw: Any) -> int:
    if isinstance(raw, bool):
        raise OptionError(
            f"{name} must be a whole number, not {raw!r}",
            "not_whole_number",
            name=name,
            value=str(raw)[:40],
        )
    if isinstance(raw, int):
        return raw
    if (
        isinstance(raw, str)
        and raw.strip().isascii()
        and raw.strip().isdigit()
        and len(raw.strip()) <= MAX_DIGITS
    ):
        return int(raw.strip())
    raise OptionError(
        f"{name} must be a whole number, not {raw!r}",
        "not_whole_number",
        name=name,
        value=str(raw)[:40],
    )


def _on_off(name: str, raw: Any) -> bool:
    value = raw.strip().lower() if isinstance(raw, str) else raw
    if value in (True, "on", "true", "yes"):
        return True
    if value in (False, "off", "false", "no"):
        return False
    raise OptionError(
        f"{name} must be on or off, not {raw!r}", "not_on_off", name=name, value=str(raw)[:40]
    )


def _move_limit(raw: Any) -> int:
    value = _whole_number("move_limit", raw) if not isinstance(raw, str) else None
    if isinstance(raw, str) and raw.strip().isascii() and raw.strip().isdigit():
        value = int(raw.strip()) if len(raw.strip()) <= 5 else None
    if value is None or not 0 <= value <= MAX_MOVE_LIMIT:
        raise OptionError(
            f"move_limit must be a whole number of actions each from 0 (off) to "
            f"{MAX_MOVE_LIMIT}, not {raw!r}",
            "move_limit_range",
            most=MAX_MOVE_LIMIT,
            value=str(raw)[:40],
        )
    return value


def _tiebreak(raw: Any) -> str:
    value = raw.strip().lower() if isinstance(raw, str) else raw
    if value not in TIEBREAKS:
        raise OptionError(
            f"tiebreak must be 'either' or 'both', not {raw!r}", "bad_tiebreak", value=str(raw)[:40]
        )
    return value


def _check_sane(v: dict[str, Any]) -> None:
    rows, cols, line, pieces = v["rows"], v["cols"], v["line"], v["pieces"]
    for name in ("rows", "cols"):
        if not MIN_SIZE <= v[name] <= MAX_SIZE:
            raise OptionError(
                f"{name} must be between {MIN_SIZE} and {MAX_SIZE}, not {v[name]}",
                "size_range",
                name=name,
                least=MIN_SIZE,
                most=MAX_SIZE,
                value=v[name],
            )
    for name, size in (("beyond_rows", "rows"), ("beyond_cols", "cols")):
        if v[name] < 0:
            raise OptionError(
                f"{name} cannot be negative ({v[name]})",
                "beyond_negative",
                name=name,
                value=v[name],
            )
        if v[name] >= v[size]:
            raise OptionError(
                f"{name} ({v[name]}) must be smaller than {size} ({v[size]})",
                "beyond_too_big",
                name=name,
                value=v[name],
                size=size,
                size_value=v[size],
            )
    if cols - v["beyond_cols"] < 2:
        raise OptionError(
            f"announcing a row would roll a die of {cols - v['beyond_cols']} face(s) "
            f"(cols - beyond_cols); a die needs at least 2",
            "row_die_too_small",
            faces=cols - v["beyond_cols"],
        )
    if rows - v["beyond_rows"] < 2:
        raise OptionError(
            f"announcing a column would roll a die of {rows - v['beyond_rows']} face(s) "
            f"(rows - beyond_rows); a die needs at least 2",
            "col_die_too_small",
            faces=rows - v["beyond_rows"],
        )
    if line < MIN_LINE:
        raise OptionError(
            f"line must be at least {MIN_LINE}, not {line}",
            "line_too_short",
            least=MIN_LINE,
            value=line,
        )
    if line > max(rows, cols):
        raise OptionError(
            f"a line of {line} cannot fit on a {rows}x{cols} board",
            "line_too_long",
            line=line,
            rows=rows,
            cols=cols,
        )
    if pieces < line:
        raise OptionError(
            f"pieces ({pieces}) must be at least line ({line}), or nobody could make a line",
            "too_few_pieces",
            pieces=pieces,
            line=line,
        )
    if 2 * pieces > rows * cols:
        raise OptionError(
            f"{pieces} pieces each need {2 * pieces} squares, "
            f"but a {rows}x{cols} board has only {rows * cols}",
            "too_many_pieces",
            pieces=pieces,
            squares=2 * pieces,
            rows=rows,
            cols=cols,
            board=rows * cols,
        )


@cache
def _interned(**values: Any) -> AtmalofConfig:
    return AtmalofConfig(**values, tables=_tables(values["rows"], values["cols"]))


@cache
def _tables(rows: int, cols: int) -> Tables:
    squares = tuple((r, c) for r in range(1, rows + 1) for c in range(1, cols + 1))

    def inside(r: int, c: int) -> bool:
        return 1 <= r <= rows and 1 <= c <= cols

    def idx(r: int, c: int) -> int:
        return (r - 1) * cols + c - 1

    steps = []
    rays = []
    for r, c in squares:
        steps.append(
            tuple(
                (idx(r + dr, c + dc), Move((r, c), (r + dr, c + dc)))
                for dr, dc in DIRECTIONS.values()
                if inside(r + dr, c + dc)
            )
        )
        per_axis = []
        for dr, dc in LINE_AXES:
            for sign in (1, -1):
                ray = []
                rr, cc = r + sign * dr, c + sign * dc
                while inside(rr, cc):
                    ray.append(idx(rr, cc))
                    rr, cc = rr + sign * dr, cc + sign * dc
                per_axis.append(tuple(ray))
        rays.append(tuple(per_axis))
    segments = []
    for dr, dc in LINE_AXES:
        for r, c in squares:
            if inside(r - dr, c - dc):
                continue  # not the start of a maximal line
            seg = []
            rr, cc = r, c
            while inside(rr, cc):
                seg.append(idx(rr, cc))
                rr, cc = rr + dr, cc + dc
            if len(seg) >= 2:
                segments.append(tuple(seg))
    drops = tuple(Drop("row", k) for k in range(1, rows + 1)) + tuple(
        Drop("col", k) for k in range(1, cols + 1)
    )
    return Tables(squares, drops, tuple(steps), tuple(rays), tuple(segments))
