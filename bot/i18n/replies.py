"""A whole reply in a language: a refusal from its code, anything else from its sentences.

Read by its fields (``reason``, ``params``, ``lines``, ``text``), so this module needs none of
the referee's types. A reply that carries no sentences as data yet is shown as its ``text``.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.i18n.message import Msg, say, say_all
from translations import words


class Sayable(Protocol):
    """What a reply offers to be said: ``bot.referee.replies.Reply`` has these."""

    @property
    def reason(self) -> str | None: ...
    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def lines(self) -> list[Msg]: ...
    @property
    def text(self) -> str: ...
    @property
    def notice(self) -> str | None: ...


def refusal_words(reason: str, params: dict[str, Any], lang: str) -> str:
    """Why a command was refused. The engine's reasons are said from their own codes
    (``engine.<code>``); one a catalog does not have yet keeps the engine's English sentence."""
    if reason == "engine":
        code = params.get("code")
        key = f"engine.{code}"
        given = params.get("engine_params") or {}
        if code and key in words(lang):
            try:
                return say(Msg(key, dict(given)), lang)
            except (KeyError, IndexError):  # a raise site with other params than the catalog's
                pass
        return str(params.get("message", ""))
    return say(Msg(f"refusal.{reason}", params), lang)


def reply_words(reply: Sayable, lang: str = "en") -> str:
    """The reply's text in ``lang``."""
    if reply.reason:
        return refusal_words(reply.reason, reply.params, lang)
    if reply.lines:
        return say_all(reply.lines, lang)
    if reply.notice:  # a notice alone: its code says it
        return say(Msg(f"notice.{reply.notice}", reply.params), lang)
    return reply.text


def button_label(kind: str, lang: str = "en", arg: str = "") -> str:
    """A button's label by what it does (``ButtonKind`` value); a drop to confirm names its
    line ("row4" -> "row 4")."""
    if arg:
        axis = "col" if arg.startswith("col") else "row"
        line = say(Msg(f"line.{axis}", {"index": arg.removeprefix(axis)}), lang)
        return say(Msg(f"button.{kind}", {"line": line}), lang)
    return say(Msg(f"button.{kind}"), lang)
