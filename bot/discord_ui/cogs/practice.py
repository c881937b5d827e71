"""/practice: a game against the bot itself, at a level from 1 to 5, started at once.

The referee does everything (``Referee.practice``); the bot's replies to the player's moves
come out of ``Referee.sequence`` after the player's own, so ``RefereeBot.answer`` posts them as
followups of the command that made the bot's turn. ``/challenge`` with the bot as the opponent
lands here too (``start_practice``), at the default level.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.discord_ui.app import RefereeBot, actor_of, here
from bot.discord_ui.choices import clock_choices, variant_choices
from bot.discord_ui.cogs.play import (
    GAME_TITLES,
    MAX_DICE_WORDS,
    MAX_OPTIONS_TEXT,
    parse_options,
)
from bot.referee.practice_start import DEFAULT_LEVEL
from bot.referee.replies import Reply


async def start_practice(
    bot: RefereeBot,
    interaction: discord.Interaction[Any],
    game: str,
    *,
    level: int = DEFAULT_LEVEL,
    **terms: Any,
) -> Reply:
    """Ask the referee for a practice game against this bot's own user."""
    assert bot.user is not None  # an interaction arrives only once logged in
    return await bot.referee.practice(
        *here(interaction),
        game,
        bot=actor_of(bot.user),
        level=level,
        request_id=str(interaction.id),
        **terms,
    )


class Practice(commands.Cog):
    """Playing the bot."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="practice", description="Play the bot itself at once, at a level from 1 to 5"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game to play",
        level="1 (a beginner can win) to 5 (the bot's strongest); 3 unless you pick another",
        variant="Variant (standard unless you pick another)",
        options="Rule options as name=value pairs, e.g. flying=off or rows=8 cols=8 line=5",
        clock="Clock: none, 10+0 or 15+5 (minutes+seconds), or 24h per move",
        starter="Who moves first",
        dice_words="Your own words, mixed into every roll",
    )
    @app_commands.choices(
        game=[Choice(name=title, value=name) for name, title in GAME_TITLES.items()],
        starter=[
            Choice(name="Coin toss (verifiable dice)", value="random"),
            Choice(name="Me", value="me"),
            Choice(name="The bot", value="them"),
        ],
    )
    @app_commands.autocomplete(variant=variant_choices, clock=clock_choices)
    async def practice(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        level: Range[int, 1, 5] = DEFAULT_LEVEL,  # engine.ai.LEVELS
        variant: Range[str, 1, 40] = "standard",
        options: Range[str, 1, MAX_OPTIONS_TEXT] | None = None,
        clock: Range[str, 1, 20] = "none",
        starter: str = "random",
        dice_words: Range[str, 1, MAX_DICE_WORDS] = "",
    ) -> None:
        """Start the game; the bot's first move follows if it moves first."""
        reply = await start_practice(
            self.bot,
            interaction,
            game,
            level=level,
            variant=variant.strip().lower(),
            options=parse_options(options),
            clock=clock,
            starter=starter,
            dice_words=dice_words,
        )
        await self.bot.answer(interaction, reply)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Practice(bot))
