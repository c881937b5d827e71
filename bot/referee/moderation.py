"""Disputes: a player stops the clocks and calls the moderators, who look back and decide.

``dispute`` freezes the game (no move, claim or offer lands, no flag falls, time stands still)
and answers with the evidence: the log, the dice commitment where dice or a toss count (never
a running game's seed), the position and the chain head. Moderators then ``rewind`` (look at
the position after action N), ``resume`` (clocks go on from where they stopped), ``restore``
(by agreement, the game goes on from action N; later actions stay in the log), ``void``
(ended, unrated) or ``award`` (``bot.referee.endings``). Each step is a chained event naming
who did it and why."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import engine
from bot import texts
from bot.clock import ClockSpec
from bot.errors import BrokenGame, Refusal
from bot.i18n import Msg, msg, one_line, plain, say
from bot.ladder_store import change_game
from bot.referee import boards
from bot.referee.board_reply import as_lines, board_reply
from bot.referee.boards import BoardView
from bot.referee.context import HISTORY_PAGE, MAX_REASON, Context
from bot.referee.records import stored_record
from bot.referee.replies import Actor, Reply, Where
from bot.referee.server import notice
from bot.referee.turns import dice_proof, disputed, one_after_another, rolls_said
from bot.store import GameRow, NewEvent
from engine import Outcome, Termination, chain
from engine.record import LOG_VERSION
from render import Last

log = logging.getLogger(__name__)


def _reason(text: str | None, default: str = "") -> str:
    """Someone's reason as the public messages repeat it: one plain line (``one_line``)."""
    return one_line(text or "", MAX_REASON) or default


