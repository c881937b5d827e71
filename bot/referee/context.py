"""The one explicit context every referee service shares (``Context``): the store, the clock,
the renderer, the state cache, and the game machinery they all use: loading a game and its
position, the checks before a player acts (``playing``), storing a move, completing a stored
roll, ending a game. ``bot.referee.Referee`` composes the services on top of it.

Why it is long: the move and roll path is kept whole here (each step is short, and
splitting it would scatter one transaction's story over several files)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import engine
import render
from bot import checkpoint, texts
from bot.clock import Clock, ClockSpec, SystemClock
from bot.errors import BrokenGame, Conflict, Refusal
from bot.i18n import Msg, msg, say, typed
from bot.ladder_store import change_game
from bot.lru import LRU
from bot.referee import boards
from bot.referee.board_reply import (
    Said,
    as_lines,
    board_reply,
    removal_pending,
    said_after,
    told_of_end,
)
from bot.referee.boards import Renderer
from bot.referee.records import ending, event_ending, iso, outcome_of
from bot.referee.replies import (
    Actor,
    Event,
    LostTurn,
    Moved,
    Preempted,
    Reply,
    Result,
    Where,
)
from bot.referee.said import move_msg
from bot.referee.turns import one_after_another
from bot.referee.wrapper import current_request_id, reply_dict
from bot.store import (
    GameRow,
    GameView,
    NewAction,
    NewEvent,
    Store,
)
from engine import Outcome, Termination, dice
from engine.record import stored_options
from render import Last

log = logging.getLogger(__name__)

STARTERS = ("me", "them", "random")
HISTORY_PAGE = 20
MAX_CHOICES = 25
MAX_REASON = 300
STALE_ROLL_AFTER = 5.0  # seconds after which the sweeper completes an announced roll itself
REQUESTS_KEPT_FOR = 24 * 3600.0  # answered request ids older than this are forgotten
REQUESTS_PRUNED_PER_SWEEP = 500  # ... at most this many per sweep (a short write)
MAX_GAME_ID = 2**63 - 1  # a store id is a signed 64-bit integer (SQLite, PostgreSQL bigint)
ENDED_RECENTLY = 3600.0  # a player's command this long after their game ended is told its end
POSITIONS_KEPT = 2000  # positions kept in memory (any other is replayed from the store)


class Context:
    """State and helpers every group of referee commands uses (see ``bot.referee.Referee``)."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        render: bool | Renderer = True,
        *,
        challenge_ttl: float = 600.0,
        abandon_after: float = 72 * 3600.0,
        per_user_limits: bool = True,
        positions_kept: int = POSITIONS_KEPT,
        practice_nodes: int | None = None,
        practice_workers: int = 1,
    ) -> None:
        self.store = store
        # the practice opponent's node budget per move (None: its level's, engine.ai.levels);
        # tests lower it so whole games against the bot stay fast
        self.practice_nodes = practice_nodes
        self.practice_workers = practice_workers  # processes searching for the practice opponent
        self.per_user_limits = per_user_limits  # bot.limits: challenges and games per user
        self.clock = clock or SystemClock()
        if render is True:
            self.renderer: Renderer | None = boards.default_renderer()
        else:
            self.renderer = render or None
        self.language: str | None = None  # the words of boards drawn outside a server
        # a board whose next move is the practice opponent's is drawn only when a front end
        # shows it (Referee.hold_boards, Referee.draw): Discord's usually never is
        self.hold_boards = False
        self.challenge_ttl = challenge_ttl
        self.abandon_after = abandon_after
        # game id -> (chain head, state): the games in play and recently shown, bounded
        self.states: LRU[int, tuple[str, Any]] = LRU(positions_kept)
        # game id -> (chain head, the turn's start, the move that made a mill): a removal sent
        # as its own command draws the whole turn from it without replaying the log
        self.turn_starts: LRU[int, tuple[str, Any, Any, int | None]] = LRU(positions_kept)
        self.broken_logged: set[int] = set()  # games whose log no longer replays (BrokenGame)
        self.broken_told: set[int] = set()  # ... whose players have been told (this process)

    @staticmethod
    def request(
        g: GameRow, text: str, lines: list[Msg] | None = None
    ) -> tuple[str, dict[str, Any]] | None:
        """The request id of the command being run (``bot.referee.wrapper``) with a first
        answer, to write in the same transaction as the change: a twin arriving meanwhile then
        finds it."""
        request_id = current_request_id()
        if request_id is None:
            return None
        first = Reply(text=text, lines=list(lines or ()), game_id=g.id, version=g.version + 1)
        return request_id, reply_dict(first)

    # --- internals --------------------------------------------------------------------------

    def now(self) -> float:
        return round(self.clock.now(), 3)

    async def settings(self, where: Where) -> dict[str, Any]:
        """This guild's settings: {"theme": name or None, "ladder": {...}}."""
        if where.guild_id is None:
            return {"theme": None, "ladder": {}, "takebacks": True, "language": None}
        return await self.store.guild_settings(where.guild_id)

    async def look(self, guild_id: int | None) -> tuple[str | None, str | None]:
        """The theme and the language of what is drawn for a server (a board, a replay): its
        settings, else the table's language outside any server (None: the defaults)."""
        if guild_id is None:
            return None, self.language
        settings = await self.store.guild_settings(guild_id)
        return settings.get("theme"), settings.get("language") or self.language

    async def game_here(self, where: Where, game_id: int | None) -> GameRow | None:
        """The game ``game_id``, else the latest game played here, else, in a thread with no
        game of its own, the game whose dispute opened it (``room_game``), else the latest of
        the thread's channel: a moderator reads a disputed game's board, history and record in
        the dispute's private thread, and still that game's once the channel plays another.
        A game named by ``game_id`` only if it is reachable from here (``reachable``): another
        channel's or server's game is None, exactly as a number no game has."""
        if game_id is not None:
            if not 0 < game_id <= MAX_GAME_ID:  # negative, or past what a store id can be
                return None
            g = await self.store.game(game_id)
            return g if g is not None and reachable(where, g) else None
        g = await self.store.latest_game(where.channel_id)
        if g is None and where.parent_id is not None:
            g = await self.room_game(where)
            if g is None:  # a thread no dispute opened (or opened before rooms were noted)
                g = await self.store.latest_game(where.parent_id)
        return g

    async def room_game(self, where: Where) -> GameRow | None:
        """In a thread, the game a dispute opened it for as its private room; None elsewhere."""
        if where.parent_id is None:
            return None
        return await self.store.room_game(where.channel_id)

    async def state(self, g: GameRow) -> Any:
        """The game's position: cached by chain head, else replayed from the stored log."""
        cached = self.states.get(g.id)
        if cached is not None and cached[0] == g.last_hash:
            return cached[1]
        head = g.last_hash
        try:
            # the row and its moves in one snapshot: a takeback landing between two reads
            # would mix two lines (issue 14); a newer row than ``g`` only means that a write
            # with ``g``'s version is told the game has moved on
            view = await self.store.game_view(g.id)
            state = None if view is None else self.from_view(view)
            if state is None:
                view = await self.store.game_view(g.id, from_start=True)
                if view is None:
                    state = self.replay_rows(g, [])
                else:
                    state = self.replay_rows(view.game, list(view.actions))
            if view is not None:
                head = view.game.last_hash
        except BrokenGame as broken:
            if g.id not in self.broken_logged:
                self.broken_logged.add(g.id)
                log.error(
                    "game %s no longer replays; commands in its channel are refused until a "
                    "moderator voids or aborts it %s",
                    g.id,
                    json.dumps(
                        {
                            "game": g.id,
                            "guild": g.guild_id,
                            "channel": g.channel_id,
                            "status": g.status,
                            "seq": broken.seq,
                            "action": broken.action,
                            "error": broken.error,
                            "head": g.last_hash,
                        }
                    ),
                )
            raise
        self.states[g.id] = (head, state)
        return state

    def from_view(self, view: GameView) -> Any:
        """The position from a snapshot that starts at the checkpoint, or None when it starts
        at move 0 or the checkpoint's text does not read back (then replay from the start)."""
        g = view.game
        if view.after == 0 or g.checkpoint_text is None:
            return self.replay_rows(g, list(view.actions)) if view.after == 0 else None
        try:
            state = checkpoint.decode(g.game, g.checkpoint_text)
        except Exception:
            log.warning(
                "game %s: its checkpoint at move %s does not read back; replaying", g.id, view.after
            )
            return None
        return self.replay_rows(g, list(view.actions), state)

    async def restored(self, g: GameRow, upto: int | None = None) -> Any:
        """The position after move ``upto`` (default the last) from the game's checkpoint and
        the few moves after it, or None when there is none to trust: its move is no longer the
        live row with that hash (taken back, or the log was changed), or its text does not read
        back."""
        upto = g.seq if upto is None else upto
        at = g.checkpoint_seq
        if g.checkpoint_text is None or at is None or not 0 < at <= upto:
            return None
        # The checkpoint's own move comes first: one read both checks it is still the live
        # row with that hash and brings the moves after it.
        rows = await self.store.actions(g.id, upto, after=at - 1)
        if not rows or rows[0].seq != at or rows[0].hash != g.checkpoint_head:
            return None
        try:
            state = checkpoint.decode(g.game, g.checkpoint_text)
        except Exception:
            log.warning(
                "game %s: its checkpoint at move %s does not read back; replaying", g.id, at
            )
            return None
        return self.replay_rows(g, rows[1:], state)

    @staticmethod
    def replay_rows(g: GameRow, rows: list[Any], start: Any = None) -> Any:
        """Replay stored rows from the start; BrokenGame when one of them (or the game's own
        columns) no longer makes sense to the engine: whatever the engine raises is a damaged
        row here, not a bug in the command that asked."""
        seq, action, state = 0, "(the start)", None
        try:
            rules = engine.get_game(g.game)
            state = (
                rules.new(g.variant, **stored_options(g.game, json.loads(g.options)))
                if start is None
                else start
            )
            for row in rows:
                seq, action = row.seq, row.action
                state = rules.apply(state, rules.parse(state, row.action), row.roll)
        except Exception as exc:
            raise BrokenGame(g.id, seq, action, f"{type(exc).__name__}: {exc}", state) from exc
        return state

    def broken_reply(self, g: GameRow, broken: BrokenGame) -> Reply:
        """What players of a broken game hear: the channel once (this process), then a private
        note. Nothing is changed; a moderator's void or abort ends the game."""
        if g.id in self.broken_told:
            raise Refusal("broken_game", game_id=g.id, version=g.version)
        self.broken_told.add(g.id)
        said = msg("notice.broken_game", seq=broken.seq, action=typed(broken.action))
        return Reply(text=say(said), lines=[said], ok=False, game_id=g.id, version=g.version)

    async def no_game(self, where: Where, actor: Actor | None = None) -> Refusal:
        """Why there is nothing to play here: a challenge not accepted yet; the ``actor``'s own
        game here, ended in the last ``ENDED_RECENTLY`` seconds (a move typed as the opponent
        won or a flag fell: told how it ended, not that no game is running); or no game."""
        if await self.store.open_challenge(where.channel_id) is not None:
            return Refusal("challenge_not_accepted")
        if actor is None:
            return Refusal("no_game")
        last = await self.store.latest_game(where.channel_id)
        if (
            last is not None
            and last.status != "active"
            and last.seat_of(actor.id) is not None
            and self.now() - (last.ended_at or 0.0) < ENDED_RECENTLY
            and (said := await self.ended_msg(last)) is not None
        ):
            return Refusal("game_over", {"outcome": said}, game_id=last.id)
        return Refusal("no_game")

    async def ended_msg(self, g: GameRow) -> Msg | None:
        """How the finished game ``g`` ended ("bob (Black) wins (alice (White) resigned)"), or
        None for a game that has not."""
        outcome = outcome_of(g)
        if g.status == "active" or outcome is None:
            return None
        sides = engine.get_game(g.game).side_names
        options = json.loads(g.options or "{}")
        ended = await ending(self.store, g)
        return texts.outcome_msg(g.game, g.names, sides, outcome, options, ended=ended)

    async def busy(self, where: Where, actor: Actor) -> Msg:
        """What keeps this channel busy, as ``actor`` needs to hear it (a ``channel_busy``
        refusal says it): their own game or challenge and what to do about it, or whose."""
        g = await self.store.active_game(where.channel_id)
        if g is not None:
            seat = g.seat_of(actor.id)
            if seat is not None:  # one who has not moved yet may abort, which beats resigning
                return msg("busy.your_game" if g.moved & (1 << seat) else "busy.your_game_unmoved")
            return msg("busy.game", players=texts.players_msg(g.names))
        c = await self.store.open_challenge(where.channel_id)
        if c is None:  # it ended meanwhile
            return msg("busy.just_now")
        if c.challenger_id == actor.id:
            return msg("busy.your_challenge")
        if c.opponent_id == actor.id:  # theirs to answer
            return msg("busy.challenge_to_you", challenger=c.challenger_name)
        return msg("busy.challenge", challenger=c.challenger_name)

    async def playing(
        self, where: Where, actor: Actor, *, version: int | None = None, claim: bool = False
    ) -> tuple[GameRow, Any, int, str]:
        """The channel's game, its state, the actor's seat and any text to put first (a roll
        completed). Strangers are refused (``Refusal``), a button whose ``version`` the game
        has moved on from is a ``Conflict``; a fallen flag or a broken game is told to the
        channel instead (``Preempted``), the flag as the actor's command come too late unless
        it is the opponent's and the command a ``claim`` (which is how it is claimed)."""
        g = await self.store.active_game(where.channel_id)
        if g is None:
            raise await self.no_game(where, actor)
        seat = g.seat_of(actor.id)
        if seat is None:
            raise not_a_player(g)
        if g.frozen_at is not None:
            raise Refusal("frozen", game_id=g.id, version=g.version)
        if version is not None and version != g.version:
            raise Conflict  # before a waiting roll is made: a stale click changes nothing
        try:
            return await self._playing_state(g, actor, seat, version, claim)
        except BrokenGame as broken:
            raise Preempted(self.broken_reply(g, broken)) from broken

    async def _playing_state(
        self, g: GameRow, actor: Actor, seat: int, version: int | None, claim: bool
    ) -> tuple[GameRow, Any, int, str]:
        """``_playing`` past the checks on the person: BrokenGame if the log does not replay."""
        prefix = ""
        if g.pending is not None:
            done: Reply | None = None
            try:
                said, done = await self.roll_stored(g)
            except Conflict:  # someone else's command rolled it meanwhile
                said = ""
            fresh = await self.store.game(g.id)
            if fresh is None or fresh.status != "active":
                if done is None:
                    raise Conflict
                done.ok = False
                raise Preempted(done)
            if done is not None:  # the roll's sentence first, its board lines once
                prefix = Said(said + "\n", said.msgs if isinstance(said, Said) else ())
            g = fresh
        state = await self.state(g)
        now = self.now()
        if g.deadline is not None and now >= g.deadline:
            loser = state.to_move
            outcome = flag_fell(g, state)
            if loser == seat == g.bot_seat:  # the practice bot's own move: it typed nothing
                fell = Msg("notice.flag_fell_thinking", {"actor": actor.name})
            else:
                fell = Msg(
                    "notice.flag_fell_first",
                    {"actor": actor.name, "side": texts.side_msg(g.game, loser)},
                )
            late = prefix if claim and loser != seat else said_after(prefix, fell)
            ended = await self.end(g, state, outcome, None, None, "timeout", prefix=late)
            ended.mentions = told_of_end(g, actor.id)  # found by this command: news to the other
            ended.ok = False  # the command did not land; the result is public (not ephemeral)
            raise Preempted(ended)
        if version is not None and version != g.version:
            raise Conflict  # a button's game moved on (``Buttons`` says what became of it)
        return g, state, seat, prefix

    async def flag_on_look(self, g: GameRow, state: Any) -> Reply | None:
        """A look at the board (``/board``) judges a flag that fell since the sweeper last
        looked, as a command does, and tells the players (nobody's command ended it); None
        when the game runs on (no clock, time left, or frozen for a dispute). Conflict when
        the sweeper or a command ended it first."""
        if g.status != "active" or g.frozen_at is not None or not g.deadline:
            return None
        if self.now() < g.deadline:
            return None
        return await self.end(g, state, flag_fell(g, state), None, None, "timeout")

    async def complete_roll(self, g: GameRow) -> Reply:
        """Roll for the stored announcement, apply the drop, store it; the board reply."""
        return (await self.roll_stored(g))[1]

    async def roll_stored(self, g: GameRow) -> tuple[str, Reply]:
        """The roll's sentence alone (for a command that completes it on its way: its own
        reply carries the board) and the full board reply."""
        rules = engine.get_game(g.game)
        state = await self.state(g)
        notation, seat = g.pending, g.pending_seat
        assert notation is not None and seat is not None and g.pending_at is not None
        action = rules.parse(state, notation)
        faces = rules.die_faces(state, action)
        assert faces is not None
        roll = dice.roll(g.seed, str(g.id), g.rolls + 1, notation, faces, g.dice_mix)
        after = rules.apply(state, action, roll, checked=True)  # parse checked it
        said = rules.describe(state, action, roll)
        now = self.now()
        entry = NewAction(
            seat, str(g.players[seat]), notation, roll, iso(now), announced_at=iso(g.pending_at)
        )
        extra = {"pending": None, "pending_seat": None, "pending_at": None, "rolls": g.rolls + 1}
        reply = await self.commit_move(
            g, state, after, action, entry, said, now, None, "", t_end=g.pending_at, extra=extra
        )
        english = _named(said, rules.side_names[seat], g.names[seat])
        return Said(english, [move_msg(g, state, action, roll, english)]), reply

    async def commit_move(
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
        if declines_draw(g, seat):
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
        effect = rules.effect(before, action, entry.roll, after)  # its outcome is the result
        outcome = effect.outcome
        events: list[NewEvent] = []
        if outcome is not None:
            changes.update(_ending(outcome, now))
            events.append(NewEvent("end", now, seat=outcome.winner, note=_outcome_note(outcome)))
        english = _named(said, rules.side_names[seat], g.names[seat])
        text = prefix + english
        lines = [*as_lines(prefix), move_msg(g, before, action, entry.roll, english)]
        notes: list[Msg] = []
        if effect.flies is not None and outcome is None:  # Morris: a side is down to three
            notes.append(Msg("notice.may_fly", {"who": texts.seat_msg(g, effect.flies)}))
        if effect.repeated:  # the second time: said before a third one draws unannounced
            notes.append(Msg("notice.repeated", {}))
        text = said_too(lines, text, [*notes, *lapses(g, seat)])
        reply = Reply(text=text, lines=lines, game_id=g.id, version=g.version + 1)
        declined = declines_draw(g, seat)
        if declined:  # the offer it declined, as data too (its line says it)
            reply.notice, reply.params = DECLINED_BY_PLAY, declined_params(g, seat)
        request = (request_id, reply_dict(reply)) if request_id else None
        kept = checkpoint.encode(g.game, after) if checkpoint.due(g.seq + 1) else None
        head_before = g.last_hash
        g = await change_game(  # Conflict: moved on
            self.store, g, changes, [entry], events, request=request, checkpoint=kept
        )
        self.states[g.id] = (g.last_hash, after)
        turn_start = self.turn_starts.pop(g.id, None)
        if outcome is not None:
            self.states.pop(g.id, None)
        elif after.to_move == seat and not extra:  # the turn goes on (a mill: a removal owed)
            self.turn_starts[g.id] = (g.last_hash, before, action, entry.roll)
        if turn_start is not None and turn_start[0] != head_before:
            turn_start = None
        last = await self.turn_shown(g, before, action, entry.roll, turn_start)
        shown = await board_reply(self, g, after, lines, last=last)
        if outcome is not None:  # the mover knows: the result is news to the other player
            shown.mentions = told_of_end(g, g.players[seat])
        happened: list[Event] = [Moved(seat, entry.action, entry.roll)]
        if entry.roll is not None and effect.lost_turn:
            happened.append(LostTurn(seat, entry.roll))
        if outcome is not None:
            happened.append(result_of(outcome))
        shown.events = happened + shown.events  # then the rating change, if any
        if declined:
            shown.notice, shown.params = reply.notice, reply.params
        return shown

    async def turn_shown(
        self,
        g: GameRow,
        before: Any,
        action: Any,
        roll: int | None,
        turn_start: tuple[str, Any, Any, int | None] | None = None,
    ) -> boards.LastShown:
        """What the picture marks: this action, or, for a removal sent as its own command, the
        mover's whole turn (the move that made the mill, then the removal). ``turn_start``:
        the mill's move as this process stored it; without it (a restart between the two),
        the log is read and replayed."""
        this = Last(before, action, roll)
        rules = engine.get_game(g.game)
        if self.renderer is None or g.seq < 2 or not removal_pending(rules, before):
            return this
        if turn_start is not None:
            _, earlier, made_action, made_roll = turn_start
            return (Last(earlier, made_action, made_roll), this)
        made, removal = await self.store.actions(g.id, g.seq, after=g.seq - 2)
        if made.side != removal.side:
            return this
        earlier = await self.restored(g, g.seq - 2)
        if earlier is None:
            earlier = self.replay_rows(g, await self.store.actions(g.id, g.seq - 2))
        return (Last(earlier, rules.parse(earlier, made.action), made.roll), this)

    async def end(
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
        now = self.now() if at is None else at
        changes = _ending(outcome, now)
        logged = {**_outcome_note(outcome), **dict(note or {})}
        if logged["reason"] != outcome.reason:  # a moderator's why: the result's own is kept too
            logged["result_reason"] = outcome.reason
        event = NewEvent(kind, now, seat=seat, user_id=actor.id if actor else None, note=logged)
        sides = engine.get_game(g.game).side_names
        ended = event_ending(kind, seat, logged)  # as board_reply says it from the log
        result = texts.result_line(g, sides, outcome, ended=ended)
        first = self.request(g, f"{prefix}{say(result)}", [*as_lines(prefix), result])
        g = await change_game(self.store, g, changes, events=[event], request=first)  # Conflict
        self.states.pop(g.id, None)
        shown = await board_reply(self, g, state, as_lines(prefix))
        shown.events = [result_of(outcome), *shown.events]  # then the rating change
        shown.mentions = told_of_end(g, actor.id if actor is not None else None)
        return shown


def turn_words(g: GameRow, kept: list[Any], gone: list[Any]) -> Msg:
    """The undone actions in the words their own replies used ("alice (Black) moves a1-c3
    north-east"): the stored notation orders a line's ends canonically, not as typed."""
    rules = engine.get_game(g.game)
    state = Context.replay_rows(g, kept)
    said: list[Msg] = []
    for row in gone:
        action = rules.parse(state, row.action)
        sentence = rules.describe(state, action, row.roll).rstrip(".")
        english = _named(sentence, rules.side_names[row.side], g.names[row.side])
        said.append(move_msg(g, state, action, row.roll, english))
        state = rules.apply(state, action, row.roll)
    return one_after_another(said) if said else Msg("plain", {"text": ""})


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
        "frozen_at": None,
        "updated_at": now,
    }


def result_of(outcome: Outcome) -> Result:
    """The engine's or the referee's outcome as a reply's event."""
    return Result(outcome.termination.value, outcome.winner, outcome.reason)


def _outcome_note(outcome: Outcome) -> dict[str, Any]:
    return {
        "termination": outcome.termination.value,
        "winner": outcome.winner,
        "reason": outcome.reason,
    }


def reachable(where: Where, g: GameRow) -> bool:
    """Whether a command given ``where`` may name the game ``g`` by its number: a game of the
    same channel, of the channel a thread belongs to (a dispute thread), or of a thread of this
    channel (a practice thread), in the same server or at the same table. Not any channel of
    the server: the referee cannot see who may read a channel, and a game of a private channel
    would be read, names and moves, from any other."""
    if g.guild_id != where.guild_id:
        return False
    return g.channel_id in (where.channel_id, where.parent_id) or (
        g.parent_id is not None and g.parent_id == where.channel_id
    )


def where_of(g: GameRow) -> Where:
    return Where(g.guild_id, g.channel_id, g.parent_id)


def known_themes() -> list[str]:
    return sorted(render.THEME_NAMES)


def _named(sentence: str, side: str, name: str) -> str:
    """The engine's sentence with the mover's name: "Red moves ..." -> "Alice (Red) moves ..."."""
    if sentence.startswith(side + " "):
        return f"{name} ({side}){sentence[len(side) :]}"
    return sentence


def not_a_player(g: GameRow) -> Refusal:
    """The refusal of a command about ``g`` by someone who does not play in it, naming who
    does."""
    return Refusal(
        "not_a_player", {"players": texts.players_msg(g.names)}, game_id=g.id, version=g.version
    )


def rematch_refused(g: GameRow, stranger: bool) -> None:
    """Refuse a rematch of ``g`` while it runs (a player finishes it first; a stranger is not
    in it), or by a ``stranger`` to it: the checks a rematch with a person and one with the
    bot share."""
    if g.status == "active":
        if stranger:  # another game runs here: the table is busy, as for a new challenge
            busy = msg("busy.game", players=texts.players_msg(g.names))
            raise Refusal("channel_busy", {"busy": busy}, game_id=g.id, version=g.version)
        raise Refusal("rematch_game_running")
    if stranger:
        raise Refusal("rematch_not_player", {"players": texts.players_msg(g.names)})


def lapses(g: GameRow, seat: int) -> list[Msg]:
    """The questions a move or an announcement by ``seat`` answers by being made, said so that
    nobody finds them gone: a takeback request waiting (either side's) lapses, and the other
    side's draw offer is declined (``declines_draw``). ``seat``'s own draw offer stands."""
    found = [lapsed(g)] if g.takeback_offer is not None else []
    declined = declined_by_play(g, seat)
    if declined is not None:
        found.append(declined)
    return found


def declines_draw(g: GameRow, seat: int) -> bool:
    """An action by ``seat`` (a move, a placement, a drop announced) declines the draw the
    other side offered, as touching a piece to move it does over the board (FIDE Laws 9.1.2.3)
    and playing on does on online servers; an offer made with one's own move stands for the
    opponent to answer on their turn, so the offerer's own actions leave it be."""
    return g.draw_offer == 1 - seat


def declined_by_play(g: GameRow, seat: int) -> Msg | None:
    """The notice of ``seat`` declining the other side's draw offer by playing on (None when
    the action declines none); ``notice.draw_declined_by_play``, its params as the reply's."""
    if not declines_draw(g, seat):
        return None
    return msg(f"notice.{DECLINED_BY_PLAY}", **declined_params(g, seat))


DECLINED_BY_PLAY = "draw_declined_by_play"  # the notice code of a draw declined by playing on


def declined_params(g: GameRow, seat: int) -> dict[str, Any]:
    """Who declined (``actor``) whose offer (``other``) by playing on."""
    return {"actor": g.names[seat], "other": g.names[1 - seat]}


def said_too(lines: list[Msg], text: str, more: list[Msg]) -> str:
    """``more`` sentences after a reply's ``lines`` (appended) and its English ``text``
    (returned with them)."""
    lines.extend(more)
    return "\n".join([text, *(say(m) for m in more)])


def lapsed(g: GameRow) -> Msg:
    """A takeback request that a move (or an announcement) answered instead: it lapses."""
    asker = g.takeback_offer
    assert asker is not None
    return msg("notice.takeback_lapsed", actor=g.names[asker])


def flag_fell(g: GameRow, state: Any) -> Outcome:
    """The result when the flag of the side to move in ``g`` has fallen: the other side wins
    on time (a command, the sweeper and a look at the board all judge it so)."""
    loser = state.to_move
    sides = engine.get_game(g.game).side_names
    return Outcome(Termination.TIMEOUT, 1 - loser, f"{sides[loser]} ran out of time")
