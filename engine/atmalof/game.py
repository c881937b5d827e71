"""Atmalof ("Aim To Make A Line Of Five", Richard S. Forsyth, CC BY-SA 3.0): the rules engine.

Rules: /work/shared/rules/atmalof.md. Side 0 is Red and moves first, side 1 is Blue. A turn is
either a DROP (announce a row or column, then the die picks the square in it; an occupied square
loses the turn) or a MOVE (one king step of an own piece to an adjacent empty square). L in a row
wins at once; when a player (or both: option ``tiebreak="both"``) has every piece on the board,
maximal runs of exactly L-1 are counted and more wins.

Variants: ``standard`` (7x7, row 7 and column 7 beyond the d6, 22 pieces, line 5), ``junior``
(6x6, d6, 16 pieces), ``atmalos`` (9x9, row 9 and column 9 beyond the d8, line 7, 36 pieces: the
author gives no count, 36 keeps standard's ratio of pieces to squares), ``custom`` (options
rows, cols, beyond_rows, beyond_cols, pieces, line). Every variant takes ``tiebreak``.

Referee defaults for what the rules leave open: a side with no piece in hand and no move (only
possible with ``tiebreak="both"``) cannot pass, so the tie-break count decides at once. The
author gives no draw rule, yet pieces can shuffle for ever; the referee adds the same two as for
Morris and Abalone, as options of every variant: ``repetition`` (on: the third occurrence of a
position, board, hands and side to move, reached by a step, is a draw: a turn the die wastes
does not count, since chance and not the players repeated it) and ``move_limit`` (50: that
many actions by EACH side without a piece landing is a draw; 0 turns it off). A line or the
tie-break made by the same action outranks them.

Grammar (after ``clean_command``): ``drop row 4``, ``drop col 2`` (aliases: ``column``, ``r``,
``c``, ``drop r4``, ``drop c2``, and the bare ``row 4`` / ``col 2``); ``move 3,4 4,5`` (row,col;
also ``r3c4``, ``(3,4)``, an optional ``to``) and ``move r3c4 ne`` with directions n ne e se s sw
w nw (or north, north-east, ...), where n is towards row 1 (drawn at the top) and e towards the
last column. Canonical notation: ``drop row 4``, ``drop col 2``, ``move 3,4 4,5``.

What the renderer and referee read from a state (``AtmalofState``):
``state.at((r, c))`` -> 0, 1 or None (empty); ``state.cells()`` -> ((r, c), side or None) for
every square; ``state.squares_of(side)``; ``state.in_hand(side)`` / ``state.hands``;
``state.on_board(side)``; ``state.rows``, ``cols``, ``beyond_rows``, ``beyond_cols``,
``pieces``, ``line``, ``tiebreak``; ``state.row_faces`` / ``col_faces`` (die size after a row /
column announcement); ``state.reachable((r, c))`` (a drop can land there). The last roll is not
part of the state: the referee keeps it with the action. Module functions:
``winning_line(state)``, ``winning_lines(state)``, ``fours(state, side)`` (the runs of L-1 the
tie-break counts), ``drop_is_futile(state, drop)`` and ``landing(state, drop, roll)``.

Position text (``to_text``): ``<variant> [option=value ...] board=<rows top to bottom, "/"
between, R Red, B Blue, . empty> hands=<red>,<blue> turn=<red|blue> ply=<n>``, options only where
they differ from the variant's defaults, and ``quiet=<n>`` (actions since a piece last landed)
when not 0. The repetition history is not included: a position read back starts a fresh one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.atmalof.actions import Drop, Move, Square
from engine.atmalof.config import (
    DIRECTIONS,
    OPTION_NAMES,
    VARIANTS,
    AtmalofConfig,
    build_config,
    defaults,
)
from engine.core import (
    Effect,
    IllegalAction,
    Landing,
    OptionError,
    Outcome,
    ParseError,
    Termination,
    clean_command,
    shown_token,
)

Action = Drop | Move
SIDE_NAMES = ("Red", "Blue")
_CELL_CHARS = ".RB"
_NUMBER_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}
_GRAMMAR = "expected: drop row <k>, drop col <k>, move <row,col> <row,col> or move <row,col> <dir>"
_DIRECTION_ALIASES = {
    **{d: d for d in DIRECTIONS},
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    **{f"{a}{b}": f"{a[0]}{b[0]}" for a in ("north", "south") for b in ("east", "west")},
    **{f"{a}-{b}": f"{a[0]}{b[0]}" for a in ("north", "south") for b in ("east", "west")},
}
_AXIS_WORDS = {"row": "row", "r": "row", "col": "col", "c": "col", "column": "col"}
MAX_TEXT_LENGTH = 2000


@dataclass(frozen=True, slots=True)
class AtmalofState:
    """A position: the board (one byte per square, 0 empty, 1 Red, 2 Blue), hands, turn, ply.

    ``outcome`` is derived from the rest (the engine decides it when the state is made), so it
    takes no part in equality or hashing.
    """

    variant: str
    config: AtmalofConfig
    board: bytes
    hands: tuple[int, int]
    to_move: int
    ply: int
    outcome: Outcome | None = field(default=None, compare=False, repr=False)
    quiet: int = 0  # actions since a piece last landed (the move limit counts them)
    history: tuple[bytes, ...] = field(default=(), compare=False, repr=False)
    """The repetition keys since a piece last landed, this position's last (empty: rule off)."""

    @property
    def rows(self) -> int:
        return self.config.rows

    @property
    def cols(self) -> int:
        return self.config.cols

    @property
    def beyond_rows(self) -> int:
        return self.config.beyond_rows

    @property
    def beyond_cols(self) -> int:
        return self.config.beyond_cols

    @property
    def pieces(self) -> int:
        return self.config.pieces

    @property
    def line(self) -> int:
        return self.config.line

    @property
    def tiebreak(self) -> str:
        return self.config.tiebreak

    @property
    def row_faces(self) -> int:
        return self.config.row_faces

    @property
    def col_faces(self) -> int:
        return self.config.col_faces

    def at(self, square: Square) -> int | None:
        """The side whose piece stands on ``square``, or None when it is empty."""
        if not self.config.contains(square):
            raise IndexError(f"{_sq(square)} is not on the {self.rows}x{self.cols} board")
        value = self.board[self.config.index(square)]
        return value - 1 if value else None

    def cells(self) -> Iterator[tuple[Square, int | None]]:
        """Every square in reading order (row 1 first) with its side or None."""
        for square, value in zip(self.config.tables.squares, self.board, strict=True):
            yield square, (value - 1 if value else None)

    def squares_of(self, side: int) -> list[Square]:
        squares = self.config.tables.squares
        return [squares[i] for i, v in enumerate(self.board) if v == side + 1]

    def in_hand(self, side: int) -> int:
        return self.hands[side]

    def on_board(self, side: int) -> int:
        return self.config.pieces - self.hands[side]

    def reachable(self, square: Square) -> bool:
        """True when some drop can land on ``square`` (not beyond the die in both directions)."""
        r, c = square
        return self.config.contains(square) and (
            c <= self.config.row_faces or r <= self.config.col_faces
        )


