"""The contract every game module honours, and the types they share.

A game is a stateless object with pure functions over immutable states (see ``Game``).
Side 0 always moves first; the referee decides which person sits in which seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar, runtime_checkable


class EngineError(ValueError):
    """Base of every error the engine raises; its message is fit to show a player.

    Besides the English message, ``code`` names the reason ("occupied", "not_adjacent") and
    ``params`` holds everything a translator needs to say it again in another language (squares
    and points as the notation writes them, sides as 0 or 1, counts as ints). Codes are listed in
    docs/engine.md; a raise site without its own code gets the class's ``default_code``.
    """

    default_code = "engine_error"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.params: dict[str, Any] = params


class ParseError(EngineError):
    """The text is not a command of this game ("drop diagonal 3", "place z9")."""

    default_code = "not_a_command"


class IllegalAction(EngineError):
    """A well-formed action that the position forbids ("c3 is occupied")."""

    default_code = "illegal"


class OptionError(EngineError):
    """A variant name or option set that cannot make a game ("line length 9 on a 7x7 board")."""

    default_code = "bad_option"


class Termination(StrEnum):
    """How a game ended. The first group is decided by the engine, the rest by the referee."""

    LINE = "line"  # Atmalof: five (or L) in a row
    TIEBREAK = "tiebreak"  # Atmalof: all pieces on the board, lines of four counted
    TWO_PIECES = "two_pieces"  # Morris: reduced to two men
    BLOCKED = "blocked"  # Morris: no legal move in the moving phase
    FULL_BOARD = "full_board"  # Twelve Men's Morris: board full after placing
    SIX_OFF = "six_off"  # Abalone: six marbles pushed off
    REPETITION = "repetition"  # third occurrence of a position
    MOVE_LIMIT = "move_limit"  # a move limit reached
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIMEOUT = "timeout"
    ABANDONMENT = "abandonment"
    ABORTED = "aborted"
    AWARDED = "awarded"  # a moderator decided


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: how it ended, who won (0, 1, or None for a draw), and why in words."""

    termination: Termination
    winner: int | None
    reason: str

    @property
    def is_draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True, slots=True)
class Landing:
    """Where a roll of the die sends an announced drop: ``square`` (row, col) and whether it is
    ``free`` (the piece lands) or taken (the turn is lost). ``Game.landings`` lists one per face."""

    roll: int
    square: tuple[int, int]
    free: bool


@dataclass(frozen=True, slots=True)
class Effect:
    """What one applied action did, as data (``Game.effect``): for replies, records, statistics
    and translations, so nothing has to read it back out of a sentence.

    ``side`` moved; ``notation`` is the action as the game writes it. Only the fields that apply
    are set: ``roll`` and ``landing`` (Atmalof's drop: the square the die picked), ``lost_turn``
    (that square was taken), ``removed`` (Morris: the point of the man taken, by a removal or a
    combined ``move ... x``), ``mill`` (Morris: the action closed a mill and a removal is owed),
    ``pushed`` (Abalone: opponent marbles pushed) and ``pushed_off`` (of those, how many left the
    board; ``off_from``: the cell the one pushed off stood on), ``flies`` (Morris: a side that
    may fly from now on, down to three men), ``repeated`` (Morris, Abalone: the position now
    stands for the second time, and a third would draw). ``outcome`` is the result the action
    brought, if it ended the game.
    """

    side: int
    notation: str
    roll: int | None = None
    landing: tuple[int, int] | None = None
    lost_turn: bool = False
    removed: str | None = None
    mill: bool = False
    pushed: int = 0
    pushed_off: int = 0
    off_from: str | None = None
    flies: int | None = None
    repeated: bool = False
    outcome: Outcome | None = None


S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Game(Protocol[S, A]):
    """One game's rules. Every method is pure; states and actions are frozen and hashable.

    States expose at least ``to_move`` (0 or 1), ``variant`` (str) and ``ply`` (actions applied).
    ``turns`` counts what players number (history rows, the board's "Move N"): the ply, except
    that a Morris removal is part of the turn whose mill earned it, however it was typed.
    """

    name: str  # "atmalof", "morris", "abalone"
    title: str  # "Atmalof", "Nine Men's Morris", "Abalone"
    variants: tuple[str, ...]
    side_names: tuple[str, str]  # ("Red", "Blue"), ("White", "Black"), ("Black", "White")

    def new(self, variant: str = "standard", **options: Any) -> S: ...
    def options(self, state: S) -> dict[str, Any]: ...  # full options, enough for new()
    def legal(self, state: S) -> list[A]: ...
    def is_legal(self, state: S, action: A) -> bool: ...
    def parse(self, state: S, text: str) -> A: ...
    def notation(self, state: S, action: A) -> str: ...
    def apply(
        self, state: S, action: A, roll: int | None = None, *, checked: bool = False
    ) -> S: ...  # checked=True: the action came from parse/legal on this state; not re-checked
    def die_faces(self, state: S, action: A) -> int | None: ...
    def landings(self, state: S, action: A) -> tuple[Landing, ...]: ...  # () without a roll
    def pending_removal(self, state: S) -> bool: ...  # only a removal is legal now (Morris)
    def turns(self, state: S) -> int: ...  # turns played: a Morris mill and its removal are one
    def effect(self, before: S, action: A, roll: int | None, after: S) -> Effect: ...
    def result(self, state: S) -> Outcome | None: ...
    def describe(self, state: S, action: A, roll: int | None = None) -> str: ...
    def to_text(self, state: S) -> str: ...
    def from_text(self, text: str) -> S: ...


MAX_COMMAND_LENGTH = 200
"""Longest command text any game parses; longer input is refused before it is read."""


def shown_token(token: str, limit: int = 24) -> str:
    """A player's token as an error's parameter: cut to ``limit`` (then "..."), unprintable
    characters as '?', unquoted (each language's catalog puts its own quotation marks around
    it; an English message quotes it itself)."""
    cut = token if len(token) <= limit else token[:limit] + "..."
    return "".join(ch if ch.isprintable() else "?" for ch in cut)


def clean_command(text: str) -> str:
    """Normalise untrusted command text: bounded, lower case, single spaces."""
    if not isinstance(text, str):
        raise ParseError("a command must be text", "not_text")
    if len(text) > MAX_COMMAND_LENGTH:
        raise ParseError(
            f"that command is too long (at most {MAX_COMMAND_LENGTH} characters)",
            "too_long",
            limit=MAX_COMMAND_LENGTH,
        )
    return " ".join(text.lower().replace(",", " , ").split()).replace(" , ", ",")
