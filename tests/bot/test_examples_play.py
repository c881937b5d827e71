"""Every example command shown to a player can be played: a newcomer who types one is never told
it is illegal.

Where the examples live: every message of every catalog in every language (the rules, the help,
the greetings, the refusals' "e.g. ...", the slash commands' descriptions), every rules summary
as ``/rules`` and the console say it (each variant they describe, in each language), and the
English strings of the code (bot/ and engine/, docstrings left out: they speak to programmers).

How each is checked, and what that proves:

- Abalone ``push ...`` and Atmalof ``drop ...`` and Morris ``place <point>``: legal in the start
  position of the game (of the variant whose rules show it; the standard game elsewhere).
- Atmalof ``move r,c r,c``: legal after one drop each from the start, Red's landing on the
  square it moves from (the rolls chosen): a game reaches it on its first turns.
- Morris ``move``/``fly`` (with ``x``/``remove:`` after a mill) and ``remove``: they cannot be
  played at the start, so each is checked in a position built for it: the mover's man on its
  point, the two men a mill needs beside the target, the opponent's man on the point removed,
  a few more men elsewhere (four or more for a ``move``: a real step; three for a ``fly``).
  Such a position proves the command can be legal, not that a game reaches it; a command no such
  position makes legal (the old ``move d7 d6 x b6``: the only mill through d6 that d7 leaves is
  b6-d6-f6, so b6 is the mover's own) fails.

A command-like text the patterns below cannot read fails too, so a new example in another shape
is not skipped in silence.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine
from bot.rules_text import DESCRIBED, console, example_variants, summary
from engine.atmalof.config import DIRECTIONS as ATMALOF_DIRECTIONS
from engine.core import EngineError
from engine.morris import MorrisState, layout
from engine.morris.rules import Move, Place
from tests.engine.test_morris import pos as morris_position
from translations import COMMAND_LANGUAGES, LANGUAGES, read_catalog

ROOT = Path(__file__).resolve().parents[2]
ATMALOF = engine.get_game("atmalof")
MORRIS = engine.get_game("morris")
ABALONE = engine.get_game("abalone")

POINT = r"[a-g][1-7]"
COMMANDS = {
    "atmalof": re.compile(
        r"drop (?:row|col|column) \d+|move \d+,\d+ (?:\d+,\d+|ne|nw|se|sw|n|e|s|w)"
    ),
    "morris": re.compile(
        rf"(?:place {POINT}|(?:move|fly) {POINT} {POINT})(?: (?:x |remove:){POINT})?"
        rf"|remove {POINT}"
    ),
    "abalone": re.compile(r"push [a-i][1-9](?: [a-i][1-9])? (?:ne|nw|se|sw|e|w)"),
}
"""The shapes of the examples, per game: a match must end the command (no letter after it)."""
LOOKS_LIKE_A_COMMAND = re.compile(
    r"(?<![\w-])(?:drop (?:row|col|column) \d|(?:move|fly) \d"
    r"|(?:place|remove|move|fly|push) [a-z]\d)"
)
"""A command word followed by what starts a square: an example, in whatever shape."""


def catalog_texts() -> Iterator[tuple[str, str, str]]:
    """(where, standard variant, text) for every message of every catalog."""
    for domain, languages in (("messages", LANGUAGES), ("commands", COMMAND_LANGUAGES)):
        for lang in languages:
            for message in read_catalog(lang, domain):
                if not message.id:
                    continue
                forms = message.string if message.pluralizable else (message.string,)
                key = message.id[0] if message.pluralizable else message.id
                for text in forms:
                    yield f"{lang} {domain}.po {key}", "standard", text


def summary_texts() -> Iterator[tuple[str, str, str]]:
    """(where, variant, text) for every rules summary, as Discord and as the console say it:
    Abalone's for each layout, whose examples are checked where that layout starts."""
    for game in DESCRIBED:
        for variant in example_variants(game):
            for lang in LANGUAGES:
                _, text = summary(game, lang, variant)
                yield f"{lang} rules of {game} {variant}", variant, text
                yield f"{lang} rules of {game} {variant} (console)", variant, console(text)


