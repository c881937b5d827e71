"""Which typed words are moves: the first word of a command as the games read it, and whether
any game knows it (so an unknown word is told apart from a move with bad arguments); each
game's verbs; the word a suggestion that only explains carries."""

from __future__ import annotations

import functools
from typing import Any

import engine
from bot.errors import Refusal
from engine import EngineError, ParseError

GAME_VERBS: dict[str, tuple[str, ...]] = {
    "atmalof": ("drop", "move"),
    "morris": ("place", "move", "fly", "remove"),
    "abalone": ("push",),
}
"""The words each game's commands start with (its aliases aside): what a refusal names as the
game's commands, and what a close typo or a bare argument ("d7") is read against."""
VERBS = tuple(dict.fromkeys(v for verbs in GAME_VERBS.values() for v in verbs))

HINT_WORD = "?"
"""The value of a suggestion that only says why there is nothing to suggest (no game here,
another player's turn): a command holding it is answered with that reason (who is to move),
never with its words' syntax, and can never be a move."""


@functools.cache
def _fresh(name: str) -> Any:
    """A game's opening position, to ask its parser about a word."""
    return engine.get_game(name).new()


@functools.lru_cache(maxsize=1024)
def is_move_word(word: str) -> bool:
    """Whether some game has a command that starts with ``word`` ("drop", "place", "push",
    "c3"): only a word no game knows (each parser's ``unknown_command`` code) is an unknown
    command; a move word with bad arguments keeps its game's syntax hint."""
    for name in engine.GAME_NAMES:
        try:
            engine.get_game(name).parse(_fresh(name), word)
        except ParseError as exc:
            if exc.code == "unknown_command":
                continue
        except EngineError:
            pass
        return True
    return False


def first_word(text: str) -> str:
    """The first word of a command as the games read it (lower case), "" for none."""
    words = str(text).lower().split()
    return words[0] if words else ""


def asks_why(text: str) -> bool:
    """Whether a command holds ``HINT_WORD`` as a word: a suggestion that says why there is
    nothing to suggest was picked."""
    return HINT_WORD in str(text).split()


def nothing_to(notations: list[str], verb: str, game_id: int | None = None) -> Refusal | None:
    """Why a Morris command (``verb``) has nothing to offer though its player is to move, from
    the legal actions' ``notations``: moving while men are still to place (``place_first``),
    removing with no mill just closed (``no_mill_to_finish``); None when it has something, or
    for a reason of no such kind. An empty list would tell a newcomer nothing."""
    verbs = {first_word(n) for n in notations}
    if verb in ("move", "fly") and not verbs & {"move", "fly"} and "place" in verbs:
        return Refusal("place_first", game_id=game_id)
    if verb == "remove" and "remove" not in verbs and verbs & {"place", "move", "fly"}:
        return Refusal("no_mill_to_finish", game_id=game_id)
    return None


def removal_first(
    exc: EngineError, rules: Any, state: Any, side: Any, game_id: int, version: int
) -> Refusal | None:
    """A move refused because its player closed a mill and has not removed yet
    (``removal_pending``, by the engine's code), said to that player: whose men (``side``) may
    go, which (the legal removals' points), and, in each front end's words, its command; None
    for any other reason (then the legal actions are never listed: every refusal came here)."""
    if exc.code != "removal_pending":
        return None
    notations = [str(rules.notation(state, a)) for a in rules.legal(state)]
    points = ", ".join(n.split()[-1] for n in notations if first_word(n) == "remove")
    params = {"side": side, "points": points}
    return Refusal("removal_first", params, game_id=game_id, version=version)
