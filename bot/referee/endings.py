"""How games end besides the engine's result: resignation, draws, takebacks, aborts, claims,
and moderators' decisions."""

from __future__ import annotations

from typing import Any

import engine
from bot import texts
from bot.clock import ClockSpec
from bot.errors import Refusal
from bot.i18n import Msg, msg, one_line, say
from bot.ladder_store import change_game
from bot.referee.board_reply import as_lines, board_reply, prefixed, said_after, turn_msg
from bot.referee.context import MAX_REASON, Context, said_too, turn_words
from bot.referee.moderation import moderated
from bot.referee.replies import (
    Actor,
    ButtonKind,
    ButtonSpec,
    Preempted,
    Reply,
    Where,
)
from bot.store import (
    GameRow,
    NewEvent,
)
from engine import Outcome, Termination, chain
from engine.record import LOG_VERSION


class Endings:
    """resign, draws, takebacks, abort, claim, moderator abort and award."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def resign(self, where: Where, actor: Actor) -> Reply:
        """Give up: the opponent wins. A repeated ``request_id`` is answered once. In a rated
        game a player who has not acted yet aborts instead (refused, pointed to ``/abort``), as
        on the chess servers: a result with no move played would move two ratings for nothing,
        and two friends could trade points that way."""
        g, state, seat, prefix = await self.ctx.playing(where, actor)
        if g.rated and not g.moved & (1 << seat):
            raise Refusal("resign_before_moving", game_id=g.id)
        sides = engine.get_game(g.game).side_names
        outcome = Outcome(Termination.RESIGNATION, 1 - seat, f"{sides[seat]} resigned")
        return await self.ctx.end(g, state, outcome, actor, seat, "resign", prefix=prefix)

    async def offer_draw(self, where: Where, actor: Actor) -> Reply:
        """Offer a draw (accepts one already offered to you). It stands, whatever the offerer
        does, until the opponent answers it: accepting, declining, or playing on (a move or an
        announcement of theirs declines it: ``context.declines_draw``)."""
        g, state, seat, prefix = await self.ctx.playing(where, actor)
        if g.draw_offer == 1 - seat:  # said: the result alone read as if both offered at once
            met = msg("notice.draw_offer_met", actor=actor.name, other=g.names[1 - seat])
            return await self.agree_draw(g, state, actor, seat, said_after(prefix, met))
        if g.draw_offer == seat:
            raise Refusal("draw_offered_already", game_id=g.id, version=g.version)
        other = 1 - seat
        said = {"actor": actor.name, "other": g.names[other]}
        key = "draw_offered_bot" if g.bot_seat == other else "draw_offered"
        text, lines = prefixed(prefix, key, said)
        changes = {"draw_offer": seat, "updated_at": self.ctx.now()}
        g = await change_game(self.ctx.store, g, changes, request=self.ctx.request(g, text, lines))
        mentions, buttons = _asking(
            g,
            other,
            ButtonSpec("Accept draw", ButtonKind.DRAW_ACCEPT, g.id, g.version, "success"),
            ButtonSpec("Decline", ButtonKind.DRAW_DECLINE, g.id, g.version, "secondary"),
        )
        return Reply(
            text=text,
            lines=lines,
            notice="draw_offered",
            params=said,
            game_id=g.id,
            version=g.version,
            mentions=mentions,
            buttons=buttons,
        )

    async def answer_draw(
        self,
        where: Where,
        actor: Actor,
        accept: bool,
        *,
        version: int | None = None,
        refusal: Msg | None = None,
    ) -> Reply:
        """Accept or decline the draw your opponent offered (``version``: from the button).
        ``refusal``: the sentence that declines, when the bot says why (``Practice``)."""
        g, state, seat, prefix = await self.ctx.playing(where, actor, version=version)
        if g.draw_offer == seat:
            raise own_draw_offer(g, seat)
        if g.draw_offer != 1 - seat:
            raise Refusal("no_draw_offer", game_id=g.id)
        if accept:
            if actor.is_bot:  # nobody saw the bot answer: say it, as its refusal is said
                prefix = said_after(prefix, msg("notice.draw_accepted", actor=actor.name))
            return await self.agree_draw(g, state, actor, seat, prefix)
        said = {"actor": actor.name}
        if refusal is None:
            text, lines = prefixed(prefix, "draw_declined", said)
        else:
            said = dict(refusal.params)
            text, lines = prefix + say(refusal), [*as_lines(prefix), refusal]
        return await self._offer_gone(g, state, text, lines, "draw_declined", said)

    async def withdraw_draw(self, where: Where, actor: Actor) -> Reply:
        """Take back your own draw offer while it waits (its buttons then find none)."""
        g, state, seat, prefix = await self.ctx.playing(where, actor)
        if g.draw_offer != seat:
            raise Refusal("no_own_draw_offer", game_id=g.id, version=g.version)
        said = {"actor": actor.name, "other": g.names[1 - seat]}
        text, lines = prefixed(prefix, "draw_withdrawn", said)
        return await self._offer_gone(g, state, text, lines, "draw_withdrawn", said)

    async def _offer_gone(
        self,
        g: GameRow,
        state: Any,
        text: str,
        lines: list[Any],
        notice: str,
        said: dict[str, Any],
        offer: str = "draw_offer",
    ) -> Reply:
        """The draw offer (or takeback request: ``offer``) cleared, declined or withdrawn, in
        one change, said as ``notice``, then whose turn it is (as under a board: the game goes
        on, and "Bob declines the draw" alone left both players asking who was to move)."""
        turn = turn_msg(g, state)
        text, lines = f"{text}\n{say(turn)}", [*lines, turn]
        changes = {offer: None, "updated_at": self.ctx.now()}
        g = await change_game(self.ctx.store, g, changes, request=self.ctx.request(g, text, lines))
        return Reply(
            text=text, lines=lines, notice=notice, params=said, game_id=g.id, version=g.version
        )

    async def request_takeback(self, where: Where, actor: Actor) -> Reply:
        """Ask to take back your last turn (and the reply to it); never across a die roll.
        Asking while the other side's request waits agrees to theirs (as with draw offers)."""
        g, _state, seat, prefix = await self.ctx.playing(where, actor)
        if g.takeback_offer == 1 - seat:  # asked for by the other side: asking too agrees
            return await self.answer_takeback(where, actor, True, version=g.version)
        await self._takebacks_allowed(g)
        undo = await self.takeback_span(g, seat)
        if g.takeback_offer == seat:
            raise Refusal("takeback_asked_already", game_id=g.id)
        other = 1 - seat
        moves = turn_words(g, *undo)
        said = {"actor": actor.name, "moves": moves, "other": g.names[other]}
        key = "notice.takeback_asked_bot" if g.bot_seat == other else "notice.takeback_asked"
        lines = [*as_lines(prefix), msg(key, **said)]
        text = prefix + say(lines[-1])
        changes = {"takeback_offer": seat, "updated_at": self.ctx.now()}
        g = await change_game(self.ctx.store, g, changes, request=self.ctx.request(g, text, lines))
        mentions, buttons = _asking(
            g,
            other,
            ButtonSpec("Allow takeback", ButtonKind.TAKEBACK_ACCEPT, g.id, g.version, "primary"),
            ButtonSpec("Refuse", ButtonKind.TAKEBACK_DECLINE, g.id, g.version, "secondary"),
        )
        return Reply(
            text=text,
            lines=lines,
            notice="takeback_asked",
            params=said,
            game_id=g.id,
            version=g.version,
            mentions=mentions,
            buttons=buttons,
        )

    async def answer_takeback(
        self, where: Where, actor: Actor, accept: bool, *, version: int | None = None
    ) -> Reply:
        """Allow or refuse the takeback your opponent asked for (``version``: from the button)."""
        g, current, seat, prefix = await self.ctx.playing(where, actor, version=version)
        asker = g.takeback_offer
        if asker == seat:
            raise own_takeback_request(g, seat)
        if asker != 1 - seat:
            raise Refusal("no_takeback_request", game_id=g.id)
        now = self.ctx.now()
        if not accept:
            said = {"actor": actor.name}
            text, lines = prefixed(prefix, "takeback_refused", said)
            refused = "takeback_refused"
            return await self._offer_gone(g, current, text, lines, refused, said, "takeback_offer")
        await self._takebacks_allowed(g)  # (the server may have turned them off meanwhile)
        keep, gone = await self.takeback_span(g, asker)
        rules = engine.get_game(g.game)
        state = self.ctx.replay_rows(g, keep)
        spec = ClockSpec.parse(g.clock)
        banks = _without_increments(g.banks, spec, gone, current.to_move)
        changes: dict[str, Any] = {
            "seq": len(keep),
            "position": rules.to_text(state),
            "ply": state.ply,
            "takeback_offer": None,
            "draw_offer": None,
            "turn_started_at": now,
            "deadline": spec.deadline(now, banks[state.to_move]),
            "bank0": banks[0],
            "bank1": banks[1],
            "updated_at": now,
        }
        if g.log_version < LOG_VERSION:  # the old chain covers the live line only
            changes["last_hash"] = keep[-1].hash if keep else chain.GENESIS
        note = {"undone": [a.action for a in gone], "to": len(keep)}
        event = NewEvent("takeback", now, seat=asker, user_id=actor.id, note=note)
        moves = turn_words(g, keep, gone)
        # who allowed it, in the words of the button pressed ("Takeback accepted" said neither)
        key = "takeback.allowed_bot" if seat == g.bot_seat else "takeback.done"
        done = msg(key, actor=actor.name, moves=moves)
        lines = [*as_lines(prefix), done]
        text = prefix + say(lines[-1])
        if g.draw_offer is not None:  # an offer made about the position taken back goes too
            gone_too = msg("notice.draw_taken_back", actor=g.names[g.draw_offer])
            text = said_too(lines, text, [gone_too])
        g = await change_game(
            self.ctx.store, g, changes, events=[event], request=self.ctx.request(g, text, lines)
        )
        self.ctx.states[g.id] = (g.last_hash, state)
        return await board_reply(self.ctx, g, state, lines)

    async def _takebacks_allowed(self, g: GameRow) -> None:
        """Refuse a takeback in this game when it is rated (never, as on Lichess), or the
        server's moderators turned takebacks off; both players may agree to one otherwise."""
        if g.rated:
            raise Refusal("no_takeback_rated", game_id=g.id, version=g.version)
        if g.guild_id is not None and not (await self.ctx.store.guild_settings(g.guild_id)).get(
            "takebacks", True
        ):
            raise Refusal("no_takeback_here", game_id=g.id, version=g.version)

    async def abort(self, where: Where, actor: Actor) -> Reply:
        """End the game unrated, allowed to a player who has not acted yet: a player who has
        moved (an Atmalof drop with its roll counts) could otherwise abort to escape a bad roll.
        An announced roll is rolled first (``_playing``), so it counts too."""
        g, state, seat, prefix = await self.ctx.playing(where, actor)
        if g.moved & (1 << seat):
            raise Refusal("abort_too_late", game_id=g.id)
        outcome = Outcome(Termination.ABORTED, None, f"aborted by {actor.name} before both moved")
        return await self.ctx.end(g, state, outcome, actor, seat, "abort", prefix=prefix)

    async def claim(self, where: Where, actor: Actor) -> Reply:
        """Claim the win when the opponent's time ran out or they abandoned the game."""
        try:
            g, state, seat, prefix = await self.ctx.playing(where, actor, claim=True)
        except Preempted as told:
            told.reply.ok = told.reply.ok or told.reply.finished  # the flag fell: the claim holds
            return told.reply
        if state.to_move == seat:
            raise Refusal("claim_on_own_turn", game_id=g.id)
        now = self.ctx.now()
        sides = engine.get_game(g.game).side_names
        other = 1 - seat
        if g.deadline is not None:
            if now < g.deadline:
                raise Refusal(
                    "claim_time_left",
                    {"opponent": g.names[other], "left": texts.duration(g.deadline - now)},
                    game_id=g.id,
                )
            outcome = Outcome(Termination.TIMEOUT, seat, f"{sides[other]} ran out of time")
            return await self.ctx.end(g, state, outcome, actor, seat, "timeout", prefix=prefix)
        idle = now - g.turn_started_at
        if idle < self.ctx.abandon_after:
            raise Refusal(
                "claim_not_abandoned",
                {
                    "opponent": g.names[other],
                    "idle": texts.duration(idle),
                    "after": texts.duration(self.ctx.abandon_after),
                },
                game_id=g.id,
            )
        outcome = Outcome(
            Termination.ABANDONMENT, seat, f"{sides[other]} abandoned the game (no move)"
        )
        return await self.ctx.end(g, state, outcome, actor, seat, "abandon", prefix=prefix)

    # --- moderators -------------------------------------------------------------------------

    async def moderator_abort(self, where: Where, actor: Actor, reason: str) -> Reply:
        """A moderator ends the channel's game unrated, with a reason that is logged."""
        g, state = await moderated(self.ctx, where, actor, reason, "abort")
        why = one_line(reason, MAX_REASON)  # shown to the channel, and in the record
        text = f"aborted by moderator {actor.name}: {why}"
        outcome = Outcome(Termination.ABORTED, None, text)
        note = {"reason": why, "moderator": actor.name}
        return await self.ctx.end(g, state, outcome, actor, None, "abort", note=note)

    async def award(self, where: Where, actor: Actor, winner: Actor | None, reason: str) -> Reply:
        """A moderator decides the game: ``winner`` a player of it, or None for a draw."""
        g, state = await moderated(self.ctx, where, actor, reason, "award")
        seat = None
        if winner is not None:
            seat = g.seat_of(winner.id)
            if seat is None:
                raise Refusal("winner_not_playing", {"winner_name": winner.name}, game_id=g.id)
        why = one_line(reason, MAX_REASON)  # shown to the channel, and in the record
        text = f"decided by moderator {actor.name}: {why}"
        outcome = Outcome(Termination.AWARDED, seat, text)
        note = {"reason": why, "moderator": actor.name}
        return await self.ctx.end(g, state, outcome, actor, None, "award", note=note)

    async def agree_draw(
        self, g: GameRow, state: Any, actor: Actor, seat: int, prefix: str
    ) -> Reply:
        outcome = Outcome(Termination.AGREEMENT, None, "agreed by both players")
        return await self.ctx.end(g, state, outcome, actor, seat, "draw", prefix=prefix)

    async def takeback_span(self, g: GameRow, seat: int) -> tuple[list[Any], list[Any]]:
        """(kept rows, undone rows) for taking back ``seat``'s last turn; refused when none
        can be."""
        if g.pending is not None:
            raise Refusal("takeback_after_announce", game_id=g.id, version=g.version)
        rows = await self.ctx.store.actions(g.id, g.seq)
        mine = [i for i, a in enumerate(rows) if a.side == seat]
        if not mine:
            raise Refusal("no_move_to_take_back", game_id=g.id, version=g.version)
        start = mine[-1]
        while start > 0 and rows[start - 1].side == seat:
            start -= 1
        gone = rows[start:]
        rolled = [a for a in gone if a.roll is not None]
        if rolled:  # named: against the bot it is most often the bot's own drop
            who = texts.seat_msg(g, rolled[-1].side)
            raise Refusal("takeback_after_roll", {"player": who}, game_id=g.id, version=g.version)
        return rows[:start], gone


