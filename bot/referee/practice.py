"""The practice opponent at play: what the bot does in a practice game once it has started
(``practice_start``).

The bot's actions go through ``Play.act`` like anyone's: logged, chained, its Atmalof drops
announced and then rolled with the game's public dice. Its search (``engine.ai.choose_turn``)
runs in worker processes (``bot.referee.thinker``), so the event loop never waits for it. When
the bot answers:

- after any command in its game (``answers``, which ``Referee.sequence`` runs after the
  command's own replies): it moves when it is its turn, accepts every takeback the player asks
  for, and answers a draw offer by ``draw_refusal`` (``practice_moves``): it declines one made
  before its game is properly under way (at once, even while it searches), or when it stands
  better, and accepts the rest;
- in the sweeper (``waiting``, which ``Upkeep.sweep`` answers as many at a time as there are
  workers): a practice game whose turn is the bot's and has waited ``STALE_TURN_AFTER`` seconds
  (a restart mid-search, a worker that failed) gets its move; the first sweep of a process
  takes every such game at once.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any

import engine
from bot.errors import BrokenGame, Conflict, Refusal, StoreUnavailable
from bot.lru import LRU
from bot.referee.context import POSITIONS_KEPT, Context, where_of
from bot.referee.endings import Endings
from bot.referee.play import Play
from bot.referee.practice_moves import bot_actor, clock_budget, draw_refusal, move_seed, turn_text
from bot.referee.replies import Preempted, Reply
from bot.referee.thinker import Thinker
from bot.store import GameRow

log = logging.getLogger(__name__)

STALE_TURN_AFTER = 5.0  # the sweeper moves for the bot after this long (the command did not)
SWEEP_PAGE = 100  # practice games looked at per sweep (a cursor pages through the rest)
MAX_ANSWERS = 8  # the bot's answers after one command at most (an offer answered, a move)
AGAIN = Reply(text="", ok=False, ephemeral=True)  # the game moved on meanwhile: look again


class Practice:
    """The bot's answers after a command, and the sweeper's part: the games waiting for it."""

    def __init__(self, ctx: Context, play: Play, endings: Endings) -> None:
        self.ctx = ctx
        self.play = play
        self.endings = endings
        self.thinker = Thinker(ctx.practice_workers)
        self.thinking: set[int] = set()  # games whose answer this process is working out
        self.found: dict[int, tuple[tuple[int, int, str], list[Any]]] = {}  # turn, by position
        self.people_only: LRU[int, bool] = LRU(POSITIONS_KEPT)  # games known not to be practice
        self.scan_after = 0  # the sweeper's cursor over the practice games' ids

    # --- the bot's answers ----------------------------------------------------------------

    async def answers(self, after: Reply, *, sweeping: bool = False) -> AsyncGenerator[Reply, None]:
        """The bot's public replies after ``after`` (a command's last reply) in its game, in
        the order to show them: nothing unless it is a practice game that waits for the bot.
        An announcement is yielded before its die is rolled. A store fault ends them (the
        store logged it): after a command the sweeper answers later; in the sweeper
        (``sweeping``) it raises, and the sweep stops at this game rather than search the
        others for moves it could not save either."""
        game_id = after.game_id
        if not after.ok or game_id is None or self.people_only.get(game_id):
            return  # (a game between people: nothing to read)
        if game_id in self.thinking:  # the bot searches: an offer needs no search, answer it
            now = await self._answer_now(game_id)
            if now is not None:
                yield now
            return
        self.thinking.add(game_id)
        try:
            for _ in range(MAX_ANSWERS):
                answered = False
                async for reply in self._answer(game_id):
                    answered = True
                    if reply is not AGAIN:
                        yield reply
                if not answered:
                    return
        except StoreUnavailable as exc:
            if sweeping:
                raise
            log.warning("practice game %s: the bot's answer waits: %s", game_id, exc)
        finally:
            self.thinking.discard(game_id)
            self.found.pop(game_id, None)

    async def _answer_now(self, game_id: int) -> Reply | None:
        """An offer made while the bot searches, answered at once: a takeback (the bot allows
        every one) or a draw (judged by ``draw_refusal``: its look one ply ahead costs
        milliseconds). Both waited for the search, 2.4 s at level 5 (a player's finding). The
        search's move then finds its game changed: dropped after a takeback, kept for the
        same position after a declined draw, so no search is made twice."""
        try:
            g = await self.ctx.store.game(game_id)
            if g is None or g.bot_seat is None or g.status != "active" or g.frozen_at is not None:
                return None
            where, bot, person = where_of(g), bot_actor(g), 1 - g.bot_seat
            if g.takeback_offer == person:
                answer = await self._call(self.endings.answer_takeback(where, bot, True))
            elif g.draw_offer == person:
                refusal = draw_refusal(g, await self.ctx.state(g))
                answer = await self._call(
                    self.endings.answer_draw(where, bot, refusal is None, refusal=refusal)
                )
            else:
                return None
        except (BrokenGame, StoreUnavailable) as exc:  # the search's own answer comes next
            log.warning("practice game %s: the answer to an offer waits: %s", game_id, exc)
            return None
        return None if answer is AGAIN else answer

    async def _answer(self, game_id: int) -> AsyncIterator[Reply]:
        """One answer of the bot (an offer answered, a roll, an action with its roll), or
        nothing when the game does not wait for it."""
        g = await self.ctx.store.game(game_id)
        if g is None or g.practice is None or g.bot_seat is None:
            if g is not None:
                self.people_only[game_id] = True  # a game never turns into practice
            return
        if g.status != "active" or g.frozen_at is not None:
            return
        where, bot, person = where_of(g), bot_actor(g), 1 - g.bot_seat
        if g.pending is not None:  # a roll a crash left waiting: roll it first
            rolled = await self._call(self.play.roll_pending(where, game_id=g.id))
            if rolled is not None:
                yield rolled
            return
        if g.takeback_offer == person:  # in practice the bot lets every takeback through
            answer = await self._call(self.endings.answer_takeback(where, bot, True))
            if answer is not None:
                yield answer
            return
        try:
            state = await self.ctx.state(g)
        except BrokenGame:  # told to the players by the commands that load it
            return
        if g.draw_offer == person:
            refusal = draw_refusal(g, state)
            answer = await self._call(
                self.endings.answer_draw(where, bot, refusal is None, refusal=refusal)
            )
            if answer is not None:
                yield answer
            return
        rules = engine.get_game(g.game)
        if state.to_move != g.bot_seat or rules.result(state) is not None:
            return
        position = (g.seq, g.ply, g.position)
        kept = self.found.pop(g.id, None)
        turn = kept[1] if kept and kept[0] == position else await self._think(g, state)
        if turn is None:
            return
        fresh = await self.ctx.store.game(g.id)
        if fresh is None or fresh.version != g.version:
            # The game changed while the bot thought: a move, or a takeback asked for or a draw
            # offered meanwhile, which the next look answers first (the move would lapse it).
            # The turn is kept for the same position: an offer answered needs no new search.
            self.found[g.id] = (position, turn)
            yield AGAIN
            return
        text = turn_text(rules, state, turn)
        moved = await self._call(self.play.act(where, bot, text, version=fresh.version))
        if moved is AGAIN:  # an offer came just before the move: answer it, then move
            self.found[g.id] = (position, turn)
            yield AGAIN
            return
        if moved is None or moved.ephemeral:
            return
        log.info("practice %s", json.dumps({"game": g.id, "level": g.practice, "action": text}))
        yield moved
        if moved.ok and moved.pending_roll:  # announced and shown: now the die
            rolled = await self._call(self.play.roll_pending(where, game_id=g.id))
            if rolled is not None:
                yield rolled

    async def _think(self, g: GameRow, state: Any) -> list[Any] | None:
        """The bot's turn (its action, a mill's removal); None: the search failed (logged)."""
        assert g.practice is not None
        nodes, seconds = clock_budget(g, self.ctx.practice_nodes, self.ctx.now())
        try:
            with self.thinker.asked(g.id):  # Discord asks whether it is being searched
                return await self.thinker.turn(
                    g.game, state, g.practice, move_seed(g), nodes, seconds
                )
        except Exception:
            log.exception("practice game %s: the search failed; the sweeper tries again", g.id)
            return None

    @staticmethod
    async def _call(command: Awaitable[Reply]) -> Reply | None:
        """A service call on the bot's behalf, with the wrapper's outcomes: the reply; a
        public reply that preempted it (a fallen flag); ``AGAIN`` when the game moved on
        meanwhile; None when refused (nothing to show, the sweeper tries again). A store
        fault raises (``answers`` says what becomes of it)."""
        try:
            return await command
        except Preempted as exc:
            return exc.reply
        except Conflict:
            return AGAIN
        except Refusal as exc:
            log.info("practice answer not made: %s", exc)
            return None

    # --- the sweeper's part -------------------------------------------------------------------

    async def waiting(
        self, now: float, mine: Callable[[int | None], bool], *, first: bool
    ) -> AsyncGenerator[GameRow, None]:
        """A page's practice games waiting for the bot with no command to answer them, in
        the order of their ids, each looked at when the sweeper asks for the next (``mine``:
        this process's servers; ``first``: any waiting game, else one whose turn is
        ``STALE_TURN_AFTER`` old). The cursor moves past a game only when the next is asked
        for; a sweep stopped by a store fault sets it back to the first game it could not
        answer (``Upkeep.bot_turns``), so the next sweep starts there, not a page later."""
        games = await self.ctx.store.practice_games(self.scan_after, SWEEP_PAGE)
        for g in games:
            if (
                mine(g.guild_id)
                and g.id not in self.thinking
                and (first or now - g.updated_at >= STALE_TURN_AFTER)  # else its command answers
                and await self.waits_for_bot(g)
            ):
                yield g
            self.scan_after = g.id
        if len(games) < SWEEP_PAGE:  # the last page: the next sweep starts again from the first
            self.scan_after = 0

    async def waits_for_bot(self, g: GameRow) -> bool:
        """An offer for the bot to answer, or the bot to move."""
        if g.bot_seat is None:
            return False
        if g.takeback_offer == 1 - g.bot_seat or g.draw_offer == 1 - g.bot_seat:
            return True
        try:
            state = await self.ctx.state(g)
        except BrokenGame:
            return False
        return bool(state.to_move == g.bot_seat)

    def close(self) -> None:
        """Shut the worker process down (the referee's ``close``)."""
        self.thinker.close()
