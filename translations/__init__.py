"""The words of every language the referee speaks, from gettext catalogs (.po, read with Babel).

>>> from translations import words
>>> words("hu").t("move.total", n=3)
'3 lépés'

A message is found by its key (``"move.total"``); its text has named placeholders
(``{n}``, ``{side}``) that each language orders as its grammar wants, so a sentence is always
one message, never pieced together. A message with a plural takes its form from ``n`` by the
language's own rule (the catalog's ``Plural-Forms`` header: Hungarian has one form, Icelandic
counts 21 like 1).

The catalogs are the .po files under ``translations/locales`` (the source translators edit);
each is compiled in memory on first use (Babel writes the .mo, the standard library's gettext
reads it), so a fresh clone and an installed wheel work alike, with no build step.

Domains: ``messages`` (everything a player reads, in every language) and ``commands`` (slash
command and option descriptions and choice names, only for the languages Discord offers).
"""

from __future__ import annotations

import gettext
import io
import string
from collections.abc import Iterator
from functools import cache
from importlib import resources

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("en", "hu", "eo", "is")
DEFAULT = "en"
NAMES = {"en": "English", "hu": "Magyar", "eo": "Esperanto", "is": "Íslenska"}
DOMAINS = ("messages", "commands")
COMMAND_LANGUAGES = ("en", "hu")  # Discord has a Hungarian locale, none for Esperanto or Icelandic


class UnknownLanguage(ValueError):
    """A language code that is not one of ``LANGUAGES``."""


def language(code: str | None) -> str:
    """Our code for a language tag: "hu", "hu-HU", "HU" -> "hu"; None or "" -> the default.

    Raises ``UnknownLanguage`` for a language we do not have.
    """
    if not code:
        return DEFAULT
    base = code.strip().replace("_", "-").split("-")[0].lower()
    if base not in LANGUAGES:
        raise UnknownLanguage(f"no language {code!r}; choose one of {', '.join(LANGUAGES)}")
    return base


def catalog_path(lang: str, domain: str = "messages") -> resources.abc.Traversable:
    return resources.files(__name__) / "locales" / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(lang: str, domain: str = "messages") -> Catalog:
    """The parsed .po catalog (Babel's ``Catalog``), for tests and tools."""
    with catalog_path(lang, domain).open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message text ({n}, {side}...)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


_FORMATTER = string.Formatter()
ENDS_SENTENCE = ("!", "?", ".")
"""A value ending so has its sentence's end: the message's own full stop after it goes."""


def fill(text: str, params: dict[str, object]) -> str:
    """``text.format(**params)``, except that a full stop right after a value that already
    ends a sentence is left out: "Last: {what}." with "the marble on h4 is off!" says
    "Last: the marble on h4 is off!", not "…off!."; the same in every language. Most
    messages have no such value: they take ``str.format`` alone (about six times faster)."""
    if "}." not in text or not any(str(v).endswith(ENDS_SENTENCE) for v in params.values()):
        return text.format(**params)
    out: list[str] = []
    closed = False  # the value just written ends with its own punctuation
    for literal, name, spec, conversion in _FORMATTER.parse(text):
        stop = literal.startswith(".") and not literal.startswith("..")  # not an ellipsis
        out.append(literal[1:] if closed and stop else literal)
        closed = False
        if name is None:
            continue
        value, _ = _FORMATTER.get_field(name, (), params)
        value = _FORMATTER.convert_field(value, conversion)
        said = _FORMATTER.format_field(value, _FORMATTER.vformat(spec or "", (), params))
        out.append(said)
        closed = said.endswith(ENDS_SENTENCE)
    return "".join(out)


class Words:
    """One language's messages: ``t(key, **params)`` gives the text with its placeholders filled."""

    def __init__(self, lang: str, domain: str = "messages") -> None:
        self.lang = lang
        self.domain = domain
        catalog = read_catalog(lang, domain)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        self._gnu = gettext.GNUTranslations(buffer)
        self._plural = {m.id[0] for m in catalog if m.id and m.pluralizable}
        self._keys: set[str] = {str(m.id[0] if m.pluralizable else m.id) for m in catalog if m.id}

    def __repr__(self) -> str:
        return f"Words({self.lang!r}, {self.domain!r})"

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._keys))

    def keys(self) -> Iterator[str]:
        return iter(self)

    def t(self, key: str, /, **params: object) -> str:
        """The message ``key`` with ``params`` filled in; a plural message takes ``n``.

        Raises KeyError for a key no catalog has (a programming error the catalog test
        catches), never shows a key to a player.
        """
        if key not in self._keys:
            raise KeyError(f"no message {key!r} in the {self.lang} {self.domain} catalog")
        if key in self._plural:
            text = self._gnu.ngettext(key, key, int(params["n"]))  # type: ignore[call-overload]
        else:
            text = self._gnu.gettext(key)
        return fill(text, params) if params else text.replace("{{", "{").replace("}}", "}")

    def template(self, key: str, n: object = None) -> str:
        """The message ``key`` with its placeholders unfilled (the form for ``n`` if plural)."""
        if key in self._plural:
            return str(self._gnu.ngettext(key, key, int(n)))  # type: ignore[call-overload, arg-type]
        return str(self._gnu.gettext(key))

    def get(self, key: str, /, **params: object) -> str | None:
        """``t`` for a key that may not be in this catalog (command descriptions)."""
        return self.t(key, **params) if key in self._keys else None


def choose(*, user: str | None = None, locale: str | None = None, server: str | None = None) -> str:
    """The language of a private reply: the user's own choice (``/language``), else their
    Discord locale where we have it, else the server's language (``/referee settings``), else
    English. Public messages and board images use ``server`` alone."""
    for code in (user, locale):
        try:
            if code:
                return language(code)
        except UnknownLanguage:
            continue
    try:
        return language(server)
    except UnknownLanguage:
        return DEFAULT


@cache
def words(lang: str | None = None, domain: str = "messages") -> Words:
    """The messages of one language (``en``, ``hu``, ``eo``, ``is``), read once and kept."""
    return Words(language(lang), domain)


__all__ = [
    "COMMAND_LANGUAGES",
    "DEFAULT",
    "LANGUAGES",
    "NAMES",
    "UnknownLanguage",
    "Words",
    "choose",
    "fill",
    "language",
    "placeholders",
    "read_catalog",
    "words",
]