def _sq(square: Square) -> str:
    return f"({square[0]},{square[1]})"


def _name(square: Square) -> str:
    """A square as the notation writes it ("3,4"), for an error's parameters."""
    return f"{square[0]},{square[1]}"


def _is_number(token: str, digits: int) -> bool:
    """1..``digits`` ASCII digits (``str.isdigit`` alone also accepts "²", which int() refuses)."""
    return 0 < len(token) <= digits and token.isascii() and token.isdigit()


def _shown(token: str, limit: int = 24) -> str:
    """The token quoted, for the English message."""
    return f"'{shown_token(token, limit)}'"


def _count_word(n: int) -> str:
    """A length in words ("four in a row", "lines of four"); digits past the table."""
    return _NUMBER_WORDS.get(n, str(n))


# --- the rules ---------------------------------------------------------------------------------


def _run_through(config: AtmalofConfig, board: bytes, index: int) -> int:
    """Length of the longest straight run of the piece on ``index`` that passes through it."""
    me = board[index]
    best = 1
    rays = config.tables.rays[index]
    for axis in range(4):
        n = 1
        for ray in (rays[2 * axis], rays[2 * axis + 1]):
            for j in ray:
                if board[j] != me:
                    break
                n += 1
        if n > best:
            best = n
    return best


