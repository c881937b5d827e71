"""How a game ended beyond what its result says: who aborted, voided or awarded it, and why.

Read from the log's ending event (``bot.referee.records.ending``) and said by
``bot.texts.outcome_msg`` in every language; a value of its own so the result's words never come
from matching the stored English reason.
"""

from __future__ import annotations

from dataclasses import dataclass


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


NOT_TOLD = Ending()
