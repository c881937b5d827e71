"""Moderators: /referee abort, award, rewind, resume, restore, void, theme, settings (ladders per
variant, the role disputes notify), season-close, forget-server (docs/privacy.md).

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

import translations
from bot.discord_ui.app import RefereeBot, actor_of, here, is_moderator, where_of
from bot.i18n import msg, plain, say, say_all
from bot.referee.settings_words import settings_lines
from render.theme import THEME_NAMES

LADDER_CHOICES = {
    "game": "one ladder per game, variants together",
    "variant": "one ladder per variant, every game",
    "atmalof": "one ladder per variant for Atmalof only",
    "morris": "one ladder per variant for Nine Men's Morris only",
    "abalone": "one ladder per variant for Abalone only",
}


def ladder_value(choice: str) -> dict[str, Any]:
    """The guild ``ladder`` setting for a /referee settings choice."""
    if choice in ("game", "variant"):
        return {"per_variant": choice == "variant"}
    return {"per_variant": [choice]}


NOT_A_MODERATOR = msg("discord.not_a_moderator")  # said in the reader's language (tree.report)


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
        reply = await self.bot.referee.moderator_abort(*here(interaction), reason)
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
        reply = await self.bot.referee.award(*here(interaction), chosen, reason)
        await self.bot.answer(interaction, reply)

    @referee.command(name="rewind", description="Show the position after action N (read-only)")
    @app_commands.describe(action="The action number; 0 is the start", reason="Why (logged)")
    @moderator_only()
    async def rewind(
        self,
        interaction: discord.Interaction[Any],
        action: Range[int, 0, 5000],
        reason: Range[str, 1, 200] | None = None,
    ) -> None:
        reply = await self.bot.referee.rewind(*here(interaction), action, reason or "")
        await self.bot.answer(interaction, reply, title=msg("title.position_after", action=action))

    @referee.command(name="resume", description="Unfreeze a disputed game: the clocks go on")
    @app_commands.describe(reason="Why (logged)")
    @moderator_only()
    async def resume(
        self, interaction: discord.Interaction[Any], reason: Range[str, 1, 200] | None = None
    ) -> None:
        reply = await self.bot.referee.resume(*here(interaction), reason or "")
        await self.bot.answer(interaction, reply)

    @referee.command(
        name="restore", description="By agreement: continue the game from the position after N"
    )
    @app_commands.describe(
        action="The action to go back to; 0 is the start",
        reason="Why; it is logged and shown to the players",
    )
    @moderator_only()
    async def restore(
        self,
        interaction: discord.Interaction[Any],
        action: Range[int, 0, 5000],
        reason: Range[str, 1, 200],
    ) -> None:
        reply = await self.bot.referee.restore(*here(interaction), action, reason)
        await self.bot.answer(interaction, reply)

    @referee.command(name="void", description="End this channel's game unrated (e.g. a dispute)")
    @app_commands.describe(reason="Why; it is logged and shown to the players")
    @moderator_only()
    async def void(self, interaction: discord.Interaction[Any], reason: Range[str, 1, 200]) -> None:
        reply = await self.bot.referee.void(*here(interaction), reason)
        await self.bot.answer(interaction, reply)

    @referee.command(name="theme", description="The board theme for this server")
    @app_commands.describe(theme="dark suits Discord's dark mode; contrast is colour-blind safe")
    @app_commands.choices(theme=[Choice(name=name, value=name) for name in THEME_NAMES])
    @moderator_only()
    async def theme(self, interaction: discord.Interaction[Any], theme: str) -> None:
        reply = await self.bot.referee.set_setting(*here(interaction), "theme", theme)
        await self.bot.answer(interaction, reply)

    @referee.command(name="settings", description="Show or change this server's referee settings")
    @app_commands.describe(
        ladders="Ratings per game (variants together) or per variant",
        moderators="The role a /dispute notifies",
        takebacks="Let casual games take back a move when both agree (rated games never do)",
        language="The server's language: public messages and board images",
    )
    @app_commands.choices(
        ladders=[Choice(name=name, value=value) for value, name in LADDER_CHOICES.items()],
        language=[Choice(name=translations.NAMES[c], value=c) for c in translations.LANGUAGES],
    )
    @moderator_only()
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        ladders: str | None = None,
        moderators: discord.Role | None = None,
        takebacks: bool | None = None,
        language: str | None = None,
    ) -> None:
        if language is not None:
            reply = await self.bot.referee.set_setting(*here(interaction), "language", language)
            await self.bot.answer(interaction, reply, title=msg("title.settings"))
            return
        if takebacks is not None:
            reply = await self.bot.referee.set_setting(*here(interaction), "takebacks", takebacks)
            await self.bot.answer(interaction, reply, title=msg("title.settings"))
            return
        if moderators is not None:
            reply = await self.bot.referee.set_mod_role(*here(interaction), moderators.id)
            await self.bot.answer(interaction, reply, title=msg("title.settings"))
            return
        if ladders is not None:
            reply = await self.bot.referee.set_setting(
                *here(interaction), "ladder", ladder_value(ladders)
            )
            await self.bot.answer(interaction, reply, title=msg("title.settings"))
            return
        current = await self.bot.referee.settings(where_of(interaction))
        role = await self.bot.referee.mod_role(where_of(interaction))
        notify = msg("settings.notify", role=plain(f"<@&{role}>")) if role else None
        lines = settings_lines(current, notify=notify or msg("settings.notify_nobody"))
        lang = (await self.bot.languages(interaction))[1]
        text = say_all(lines, lang)
        await interaction.response.send_message(text, ephemeral=True)

    @referee.command(
        name="season-close",
        description="Close this server's ladder season: archive the ratings, everyone restarts",
    )
    @app_commands.describe(confirm="True to archive every rating now (this cannot be undone)")
    @moderator_only()
    async def season_close(self, interaction: discord.Interaction[Any], confirm: bool) -> None:
        if not confirm:
            lang = (await self.bot.languages(interaction))[1]
            await interaction.response.send_message(
                say(msg("settings.season_stays"), lang), ephemeral=True
            )
            return
        reply = await self.bot.referee.close_season(*here(interaction))
        await self.bot.answer(interaction, reply, title=msg("title.season_closed"))

    @referee.command(
        name="forget-server",
        description="Remove this server's games, ladders and settings from the bot (privacy)",
    )
    @app_commands.describe(confirm="True to delete them now (this cannot be undone)")
    @moderator_only()
    async def forget_server(self, interaction: discord.Interaction[Any], confirm: bool) -> None:
        if not confirm:
            lang = (await self.bot.languages(interaction))[1]
            await interaction.response.send_message(
                say(msg("settings.data_stays"), lang), ephemeral=True
            )
            return
        reply = await self.bot.referee.forget_server(*here(interaction))
        await self.bot.answer(interaction, reply, title=msg("title.server_data_removed"))


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Moderation(bot))
