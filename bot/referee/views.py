"""What is going on in a channel, for looking at: its game's board (with who plays it and the
questions waiting for an answer), the game and terms ``rules`` explains here, the game a front
end that starts again shows first. Looking changes nothing a player did: at most it completes
what was already due (a waiting roll, a fallen flag), as the board must show it."""

from __future__ import annotations

import json

import engine
from bot import texts
from bot.errors import BrokenGame, Conflict
from bot.game_names import game_title
from bot.i18n import Msg, msg
from bot.referee.board_reply import board_reply
from bot.referee.context import Context
from bot.referee.replies import Reply, RulesHere, Where
from bot.rules_text import describes
from bot.store import GameRow
from engine.record import stored_options


class Views:
    """board, ongoing, game_here, terms_here."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def board(self, where: Where, first: list[Msg] | None = None) -> Reply:
        """The current position of the channel's game (or its latest finished game); ``first``:
        sentences to put before it."""
        g = await self.ctx.game_here(where, None)
        if g is None:
            raise await self.ctx.no_game(where)
        try:
            if g.status == "active" and g.pending is not None:
                try:
                    return await self.ctx.complete_roll(g)  # the roll's sentence above the board
                except Conflict:  # someone else rolled it meanwhile
                    g = await self.ctx.store.game(g.id) or g
            state = await self.ctx.state(g)
        except BrokenGame as broken:
            return self.ctx.broken_reply(g, broken)
        try:  # a flag fell since the sweeper last looked: the board says so, not "0:00"
            ended = await self.ctx.flag_on_look(g, state)
        except Conflict:  # the sweeper or a command ended it first: show what they stored
            return await self.board(where, first)
        if ended is not None:
            return ended
        lead = first if first is not None else [texts.start_players(g)]  # who plays what: first
        lines = [*lead, texts.options_line(g.game, g.variant, g.options, g.clock)]
        if g.status == "active":  # a question still waiting for its answer
            if g.draw_offer is not None:
                lines.append(msg("board.draw_waiting", **_asked(g, g.draw_offer)))
            if g.takeback_offer is not None:
                lines.append(msg("board.takeback_waiting", **_asked(g, g.takeback_offer)))
        shown = [m for m in lines if m is not None]
        reply = await board_reply(self.ctx, g, state, shown, ping=False)  # looked at: no ping
        if g.channel_id != where.channel_id:  # its channel's game, read in a (dispute) thread:
            reply.buttons = []  # a Rematch or Announce there would find no game of its own
        return reply

    async def ongoing(self, where: Where) -> Reply | None:
        """The board of the game being played here, led by who plays it (and, against the bot,
        at what level), or None: a front end that starts again shows it first."""
        g = await self.ctx.store.active_game(where.channel_id)
        if g is None:
            return None
        first = [texts.start_players(g)]
        if g.practice is not None and g.bot_seat is not None:
            person = g.names[1 - g.bot_seat]
            first.append(msg("practice.started", player=person, level=g.practice))
        return await self.board(where, first)

    async def game_here(self, where: Where) -> str | None:
        """The game being played here, else the one a waiting challenge is for, or None: what
        ``rules`` without a game's name explains."""
        g = await self.ctx.store.active_game(where.channel_id)
        if g is not None:
            return g.game
        c = await self.ctx.store.open_challenge(where.channel_id)
        return None if c is None or c.expires_at <= self.ctx.now() else c.game

    async def terms_here(self, where: Where, game: str) -> RulesHere | None:
        """The game of ``game`` being played here, for its rules: the variant to describe and
        what that summary leaves out (its options and clock; for a variant the summaries do not
        describe, such as a custom board, which one it is and its dice); None if no such game
        is being played here."""
        g = await self.ctx.store.active_game(where.channel_id)
        if g is None or g.game != game:
            return None
        changed = texts.options_line(g.game, g.variant, g.options, g.clock)
        if describes(g.game, g.variant):  # its own summary says its board, men and dice
            return RulesHere(g.variant, (changed,) if changed else ())
        here = msg("rules.here", game=game_title(g.game, g.variant))
        options = stored_options(g.game, json.loads(g.options))
        dice = texts.dice_line(engine.get_game(g.game).new(g.variant, **options))
        return RulesHere(g.variant, tuple(m for m in (here, changed, dice) if m))


def _asked(g: GameRow, seat: int) -> dict[str, Msg | str]:
    """Who asked a question that waits (a draw, a takeback) and who answers it (``answerer``:
    the name alone, for the console's line to type)."""
    other = 1 - seat
    return {
        "asker": texts.seat_msg(g, seat),
        "other": texts.seat_msg(g, other),
        "answerer": g.names[other],
    }
