"""The referee: every game command, transport-agnostic. Front ends call it and show its Reply.

Contract for front ends:
- Every method is ``async`` and returns a ``Reply`` (``legal_for`` a list, ``sweep`` notices,
  ``record`` a Reply with ``file``). A refusal is ``Reply(ok=False, ephemeral=True, text=reason)``
  and changes nothing. (``ok=False, ephemeral=False`` means the command did not land but
  something public happened instead, e.g. the mover's flag had fallen.) Mistakes a user can make
  never raise; anything that does raise is a bug: log it with context, answer "something went
  wrong".
- ``where`` picks the game: one active game per channel (a thread is a channel).
- Atmalof drops: ``act`` stores the announcement and answers with ``pending_roll=True``; show that
  reply, then call ``roll_pending(where)`` to roll and show the die. If the process dies in
  between, the next command in that channel (or ``sweep``) completes the roll first.
- Buttons: show ``reply.buttons``; on a click call ``press(where, actor, custom_id)``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import engine
from bot import boards, commands, texts
from bot.boards import BoardView, Renderer
from bot.clock import Clock, ClockSpec, ClockSpecError, SystemClock, format_seconds
from bot.records import TOSS_ANNOUNCEMENT, TOSS_NUMBER, iso, outcome_of, record_json, verify_game
from bot.replies import (
    Actor,
    ButtonKind,
    ButtonSpec,
    Notice,
    Reply,
    Where,
    parse_custom_id,
    refusal,
)
from bot.store import (
    ChallengeRow,
    ChannelBusy,
    GameMovedOn,
    GameRow,
    NewAction,
    NewEvent,
    Store,
)
from engine import EngineError, Outcome, Termination, chain, dice

log = logging.getLogger(__name__)

STARTERS = ("me", "them", "random")
HISTORY_PAGE = 20
MAX_CHOICES = 25
MAX_REASON = 300
STALE_ROLL_AFTER = 5.0  # seconds after which the sweeper completes an announced roll itself


class Referee:
    """Runs games for front ends over a ``Store``.

    ``render``: True renders board PNGs with ``render.board_png`` in a worker thread, False
    never renders (benchmarks, tests), or a callable ``(BoardView) -> bytes``.
    ``challenge_ttl``: seconds a challenge waits (default 10 minutes).
    ``abandon_after``: seconds without a move, in a game without a clock, after which the
    opponent may ``claim`` the win (default 72 hours).
    """

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        render: bool | Renderer = True,
        *,
        challenge_ttl: float = 600.0,
        abandon_after: float = 72 * 3600.0,
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        if render is True:
            self._renderer: Renderer | None = boards.default_renderer()
        else:
            self._renderer = render or None
        self.challenge_ttl = challenge_ttl
        self.abandon_after = abandon_after
        self._states: dict[int, tuple[str, Any]] = {}  # game id -> (chain head, state)

    # --- challenges -------------------------------------------------------------------------

    async def challenge(
        self,
        where: Where,
        actor: Actor,
        game: str,
        *,
        opponent: Actor | None = None,
        variant: str = "standard",
        options: Mapping[str, Any] | None = None,
        rated: bool = False,
        clock: str = "none",
        starter: str = "random",
        rematch_of: int | None = None,
    ) -> Reply:
        """Challenge ``opponent`` (None: an open challenge anyone may accept) in this channel.

        ``starter``: "me" (the challenger moves first), "them", or "random" (a coin toss with the
        game's verifiable dice, shown when the game starts). ``clock``: "none", "10+0", "15+5",
        "24h". The reply carries Accept/Decline buttons and ``challenge_id``.
        """
        if actor.is_bot:
            return refusal("bots cannot play")
        if opponent is not None and opponent.is_bot:
            return refusal(f"{opponent.name} is a bot and cannot play")
        if opponent is not None and opponent.id == actor.id:
            return refusal("you cannot challenge yourself: challenge someone else, or anyone")
        if starter not in STARTERS:
            return refusal("who starts must be me, them or random")
        try:
            rules = engine.get_game(game)
            state = rules.new(variant, **dict(options or {}))
            spec = ClockSpec.parse(clock)
        except (EngineError, ClockSpecError) as exc:
            return refusal(str(exc))
        except TypeError as exc:
            return refusal(f"those options do not fit {game}: {exc}")
        full_options = rules.options(state)
        now = self._now()
        row = {
            "guild_id": where.guild_id,
            "channel_id": where.channel_id,
            "parent_id": where.parent_id,
            "challenger_id": actor.id,
            "opponent_id": opponent.id if opponent else None,
            "game": rules.name,
            "variant": state.variant,
            "options": json.dumps(full_options, sort_keys=True),
            "rated": int(bool(rated)),
            "clock": spec.text,
            "starter": starter,
            "created_at": now,
            "expires_at": now + self.challenge_ttl,
            "rematch_of": rematch_of,
        }
        people = [(actor.id, actor.name)] + ([(opponent.id, opponent.name)] if opponent else [])
        try:
            cid = await self.store.create_challenge(row, people, now)
        except ChannelBusy:
            return refusal(
                "this channel is busy: a game or a challenge is already here. Finish it, or "
                "play in another channel or a thread"
            )
        whom = opponent.name if opponent else "anyone"
        first = {"me": f"{actor.name} moves first", "them": f"{whom} moves first"}.get(
            starter, "a coin toss decides who moves first"
        )
        text = (
            f"{actor.name} challenges {whom} to {rules.title} ({state.variant}, "
            f"{'rated' if rated else 'casual'}, clock {spec.text}); {first}. "
            f"The challenge expires in {int(self.challenge_ttl // 60)} minutes."
        )
        return Reply(
            text=text,
            challenge_id=cid,
            mentions=[opponent.id] if opponent else [],
            buttons=[
                ButtonSpec("Accept", ButtonKind.ACCEPT, cid, 0, "success"),
                ButtonSpec("Decline", ButtonKind.DECLINE, cid, 0, "danger"),
            ],
        )

    async def accept(self, where: Where, actor: Actor, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (None: the one waiting in this channel); starts the game here."""
        c = await self._find_challenge(where, challenge_id)
        if c is None:
            return refusal("there is no challenge waiting here")
        now = self._now()
        problem = await self._challenge_closed(c, now)
        if problem:
            return refusal(problem)
        if actor.is_bot:
            return refusal("bots cannot play")
        if actor.id == c.challenger_id:
            return refusal("you cannot accept your own challenge (decline withdraws it)")
        if c.opponent_id is not None and actor.id != c.opponent_id:
            return refusal(f"this challenge is for {c.opponent_name}")
        rules = engine.get_game(c.game)
        state = rules.new(c.variant, **json.loads(c.options))
        seed = dice.new_seed()
        spec = ClockSpec.parse(c.clock)
        toss: list[int | None] = [None]

        def build(game_id: int) -> tuple[dict[str, Any], NewEvent]:
            if c.starter == "random":
                toss[0] = dice.roll(seed, str(game_id), TOSS_NUMBER, TOSS_ANNOUNCEMENT, 2)
                challenger_first = toss[0] == 1
            else:
                challenger_first = c.starter == "me"
            seats = (c.challenger_id, actor.id) if challenger_first else (actor.id, c.challenger_id)
            bank0, bank1 = spec.start_banks()
            columns = {
                "guild_id": where.guild_id,
                "channel_id": where.channel_id,
                "parent_id": where.parent_id,
                "game": c.game,
                "variant": c.variant,
                "options": c.options,
                "rated": c.rated,
                "clock": c.clock,
                "player0": seats[0],
                "player1": seats[1],
                "position": rules.to_text(state),
                "seed": seed,
                "commitment": dice.commitment(seed),
                "toss": toss[0],
                "created_at": now,
                "updated_at": now,
                "turn_started_at": now,
                "bank0": bank0,
                "bank1": bank1,
                "deadline": spec.deadline(now, bank0),
                "rematch_of": c.rematch_of,
            }
            start = NewEvent(
                "start",
                now,
                user_id=actor.id,
                note={
                    "challenge": c.id,
                    "players": list(seats),
                    "commitment": columns["commitment"],
                    "toss": toss[0],
                },
            )
            return columns, start

        try:
            g = await self.store.start_game(
                c.id, [(c.challenger_id, c.challenger_name), (actor.id, actor.name)], build, now
            )
        except GameMovedOn:
            return refusal("that challenge was already answered")
        except ChannelBusy:
            return refusal("a game is already running here: play in another channel or thread")
        self._states[g.id] = (g.last_hash, state)
        sides = rules.side_names
        lines = [f"{rules.title} ({g.variant}): {texts.players_line(g, sides)}."]
        if toss[0] is not None:
            lines.append(f"Coin toss (verifiable roll 0 of this game): {g.names[0]} moves first.")
        lines.append(
            f"Dice commitment (SHA-256 of the secret seed): {g.commitment}. "
            "The seed is revealed when the game ends."
        )
        return await self._board_reply(g, state, "\n".join(lines), ok=True)

    async def decline(self, where: Where, actor: Actor, challenge_id: int | None = None) -> Reply:
        """Decline a challenge addressed to you, or withdraw your own."""
        c = await self._find_challenge(where, challenge_id)
        if c is None:
            return refusal("there is no challenge waiting here")
        problem = await self._challenge_closed(c, self._now())
        if problem:
            return refusal(problem)
        if actor.id == c.challenger_id:
            status, text = "withdrawn", f"{actor.name} withdrew the challenge."
        elif c.opponent_id is None or actor.id == c.opponent_id:
            if c.opponent_id is None:
                return refusal("an open challenge is not declined: just leave it, it will expire")
            status, text = "declined", f"{actor.name} declined {c.challenger_name}'s challenge."
        else:
            return refusal(f"this challenge is for {c.opponent_name}")
        if not await self.store.close_challenge(c.id, status):
            return refusal("that challenge was already answered")
        return Reply(text=text, challenge_id=c.id)

    async def rematch(self, where: Where, actor: Actor, game_id: int | None = None) -> Reply:
        """Challenge the other player of the latest finished game here, starter swapped.

        If the other player already asked for the rematch, this accepts it.
        """
        g = await (
            self.store.game(game_id) if game_id else self.store.latest_game(where.channel_id)
        )
        if g is None or g.status == "active":
            return refusal("a rematch follows a finished game; none here yet")
        seat = g.seat_of(actor.id)
        if seat is None:
            return refusal(texts.NOT_A_PLAYER.format(players=" vs ".join(g.names)))
        waiting = await self.store.open_challenge(where.channel_id)
        if waiting is not None and waiting.rematch_of == g.id:
            if waiting.challenger_id != actor.id:
                return await self.accept(where, actor, waiting.id)
            return refusal("you already asked for a rematch; waiting for the answer")
        other = 1 - seat
        opponent = Actor(g.players[other], g.names[other])
        return await self.challenge(
            where,
            actor,
            g.game,
            opponent=opponent,
            variant=g.variant,
            options=json.loads(g.options),
            rated=bool(g.rated),
            clock=g.clock,
            starter="me" if seat == 1 else "them",  # the second player starts the rematch
            rematch_of=g.id,
        )

    # --- play -------------------------------------------------------------------------------

    async def act(
        self, where: Where, actor: Actor, text: str, *, request_id: str | None = None
    ) -> Reply:
        """Play ``text`` in the game's notation ("drop row 4", "move d7 d6 x b6", "push a1 a3 ne").

        A repeated ``request_id`` gets the first answer again and changes nothing.
        """
        if request_id is not None:
            earlier = await self.store.request_reply(request_id)
            if earlier is not None:
                return _reply_from(earlier)
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        rules = engine.get_game(g.game)
        if seat != state.to_move:
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
        return await self._complete_roll(g)

    async def board(self, where: Where) -> Reply:
        """The current position of the channel's game (or its latest finished game)."""
        g = await self.store.latest_game(where.channel_id)
        if g is None:
            return refusal(texts.NO_GAME)
        prefix = ""
        if g.status == "active" and g.pending is not None:
            done = await self._complete_roll(g)
            g = await self.store.game(g.id) or g
            prefix = done.text + "\n"
        state = await self._state(g)
        return await self._board_reply(g, state, prefix.rstrip())

    async def legal_for(self, where: Where, actor: Actor, prefix: str = "") -> list[str]:
        """Autocomplete: notations of the legal actions, if ``actor`` is to move; at most 25.

        Those starting with ``prefix`` come first, then those merely containing it.
        """
        g = await self.store.active_game(where.channel_id)
        if g is None or g.pending is not None or g.seat_of(actor.id) is None:
            return []
        state = await self._state(g)
        if g.players[state.to_move] != actor.id:
            return []
        rules = engine.get_game(g.game)
        wanted = " ".join(str(prefix).lower().split())[:100]
        names = [rules.notation(state, a) for a in rules.legal(state)]
        first = [n for n in names if n.startswith(wanted)]
        then = [n for n in names if wanted in n and not n.startswith(wanted)]
        return (first + then)[:MAX_CHOICES]

    # --- endings ----------------------------------------------------------------------------

    async def resign(self, where: Where, actor: Actor) -> Reply:
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        sides = engine.get_game(g.game).side_names
        outcome = Outcome(Termination.RESIGNATION, 1 - seat, f"{sides[seat]} resigned")
        return await self._end(g, state, outcome, actor, seat, "resign", prefix=prefix)

    async def offer_draw(self, where: Where, actor: Actor) -> Reply:
        """Offer a draw (accepts one already offered to you). Lapses when the offerer moves."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        if g.draw_offer == 1 - seat:
            return await self._agree_draw(g, state, actor, seat, prefix)
        if g.draw_offer == seat:
            return refusal("you have already offered a draw", game_id=g.id, version=g.version)
        try:
            g = await self.store.change_game(g, {"draw_offer": seat, "updated_at": self._now()})
        except GameMovedOn:
            return refusal(texts.MOVED_ON)
        other = 1 - seat
        return Reply(
            text=f"{prefix}{actor.name} offers a draw. {g.names[other]}, accept or decline?",
            game_id=g.id,
            version=g.version,
            mentions=[g.players[other]],
            buttons=[
                ButtonSpec("Accept draw", ButtonKind.DRAW_ACCEPT, g.id, g.version, "success"),
                ButtonSpec("Decline", ButtonKind.DRAW_DECLINE, g.id, g.version, "secondary"),
            ],
        )

    async def answer_draw(
        self, where: Where, actor: Actor, accept: bool, *, version: int | None = None
    ) -> Reply:
        """Accept or decline the draw your opponent offered (``version``: from the button)."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        if version is not None and version != g.version:
            return refusal(texts.MOVED_ON, game_id=g.id, version=g.version)
        if g.draw_offer != 1 - seat:
            return refusal("there is no draw offer for you to answer", game_id=g.id)
        if accept:
            return await self._agree_draw(g, state, actor, seat, prefix)
        try:
            g = await self.store.change_game(g, {"draw_offer": None, "updated_at": self._now()})
        except GameMovedOn:
            return refusal(texts.MOVED_ON)
        return Reply(
            text=f"{prefix}{actor.name} declines the draw.", game_id=g.id, version=g.version
        )

    async def request_takeback(self, where: Where, actor: Actor) -> Reply:
        """Ask to take back your last turn (and the reply to it); never across a die roll."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, _state, seat, prefix = loaded
        undo = await self._takeback_span(g, seat)
        if isinstance(undo, str):
            return refusal(undo, game_id=g.id, version=g.version)
        if g.takeback_offer == seat:
            return refusal("you have already asked for a takeback", game_id=g.id)
        try:
            g = await self.store.change_game(g, {"takeback_offer": seat, "updated_at": self._now()})
        except GameMovedOn:
            return refusal(texts.MOVED_ON)
        other = 1 - seat
        moves = ", ".join(a.action for a in undo[1])
        return Reply(
            text=(
                f"{prefix}{actor.name} asks to take back: {moves}. "
                f"{g.names[other]}, accept or decline?"
            ),
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

    async def answer_takeback(
        self, where: Where, actor: Actor, accept: bool, *, version: int | None = None
    ) -> Reply:
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, _state, seat, prefix = loaded
        if version is not None and version != g.version:
            return refusal(texts.MOVED_ON, game_id=g.id, version=g.version)
        asker = g.takeback_offer
        if asker != 1 - seat:
            return refusal("there is no takeback request for you to answer", game_id=g.id)
        now = self._now()
        if not accept:
            try:
                g = await self.store.change_game(g, {"takeback_offer": None, "updated_at": now})
            except GameMovedOn:
                return refusal(texts.MOVED_ON)
            return Reply(
                text=f"{prefix}{actor.name} refuses the takeback.", game_id=g.id, version=g.version
            )
        undo = await self._takeback_span(g, asker)
        if isinstance(undo, str):
            return refusal(undo, game_id=g.id, version=g.version)
        keep, gone = undo
        rules = engine.get_game(g.game)
        state = self._replay_rows(g, keep)
        spec = ClockSpec.parse(g.clock)
        bank = g.banks[state.to_move]
        changes = {
            "seq": len(keep),
            "last_hash": keep[-1].hash if keep else chain.GENESIS,
            "position": rules.to_text(state),
            "ply": state.ply,
            "takeback_offer": None,
            "draw_offer": None,
            "turn_started_at": now,
            "deadline": spec.deadline(now, bank),
            "updated_at": now,
        }
        event = NewEvent(
            "takeback", now, seat=asker, user_id=actor.id, note={"undone": [a.action for a in gone]}
        )
        try:
            g = await self.store.change_game(g, changes, events=[event])
        except GameMovedOn:
            return refusal(texts.MOVED_ON)
        self._states[g.id] = (g.last_hash, state)
        moves = ", ".join(a.action for a in gone)
        return await self._board_reply(g, state, f"{prefix}Takeback accepted: {moves} undone.")

    async def abort(self, where: Where, actor: Actor) -> Reply:
        """End the game unrated, allowed until both sides have moved."""
        loaded = await self._playing(where, actor)
        if isinstance(loaded, Reply):
            return loaded
        g, state, seat, prefix = loaded
        if g.moved == 3:
            return refusal(
                "too late to abort: both sides have moved. Resign or offer a draw instead",
                game_id=g.id,
            )
        outcome = Outcome(Termination.ABORTED, None, f"aborted by {actor.name} before both moved")
        return await self._end(g, state, outcome, actor, seat, "abort", prefix=prefix)

    async def claim(self, where: Where, actor: Actor) -> Reply:
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
        g, state, problem = await self._moderated(where, actor, reason)
        if problem:
            return problem
        text = f"aborted by moderator {actor.name}: {reason.strip()[:MAX_REASON]}"
        outcome = Outcome(Termination.ABORTED, None, text)
        return await self._end(g, state, outcome, actor, None, "abort", note={"reason": reason})

    async def award(self, where: Where, actor: Actor, winner: Actor | None, reason: str) -> Reply:
        """A moderator decides the game: ``winner`` a player of it, or None for a draw."""
        g, state, problem = await self._moderated(where, actor, reason)
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
        lines = [f"Game {g.id}: {texts.players_line(g, sides)} (page {page} of {pages})"]
        for a in chunk:
            roll = f", rolled {a.roll}" if a.roll is not None else ""
            lines.append(f"{a.seq}. {sides[a.side]}: {a.action}{roll} ({a.at[11:19]} UTC)")
        if not rows:
            lines.append("No moves yet.")
        if g.pending:
            lines.append(f"Announced, roll pending: {g.pending}")
        lines.append(f"Log head #{chain.short(g.last_hash)}")
        return Reply(text="\n".join(lines), game_id=g.id, version=g.version, chain=g.last_hash)

    async def record(self, where: Where, *, game_id: int | None = None) -> Reply:
        """The game's record as JSON in ``reply.file`` (seed included once the game is over)."""
        g = await self._game_here(where, game_id)
        if g is None:
            return refusal(texts.NO_GAME)
        data = record_json(g, await self.store.actions(g.id), await self.store.events(g.id))
        note = "" if g.status != "active" else " (the dice seed is added when the game ends)"
        return Reply(
            text=f"The record of game {g.id}{note}. Check it with: python -m engine.verify FILE",
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
        verdict, extra = verify_game(
            g, await self.store.actions(g.id), await self.store.events(g.id)
        )
        ok = verdict.ok and not any("but" in e for e in extra)
        lines = [("Verified: " if ok else "Problem: ") + verdict.reason]
        lines += [f"- {d}" for d in (*verdict.details, *extra)]
        return Reply(text="\n".join(lines), ok=True, game_id=g.id, version=g.version)

    # --- settings, buttons, upkeep ----------------------------------------------------------

    async def settings(self, where: Where) -> dict[str, Any]:
        """This guild's settings: {"theme": name or None, "ladder": {...}}."""
        if where.guild_id is None:
            return {"theme": None, "ladder": {}}
        return await self.store.guild_settings(where.guild_id)

    async def set_setting(self, where: Where, actor: Actor, key: str, value: Any) -> Reply:
        """Moderators only; keys: "theme" (a name render knows), "ladder" (a dict)."""
        if not actor.is_moderator:
            return refusal("only moderators can change this server's settings")
        if where.guild_id is None:
            return refusal("settings belong to a server")
        if key == "theme":
            themes = _known_themes()
            if themes and value not in themes:
                return refusal(f"unknown theme {value!r}: choose one of {', '.join(themes)}")
            await self.store.set_guild_settings(where.guild_id, self._now(), theme=str(value))
        elif key == "ladder" and isinstance(value, Mapping):
            await self.store.set_guild_settings(where.guild_id, self._now(), ladder=value)
        else:
            return refusal(f"there is no setting {key!r} (try theme)")
        return Reply(text=f"Server setting {key} is now {value}.")

    async def press(self, where: Where, actor: Actor, custom_id: str) -> Reply:
        """A button click (custom_id from ``ButtonSpec``); stale versions are refused politely."""
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
            state = await self._state(g)
            loser = state.to_move
            sides = engine.get_game(g.game).side_names
            outcome = Outcome(Termination.TIMEOUT, 1 - loser, f"{sides[loser]} ran out of time")
            reply = await self._end(g, state, outcome, None, None, "timeout", at=now)
            if reply.ok:
                notices.append(Notice(_where_of(g), reply))
        for g in await self.store.stale_rolls(now - STALE_ROLL_AFTER):
            reply = await self._complete_roll(g)
            if reply.ok:
                notices.append(Notice(_where_of(g), reply))
        for c in await self.store.expired_challenges(now):
            if await self.store.close_challenge(c.id, "expired"):
                text = f"{c.challenger_name}'s challenge to {c.opponent_name or 'anyone'} expired."
                where = Where(c.guild_id, c.channel_id, c.parent_id)
                notices.append(Notice(where, Reply(text=text, challenge_id=c.id)))
        return notices

    async def handle(
        self, where: Where, actor: Actor, text: str, *, people: Mapping[str, Actor] | None = None
    ) -> Reply:
        """Console-style text: "challenge bob atmalof", "accept", "drop row 4", "resign", "help".

        ``people`` maps names to actors for "challenge <name>".
        """
        return await commands.dispatch(self, where, actor, text, people or {})

    # --- internals --------------------------------------------------------------------------

    def _now(self) -> float:
        return round(self.clock.now(), 3)

    async def _find_challenge(self, where: Where, challenge_id: int | None) -> ChallengeRow | None:
        if challenge_id is not None:
            return await self.store.challenge(challenge_id)
        found = await self.store.open_challenge(where.channel_id)
        if found is None and where.parent_id is not None:
            found = await self.store.open_challenge(where.parent_id)
        return found

    async def _challenge_closed(self, c: ChallengeRow, now: float) -> str | None:
        if c.status == "open" and now >= c.expires_at:
            await self.store.close_challenge(c.id, "expired")
            return "that challenge has expired: make a new one"
        if c.status != "open":
            return f"that challenge was already {c.status}"
        return None

    async def _game_here(self, where: Where, game_id: int | None) -> GameRow | None:
        if game_id is not None:
            return await self.store.game(game_id)
        return await self.store.latest_game(where.channel_id)

    async def _state(self, g: GameRow) -> Any:
        """The game's position: cached by chain head, else replayed from the stored log."""
        cached = self._states.get(g.id)
        if cached is not None and cached[0] == g.last_hash:
            return cached[1]
        state = self._replay_rows(g, await self.store.actions(g.id, g.seq))
        self._states[g.id] = (g.last_hash, state)
        return state

    @staticmethod
    def _replay_rows(g: GameRow, rows: list[Any]) -> Any:
        rules = engine.get_game(g.game)
        state = rules.new(g.variant, **json.loads(g.options))
        for row in rows:
            state = rules.apply(state, rules.parse(state, row.action), row.roll)
        return state

    async def _playing(self, where: Where, actor: Actor) -> Reply | tuple[GameRow, Any, int, str]:
        """The channel's game, its state, the actor's seat and any text to put first (a roll
        completed, or a fallen flag: then a Reply). Strangers are refused."""
        g = await self.store.active_game(where.channel_id)
        if g is None:
            return refusal(texts.NO_GAME)
        seat = g.seat_of(actor.id)
        if seat is None:
            return refusal(
                texts.NOT_A_PLAYER.format(players=" vs ".join(g.names)),
                game_id=g.id,
                version=g.version,
            )
        prefix = ""
        if g.pending is not None:
            done = await self._complete_roll(g)
            fresh = await self.store.game(g.id)
            if fresh is None or fresh.status != "active":
                done.ok = False
                return done
            g, prefix = fresh, done.text + "\n"
        state = await self._state(g)
        now = self._now()
        if g.deadline is not None and now >= g.deadline:
            loser = state.to_move
            sides = engine.get_game(g.game).side_names
            outcome = Outcome(Termination.TIMEOUT, 1 - loser, f"{sides[loser]} ran out of time")
            ended = await self._end(g, state, outcome, None, None, "timeout", prefix=prefix)
            ended.ok = False
            return ended
        return g, state, seat, prefix

    async def _moderated(
        self, where: Where, actor: Actor, reason: str
    ) -> tuple[Any, Any, Reply | None]:
        if not actor.is_moderator:
            return None, None, refusal("only moderators can do that")
        if not str(reason or "").strip():
            return None, None, refusal("give a reason: it is logged with the game")
        g = await self.store.active_game(where.channel_id)
        if g is None:
            return None, None, refusal(texts.NO_GAME)
        return g, await self._state(g), None

    async def _announce(
        self,
        g: GameRow,
        state: Any,
        seat: int,
        actor: Actor,
        notation: str,
        now: float,
        request_id: str | None,
        prefix: str,
    ) -> Reply:
        """Store an announcement (the die is rolled by ``roll_pending``)."""
        rules = engine.get_game(g.game)
        action = rules.parse(state, notation)
        sides = rules.side_names
        text = (
            f"{prefix}{g.names[seat]} ({sides[seat]}) announces {notation.removeprefix('drop ')}."
        )
        futile = import_module_attr(g.game, "drop_is_futile")
        if callable(futile) and futile(state, action):
            text += " (Every square the die can reach there is taken: this drop loses the turn.)"
        text += " Rolling the die..."
        changes: dict[str, Any] = {
            "pending": notation,
            "pending_seat": seat,
            "pending_at": now,
            "takeback_offer": None,
            "deadline": None,
            "updated_at": now,
        }
        if g.draw_offer == seat:
            changes["draw_offer"] = None
        reply = Reply(text=text, pending_roll=True, game_id=g.id, version=g.version + 1)
        request = (request_id, _reply_dict(reply)) if request_id else None
        try:
            g = await self.store.change_game(g, changes, request=request)
        except GameMovedOn:
            return await self._moved_on(request_id)
        return reply

    async def _complete_roll(self, g: GameRow) -> Reply:
        """Roll for the stored announcement, apply the drop, store it; the board reply."""
        rules = engine.get_game(g.game)
        state = await self._state(g)
        notation, seat = g.pending, g.pending_seat
        assert notation is not None and seat is not None and g.pending_at is not None
        action = rules.parse(state, notation)
        faces = rules.die_faces(state, action)
        assert faces is not None
        roll = dice.roll(g.seed, str(g.id), g.rolls + 1, notation, faces)
        after = rules.apply(state, action, roll)
        said = rules.describe(state, action, roll)
        now = self._now()
        entry = NewAction(
            seat, str(g.players[seat]), notation, roll, iso(now), announced_at=iso(g.pending_at)
        )
        extra = {"pending": None, "pending_seat": None, "pending_at": None, "rolls": g.rolls + 1}
        return await self._commit_move(
            g, state, after, action, entry, said, now, None, "", t_end=g.pending_at, extra=extra
        )

    async def _commit_move(
        self,
        g: GameRow,
        before: Any,
        after: Any,
        action: Any,
        entry: NewAction,
        said: str,
        now: float,
        request_id: str | None,
        prefix: str,
        *,
        t_end: float,
        extra: Mapping[str, Any] | None = None,
    ) -> Reply:
        """Store one move (the clock, offers, the result) and answer with the board."""
        rules = engine.get_game(g.game)
        seat = entry.side
        spec = ClockSpec.parse(g.clock)
        changes: dict[str, Any] = {
            "position": rules.to_text(after),
            "ply": after.ply,
            "moved": g.moved | (1 << seat),
            "takeback_offer": None,
            "updated_at": now,
            **(extra or {}),
        }
        if g.draw_offer == seat:
            changes["draw_offer"] = None
        if after.to_move != seat:  # the turn passes: settle the mover's clock
            banks = list(g.banks)
            banks[seat] = spec.after_turn(banks[seat], g.turn_started_at, t_end)
            changes.update(
                bank0=banks[0],
                bank1=banks[1],
                turn_started_at=now,
                deadline=spec.deadline(now, banks[after.to_move]),
            )
        elif extra:  # a drop that keeps the turn (never in Atmalof) restarts the waiting clock
            changes["deadline"] = spec.deadline(g.turn_started_at, g.banks[seat])
        outcome = rules.result(after)
        events: list[NewEvent] = []
        if outcome is not None:
            changes.update(_ending(outcome, now))
            events.append(NewEvent("end", now, seat=outcome.winner, note=_outcome_note(outcome)))
        text = prefix + said
        reply = Reply(text=text, game_id=g.id, version=g.version + 1)
        request = (request_id, _reply_dict(reply)) if request_id else None
        try:
            g = await self.store.change_game(g, changes, [entry], events, request=request)
        except GameMovedOn:
            return await self._moved_on(request_id)
        self._states[g.id] = (g.last_hash, after)
        if outcome is not None:
            self._states.pop(g.id, None)
        return await self._board_reply(g, after, text, last=(before, action, entry.roll))

    async def _end(
        self,
        g: GameRow,
        state: Any,
        outcome: Outcome,
        actor: Actor | None,
        seat: int | None,
        kind: str,
        *,
        prefix: str = "",
        note: Mapping[str, Any] | None = None,
        at: float | None = None,
    ) -> Reply:
        """Finish the game by a referee decision (resign, draw, timeout, abort, award...)."""
        now = self._now() if at is None else at
        changes = _ending(outcome, now)
        event = NewEvent(
            kind,
            now,
            seat=seat,
            user_id=actor.id if actor else None,
            note={**_outcome_note(outcome), **dict(note or {})},
        )
        try:
            g = await self.store.change_game(g, changes, events=[event])
        except GameMovedOn:
            return refusal(texts.MOVED_ON)
        self._states.pop(g.id, None)
        return await self._board_reply(g, state, prefix.rstrip())

    async def _agree_draw(
        self, g: GameRow, state: Any, actor: Actor, seat: int, prefix: str
    ) -> Reply:
        outcome = Outcome(Termination.AGREEMENT, None, "drawn by agreement")
        return await self._end(g, state, outcome, actor, seat, "draw", prefix=prefix)

    async def _takeback_span(self, g: GameRow, seat: int) -> str | tuple[list[Any], list[Any]]:
        """(kept rows, undone rows) for taking back ``seat``'s last turn, or why not."""
        if g.pending is not None:
            return "a drop has been announced: it cannot be taken back"
        rows = await self.store.actions(g.id, g.seq)
        mine = [i for i, a in enumerate(rows) if a.side == seat]
        if not mine:
            return "you have no move to take back"
        start = mine[-1]
        while start > 0 and rows[start - 1].side == seat:
            start -= 1
        gone = rows[start:]
        if any(a.roll is not None for a in gone):
            return "a drop cannot be taken back: the die has been rolled"
        return rows[:start], gone

    async def _moved_on(self, request_id: str | None) -> Reply:
        if request_id is not None:
            earlier = await self.store.request_reply(request_id)
            if earlier is not None:
                return _reply_from(earlier)
        return refusal(texts.MOVED_ON)

    async def _board_reply(
        self, g: GameRow, state: Any, text: str, *, last: Any = None, ok: bool = True
    ) -> Reply:
        """A public reply with the board, whose turn (or the result), clocks and buttons."""
        rules = engine.get_game(g.game)
        sides = rules.side_names
        now = self._now()
        lines = [text] if text else []
        mentions: list[int] = []
        buttons: list[ButtonSpec] = []
        outcome = outcome_of(g)
        if g.status == "active":
            to_move = state.to_move
            line = texts.turn_line(g, sides, to_move)
            legal = rules.legal(state)
            if legal and g.moved and all(_is_removal(rules, state, a) for a in legal):
                points = ", ".join(rules.notation(state, a).split()[-1] for a in legal)
                line = (
                    f"Mill! {texts.seat_label(g, sides, to_move)} removes one of "
                    f"{sides[1 - to_move]}'s men: {points}."
                )
            lines.append(line)
            clocks = texts.clocks_line(g, sides, to_move, now)
            if clocks:
                lines.append(clocks)
            mentions.append(g.players[to_move])
        elif outcome is not None:
            lines.append(texts.result_line(g, sides, outcome))
            lines.append(texts.seed_line(g))
            buttons.append(ButtonSpec("Rematch", ButtonKind.REMATCH, g.id, g.version, "primary"))
        lines.append(f"Log #{chain.short(g.last_hash)}")
        theme = None
        if self._renderer is not None and g.guild_id is not None:
            theme = (await self.store.guild_settings(g.guild_id)).get("theme")
        view = BoardView(g.game, state, last, theme, g.names, outcome)
        image = await boards.png(self._renderer, view)
        return Reply(
            text="\n".join(lines),
            ok=ok,
            image=image,
            image_name=f"game-{g.id}-v{g.version}.png",
            alt_text=boards.alt_text(view) if image else "",
            board_text=boards.text_board(view),
            buttons=buttons,
            mentions=mentions,
            game_id=g.id,
            version=g.version,
            finished=g.status != "active",
            chain=g.last_hash,
        )


def import_module_attr(game: str, name: str) -> Any:
    """An optional helper of a game module (e.g. atmalof.drop_is_futile), or None."""
    from importlib import import_module

    return getattr(import_module(f"engine.{game}"), name, None)


def _is_removal(rules: Any, state: Any, action: Any) -> bool:
    return rules.notation(state, action).startswith("remove ")


def _ending(outcome: Outcome, now: float) -> dict[str, Any]:
    status = "aborted" if outcome.termination is Termination.ABORTED else "finished"
    return {
        "status": status,
        "winner": outcome.winner,
        "termination": outcome.termination.value,
        "reason": outcome.reason,
        "ended_at": now,
        "deadline": None,
        "draw_offer": None,
        "takeback_offer": None,
        "pending": None,
        "pending_seat": None,
        "pending_at": None,
        "updated_at": now,
    }


def _outcome_note(outcome: Outcome) -> dict[str, Any]:
    return {
        "termination": outcome.termination.value,
        "winner": outcome.winner,
        "reason": outcome.reason,
    }


def _where_of(g: GameRow) -> Where:
    return Where(g.guild_id, g.channel_id, g.parent_id)


_REPLY_FIELDS = ("text", "ok", "ephemeral", "game_id", "version", "pending_roll", "finished")


def _reply_dict(reply: Reply) -> dict[str, Any]:
    return {k: getattr(reply, k) for k in _REPLY_FIELDS}


def _reply_from(data: Mapping[str, Any]) -> Reply:
    return Reply(**{k: data[k] for k in _REPLY_FIELDS if k in data})


def _known_themes() -> list[str]:
    try:
        import render
    except ImportError:
        return []
    themes = getattr(render, "THEMES", None) or getattr(render, "themes", None)
    if callable(themes):
        themes = themes()
    return sorted(themes) if themes else []
