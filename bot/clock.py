"""Game clocks computed from stored timestamps, never from sleeping timers.

A restart loses no time: what a player has left is (their bank at the start of the turn) minus
(now - the turn's start). Three kinds, like the online sites: none; a Fischer time bank
``N+M`` (N minutes each, M seconds added after every turn); correspondence ``Nh``/``corr N``
(N hours for each move). The wall clock is injectable so tests move time by hand.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Protocol

from bot.errors import BadInput
from bot.i18n import msg, say

MAX_MINUTES = 24 * 60
MAX_INCREMENT = 600
MAX_CORR_HOURS = 24 * 14
DIGITS = r"(\d{1,9})"  # any number a clock option is given as (20 characters on Discord)


class Clock(Protocol):
    """Where the referee gets the time (seconds since the epoch)."""

    def now(self) -> float: ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told: for tests and the benchmark."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


class ClockSpecError(BadInput):
    """A clock text that cannot be read, as a catalog message (``clock.<code>``) for the
    player's language; ``str()`` is its English."""

    def __init__(self, code: str, **params: object) -> None:
        said = msg(f"clock.{code}", **params)
        super().__init__(say(said), said)


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """A clock choice. ``kind``: "none", "fischer" or "correspondence"."""

    kind: str = "none"
    initial: float = 0.0  # seconds in each bank (fischer)
    increment: float = 0.0  # seconds added after each turn (fischer)
    per_move: float = 0.0  # seconds for each move (correspondence)

    @classmethod
    def parse(cls, text: str | None) -> ClockSpec:
        """Read "none", "10+0"/"15+5" (Fischer), "24h"/"corr 24" (correspondence)."""
        raw = (text or "none").strip().lower()
        if raw in ("", "none", "off", "no", "unlimited"):
            return cls()
        # numbers of up to 9 digits are read, so one too large is refused with its limit
        # (12345 -> "1 to 1440 minutes"), not as a spelling the bot cannot read
        match = re.fullmatch(DIGITS + r"\s*\+\s*" + DIGITS, raw) or re.fullmatch(DIGITS, raw)
        if match:
            minutes = int(match.group(1))
            inc = int(match.group(2)) if match.lastindex == 2 else 0
            if not 1 <= minutes <= MAX_MINUTES:
                raise ClockSpecError("bank_range", most=MAX_MINUTES, minutes=minutes)
            if inc > MAX_INCREMENT:
                raise ClockSpecError("increment_most", most=MAX_INCREMENT)
            return cls("fischer", initial=minutes * 60.0, increment=float(inc))
        match = re.fullmatch(r"(?:corr(?:espondence)?\s*)?" + DIGITS + r"\s*h?(?:ours?)?", raw)
        if match and ("h" in raw or raw.startswith("corr")):
            hours = int(match.group(1))
            if not 1 <= hours <= MAX_CORR_HOURS:
                raise ClockSpecError("correspondence_range", most=MAX_CORR_HOURS)
            return cls("correspondence", per_move=hours * 3600.0)
        raise ClockSpecError("unreadable", text=(text or "")[:40])

    @property
    def text(self) -> str:
        """The canonical spelling, stored with the game and accepted by ``parse``."""
        if self.kind == "fischer":
            return f"{self.initial / 60:g}+{self.increment:g}"
        if self.kind == "correspondence":
            return f"{self.per_move / 3600:g}h"
        return "none"

    @property
    def enabled(self) -> bool:
        return self.kind != "none"

    def start_banks(self) -> tuple[float, float]:
        """Each seat's bank at the start (correspondence and none keep no bank)."""
        return (self.initial, self.initial) if self.kind == "fischer" else (0.0, 0.0)

    def deadline(self, turn_started: float, bank: float) -> float | None:
        """When the player to move runs out of time, or None without a clock."""
        if self.kind == "fischer":
            return turn_started + bank
        if self.kind == "correspondence":
            return turn_started + self.per_move
        return None

    def after_turn(self, bank: float, turn_started: float, now: float) -> float:
        """The mover's bank once their turn ends at ``now`` (Fischer: minus use, plus increment)."""
        if self.kind == "fischer":
            return bank - (now - turn_started) + self.increment
        return bank


IN_DAYS = 2 * 86400  # from this long on, a time is written in days and hours ("2d 3h")


def format_seconds(seconds: float) -> str:
    """ "4:05", "1:02:03", or "2d 3h" for long correspondence times; never negative."""
    s = max(0, int(seconds))
    if s >= IN_DAYS:
        return f"{s // 86400}d {s % 86400 // 3600}h"
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
