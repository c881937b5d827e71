"""Moderators: /referee abort, /referee award, /referee theme.

Two locks: ``default_permissions`` hides the group from members without Manage Messages (server
admins can change that in Discord's integration settings), and a check refuses anyone without
Manage Messages or Manage Server when the command is run anyway.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.app import RefereeBot, actor_of, is_moderator
from render.theme import THEME_NAMES

NOT_A_MODERATOR = (
    "Only moderators (Manage Messages or Manage Server permission) can use /referee commands."
)


def moderator_only() -> Any:
    """The check behind ``default_permissions``: Discord's setting can be changed per server."""

    def predicate(interaction: discord.Interaction[Any]) -> bool:
        if not is_moderator(interaction.user):
            raise app_commands.CheckFailure(NOT_A_MODERATOR)
        return True

    return app_commands.check(predicate)


class Moderation(commands.Cog):
    """Decisions above the players: end or award a game, set the server's board theme."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    referee = app_commands.Group(
        name="referee",
        description="Moderator tools: abort or award a game, set the board theme",
        default_permissions=discord.Permissions(manage_messages=True),
        guild_only=True,
    )

    @referee.command(name="abort", description="End this channel's game without a result")
    @app_commands.describe(reason="Why; it is logged and shown to the players")
    @moderator_only()
    async def abort(
        self, interaction: discord.Interaction[Any], reason: Range[str, 1, 200]
    ) -> None:
        reply = await self.bot.call(interaction, "moderator_abort", reason)
        await self.bot.answer(interaction, reply)

    @referee.command(name="award", description="Decide this channel's game: a winner, or a draw")
    @app_commands.describe(
        reason="Why; it is logged and shown to the players",
        winner="The player who wins; leave empty for a draw",
    )
    @moderator_only()
    async def award(
        self,
        interaction: discord.Interaction[Any],
        reason: Range[str, 1, 200],
        winner: discord.Member | None = None,
    ) -> None:
        chosen = actor_of(winner) if winner is not None else None
        reply = await self.bot.call(interaction, "award", chosen, reason)
        await self.bot.answer(interaction, reply)

    @referee.command(name="theme", description="The board theme for this server")
    @app_commands.describe(theme="dark suits Discord's dark mode; contrast is colour-blind safe")
    @app_commands.choices(theme=[Choice(name=name, value=name) for name in THEME_NAMES])
    @moderator_only()
    async def theme(self, interaction: discord.Interaction[Any], theme: str) -> None:
        reply = await self.bot.call(interaction, "set_setting", "theme", theme)
        await self.bot.answer(interaction, reply)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Moderation(bot))
