"""Ladders: /ladder (the leaderboard) and /stats (a player's season, chart and dice luck)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.discord_ui.app import RefereeBot, actor_of, here, where_of
from bot.discord_ui.guards import expensive
from bot.i18n import msg, say
from bot.referee.replies import Actor
from bot.texts import ladder_name

MAX_CHOICES = 25


class Ladder(commands.Cog):
    """Read-only views of this server's ratings; ratings change only when rated games end."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="ladder", description="This server's leaderboard for a game")
    @app_commands.guild_only()  # a ladder belongs to a server: none in direct messages
    @expensive("ladder")
    @app_commands.describe(
        game="Which ladder (default: this channel's game)",
        show_provisional="Also rank players whose rating is still provisional (shown with ?)",
        top="How many players to list",
    )
    async def ladder(
        self,
        interaction: discord.Interaction[Any],
        game: Range[str, 1, 40] | None = None,
        show_provisional: bool = False,
        top: Range[int, 1, 25] = 10,
    ) -> None:
        reply = await self.bot.referee.ladder(
            *here(interaction), game, top=top, include_provisional=show_provisional
        )
        await self.bot.answer(interaction, reply, title=msg("title.ladder"))

    @app_commands.command(name="stats", description="Rating, record, streaks and dice luck")
    @app_commands.guild_only()
    @expensive("stats")
    @app_commands.describe(
        player="Whose stats (default: yours)",
        game="Only this game (default: every game)",
        opponent="Show the head-to-head record against this player",
    )
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member | discord.User | None = None,
        game: Range[str, 1, 40] | None = None,
        opponent: discord.Member | discord.User | None = None,
    ) -> None:
        who = self._person(player) if player is not None else None
        rival = self._person(opponent) if opponent is not None else None
        reply = await self.bot.referee.stats(*here(interaction), who, game, rival)
        await self.bot.answer(interaction, reply, title=msg("title.stats"))

    def _person(self, user: discord.Member | discord.User) -> Actor:
        """A player named in an option. The bot itself is the practice opponent, whose games
        are never rated: it is known by its id, as /challenge knows it, not by the option's
        user data alone."""
        me = self.bot.user
        return actor_of(me if me is not None and user.id == me.id else user)

    @ladder.autocomplete("game")
    @stats.autocomplete("game")
    async def _ladders(self, interaction: discord.Interaction[Any], current: str) -> list[Choice]:
        """This server's ladders by their names in the reader's language ("Nine Men's Morris",
        "Junior Atmalof", as every reply names them); the values stay their keys."""
        keys = await self.bot.referee.ladder_names(where_of(interaction))
        typed = str(current or "").lower()
        lang = (await self.bot.languages(interaction))[1]
        named = [(key, say(ladder_name(key), lang)[:100]) for key in keys]
        return [
            Choice(name=name, value=key)
            for key, name in named
            if typed in key or typed in name.lower()
        ][:MAX_CHOICES]


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Ladder(bot))
