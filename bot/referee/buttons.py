"""Button clicks: each custom_id routed to the command it stands for.

A button carries what it refers to (``ButtonSpec``: its kind, the challenge's or game's id, the
game's version when it was made and, for a drop to confirm, the line). A game's button whose
version is no longer the game's is refused politely (``moved_on``), as is one whose game is
over or elsewhere.
"""

from __future__ import annotations

from bot import texts
from bot.errors import Refusal
from bot.referee.challenges import Challenges
from bot.referee.context import Context
from bot.referee.endings import Endings
from bot.referee.play import CONFIRM_WORD, DROP_ARG, Play
from bot.referee.practice import Practice
from bot.referee.replies import Actor, ButtonKind, Pressed, Reply, Where, parse_button
from bot.store import GameRow


class Buttons:
    """press: a click, by its custom_id."""

    def __init__(
        self,
        ctx: Context,
        challenges: Challenges,
        play: Play,
        endings: Endings,
        practice: Practice,
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
        if g is None or g.status != "active" or g.channel_id != where.channel_id:
            raise Refusal("button_game_gone")
        if g.version != pressed.version:
            raise Refusal("moved_on", game_id=g.id, version=g.version)
        return await self._answer(where, actor, g, pressed)

    async def _answer(self, where: Where, actor: Actor, g: GameRow, pressed: Pressed) -> Reply:
        """A game's button clicked on its game's current version."""
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
        if pressed.kind in (ButtonKind.DRAW_ACCEPT, ButtonKind.DRAW_DECLINE):
            return await self.endings.answer_draw(where, actor, accept, version=version)
        return await self.endings.answer_takeback(where, actor, accept, version=version)