def _runs(config: AtmalofConfig, board: bytes, side: int) -> Iterator[tuple[int, ...]]:
    """Every maximal straight run (2+ pieces) of ``side``, as board indices, in every direction."""
    me = side + 1
    for seg in config.tables.segments:
        start = -1
        for pos, i in enumerate(seg):
            if board[i] == me:
                if start < 0:
                    start = pos
            elif start >= 0:
                if pos - start >= 2:
                    yield seg[start:pos]
                start = -1
        if start >= 0 and len(seg) - start >= 2:
            yield seg[start:]


def _has_move(config: AtmalofConfig, board: bytes, side: int) -> bool:
    me = bytes((side + 1,))
    steps = config.tables.steps
    i = board.find(me)
    while i >= 0:
        for j, _ in steps[i]:
            if not board[j]:
                return True
        i = board.find(me, i + 1)
    return False


def _tiebreak_outcome(
    config: AtmalofConfig, board: bytes, hands: tuple[int, int], to_move: int
) -> Outcome | None:
    if config.tiebreak == "either":
        if hands[0] and hands[1]:
            return None
        note = ""
    else:
        if hands[to_move] or _has_move(config, board, to_move):
            if hands[0] or hands[1]:
                return None
            note = ""
        else:
            note = f" ({SIDE_NAMES[to_move]} has no piece in hand and no move)"
    counts = [
        sum(1 for run in _runs(config, board, s) if len(run) == config.line - 1) for s in (0, 1)
    ]
    winner = None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
    reason = (
        f"the tie-break count of lines of {_count_word(config.line - 1)}: "
        f"Red {counts[0]}, Blue {counts[1]}{note}"
    )
    return Outcome(Termination.TIEBREAK, winner, reason)


def _line_outcome(side: int, length: int) -> Outcome:
    return Outcome(
        Termination.LINE, side, f"{SIDE_NAMES[side]} made {_count_word(length)} in a row"
    )


def _decide_scan(
    config: AtmalofConfig, board: bytes, hands: tuple[int, int], to_move: int
) -> Outcome | None:
    """The outcome of any position (for from_text); ParseError if no game can reach it."""
    longest = [max((len(r) for r in _runs(config, board, s)), default=0) for s in (0, 1)]
    winners = [s for s in (0, 1) if longest[s] >= config.line]
    if len(winners) == 2:
        raise ParseError("both sides have a winning line, which no game can reach")
    if winners:
        return _line_outcome(winners[0], longest[winners[0]])
    return _tiebreak_outcome(config, board, hands, to_move)


def _after(
    state: AtmalofState, board: bytes, hands: tuple[int, int], changed: int | None
) -> AtmalofState:
    """The state after the side to move acted; ``changed`` is the square a piece arrived on."""
    config = state.config
    mover = state.to_move
    outcome = None
    if changed is not None:
        length = _run_through(config, board, changed)
        if length >= config.line:
            outcome = _line_outcome(mover, length)
    if outcome is None:
        outcome = _tiebreak_outcome(config, board, hands, 1 - mover)
    landed = hands != state.hands
    quiet = 0 if landed else state.quiet + 1
    history: tuple[bytes, ...] = ()
    if config.repetition:
        key = _key(board, hands, 1 - mover)
        if landed or not state.history:
            history = (key,)
        elif changed is None:  # a turn lost to the die: the dice chose it, so it never counts
            history = state.history
        else:
            history = (*state.history, key)
    if outcome is None:
        outcome = _draw_outcome(config, quiet, history)
    return AtmalofState(
        state.variant, config, board, hands, 1 - mover, state.ply + 1, outcome, quiet, history
    )


