"""How games end besides the engine's result: resignation, draws, takebacks, aborts, claims,
and moderators' decisions."""

from __future__ import annotations

import engine
from bot import texts
from bot.clock import ClockSpec, format_seconds
from bot.referee.core import MAX_REASON, RefereeCore, once_per_request, turn_words
from bot.referee.replies import (
    Actor,
    ButtonKind,
    ButtonSpec,
    Reply,
    Where,
    refusal,
)
from bot.store import (
    GameMovedOn,
    GameRow,
    NewEvent,
)
from engine import Outcome, Termination, chain
from engine.record import LOG_VERSION


class Endings(RefereeCore):
    """resign, draws, takebacks, abort, claim, moderator abort and award."""

    @once_per_request
    async def resign(self, where: Where, actor: Actor, *, request_id: str | None = None) -> Reply:
        """Give up: the opponent wins. A repeated ``request_id`` is answered once."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        sides = engine.get_game(g.game).side_names
        outcome = Outcome(Termination.RESIGNATION, 1 - seat, f"{sides[seat]} resigned")
        return await self._end(g, state, outcome, actor, seat, "resign", prefix=prefix)

    @once_per_request
    async def offer_draw(
        self, where: Where, actor: Actor, *, request_id: str | None = None
    ) -> Reply:
        """Offer a draw (accepts one already offered to you). Lapses when the offerer moves."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        if g.draw_offer == 1 - seat:
            return await self._agree_draw(g, state, actor, seat, prefix)
        if g.draw_offer == seat:
            return refusal("you have already offered a draw", game_id=g.id, version=g.version)
        other = 1 - seat
        text = f"{prefix}{actor.name} offers a draw. {g.names[other]}, accept or decline?"
        changes = {"draw_offer": seat, "updated_at": self._now()}
        try:
            g = await self.store.change_game(g, changes, request=self._request(g, text))
        except GameMovedOn:
            return await self._moved_on()
        return Reply(
            text=text,
            game_id=g.id,
            version=g.version,
            mentions=[g.players[other]],
            buttons=[
                ButtonSpec("Accept draw", ButtonKind.DRAW_ACCEPT, g.id, g.version, "success"),
                ButtonSpec("Decline", ButtonKind.DRAW_DECLINE, g.id, g.version, "secondary"),
            ],
        )

    @once_per_request
    async def answer_draw(
        self,
        where: Where,
        actor: Actor,
        accept: bool,
        *,
        version: int | None = None,
        request_id: str | None = None,
    ) -> Reply:
        """Accept or decline the draw your opponent offered (``version``: from the button)."""
        loaded = await self._playing(where, actor, version=version)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        if g.draw_offer != 1 - seat:
            return refusal("there is no draw offer for you to answer", game_id=g.id)
        if accept:
            return await self._agree_draw(g, state, actor, seat, prefix)
        text = f"{prefix}{actor.name} declines the draw."
        changes = {"draw_offer": None, "updated_at": self._now()}
        try:
            g = await self.store.change_game(g, changes, request=self._request(g, text))
        except GameMovedOn:
            return await self._moved_on()
        return Reply(text=text, game_id=g.id, version=g.version)

    @once_per_request
    async def request_takeback(
        self, where: Where, actor: Actor, *, request_id: str | None = None
    ) -> Reply:
        """Ask to take back your last turn (and the reply to it); never across a die roll."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, _state, seat, prefix = loaded
        forbidden = await self._takebacks_forbidden(g)
        if forbidden:
            return refusal(forbidden, game_id=g.id, version=g.version)
        undo = await self._takeback_span(g, seat)
        if isinstance(undo, str):
            return refusal(undo, game_id=g.id, version=g.version)
        if g.takeback_offer == seat:
            return refusal("you have already asked for a takeback", game_id=g.id)
        other = 1 - seat
        moves = turn_words(g, *undo)
        text = (
            f"{prefix}{actor.name} asks to take back: {moves}. {g.names[other]}, accept or decline?"
        )
        changes = {"takeback_offer": seat, "updated_at": self._now()}
        try:
            g = await self.store.change_game(g, changes, request=self._request(g, text))
        except GameMovedOn:
            return await self._moved_on()
        return Reply(
            text=text,
            game_id=g.id,
            version=g.version,
            mentions=[g.players[other]],
            buttons=[
                ButtonSpec(
                    "Allow takeback", ButtonKind.TAKEBACK_ACCEPT, g.id, g.version, "primary"
                ),
                ButtonSpec("Refuse", ButtonKind.TAKEBACK_DECLINE, g.id, g.version, "secondary"),
            ],
        )

    @once_per_request
    async def answer_takeback(
        self,
        where: Where,
        actor: Actor,
        accept: bool,
        *,
        version: int | None = None,
        request_id: str | None = None,
    ) -> Reply:
        """Allow or refuse the takeback your opponent asked for (``version``: from the button)."""
        loaded = await self._playing(where, actor, version=version)
        if isinstance(loaded, Reply):
            return loaded
        g, _state, seat, prefix = loaded
        asker = g.takeback_offer
        if asker != 1 - seat:
            return refusal("there is no takeback request for you to answer", game_id=g.id)
        now = self._now()
        if not accept:
            text = f"{prefix}{actor.name} refuses the takeback."
            changes = {"takeback_offer": None, "updated_at": now}
            try:
                g = await self.store.change_game(g, changes, request=self._request(g, text))
            except GameMovedOn:
                return await self._moved_on()
            return Reply(text=text, game_id=g.id, version=g.version)
        undo = await self._takebacks_forbidden(g) or await self._takeback_span(g, asker)
        if isinstance(undo, str):  # (the server may have turned takebacks off meanwhile)
            return refusal(undo, game_id=g.id, version=g.version)
        keep, gone = undo
        rules = engine.get_game(g.game)
        state = self._replay_rows(g, keep)
        spec = ClockSpec.parse(g.clock)
        bank = g.banks[state.to_move]
        changes = {
            "seq": len(keep),
            "position": rules.to_text(state),
            "ply": state.ply,
            "takeback_offer": None,
            "draw_offer": None,
            "turn_started_at": now,
            "deadline": spec.deadline(now, bank),
            "updated_at": now,
        }
        if g.log_version < LOG_VERSION:  # the old chain covers the live line only
            changes["last_hash"] = keep[-1].hash if keep else chain.GENESIS
        note = {"undone": [a.action for a in gone], "to": len(keep)}
        event = NewEvent("takeback", now, seat=asker, user_id=actor.id, note=note)
        text = f"{prefix}Takeback accepted, undone: {turn_words(g, keep, gone)}."
        try:
            g = await self.store.change_game(
                g, changes, events=[event], request=self._request(g, text)
            )
        except GameMovedOn:
            return await self._moved_on()
        self._states[g.id] = (g.last_hash, state)
        return await self._board_reply(g, state, text)

    async def _takebacks_forbidden(self, g: GameRow) -> str | None:
        """Why no takeback is taken in this game: rated (never, as on Lichess), or the server's
        moderators turned takebacks off; None when both players may agree to one."""
        if g.rated:
            return texts.NO_TAKEBACK_RATED
        if g.guild_id is not None and not (await self.store.guild_settings(g.guild_id)).get(
            "takebacks", True
        ):
            return texts.NO_TAKEBACK_HERE
        return None

    @once_per_request
    async def abort(self, where: Where, actor: Actor, *, request_id: str | None = None) -> Reply:
        """End the game unrated, allowed to a player who has not acted yet: a player who has
        moved (an Atmalof drop with its roll counts) could otherwise abort to escape a bad roll.
        An announced roll is rolled first (``_playing``), so it counts too."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        if g.moved & (1 << seat):
            return refusal(
                "too late to abort: you have already moved. Resign or offer a draw instead",
                game_id=g.id,
            )
        outcome = Outcome(Termination.ABORTED, None, f"aborted by {actor.name} before both moved")
        return await self._end(g, state, outcome, actor, seat, "abort", prefix=prefix)

    @once_per_request
    async def claim(self, where: Where, actor: Actor, *, request_id: str | None = None) -> Reply:
        """Claim the win when the opponent's time ran out or they abandoned the game."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            loaded.ok = loaded.ok or loaded.finished  # the flag had fallen: the claim holds
            return loaded
        g, state, seat, prefix = loaded
        if state.to_move == seat:
            return refusal("it is your turn: you cannot claim while you are to move", game_id=g.id)
        now = self._now()
        sides = engine.get_game(g.game).side_names
        other = 1 - seat
        if g.deadline is not None:
            if now < g.deadline:
                return refusal(
                    f"{g.names[other]} still has {format_seconds(g.deadline - now)} to move",
                    game_id=g.id,
                )
            outcome = Outcome(Termination.TIMEOUT, seat, f"{sides[other]} ran out of time")
            return await self._end(g, state, outcome, actor, seat, "timeout", prefix=prefix)
        idle = now - g.turn_started_at
        if idle < self.abandon_after:
            return refusal(
                f"{g.names[other]} has been thinking for {format_seconds(idle)}; you can claim "
                f"after {format_seconds(self.abandon_after)} without a move",
                game_id=g.id,
            )
        outcome = Outcome(
            Termination.ABANDONMENT, seat, f"{sides[other]} abandoned the game (no move)"
        )
        return await self._end(g, state, outcome, actor, seat, "abandon", prefix=prefix)

    # --- moderators -------------------------------------------------------------------------

    async def moderator_abort(self, where: Where, actor: Actor, reason: str) -> Reply:
        """A moderator ends the channel's game unrated, with a reason that is logged."""
        g, state, problem = await self._moderated(where, actor, reason, "abort")
        if problem:
            return problem
        text = f"aborted by moderator {actor.name}: {reason.strip()[:MAX_REASON]}"
        outcome = Outcome(Termination.ABORTED, None, text)
        return await self._end(g, state, outcome, actor, None, "abort", note={"reason": reason})

    async def award(self, where: Where, actor: Actor, winner: Actor | None, reason: str) -> Reply:
        """A moderator decides the game: ``winner`` a player of it, or None for a draw."""
        g, state, problem = await self._moderated(where, actor, reason, "award")
        if problem:
            return problem
        seat = None
        if winner is not None:
            seat = g.seat_of(winner.id)
            if seat is None:
                return refusal(f"{winner.name} is not playing in this game", game_id=g.id)
        text = f"decided by moderator {actor.name}: {reason.strip()[:MAX_REASON]}"
        outcome = Outcome(Termination.AWARDED, seat, text)
        return await self._end(g, state, outcome, actor, None, "award", note={"reason": reason})
