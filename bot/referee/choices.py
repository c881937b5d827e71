"""What a player may play now: the legal moves (autocomplete, the console's list, with those
that can only lose the turn marked), and the one reason when there are none. Read-only apart
from the commands that change a game (``play``): a front end asks on every keystroke."""

from __future__ import annotations

from typing import Any

import engine
from bot import texts
from bot.errors import BrokenGame, Refusal
from bot.referee.context import MAX_CHOICES, Context, not_a_player
from bot.referee.move_words import nothing_to
from bot.referee.play import futile
from bot.referee.replies import Actor, Where
from bot.store import GameRow


class Choices:
    """legal_moves, move_list, legal_for; why_no_moves and why_no_choices when they are empty."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def legal_moves(self, where: Where, actor: Actor) -> list[str]:
        """Every legal action's notation, in the engine's order, if ``actor`` is to move now
        (else none); the console lists them a page at a time (``legal_for`` stops at 25)."""
        found = await self._to_move(where, actor)
        if found is None:
            return []
        g, state = found
        rules = engine.get_game(g.game)
        return [rules.notation(state, a) for a in rules.legal(state)]

    async def move_list(self, where: Where, actor: Actor) -> tuple[list[str], list[str]]:
        """``legal_moves``, and those of them that can only lose the turn (Atmalof drops into a
        line whose die-reachable squares are all taken): legal, and asked about before they
        are made, so a list of moves marks them. One load of the game for both."""
        found = await self._to_move(where, actor)
        if found is None:
            return [], []
        g, state = found
        rules = engine.get_game(g.game)
        legal = rules.legal(state)
        hopeless = [rules.notation(state, a) for a in legal if futile(g, state, a)]
        return [rules.notation(state, a) for a in legal], hopeless

    async def legal_for(
        self, where: Where, actor: Actor, prefix: str = "", *, limit: int | None = MAX_CHOICES
    ) -> list[str]:
        """Autocomplete: notations of the legal actions, if ``actor`` is to move; at most
        ``limit`` (None: all of them, for a front end that says how many more there are).

        Those starting with ``prefix`` come first, then those merely containing it.
        """
        g = await self.ctx.store.active_game(where.channel_id)
        if g is None or g.pending is not None or g.seat_of(actor.id) is None or g.frozen_at:
            return []
        try:
            state = await self.ctx.state(g)
        except BrokenGame:  # the next command tells them
            return []
        if g.players[state.to_move] != actor.id:
            return []
        rules = engine.get_game(g.game)
        wanted = " ".join(str(prefix).lower().split())[:100]
        names = [rules.notation(state, a) for a in rules.legal(state)]
        first = [n for n in names if n.startswith(wanted)]
        then = [n for n in names if wanted in n and not n.startswith(wanted)]
        return (first + then)[:limit]

    async def _to_move(self, where: Where, actor: Actor) -> tuple[GameRow, Any] | None:
        """The channel's game and position if ``actor`` may act in it now, else None."""
        g = await self.ctx.store.active_game(where.channel_id)
        if g is None or g.pending is not None or g.seat_of(actor.id) is None or g.frozen_at:
            return None
        try:
            state = await self.ctx.state(g)
        except BrokenGame:  # logged and told once by the load path
            return None
        return (g, state) if g.players[state.to_move] == actor.id else None

    async def why_no_moves(self, where: Where, actor: Actor) -> Refusal:
        """Why ``legal_moves`` lists nothing for ``actor`` (``why_no_choices``; a roll on its
        way when they are to move). It changes nothing (a waiting roll stays)."""
        return await self.why_no_choices(where, actor) or Refusal("console_no_moves")

    async def why_no_choices(
        self, where: Where, actor: Actor, verb: str | None = None
    ) -> Refusal | None:
        """Why ``actor`` has nothing to play here now, as the one reason that holds: no game
        here (or how theirs ended), not a player, a frozen or damaged game, a roll on its way
        (``console_no_moves``), the other side's turn, nothing for the command ``verb`` now
        (``nothing_to``: moving while placing); None when they are to move (a list of
        suggestions is then empty only because nothing matches what is typed)."""
        g = await self.ctx.store.active_game(where.channel_id)
        if g is None:
            return await self.ctx.no_game(where, actor)
        seat = g.seat_of(actor.id)
        if seat is None:
            return not_a_player(g)
        if g.frozen_at is not None:
            return Refusal("frozen", game_id=g.id)
        if g.pending is not None:
            return Refusal("console_no_moves", game_id=g.id)
        try:
            state = await self.ctx.state(g)
        except BrokenGame:
            return Refusal("broken_game", game_id=g.id)
        if state.to_move != seat:
            return Refusal(
                "not_your_turn", {"player": texts.seat_msg(g, state.to_move)}, game_id=g.id
            )
        if verb is None:
            return None
        rules = engine.get_game(g.game)
        return nothing_to([rules.notation(state, a) for a in rules.legal(state)], verb, g.id)