def _key(board: bytes, hands: tuple[int, int], to_move: int) -> bytes:
    """What makes two positions the same for the repetition rule."""
    return board + bytes((hands[0], hands[1], to_move))


def _draw_outcome(config: AtmalofConfig, quiet: int, history: tuple[bytes, ...]) -> Outcome | None:
    """The referee's draws (not the author's rules): repetition, then the move limit."""
    if config.repetition and len(history) > 4 and history.count(history[-1]) >= 3:
        return Outcome(Termination.REPETITION, None, "the same position occurred three times")
    if config.move_limit and quiet >= 2 * config.move_limit:
        return Outcome(
            Termination.MOVE_LIMIT,
            None,
            f"{config.move_limit} actions each without a piece landing: a draw",
        )
    return None


def _check_drop(state: AtmalofState, drop: Drop) -> None:
    if state.outcome is not None:
        raise IllegalAction("the game is over", "game_over")
    if drop.axis not in ("row", "col"):
        raise IllegalAction("a drop announces a row or a column", "not_an_action")
    limit = state.rows if drop.axis == "row" else state.cols
    word = "row" if drop.axis == "row" else "column"
    if type(drop.index) is not int or not 1 <= drop.index <= limit:
        raise IllegalAction(
            f"there is no {word} {drop.index}: {word}s are numbered 1 to {limit}",
            "no_such_line",
            axis=drop.axis,
            index=drop.index,
            limit=limit,
        )
    if not state.hands[state.to_move]:
        raise IllegalAction(
            f"{SIDE_NAMES[state.to_move]} has no pieces left in hand, so cannot drop: move a piece",
            "no_piece_in_hand",
            side=state.to_move,
        )


def _is_square(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value)


def _check_move(state: AtmalofState, move: Move) -> tuple[int, int]:
    """Raise IllegalAction with the reason, or return the (origin, target) board indices."""
    if state.outcome is not None:
        raise IllegalAction("the game is over", "game_over")
    config = state.config
    if not (_is_square(move.origin) and _is_square(move.target)):
        raise IllegalAction("a move goes from one square (row,col) to another", "not_an_action")
    if not config.contains(move.origin):
        raise IllegalAction(
            f"{_sq(move.origin)} is not on the {state.rows}x{state.cols} board",
            "off_board",
            square=_name(move.origin),
            rows=state.rows,
            cols=state.cols,
        )
    i = config.index(move.origin)
    owner = state.board[i]
    if not owner:
        raise IllegalAction(
            f"there is no piece on {_sq(move.origin)}", "empty", square=_name(move.origin)
        )
    if owner != state.to_move + 1:
        raise IllegalAction(
            f"{_sq(move.origin)} is a {SIDE_NAMES[owner - 1]} piece, not one of yours",
            "not_yours",
            square=_name(move.origin),
            side=owner - 1,
        )
    if not config.contains(move.target):
        raise IllegalAction(
            f"{_sq(move.target)} is off the {state.rows}x{state.cols} board",
            "off_board",
            square=_name(move.target),
            rows=state.rows,
            cols=state.cols,
        )
    dr = abs(move.target[0] - move.origin[0])
    dc = abs(move.target[1] - move.origin[1])
    if max(dr, dc) != 1:
        raise IllegalAction(
            f"{_sq(move.origin)} to {_sq(move.target)} is not one step: "
            "a piece moves to an adjacent square",
            "not_adjacent",
            origin=_name(move.origin),
            target=_name(move.target),
        )
    j = config.index(move.target)
    if state.board[j]:
        raise IllegalAction(
            f"{_sq(move.target)} is occupied", "occupied", square=_name(move.target)
        )
    return i, j


