"""Button clicks: each custom_id routed to the command it stands for; a click that comes after
its game changed is told what became of what it asked.

A button carries what it refers to (``ButtonSpec``: its kind, the challenge's or game's id,
the game's version when it was made and, for a drop to confirm, the line and the move count).
A game's button whose version is no longer the game's, or whose command loses the race to
another (a ``Conflict``: a double click's twin landed first), is refused by what the referee
knows of the game now, never by the words of another answer (but a draw offer's buttons answer
the offer while one by the same side still waits for the clicker: its offerer's own moves
leave it standing):

- the drop it asked to announce is the game's next move after the question, or waits for its
  roll (``drop_announced``);
- the game is over: a draw it accepted was agreed (``draw_agreed``), else how it ended
  (``button_game_over``);
- an offer's button when no such question waits for the clicker any more: it was answered,
  lapsed or declined by a move (``no_draw_offer``, ``no_takeback_request``); an offer's
  button clicked by its maker while it stands (``own_draw_offer``, ``own_takeback_request``);
- else the game moved on in some other way (``moved_on``: look at the board and try again).

A challenge's buttons say "already answered" themselves (``Challenges``); a rematch's say when
it started already (``Challenges.rematch_begun``).
"""

from __future__ import annotations

from bot import texts
from bot.errors import Conflict, Refusal
from bot.referee.challenges import Challenges
from bot.referee.context import Context
from bot.referee.endings import Endings, own_draw_offer, own_takeback_request
from bot.referee.play import CONFIRM_WORD, DROP_ARG, Play, line_msg
from bot.referee.practice_start import PracticeStart
from bot.referee.replies import Actor, ButtonKind, Pressed, Reply, Where, parse_button
from bot.store import GameRow
from engine import Termination

DROP_KINDS = (ButtonKind.DROP_CONFIRM, ButtonKind.DROP_CANCEL)


class Buttons:
    """press: a click, by its custom_id."""

    def __init__(
        self,
        ctx: Context,
        challenges: Challenges,
        play: Play,
        endings: Endings,
        practice: PracticeStart,
    ) -> None:
        self.ctx = ctx
        self.challenges = challenges
        self.play = play
        self.endings = endings
        self.practice = practice

    async def press(self, where: Where, actor: Actor, custom_id: str) -> Reply:
        """The answer to a click on the button ``custom_id`` (``ButtonSpec.custom_id``)."""
        pressed = parse_button(custom_id)
        if pressed is None:
            raise Refusal("not_my_button")
        if pressed.kind is ButtonKind.ACCEPT:
            return await self.challenges.accept(where, actor, pressed.target_id)
        if pressed.kind is ButtonKind.DECLINE:
            return await self.challenges.decline(where, actor, pressed.target_id)
        if pressed.kind is ButtonKind.REMATCH:
            return await self.practice.rematch(where, actor, pressed.target_id)
        g = await self.ctx.store.game(pressed.target_id)
        if g is None or g.channel_id != where.channel_id:
            raise Refusal("button_game_gone")
        if g.status == "active" and (
            g.version == pressed.version or _offer_stands(g, actor, pressed)
        ):
            try:
                return await self._answer(where, actor, g, pressed)
            except Conflict:  # another command landed first (this click's double, say)
                pass
        raise await self.overtaken(actor, pressed)

    async def _answer(self, where: Where, actor: Actor, g: GameRow, pressed: Pressed) -> Reply:
        """A game's button clicked on its game's current version, or a draw offer's button
        while an offer by the same side waits for the clicker (``_offer_stands``)."""
        version = pressed.version
        if pressed.kind is ButtonKind.DROP_CONFIRM:
            line = DROP_ARG.fullmatch(pressed.arg)
            if line is None:
                raise Refusal("not_my_button")
            drop = f"drop {line[1]} {line[2]} {CONFIRM_WORD}"
            return await self.play.act(where, actor, drop, version=version)
        if pressed.kind is ButtonKind.DROP_CANCEL:
            text = texts.notice_text("drop_cancelled", {})
            return Reply(
                text=text, notice="drop_cancelled", ephemeral=True, game_id=g.id, version=g.version
            )
        accept = pressed.kind in (ButtonKind.DRAW_ACCEPT, ButtonKind.TAKEBACK_ACCEPT)
        if pressed.kind in DRAW_KINDS:  # no version: it answers the offer that waits, if any
            return await self.endings.answer_draw(where, actor, accept)
        return await self.endings.answer_takeback(where, actor, accept, version=version)

    async def overtaken(self, actor: Actor, pressed: Pressed) -> Refusal:
        """Why a click on a game's button that its game has moved past does nothing, as the
        game now says it (see the module): read afresh, as the click that overtook this one
        may have landed after the first look."""
        g = await self.ctx.store.game(pressed.target_id)
        if g is None:
            return Refusal("button_game_gone")
        announced = await self._announced(g, actor, pressed)
        if announced is not None:
            return announced
        if g.status != "active":
            if (
                pressed.kind is ButtonKind.DRAW_ACCEPT
                and g.termination == Termination.AGREEMENT.value
            ):
                return Refusal("draw_agreed", game_id=g.id)
            ended = await self.ctx.ended_msg(g)
            if ended is None:
                return Refusal("button_game_gone")
            return Refusal("button_game_over", {"outcome": ended}, game_id=g.id)
        answered = _answered_offer(g, actor, pressed)
        if answered is not None:
            return answered
        return Refusal("moved_on", game_id=g.id, version=g.version)

    async def _announced(self, g: GameRow, actor: Actor, pressed: Pressed) -> Refusal | None:
        """``drop_announced`` when the drop a confirm question (its Announce or Cancel button)
        was about is made: the clicker's announcement waits for its roll at the question's move
        count, or is the live move right after it. None otherwise, or for a button from before
        buttons carried the move count."""
        line = DROP_ARG.fullmatch(pressed.arg)
        seat = g.seat_of(actor.id)
        if pressed.kind not in DROP_KINDS or line is None or pressed.seq is None or seat is None:
            return None
        notation = f"drop {line[1]} {line[2]}"
        made = g.pending == notation and g.pending_seat == seat and g.seq == pressed.seq
        if not made and g.seq > pressed.seq:
            after = await self.ctx.store.actions(g.id, pressed.seq + 1, after=pressed.seq)
            made = bool(after) and after[0].side == seat and after[0].action == notation
        if not made:
            return None
        return Refusal("drop_announced", {"line": line_msg(notation)}, game_id=g.id)


