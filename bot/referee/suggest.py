"""What a command that cannot be read most likely meant ("did you mean `move`?"), as data in
its refusal: a typo of a known word, or the one legal command a game's verb in front makes of
it ("d7" while placing: "place d7"). Only a clear guess is offered; none is better than two."""

from __future__ import annotations

import difflib
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


async def did_you_mean(ctx: Context, where: Where, text: str, known: Iterable[str]) -> str | None:
    """What ``text``, whose first word no game knows, most likely meant: the word of
    ``known`` its first word is a typo of ("mvoe": "move"), else the one command it makes in
    the game here with a verb in front ("3,4 4,5": "move 3,4 4,5"); None if unclear."""
    words = str(text)[:MAX_COMMAND_LENGTH].split()
    near = close_word(words[0], known) if words else None
    g = await ctx.store.active_game(where.channel_id)
    if near is not None or g is None or g.pending is not None:
        return near
    try:
        state = await ctx.state(g)
    except BrokenGame:
        return None
    return reading(g.game, state, " ".join(words))


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
    if exc.code == "unknown_command":
        near = reading(g.game, state, text)
        if near is not None:
            said = {"word": typed(first_word(text), MAX_WORD), "near": near}
            return Refusal("did_you_mean", said, game_id=g.id, version=g.version)
        reason["commands"] = list(GAME_VERBS[g.game])
    return Refusal("engine", reason, game_id=g.id, version=g.version)
