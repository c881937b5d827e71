"""The referee: every game command, transport-agnostic (``Referee``, and what it is told and
answers: ``Where``, ``Actor``, ``Reply``). Front ends call it and show its replies."""

from bot.referee.facade import Referee
from bot.referee.replies import Actor, Reply, Where

__all__ = ["Actor", "Referee", "Reply", "Where"]
