"""What the search knows about Atmalof: an estimate of the expected result of a position.

Every window of L squares in a straight line that holds pieces of one colour only is an open
line; its worth grows steeply with the pieces in it. A window with L-1 pieces and one hole is a
threat, and what a threat is worth depends on how its hole can be filled:

- a step: an own piece next to the hole (outside the window) completes the line for certain;
- a drop: a row or column announcement whose die can land on the hole completes it on one face
  in ``faces`` (several holes in one line add up).

From the side to move's view the evaluation first settles the next two turns as a race: a step
to a five wins; otherwise it either tries its best drop (and the opponent then gets its own
chance) or steps into the opponent's single step-threat to block it. The race is a difference
of probabilities, between -1 and 1.

The value is the expected result (a win 1, a loss -1) that a logistic model gives for the
side to move's open lines, the opponent's, the race, and who has more pieces still in hand,
times ``_SCALE``. Expectimax averages values over the die's faces, so a value must be
proportional to the chance of winning, not just rise with it: the first evaluation (the race
in win units plus the open lines in points) rated a single 1-in-6 drop threat hundreds of
times a whole board of threes, where in games the threes were worth more. The weights were
fitted to 115,651 positions of greedy self-play (one move in ten random, 4,000 games); on
games held out of a fit its predictions match the mean results within 0.1 in every tenth of
its range (docs/practice.md has the data, the fit and the matches).

Each maximal line of the board is read as one tuple of its squares' values (one C call), and
the line's score is looked up in a table filled on first sight of each pattern, so a position
costs a few dozen lookups rather than one Python loop per window.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import cache
from itertools import pairwise
from math import log2, tanh
from operator import itemgetter
from typing import Any

from engine.ai.search import WIN
from engine.atmalof import Action, AtmalofState, Drop
from engine.core import Outcome

_SURE = 0.9 * WIN  # the side to move can complete a line by a step: a win next ply
_FAR = 99  # no piece can reach the square
_SCALE = 0.9 * WIN  # an expected result of 1 (a sure win) is worth this much
Weights = tuple[float, float, float, float, float]
WEIGHTS: Weights = (0.3271, 0.2047, -0.2195, 1.1081, -0.27261)
"""The logistic model's weights on the log-odds of the side to move's result (a draw is half
a win): a constant (having the move), log2(1 + open-line score) of each side, the race, and
pieces in hand (own less the opponent's: material not yet on the board builds no line).
Fitted by ``python -m engine.ai.atmalof_fit`` (docs/practice.md)."""

_Pattern = bytes | tuple[int, ...]
_LineScore = tuple[float, float, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
"""(Red's open-line score, Blue's, Red's threats, Blue's): a threat is (hole, window start),
both positions along the line."""


class _Line:
    """One maximal straight line of at least L squares, and a table of its patterns' scores."""

    __slots__ = ("get", "squares", "table", "windows")

    def __init__(self, squares: tuple[int, ...], line: int) -> None:
        self.squares = squares
        steps = {b - a for a, b in pairwise(squares)}
        step = steps.pop() if len(steps) == 1 else 0
        # A straight line's squares are evenly spaced on the board: one slice of its bytes
        # (hashed faster than a tuple); any other order falls back to a tuple of values.
        self.get: Callable[[bytes], _Pattern] = (
            itemgetter(slice(squares[0], squares[-1] + 1, step))
            if step > 0
            else itemgetter(*squares)
        )
        self.table: dict[_Pattern, _LineScore] = {}
        # The squares of the window starting at s, keyed by (hole, s) for every hole in it:
        # a piece inside the window cannot fill its hole without opening another.
        self.windows: dict[tuple[int, int], int] = {}
        for s in range(len(squares) - line + 1):
            window = sum(1 << squares[i] for i in range(s, s + line))
            for h in range(s, s + line):
                self.windows[(h, s)] = window


@cache
def _drop_squares(config: Any) -> dict[Drop, tuple[int, ...]]:
    """The board index each face of each announcement picks (face 1 first)."""
    cols = config.cols
    return {
        drop: tuple(
            (drop.index - 1) * cols + face - 1
            if drop.axis == "row"
            else (face - 1) * cols + drop.index - 1
            for face in range(1, (config.row_faces if drop.axis == "row" else config.col_faces) + 1)
        )
        for drop in config.tables.drops
    }


@cache
def _weights(line: int) -> tuple[float, ...]:
    """Worth of an open window by its piece count: 0, 1, 8, 64, ... up to L-1 pieces."""
    return (0.0, *(8.0 ** (k - 1) for k in range(1, line)), 0.0)


def _score(pattern: _Pattern, line: int) -> _LineScore:
    """Both sides' open-line scores and threats in one line's pattern of values (0, 1, 2)."""
    weights = _weights(line)
    score = [0.0, 0.0]
    threats: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    for s in range(len(pattern) - line + 1):
        window = pattern[s : s + line]
        red, blue = window.count(1), window.count(2)
        if red and blue:
            continue
        side, n = (0, red) if red else (1, blue)
        score[side] += weights[n]
        if n == line - 1:
            threats[side].append((s + window.index(0), s))
    return score[0], score[1], tuple(threats[0]), tuple(threats[1])


@cache
def _geometry(config: Any) -> tuple[tuple[_Line, ...], tuple[int, int, int]]:
    """The lines of at least L squares, and the masks a king step needs on a bit-per-square
    board: the whole board, and the board less its first or last column (no wrapping)."""
    lines = tuple(
        _Line(seg, config.line) for seg in config.tables.segments if len(seg) >= config.line
    )
    cols, rows = config.cols, config.rows
    full = (1 << rows * cols) - 1
    first = sum(1 << (r * cols) for r in range(rows))
    last = first << (cols - 1)
    return lines, (full, full & ~first, full & ~last)


def _reach(pieces: int, hole: int, empty: int, cols: int, masks: tuple[int, int, int]) -> int:
    """King steps the nearest of ``pieces`` needs to reach ``hole``, through empty squares
    only (``_FAR`` if none can)."""
    full, no_first, no_last = masks
    seen = frontier = 1 << hole
    for d in range(1, _FAR):
        west, east = (frontier >> 1) & no_last, (frontier << 1) & no_first
        row = frontier | west | east
        grown = (row | row << cols | row >> cols) & full & ~seen
        if grown & pieces:
            return d
        frontier = grown & empty
        if not frontier:
            return _FAR
        seen |= grown
    return _FAR


def _drop_chance(holes: set[int], config: Any) -> float:
    """The best chance that one announcement lands on one of ``holes`` (square indices)."""
    cols, row_faces, col_faces = config.cols, config.row_faces, config.col_faces
    rows: dict[int, int] = {}
    columns: dict[int, int] = {}
    for i in holes:
        r, c = divmod(i, cols)
        if c < row_faces:
            rows[r] = rows.get(r, 0) + 1
        if r < col_faces:
            columns[c] = columns.get(c, 0) + 1
    best = max((n / row_faces for n in rows.values()), default=0.0)
    return max(best, max((n / col_faces for n in columns.values()), default=0.0))


Features = tuple[float, float, float, int]
"""A position seen from its side to move: (own open-line score, the opponent's, the race,
own pieces in hand less the opponent's)."""


def features(state: AtmalofState) -> Features | None:
    """What the evaluation reads in a position (None: the side to move completes a five by a
    step now)."""
    config = state.config
    board = state.board
    lines, masks = _geometry(config)
    line = config.line
    red = blue = 0.0
    threats: tuple[list[tuple[_Line, int, int]], list[tuple[_Line, int, int]]] = ([], [])
    for ln in lines:
        pattern = ln.get(board)
        found = ln.table.get(pattern)
        if found is None:
            found = ln.table[pattern] = _score(pattern, line)
        red += found[0]
        blue += found[1]
        if found[2]:
            threats[0].extend((ln, h, s) for h, s in found[2])
        if found[3]:
            threats[1].extend((ln, h, s) for h, s in found[3])
    race = _race(state, threats, masks) if threats[0] or threats[1] else 0.0
    if race is None:
        return None
    me = state.to_move
    hands = state.hands
    if me == 0:
        return red, blue, race, hands[0] - hands[1]
    return blue, red, race, hands[1] - hands[0]


def expected(mine: float, theirs: float, race: float, hands: int, w: Weights = WEIGHTS) -> float:
    """The value of a position from the side to move's view: its expected result times
    ``_SCALE``, from both sides' open-line scores, the race (-1 to 1) and the side to move's
    pieces in hand less the opponent's."""
    z = w[0] + w[1] * log2(1.0 + mine) + w[2] * log2(1.0 + theirs) + w[3] * race + w[4] * hands
    return _SCALE * tanh(0.5 * z)  # 2 * sigmoid(z) - 1: from log-odds to an expected result


def _race(
    state: AtmalofState,
    threats: tuple[list[tuple[_Line, int, int]], list[tuple[_Line, int, int]]],
    masks: tuple[int, int, int],
) -> float | None:
    """The next two turns' race between the sides' threats, from the side to move's view:
    the chance it completes a five first less the chance the opponent does (None: a step
    completes one now)."""
    config = state.config
    board = state.board
    me = state.to_move
    sides = [0, 0]
    for i, v in enumerate(board):
        if v:
            sides[v - 1] |= 1 << i
    mine, theirs = sides[me], sides[1 - me]
    empty = masks[0] & ~(mine | theirs)
    cols = config.cols
    # Turns each side needs to step a piece into its best hole before the other side can
    # occupy it (king steps, obstacles ignored): the side to move wins a race it ties.
    my_first = their_first = _FAR
    my_holes: set[int] = set()
    first_hole = -1
    for ln, h, s in threats[me]:
        hole = ln.squares[h]
        my_holes.add(hole)
        arrive = _reach(mine & ~ln.windows[(h, s)], hole, empty, cols, masks)
        if arrive == 1:
            return None
        if arrive < my_first and arrive <= _reach(theirs, hole, empty, cols, masks):
            my_first, first_hole = arrive, hole
    their_steps: set[int] = set()
    their_holes: set[int] = set()
    for ln, h, s in threats[1 - me]:
        hole = ln.squares[h]
        their_holes.add(hole)
        arrive = _reach(theirs & ~ln.windows[(h, s)], hole, empty, cols, masks)
        if arrive == 1:
            their_steps.add(hole)
        if arrive < their_first and arrive < _reach(mine, hole, empty, cols, masks):
            their_first = arrive
    if len(their_steps) >= 2:
        their_first = 1  # one block cannot stop both
    hands = state.hands
    p_me = _drop_chance(my_holes, config) if hands[me] and my_holes else 0.0
    c_them = _drop_chance(their_holes, config) if hands[1 - me] and their_holes else 0.0
    if my_first < _FAR and my_first <= their_first:
        # Mine arrives first, unless a drop of theirs completes a line or fills the hole.
        block = _drop_chance({first_hole}, config) if hands[1 - me] else 0.0
        held = (1.0 - max(c_them, block)) ** (my_first - 1)
        race = 2.0 * held - 1.0
    elif their_first < _FAR:
        # Theirs arrives first: only my drops can win, or a lucky drop can block.
        luck = 1.0 - (1.0 - p_me) ** their_first
        race = 2.0 * luck - 1.0
        if len(their_steps) == 1 and hands[me]:
            rest = their_holes - their_steps
            c_rest = _drop_chance(rest, config) if hands[1 - me] and rest else 0.0
            block = _drop_chance(their_steps, config)
            race = max(race, -(block * c_rest + 1.0 - block))
    else:
        # No race is won outright: try the best drop, or block a step-threat by a step.
        race = p_me - (1.0 - p_me) * (1.0 if their_steps else c_them)
        if their_steps:
            rest = their_holes - their_steps
            c_rest = _drop_chance(rest, config) if hands[1 - me] and rest else 0.0
            race = max(race, -c_rest)
    return race


class AtmalofEvaluator:
    """Scores from the side to move's view; keys are the board and the side to move."""

    noise_scale = 0.02 * WIN  # the lower levels' noise is in units of 2% of a sure win

    def __init__(self, weights: Weights = WEIGHTS) -> None:
        self.weights = weights

    def key(self, state: AtmalofState) -> Hashable:
        return (state.board, state.to_move)

    def outcome(self, state: AtmalofState) -> Outcome | None:
        return state.outcome

    def evaluate(self, state: AtmalofState) -> float:
        found = features(state)
        return _SURE if found is None else expected(*found, self.weights)

    def chance_groups(
        self, state: AtmalofState, action: Action, faces: int
    ) -> Sequence[tuple[Hashable, int, int]]:
        """A face that lands on a free square leads to the board with a piece there, whichever
        drop rolled it (group: the square); every face that hits an occupied square, of any
        drop, loses the turn and leaves the same position (group -1)."""
        board = state.board
        groups: list[tuple[Hashable, int, int]] = []
        lost = lost_roll = 0
        for roll, i in enumerate(_drop_squares(state.config)[action], 1):  # type: ignore[index]
            if board[i]:
                lost += 1
                lost_roll = lost_roll or roll
            else:
                groups.append((i, 1, roll))
        if lost:
            groups.append((-1, lost, lost_roll))
        return groups

    def priority(self, state: AtmalofState, action: Action) -> float:
        """Drops into lines holding own pieces first; moves keep their generated order."""
        if isinstance(action, Drop):
            me = state.to_move + 1
            cols = state.cols
            if action.axis == "row":
                row = state.board[(action.index - 1) * cols : action.index * cols]
                return float(row.count(me))
            column = state.board[action.index - 1 :: cols]
            return float(column.count(me))
        return 0.0
