"""The course and the end of a game: /board /resign /draw /takeback /abort /rematch /claim."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.app import RefereeBot, here, where_of
from bot.discord_ui.guards import expensive


class GameFlow(commands.Cog):
    """Commands about the game in this channel (or thread) rather than a single move."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="board", description="Show the current position of this game again")
    @expensive("board")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        reply = await self.bot.referee.board(where_of(interaction))
        await self.bot.answer(interaction, reply)

    @app_commands.command(name="resign", description="Resign the game in this channel")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(interaction, await self.bot.referee.resign(*here(interaction)))

    draw = app_commands.Group(name="draw", description="Offer, accept, decline or withdraw a draw")

    @draw.command(name="offer", description="Offer your opponent a draw")
    async def draw_offer(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(interaction, await self.bot.referee.offer_draw(*here(interaction)))

    @draw.command(name="accept", description="Accept the draw your opponent offered")
    async def draw_accept(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(
            interaction, await self.bot.referee.answer_draw(*here(interaction), True)
        )

    @draw.command(name="decline", description="Decline the draw your opponent offered")
    async def draw_decline(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(
            interaction, await self.bot.referee.answer_draw(*here(interaction), False)
        )

    @draw.command(name="withdraw", description="Withdraw your draw offer before it is answered")
    async def draw_withdraw(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(interaction, await self.bot.referee.withdraw_draw(*here(interaction)))

    takeback = app_commands.Group(
        name="takeback", description="Ask to take back your last turn, or answer such a request"
    )

    @takeback.command(
        name="request", description="Casual games: ask to take back your last turn (not a drop)"
    )
    async def takeback_request(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(
            interaction, await self.bot.referee.request_takeback(*here(interaction))
        )

    @takeback.command(name="accept", description="Let your opponent take back their last turn")
    async def takeback_accept(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(
            interaction, await self.bot.referee.answer_takeback(*here(interaction), True)
        )

    @takeback.command(name="decline", description="Refuse your opponent's takeback request")
    async def takeback_decline(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(
            interaction, await self.bot.referee.answer_takeback(*here(interaction), False)
        )

    @app_commands.command(
        name="abort", description="Call the game off, unrated (before your first move)"
    )
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(interaction, await self.bot.referee.abort(*here(interaction)))

    @app_commands.command(name="rematch", description="Challenge your last opponent again")
    async def rematch(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(interaction, await self.bot.referee.rematch(*here(interaction)))

    @app_commands.command(
        name="claim", description="Claim the win: your opponent's time ran out or they left"
    )
    async def claim(self, interaction: discord.Interaction[Any]) -> None:
        await self.bot.answer(interaction, await self.bot.referee.claim(*here(interaction)))


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(GameFlow(bot))