def _faces(state: AtmalofState, drop: Drop) -> int:
    return state.config.row_faces if drop.axis == "row" else state.config.col_faces


def _check_roll(state: AtmalofState, drop: Drop, roll: Any) -> int:
    faces = _faces(state, drop)
    if roll is None:
        raise IllegalAction(f"a drop needs the die's roll (1 to {faces})", "no_roll", faces=faces)
    if type(roll) is not int or not 1 <= roll <= faces:
        raise IllegalAction(
            f"{roll!r} is not a roll of a {faces}-sided die (1 to {faces})",
            "bad_roll",
            roll=repr(roll),
            faces=faces,
        )
    return roll


def landing(state: AtmalofState, drop: Drop, roll: int) -> Square:
    """Where a drop lands (or tries to) with this roll: (k, d) for row k, (d, k) for column k."""
    roll = _check_roll(state, drop, roll)
    return (drop.index, roll) if drop.axis == "row" else (roll, drop.index)


def drop_is_futile(state: AtmalofState, drop: Drop) -> bool:
    """True when every square the die can reach in the line is occupied (legal, but hopeless)."""
    _check_drop(state, drop)
    faces = _faces(state, drop)
    return all(
        state.board[state.config.index(landing(state, drop, d))] for d in range(1, faces + 1)
    )


def winning_lines(state: AtmalofState) -> list[tuple[Square, ...]]:
    """Every maximal run of L or more of the winner (empty unless the game was won by a line)."""
    outcome = state.outcome
    if outcome is None or outcome.termination is not Termination.LINE or outcome.winner is None:
        return []
    squares = state.config.tables.squares
    return [
        tuple(squares[i] for i in run)
        for run in _runs(state.config, state.board, outcome.winner)
        if len(run) >= state.line
    ]


def winning_line(state: AtmalofState) -> tuple[Square, ...] | None:
    """The squares of the winning line (the first if a move made two), or None."""
    lines = winning_lines(state)
    return lines[0] if lines else None


def fours(state: AtmalofState, side: int) -> list[tuple[Square, ...]]:
    """The runs the tie-break counts for ``side``: maximal runs of exactly L-1 in any direction."""
    squares = state.config.tables.squares
    return [
        tuple(squares[i] for i in run)
        for run in _runs(state.config, state.board, side)
        if len(run) == state.line - 1
    ]


# --- parsing -----------------------------------------------------------------------------------


def _parse_number(token: str, what: str) -> int:
    if not _is_number(token, 3):
        raise ParseError(
            f"{_shown(token)} is not a {what} number",
            "not_a_number",
            token=shown_token(token),
            what=what,
        )
    return int(token)


def _parse_square(token: str) -> Square:
    text = token.strip("()")
    if "," in text:
        parts = text.split(",")
    elif text.startswith("r") and "c" in text:
        parts = text[1:].split("c")
    else:
        parts = []
    if len(parts) != 2 or not all(_is_number(p, 3) for p in parts):
        raise ParseError(
            f"{_shown(token)} is not a square: write row,column like 3,4 or r3c4",
            "not_a_square",
            token=shown_token(token),
        )
    return int(parts[0]), int(parts[1])


def _parse_drop(words: list[str]) -> Drop:
    if len(words) == 1:
        word = words[0]
        for prefix in ("column", "col", "row", "r", "c"):
            if word.startswith(prefix) and _is_number(word[len(prefix) :], 3):
                words = [prefix, word[len(prefix) :]]
                break
    if len(words) > 2 and words[0] in _AXIS_WORDS and _is_number(words[1], 3):
        # "drop row 4 please": the drop is there, only a word too many
        axis = _AXIS_WORDS[words[0]]
        command = f"drop {axis} {_parse_number(words[1], 'row' if axis == 'row' else 'column')}"
        raise ParseError(
            f"{_shown(words[2])} is not part of a drop: type {command}",
            "extra_words",
            token=shown_token(words[2]),
            command=command,
        )
    if len(words) != 2 or words[0] not in _AXIS_WORDS:
        raise ParseError("expected: drop row <k> or drop col <k>", "expected", verb="drop")
    axis = _AXIS_WORDS[words[0]]
    return Drop(axis, _parse_number(words[1], "row" if axis == "row" else "column"))


