"""Looking back and learning: /history /record /replay /verify /rules /help."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range
from discord.ext import commands

from bot.discord_ui.app import RefereeBot, here, where_of
from bot.discord_ui.format import COLOUR_INFO
from bot.discord_ui.guards import expensive
from bot.discord_ui.option_guard import INT_LIMIT
from bot.discord_ui.translator import LOCALES
from bot.i18n import msg, reply_words, say, say_all
from bot.referee import replays
from bot.rules_text import RULES, summary
from translations import LANGUAGES, NAMES, words

log = logging.getLogger("bot.discord")

MAX_REPLAY_BYTES = 8 * 1024 * 1024
# a game's number as its texts show it ("game 12"), up to Discord's own ceiling for integers
# (an id the store could hold past it is never reached); the referee refuses one this channel
# never played (another channel's or server's alike)
GameNumber = Range[int, 1, INT_LIMIT]
GAME_OPTION = "A game of this channel by its number (as its record shows); the latest if left out"


def replay_gif(record_json: bytes, theme: str, max_bytes: int, lang: str = "en") -> bytes:
    """The animated replay of a record (runs in a worker thread: Pillow work), its words in
    ``lang`` (the channel's: the server's language)."""
    from engine.record import Record

    return replays.replay_gif(Record.from_json(record_json), theme, max_bytes, lang)


class Info(commands.Cog):
    """History, proof, rules and help."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    async def _language(self, interaction: discord.Interaction[Any]) -> str:
        """A private reply's language: the user's choice, client locale, the server's."""
        locale = LOCALES.get(interaction.locale)
        return await self.bot.referee.language(where_of(interaction), interaction.user.id, locale)

    @app_commands.command(name="language", description="The language the referee answers you in")
    @app_commands.describe(language="Your language; automatic follows your Discord client")
    @app_commands.choices(
        language=[
            Choice(name="automatic", value="auto"),
            *(Choice(name=NAMES[code], value=code) for code in LANGUAGES),
        ]
    )
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        code = None if language == "auto" else language
        reply = await self.bot.referee.set_language(*here(interaction), code)
        await self.bot.answer(interaction, reply, title=msg("title.language"))

    @app_commands.command(name="history", description="The moves of this channel's game so far")
    @expensive("history")
    @app_commands.describe(
        page="Page of the history: 1 (the default) holds the latest moves, 2 the ones before",
        game=GAME_OPTION,
    )
    async def history(
        self,
        interaction: discord.Interaction[Any],
        page: Range[int, 1, 1000] | None = None,
        game: GameNumber | None = None,
    ) -> None:
        reply = await self.bot.referee.history(where_of(interaction), page, game_id=game)
        await self.bot.answer(interaction, reply, title=msg("title.history"))

    @app_commands.command(name="record", description="The game's record as a file (JSON)")
    @expensive("record")
    @app_commands.describe(game=GAME_OPTION)
    async def record(
        self, interaction: discord.Interaction[Any], game: GameNumber | None = None
    ) -> None:
        reply = await self.bot.referee.record(where_of(interaction), game_id=game)
        await self.bot.answer(interaction, reply, title=msg("title.record"))

    @app_commands.command(name="replay", description="An animated replay of this channel's game")
    @expensive("replay")
    @app_commands.describe(game=GAME_OPTION)
    async def replay(
        self, interaction: discord.Interaction[Any], game: GameNumber | None = None
    ) -> None:
        """Refuse privately, or defer: drawing every frame can take longer than three seconds.

        (A refusal after a public defer would be public: the defer fixes the followup's flags.)
        """
        reply = await self.bot.referee.record(where_of(interaction), game_id=game)
        if not reply.ok or reply.file is None:
            lang = (await self.bot.languages(interaction))[1]
            await interaction.response.send_message(reply_words(reply, lang), ephemeral=True)
            return
        await interaction.response.defer(thinking=True)
        limit = min(interaction.filesize_limit or MAX_REPLAY_BYTES, MAX_REPLAY_BYTES)
        theme = str((await self.bot.referee.settings(where_of(interaction))).get("theme") or "dark")
        public = (await self.bot.languages(interaction))[0]
        gif = await asyncio.to_thread(replay_gif, reply.file, theme, limit, public)
        name = f"replay-{reply.game_id}.gif" if reply.game_id else "replay.gif"
        embed = discord.Embed(title=say(msg("title.replay"), public), colour=COLOUR_INFO)
        embed.set_image(url=f"attachment://{name}")
        described = say(msg("replay.alt"), public)
        await interaction.followup.send(
            embed=embed,
            file=discord.File(io.BytesIO(gif), filename=name, description=described),
        )

    @app_commands.command(name="verify", description="Recheck every die roll and move of the game")
    @expensive("verify")
    @app_commands.describe(game=GAME_OPTION)
    async def verify(
        self, interaction: discord.Interaction[Any], game: GameNumber | None = None
    ) -> None:
        reply = await self.bot.referee.verify(where_of(interaction), game_id=game)
        await self.bot.answer(interaction, reply, title=msg("title.verification"))

    @app_commands.command(name="rules", description="A short summary of a game's rules")
    @app_commands.describe(game="Which game; the one being played here if left out")
    @app_commands.choices(
        game=[Choice(name=title, value=name) for name, (title, _) in RULES.items()]
    )
    async def rules(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        lang = await self._language(interaction)
        game = game or await self.bot.referee.game_here(where_of(interaction))
        if game is None:  # nothing played or challenged to here: the option says which
            await interaction.response.send_message(
                say(msg("refusal.rules_which"), lang), ephemeral=True
            )
            return
        here = await self.bot.referee.terms_here(where_of(interaction), game)
        title, text = summary(game, lang, here.variant if here else "standard")
        heading = words(lang).t("rules.title", game=title)
        if here and here.notes:  # what the summary leaves out: changed options, a custom board
            text += "\n\n" + say_all(list(here.notes), lang)
        embed = discord.Embed(title=heading, description=text, colour=COLOUR_INFO)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="help", description="What the referee can do and how to start")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        w = words(await self._language(interaction))
        embed = discord.Embed(
            title=w.t("help.title"), description=w.t("help.discord"), colour=COLOUR_INFO
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Info(bot))
