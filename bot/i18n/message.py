"""One sentence as data, and saying it in a language."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from string import Formatter
from typing import Any

from babel.numbers import format_decimal

from translations import DEFAULT, words

Markup = Callable[[str], str]
"""How a front end keeps someone's text from being read as its own markup (Discord escapes
markdown and mentions; the console needs nothing): applied to every text value a sentence
carries (names, typed words, an engine's English), never to a catalog's own words."""

PLAIN = "plain"  # text that is the same in every language: names, notation, someone's own words
CODED = "coded"  # a sentence whose English is made elsewhere (the engine), said by its code
NUMBER = "number"  # a decimal number, written as the language writes it ("3.5", "3,5")


@dataclass(frozen=True, slots=True)
class Msg:
    """A catalog ``key`` and the ``params`` that fill it. A parameter that is itself a ``Msg``
    (a side's name inside a turn line) is said in the same language; a list of them is joined
    with the language's list separator."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


def msg(key: str, **params: Any) -> Msg:
    """``Msg(key, params)`` written as a call: ``msg("notice.draw_declined", actor="bob")``."""
    return Msg(key, params)


def plain(text: str) -> Msg:
    """Text every language shows as it is."""
    return Msg(PLAIN, {"text": text})


def typed(value: object, limit: int = 100) -> str:
    """What someone typed, as a sentence's parameter: cut to ``limit``, unprintable characters
    (a line break) as '?', and unquoted: each catalog puts its own quotation marks around it
    ('…', „…”, „…“), so code never quotes (``repr``) a player's words."""
    text = str(value)
    cut = text if len(text) <= limit else text[:limit] + "…"
    return "".join(ch if ch.isprintable() else "?" for ch in cut)


MAX_NAME = 64  # twice Discord's own cap on a display name; a record's names may be anything
MAX_MARKS = 4  # combining marks kept on one letter: enough for any script, not for "zalgo"
KEPT_FORMATS = frozenset("\u200c\u200d")  # the joiners of Persian words and emoji families
# Letters that draw nothing (the Hangul fillers, the blank Braille pattern): names made of
# them look empty, so they count as spaces
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def one_line(text: object, limit: int) -> str:
    """Someone's free text (a name, a reason) made safe to repeat inside the bot's own sentence:
    one line (a line break could forge a line of the bot's message), no invisible format
    characters (a right-to-left override turns the rest of the sentence around, zero-width
    spaces hide a name), at most ``MAX_MARKS`` combining marks in a row, spaces folded, cut to
    ``limit`` with a "…"."""
    kept: list[str] = []
    marks = 0
    for char in unicodedata.normalize("NFC", str(text)):
        kind = unicodedata.category(char)
        if kind in ("Cc", "Zl", "Zp") or char in BLANK_LETTERS:
            char = " "
        elif kind == "Cf" and char not in KEPT_FORMATS and not "\U000e0020" <= char <= "\U000e007f":
            continue  # the tag characters spell a flag emoji's region
        marks = marks + 1 if kind.startswith("M") else 0
        if marks <= MAX_MARKS:
            kept.append(char)
    line = " ".join("".join(kept).split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def person_name(text: object, fallback: str) -> str:
    """A person's name as the bot repeats it (``one_line``, at most ``MAX_NAME`` characters),
    or ``fallback`` when nothing visible is left of it."""
    return one_line(text, MAX_NAME) or fallback


def number(value: float, digits: int = 1) -> Msg:
    """A decimal number with ``digits`` after the point, in the reader's notation."""
    return Msg(NUMBER, {"value": float(value), "digits": int(digits)})


def coded(key: str, english: str, **params: Any) -> Msg:
    """A sentence the engine (or a record) already says in English: English shows ``english``
    as it is; another language says ``key`` with ``params``, or, where its catalog cannot yet,
    the English (a gap the per-language tests list)."""
    return Msg(CODED, {"key": key, "en": english, "params": params})


def _value(value: Any, lang: str, markup: Markup | None, code: bool) -> Any:
    if isinstance(value, Msg):
        return say(value, lang, markup)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Msg) for v in value):
        sep = words(lang).t("list.separator")
        return sep.join(say(v, lang, markup) for v in value)
    if markup is not None and isinstance(value, str) and not code:
        return markup(value)
    return value


@lru_cache(maxsize=4096)
def in_code(template: str) -> frozenset[str]:
    """The placeholders a message puts between backticks (`` `{command}` ``): text in a code
    span is shown as it is, so a front end's markup escapes would show there as backslashes."""
    inside, names = False, set()
    for literal, name, _, _ in Formatter().parse(template):
        inside ^= literal.count("`") % 2 == 1
        if name and inside:
            names.add(name)
    return frozenset(names)


def say(message: Msg, lang: str = "en", markup: Markup | None = None) -> str:
    """The sentence in ``lang`` (``en``, ``hu``, ``eo``, ``is``); ``markup`` escapes the text
    values it carries for a front end that reads markup (see ``Markup``)."""
    if message.key == PLAIN:
        text = str(message.params["text"])
        return markup(text) if markup is not None else text
    if message.key == NUMBER:
        pattern = "0." + "0" * int(message.params["digits"]) if message.params["digits"] else "0"
        return format_decimal(message.params["value"], format=pattern, locale=lang)
    if message.key == CODED:
        english = str(message.params["en"])
        key = str(message.params["key"])
        if lang == "en" or key not in words(lang):
            return markup(english) if markup is not None else english
        try:
            return say(Msg(key, dict(message.params["params"])), lang, markup)
        except (KeyError, IndexError, ValueError):  # the catalog wants params this site lacks
            return markup(english) if markup is not None else english
    if message.key not in words(lang):  # a gap the catalog test reports; never a crash
        lang = DEFAULT
    code = in_code(words(lang).template(message.key, message.params.get("n"))) if markup else ()
    params = {k: _value(v, lang, markup, k in code) for k, v in message.params.items()}
    return words(lang).t(message.key, **params)


def say_all(
    messages: Iterable[Msg], lang: str = "en", sep: str = "\n", markup: Markup | None = None
) -> str:
    """Several sentences, one per line (or joined by ``sep``)."""
    return sep.join(say(m, lang, markup) for m in messages)


_MSG = "$msg"  # marks a nested sentence in ``to_data``'s JSON


def to_data(message: Msg) -> dict[str, Any]:
    """A sentence as JSON-ready data (a repeated request's kept answer is said again in the
    reader's language, not in the English of its first answer); ``from_data`` reads it."""
    return {"key": message.key, "params": to_json(message.params)}


def from_data(data: Any) -> Msg:
    return Msg(str(data["key"]), from_json(data.get("params") or {}))


def to_json(value: Any) -> Any:
    """A value that may hold sentences (a notice's params), as JSON-ready data."""
    if isinstance(value, Msg):
        return {_MSG: to_data(value)}
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    return value


def from_json(value: Any) -> Any:
    """``to_json``'s data read back, its sentences as ``Msg`` again."""
    if isinstance(value, dict):
        if set(value) == {_MSG}:
            return from_data(value[_MSG])
        return {k: from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value
