"""Abalone text: move commands in, canonical notation out, and the one-line position string.

Commands (case, spaces, commas and hyphens do not matter; a leading ``push`` is optional):

- ``push <first> [<last>] <direction>``: the line from ``first`` to ``last`` (either order;
  a middle marble may be named too) moves one cell. Directions: ``ne e se sw w nw`` or the words
  ``north-east``/``northeast``/``north east``, ``east``, ... Canonical form: lower case, the
  trailing marble first for an in-line move (``push a1 a3 ne``, ``push a3 a1 sw``), the lower
  cell first for a broadside (``push a1 a3 nw``), one cell for a single marble (``push c3 e``).
- Aba-Pro in-line ``a1b2``: a marble then the cell it moves to. The moving group is the run of
  your own marbles starting there in that direction, up to three; opponent marbles ahead are
  pushed when the rules allow. (That is the only group that could move: a shorter one would be
  blocked by its own marble.)
- Aba-Pro broadside ``c3c5d4``: the two end marbles, then the cell the first one moves to.
"""

from __future__ import annotations

import re

from engine.abalone.board import (
    CELL_INDEX,
    CELL_NAMES,
    CELLS,
    DIRECTIONS,
    EMPTY,
    N_CELLS,
    NEIGHBOURS,
    OFF,
    ROWS,
    direction_between,
    line_axis,
)
from engine.abalone.moves import INFO, NOT_A_LINE, Push, push_for
from engine.core import IllegalAction, ParseError, clean_command, shown_token

EXPECTED = "expected: push <first marble> [<last marble>] <direction>, e.g. push a1 c3 ne"
DIRECTION_ALIASES: dict[str, int] = {}
for _d, (_short, _long) in enumerate(
    zip(
        DIRECTIONS,
        ("northeast", "east", "southeast", "southwest", "west", "northwest"),
        strict=True,
    )
):
    DIRECTION_ALIASES[_short] = _d
    DIRECTION_ALIASES[_long] = _d

_COMMAND = re.compile(r"((?:[a-z][0-9])+)([a-z]*)")
_SEPARATORS = re.compile(r"[\s,\-]+")
_CELL_START = re.compile(r"[a-z][0-9]")  # a command may start with its first cell ("c3 ne")
_LAST_CELL = re.compile(r"[0-9]([a-z]*)$")  # what follows the last cell in one word
SIDE_LETTERS = "bw"


def _cell(token: str) -> int:
    index = CELL_INDEX.get(token)
    if index is None:
        raise ParseError(f"'{token}' is not a cell on the board", "not_a_cell", token=token)
    return index


def _typed_direction(words: list[str]) -> str:
    """The words after the last cell as the player typed them: the command is read with its
    spaces removed ("north east" is a direction), so a refusal would show "ne ne" as "nene"."""
    tail: list[str] = []
    for word in reversed(words):
        last_cell = _LAST_CELL.search(word)
        if last_cell is not None:
            if last_cell.group(1):
                tail.append(last_cell.group(1))
            break
        tail.append(word)
    return " ".join(reversed(tail))


def _line(a: int, b: int) -> tuple[int, ...]:
    """The cells from ``a`` to ``b`` in ascending order; ParseError if not a line of 1-3."""
    if a == b:
        return (a,)
    axis = line_axis(a, b)
    if axis is None:
        raise ParseError(
            f"{CELL_NAMES[a]} and {CELL_NAMES[b]} are not in one line",
            "not_in_line",
            first=CELL_NAMES[a],
            last=CELL_NAMES[b],
        )
    d, steps = axis
    if steps > 2:
        raise ParseError(
            f"{CELL_NAMES[a]} to {CELL_NAMES[b]} is a line of {steps + 1} marbles: "
            "at most three move together",
            "too_many_marbles",
            first=CELL_NAMES[a],
            last=CELL_NAMES[b],
            count=steps + 1,
        )
    cell = min(a, b)
    cells = [cell]
    for _ in range(steps):
        cell = NEIGHBOURS[d][cell]
        cells.append(cell)
    return tuple(cells)