class Moderation:
    """dispute, and the moderators' rewind, resume, restore, void; the moderators' role."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def dispute(self, where: Where, actor: Actor, reason: str = "") -> Reply:
        """A player of the channel's game freezes it and asks the moderators to look.

        The reply carries the board, the log so far as text, the record file (seed hidden) and
        mentions both players; the front end posts it where the moderators will see it.
        """
        try:
            g, state, seat, prefix = await self.ctx.playing(where, actor)
        except Refusal as exc:
            if exc.code == "frozen":  # decided by the reason's code, never by its words
                raise Refusal("dispute_open", game_id=exc.game_id) from exc
            raise
        now = self.ctx.now()
        why = _reason(reason)
        asked = g.draw_offer is not None or g.takeback_offer is not None  # dropped: said so
        event = NewEvent(
            "dispute", now, seat=seat, user_id=actor.id, note={"reason": why or "no reason given"}
        )
        changes = {
            "frozen_at": now,
            "deadline": None,
            "draw_offer": None,
            "takeback_offer": None,
            "updated_at": now,
        }
        g = await self._change_kept(g, state, changes, event)
        opened = (
            msg("dispute.opened", player=texts.seat_msg(g, seat), reason=why)
            if why
            else msg("dispute.opened_no_reason", player=texts.seat_msg(g, seat))
        )
        rows = await self.ctx.store.actions(g.id)
        lines = [
            *as_lines(prefix),
            opened,
            disputed(g, rows),
            msg("dispute.frozen"),
            *([msg("dispute.questions_dropped")] if asked else []),
            *self._log_lines(g, rows),
            *dice_proof(g),
            msg("dispute.moderators"),
        ]
        reply = await board_reply(self.ctx, g, state, lines)
        people = [p for seat, p in enumerate(g.players) if seat != g.bot_seat]  # not the bot
        reply.mentions = list(dict.fromkeys(people))
        reply.file = (await stored_record(self.ctx.store, g)).to_json().encode()
        reply.file_name = f"game-{g.id}-dispute.json"
        return reply

    async def dispute_room(self, where: Where, game_id: int, room_id: int) -> Reply:
        """Note that a front end opened the private room ``room_id`` (a thread of this
        channel) for the dispute of game ``game_id``: commands in the room then find that
        game (``Context.game_here``), not the next one this channel plays. Nothing to say."""
        g = await self.ctx.store.game(game_id)
        if g is None or (g.guild_id, g.channel_id) != (where.guild_id, where.channel_id):
            raise Refusal("no_game")  # not this channel's game: no room of it here
        await self.ctx.store.open_room(room_id, g.id, self.ctx.now())
        return Reply(text="", ephemeral=True, game_id=g.id, version=g.version)

    async def _change_kept(
        self, g: GameRow, state: Any, changes: Mapping[str, Any], event: NewEvent
    ) -> GameRow:
        """Store a moderation's change with its event and keep ``state`` as the game's
        position (``Conflict`` if the game moved on meanwhile)."""
        g = await change_game(self.ctx.store, g, changes, events=[event])
        self.ctx.states[g.id] = (g.last_hash, state)
        return g

    def _log_lines(self, g: GameRow, rows: list[Any]) -> list[Msg]:
        lines = [msg("dispute.log", n=len(rows))]
        if len(rows) > HISTORY_PAGE:
            lines.append(msg("dispute.log_earlier", n=len(rows) - HISTORY_PAGE))
        for a in rows[-HISTORY_PAGE:]:
            side = texts.side_msg(g.game, a.side)
            said = {"seq": a.seq, "side": side, "action": a.action, "time": a.at[11:19]}
            if a.roll is None:
                lines.append(msg("dispute.log_action", **said))
            else:
                lines.append(msg("dispute.log_rolled", roll=a.roll, **said))
        if not rows:
            lines.append(msg("dispute.log_empty"))
        return lines

    # --- moderators ---------------------------------------------------------------------------

    async def _moderating(
        self,
        where: Where,
        actor: Actor,
        reason: str | None,
        *,
        need_reason: bool,
        finished_too: bool = False,
        action: str | None = None,
    ) -> tuple[GameRow, Any]:
        """The game a moderator acts on and its state; refused otherwise. ``action``: the decision
        being taken (refused to a moderator who plays in the game, ``own_game``); None for a
        read-only look (rewind), which the game's own players may take too."""
        if not actor.is_moderator:
            raise Refusal("moderators_only")
        if need_reason and not _reason(reason):
            raise Refusal("reason_needed")
        g = await game_for_moderator(self.ctx, where)
        if g is None and finished_too:  # players dispute after the end too
            g = await self.ctx.game_here(where, None)  # in a thread: its dispute's game
        if g is None:
            raise await nothing_to_moderate(self.ctx, where)
        if action:
            own_game(g, actor, action)
        return g, await state_or_last_good(self.ctx, g)

    async def rewind(self, where: Where, actor: Actor, number: int, reason: str = "") -> Reply:
        """The position after action ``number`` (0: the start) as a picture; changes nothing
        but the log, which records that a moderator looked. Finished games too: their chain
        ends with the result, so that look goes to the bot's own log instead."""
        g, _ = await self._moderating(where, actor, reason, need_reason=False, finished_too=True)
        if not 0 <= number <= g.seq:
            raise Refusal("rewind_out_of_range", {"seq": g.seq}, game_id=g.id)
        now = self.ctx.now()
        why = _reason(reason, "review")
        if g.status != "active":
            log.info("moderator %s rewound finished game %s to %s: %s", actor.id, g.id, number, why)
        else:
            event = NewEvent("rewind", now, user_id=actor.id, note={"to": number, "reason": why})
            g = await change_game(self.ctx.store, g, {"updated_at": now}, events=[event])
        rows = await self.ctx.store.actions(g.id, number)
        try:
            state = self.ctx.replay_rows(g, rows)
            before = self.ctx.replay_rows(g, rows[:-1])
        except BrokenGame as broken:
            raise Refusal(
                "unreplayable",
                {"seq": broken.seq, "action": broken.action[:100]},
                game_id=g.id,
            ) from broken
        last, action = None, plain("")
        if rows:
            rules = engine.get_game(g.game)
            last = Last(before, rules.parse(before, rows[-1].action), rows[-1].roll)
            (action,) = rolls_said(g.game, before, rows[-1:])  # with its roll: what it did
        key = (
            "rewind."
            + ("after" if rows else "start")
            + ("_running" if g.status == "active" else "_over")
        )
        said = msg(
            key,
            moderator=actor.name,
            id=g.id,
            reason=why if _reason(reason) else msg("moderation.review"),
            number=number,
            action=action,
            player=texts.seat_msg(g, state.to_move),
            seq=g.seq,
        )
        text = say(said)
        theme, lang = await self.ctx.look(g.guild_id)
        view = BoardView(g.game, state, last, theme, g.names, None, lang=lang)
        image = await boards.png(self.ctx.renderer, view)
        return Reply(
            text=text,
            lines=[said],
            image=image,
            image_name=f"game-{g.id}-action-{number}.png",
            board=view,
            game_id=g.id,
            version=g.version,
            chain=g.last_hash,
        )

    async def resume(self, where: Where, actor: Actor, reason: str = "") -> Reply:
        """Unfreeze: every clock goes on from what it showed when the dispute froze it."""
        g, state = await self._moderating(where, actor, reason, need_reason=False, action="resume")
        if g.frozen_at is None:
            raise Refusal("not_frozen", game_id=g.id)
        now = self.ctx.now()
        paused = max(0.0, now - g.frozen_at)
        started = g.turn_started_at + paused
        spec = ClockSpec.parse(g.clock)
        changes = {
            "frozen_at": None,
            "turn_started_at": started,
            "deadline": spec.deadline(started, g.banks[state.to_move]),
            "updated_at": now,
        }
        why = _reason(reason, "no fault found")
        note = {"reason": why, "paused": round(paused, 3)}
        event = NewEvent("resume", now, user_id=actor.id, note=note)
        g = await self._change_kept(g, state, changes, event)
        said: dict[str, Any] = {
            "moderator": actor.name,
            "why": why if _reason(reason) else msg("moderation.no_fault_found"),
            "paused": texts.duration(paused),
        }
        code = "resumed"  # no clock: nothing goes on
        if spec.enabled:  # a pause under a second would read "0:00 paused": not told
            code = "resumed_clocks" if paused >= 1 else "resumed_clocks_at_once"
        shown = await board_reply(self.ctx, g, state, msg(f"notice.{code}", **said))
        shown.notice, shown.params = code, said
        return shown

    async def restore(self, where: Where, actor: Actor, number: int, reason: str) -> Reply:
        """By agreement: the game goes on from the position after action ``number``; the later
        actions leave the live line but stay in the log. The game is unfrozen; the clock
        banks stay as they are and the player to move starts a fresh turn."""
        g, _ = await self._moderating(where, actor, reason, need_reason=True, action="restore")
        if not 0 <= number < g.seq:
            raise Refusal("restore_out_of_range", {"last": g.seq - 1}, game_id=g.id)
        rows = await self.ctx.store.actions(g.id)
        keep, gone = rows[:number], rows[number:]
        try:
            state = self.ctx.replay_rows(g, keep)
        except BrokenGame as broken:
            raise Refusal(
                "unreplayable",
                {"seq": broken.seq, "action": broken.action[:100]},
                game_id=g.id,
            ) from broken
        rules = engine.get_game(g.game)
        now = self.ctx.now()
        spec = ClockSpec.parse(g.clock)
        changes: dict[str, Any] = {
            "seq": number,
            "position": rules.to_text(state),
            "ply": state.ply,
            "frozen_at": None,
            "pending": None,
            "pending_seat": None,
            "pending_at": None,
            "draw_offer": None,
            "takeback_offer": None,
            "turn_started_at": now,
            "deadline": spec.deadline(now, g.banks[state.to_move]),
            "updated_at": now,
        }
        if g.log_version < LOG_VERSION:  # the old chain covers the live line only
            changes["last_hash"] = keep[-1].hash if keep else chain.GENESIS
        why = _reason(reason)
        note = {"to": number, "undone": [a.action for a in gone], "reason": why}
        event = NewEvent("restore", now, user_id=actor.id, note=note)
        g = await self._change_kept(g, state, changes, event)
        said = {
            "moderator": actor.name,
            "number": number,
            "why": why,
            "undone": one_after_another(rolls_said(g.game, state, gone)),
            "n": len(gone),
        }
        shown = await board_reply(self.ctx, g, state, msg("notice.restored", **said))
        shown.notice, shown.params = "restored", said
        return shown

    async def void(self, where: Where, actor: Actor, reason: str) -> Reply:
        """End the game without a result and unrated (frozen or not), the reason logged."""
        g, state = await self._moderating(where, actor, reason, need_reason=True, action="void")
        why = _reason(reason)
        outcome = Outcome(Termination.ABORTED, None, f"voided by moderator {actor.name}: {why}")
        note = {"reason": why, "moderator": actor.name}
        return await self.ctx.end(g, state, outcome, actor, None, "void", note=note)

    # --- the moderators' role -----------------------------------------------------------------

    async def mod_role(self, where: Where) -> int | None:
        """The role a dispute notifies here (None: not set, or not in a server)."""
        if where.guild_id is None:
            return None
        return await self.ctx.store.mod_role(where.guild_id)

    async def set_mod_role(self, where: Where, actor: Actor, role_id: int | None) -> Reply:
        if not actor.is_moderator:
            raise Refusal("settings_moderators_only")
        if where.guild_id is None:
            raise Refusal("settings_need_server")
        await self.ctx.store.set_mod_role(where.guild_id, role_id, self.ctx.now())
        return notice(
            "mod_role_set" if role_id else "mod_role_cleared",
            {"role": role_id} if role_id else {},
            ephemeral=True,
        )