DRAW_KINDS = (ButtonKind.DRAW_ACCEPT, ButtonKind.DRAW_DECLINE)
TAKEBACK_KINDS = (ButtonKind.TAKEBACK_ACCEPT, ButtonKind.TAKEBACK_DECLINE)


def _offer_stands(g: GameRow, actor: Actor, pressed: Pressed) -> bool:
    """A draw offer's button clicked by the player it asks while an offer by the same side
    still waits for them: it answers that offer though the game moved on since the button was
    made (its offerer moved, or announced a drop whose roll the answer completes first), since
    the offerer's own actions leave their offer standing (``context.declines_draw``) and the
    question the button asks is unchanged. (Any action of the clicker's own would have
    declined it.) ``Endings.answer_draw`` checks again, after any roll, that it still waits."""
    seat = g.seat_of(actor.id)
    return pressed.kind in DRAW_KINDS and seat is not None and g.draw_offer == 1 - seat


def _answered_offer(g: GameRow, actor: Actor, pressed: Pressed) -> Refusal | None:
    """``no_draw_offer`` or ``no_takeback_request`` when an offer's button is clicked on a
    running game where no such question waits for the clicker any more (it was answered, a
    double click's twin answered it, or the game went on and it lapsed or was declined):
    there is nothing to try again; ``own_draw_offer`` or ``own_takeback_request`` when the
    question waiting is the clicker's own (the opponent answers it). None for other buttons,
    or while the question still waits."""
    seat = g.seat_of(actor.id)
    if pressed.kind in DRAW_KINDS:
        if seat is not None and g.draw_offer == seat:
            return own_draw_offer(g, seat)
        waiting = g.draw_offer
        code = "no_draw_offer"
    elif pressed.kind in TAKEBACK_KINDS:
        if seat is not None and g.takeback_offer == seat:
            return own_takeback_request(g, seat)
        waiting = g.takeback_offer
        code = "no_takeback_request"
    else:
        return None
    if waiting is None or waiting == seat:
        return Refusal(code, game_id=g.id, version=g.version)
    return None
