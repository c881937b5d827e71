"""Upkeep the front end runs every few seconds (``sweep``): it ends games whose flag fell, rolls
the die for an announcement a crash interrupted, moves for the bot where a practice game waits
for it (a restart mid-search), expires challenges and forgets old request ids; what it decided
is yielded as notices to post, each as soon as it is decided."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing

from bot import texts
from bot.clock import ClockSpec
from bot.errors import BrokenGame, Conflict
from bot.i18n import msg
from bot.ladder_store import change_game
from bot.referee.board_reply import board_reply, told_of_end
from bot.referee.context import (
    REQUESTS_KEPT_FOR,
    REQUESTS_PRUNED_PER_SWEEP,
    STALE_ROLL_AFTER,
    Context,
    flag_fell,
    where_of,
)
from bot.referee.practice import Practice
from bot.referee.replies import (
    Notice,
    Reply,
    Where,
)
from bot.shards import Shards
from bot.store import GameRow


class Upkeep:
    """The sweeper: fallen flags, stale rolls, the practice opponent's turns, expired
    challenges, old request ids."""

    def __init__(self, ctx: Context, practice: Practice) -> None:
        self.ctx = ctx
        self.practice = practice
        self.started = ctx.now()  # turns that began before this process: an outage ran them
        self.swept = False  # a sweep of this process has run to its end (the first one's work)

    async def sweep(
        self, now: float | None = None, *, shards: Shards | None = None
    ) -> AsyncGenerator[Notice, None]:
        """End games whose flag fell, finish stale rolls, move for the bot where a practice
        game waits for it, expire challenges: each notice yielded as soon as it is decided
        (a bot's move starts its player's clock, so the front end posts it at once, and the
        moves of a store fault later in the sweep are not lost with it).

        Call it every few seconds; it is cheap when there is nothing to do. The first sweep
        of a process gives back the clock time an outage ran and takes every practice game
        waiting for the bot; until one has run to its end, the next sweep is the first again.
        A store fault raises StoreUnavailable out of the iteration, after the notices of what
        was already done. ``shards``: only the servers of these shards (a process serving
        some of the bot's shards); the shared housekeeping (old request ids) is shard 0's.
        """
        began = self.ctx.now()
        now = began if now is None else now
        mine = shards.owns if shards is not None else _everyone
        first = not self.swept
        if first:  # before any flag is judged: the outage's time is given back
            async with aclosing(self.resume_clocks(now, mine)) as notices:
                async for notice in notices:
                    yield notice
        async with aclosing(self.clocks(now, mine)) as notices:
            async for notice in notices:
                yield notice
        # closed with the sweep (a reader that stops): its answers under way are cancelled then,
        # not when the garbage collector finalizes the generator
        async with aclosing(self.bot_turns(now, began, mine, first=first)) as notices:
            async for notice in notices:
                yield notice
        for c in await self.ctx.store.expired_challenges(now):
            if not mine(c.guild_id):
                continue
            if await self.ctx.store.close_challenge(c.id, "expired"):
                said = {"challenger": c.challenger_name, "opponent": c.opponent_name or "anyone"}
                text = texts.notice_text("challenge_expired", said)
                where = Where(c.guild_id, c.channel_id, c.parent_id)
                told = Reply(text=text, notice="challenge_expired", params=said, challenge_id=c.id)
                yield Notice(where, told)
        if mine(None):
            await self.ctx.store.prune_requests(now - REQUESTS_KEPT_FOR, REQUESTS_PRUNED_PER_SWEEP)
        self.swept = True

    async def bot_turns(
        self, now: float, began: float, mine: Callable[[int | None], bool], *, first: bool
    ) -> AsyncGenerator[Notice, None]:
        """The practice games waiting for the bot, answered ``practice_workers`` at a time (as
        many as there are processes to search them; after a restart of a busy bot they queue),
        each notice yielded as soon as it exists. While the bot searches, the flags are judged
        every ``CLOCKS_EVERY`` seconds and after each game it answers, so a flag that falls
        during a search falls then, not after the page's last game.

        A store fault (in one game, or in judging the flags) starts no further game, lets the
        answers under way finish (a move they store is shown), and then raises; the next sweep
        starts at the first game that failed. Stopped from outside (a shutdown), the answers
        under way are cancelled."""
        width = max(1, self.ctx.practice_workers)
        told: asyncio.Queue[tuple[GameRow, Reply | None]] = asyncio.Queue()
        running: dict[int, asyncio.Task[None]] = {}
        fault: Exception | None = None  # the first store fault: no further game starts
        unanswered: list[int] = []  # games whose answer failed: the next sweep redoes them

        async def answer(g: GameRow) -> None:
            try:
                asked = Reply(text="", game_id=g.id)
                async with aclosing(self.practice.answers(asked, sweeping=True)) as replies:
                    async for reply in replies:
                        await told.put((g, reply))
            finally:
                told.put_nowait((g, None))  # this game is done, or failed: see its task

        def clock_time() -> float:
            return now + self.ctx.now() - began

        try:
            async with aclosing(self.practice.waiting(now, mine, first=first)) as waiting:
                more = True
                while True:
                    while more and fault is None and len(running) < width:
                        try:
                            waits = await anext(waiting, None)
                        except Exception as exc:  # the look at the next game failed
                            waits, fault = None, exc
                        if waits is None:
                            more = False
                        else:
                            running[waits.id] = asyncio.create_task(answer(waits))
                    if not running:
                        break
                    try:
                        g, reply = await asyncio.wait_for(told.get(), CLOCKS_EVERY)
                    except TimeoutError:  # a search under way: judge the flags meanwhile
                        pass
                    else:
                        if reply is not None:
                            yield Notice(where_of(g), reply)
                            continue
                        try:
                            await running.pop(g.id)  # a game answered: judge the flags now
                        except Exception as exc:  # a store fault: the others under way finish
                            fault = fault or exc
                            unanswered.append(g.id)
                    if fault is not None:
                        continue
                    try:
                        async with aclosing(self.clocks(clock_time(), mine)) as notices:
                            async for notice in notices:
                                yield notice
                    except Exception as exc:  # the clocks' store fault: as an answer's
                        fault = exc
        finally:
            for task in running.values():  # stopped from outside: a reader closed the sweep
                task.cancel()
            await asyncio.gather(*running.values(), return_exceptions=True)
            unanswered += running
            if unanswered:  # the next sweep starts at the first of them, not past it
                self.practice.scan_after = min(self.practice.scan_after, min(unanswered) - 1)
        if fault is not None:
            raise fault

    async def clocks(
        self, now: float, mine: Callable[[int | None], bool]
    ) -> AsyncGenerator[Notice, None]:
        """The clocks' part of a sweep: games whose flag fell by ``now`` end on time, and an
        announcement whose roll a crash interrupted is rolled (and a practice game's bot
        answers the roll)."""
        for g in await self.ctx.store.overdue_games(now):
            if not mine(g.guild_id):
                continue
            try:
                state = await self.ctx.state(g)
            except BrokenGame as broken:  # the flag cannot be judged: tell the channel, once
                if g.id not in self.ctx.broken_told:
                    yield Notice(where_of(g), self.ctx.broken_reply(g, broken))
                continue
            try:
                reply = await self.ctx.end(
                    g, state, flag_fell(g, state), None, None, "timeout", at=now
                )
            except Conflict:  # a command landed first: it saw the flag itself
                continue
            # nobody's command ended it, and its players may have walked away: ``end`` pings
            # them both (``told_of_end``)
            yield Notice(where_of(g), reply)
        for g in await self.ctx.store.stale_rolls(now - STALE_ROLL_AFTER):
            if not mine(g.guild_id):
                continue
            try:
                reply = await self.ctx.complete_roll(g)
            except Conflict:  # a command rolled it first
                continue
            except BrokenGame as broken:
                if g.id not in self.ctx.broken_told:
                    yield Notice(where_of(g), self.ctx.broken_reply(g, broken))
                continue
            if reply.finished:  # the roll ended it, with nobody's command: news to both
                reply.mentions = told_of_end(g, None)
            yield Notice(where_of(g), reply)
            async for answer in self.practice.answers(reply, sweeping=True):  # the bot's turn?
                yield Notice(where_of(g), answer)

    async def resume_clocks(
        self, now: float, mine: Callable[[int | None], bool]
    ) -> AsyncGenerator[Notice, None]:
        """A process's first sweep: every clocked turn that began before it started is left at
        least the time its player had when it began, up to ``RESUME_MOST``. The clocks ran
        while no referee was there to take a move (a flag could fall in a restart the players
        never saw), and how long it was away is not known, so a short clock gets its whole
        turn back (at worst a player gets again the time they had already thought), and a
        long one a quarter of an hour at most (a correspondence player is not given a new day
        at every restart). Turns begun in the last ``RESUME_AFTER`` seconds, and deadlines
        already later than that, are left as they are, and nothing is said of them."""
        after = 0
        while True:
            page = await self.ctx.store.clocked_turns(self.started, after)
            if not page:
                return
            after = page[-1].id
            for g in page:
                if not mine(g.guild_id) or now - g.turn_started_at < RESUME_AFTER:
                    continue
                try:
                    state = await self.ctx.state(g)
                    spec = ClockSpec.parse(g.clock)
                    turn = spec.deadline(0.0, g.banks[state.to_move])  # the turn's whole time
                    if turn is None or g.deadline is None:
                        continue
                    deadline = max(g.deadline, now + min(turn, RESUME_MOST))
                    if deadline == g.deadline:
                        continue
                    changes = {
                        "turn_started_at": deadline - turn,  # the clock's own arithmetic holds
                        "deadline": deadline,
                        "updated_at": now,
                    }
                    g = await change_game(self.ctx.store, g, changes)
                except (Conflict, BrokenGame):  # a command came first; a broken game is told
                    continue
                mover = texts.seat_msg(g, state.to_move)
                left = texts.duration(deadline - now)
                said = msg("notice.clocks_resumed", player=mover, time=left)
                yield Notice(where_of(g), await board_reply(self.ctx, g, state, [said]))


CLOCKS_EVERY = 1.0
"""While the sweeper waits for the bot's searches, the flags are judged this often (seconds)."""
RESUME_AFTER = 10.0
"""A turn begun this many seconds before a process's first sweep may have time given back; a
younger one keeps its clock (a restart that quick cost its player nothing worth saying)."""
RESUME_MOST = 15 * 60.0
"""The most a turn is left after a restart: a blitz turn gets all its time back, a rapid or
correspondence one a quarter of an hour (its player is told, and can move)."""


def _everyone(guild_id: int | None) -> bool:
    return True  # a sweep without shards: every server is this process's
