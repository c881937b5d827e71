"""The contract every game module honours, and the types they share.

A game is a stateless object with pure functions over immutable states (see ``Game``).
Side 0 always moves first; the referee decides which person sits in which seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar, runtime_checkable


class EngineError(ValueError):
    """Base of every error the engine raises; its message is fit to show a player."""


class ParseError(EngineError):
    """The text is not a command of this game ("drop diagonal 3", "place z9")."""


class IllegalAction(EngineError):
    """A well-formed action that the position forbids ("c3 is occupied")."""


class OptionError(EngineError):
    """A variant name or option set that cannot make a game ("line length 9 on a 7x7 board")."""


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


S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class Game(Protocol[S, A]):
    """One game's rules. Every method is pure; states and actions are frozen and hashable.

    States expose at least ``to_move`` (0 or 1), ``variant`` (str) and ``ply`` (actions applied).
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
    def apply(self, state: S, action: A, roll: int | None = None) -> S: ...
    def die_faces(self, state: S, action: A) -> int | None: ...
    def result(self, state: S) -> Outcome | None: ...
    def describe(self, state: S, action: A, roll: int | None = None) -> str: ...
    def to_text(self, state: S) -> str: ...
    def from_text(self, text: str) -> S: ...


MAX_COMMAND_LENGTH = 200
"""Longest command text any game parses; longer input is refused before it is read."""


def clean_command(text: str) -> str:
    """Normalise untrusted command text: bounded, lower case, single spaces."""
    if not isinstance(text, str):
        raise ParseError("a command must be text")
    if len(text) > MAX_COMMAND_LENGTH:
        raise ParseError(f"that command is too long (at most {MAX_COMMAND_LENGTH} characters)")
    return " ".join(text.lower().replace(",", " , ").split()).replace(" , ", ",")
