"""The stable service contract (docs/architecture.md): ``Referee``, ``Where``, ``Actor``,
``ManualClock`` and ``RefereeBot``. Each is imported on first use (``__getattr__``), so that
``import bot`` imports neither discord nor the store."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.clock import ManualClock
    from bot.discord_ui.app import RefereeBot
    from bot.referee import Referee
    from bot.referee.replies import Actor, Where

_CONTRACT = {
    "Referee": "bot.referee",
    "Where": "bot.referee.replies",
    "Actor": "bot.referee.replies",
    "ManualClock": "bot.clock",
    "RefereeBot": "bot.discord_ui.app",
}

__all__ = ["Actor", "ManualClock", "Referee", "RefereeBot", "Where"]


def __getattr__(name: str) -> Any:
    if name in _CONTRACT:
        return getattr(import_module(_CONTRACT[name]), name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