def _without_increments(
    banks: tuple[float, float], spec: ClockSpec, gone: list[Any], to_move: int
) -> list[float]:
    """The banks once the turns taken back return the increments they earned: a turn taken
    back and played again must not earn its increment twice, or a player could buy time by
    asking. Time spent thinking stays spent. A turn earns its increment when it passes the
    move: every run of one side's actions taken back did, but the last when its side is
    still to move (a Morris mill waiting for its removal)."""
    out = list(banks)
    if spec.kind != "fischer" or not spec.increment:
        return out
    runs = [a.side for i, a in enumerate(gone) if i == 0 or gone[i - 1].side != a.side]
    if runs and runs[-1] == to_move:
        runs.pop()
    for side in runs:
        out[side] = max(0.0, out[side] - spec.increment)
    return out


def own_draw_offer(g: GameRow, seat: int) -> Refusal:
    """An answer to ``seat``'s own draw offer: it stands, and the opponent answers it."""
    return Refusal("own_draw_offer", {"other": g.names[1 - seat]}, game_id=g.id, version=g.version)


def own_takeback_request(g: GameRow, seat: int) -> Refusal:
    """An answer to ``seat``'s own takeback request: the opponent answers it."""
    return Refusal(
        "own_takeback_request", {"other": g.names[1 - seat]}, game_id=g.id, version=g.version
    )


def _asking(g: GameRow, other: int, *buttons: ButtonSpec) -> tuple[list[int], list[ButtonSpec]]:
    """Whom an offer asks and the buttons they answer with: nobody and none when ``other`` is
    the practice opponent, which answers at once (its ``_bot`` words say so)."""
    if g.bot_seat == other:
        return [], []
    return [g.players[other]], list(buttons)
