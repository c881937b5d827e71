"""Abalone: the rules of rules/abalone.md (the referee's specification) as a pure ``Game``.

Side 0 is Black (moves first), side 1 White. A state holds the 61 cells as bytes (index order
of ``CELLS``: A1..A5, B1..B6, ..., I5..I9; 0 empty, 1 Black, 2 White), so marbles off the board
are 14 minus the marbles on it. Actions are ``Push`` values (see ``engine.abalone.moves``);
commands and notation are described in ``engine.abalone.notation``.

Accessors for the renderer and the referee:

- ``CELLS``: each cell as (row index 0..8 for A..I, diagonal number 1..9); ``CELL_NAMES``
  ("a1", ...) in the same order.
- ``marble_at(state, cell)``: 0 (Black), 1 (White) or None, for a name ("c3") or an index.
- ``marbles_off(state, side)``: how many of ``side``'s marbles have been pushed off.
- ``moved_marbles(state, action)``: [(from cell, to cell or None)] for a legal action in
  ``state`` (the position before it), own marbles first, then any pushed opponent marbles;
  None means pushed off the board.
- ``aba_pro(action)``: the Aba-Pro form of an action ("a1b2", "c3c5d4").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.abalone.board import (
    BORDER,
    CELL_INDEX,
    CELL_NAMES,
    CELLS,
    DIRECTION_WORDS,
    MARBLES_PER_SIDE,
    N_CELLS,
    OFF,
    VARIANTS,
    start_board,
)
from engine.abalone.history import History
from engine.abalone.moves import (
    INFO,
    NOT_A_LINE,
    NUMBER_WORDS,
    SIDE_NAMES,
    Push,
    generate,
    illegal,
    illegal_reason,
    moved_pairs,
    play,
)
from engine.abalone.notation import (
    SIDE_LETTERS,
    aba_pro,
    board_text,
    notation,
    parse_board,
    parse_push,
)
from engine.core import (
    Effect,
    IllegalAction,
    Landing,
    OptionError,
    Outcome,
    ParseError,
    Termination,
)

DEFAULT_MOVE_LIMIT = 200
MAX_MOVE_LIMIT = 100_000
WINNING_PUSH_OFFS = 6
_BORDER = bytes([BORDER])


@dataclass(frozen=True, slots=True)
class AbaloneState:
    """A position with its options.

    ``history`` holds the boards of the earlier positions since the last push-off, oldest
    first (a push-off makes every earlier position unreachable), shared with the states before
    it (``engine.abalone.history``; a tuple given here is read into one). It decides the
    repetition draw but is left out of equality, hashing and ``to_text``: a position read back
    from text starts its repetition count afresh.
    """

    variant: str
    board: bytes
    to_move: int = 0
    ply: int = 0
    repetition: bool = True
    move_limit: int = DEFAULT_MOVE_LIMIT
    history: History = field(default_factory=History, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.history, History):
            object.__setattr__(self, "history", History(self.history))


def marble_at(state: AbaloneState, cell: str | int) -> int | None:
    """The side (0 Black, 1 White) whose marble is on ``cell``, or None when it is empty."""
    index = CELL_INDEX[cell.lower()] if isinstance(cell, str) else cell
    value = state.board[index]
    return value - 1 if value else None


def marbles(state: AbaloneState, side: int) -> list[str]:
    """The cells of ``side``'s marbles, in board order."""
    return [CELL_NAMES[i] for i, v in enumerate(state.board) if v == side + 1]


def marbles_off(state: AbaloneState, side: int) -> int:
    """How many of ``side``'s marbles have been pushed off the board."""
    return MARBLES_PER_SIDE - state.board.count(side + 1)


def moved_marbles(state: AbaloneState, action: Push) -> list[tuple[str, str | None]]:
    """Every marble ``action`` moves in ``state``: (from, to or None when pushed off)."""
    extended = state.board + _BORDER
    refusal = illegal(extended, state.to_move + 1, action)
    if refusal:
        raise refusal
    return [
        (CELL_NAMES[f], None if t == OFF else CELL_NAMES[t])
        for f, t in moved_pairs(extended, action)
    ]


