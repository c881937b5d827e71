"""One board a turn in a practice game on Discord.

A move that hands the turn to the practice opponent (this bot's own user) is posted at once,
without its board: the bot's answer follows as a further message of the same interaction,
with the board after both moves. Each turn posted two board pictures, the player's and the
bot's, a few seconds apart (a reviewer's finding); the console prints one text board a turn
the same way (``bot.console.format.bot_answers``).

The player's board is drawn only if it is shown (``Referee.hold_boards``: the referee leaves
it ``draw_later``, and ``Referee.draw`` draws it): that saved a picture a turn, about 1.3-1.9
ms of CPU, which nobody saw when the answer came in time.

The player's board is not lost: when the answer is not there within ``BOARD_AFTER`` seconds
(a search queued behind other games') or does not come at all (the search failed: the sweeper
answers later), the message is edited to show its board after all. A search a worker is
running at that point is waited for up to ``BOARD_CEILING``: its answer is on its way. A board
its game has left behind meanwhile (a resignation, an abort, a flag, a moderator's end, a
takeback) is never added (``Referee.held_board``): it would say the bot is still to move.

Nobody is pinged by the answer to their own command while it comes in time (``unpinged``):
they have just typed. An answer that comes after their board was shown for lateness pings
them, as the sweeper's moves and an opponent's move do.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import Msg
from bot.referee.replies import Reply

BOARD_AFTER = 3.0
"""Seconds a player's move waits for the bot's answer before its own board is shown, unless a
worker is searching the answer then: a search is bounded by 1.9 s of CPU, and took at most
1.94 s of wall clock (2.55 s on a busy machine) in docs/practice.md's measures."""

BOARD_CEILING = 6.0
"""Seconds the move's board waits at most while a worker is searching its answer. On a loaded
host the search's 1.9 s of CPU ran 3.3-3.9 s of wall clock (a player's review: 3 of 55 Abalone
level-5 turns showed two boards 0.3-0.9 s apart); 6 s leaves the worker a third of a core. A
search still queued behind other games' at ``BOARD_AFTER`` shows the board then: a flat 5 s
would leave that player without a board longest, when the answer is furthest away."""


def has_board(reply: Reply) -> bool:
    """Whether ``reply`` shows a board: drawn, or to be drawn when shown (``draw_later``)."""
    return reply.image is not None or reply.draw_later


def answered_by_bot(reply: Reply, bot_id: int | None) -> bool:
    """Whether ``reply`` is a public board whose next move is the bot's (``to_move`` is data:
    the user id to move), so that the bot's answer, with its board, follows it."""
    return reply.public and has_board(reply) and bot_id is not None and reply.to_move == bot_id


@dataclass
class Held:
    """A reply posted without its board until a later board stands for it."""

    reply: Reply
    lang: str
    title: Msg | None
    message: discord.WebhookMessage | None  # None: the interaction's own response
    due: float  # the event loop's time at which its board is shown, unless being searched
    ceiling: float  # the time at which it is shown even if the answer is being searched


def unpinged(reply: Reply, person: int) -> Reply:
    """``reply`` without the ping of ``person``, whose own command it answers in time (a
    player's finding: each of the bot's answers, and the start of a practice game they had just
    asked for, began with their mention). Whoever else it pings keeps it."""
    if person not in reply.mentions:
        return reply
    return dataclasses.replace(reply, mentions=[m for m in reply.mentions if m != person])


class Steps:
    """The replies of ``Referee.sequence`` one at a time. Waiting for the next may stop at a
    bound without giving the step up: the bot's search goes on, and the next wait is for it."""

    def __init__(self, replies: AsyncIterator[Reply]) -> None:
        self._replies = replies
        self._step: asyncio.Task[Reply | None] | None = None

    async def next(self, within: float | None) -> Reply | None:
        """The next reply, None when there are no more; TimeoutError when ``within`` seconds
        pass first (None: no bound)."""
        if self._step is None:
            self._step = asyncio.ensure_future(self._advance())
        done, _ = await asyncio.wait({self._step}, timeout=within)
        if not done:
            raise TimeoutError
        step, self._step = self._step, None
        return step.result()

    async def _advance(self) -> Reply | None:
        try:
            return await anext(self._replies)
        except StopAsyncIteration:
            return None

    async def close(self) -> None:
        """Cancel a step under way (the interaction's handling was cancelled: a shutdown), let
        it end, and close the replies: no search is left answering nobody, and the practice
        opponent's game is no longer marked as being answered."""
        step, self._step = self._step, None
        if step is not None:
            step.cancel()
            await asyncio.wait({step})
            if not step.cancelled():
                step.exception()  # raised to the caller already, or of no one's concern now
        aclose = getattr(self._replies, "aclose", None)
        if aclose is not None:
            await aclose()


def edit_kwargs(out: Any) -> dict[str, Any]:
    """An ``Outgoing`` as the keyword arguments of an edit: the embed and its files."""
    return {"embed": out.embed, "attachments": out.files}
