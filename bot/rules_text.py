"""The short rules summaries that ``/rules`` and the console's ``rules`` show, in one place:
the ``rules.<game>`` messages of the catalogs, one per language (translations/locales).

The texts use Discord's Markdown (``**bold**``, `` `code` ``, ``[text](link)``); ``plain``
turns them into terminal text. Each sentence is checked against the engine or the referee in
tests/bot/test_rules_text.py: change a sentence there too.
"""

from __future__ import annotations

import re

from translations import words

ATMALOF_LICENCE = "https://creativecommons.org/licenses/by-sa/3.0/"

GAMES = ("atmalof", "morris", "abalone")


def rules(lang: str = "en") -> dict[str, tuple[str, str]]:
    """Each game's (title, summary) in one language, from the catalogs (translations/locales)."""
    w = words(lang)
    return {game: (w.t(f"game.{game}"), w.t(f"rules.{game}")) for game in GAMES}


RULES: dict[str, tuple[str, str]] = rules("en")

_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_SLASH_COMMAND = re.compile(r"`(/[^`]+)`")
# The summaries' slash commands typed at the console where dropping the "/" is not enough:
# the console has no Discord options, and its moderator speaks as ``referee:``.
_AT_THE_CONSOLE = {
    "/move d7 d6 remove:b6": "move d7 d6 x b6",
    "/referee settings": "referee: settings",
}


def plain(text: str) -> str:
    """A summary for a terminal: no bold marks, no code ticks, a link as "text (address)"."""
    return _LINK.sub(r"\1 (\2)", text).replace("**", "").replace("`", "")


def console(text: str) -> str:
    """A summary for the console table: plain text, each slash command as it is typed there."""

    def typed(command: re.Match[str]) -> str:
        slash = command.group(1)
        return _AT_THE_CONSOLE.get(slash, slash.removeprefix("/"))

    return plain(_SLASH_COMMAND.sub(typed, text))