def parse_push(board: bytes, me: int, text: str) -> Push:
    """The Push a command names, for the side owning ``me`` on an extended board.

    Raises ParseError for text that names no move; IllegalAction when an Aba-Pro in-line
    command starts on a cell without one of your marbles (the group cannot be found). Whether
    the resulting Push is legal is for the caller to check.
    """
    cleaned = clean_command(text).removeprefix("/")
    if _SEPARATORS.split(cleaned)[0] == "move":  # the replies say "moves c3 north-east"
        cleaned = "push" + cleaned[len("move") :]
    words = _SEPARATORS.split(cleaned)
    if words[0] and not (words[0].startswith("push") or _CELL_START.match(words[0])):
        shown = shown_token(words[0])
        raise ParseError(
            f"'{shown}' is not an Abalone command: {EXPECTED}", "unknown_command", token=shown
        )
    compact = _SEPARATORS.sub("", cleaned).removeprefix("/").removeprefix("push")
    match = _COMMAND.fullmatch(compact)
    if match is None:
        raise ParseError(EXPECTED, "expected", verb="push")
    coords = match.group(1)
    cells = [_cell(coords[i : i + 2]) for i in range(0, len(coords), 2)]
    word = match.group(2)
    if word:
        direction = DIRECTION_ALIASES.get(word)
        if direction is None:
            shown = shown_token(_typed_direction(words), 16)
            raise ParseError(
                f"'{shown}' is not a direction: use ne, e, se, sw, w or nw",
                "not_a_direction",
                token=shown,
            )
        if len(cells) > 3:
            raise ParseError(
                "at most three marbles move together", "too_many_marbles", count=len(cells)
            )
        line = _line(cells[0], cells[-1])
        if len(cells) == 3 and sorted(cells) != list(line):
            names = ", ".join(CELL_NAMES[c] for c in cells)
            raise ParseError(
                f"{names} are not three neighbouring marbles in one line",
                "not_in_line",
                cells=[CELL_NAMES[c] for c in cells],
            )
        return push_for(line, direction)
    if len(cells) == 2:
        trailing, target = cells
        if sum(1 for w in words if _CELL_START.fullmatch(w)) == 2 and board[target] == me:
            # "push c4 c5", two of your marbles as two words: a line whose direction was
            # forgotten, not Aba-Pro's compact "c4c5" (c4 moves onto c5, pushing the line on)
            _direction(trailing, target)  # not neighbours: that refusal says how to write it
            first, last = CELL_NAMES[trailing], CELL_NAMES[target]
            raise ParseError(
                f"{first} and {last} are both your marbles: say where the line goes, as in "
                f"push {first} {last} <direction>",
                "needs_direction",
                first=first,
                last=last,
            )
        return _aba_pro_inline(board, me, trailing, target)
    if len(cells) == 3:
        direction = _direction(cells[0], cells[2])
        return push_for(_line(cells[0], cells[1]), direction)
    raise ParseError(EXPECTED, "expected", verb="push")


def _direction(a: int, b: int) -> int:
    direction = direction_between(a, b)
    if direction is None:
        raise ParseError(
            f"{CELL_NAMES[a]} and {CELL_NAMES[b]} are not neighbours; to move a line write "
            f"push {CELL_NAMES[a]} {CELL_NAMES[b]} <direction>",
            "not_neighbours",
            first=CELL_NAMES[a],
            last=CELL_NAMES[b],
        )
    return direction


def _aba_pro_inline(board: bytes, me: int, trailing: int, target: int) -> Push:
    direction = _direction(trailing, target)
    if board[trailing] != me:
        name = CELL_NAMES[trailing]
        if board[trailing] == EMPTY:
            raise IllegalAction(f"there is no marble on {name}", "empty", cell=name)
        raise IllegalAction(f"{name} is not one of your marbles", "not_yours", cell=name)
    group = [trailing]
    cell = NEIGHBOURS[direction][trailing]
    while len(group) < 3 and board[cell] == me:
        group.append(cell)
        cell = NEIGHBOURS[direction][cell]
    return push_for(tuple(sorted(group)), direction)


def notation(push: Push) -> str:
    """Our canonical command: ``push a1 a3 ne``, ``push c3 e``."""
    if len(push.cells) == 1:
        return f"push {push.cells[0]} {push.direction}"
    return f"push {push.cells[0]} {push.cells[-1]} {push.direction}"


def aba_pro(push: Push) -> str:
    """Aba-Pro notation: ``a1b2`` for an in-line move, ``c3c5d4`` for a broadside."""
    info = INFO.get(push)
    if info is None:
        raise IllegalAction(NOT_A_LINE, "not_a_line")
    cells, d, inline = info
    target = NEIGHBOURS[d][cells[0]]
    if target == OFF:
        raise IllegalAction(
            f"{CELL_NAMES[cells[0]]} cannot move off the board",
            "own_marble_off",
            cell=CELL_NAMES[cells[0]],
        )
    if inline:
        return f"{CELL_NAMES[cells[0]]}{CELL_NAMES[target]}"
    return f"{CELL_NAMES[cells[0]]}{CELL_NAMES[cells[-1]]}{CELL_NAMES[target]}"


def board_text(board: bytes) -> str:
    """Rows A..I separated by ``/``; ``b`` Black, ``w`` White, digits count empty cells."""
    rows: list[str] = []
    start = 0
    for row in range(9):
        width = sum(1 for r, _ in CELLS if r == row)
        out, empty = [], 0
        for v in board[start : start + width]:
            if v == EMPTY:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(SIDE_LETTERS[v - 1])
        if empty:
            out.append(str(empty))
        rows.append("".join(out))
        start += width
    return "/".join(rows)


_ROW_WIDTHS = tuple(sum(1 for r, _ in CELLS if r == row) for row in range(9))


def parse_board(text: str) -> bytes:
    """The inverse of ``board_text``; ParseError on anything malformed."""
    rows = text.split("/")
    if len(rows) != 9:
        raise ParseError("a board needs 9 rows (A to I) separated by '/'")
    board = bytearray()
    for row, (width, row_text) in enumerate(zip(_ROW_WIDTHS, rows, strict=True)):
        cells = bytearray()
        for ch in row_text:
            if ch in "123456789":
                cells.extend(bytes(int(ch)))
            elif ch in SIDE_LETTERS:
                cells.append(SIDE_LETTERS.index(ch) + 1)
            else:
                raise ParseError(f"unexpected {ch!r} in row {ROWS[row].upper()} of the board")
        if len(cells) != width:
            raise ParseError(f"row {ROWS[row].upper()} needs {width} cells, not {len(cells)}")
        board.extend(cells)
    assert len(board) == N_CELLS
    return bytes(board)
