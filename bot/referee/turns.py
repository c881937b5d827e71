"""The turns players number: the log's rows, with a Morris removal joined to the move whose
mill earned it, however the two were typed. "place d6" then "remove f2" (two rows) reads as
the one row "place d6 x f2", as the joined command is logged, so /history numbers a mill
alike either way, and as the board's "Move N" and the replay's frames count it
(``Game.turns``). The log, the records and the moderators' tools keep every action apart."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import engine
from bot.game_names import game_title
from bot.i18n import Msg, msg, plain
from bot.texts import rolls_dice, seat_msg
from engine import Effect, EngineError
from engine.record import stored_options


@dataclass(frozen=True, slots=True)
class Turn:
    """One numbered row of the history: ``action`` is the turn's notation (a mill and its
    removal joined), ``at`` the time its last action was logged, ``effect`` what its first
    action did (None past a row that no longer replays), ``actions`` how many log rows it
    holds."""

    number: int
    side: int
    action: str
    roll: int | None
    at: str
    effect: Effect | None = None
    actions: int = 1


def turns_of(g: Any, rows: Sequence[Any]) -> list[Turn]:
    """The game's log rows as turns, replayed from the start: a row the previous one owes
    (``pending_removal``: only a removal is legal) joins it. A log that stops replaying (a
    damaged row) is listed on from there a row to a turn, as stored."""
    rules = engine.get_game(g.game)
    try:
        state: Any = rules.new(g.variant, **stored_options(g.game, json.loads(g.options)))
    except (EngineError, ValueError):
        state = None
    start = state  # the position the last turn started from
    out: list[Turn] = []
    for row in rows:
        after, effect = _step(rules, state, row)
        owed = after is not None and rules.pending_removal(state)
        if owed and out and out[-1].side == row.side:
            words = f"{out[-1].action} {row.action}"  # as a player may type the turn at once
            out[-1] = replace(out[-1], action=_joined(rules, start, words), at=row.at, actions=2)
        else:
            start = state
            out.append(Turn(len(out) + 1, row.side, row.action, row.roll, row.at, effect))
        state = after
    return out


def _step(rules: Any, state: Any, row: Any) -> tuple[Any, Effect | None]:
    """(the position after ``row``, what it did); (None, None) once the log no longer
    replays."""
    if state is None:
        return None, None
    try:
        action = rules.parse(state, row.action)
        after = rules.apply(state, action, row.roll, checked=True)
        return after, rules.effect(state, action, row.roll, after)
    except EngineError:
        return None, None


def _joined(rules: Any, start: Any, words: str) -> str:
    """The turn's canonical notation ("place d6 x f2") from its two actions' words, read by
    the engine as the joined command they make; the words themselves if it refuses them."""
    try:
        return str(rules.notation(start, rules.parse(start, words)))
    except EngineError:
        return words


def rolls_said(game: str, state: Any, rows: Sequence[Any]) -> list[Msg]:
    """``rows`` as a moderator's rewind and restore name them, from ``state`` (the position
    before the first): the notation, and for an action with a die its roll and where the piece
    landed or that the square was taken (the notation alone hid what the die decided)."""
    rules = engine.get_game(game)
    out: list[Msg] = []
    for row in rows:
        state, effect = _step(rules, state, row)
        square = effect.landing if effect is not None else None
        if row.roll is None or square is None:
            out.append(plain(row.action))  # no die, or a row that no longer replays
            continue
        key = "action.rolled_lost" if effect is not None and effect.lost_turn else "action.rolled"
        out.append(msg(key, action=row.action, roll=row.roll, square=f"({square[0]},{square[1]})"))
    return out


def disputed(g: Any, rows: Sequence[Any]) -> Msg:
    """What a dispute is about, in words a moderator can act on: the game, its players and its
    last action (the number ``/referee rewind`` takes, who made it, and for a drop the
    announcement with its roll and landing square, as ``rolls_said``); a thread that opened
    with the reason alone named no roll."""
    said = {"id": g.id, "game": game_title(g.game, g.variant), "first": seat_msg(g, 0)}
    said["second"] = seat_msg(g, 1)
    if not rows:
        return msg("dispute.about_start", **said)
    rules = engine.get_game(g.game)
    try:
        state: Any = rules.new(g.variant, **stored_options(g.game, json.loads(g.options)))
    except (EngineError, ValueError):
        state = None
    for row in rows[:-1]:
        state, _effect = _step(rules, state, row)
    (action,) = rolls_said(g.game, state, rows[-1:])  # a row that no longer replays: as stored
    last = {"seq": rows[-1].seq, "player": seat_msg(g, rows[-1].side), "action": action}
    return msg("dispute.about", **said, **last)


def dice_proof(g: Any) -> list[Msg]:
    """A dispute's dice evidence, the commitment, said as what the secret seed will prove:
    every roll, or the coin toss alone; nothing for a game that rolls nothing (a Morris or
    Abalone game with a chosen starter), whose start showed no commitment either."""
    rules = engine.get_game(g.game)
    start = rules.new(g.variant, **stored_options(g.game, json.loads(g.options)))
    if g.rolls or rolls_dice(g.game, start):
        return [msg("dispute.dice", commitment=g.commitment)]
    if g.toss is not None:
        return [msg("dispute.dice_toss", commitment=g.commitment)]
    return []


def one_after_another(said: Sequence[Msg]) -> Msg:
    """Several actions in one sentence, "a; b; c" (``turns.then``: a takeback's undone moves, a
    restore's): a rolled action's own commas ("drop row 1, rolled 4: ...") would run into a
    list's."""
    out = said[0]
    for this in said[1:]:
        out = Msg("turns.then", {"first": out, "second": this})
    return out
