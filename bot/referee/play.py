"""Play: a move in the game's notation, the roll an announcement waits for, the board and the
legal moves (autocomplete, the console's list)."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import engine
from bot import texts
from bot.errors import BrokenGame, Conflict, Refusal, engine_reason
from bot.game_names import game_title
from bot.i18n import Msg, msg, say
from bot.ladder_store import change_game
from bot.referee.board_reply import as_lines, board_reply
from bot.referee.context import (
    DECLINED_BY_PLAY,
    MAX_CHOICES,
    Context,
    declined_params,
    declines_draw,
    lapses,
    not_a_player,
)
from bot.referee.move_words import (
    asks_why,
    first_word,
    is_move_word,
    nothing_to,
    removal_first,
)
from bot.referee.records import iso
from bot.referee.replies import Actor, ButtonKind, ButtonSpec, Reply, RulesHere, Where
from bot.referee.suggest import unknown, unreadable
from bot.referee.wrapper import current_request_id, reply_dict
from bot.rules_text import describes
from bot.store import GameRow, NewAction
from engine import EngineError, ParseError
from engine.core import MAX_COMMAND_LENGTH
from engine.record import stored_options

log = logging.getLogger(__name__)


CONFIRM_WORD = "confirm"  # "drop row 4 confirm": announce a drop that can only lose the turn
DROP_ARG = re.compile(r"(row|col)([0-9]{1,2})")  # a Confirm button's line: "row4", "col12"


class Play:
    """Moves: act (Atmalof announcements and their rolls too), the board, legal moves."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def act(
        self,
        where: Where,
        actor: Actor,
        text: str,
        *,
        version: int | None = None,
    ) -> Reply:
        """Play ``text`` in the game's notation ("drop row 4", "move d7 d6 x b6", "push a1 a3 ne").

        A drop into a full Atmalof line can only lose the turn: it is announced only when
        confirmed ("drop row 4 confirm", or the Confirm button), else the answer asks first.
        A repeated ``request_id`` gets the first answer again and changes nothing; ``version``
        (from a button) refuses a click on a position the game has moved on from.
        """
        request_id = current_request_id()  # the wrapper answered a repeat already
        head = first_word(text)
        asks = asks_why(text)  # a hint picked: the game's state is the answer, not the words
        if head and not asks and not is_move_word(head[:MAX_COMMAND_LENGTH]):
            raise await unknown(self.ctx, where, text, head)
        words = str(text).split()
        confirmed = len(words) > 1 and words[-1].lower() == CONFIRM_WORD
        if confirmed:
            text = " ".join(words[:-1])
        g, state, seat, prefix = await self.ctx.playing(where, actor, version=version)
        rules = engine.get_game(g.game)
        turn = None
        if seat != state.to_move:
            player = texts.seat_msg(g, state.to_move)
            turn = Refusal("not_your_turn", {"player": player}, game_id=g.id, version=g.version)
        if turn is not None and asks:
            raise turn
        if asks:  # "/move from:?" picked while placing: why, not "'?' is not a point"
            why = nothing_to([rules.notation(state, a) for a in rules.legal(state)], head, g.id)
            if why is not None:
                raise why
        try:
            action = rules.parse(state, text)
        except ParseError as exc:  # not a command of this game at all: say that first
            raise unreadable(g, state, text, exc) from exc
        except EngineError as exc:  # a real command, only not now: the turn is the reason
            side = texts.side_msg(g.game, 1 - state.to_move)
            raise (
                turn
                or removal_first(exc, rules, state, side, g.id, g.version)
                or Refusal("engine", engine_reason(exc, g.game), game_id=g.id, version=g.version)
            ) from exc
        if turn is not None:
            raise turn
        now = self.ctx.now()
        notation = rules.notation(state, action)
        if rules.die_faces(state, action) is not None:
            if not confirmed and self.futile(g, state, action):
                return self.confirm_first(g, state, actor, notation, prefix)
            return await self.announce(g, state, seat, actor, notation, now, request_id, prefix)
        after = rules.apply(state, action, checked=True)  # parse above is the one check
        said = rules.describe(state, action, None)
        entry = NewAction(seat, str(actor.id), notation, None, iso(now))
        return await self.ctx.commit_move(
            g, state, after, action, entry, said, now, request_id, prefix, t_end=now
        )

    async def roll_pending(self, where: Where, *, game_id: int | None = None) -> Reply:
        """Roll the die for a stored Atmalof announcement and apply the drop."""
        g = await (
            self.ctx.store.game(game_id)
            if game_id
            else self.ctx.store.active_game(where.channel_id)
        )
        if g is None or g.status != "active":
            raise Refusal("no_game")
        if g.pending is None:
            raise Refusal("no_roll_waiting", game_id=g.id, version=g.version)
        try:
            return await self.ctx.complete_roll(g)
        except BrokenGame as broken:
            return self.ctx.broken_reply(g, broken)

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
        hopeless = [rules.notation(state, a) for a in legal if self.futile(g, state, a)]
        return [rules.notation(state, a) for a in legal], hopeless

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

    async def announce(
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
        futile = self.futile(g, state, rules.parse(state, notation))
        said = msg(
            "move.announces_futile" if futile else "move.announces",
            player=texts.seat_msg(g, seat),
            line=line_msg(notation),
        )
        # Announcing answers them too (a draw offer declined, a takeback lapsed), said after
        # the announcement as every game's move says them after the move: what the player did
        # first, then what it answered.
        answered = lapses(g, seat)
        lines = [*as_lines(prefix), said, *answered]
        text = prefix + "\n".join(say(m) for m in [said, *answered])
        changes: dict[str, Any] = {
            "pending": notation,
            "pending_seat": seat,
            "pending_at": now,
            "takeback_offer": None,
            "deadline": None,
            "updated_at": now,
        }
        if declines_draw(g, seat):
            changes["draw_offer"] = None
        reply = Reply(
            text=text, lines=lines, pending_roll=True, game_id=g.id, version=g.version + 1
        )
        if declines_draw(g, seat):
            reply.notice, reply.params = DECLINED_BY_PLAY, declined_params(g, seat)
        request = (request_id, reply_dict(reply)) if request_id else None
        await change_game(self.ctx.store, g, changes, request=request)  # Conflict: moved on
        return reply

    @staticmethod
    def futile(g: GameRow, state: Any, action: Any) -> bool:
        """An announcement that can only lose the turn (every square the die reaches is taken)."""
        landings = engine.get_game(g.game).landings(state, action)
        return bool(landings) and not any(x.free for x in landings)

    def confirm_first(
        self, g: GameRow, state: Any, actor: Actor, notation: str, prefix: str
    ) -> Reply:
        """A private question before a drop that can only lose the turn: nothing is stored,
        and the player may still do something else. Confirm announces it (and rolls)."""
        question = msg("move.confirm_futile", line=line_msg(notation))
        lines = [*as_lines(prefix), question]
        text = prefix + say(question)
        arg = "".join(notation.split()[1:])  # "drop row 4" -> "row4"
        typed = f"{notation} confirm"
        return Reply(
            text=text,
            lines=lines,
            ok=False,
            ephemeral=True,
            game_id=g.id,
            version=g.version,
            buttons=[
                ButtonSpec(
                    say(msg("button.drop-confirm", line=line_msg(notation))),
                    ButtonKind.DROP_CONFIRM,
                    g.id,
                    g.version,
                    "danger",
                    arg=arg,
                    typed=typed,
                    seq=g.seq,  # a click after the drop was made is told so
                ),
                ButtonSpec(
                    "Cancel", ButtonKind.DROP_CANCEL, g.id, g.version, "secondary", arg, seq=g.seq
                ),
            ],
        )


def line_msg(notation: str) -> Msg:
    """ "drop col 3" -> "column 3" as data: sentences spell the line out; the notation stays."""
    words = notation.split()
    return msg("line.col" if words[1] == "col" else "line.row", index=words[2])


def _asked(g: GameRow, seat: int) -> dict[str, Msg | str]:
    """Who asked a question that waits (a draw, a takeback) and who answers it (``answerer``:
    the name alone, for the console's line to type)."""
    other = 1 - seat
    return {
        "asker": texts.seat_msg(g, seat),
        "other": texts.seat_msg(g, other),
        "answerer": g.names[other],
    }
