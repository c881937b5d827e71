"""Text commands ("challenge bob atmalof rated clock 10+5", "accept", "draw", "drop row 4") read
into Referee calls. The console uses it; anything that is not a referee word goes to the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import texts
from bot.replies import Actor, Reply, Where, refusal

if TYPE_CHECKING:
    from bot.referee import Referee

ANYONE = ("anyone", "open", "anybody", "*")
MAX_TEXT = 300


def _value(raw: str) -> Any:
    """An option value from text: true/false, a whole number, else the text."""
    low = raw.lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    try:
        return int(raw)
    except ValueError:
        return raw


async def _challenge(
    referee: Referee, where: Where, actor: Actor, words: list[str], people: Mapping[str, Actor]
) -> Reply:
    if len(words) < 2:
        return refusal(
            "challenge whom to what? e.g. `challenge bob atmalof` or `challenge anyone morris`"
        )
    who, game, rest = words[0], words[1], words[2:]
    opponent = None
    if who.lower() not in ANYONE:
        opponent = people.get(who.lower())
        if opponent is None:
            known = ", ".join(sorted(people)) or "nobody yet"
            return refusal(f"I don't know {who!r} here (players: {known})")
    variant, rated, clock, starter = "standard", False, "none", "random"
    options: dict[str, Any] = {}
    rest, dice_words = _dice_words(rest)
    i = 0
    while i < len(rest):
        word = rest[i]
        low = word.lower()
        if "=" in word:
            key, _, raw = word.partition("=")
            options[key.replace("-", "_")] = _value(raw)
        elif low in ("rated", "casual"):
            rated = low == "rated"
        elif low == "clock" and i + 1 < len(rest):
            clock, i = rest[i + 1], i + 1
        elif low in ("first", "starter") and i + 1 < len(rest):
            starter, i = rest[i + 1].lower(), i + 1
        else:
            variant = low
        i += 1
    return await referee.challenge(
        where,
        actor,
        game,
        opponent=opponent,
        variant=variant,
        options=options,
        rated=rated,
        clock=clock,
        starter=starter,
        dice_words=dice_words,
    )


def _dice_words(words: list[str]) -> tuple[list[str], str]:
    """``... words "lucky socks"`` (or ``words lucky``): the words before it, and the dice
    words (quoted: up to the closing quote; else the one word after)."""
    low = [w.lower() for w in words]
    if "words" not in low:
        return words, ""
    at = low.index("words")
    after = words[at + 1 :]
    if not after:
        return words[:at], ""
    if not after[0].startswith('"'):
        return words[:at] + after[1:], after[0]
    for end, word in enumerate(after):
        if word.endswith('"') and (end > 0 or len(word) > 1):
            return words[:at] + after[end + 1 :], " ".join(after[: end + 1])[1:-1]
    return words[:at], " ".join(after)[1:]


async def _import(referee: Referee, where: Where, path: str) -> Reply:
    """``import <path>``: a record file from this machine (the console only)."""
    from bot.imports import MAX_IMPORT_BYTES

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        return refusal(f"cannot read {path}: {exc.strerror or exc}")
    return await referee.import_record(where, data, name=Path(path).name, gif=True)


async def dispatch(
    referee: Referee, where: Where, actor: Actor, text: str, people: Mapping[str, Actor]
) -> Reply:
    """One line of console text for ``actor``; a refusal for what cannot be read."""
    words = str(text)[:MAX_TEXT].split()
    if not words:
        return refusal("say something: try help")
    head, rest = words[0].lower(), words[1:]
    answer = rest[0].lower() if rest else ""
    if head in ("help", "?"):
        return Reply(text=texts.HELP, ephemeral=True)
    if head == "challenge":
        return await _challenge(referee, where, actor, rest, people)
    if head == "accept" and (not rest or answer == "words"):
        return await referee.accept(where, actor, dice_words=_dice_words(rest)[1])
    if head in ("decline", "withdraw", "cancel") and not rest:
        return await referee.decline(where, actor)
    if head == "accept" and answer.isdigit():
        return await referee.accept(where, actor, int(answer))
    if head == "decline" and answer.isdigit():
        return await referee.decline(where, actor, int(answer))
    if head == "resign":
        return await referee.resign(where, actor)
    if head == "draw":
        if answer in ("accept", "yes"):
            return await referee.answer_draw(where, actor, True)
        if answer in ("decline", "no"):
            return await referee.answer_draw(where, actor, False)
        return await referee.offer_draw(where, actor)
    if head == "takeback":
        if answer in ("accept", "yes"):
            return await referee.answer_takeback(where, actor, True)
        if answer in ("decline", "no", "refuse"):
            return await referee.answer_takeback(where, actor, False)
        return await referee.request_takeback(where, actor)
    if head == "abort":
        return await referee.abort(where, actor)
    if head == "claim":
        return await referee.claim(where, actor)
    if head == "dispute":
        return await referee.dispute(where, actor, " ".join(rest))
    if head == "import" and rest:
        return await _import(referee, where, " ".join(str(text).split()[1:]))
    if head == "rematch":
        return await referee.rematch(where, actor)
    if head == "board":
        return await referee.board(where)
    if head == "history":
        page = int(answer) if answer.isdigit() else 1
        return await referee.history(where, page)
    if head == "record":
        return await referee.record(where)
    if head == "verify":
        return await referee.verify(where)
    if head == "legal":
        moves = await referee.legal_for(where, actor, " ".join(rest))
        shown = ", ".join(moves) if moves else "nothing: it is not your turn, or no game"
        return Reply(text=f"Legal now: {shown}", ephemeral=True)
    if head == "ladder":
        shown = [w for w in rest if w.lower() not in ("all", "provisional")]
        wide = len(shown) < len(rest)
        return await referee.ladder(
            where, actor, shown[0] if shown else None, include_provisional=wide
        )
    if head == "stats":
        named = [people[w.lower()] for w in rest if w.lower() in people]
        games = [w for w in rest if w.lower() not in people]
        return await referee.stats(
            where,
            actor,
            named[0] if named else None,
            games[0] if games else None,
            named[1] if len(named) > 1 else None,
        )
    if head == "theme" and rest:
        return await referee.set_setting(where, actor, "theme", rest[0])
    return await referee.act(where, actor, " ".join(words))
