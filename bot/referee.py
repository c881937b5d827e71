"""The referee: every game command, transport-agnostic. Front ends call it and show its Reply.

Contract for front ends:
- Every method is ``async`` and returns a ``Reply`` (``legal_for`` a list, ``sweep`` notices,
  ``record`` a Reply with ``file``). A refusal is ``Reply(ok=False, ephemeral=True, text=reason)``
  and changes nothing. ``ok`` (landed) and ``ephemeral`` (private) are separate: ``ok=False,
  ephemeral=False`` means the command did not land but something public happened instead
  (the mover's flag had fallen): show it to the channel. Mistakes a user can make
  never raise; anything that does raise is a bug: log it with context, answer "something went
  wrong". The exception is ``bot.store.StoreUnavailable``: the file cannot be written right now
  (read-only, full, locked), nothing changed, the store logged it; answer ``texts.CANT_SAVE``.
- ``where`` picks the game: one active game per channel (a thread is a channel).
- Atmalof drops: ``act`` stores the announcement and answers with ``pending_roll=True``; show that
  reply, then call ``roll_pending(where)`` to roll and show the die. If the process dies in
  between, the next command in that channel (or ``sweep``) completes the roll first.
- Buttons: show ``reply.buttons``; on a click call ``press(where, actor, custom_id)``.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from typing import Any

import engine
import translations
from bot import commands, ladder_store, texts
from bot.disputes import Disputes
from bot.endings import Endings
from bot.forget import forget_guild
from bot.imports import Imports
from bot.ladder_service import Ladders, ladder_setting_problem, ladder_setting_text
from bot.lifecycle import Challenges
from bot.records import VERIFY_HINT, check_stored, iso, stored_record
from bot.referee_core import (
    HISTORY_PAGE,
    MAX_CHOICES,
    REQUESTS_KEPT_FOR,
    REQUESTS_PRUNED_PER_SWEEP,
    STALE_ROLL_AFTER,
    BrokenGame,
    RefereeCore,
    known_themes,
    lost_turn,
    once_per_request,
    reply_from,
    where_of,
)
from bot.replies import (
    Actor,
    ButtonKind,
    Notice,
    Reply,
    Where,
    parse_button,
    parse_custom_id,
    refusal,
)
from bot.store import (
    NewAction,
    StoreUnavailable,
)
from engine import EngineError, Outcome, ParseError, Termination, chain

log = logging.getLogger(__name__)

CONFIRM_WORD = "confirm"  # "drop row 4 confirm": announce a drop that can only lose the turn
DROP_ARG = re.compile(r"(row|col)([0-9]{1,2})")  # a Confirm button's line: "row4", "col12"


class Referee(Challenges, Endings, Ladders, Disputes, Imports, RefereeCore):
    """Runs games for front ends over a ``Store``.

    ``render``: True renders board PNGs with ``render.board_png`` in a worker thread, False
    never renders (benchmarks, tests), or a callable ``(BoardView) -> bytes``.
    ``challenge_ttl``: seconds a challenge waits (default 10 minutes).
    ``abandon_after``: seconds without a move, in a game without a clock, after which the
    opponent may ``claim`` the win (default 72 hours).
    ``per_user_limits``: at most ``bot.limits`` challenges waiting and games running per user
    (default on; tests that stage many games for one person switch it off).
    ``positions_kept``: how many games' positions stay in memory (least recently used go first;
    any other is replayed from the store when needed).

    Commands live by concept: challenges in ``bot.lifecycle``, endings in ``bot.endings``,
    shared machinery in ``bot.referee_core``; play, proof and upkeep here.
    """

    # --- play -------------------------------------------------------------------------------

    async def act(
        self,
        where: Where,
        actor: Actor,
        text: str,
        *,
        request_id: str | None = None,
        version: int | None = None,
    ) -> Reply:
        """Play ``text`` in the game's notation ("drop row 4", "move d7 d6 x b6", "push a1 a3 ne").

        A drop into a full Atmalof line can only lose the turn: it is announced only when
        confirmed ("drop row 4 confirm", or the Confirm button), else the answer asks first.
        A repeated ``request_id`` gets the first answer again and changes nothing; ``version``
        (from a button) refuses a click on a position the game has moved on from.
        """
        if request_id is not None:
            earlier = await self.store.request_reply(request_id)
            if earlier is not None:
                return reply_from(earlier)
        words = str(text).split()
        confirmed = len(words) > 1 and words[-1].lower() == CONFIRM_WORD
        if confirmed:
            text = " ".join(words[:-1])
        loaded = await self._playing(where, actor, version=version)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        rules = engine.get_game(g.game)
        if seat != state.to_move:
            try:
                rules.parse(state, text)
            except ParseError as exc:  # not a command of this game at all: say that first
                return refusal(str(exc), game_id=g.id, version=g.version)
            except EngineError:  # a real command, only not now: the turn is the reason
                pass
            return refusal(
                f"it is {texts.seat_label(g, rules.side_names, state.to_move)}'s turn, not yours",
                game_id=g.id,
                version=g.version,
            )
        try:
            action = rules.parse(state, text)
        except EngineError as exc:
            return refusal(str(exc), game_id=g.id, version=g.version)
        now = self._now()
        notation = rules.notation(state, action)
        if rules.die_faces(state, action) is not None:
            if not confirmed and self._futile(g, state, action):
                return self._confirm_first(g, state, actor, notation, prefix)
            return await self._announce(g, state, seat, actor, notation, now, request_id, prefix)
        after = rules.apply(state, action)
        said = rules.describe(state, action, None)
        entry = NewAction(seat, str(actor.id), notation, None, iso(now))
        return await self._commit_move(
            g, state, after, action, entry, said, now, request_id, prefix, t_end=now
        )

    async def roll_pending(self, where: Where, *, game_id: int | None = None) -> Reply:
        """Roll the die for a stored Atmalof announcement and apply the drop."""
        g = await (
            self.store.game(game_id) if game_id else self.store.active_game(where.channel_id)
        )
        if g is None or g.status != "active":
            return refusal(texts.NO_GAME)
        if g.pending is None:
            return refusal("no roll is waiting", game_id=g.id, version=g.version)
        try:
            return await self._complete_roll(g)
        except BrokenGame as broken:
            return self._broken_reply(g, broken)

    async def legal_moves(self, where: Where, actor: Actor) -> list[str]:
        """Every legal action's notation, in the engine's order, if ``actor`` is to move now
        (else none); the console lists them a page at a time (``legal_for`` stops at 25)."""
        g = await self.store.active_game(where.channel_id)
        if g is None or g.pending is not None or g.seat_of(actor.id) is None or g.frozen_at:
            return []
        try:
            state = await self._state(g)
        except BrokenGame:  # logged and told once by the load path
            return []
        if g.players[state.to_move] != actor.id:
            return []
        rules = engine.get_game(g.game)
        return [rules.notation(state, a) for a in rules.legal(state)]

    async def board(self, where: Where) -> Reply:
        """The current position of the channel's game (or its latest finished game)."""
        g = await self.store.latest_game(where.channel_id)
        if g is None:
            return refusal(texts.NO_GAME)
        try:
            if g.status == "active" and g.pending is not None:
                done = await self._complete_roll(g)  # the roll's sentence above the board
                if done.ok:
                    return done
                g = await self.store.game(g.id) or g  # someone else rolled it meanwhile
            state = await self._state(g)
        except BrokenGame as broken:
            return self._broken_reply(g, broken)
        changed = texts.options_line(g.game, g.variant, g.options, g.clock)
        return await self._board_reply(g, state, changed or "")

    async def legal_for(
        self, where: Where, actor: Actor, prefix: str = "", *, limit: int | None = MAX_CHOICES
    ) -> list[str]:
        """Autocomplete: notations of the legal actions, if ``actor`` is to move; at most
        ``limit`` (None: all of them, for a front end that says how many more there are).

        Those starting with ``prefix`` come first, then those merely containing it.
        """
        g = await self.store.active_game(where.channel_id)
        if g is None or g.pending is not None or g.seat_of(actor.id) is None or g.frozen_at:
            return []
        try:
            state = await self._state(g)
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

    # --- proof ------------------------------------------------------------------------------

    async def history(self, where: Where, page: int = 1, *, game_id: int | None = None) -> Reply:
        """The game's moves with their times, ``HISTORY_PAGE`` to a page (1 is the first)."""
        g = await self._game_here(where, game_id)
        if g is None:
            return refusal(texts.NO_GAME)
        rows = await self.store.actions(g.id)
        sides = engine.get_game(g.game).side_names
        pages = max(1, -(-len(rows) // HISTORY_PAGE))
        page = min(max(1, int(page)), pages)
        chunk = rows[(page - 1) * HISTORY_PAGE : page * HISTORY_PAGE]
        lost = self._lost_turns(g, rows) if any(a.roll is not None for a in chunk) else set()
        lines = [f"Game {g.id}: {texts.players_line(g, sides)} (page {page} of {pages})"]
        for a in chunk:
            roll = f", rolled {a.roll}" if a.roll is not None else ""
            if a.seq in lost:
                roll += ": the square was taken, the turn lost"
            lines.append(f"{a.seq}. {sides[a.side]}: {a.action}{roll} ({a.at[11:19]} UTC)")
        if not rows:
            lines.append("No moves yet.")
        if g.pending:
            lines.append(f"Announced, roll pending: {g.pending}")
        lines.append(f"Log head #{chain.short(g.last_hash)}")
        return Reply(text="\n".join(lines), game_id=g.id, version=g.version, chain=g.last_hash)

    @staticmethod
    def _lost_turns(g: Any, rows: list[Any]) -> set[int]:
        """The seqs of the drops that landed on a taken square (replayed from the log)."""
        rules = engine.get_game(g.game)
        state = rules.new(g.variant, **json.loads(g.options))
        lost = set()
        for row in rows:
            after = rules.apply(state, rules.parse(state, row.action), row.roll)
            if lost_turn(state, after, row.roll):
                lost.add(row.seq)
            state = after
        return lost

    async def record(self, where: Where, *, game_id: int | None = None) -> Reply:
        """The game's record as JSON in ``reply.file`` (seed included once the game is over)."""
        g = await self._game_here(where, game_id)
        if g is None:
            return refusal(texts.NO_GAME)
        data = (await stored_record(self.store, g)).to_json().encode()
        note = "" if g.status != "active" else " (the dice seed is added when the game ends)"
        changed = texts.options_line(g.game, g.variant, g.options, g.clock)
        return Reply(
            text=f"The record of game {g.id}{note}. Check it with: {VERIFY_HINT}"
            + (f"\n{changed}" if changed else ""),
            file=data,
            file_name=f"game-{g.id}.json",
            game_id=g.id,
            version=g.version,
            chain=g.last_hash,
        )

    async def verify(self, where: Where, *, game_id: int | None = None) -> Reply:
        """Replay the stored log with the engine, recheck rolls (after the end) and the chain."""
        g = await self._game_here(where, game_id)
        if g is None:
            return refusal(texts.NO_GAME)
        verdict = await check_stored(self.store, g)
        lines = [("Verified: " if verdict.ok else "Problem: ") + verdict.reason]
        lines += [f"- {d}" for d in verdict.details]
        return Reply(
            text="\n".join(lines), ok=True, game_id=g.id, version=g.version, chain=g.last_hash
        )

    # --- settings, buttons, upkeep ----------------------------------------------------------

    async def settings(self, where: Where) -> dict[str, Any]:
        """This guild's settings: {"theme": name or None, "ladder": {...}}."""
        if where.guild_id is None:
            return {"theme": None, "ladder": {}, "takebacks": True, "language": None}
        return await self.store.guild_settings(where.guild_id)

    async def language(self, where: Where, user_id: int | None, locale: str | None = None) -> str:
        """The language of a private reply to ``user_id`` (``translations.choose``): their own
        choice, else their client's ``locale`` where we have it, else the server's."""
        user = None if user_id is None else await self.store.user_language(user_id)
        server = (await self.settings(where)).get("language")
        return translations.choose(user=user, locale=locale, server=server)

    async def set_language(self, where: Where, actor: Actor, code: str | None) -> Reply:
        """A user's own language for private replies; None forgets it."""
        try:
            lang = None if code is None else translations.language(code)
        except translations.UnknownLanguage as exc:
            return refusal(str(exc))
        await self.store.set_user_language(actor.id, lang, self._now())
        if lang is None:
            text = "Your language now follows your Discord client, else the server's."
            return Reply(text=text, ephemeral=True)
        return Reply(text=f"Your language is now {translations.NAMES[lang]}.", ephemeral=True)

    async def set_setting(self, where: Where, actor: Actor, key: str, value: Any) -> Reply:
        """Moderators only; keys: "theme" (a name render knows), "ladder" (a dict),
        "takebacks" (a bool: casual games may take back a move by consent)."""
        if not actor.is_moderator:
            return refusal("only moderators can change this server's settings")
        if where.guild_id is None:
            return refusal("settings belong to a server")
        if key == "theme":
            themes = known_themes()
            if themes and value not in themes:
                return refusal(f"unknown theme {value!r}: choose one of {', '.join(themes)}")
            await self.store.set_guild_settings(where.guild_id, self._now(), theme=str(value))
        elif key == "ladder" and isinstance(value, Mapping):
            problem = ladder_setting_problem(value)
            if problem:
                return refusal(problem)
            await ladder_store.set_ladder_setting(self.store, where.guild_id, value, self._now())
            return Reply(text=f"Ladders on this server: {ladder_setting_text(value)}.")
        elif key == "language":
            try:
                lang = translations.language(str(value))
            except translations.UnknownLanguage as exc:
                return refusal(str(exc))
            await self.store.set_guild_language(where.guild_id, lang, self._now())
            return Reply(text=f"Server language: {translations.NAMES[lang]}.")
        elif key == "takebacks" and isinstance(value, bool):
            await self.store.set_takebacks(where.guild_id, value, self._now())
            return Reply(text=texts.takebacks_setting_text(value))
        else:
            return refusal(f"there is no setting {key!r} (try theme)")
        return Reply(text=f"Server setting {key} is now {value}.")

    async def forget_server(self, where: Where, actor: Actor) -> Reply:
        """Moderators: remove this server's data (``bot.forget``; docs/privacy.md)."""
        if not actor.is_moderator:
            return refusal("only moderators can remove this server's data")
        if where.guild_id is None:
            return refusal("only a server's data can be removed this way")
        report = await forget_guild(self.store, where.guild_id)
        for game_id in report.game_ids:
            self._states.pop(game_id, None)
        return Reply(text="\n".join(report.lines()), ephemeral=True)

    @once_per_request
    async def press(
        self, where: Where, actor: Actor, custom_id: str, *, request_id: str | None = None
    ) -> Reply:
        """A button click (custom_id from ``ButtonSpec``); stale versions are refused politely.

        A repeated ``request_id`` (the interaction id) gets the first answer again.
        """
        parsed = parse_custom_id(custom_id)
        if parsed is None:
            return refusal("that button is not one of mine")
        kind, target, version = parsed
        if kind is ButtonKind.ACCEPT:
            return await self.accept(where, actor, target)
        if kind is ButtonKind.DECLINE:
            return await self.decline(where, actor, target)
        if kind is ButtonKind.REMATCH:
            return await self.rematch(where, actor, target)
        g = await self.store.game(target)
        if g is None or g.status != "active" or g.channel_id != where.channel_id:
            return refusal("that game is over or elsewhere")
        if g.version != version:
            return refusal(texts.MOVED_ON, game_id=g.id, version=g.version)
        if kind is ButtonKind.DROP_CONFIRM:
            line = DROP_ARG.fullmatch(parse_button(custom_id)[3])  # type: ignore[index]
            if line is None:
                return refusal("that button is not one of mine")
            drop = f"drop {line[1]} {line[2]} {CONFIRM_WORD}"
            return await self.act(where, actor, drop, version=version)
        if kind is ButtonKind.DROP_CANCEL:
            text = "Nothing was announced: it is still your turn."
            return Reply(text=text, ephemeral=True, game_id=g.id, version=g.version)
        accept = kind in (ButtonKind.DRAW_ACCEPT, ButtonKind.TAKEBACK_ACCEPT)
        if kind in (ButtonKind.DRAW_ACCEPT, ButtonKind.DRAW_DECLINE):
            return await self.answer_draw(where, actor, accept, version=version)
        return await self.answer_takeback(where, actor, accept, version=version)

    async def sweep(self, now: float | None = None) -> list[Notice]:
        """End games whose flag fell, finish stale rolls, expire challenges; notices to post.

        Call it every few seconds; it is cheap when there is nothing to do.
        """
        now = self._now() if now is None else now
        notices: list[Notice] = []
        for g in await self.store.overdue_games(now):
            try:
                state = await self._state(g)
            except BrokenGame as broken:  # the flag cannot be judged: tell the channel, once
                if g.id not in self._broken:
                    notices.append(Notice(where_of(g), self._broken_reply(g, broken)))
                continue
            loser = state.to_move
            sides = engine.get_game(g.game).side_names
            outcome = Outcome(Termination.TIMEOUT, 1 - loser, f"{sides[loser]} ran out of time")
            reply = await self._end(g, state, outcome, None, None, "timeout", at=now)
            if reply.ok:
                notices.append(Notice(where_of(g), reply))
        for g in await self.store.stale_rolls(now - STALE_ROLL_AFTER):
            try:
                reply = await self._complete_roll(g)
            except BrokenGame as broken:
                if g.id not in self._broken:
                    notices.append(Notice(where_of(g), self._broken_reply(g, broken)))
                continue
            if reply.ok:
                notices.append(Notice(where_of(g), reply))
        for c in await self.store.expired_challenges(now):
            if await self.store.close_challenge(c.id, "expired"):
                text = f"{c.challenger_name}'s challenge to {c.opponent_name or 'anyone'} expired."
                where = Where(c.guild_id, c.channel_id, c.parent_id)
                notices.append(Notice(where, Reply(text=text, challenge_id=c.id)))
        await self.store.prune_requests(now - REQUESTS_KEPT_FOR, REQUESTS_PRUNED_PER_SWEEP)
        return notices

    async def handle(
        self, where: Where, actor: Actor, text: str, *, people: Mapping[str, Actor] | None = None
    ) -> Reply:
        """Console-style text: "challenge bob atmalof", "accept", "drop row 4", "resign", "help".

        ``people`` maps names to actors for "challenge <name>".
        """
        try:
            return await commands.dispatch(self, where, actor, text, people or {})
        except StoreUnavailable:  # logged by the store; nothing was changed
            return refusal(texts.CANT_SAVE)
