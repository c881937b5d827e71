"""The short rules summaries that ``/rules`` and the console's ``rules`` show, in one place:
the ``rules.<game>`` messages of the catalogs, one per language (translations/locales).

A summary is said for one variant: Six Men's Morris is described as itself (16 points, six
men), not as Nine Men's Morris followed by "this is its six variant". The variant's numbers
come from the engine, and the sentences that differ between variants are messages of their
own (``rules.morris.board_six``). Atmalof's custom board and Abalone's other layouts are the
standard summary: the referee adds how the game being played differs (its options, its dice).
Abalone's "From the start" examples are the one exception: they are picked from the engine's
legal moves where the layout being played starts, since ``/push a1 c3 ne`` is illegal in a
German daisy (no marble on a1).

The texts use Discord's Markdown (``**bold**``, `` `code` ``, ``[text](link)``); ``plain``
turns them into terminal text. Each sentence is checked against the engine or the referee in
tests/bot/test_rules_text.py, and each example command in tests/bot/test_examples_play.py:
change a sentence there too.
"""

from __future__ import annotations

import re
from typing import Any

import engine
from engine.abalone import AbaloneState, Push, moved_marbles
from engine.morris import layout
from translations import Words, words
from translations.titles import game_title, variant_name

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
    rules_of = engine.get_game(game)
    played = variant
    if not describes(game, variant):
        variant = "standard"
    w = words(lang)
    state = rules_of.new(variant)
    if game in _EXAMPLES_WHERE_PLAYED and played in rules_of.variants:
        state = rules_of.new(played)  # the summary is the standard's, its examples the layout's
    params = _PARAMS[game](w, state) if game in _PARAMS else {}
    return title(game, variant, w), w.t(f"rules.{game}", **params)


def example_variants(game: str) -> tuple[str, ...]:
    """The variants whose summaries show examples of their own: those ``summary`` describes,
    and Abalone's layouts (the standard summary, with examples legal in that layout)."""
    if game in _EXAMPLES_WHERE_PLAYED:
        return tuple(engine.get_game(game).variants)
    return DESCRIBED.get(game, ())


def title(game: str, variant: str, w: Words) -> str:
    """ "Nine Men's Morris", "Six Men's Morris": a described variant's own name (the one
    title every reply gives it, translations.titles)."""
    return game_title(w, game, variant)


def _variants(w: Words, game: str) -> dict[str, str]:
    """Each variant but the standard as the summary lists it: its name in the reader's
    language and the id to type ("Junior Atmalof (`junior`)"), keyed by the id with "_" for
    "-" (``{belgian_daisy}``). The ids alone read as English words on a Hungarian server."""
    return {
        variant.replace("-", "_"): f"{variant_name(w, game, variant)} (`{variant}`)"
        for variant in engine.get_game(game).variants
        if variant != "standard"
    }


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
        **_variants(w, "atmalof"),
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
        "letters": _runs(layout(state).letters),
    }


def _runs(letters: tuple[str, ...]) -> str:
    """The letters the engine takes for a board's points, in runs: "A–X" (24 points), "A–F,
    J, K, N, O, S–X" (the 16-point board keeps the letters of the points it has)."""
    runs: list[list[str]] = []
    for letter in letters:
        if runs and ord(letter) == ord(runs[-1][-1]) + 1:
            runs[-1].append(letter)
        else:
            runs.append([letter])
    said = [f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(r) for r in runs]
    return ", ".join(said)


def _abalone(w: Words, state: AbaloneState) -> dict[str, object]:
    """The examples, legal in this layout's start: three marbles along their line, the longest
    line sideways towards the opponent, beside those three (the last the engine lists: the
    standard's ``c3 c5 nw``), and that line's last marble alone, sideways (``c5 e``)."""
    game = engine.get_game("abalone")
    moves = game.legal(state)
    inline = next(m for m in moves if len(m.cells) == 3 and _along_the_line(state, m))
    sideways = [m for m in moves if len(m.cells) > 1 and not _along_the_line(state, m)]
    broadside = max(
        reversed(sideways),
        key=lambda m: (len(m.cells), m.direction in _AHEAD, bool(set(m.cells) & set(inline.cells))),
    )
    ones = [m for m in moves if m.cells == (broadside.last,)]
    single = next((m for m in ones if m.direction in ("e", "w")), ones[0] if ones else None)
    single = single or next(m for m in moves if len(m.cells) == 1)
    first, middle, last = sorted(inline.cells)
    return {
        "inline": game.notation(state, inline),
        "in1": first,
        "in2": middle,
        "in3": last,
        "broadside": game.notation(state, broadside),
        "side_first": broadside.first,
        "side_last": broadside.last,
        "single": game.notation(state, single),
        **_variants(w, "abalone"),
    }


_AHEAD = ("ne", "nw")
"""Black's directions towards White: Black moves first, from row A at the bottom."""


def _along_the_line(state: AbaloneState, push: Push) -> bool:
    """An in-line move: a marble moves onto a cell of its own line (a broadside's do not)."""
    moved = moved_marbles(state, push)
    return len(push.cells) == 1 or any(to in push.cells for _, to in moved)


_PARAMS: dict[str, Any] = {"atmalof": _atmalof, "morris": _morris, "abalone": _abalone}
_EXAMPLES_WHERE_PLAYED = ("abalone",)

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
