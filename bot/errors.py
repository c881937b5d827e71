"""The project's errors, all under one root (``RefereeError``), so that each front end has one
place that maps them to what a person sees (``bot.discord_ui.tree``, the console table).

- ``Refusal``: the referee says no (a reason code and its parameters as data, with the English
  sentence); nothing changed. Services raise it; the referee's wrapper turns it into a reply.
- ``Preempted`` (``bot.referee.replies``, beside the Reply it carries): the command did not
  land but something public happened instead (the mover's flag had fallen).
- ``BadInput``: a value a person typed that cannot be read (a clock text); the message is
  written for them.
- ``StoreUnavailable``: the store cannot write (or read) right now; nothing was changed.
- ``Conflict``: a game's version changed under a command ("that game has moved on").
- ``BrokenGame``: a game whose stored log no longer replays through the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n.message import Msg
from bot.i18n.replies import refusal_words


class RefereeError(Exception):
    """The root of every error this project raises on purpose."""


class Refusal(RefereeError):
    """The referee refuses a command: ``code`` names the reason (``bot.texts.REFUSALS``),
    ``params`` fill its sentence (the catalogs' ``refusal.<code>``), ``game_id``/``version`` say
    which game it was about. ``text`` is the English, for logs; front ends say the code.
    """

    def __init__(
        self,
        code: str,
        params: Mapping[str, Any] | None = None,
        *,
        text: str | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> None:
        self.code = code
        self.params = dict(params or {})
        if text is None:
            text = refusal_words(code, self.params, "en")
        super().__init__(text)
        self.text = text
        self.game_id = game_id
        self.version = version


class BadInput(RefereeError, ValueError):
    """A value typed by a person that cannot be used; the message is written for them.
    ``said``: the same as a catalog message, which each front end says in its reader's
    language (None: the English text is all there is)."""

    def __init__(self, text: str, said: Msg | None = None) -> None:
        super().__init__(text)
        self.said = said


class StoreUnavailable(RefereeError):
    """The file cannot be written (or read) right now; nothing was changed, and the same command
    may work once the fault clears. ``reason`` says which fault, for the log."""

    def __init__(self, reason: str, context: str = "") -> None:
        super().__init__(f"{reason} ({context})" if context else reason)
        self.reason = reason
        self.context = context


class Conflict(RefereeError):
    """The game's version changed under a command: someone else's command landed first."""


class BrokenGame(RefereeError):
    """A game whose stored log no longer replays through the engine (a damaged or hand-edited
    row): ``seq`` and ``action`` name the first row that fails, ``state`` is the position
    before it (None when even the start cannot be built), ``error`` what the engine said."""

    def __init__(self, game_id: int, seq: int, action: str, error: str, state: Any) -> None:
        super().__init__(f"game {game_id}: action {seq} ({action!r}) does not replay: {error}")
        self.game_id = game_id
        self.seq = seq
        self.action = action
        self.error = error
        self.state = state


def engine_reason(exc: Exception, game: str | None = None) -> dict[str, Any]:
    """A refusal's params for an engine error: its English sentence (``message``), its reason
    ``code``, the ``game`` and the ``engine_params`` a language says it with (``bot.i18n``)."""
    return {
        "message": str(exc),
        "game": game,
        "code": getattr(exc, "code", None),
        "engine_params": dict(getattr(exc, "params", {}) or {}),
    }