def code_texts() -> Iterator[tuple[str, str, str]]:
    """(where, standard variant, text) for every string of the code but its docstrings (and the
    other bare strings that document a name): the usage lines, the slash commands' English."""
    for package in ("bot", "engine"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docs = {
                id(node.value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            }
            for node in ast.walk(tree):
                text = node.value if isinstance(node, ast.Constant) else None
                if isinstance(text, str) and id(node) not in docs:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", "standard", text


Example = tuple[str, str, str, str]
"""(where, game, variant, command)."""


def examples(texts: Iterator[tuple[str, str, str]]) -> tuple[list[Example], list[str]]:
    """Each example in ``texts``, and each command-like text no shape reads (where: what)."""
    found: list[Example] = []
    unread: list[str] = []
    for where, variant, text in texts:
        spans: list[tuple[int, int]] = []
        for game, shape in COMMANDS.items():
            for hit in re.finditer(rf"(?<![\w-])(?:{shape.pattern})(?![\w]|,\d)", text):
                spans.append(hit.span())
                found.append((where, game, variant, hit.group()))
        for hit in LOOKS_LIKE_A_COMMAND.finditer(text):
            if not any(start <= hit.start() < end for start, end in spans):
                unread.append(f"{where}: {text[hit.start() :][:40]!r}")
    return found, unread


def legal_at_start(game: str, variant: str, command: str) -> None:
    rules = engine.get_game(game)
    start = rules.new(variant if variant in rules.variants else "standard")
    assert rules.parse(start, command) in rules.legal(start), command


def atmalof_move_after_one_drop_each(variant: str, command: str) -> None:
    """Red's drop lands on the square the move starts from, Blue's out of its way, then the
    move."""
    state = ATMALOF.new(variant if variant in ATMALOF.variants else "standard")
    config = state.config
    origin, to = command.split()[1:]
    r, c = map(int, origin.split(","))
    if "," in to:
        target = tuple(map(int, to.split(",")))
    else:
        dr, dc = ATMALOF_DIRECTIONS[to]
        target = (r + dr, c + dc)
    if c <= config.row_faces:
        state = ATMALOF.apply(state, ATMALOF.parse(state, f"drop row {r}"), c)
    else:
        assert r <= config.col_faces, f"{command}: no drop lands on {origin}"
        state = ATMALOF.apply(state, ATMALOF.parse(state, f"drop col {c}"), r)
    row, roll = next(
        (k, d)
        for k in range(config.rows, 0, -1)
        for d in range(1, config.row_faces + 1)
        if (k, d) not in ((r, c), target)
    )
    state = ATMALOF.apply(state, ATMALOF.parse(state, f"drop row {row}"), roll)
    assert state.at((r, c)) == 0 and state.to_move == 0
    assert ATMALOF.parse(state, command) in ATMALOF.legal(state), command


def morris_positions(variant: str, command: str) -> Iterator[MorrisState]:
    """Positions built for a Morris ``move``/``fly`` (or ``place``) with a removal, or a
    ``remove``: one per mill that could be the one just closed (see the module's docstring)."""
    board = layout(variant)
    mills = [{board.points[p] for p in mill} for mill in board.mills]
    words = command.replace("remove:", "x ").split()
    verb, removed, source, target = words[0], None, None, None
    if verb == "remove":
        removed = words[1]
        closing = [m for m in mills if removed not in m]  # the mill White has just made
    else:
        if "x" in words:
            removed = words[words.index("x") + 1]
            words = words[: words.index("x")]
        *froms, target = words[1:]
        source = froms[0] if froms else None
        closing = [m for m in mills if target in m and source not in m and removed not in m]
        closing = closing if removed else [set()]
    for mill in closing:
        white = mill if verb == "remove" else (mill - {target}) | ({source} if source else set())
        black = {removed} if removed else set()
        if white & black or target in white | black:
            continue
        if verb == "fly" and len(white) > 3:
            continue
        men = 3 if verb in ("fly", "remove") else 4
        white = _spread(board.points, white, black | {target}, men, mills)
        black = _spread(board.points, black, white | {target}, 4, mills)
        yield morris_position(
            " ".join(sorted(white)),
            " ".join(sorted(black)),
            hand=(2, 2) if verb == "place" else (0, 0),
            variant=variant,
            pending=verb == "remove",
        )


def _spread(
    points: tuple[str, ...],
    men: set[str],
    taken: set[str | None],
    count: int,
    mills: list[set[str]],
) -> set[str]:
    """``men`` and more points, up to ``count`` in all, none of them closing a mill."""
    out = set(men)
    for point in points:
        if len(out) >= count:
            break
        closes = any(point in m and len(m & out) == 2 for m in mills)
        if point not in out and point not in taken and not closes:
            out.add(point)
    return out


def morris_legal_somewhere(variant: str, command: str) -> None:
    if command.startswith("place") and " x " not in command and "remove:" not in command:
        legal_at_start("morris", variant, command)
        return
    tried = []
    for state in morris_positions(variant, command):
        try:
            action = MORRIS.parse(state, command)
        except EngineError as exc:
            tried.append(f"{MORRIS.to_text(state)}: {exc}")
            continue
        # A removal joined to its move is one action; legal() lists the move alone, then asks
        # for the removal: applied, the joined action has taken the opponent's man.
        if _without_removal(action) in MORRIS.legal(state):
            after = MORRIS.apply(state, action)
            removal = getattr(action, "remove", None)
            assert removal is None or after.men[1] == state.men[1] & ~(1 << removal), command
            return
        tried.append(f"{MORRIS.to_text(state)}: parsed as {action}, not legal")
    raise AssertionError(f"{command!r} is legal in no position built for it: {tried}")


def _without_removal(action: object) -> object:
    if isinstance(action, Place):
        return Place(action.point)
    if isinstance(action, Move):
        return Move(action.src, action.dst)
    return action


def check(game: str, variant: str, command: str) -> None:
    if game == "abalone" or command.startswith("drop"):
        legal_at_start(game, variant, command)
    elif game == "atmalof":
        atmalof_move_after_one_drop_each(variant, command)
    else:
        morris_legal_somewhere(variant if variant in MORRIS.variants else "standard", command)


SOURCES = {"catalogs": catalog_texts, "summaries": summary_texts, "code": code_texts}
SHOWN = {name: examples(texts()) for name, texts in SOURCES.items()}
"""Per source: the examples found, and the command-like texts no shape reads."""


@pytest.mark.parametrize("source", sorted(SHOWN))
def test_every_example_shown_to_a_player_is_legal(source: str) -> None:
    shown, unread = SHOWN[source]
    assert unread == [], "examples the test cannot read: add their shape to COMMANDS"
    failures = []
    for where, game, variant, command in shown:
        try:
            check(game, variant, command)
        except (AssertionError, EngineError) as exc:
            failures.append(f"{where}: {command!r}: {exc}")
    assert failures == []


def test_the_search_finds_the_examples_of_every_game_in_every_language() -> None:
    """The patterns are not silently finding nothing: each language's help and rules show an
    example of each game, and the engine's own usage line is read."""
    for lang in LANGUAGES:
        help_games = {
            g for w, g, _, _ in SHOWN["catalogs"][0] if w == f"{lang} messages.po help.console"
        }
        assert help_games == {"atmalof", "morris", "abalone"}, lang
        for game in ("atmalof", "morris", "abalone"):
            rules = [
                c for w, g, _, c in SHOWN["summaries"][0] if w.startswith(f"{lang} rules of {game}")
            ]
            assert rules, (lang, game)
    assert ("engine/abalone/notation.py", "push a1 c3 ne") in {
        (w.split(":")[0], c) for w, _, _, c in SHOWN["code"][0]
    }
    morris = {c for w, _, _, c in SHOWN["summaries"][0] if w == "en rules of morris six"}
    assert morris == {"place d7", "move d7 d6", "remove b6", "move d6 d7 remove:b6"}


@pytest.mark.parametrize(
    ("layout", "shown"),
    [
        ("standard", {"push a1 c3 ne", "push c3 c5 nw", "push c5 e"}),
        ("belgian-daisy", {"push a1 c3 ne", "push c2 c3 nw", "push c3 e"}),
        ("german-daisy", {"push b1 d3 ne", "push d2 d3 nw", "push d3 e"}),
    ],
)
def test_abalone_rules_show_examples_of_the_layout_being_played(
    layout: str, shown: set[str]
) -> None:
    """/rules in a daisy game showed the standard's ``push a1 c3 ne`` ("there is no marble on
    a1" in a German daisy): each layout's summary, in every language, shows its own, and the
    sweep above finds them legal in that layout's start (a standard one would fail there)."""
    for lang in LANGUAGES:
        where = f"{lang} rules of abalone {layout}"
        assert {c for w, _, _, c in SHOWN["summaries"][0] if w == where} == shown, lang
    start = ABALONE.new("german-daisy")
    with pytest.raises(EngineError, match="no marble on a1"):
        ABALONE.parse(start, "push a1 c3 ne")


@pytest.mark.parametrize(
    ("game", "command"),
    [
        ("abalone", "push a1 a3 ne"),  # the old example: b2 is Black's own, in the way
        ("morris", "move d7 d6 x b6"),  # the old example: b6 would be the mover's own
        ("atmalof", "move 7,7 6,6"),  # no drop lands on (7,7)
    ],
)
def test_the_check_refuses_an_example_no_game_allows(game: str, command: str) -> None:
    """The checks are not lenient: the examples a newcomer was refused fail them."""
    with pytest.raises((AssertionError, EngineError)):
        check(game, "standard", command)