class AbaloneGame:
    """The Abalone rules; see the module docstring for the accessors beside it."""

    name = "abalone"
    title = "Abalone"
    variants: tuple[str, ...] = VARIANTS
    side_names: tuple[str, str] = ("Black", "White")

    def new(self, variant: str = "standard", **options: Any) -> AbaloneState:
        key = str(variant).strip().lower().replace("_", "-").replace(" ", "-")
        if key not in VARIANTS:
            raise OptionError(
                f"unknown Abalone variant {variant!r}: choose one of {', '.join(VARIANTS)}",
                "unknown_variant",
                variant=str(variant)[:40],
                choices=list(VARIANTS),
            )
        repetition, move_limit = _check_options(options)
        return AbaloneState(key, start_board(key), 0, 0, repetition, move_limit)

    def options(self, state: AbaloneState) -> dict[str, Any]:
        return {"repetition": state.repetition, "move_limit": state.move_limit}

    def legal(self, state: AbaloneState) -> list[Push]:
        if self.result(state) is not None:
            return []
        return generate(state.board + _BORDER, state.to_move + 1)

    def is_legal(self, state: AbaloneState, action: Push) -> bool:
        if not isinstance(action, Push) or self.result(state) is not None:
            return False
        return illegal_reason(state.board + _BORDER, state.to_move + 1, action) is None

    def parse(self, state: AbaloneState, text: str) -> Push:
        extended = state.board + _BORDER
        action = parse_push(extended, state.to_move + 1, text)
        self._check(state, extended, action)
        return action

    def notation(self, state: AbaloneState, action: Push) -> str:
        self._shape(action)
        return notation(action)

    def apply(
        self,
        state: AbaloneState,
        action: Push,
        roll: int | None = None,
        *,
        checked: bool = False,
    ) -> AbaloneState:
        """The position after ``action``; ``checked=True`` trusts that it came from ``parse`` or
        ``legal`` on this very state, so the legality check is not made a second time."""
        if roll is not None:
            raise IllegalAction("Abalone uses no dice", "no_dice")
        extended = state.board + _BORDER
        if not checked:
            self._check(state, extended, action)
        board, off = play(extended, moved_pairs(extended, action))
        history = state.history.plus(state.board) if state.repetition and not off else History()
        return AbaloneState(
            state.variant,
            board,
            1 - state.to_move,
            state.ply + 1,
            state.repetition,
            state.move_limit,
            history,
        )

    def die_faces(self, state: AbaloneState, action: Push) -> int | None:
        return None

    def landings(self, state: AbaloneState, action: Push) -> tuple[Landing, ...]:
        """Nothing: Abalone has no dice."""
        return ()

    def pending_removal(self, state: AbaloneState) -> bool:
        """Never: Abalone has no removals."""
        return False

    def turns(self, state: AbaloneState) -> int:
        """The ply: every action is a turn of its own."""
        return state.ply

    def effect(
        self, before: AbaloneState, action: Push, roll: int | None, after: AbaloneState
    ) -> Effect:
        """What ``action`` did (see ``Effect``): opponent marbles pushed, and how many went off."""
        them = 1 - before.to_move
        pairs = moved_pairs(before.board + _BORDER, action)
        pushed = len(pairs) - len(action.cells)
        off = marbles_off(after, them) - marbles_off(before, them)
        gone = [CELL_NAMES[f] for f, t in pairs if t == OFF]  # a push puts at most one off
        outcome = self.result(after)
        # the second time with this side to move: the third draws (``result``)
        repeated = outcome is None and bool(after.repetition)
        repeated = repeated and after.history.same_side_count(after.board) == 1
        return Effect(
            before.to_move,
            notation(action),
            pushed=pushed,
            pushed_off=off,
            off_from=gone[0] if gone else None,
            repeated=repeated,
            outcome=outcome,
        )

    def result(self, state: AbaloneState) -> Outcome | None:
        board = state.board
        for loser in (1, 0):
            if MARBLES_PER_SIDE - board.count(loser + 1) >= WINNING_PUSH_OFFS:
                winner = 1 - loser
                return Outcome(
                    Termination.SIX_OFF,
                    winner,
                    f"{SIDE_NAMES[winner]} pushed six {SIDE_NAMES[loser]} marbles off the board",
                )
        if state.repetition and state.history.same_side_count(board) >= 2:
            return Outcome(
                Termination.REPETITION,
                None,
                "the same position occurred for the third time with "
                f"{SIDE_NAMES[state.to_move]} to move",
            )
        if state.move_limit and state.ply >= state.move_limit:
            return _move_limit_outcome(state)
        return None

    def describe(self, state: AbaloneState, action: Push, roll: int | None = None) -> str:
        cells, d, inline = self._shape(action)
        side, other = SIDE_NAMES[state.to_move], SIDE_NAMES[1 - state.to_move]
        # The line's ends in the order its notation gives them (the record and `history` say
        # "push c5 c3 w": an in-line move from its trailing marble to its leading one).
        named = action.cells
        span = named[0] if len(named) == 1 else f"{named[0]}-{named[-1]}"
        word = DIRECTION_WORDS[d]
        extended = state.board + _BORDER
        if not inline or illegal_reason(extended, state.to_move + 1, action):
            return f"{side} moves {span} {word}."  # "pushes" only when opponents are pushed
        pairs = moved_pairs(extended, action)
        pushed = len(pairs) - len(cells)
        if not pushed:
            return f"{side} moves {span} {word}."
        theirs = pairs[len(cells) :]  # nearest the pushing line first
        off = sum(1 for _, t in theirs if t == OFF)
        # Named where they stood, as the player saw them: "the White marble on d4 moves
        # back"; never "pushes ..., pushing ...".
        at = [CELL_NAMES[f] for f, _ in theirs]
        text = f"{side} pushes {span} {word}: "
        if pushed == 1:
            gone = "falls off the board" if off else "moves back"
            text += f"the {other} marble on {at[0]} {gone}"
        elif off:  # "two ... move back, one off the board" was read as three marbles
            text += f"the {other} marble on {at[0]} moves back and the one on {at[1]} falls off"
            text += " the board"
        else:
            text += f"the {NUMBER_WORDS[pushed]} {other} marbles on {' and '.join(at)} move back"
        if not off:
            return text + "."
        lost = marbles_off(state, 1 - state.to_move) + off
        wins = f": {side} wins" if lost >= WINNING_PUSH_OFFS else ""
        return f"{text} ({other} has lost {lost} of {WINNING_PUSH_OFFS}{wins})."

    def to_text(self, state: AbaloneState) -> str:
        """``<variant> <board> <b|w> <ply> [repetition=off] [move_limit=N]``.

        The board is rows A..I separated by ``/`` (see ``board_text``). Options appear only
        when they differ from the defaults. The repetition history is not included.
        """
        parts = [state.variant, board_text(state.board), SIDE_LETTERS[state.to_move]]
        parts.append(str(state.ply))
        if not state.repetition:
            parts.append("repetition=off")
        if state.move_limit != DEFAULT_MOVE_LIMIT:
            parts.append(f"move_limit={state.move_limit}")
        return " ".join(parts)

    def from_text(self, text: str) -> AbaloneState:
        if not isinstance(text, str) or len(text) > 400:
            raise ParseError("an Abalone position is one line of at most 400 characters")
        parts = text.split()
        if len(parts) < 4:
            raise ParseError("expected: <variant> <board> <b|w> <ply> [options]")
        variant, board_part, side, ply_text, *extra = parts
        if variant not in VARIANTS:
            raise ParseError(f"unknown Abalone variant {variant[:24]!r}")
        board = parse_board(board_part)
        for s in (0, 1):
            if board.count(s + 1) > MARBLES_PER_SIDE:
                raise ParseError(f"{SIDE_NAMES[s]} has more than {MARBLES_PER_SIDE} marbles")
        if side not in ("b", "w"):
            raise ParseError("the side to move must be b (Black) or w (White)")
        if not _digits(ply_text, 7):
            raise ParseError(f"the ply count must be a whole number, not {ply_text[:12]!r}")
        options: dict[str, Any] = {}
        for item in extra:
            key, _, value = item.partition("=")
            if key == "repetition" and value in ("on", "off"):
                options["repetition"] = value == "on"
            elif key == "move_limit" and _digits(value, 7):
                options["move_limit"] = int(value)
            else:
                raise ParseError(f"unknown position option {item[:24]!r}")
        try:
            repetition, move_limit = _check_options(options)
        except OptionError as error:
            raise ParseError(str(error)) from None
        return AbaloneState(
            variant, board, SIDE_LETTERS.index(side), int(ply_text), repetition, move_limit
        )

    def _shape(self, action: Push) -> tuple[tuple[int, ...], int, bool]:
        info = INFO.get(action) if isinstance(action, Push) else None
        if info is None:
            raise IllegalAction(NOT_A_LINE, "not_a_line")
        return info

    def _check(self, state: AbaloneState, extended: bytes, action: Push) -> None:
        if not isinstance(action, Push):
            raise IllegalAction("that is not an Abalone move", "not_an_action")
        if self.result(state) is not None:
            raise IllegalAction("the game is over", "game_over")
        refusal = illegal(extended, state.to_move + 1, action)
        if refusal:
            raise refusal


