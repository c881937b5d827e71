"""What the practice bot plays and says, apart from when it answers (``practice``): its seat's
actor, its turn as one command, the seed and budget of its search, and its reasons for
declining a draw.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import engine
import engine.ai
from bot.clock import ClockSpec
from bot.i18n import Msg, msg
from bot.referee.play import CONFIRM_WORD
from bot.referee.replies import Actor
from bot.store import GameRow

DRAW_FROM_MOVE = {"atmalof": 8, "morris": 18, "abalone": 20}
"""The moves played (``Game.turns``: the board's count) from which the bot considers a draw:
Atmalof's games last about 25, Morris's placing takes 18, Abalone's run to a hundred or more."""


def bot_actor(g: GameRow) -> Actor:
    """The bot as the player of its seat in a practice game."""
    assert g.bot_seat is not None
    return Actor(g.players[g.bot_seat], g.names[g.bot_seat], is_bot=True)


def turn_text(rules: Any, state: Any, turn: list[Any]) -> str:
    """The bot's turn as one command: a mill and its removal joined ("place g7 remove d1", as a
    person may type it, so one reply says both), and a drop confirmed (the bot never needs
    asking whether a full line is meant)."""
    words, at = [], state
    for i, action in enumerate(turn):
        words.append(str(rules.notation(at, action)))
        if i + 1 < len(turn):
            at = rules.apply(at, action)
    if rules.die_faces(state, turn[0]) is not None:
        words.append(CONFIRM_WORD)
    return " ".join(words)


def move_seed(g: GameRow) -> int:
    """The search's seed for this game at this point: the same move after a restart."""
    return g.id * 100_003 + g.seq


def clock_budget(g: GameRow, nodes: int | None, now: float) -> tuple[int | None, float | None]:
    """The node budget and CPU bound of the bot's search in ``g`` at ``now``: ``nodes`` (the
    referee's override, or None for the level's own) and None (the level's bound) unless the
    game's clock affords less (``engine.ai.on_clock``: its remaining time and increment)."""
    if g.deadline is None or g.practice is None:  # no clock
        return nodes, None
    spec = engine.ai.level(g.practice, g.game)
    if nodes is not None:
        spec = replace(spec, nodes=nodes)
    increment = ClockSpec.parse(g.clock).increment
    timed = engine.ai.on_clock(spec, g.deadline - now, increment)
    return (nodes, None) if timed is spec else (timed.nodes, timed.seconds)


def draw_refusal(g: GameRow, state: Any) -> Msg | None:
    """The bot's sentence declining a draw offer now, with its reason (None: it accepts).
    It declines before ``DRAW_FROM_MOVE`` moves (a game that has hardly begun is played, not
    agreed) and when it stands better by ``engine.ai.standing``. That look one ply ahead
    costs milliseconds (median 2.5 ms in Abalone; docs/practice.md), so it runs here and not in
    the worker."""
    assert g.bot_seat is not None
    early = early_refusal(g, state)
    if early is not None:
        return early
    if engine.ai.standing(g.game, state, g.bot_seat) > 0:
        return msg("notice.draw_declined_ahead", actor=g.names[g.bot_seat])
    return None


def early_refusal(g: GameRow, state: Any) -> Msg | None:
    """``draw_refusal``'s answer before ``DRAW_FROM_MOVE`` (None from that move on), which
    needs no look at the position."""
    assert g.bot_seat is not None
    start = DRAW_FROM_MOVE.get(g.game, 0)
    if engine.get_game(g.game).turns(state) < start:  # "from move 19", as the board counts
        return msg("notice.draw_declined_early", actor=g.names[g.bot_seat], move=start + 1)
    return None