def _parse_move(words: list[str]) -> Move:
    words = [w for w in words if w != "to"]
    if len(words) == 3 and words[1] + words[2] in _DIRECTION_ALIASES:
        words = [words[0], words[1] + words[2]]  # "north east", as Abalone reads it
    if len(words) != 2:
        raise ParseError(
            "expected: move <row,col> <row,col> or move <row,col> <direction>",
            "expected",
            verb="move",
        )
    origin = _parse_square(words[0])
    if words[1] in _DIRECTION_ALIASES:
        dr, dc = DIRECTIONS[_DIRECTION_ALIASES[words[1]]]
        return Move(origin, (origin[0] + dr, origin[1] + dc))
    if words[1].isalpha():
        raise ParseError(
            f"{_shown(words[1])} is not a direction: use n, ne, e, se, s, sw, w or nw "
            "(n is towards row 1)",
            "not_a_direction",
            token=shown_token(words[1]),
        )
    return Move(origin, _parse_square(words[1]))


# --- the game ----------------------------------------------------------------------------------


class Atmalof:
    """The Atmalof rules as pure functions over ``AtmalofState`` (see the module docstring)."""

    name = "atmalof"
    title = "Atmalof"
    variants: tuple[str, ...] = VARIANTS
    side_names: tuple[str, str] = SIDE_NAMES

    def new(self, variant: str = "standard", **options: Any) -> AtmalofState:
        config = build_config(variant, options)
        board = bytes(config.rows * config.cols)
        hands = (config.pieces, config.pieces)
        history = (_key(board, hands, 0),) if config.repetition else ()
        return AtmalofState(variant.strip().lower(), config, board, hands, 0, 0, None, 0, history)

    def options(self, state: AtmalofState) -> dict[str, Any]:
        return state.config.as_options()

    def legal(self, state: AtmalofState) -> list[Action]:
        if state.outcome is not None:
            return []
        config = state.config
        out: list[Action] = list(config.tables.drops) if state.hands[state.to_move] else []
        board = state.board
        me = bytes((state.to_move + 1,))
        steps = config.tables.steps
        append = out.append
        i = board.find(me)
        while i >= 0:
            for j, move in steps[i]:
                if not board[j]:
                    append(move)
            i = board.find(me, i + 1)
        return out

    def is_legal(self, state: AtmalofState, action: Action) -> bool:
        try:
            self._check(state, action)
        except IllegalAction:
            return False
        return True

    def _check(self, state: AtmalofState, action: Any) -> None:
        if isinstance(action, Drop):
            _check_drop(state, action)
        elif isinstance(action, Move):
            _check_move(state, action)
        else:
            raise IllegalAction(f"{action!r} is not an Atmalof action", "not_an_action")

    def parse(self, state: AtmalofState, text: str) -> Action:
        words = clean_command(text).split()
        if not words:
            raise ParseError(f"empty command: {_GRAMMAR}", "empty_command")
        verb, rest = words[0], words[1:]
        action: Action
        if verb == "drop":
            action = _parse_drop(rest)
        elif verb in _AXIS_WORDS and verb not in ("r", "c"):
            action = _parse_drop(words)
        elif verb == "move":
            action = _parse_move(rest)
        else:
            raise ParseError(
                f"{_shown(verb)} is not an Atmalof command: {_GRAMMAR}",
                "unknown_command",
                token=shown_token(verb),
            )
        self._check(state, action)
        return action

    def notation(self, state: AtmalofState, action: Action) -> str:
        if isinstance(action, Drop):
            return f"drop {action.axis} {action.index}"
        return f"move {action.origin[0]},{action.origin[1]} {action.target[0]},{action.target[1]}"

    def apply(
        self,
        state: AtmalofState,
        action: Action,
        roll: int | None = None,
        *,
        checked: bool = False,
    ) -> AtmalofState:
        """The state after ``action`` (a drop with its ``roll``); ``checked=True`` trusts that
        ``action`` came from ``parse`` or ``legal`` on this very state (the roll is still read)."""
        cols = state.config.cols
        if isinstance(action, Drop):
            if not checked:
                _check_drop(state, action)
            r, c = landing(state, action, roll)  # type: ignore[arg-type]
            i = (r - 1) * cols + c - 1
            if state.board[i]:  # occupied by either colour: the turn is lost, the piece stays
                return _after(state, state.board, state.hands, None)
            board = state.board[:i] + bytes((state.to_move + 1,)) + state.board[i + 1 :]
            hands = list(state.hands)
            hands[state.to_move] -= 1
            return _after(state, board, (hands[0], hands[1]), i)
        if not isinstance(action, Move):
            raise IllegalAction(f"{action!r} is not an Atmalof action", "not_an_action")
        if roll is not None:
            raise IllegalAction("a move does not roll the die", "roll_without_die")
        if checked:
            (r0, c0), (r1, c1) = action.origin, action.target
            i, j = (r0 - 1) * cols + c0 - 1, (r1 - 1) * cols + c1 - 1
        else:
            i, j = _check_move(state, action)
        cells = bytearray(state.board)
        cells[j], cells[i] = cells[i], 0
        return _after(state, bytes(cells), state.hands, j)

    def die_faces(self, state: AtmalofState, action: Action) -> int | None:
        return _faces(state, action) if isinstance(action, Drop) else None

    def landings(self, state: AtmalofState, action: Action) -> tuple[Landing, ...]:
        """Each face of the drop's die with the square it picks and whether that is free (the
        piece lands) or taken (the turn is lost); () for a move. Raises IllegalAction for a drop
        the position forbids."""
        if not isinstance(action, Drop):
            return ()
        _check_drop(state, action)
        out = []
        for face in range(1, _faces(state, action) + 1):
            square = landing(state, action, face)
            out.append(Landing(face, square, not state.board[state.config.index(square)]))
        return tuple(out)

    def pending_removal(self, state: AtmalofState) -> bool:
        """Never: Atmalof has no removals."""
        return False

    def turns(self, state: AtmalofState) -> int:
        """The ply: every action is a turn of its own."""
        return state.ply

    def effect(
        self, before: AtmalofState, action: Action, roll: int | None, after: AtmalofState
    ) -> Effect:
        """What ``action`` (with ``roll``) did from ``before`` to ``after`` (see ``Effect``)."""
        notation = self.notation(before, action)
        outcome = after.outcome
        if isinstance(action, Drop) and roll is not None:
            square = landing(before, action, roll)
            lost = after.hands == before.hands
            return Effect(before.to_move, notation, roll, square, lost, outcome=outcome)
        return Effect(before.to_move, notation, outcome=outcome)

    def result(self, state: AtmalofState) -> Outcome | None:
        return state.outcome

    def describe(self, state: AtmalofState, action: Action, roll: int | None = None) -> str:
        who = SIDE_NAMES[state.to_move]
        if isinstance(action, Move):
            return f"{who} moves {_sq(action.origin)} to {_sq(action.target)}."
        word = "row" if action.axis == "row" else "column"
        if roll is None:
            other = "column" if action.axis == "row" else "row"
            return (
                f"{who} announces {word} {action.index}; "
                f"a {_faces(state, action)}-sided die will pick the {other}."
            )
        square = landing(state, action, roll)
        head = f"{who} announces {word} {action.index} and rolls {roll}: "
        if state.at(square) is not None:
            return head + f"{_sq(square)} is occupied, so {who} loses the turn."
        return head + f"a piece lands on {_sq(square)}."

    def to_text(self, state: AtmalofState) -> str:
        base = defaults(state.variant)
        opts = [
            f"{name}={value}"
            for name, value in state.config.as_options().items()
            if value != base[name]
        ]
        rows = "/".join(
            "".join(_CELL_CHARS[v] for v in state.board[r * state.cols : (r + 1) * state.cols])
            for r in range(state.rows)
        )
        return " ".join(
            [
                state.variant,
                *opts,
                f"board={rows}",
                f"hands={state.hands[0]},{state.hands[1]}",
                f"turn={SIDE_NAMES[state.to_move].lower()}",
                f"ply={state.ply}",
                *([f"quiet={state.quiet}"] if state.quiet else []),
            ]
        )

    def from_text(self, text: str) -> AtmalofState:
        if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
            raise ParseError("an Atmalof position must be text of at most 2000 characters")
        words = text.split()
        if not words:
            raise ParseError("an empty position: expected '<variant> board=... hands=... ...'")
        fields: dict[str, str] = {}
        for word in words[1:]:
            key, sep, value = word.partition("=")
            if not sep or key in fields:
                raise ParseError(f"{_shown(word)} is not a key=value field (or is repeated)")
            fields[key] = value
        try:
            options = {k: fields.pop(k) for k in OPTION_NAMES if k in fields}
            config = build_config(words[0], options)
        except OptionError as exc:
            raise ParseError(f"bad position: {exc}") from exc
        quiet_text = fields.pop("quiet", "0")
        missing = {"board", "hands", "turn", "ply"} - fields.keys()
        extra = fields.keys() - {"board", "hands", "turn", "ply"}
        if missing or extra:
            raise ParseError(
                f"bad position fields: missing {sorted(missing)}, unknown {sorted(extra)}"
            )
        board = _board_from_text(config, fields["board"])
        hand_words = fields["hands"].split(",")
        if len(hand_words) != 2 or not all(_is_number(h, 3) for h in hand_words):
            raise ParseError(f"hands={fields['hands'][:40]} should be two counts like 22,22")
        hands = (int(hand_words[0]), int(hand_words[1]))
        for side in (0, 1):
            placed = board.count(side + 1)
            if hands[side] + placed != config.pieces:
                raise ParseError(
                    f"{SIDE_NAMES[side]} has {placed} on the board and {hands[side]} in hand, "
                    f"not {config.pieces} pieces"
                )
        turn = fields["turn"].lower()
        if turn not in ("red", "blue"):
            raise ParseError(f"turn={fields['turn'][:40]} should be red or blue")
        if not _is_number(fields["ply"], 9):
            raise ParseError(f"ply={fields['ply'][:40]} should be a count of actions")
        if not _is_number(quiet_text, 9):
            raise ParseError(f"quiet={quiet_text[:40]} should be a count of actions")
        to_move = 0 if turn == "red" else 1
        quiet = int(quiet_text)
        history = (_key(board, hands, to_move),) if config.repetition else ()
        outcome = _decide_scan(config, board, hands, to_move) or _draw_outcome(
            config, quiet, history
        )
        variant = words[0].strip().lower()
        return AtmalofState(
            variant, config, board, hands, to_move, int(fields["ply"]), outcome, quiet, history
        )


def _board_from_text(config: AtmalofConfig, text: str) -> bytes:
    rows = text.upper().split("/")
    if len(rows) != config.rows or any(len(row) != config.cols for row in rows):
        raise ParseError(
            f"board={text[:40]} should be {config.rows} rows of {config.cols} squares, "
            "separated by /"
        )
    cells = "".join(rows)
    if any(ch not in _CELL_CHARS for ch in cells):
        raise ParseError(f"board={text[:40]} may hold only R (Red), B (Blue) and . (empty)")
    return bytes(_CELL_CHARS.index(ch) for ch in cells)


GAME = Atmalof()

__all__ = [
    "GAME",
    "SIDE_NAMES",
    "Atmalof",
    "AtmalofConfig",
    "AtmalofState",
    "Drop",
    "Move",
    "Square",
    "drop_is_futile",
    "fours",
    "landing",
    "winning_line",
    "winning_lines",
]
