"""A whole reply in a language: a refusal from its code, anything else from its sentences.

Read by its fields (``reason``, ``params``, ``lines``, ``text``), so this module needs none of
the referee's types. A reply that carries no sentences as data yet is shown as its ``text``.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from bot.i18n.message import Markup, Msg, coded, plain, say, say_all
from translations import words

log = logging.getLogger(__name__)


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


def refusal_words(
    reason: str, params: dict[str, Any], lang: str, markup: Markup | None = None
) -> str:
    """Why a command was refused. The engine's reasons are said from their own codes
    (``engine.<game>.<code>``); English keeps the engine's own sentence, and a reason a
    catalog does not have says that sentence too."""
    if reason == "engine":
        english = str(params.get("message", ""))
        key = None if lang == "en" else engine_key(params, lang)
        if key is not None:
            try:
                return say(Msg(key, engine_params(params)), lang, markup)
            except (KeyError, IndexError, ValueError):  # a raise site with other params
                pass
        return markup(english) if markup is not None else english
    return say(Msg(f"refusal.{reason}", params), lang, markup)


def engine_msg(params: dict[str, Any]) -> Msg:
    """An engine reason (``bot.errors.engine_reason``'s params) as a sentence: English keeps the
    engine's own words; another language says it from its code where its catalog can."""
    english = str(params.get("message", ""))
    key = engine_key(params, "en")
    if key is None:
        return plain(english)
    return coded(key, english, **engine_params(params))


def engine_key(params: dict[str, Any], lang: str) -> str | None:
    """The catalog key of an engine reason: per game, per verb for "expected", else shared."""
    code, game = params.get("code"), params.get("game")
    given = params.get("engine_params") or {}
    if not code:
        return None
    keys = [f"engine.{game}.{code}", f"engine.{code}"]
    if code == "expected" and "verb" in given:
        keys.insert(0, f"engine.{game}.expected.{given['verb']}")
    return next((k for k in keys if k in words(lang)), None)


def engine_params(params: dict[str, Any]) -> dict[str, Any]:
    """The engine's params as a sentence needs them: a side (0 or 1) as its name, a line
    (axis and index) as "row 4", lists as text."""
    game = params.get("game")
    out: dict[str, Any] = {}
    for name, value in (params.get("engine_params") or {}).items():
        if name == "side" and isinstance(value, int):
            out[name] = Msg(f"side.{game}.{value}")
        elif isinstance(value, list | tuple):
            out[name] = ", ".join(map(str, value))
        else:
            out[name] = value
    given = params.get("engine_params") or {}
    if "axis" in given and "index" in given:
        axis = "col" if given["axis"] == "col" else "row"
        out["line"] = Msg(f"line.{axis}", {"index": given["index"]})
    return out


def reply_words(reply: Sayable, lang: str = "en", markup: Markup | None = None) -> str:
    """The reply's text in ``lang``; ``markup`` escapes the text values its sentences carry
    (a name, a typed word) for a front end that reads markup."""
    if reply.reason:
        return refusal_words(reply.reason, reply.params, lang, markup)
    if reply.lines:
        try:
            return say_all(reply.lines, lang, markup=markup)
        except (KeyError, IndexError, ValueError) as exc:
            # a reply kept under a request id before a deploy changed its sentence's params:
            # the repeat says the words it was first said with rather than failing
            if not reply.text:
                raise
            log.warning("a reply's sentences no longer fit the catalog (%r): said as kept", exc)
            return reply.text  # the referee's own words (already shaped: not escaped again)
    if reply.notice:  # a notice alone: its code says it
        return say(Msg(f"notice.{reply.notice}", reply.params), lang, markup)
    return reply.text


def button_label(kind: str, lang: str = "en", arg: str = "") -> str:
    """A button's label by what it does (``ButtonKind`` value); a drop to confirm names its
    line ("row4" -> "row 4")."""
    if arg:
        axis = "col" if arg.startswith("col") else "row"
        line = say(Msg(f"line.{axis}", {"index": arg.removeprefix(axis)}), lang)
        return say(Msg(f"button.{kind}", {"line": line}), lang)
    return say(Msg(f"button.{kind}"), lang)