def _digits(text: str, most: int) -> bool:
    """1..``most`` ASCII digits: ``str.isdigit`` alone accepts "²", which int() refuses."""
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


def _check_options(options: dict[str, Any]) -> tuple[bool, int]:
    unknown = set(options) - {"repetition", "move_limit"}
    if unknown:
        raise OptionError(
            f"unknown Abalone option {sorted(unknown)[0]!r}: the options are repetition "
            "and move_limit",
            "unknown_option",
            option=str(sorted(unknown)[0])[:40],
            choices=["repetition", "move_limit"],
        )
    repetition = options.get("repetition", True)
    if not isinstance(repetition, bool):
        raise OptionError(
            "repetition must be true or false",
            "not_on_off",
            name="repetition",
            value=str(repetition)[:40],
        )
    move_limit = options.get("move_limit", DEFAULT_MOVE_LIMIT)
    if isinstance(move_limit, bool) or not isinstance(move_limit, int):
        raise OptionError(
            "move_limit must be a whole number of plies (0 for no limit)",
            "move_limit_range",
            most=MAX_MOVE_LIMIT,
            value=str(move_limit)[:40],
        )
    if not 0 <= move_limit <= MAX_MOVE_LIMIT:
        raise OptionError(
            f"move_limit must be between 0 (no limit) and {MAX_MOVE_LIMIT}",
            "move_limit_range",
            most=MAX_MOVE_LIMIT,
            value=str(move_limit)[:40],
        )
    return repetition, move_limit


def _move_limit_outcome(state: AbaloneState) -> Outcome:
    black, white = state.board.count(1), state.board.count(2)
    limit = f"the limit of {state.move_limit} moves in all was reached"  # not "plies"
    if black == white:
        return Outcome(
            Termination.MOVE_LIMIT, None, f"{limit} with {black} marbles each on the board"
        )
    winner = 0 if black > white else 1
    high, low = max(black, white), min(black, white)
    return Outcome(
        Termination.MOVE_LIMIT,
        winner,
        f"{limit}: {SIDE_NAMES[winner]} has {high} marbles on the board, "
        f"{SIDE_NAMES[1 - winner]} {low}",
    )


GAME = AbaloneGame()

__all__ = [
    "CELLS",
    "CELL_NAMES",
    "GAME",
    "N_CELLS",
    "AbaloneGame",
    "AbaloneState",
    "Push",
    "aba_pro",
    "marble_at",
    "marbles",
    "marbles_off",
    "moved_marbles",
]
