"""Play: the commands that change a game by a move: a move in the game's notation, an Atmalof
announcement (asked about first when it can only lose the turn) and the roll it waits for.
What may be played (``choices``) and the board to look at (``views``) live apart: they only
read."""

from __future__ import annotations

import logging
import re
from typing import Any

import engine
from bot import texts
from bot.errors import BrokenGame, Refusal, engine_reason
from bot.i18n import Msg, msg, say
from bot.ladder_store import change_game
from bot.referee.board_reply import as_lines
from bot.referee.context import (
    DECLINED_BY_PLAY,
    Context,
    declined_params,
    declines_draw,
    lapses,
)
from bot.referee.move_words import (
    asks_why,
    first_word,
    is_move_word,
    nothing_to,
    removal_first,
)
from bot.referee.records import iso
from bot.referee.replies import Actor, ButtonKind, ButtonSpec, Reply, Where
from bot.referee.suggest import unknown, unreadable
from bot.referee.wrapper import current_request_id, reply_dict
from bot.store import GameRow, NewAction
from engine import EngineError, ParseError
from engine.core import MAX_COMMAND_LENGTH

log = logging.getLogger(__name__)


CONFIRM_WORD = "confirm"  # "drop row 4 confirm": announce a drop that can only lose the turn
DROP_ARG = re.compile(r"(row|col)([0-9]{1,2})")  # a Confirm button's line: "row4", "col12"


class Play:
    """Moves: act (Atmalof announcements and their rolls too), roll_pending."""

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
            if not confirmed and futile(g, state, action):
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
        hopeless = futile(g, state, rules.parse(state, notation))
        said = msg(
            "move.announces_futile" if hopeless else "move.announces",
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


def futile(g: GameRow, state: Any, action: Any) -> bool:
    """An announcement that can only lose the turn (every square the die reaches is taken)."""
    landings = engine.get_game(g.game).landings(state, action)
    return bool(landings) and not any(x.free for x in landings)


def line_msg(notation: str) -> Msg:
    """ "drop col 3" -> "column 3" as data: sentences spell the line out; the notation stays."""
    words = notation.split()
    return msg("line.col" if words[1] == "col" else "line.row", index=words[2])
