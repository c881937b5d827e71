"""What each game's renderer provides, and the parts they share (names, result line, tints)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from PIL import Image

from engine.core import Outcome
from render.frame import Hand, Status
from render.model import Last, Layout
from render.theme import RGB, Theme


class BoardRenderer:
    """One game's drawing: its layout, cached background, pieces and overlays, and words.

    Subclasses are stateless; every cache is keyed by what the image depends on.
    """

    game: ClassVar[str]
    side_names: ClassVar[tuple[str, str]]

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

    def hand(self, state: Any, side: int, theme: Theme, outcome: Outcome | None) -> Hand:
        raise NotImplementedError

    def status(
        self, state: Any, lasts: Sequence[Last], names: tuple[str, str], outcome: Outcome | None
    ) -> Status:
        raise NotImplementedError

    def turn_tag(self, state: Any) -> str:
        return "TO MOVE"

    def describe_position(self, state: Any, names: tuple[str, str]) -> list[str]:
        """Sentences for the alt text about the pieces (after the turn line)."""
        raise NotImplementedError

    def text_board(self, state: Any, labels: str) -> str:
        raise NotImplementedError

    def touched(self, state: Any, lasts: Sequence[Last]) -> set[Hashable]:
        """Layout keys the last action drew on (the tests leave them out of the empty check)."""
        return set()


def who(names: tuple[str, str], side_names: tuple[str, str], side: int) -> str:
    """'Alice (Red)', or just 'Red' when the player has no name of their own."""
    name = names[side]
    return name if name == side_names[side] else f"{name} ({side_names[side]})"


def result_status(outcome: Outcome, names: tuple[str, str], side_names: tuple[str, str]) -> Status:
    """The status bar at the end: who won and why, in the accent colour."""
    reason = outcome.reason.rstrip(".")
    if outcome.winner is not None:  # "…: White wins" says again what the line starts with
        for tail in (
            f": {side_names[outcome.winner]} wins",
            f", {side_names[outcome.winner]} wins",
        ):
            reason = reason.removesuffix(tail)
    if outcome.winner is None:
        return Status(f"Draw · {reason}", tone="accent")
    return Status(f"{who(names, side_names, outcome.winner)} wins · {reason}", tone="accent")


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
