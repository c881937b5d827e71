"""Starting a practice game: the bot plays a person at a level (1-5), through the same referee.

A practice game starts at once (no accept), is casual (never rated, so never on a ladder) and
is stored with its level and the bot's seat (``games.practice``, ``games.bot_seat``), as a
challenge and its start in one store transaction, so no challenge ever waits for the bot. A
rematch of one starts the next at once, the other player first. What the bot then does in the
game (its moves, its answers to offers) is ``practice``'s.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

import engine.ai
from bot import limits
from bot.errors import Refusal
from bot.i18n import msg
from bot.referee.board_reply import board_reply
from bot.referee.challenges import (
    Challenges,
    clean_dice_words,
    game_terms,
    opening,
    start_lines,
)
from bot.referee.context import STARTERS, Context, rematch_refused
from bot.referee.practice_moves import bot_actor
from bot.referee.replies import Actor, Reply, Where
from bot.referee.wrapper import current_request_id
from bot.store import ChallengeRow, ChannelBusy, NewEvent
from engine import dice

LEVELS = engine.ai.LEVELS  # 1..5
DEFAULT_LEVEL = 3  # a challenge to the bot names no level


class PracticeStart:
    """practice (start), and the rematch of a practice game."""

    def __init__(self, ctx: Context, challenges: Challenges) -> None:
        self.ctx = ctx
        self.challenges = challenges

    async def start(
        self,
        where: Where,
        actor: Actor,
        game: str,
        *,
        bot: Actor,
        level: int = DEFAULT_LEVEL,
        variant: str = "standard",
        options: Mapping[str, Any] | None = None,
        clock: str = "none",
        starter: str = "random",
        dice_words: str = "",
        rated: bool = False,
        rematch_of: int | None = None,
    ) -> Reply:
        """A casual game of ``actor`` against ``bot`` (the front end's own user) at ``level``,
        started at once. ``starter``: "me" (the person first), "them" (the bot) or "random"
        (the coin toss of the game's dice). ``rated`` is refused: practice is never rated."""
        if type(level) is not int or level not in LEVELS:
            raise Refusal("practice_level", {"level": str(level)[:20]})
        if rated:
            raise Refusal("practice_rated")
        if actor.is_bot:
            raise Refusal("bots_cannot_play")
        if bot.id == actor.id:
            raise Refusal("challenge_yourself")
        if starter not in STARTERS:
            raise Refusal("bad_starter")
        words = clean_dice_words(dice_words)
        rules, state, spec = game_terms(game, variant, options, clock)
        if self.ctx.per_user_limits:
            busy = await limits.games_problem(self.ctx.store, actor.id)
            if busy:
                raise Refusal("over_limit", {"message": busy})
        now = self.ctx.now()
        seed = dice.new_seed()
        accept_id = current_request_id() or secrets.token_hex(8)
        all_words = {str(actor.id): words, str(bot.id): ""}
        mixed = dice.mix(accept_id, all_words)
        fields = {
            "guild_id": where.guild_id,
            "channel_id": where.channel_id,
            "parent_id": where.parent_id,
            "challenger_id": actor.id,
            "opponent_id": bot.id,
            "game": rules.name,
            "variant": state.variant,
            "options": json.dumps(rules.options(state), sort_keys=True),
            "rated": 0,  # practice is never rated
            "clock": spec.text,
            "starter": starter,
            "created_at": now,
            "expires_at": now,
            "rematch_of": rematch_of,
            "seed": seed,
            "words": words,
        }
        toss: list[int | None] = [None]

        def build(challenge_id: int, game_id: int) -> tuple[dict[str, Any], NewEvent]:
            c = ChallengeRow(
                **{k: v for k, v in fields.items() if k not in ("seed", "words")},
                id=challenge_id,
                status="open",
                game_id=None,
                challenger_name=actor.name,
                opponent_name=bot.name,
                seed=seed,
                words=words,
            )
            columns, start, toss[0] = opening(
                c, where, bot, state, seed, (accept_id, all_words, mixed), now, game_id
            )
            seat = 0 if columns["player0"] == bot.id else 1
            columns.update(practice=level, bot_seat=seat)
            note = {**start.note, "practice": {"level": level, "bot_seat": seat}}
            return columns, NewEvent("start", now, user_id=actor.id, note=note)

        guard = limits.games_guard([(actor.id, None)]) if self.ctx.per_user_limits else None
        people = [(actor.id, actor.name), (bot.id, bot.name)]
        try:
            g = await self.ctx.store.start_practice(fields, people, build, now, guard)
        except limits.OverLimit as exc:
            raise Refusal("over_limit", {"message": exc.said}) from exc
        except ChannelBusy as exc:
            raise Refusal("channel_busy", {"busy": await self.ctx.busy(where, actor)}) from exc
        self.ctx.states[g.id] = (g.last_hash, state)
        lines = [
            *start_lines(g, state, toss[0]),
            msg("practice.started", player=actor.name, level=level),
        ]
        return await board_reply(self.ctx, g, state, lines, ok=True)

    async def rematch(self, where: Where, actor: Actor, game_id: int | None = None) -> Reply:
        """After a practice game: a new one at once, same game and level, the other player
        first. After any other game: ``Challenges.rematch``."""
        g = await (
            self.ctx.store.game(game_id)
            if game_id
            else self.ctx.store.latest_game(where.channel_id)
        )
        if g is None or g.practice is None or g.bot_seat is None:
            return await self.challenges.rematch(where, actor, game_id)
        if g.channel_id != where.channel_id:
            raise Refusal("no_finished_game")
        seat = g.seat_of(actor.id)
        rematch_refused(g, stranger=seat is None or seat == g.bot_seat)
        begun = await self.challenges.rematch_begun(where, g)
        if begun is not None:  # a click before this one started it
            raise begun
        try:
            return await self.start(
                where,
                actor,
                g.game,
                bot=bot_actor(g),
                level=g.practice,
                variant=g.variant,
                options=json.loads(g.options),
                clock=g.clock,
                starter="me" if seat == 1 else "them",  # the second player starts the rematch
                rematch_of=g.id,
            )
        except Refusal:  # a click racing this one started it first: say so, not "busy"
            begun = await self.challenges.rematch_begun(where, g)
            if begun is not None:
                raise begun from None
            raise
