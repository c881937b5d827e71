"""How a game ended beyond what its result says: who aborted, voided or awarded it, and why.

Read from the log's ending event (``bot.referee.records.ending``) and said by
``bot.texts.outcome_msg`` in every language; a value of its own so the result's words never come
from matching the stored English reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Termination


@dataclass(frozen=True, slots=True)
class Ending:
    """Who ended a game beyond what its result says, from its log's ending event
    (``bot.referee.records.ending``): a moderator's void (``voided``: its reason, "" for none;
    a void ends by ``aborted`` like an abort, and is told apart by its event's kind), a
    moderator's abort (``stopped``: its reason), a moderator's award (``awarded``: its reason)
    or a player's /abort (``by``: their seat). ``moderator``: the name of the moderator who
    did it ("" in a log from before the events named them)."""

    voided: str | None = None
    by: int | None = None
    stopped: str | None = None
    awarded: str | None = None
    moderator: str = ""

    def said(self, termination: Termination, names: tuple[str, str]) -> tuple[str, dict[str, Any]]:
        """The ``end.*`` key of how the game ended and what it names: who aborted, voided or
        awarded it and why (a moderator is named when their log names them, else "a
        moderator"); the termination's own key otherwise."""
        who, key = self.moderator, f"end.{termination.value}"
        if termination is Termination.AWARDED and self.awarded and who:
            return "end.awarded_by", {"name": who, "why": self.awarded}
        if termination is not Termination.ABORTED:
            return key, {}
        if self.voided:
            key = "end.voided_by" if who else "end.voided_why"
            return key, {"name": who, "why": self.voided}
        if self.voided is not None:  # a void without a reason
            return "end.voided", {}
        if self.by is not None:
            return "end.aborted_by", {"name": names[self.by]}
        if self.stopped is not None:
            key = "end.stopped_by" if who else "end.aborted_by_moderator"
            return key, {"name": who, "why": self.stopped}
        return key, {}

    def told(
        self, termination: Termination, names: tuple[str, str]
    ) -> tuple[str, dict[str, Any]] | None:
        """``said`` when it tells more than the termination's own words (who voided, aborted
        or awarded the game, and why), else None: what a board picture says in place of the
        outcome's reason (``render.board_png``'s ``told``)."""
        key, params = self.said(termination, names)
        return None if key == f"end.{termination.value}" and not params else (key, params)


NOT_TOLD = Ending()
