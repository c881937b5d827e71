"""What a command that cannot be read most likely meant ("did you mean `move`?"), as data in
its refusal: a typo of a known word, the one legal command that mending typos of a game's
keywords makes of it ("drop rwo 3": "drop row 3"), or the one legal command a game's verb in
front makes of it ("d7" while placing: "place d7"). Only a clear guess is offered; none is
better than two, and a guess is a legal action here or nothing."""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Iterable
from typing import Any

import engine
from bot.errors import BrokenGame, Refusal, engine_reason
from bot.i18n import typed
from bot.referee.context import Context
from bot.referee.move_words import GAME_VERBS, VERBS, first_word
from bot.referee.replies import Where
from bot.store import GameRow
from engine import EngineError, ParseError
from engine.core import MAX_COMMAND_LENGTH

MAX_WORD = 24  # an unknown word is echoed at most this long
CLOSE = 0.75  # how alike a typo and a word must be (difflib's ratio) to be suggested
MARGIN = 0.05  # ... and by how much more than any other word: else the typo is ambiguous

_ATMALOF_WAYS = ("n", "e", "s", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west")
_ABALONE_WAYS = ("ne", "e", "se", "sw", "w", "nw", "east", "west")
_LONG_WAYS = ("northeast", "northwest", "southeast", "southwest")
KEYWORDS: dict[str, frozenset[str]] = {
    "atmalof": frozenset(("drop", "move", "row", "col", "column", *_ATMALOF_WAYS, *_LONG_WAYS)),
    "morris": frozenset(("place", "move", "fly", "remove", "take", "jump", "x")),
    "abalone": frozenset(("push", "move", *_ABALONE_WAYS, *_LONG_WAYS)),
}
"""The words of each game's commands that are neither points nor numbers (its engine's grammar:
verbs and their aliases, Atmalof's row/col, the directions): what a typo is mended against."""
PHRASED = frozenset(("draw", "takeback", "rematch"))
"""Commands people wrap in a verb of their own ("offer draw", "request takeback", "ask for a
rematch"): the command word alone is what they meant."""
MAX_FIXES = 2  # a command with more typos than this is not guessed at
MAX_READINGS = 256  # the spellings tried for one command, at most


def close_word(word: str, known: Iterable[str]) -> str | None:
    """The one word of ``known`` that ``word`` is a typo of ("mvoe" -> "move"), or None when
    none is close or two are about as close ("mov": "move" beats "moves" clearly enough)."""
    said = str(word).lower()[:40]
    ranked = sorted(
        ((difflib.SequenceMatcher(None, said, k).ratio(), k) for k in set(known)),
        reverse=True,
    )
    if not ranked or ranked[0][0] < CLOSE:
        return None
    if len(ranked) > 1 and ranked[0][0] - ranked[1][0] < MARGIN:
        return None
    return ranked[0][1]


def reading(game: str, state: Any, text: str) -> str | None:
    """The one command ``text`` makes with a verb of ``game`` put in front, in its notation
    ("d7" while placing: "place d7"; "3,4 4,5": "move 3,4 4,5"), if exactly one verb makes a
    legal action here; else None (none does, or several do: no guess)."""
    rules = engine.get_game(game)
    found = set()
    for verb in GAME_VERBS.get(game, ()):
        try:
            found.add(rules.notation(state, rules.parse(state, f"{verb} {text}")))
        except EngineError:
            continue
    return found.pop() if len(found) == 1 else None


def distance(a: str, b: str) -> int:
    """The edits between ``a`` and ``b``: a letter inserted, deleted, changed, or two
    neighbours swapped ("rwo" and "row" are one apart; difflib rates them only 0.67)."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y)))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def _spellings(word: str, keywords: frozenset[str]) -> list[str]:
    """The keywords ``word`` may be a typo of: one edit away (two from five letters on).
    A keyword, a number, a point ("d7", "3,4") or a single letter (a Morris point "b") is
    left as typed."""
    if word in keywords or len(word) < 2 or not word.isalpha():
        return []
    limit = 1 if len(word) < 5 else 2
    return sorted(k for k in keywords if distance(word, k) <= limit)


def corrected(game: str, state: Any, text: str) -> str | None:
    """The one legal command, in notation, that mending the fewest typos of ``game``'s
    keywords makes of ``text`` ("drop rwo 3": "drop row 3"; "remvoe b6": "remove b6"), or
    None: nothing to mend, nothing legal, or two different commands as near ("drop cow 3"
    may be a row or a column)."""
    rules = engine.get_game(game)
    words = str(text)[:MAX_COMMAND_LENGTH].lower().split()
    options = [[w, *_spellings(w, KEYWORDS.get(game, frozenset()))] for w in words]
    readings = 1
    for choices in options:
        readings *= len(choices)
    if readings == 1 or readings > MAX_READINGS:
        return None
    found: dict[int, set[str]] = {}
    for spelled in itertools.product(*options):
        fixes = sum(a != b for a, b in zip(spelled, words, strict=True))
        if not 0 < fixes <= MAX_FIXES:
            continue
        try:
            action = rules.parse(state, " ".join(spelled))
        except EngineError:
            continue
        found.setdefault(fixes, set()).add(rules.notation(state, action))
    if not found:
        return None
    fewest = found[min(found)]
    return next(iter(fewest)) if len(fewest) == 1 else None


def mistyped(game: str, text: str) -> str:
    """The first word of ``text`` that ``corrected`` mended: what the refusal names."""
    keywords = KEYWORDS.get(game, frozenset())
    words = str(text)[:MAX_COMMAND_LENGTH].split()
    return next((w for w in words if _spellings(w.lower(), keywords)), first_word(text))


async def did_you_mean(ctx: Context, where: Where, text: str, known: Iterable[str]) -> str | None:
    """What ``text``, whose first word no game knows, most likely meant: the word of
    ``known`` its first word is a typo of ("mvoe": "move"), a command wrapped in words of the
    player's own ("offer draw": "draw"), else the one command it makes in the game here with
    a verb in front ("3,4 4,5": "move 3,4 4,5"); None if unclear."""
    words = str(text)[:MAX_COMMAND_LENGTH].split()
    near = close_word(words[0], known) if words else None
    if near is None and 2 <= len(words) <= 3:  # "offer draw", "ask for rematch": `draw`
        wrapped = words[-1].lower()
        if wrapped in PHRASED and wrapped in set(known):
            return wrapped
    g = await ctx.store.active_game(where.channel_id)
    if g is None or g.pending is not None:
        return near
    try:
        state = await ctx.state(g)
    except BrokenGame:
        return near
    if near is None or near in VERBS:  # "dorp row 3": the whole command, not only `drop`
        whole = corrected(g.game, state, " ".join(words))
        if whole is not None:
            return whole
    return near or reading(g.game, state, " ".join(words))


async def unknown(ctx: Context, where: Where, text: str, head: str) -> Refusal:
    """The refusal of a command whose first word (``head``) no game knows: with what it most
    likely meant (``did_you_mean``, among the games' verbs) when that is clear."""
    near = await did_you_mean(ctx, where, text, VERBS)
    word = typed(head, MAX_WORD)
    if near is not None:
        return Refusal("did_you_mean", {"word": word, "near": near})
    return Refusal("unknown_command", {"word": word})


def unreadable(g: GameRow, state: Any, text: str, exc: ParseError) -> Refusal:
    """A command the game cannot read: the one command a verb in front makes of it ("d7"
    while placing: "place d7") as a suggestion, else the engine's reason; a word that is no
    command of the game comes with the game's commands (``commands``: its verbs), for a front
    end to name its own ways to give them (Discord's /place)."""
    reason = engine_reason(exc, g.game)
    mended = corrected(g.game, state, text)
    if mended is not None:  # "drop rwo 3": the typo named, the command it makes offered
        said = {"word": typed(mistyped(g.game, text), MAX_WORD), "near": mended}
        code = "did_you_mean" if exc.code == "unknown_command" else "did_you_mean_word"
        return Refusal(code, said, game_id=g.id, version=g.version)
    if exc.code == "unknown_command":
        near = reading(g.game, state, text)
        if near is not None:
            said = {"word": typed(first_word(text), MAX_WORD), "near": near}
            return Refusal("did_you_mean", said, game_id=g.id, version=g.version)
        reason["commands"] = list(GAME_VERBS[g.game])
    return Refusal("engine", reason, game_id=g.id, version=g.version)
