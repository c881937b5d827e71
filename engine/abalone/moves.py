"""Abalone moves: the ``Push`` action, move generation and the reason a move is illegal.

Every possible line of 1-3 cells in every direction is made once at import as an interned
``Push`` with its cell indices, so ``generate`` allocates nothing but the result list.
Boards here are the 61 state bytes plus one ``BORDER`` byte at index ``OFF`` ("extended").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.abalone.board import (
    AXES,
    BORDER,
    CELL_NAMES,
    DIRECTION_WORDS,
    DIRECTIONS,
    EMPTY,
    N_CELLS,
    NEIGHBOURS,
    OFF,
    opposite,
)
from engine.core import IllegalAction

SIDE_NAMES = ("Black", "White")
NOT_A_LINE = "that is not a line of one to three marbles moving in one direction"
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six")


@dataclass(frozen=True, slots=True)
class Push:
    """One to three own marbles in a line moving one cell in ``direction`` (ne, e, se, ...).

    Canonical ``cells`` order: for an in-line move (a single marble, or a line moving along its
    own axis) the trailing marble first and the front marble last, as Aba-Pro reads; for a
    broadside move the cells in board order (A1 before A2 before B1 ...). Opponent marbles a
    push displaces are not listed: the position decides them.
    """

    cells: tuple[str, ...]
    direction: str

    @property
    def first(self) -> str:
        return self.cells[0]

    @property
    def last(self) -> str:
        return self.cells[-1]


Info = tuple[tuple[int, ...], int, bool]
"""(cell indices in canonical order, direction index, in-line?) of a well-formed Push."""

INFO: dict[Push, Info] = {}


def _make(cells: tuple[int, ...], direction: int, inline: bool) -> Push:
    push = Push(tuple(CELL_NAMES[c] for c in cells), DIRECTIONS[direction])
    INFO[push] = (cells, direction, inline)
    return push


def push_for(cells: tuple[int, ...], direction: int) -> Push:
    """The canonical Push of a line given in ascending cell order, moving in ``direction``."""
    return _PUSH_BY_KEY[(cells, direction)]


_PUSH_BY_KEY: dict[tuple[tuple[int, ...], int], Push] = {}
SINGLES: list[tuple[tuple[int, Push], ...]] = []
"""``SINGLES[c]``: (target, push) for each on-board step of a lone marble on ``c``."""
LINES: list[tuple[tuple[int, tuple, int, tuple | None], ...]] = []
"""``LINES[c]``: per axis, (second cell, moves of the pair, third cell, moves of the three)."""


def _line_moves(line: tuple[int, ...], axis: int) -> tuple:
    """(front, fwd dir, fwd push, back front, back dir, back push, broadsides) for a line."""
    back = opposite(axis)
    forward = _make(line, axis, True)
    backward = _make(line[::-1], back, True)
    _PUSH_BY_KEY[(line, axis)] = forward
    _PUSH_BY_KEY[(line, back)] = backward
    broadsides = []
    for d in range(6):
        if d in (axis, back):
            continue
        push = _make(line, d, False)
        _PUSH_BY_KEY[(line, d)] = push
        targets = tuple(NEIGHBOURS[d][c] for c in line)
        if OFF not in targets:
            broadsides.append((targets, push))
    return (line[-1], axis, forward, line[0], back, backward, tuple(broadsides))


def _build() -> None:
    for c in range(N_CELLS):
        singles = []
        for d in range(6):
            push = _make((c,), d, True)
            _PUSH_BY_KEY[((c,), d)] = push
            if NEIGHBOURS[d][c] != OFF:
                singles.append((NEIGHBOURS[d][c], push))
        SINGLES.append(tuple(singles))
        lines = []
        for axis in AXES:
            second = NEIGHBOURS[axis][c]
            if second == OFF:
                continue
            third = NEIGHBOURS[axis][second]
            pair = _line_moves((c, second), axis)
            three = _line_moves((c, second, third), axis) if third != OFF else None
            lines.append((second, pair, third, three))
        LINES.append(tuple(lines))


_build()


def _advances(board: bytes, nb: tuple[int, ...], front: int, k: int, opp: int) -> bool:
    """Whether ``k`` marbles with ``front`` ahead can move along ``nb`` (pushing if they may)."""
    n = nb[front]
    v = board[n]
    if v == EMPTY:
        return True
    if v != opp or k == 1:
        return False
    n = nb[n]
    v = board[n]
    if v in (EMPTY, BORDER):
        return True
    if v != opp or k == 2:
        return False
    v = board[nb[n]]
    return v in (EMPTY, BORDER)


def generate(board: bytes, me: int) -> list[Push]:
    """Every legal Push for the side owning value ``me`` on an extended board, in board order."""
    opp = 3 - me
    out: list[Push] = []
    append = out.append
    for c in range(N_CELLS):
        if board[c] != me:
            continue
        for target, push in SINGLES[c]:
            if board[target] == EMPTY:
                append(push)
        for second, pair, third, three in LINES[c]:
            if board[second] != me:
                continue
            _line(board, pair, 2, opp, append)
            if three is not None and board[third] == me:
                _line(board, three, 3, opp, append)
    return out


def _line(board: bytes, moves: tuple, k: int, opp: int, append: Callable[[Push], None]) -> None:
    """Append the legal moves of one line of ``k`` own marbles (see ``_line_moves``)."""
    front, fwd, fwd_push, back_front, back, back_push, broadsides = moves
    if _advances(board, NEIGHBOURS[fwd], front, k, opp):
        append(fwd_push)
    if _advances(board, NEIGHBOURS[back], back_front, k, opp):
        append(back_push)
    for targets, push in broadsides:
        for t in targets:
            if board[t] != EMPTY:
                break
        else:
            append(push)


def _owner_refusal(board: bytes, me: int, cell: int) -> IllegalAction | None:
    v = board[cell]
    if v == me:
        return None
    name = CELL_NAMES[cell]
    if v == EMPTY:
        return IllegalAction(f"there is no marble on {name}", "empty", cell=name)
    return IllegalAction(f"{name} is not one of your marbles", "not_yours", cell=name)


def illegal_reason(board: bytes, me: int, push: Push) -> str | None:
    """Why ``push`` is illegal for the side owning ``me`` on an extended board (None: legal)."""
    refusal = illegal(board, me, push)
    return None if refusal is None else str(refusal)


def illegal(board: bytes, me: int, push: Push) -> IllegalAction | None:
    """The refusal (message, code and params) of an illegal ``push`` on an extended board for
    the side owning ``me``; None when it is legal."""
    info = INFO.get(push)
    if info is None:
        return IllegalAction(NOT_A_LINE, "not_a_line")
    cells, d, inline = info
    for c in cells:
        refusal = _owner_refusal(board, me, c)
        if refusal:
            return refusal
    nb = NEIGHBOURS[d]
    if not inline:
        for c in cells:
            t = nb[c]
            if t == OFF:
                return _leaves(CELL_NAMES[c], d)
            if board[t] != EMPTY:
                return IllegalAction(
                    f"{CELL_NAMES[t]} is occupied: a broadside move needs every cell empty",
                    "broadside_blocked",
                    cell=CELL_NAMES[t],
                )
        return None
    k = len(cells)
    front = cells[-1]
    ahead = nb[front]
    if ahead == OFF:
        return _leaves(CELL_NAMES[front], d)
    v = board[ahead]
    if v == EMPTY:
        return None
    if v == me:
        if k == 3:
            return IllegalAction(
                f"{CELL_NAMES[ahead]} would make a line of four: at most three marbles move",
                "line_of_four",
                cell=CELL_NAMES[ahead],
            )
        return IllegalAction(
            f"{CELL_NAMES[ahead]} is your own marble, in the way (name the whole line)",
            "own_marble_ahead",
            cell=CELL_NAMES[ahead],
        )
    m = 0
    n = ahead
    while board[n] == v:
        m += 1
        n = nb[n]
    if m >= k:
        return IllegalAction(f"{k} against {m} cannot push", "outnumbered", mine=k, theirs=m)
    if board[n] != EMPTY and n != OFF:
        pushed = "marble" if m == 1 else "marbles"
        return IllegalAction(
            f"{CELL_NAMES[n]} is occupied, so the {SIDE_NAMES[v - 1]} {pushed} cannot be pushed",
            "push_blocked",
            cell=CELL_NAMES[n],
            side=v - 1,
            count=m,
        )
    return None


def _leaves(cell: str, d: int) -> IllegalAction:
    return IllegalAction(  # "west", as every other sentence says; the parameter keeps the code
        f"{cell} cannot move {DIRECTION_WORDS[d]}: your own marble would leave the board",
        "own_marble_off",
        cell=cell,
        direction=DIRECTIONS[d],
    )


def moved_pairs(board: bytes, push: Push) -> list[tuple[int, int]]:
    """(from, to or OFF) of every marble a legal ``push`` moves, own ones first, in order."""
    cells, d, inline = INFO[push]
    nb = NEIGHBOURS[d]
    chain = list(cells)
    if inline:
        own = board[cells[0]]
        n = nb[cells[-1]]
        while board[n] not in (EMPTY, BORDER, own):
            chain.append(n)
            n = nb[n]
    return [(c, nb[c]) for c in chain]


def play(board: bytes, pairs: list[tuple[int, int]]) -> tuple[bytes, int]:
    """The 61-byte board after moving ``pairs``, and how many marbles went off the board."""
    new = bytearray(board[:N_CELLS])
    values = [board[f] for f, _ in pairs]
    for f, _ in pairs:
        new[f] = EMPTY
    off = 0
    for (_, t), v in zip(pairs, values, strict=True):
        if t == OFF:
            off += 1
        else:
            new[t] = v
    return bytes(new), off
