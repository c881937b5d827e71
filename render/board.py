"""What each game's renderer provides, and the parts they share (names, result line, tints)."""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

from PIL import Image

from engine.core import EngineError, Outcome, Termination
from render.frame import Hand, Status
from render.model import Last, Layout
from render.paint import printable
from render.theme import RGB, Theme
from translations import Words

Told = tuple[str, Mapping[str, object]]
"""How the caller says a game ended when it knows more than the outcome (who voided, aborted
or awarded it, and why): a catalog key and its parameters, ``("end.awarded_by", {"name":
"Mo", "why": "..."})``."""


class BoardRenderer:
    """One game's drawing: its layout, cached background, pieces and overlays, and words.

    Subclasses are stateless; every cache is keyed by what the image depends on. The words come
    from the caller (``w``, one language's catalog): nothing here is English of its own.
    """

    game: ClassVar[str]
    side_names: ClassVar[tuple[str, str]]  # the engine's (English) names, for the engine's text
    marks: ClassVar[tuple[str, str]]  # each side's piece on a text board: a symbol, not an
    # initial (W, B, R are English, and B was Blue in one game and Black in the others)

    def sides(self, w: Words) -> tuple[str, str]:
        """The two sides' names in ``w``'s language (Red and Blue, Fehér and Fekete...)."""
        return (w.t(f"side.{self.game}.0"), w.t(f"side.{self.game}.1"))

    def marked_sides(self, w: Words) -> tuple[str, str]:
        """The sides' names after their text-board symbols ("○ White", "● Fekete"): the
        status line under a text board is its legend."""
        names = self.sides(w)
        return (f"{self.marks[0]} {names[0]}", f"{self.marks[1]} {names[1]}")

    def end_params(self, state: Any) -> dict[str, object]:
        """What the game's ending sentences need besides the names (Atmalof: the line)."""
        return {}

    def check(self, state: Any) -> None:
        """Raise TypeError unless ``state`` is this game's state."""
        raise NotImplementedError

    def layout(self, state: Any, size: int) -> Layout:
        raise NotImplementedError

    def background(self, state: Any, theme: Theme, size: int, labels: str) -> Image.Image:
        """The image without pieces or overlays (cached: copy it before drawing)."""
        raise NotImplementedError

    def draw(
        self,
        img: Image.Image,
        state: Any,
        lasts: Sequence[Last],
        theme: Theme,
        layout: Layout,
        outcome: Outcome | None,
    ) -> None:
        raise NotImplementedError

    def hand(self, state: Any, side: int, theme: Theme, outcome: Outcome | None, w: Words) -> Hand:
        raise NotImplementedError

    def status(
        self,
        state: Any,
        lasts: Sequence[Last],
        names: tuple[str, str],
        outcome: Outcome | None,
        w: Words,
    ) -> Status:
        raise NotImplementedError

    def said(self, last: Last, w: Words) -> str:
        """One action in words, for the alt text's "Last:" (the status line's words)."""
        raise NotImplementedError

    def said_turns(self, lasts: Sequence[Last], w: Words) -> list[str]:
        """The last actions in words, one a turn, for the alt text's "Last:" (Morris says a
        move and the removal after it as one: "White placed a4 and removed d6"). An action
        that does not follow from the state before it is left out."""
        out = []
        for last in lasts:
            with contextlib.suppress(EngineError):
                out.append(self.said(last, w))
        return out

    def turn_tag(self, state: Any, w: Words) -> str:
        return w.t("tag.to_move")

    def turn_said(self, state: Any, who: str, w: Words) -> str:
        """The alt text's turn sentence ("Alice (Red) to move."): what the badge
        (``turn_tag``) says, so a screen reader hears what the picture shows."""
        return w.t("alt.to_move", who=who)

    def describe_position(
        self, state: Any, names: tuple[str, str], w: Words, *, over: bool = False
    ) -> list[str]:
        """Sentences for the alt text about the pieces (after the turn line); ``over``: the
        game has ended, so nothing is owed (a draw agreed between a mill and its removal)."""
        raise NotImplementedError

    def text_board(self, state: Any, labels: str, w: Words) -> str:
        raise NotImplementedError

    def touched(self, state: Any, lasts: Sequence[Last]) -> set[Hashable]:
        """Layout keys the last action drew on (the tests leave them out of the empty check)."""
        return set()


def who(names: tuple[str, str], sides: tuple[str, str], side: int, w: Words) -> str:
    """'Alice (Red)', or just 'Red' when the player has no name of their own."""
    name = names[side]
    return name if name == sides[side] else w.t("who.named", name=name, side=sides[side])


def one_after_another(said: Sequence[str], w: Words) -> str:
    """Turns said one after the other, as the status line and the alt text's "Last:" both say
    them ("White placed g7, Black placed d2")."""
    text = said[0]
    for turn in said[1:]:
        text = w.t("status.then", first=text, second=turn)
    return text


def end_reason(
    outcome: Outcome, names: tuple[str, str], sides: tuple[str, str], w: Words, **params: object
) -> str:
    """Why the game ended, from how it ended (its termination), in ``w``'s words."""
    loser = "" if outcome.winner is None else who(names, sides, 1 - outcome.winner, w)
    return w.t(f"end.{outcome.termination.value}", loser=loser, **params)


def told_reason(outcome: Outcome, w: Words, told: Told | None, voided: bool) -> str | None:
    """Why the game ended as the caller ``told`` it (its text parameters drawable: a typed
    reason may hold a line break or an emoji), or "voided by a moderator" for a ``voided``
    abort; None: the termination's own words."""
    if told is not None:
        key, params = told
        return w.t(key, **{k: printable(str(v)) for k, v in params.items()})
    if voided and outcome.termination is Termination.ABORTED:
        return w.t("end.voided")
    return None


def result_status(
    outcome: Outcome, names: tuple[str, str], sides: tuple[str, str], w: Words, **params: object
) -> Status:
    """The status bar at the end: who won and why, in the accent colour."""
    return ended_status(outcome, names, sides, w, end_reason(outcome, names, sides, w, **params))


def ended_status(
    outcome: Outcome, names: tuple[str, str], sides: tuple[str, str], w: Words, reason: str
) -> Status:
    """The status bar at the end with its ``reason`` said: who won, a draw, or (aborted or
    voided) no result."""
    if outcome.termination is Termination.ABORTED:
        return Status(w.t("result.none", reason=reason), tone="accent")
    if outcome.winner is None:
        return Status(w.t("result.draw", reason=reason), tone="accent")
    winner = who(names, sides, outcome.winner, w)
    return Status(w.t("result.win", who=winner, reason=reason), tone="accent")


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
