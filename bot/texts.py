"""The referee's sentences: who is who, whose turn, the clocks, the result. Plain words only.

Front ends add mentions and formatting; these are the same on Discord and at the console.
"""

from __future__ import annotations

from typing import Any

from bot.clock import ClockSpec, format_seconds
from bot.store import GameRow
from engine import Outcome, Termination

MOVED_ON = "that game has moved on: look at the latest board and try again"
NO_GAME = "there is no game running here: start one with a challenge"
NOT_A_PLAYER = "you are not playing in this game ({players})"
FROZEN = (
    "the game is frozen for a dispute: no move, claim or offer is taken until a moderator "
    "resumes, restores or decides it"
)
CANT_SAVE = (
    "The referee can't save right now; your move was not recorded. Please try again in a moment."
)
ROLL_LATER = (
    "The announcement stands, but the referee can't save the roll right now; the die will be "
    "rolled as soon as it can (or use /board in a moment)."
)


def seat_label(g: GameRow, sides: tuple[str, str], seat: int) -> str:
    """ "alice (Red)"."""
    return f"{g.names[seat]} ({sides[seat]})"


def players_line(g: GameRow, sides: tuple[str, str]) -> str:
    return f"{seat_label(g, sides, 0)} vs {seat_label(g, sides, 1)}"


def remaining(g: GameRow, seat: int, to_move: int, now: float) -> float | None:
    """Seconds ``seat`` has left (their bank, or the correspondence deadline), None: no clock."""
    spec = ClockSpec.parse(g.clock)
    if not spec.enabled:
        return None
    running = g.status == "active" and seat == to_move and g.pending is None
    if g.frozen_at is not None:  # a dispute stopped the clocks: time stands still
        now = g.frozen_at
        if running and spec.kind == "correspondence":
            return g.turn_started_at + spec.per_move - now
    if spec.kind == "fischer":
        bank = g.banks[seat]
        return bank - (now - g.turn_started_at) if running else bank
    if running and g.deadline is not None:
        return g.deadline - now
    return spec.per_move


def clocks_line(g: GameRow, sides: tuple[str, str], to_move: int, now: float) -> str | None:
    """ "Clocks: Red 9:41, Blue 10:00" or None without a clock."""
    left = [remaining(g, seat, to_move, now) for seat in (0, 1)]
    if left[0] is None or left[1] is None:
        return None
    return f"Clocks: {sides[0]} {format_seconds(left[0])}, {sides[1]} {format_seconds(left[1])}"


def result_line(g: GameRow, sides: tuple[str, str], outcome: Outcome) -> str:
    return f"Game over: {outcome_words(g.names, sides, outcome)}."


def outcome_words(names: tuple[str, str], sides: tuple[str, str], outcome: Outcome) -> str:
    """ "alice (Red) wins (Blue resigned)", "a draw (...)", "no result (aborted by ...)"."""
    reason = outcome.reason.rstrip(".")
    if outcome.winner is not None:
        seat = outcome.winner
        who = sides[seat] if names[seat] == sides[seat] else f"{names[seat]} ({sides[seat]})"
        return f"{who} wins ({reason})"
    if outcome.termination is Termination.ABORTED:
        return f"no result ({reason})"
    return f"a draw ({reason})"


def seed_line(g: GameRow) -> str:
    return (
        f"Dice seed revealed: {g.seed} (its SHA-256 is the commitment {g.commitment[:16]}..., "
        "check every roll with verify)"
    )


def turn_line(g: GameRow, sides: tuple[str, str], to_move: int) -> str:
    return f"{seat_label(g, sides, to_move)} to move."


def drop_words(notation: str) -> str:
    """ "drop col 3" -> "column 3": sentences spell the line out; the notation stays short."""
    words = notation.removeprefix("drop ").split()
    if words[:1] == ["col"]:
        words[0] = "column"
    return " ".join(words)


def options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "default options"


HELP = """\
Commands (type them as `name: command` at the console):
  challenge <name|anyone> <atmalof|morris|abalone> [variant] [rated] [clock 10+5|24h]
            [first me|them|random] [option=value ...] [words "your dice words"]
  accept [words "..."] | decline   answer the challenge waiting here (words: mixed into the dice)
  <a move>                     drop row 4, move 3,4 4,5 (Atmalof); place d7, move d7 d6 x b6
                               (Morris); push a1 a3 ne (Abalone)
  legal [prefix]               the moves you can make now
  board | history [page] | record | verify
  draw [accept|decline]        offer a draw, or answer one
  takeback [accept|decline]    ask to take back your last turn, or answer
  resign | abort | claim | rematch
  dispute [reason]             freeze the game and call the moderators
  import <path>                check a record file and show its final position
  ladder [game] [all]          the leaderboard (all: provisional players too)
  stats [name] [game] [rival]  a player's rating, record, streaks, dice luck
  help | quit"""
