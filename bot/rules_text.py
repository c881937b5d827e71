"""The short rules summaries that ``/rules`` and the console's ``rules`` show, in one place:
the ``rules.<game>`` messages of the catalogs, one per language (translations/locales).

A summary is said for one variant: Six Men's Morris is described as itself (16 points, six
men), not as Nine Men's Morris followed by "this is its six variant". The variant's numbers
come from the engine, and the sentences that differ between variants are messages of their
own (``rules.morris.board_six``). Atmalof's custom board and Abalone's other layouts are the
standard summary: the referee adds how the game being played differs (its options, its dice).

The texts use Discord's Markdown (``**bold**``, `` `code` ``, ``[text](link)``); ``plain``
turns them into terminal text. Each sentence is checked against the engine or the referee in
tests/bot/test_rules_text.py, and each example command in tests/bot/test_examples_play.py:
change a sentence there too.
"""

from __future__ import annotations

import re
from typing import Any

import engine
from translations import Words, words
from translations.titles import game_title

ATMALOF_LICENCE = "https://creativecommons.org/licenses/by-sa/3.0/"

GAMES = ("atmalof", "morris", "abalone")

DESCRIBED: dict[str, tuple[str, ...]] = {
    "atmalof": ("standard", "junior", "atmalos"),
    "morris": ("standard", "six", "twelve"),
    "abalone": ("standard",),
}
"""The variants whose own summary ``summary`` says; any other is said as its game's standard."""


def rules(lang: str = "en") -> dict[str, tuple[str, str]]:
    """Each game's (title, summary) of its standard game in one language."""
    return {game: summary(game, lang) for game in GAMES}


def describes(game: str, variant: str) -> bool:
    """Whether ``summary`` says this variant's own rules (else it says the standard game's)."""
    return variant in DESCRIBED.get(game, ())


def summary(game: str, lang: str = "en", variant: str = "standard") -> tuple[str, str]:
    """(title, text): the rules of ``game`` as played in ``variant``, in ``lang``."""
    if not describes(game, variant):
        variant = "standard"
    w = words(lang)
    state = engine.get_game(game).new(variant)
    params = _PARAMS[game](w, state) if game in _PARAMS else {}
    return title(game, variant, w), w.t(f"rules.{game}", **params)


def title(game: str, variant: str, w: Words) -> str:
    """ "Nine Men's Morris", "Six Men's Morris": a described variant's own name (the one
    title every reply gives it, translations.titles)."""
    return game_title(w, game, variant)


def _atmalof(w: Words, state: Any) -> dict[str, object]:
    """The board's numbers, and how far the die reaches: one line beyond it, or none."""
    c = state.config
    faces = c.row_faces
    if c.beyond_rows == c.beyond_cols == 0:
        reach = w.t("rules.atmalof.reach_all", faces=faces)
    else:
        reach = w.t("rules.atmalof.reach_corner", faces=faces, last=c.cols)
    return {
        "rows": c.rows,
        "cols": c.cols,
        "pieces": c.pieces,
        "reach": reach,
        "line": c.line,
        "tie": c.line - 1,
    }


def _morris(w: Words, state: Any) -> dict[str, object]:
    """The board, whether men fly by default, and the twelve's full-board draw."""
    rules = state.rules
    board = {"six": "rules.morris.board_six", "twelve": "rules.morris.board_twelve"}
    full = rules.variant == "twelve"
    return {
        "board": w.t(board.get(rules.variant, "rules.morris.board")),
        "flying": w.t("rules.morris.flying_on" if rules.flying else "rules.morris.flying_off"),
        "draws": w.t("rules.morris.draws_full" if full else "rules.morris.draws"),
    }


_PARAMS = {"atmalof": _atmalof, "morris": _morris}

RULES: dict[str, tuple[str, str]] = rules("en")

_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_SLASH_COMMAND = re.compile(r"`(/[^`]+)`")
_OPTION = re.compile(r" remove:(\S+)")
# The summaries' slash commands typed at the console where dropping the "/" is not enough:
# the console has no Discord options (``/move d6 d7 remove:b6`` is ``move d6 d7 x b6``), and
# its moderator speaks as ``referee:``.
_AT_THE_CONSOLE = {"/referee settings": "referee: settings"}


def plain(text: str) -> str:
    """A summary for a terminal: no bold marks, no code ticks, a link as "text (address)"."""
    return _LINK.sub(r"\1 (\2)", text).replace("**", "").replace("`", "")


def console(text: str) -> str:
    """A summary for the console table: plain text, each slash command as it is typed there."""

    def typed(command: re.Match[str]) -> str:
        slash = command.group(1)
        slash = _AT_THE_CONSOLE.get(slash, slash)
        return _OPTION.sub(r" x \1", slash.removeprefix("/"))

    return plain(_SLASH_COMMAND.sub(typed, text))
