"""/dispute (a player stops the clocks and calls the moderators) and /import (check a record).

A dispute opens a private thread under the game's channel for the two players and the
moderators' role when the bot may (Create Private Threads and Send Messages in Threads); else the
evidence goes to the channel itself, mentioning that role. The moderators answer with the
/referee commands, in the thread or in the channel.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.app import RefereeBot, where_of
from bot.discord_format import Outgoing, private, to_message
from bot.imports import MAX_GIF_BYTES, MAX_IMPORT_BYTES
from bot.replies import Reply

log = logging.getLogger("bot.discord")


def call_moderators(out: Outgoing, users: list[int], role: int | None) -> Outgoing:
    """The packet with the players pinged and, when set, the moderators' role (nobody else)."""
    if role is not None:
        out.content = f"<@&{role}> {out.content or ''}".strip()
    out.allowed_mentions = discord.AllowedMentions(
        everyone=False,
        replied_user=False,
        users=[discord.Object(id=uid) for uid in users],
        roles=[discord.Object(id=role)] if role is not None else False,
    )
    return out


class Disputes(commands.Cog):
    """Disputes and record imports."""

    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="dispute", description="Stop the clocks and call the moderators to look at this game"
    )
    @app_commands.guild_only()
    @app_commands.describe(reason="What went wrong; the moderators see it and it is logged")
    async def dispute(
        self, interaction: discord.Interaction[Any], reason: Range[str, 1, 200] | None = None
    ) -> None:
        reply = await self.bot.call(interaction, "dispute", reason or "")
        if not reply.ok:
            await self.bot.answer(interaction, reply)
            return
        await interaction.response.defer(thinking=True)
        role = await self.bot.referee.mod_role(where_of(interaction))
        packet = call_moderators(to_message(reply, title="Dispute"), reply.mentions, role)
        room = await self._private_room(interaction, reply)
        if room is None:
            await interaction.followup.send(**packet.kwargs())
            return
        try:
            await room.send(**packet.kwargs(for_channel=True))
        except discord.HTTPException:
            log.warning("could not post the dispute in thread %s", room.id)
            await interaction.followup.send(**packet.kwargs())
            return
        await interaction.followup.send(
            f"{interaction.user.display_name} opened a dispute: the game is frozen. The players "
            f"and the moderators look at it in {room.mention}.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _private_room(
        self, interaction: discord.Interaction[Any], reply: Reply
    ) -> discord.Thread | None:
        """A private thread with both players in it, or None when the bot may not make one."""
        channel = interaction.channel
        perms = interaction.app_permissions
        if not isinstance(channel, discord.TextChannel) or not (
            perms.create_private_threads and perms.send_messages_in_threads
        ):
            return None
        try:
            room = await channel.create_thread(
                name=f"Dispute: game {reply.game_id}",
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=1440,
            )
            for uid in reply.mentions:
                await room.add_user(discord.Object(id=uid))
        except discord.HTTPException:
            log.warning("could not open a private thread for a dispute in %s", channel.id)
            return None
        return room

    @app_commands.command(
        name="import", description="Check a record file: verdict, final position and replay"
    )
    @app_commands.describe(record="A record file (JSON), e.g. from /record")
    async def import_record(
        self, interaction: discord.Interaction[Any], record: discord.Attachment
    ) -> None:
        """Defer first: the replay animation can take longer than Discord's three seconds."""
        if record.size > MAX_IMPORT_BYTES:
            await self.bot.send(
                interaction,
                private(f"{record.filename} is larger than {MAX_IMPORT_BYTES:,} bytes"),
            )
            return
        await interaction.response.defer(thinking=True)
        try:
            data = await record.read()
        except discord.HTTPException:
            await interaction.followup.send("I could not download that file: try again.")
            return
        limit = min(interaction.filesize_limit or MAX_GIF_BYTES, MAX_GIF_BYTES)
        reply = await self.bot.referee.import_record(
            where_of(interaction), data, name=record.filename, gif=True, max_gif_bytes=limit
        )
        await self.bot.answer(interaction, reply, title="Import")


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Disputes(bot))