async def moderated(
    ctx: Context, where: Where, actor: Actor, reason: str, action: str
) -> tuple[GameRow, Any]:
    """The game a moderator ends and its position; refused to others, without a reason, or
    in a game the moderator plays in."""
    if not actor.is_moderator:
        raise Refusal("moderators_only")
    if not str(reason or "").strip():
        raise Refusal("reason_needed")
    g = await game_for_moderator(ctx, where)
    if g is None:
        raise await nothing_to_moderate(ctx, where)
    own_game(g, actor, action)
    return g, await state_or_last_good(ctx, g)


async def state_or_last_good(ctx: Context, g: GameRow) -> Any:
    """For moderators ending a game: its position, or for a broken game the last one that
    replays (None if none does), so a damaged log never keeps them from freeing the
    channel."""
    try:
        return await ctx.state(g)
    except BrokenGame as broken:
        ctx.broken_told.add(g.id)
        return broken.state


def own_game(g: GameRow, actor: Actor, action: str) -> None:
    """Nobody adjudicates a game they play in, moderator or not: another moderator must.
    The attempt is logged with who tried, and refused."""
    if g.seat_of(actor.id) is None:
        return
    log.warning(
        "moderator %s (%s) refused: %s of game %s, which they play in",
        actor.id,
        actor.name,
        action,
        g.id,
    )
    raise Refusal("own_game", game_id=g.id)


async def nothing_to_moderate(ctx: Context, where: Where) -> Refusal:
    """Why a moderator has no game to decide here: the game here (or this dispute thread's,
    ``Context.game_here``) has already ended, said with its result, so a second award or a
    void after an award is not answered "challenge someone"; the thread's game is no longer
    frozen (it is decided in its channel); else no game at all."""
    last = await ctx.game_here(where, None)
    if last is None:
        return Refusal("moderation_no_game")
    said = await ctx.ended_msg(last)
    if said is not None:
        return Refusal("moderation_game_over", {"outcome": said}, game_id=last.id)
    return Refusal("moderation_not_disputed", game_id=last.id)  # a thread's: its channel's


async def game_for_moderator(ctx: Context, where: Where) -> GameRow | None:
    """The channel's active game, or, in a dispute's private thread, the frozen game it was
    opened for (a thread no dispute noted: its channel's frozen game). A room's game that has
    ended is not traded for the game its channel plays next."""
    g = await ctx.store.active_game(where.channel_id)
    if g is None and where.parent_id is not None:
        room = await ctx.room_game(where)
        found = room if room is not None else await ctx.store.active_game(where.parent_id)
        if found is not None and found.status == "active" and found.frozen_at is not None:
            return found
    return g
