"""/dispute (a player stops the clocks and calls the moderators) and /import (check a record).

A dispute opens a private thread under the game's channel for the two players and the
moderators' role when the bot may (Create Private Threads and Send Messages in Threads); else the
evidence goes to the channel itself, mentioning that role. The moderators answer with the
/referee commands, in the thread or in the channel.
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Range
from discord.ext import commands

from bot.discord_ui.app import RefereeBot, actor_of, here, where_of
from bot.discord_ui.cogs.info import replay_gif
from bot.discord_ui.format import Outgoing, escaped, to_message
from bot.discord_ui.guards import expensive
from bot.discord_ui.tree import UserFacingError
from bot.i18n import Msg, msg, say
from bot.referee.imports import MAX_IMPORT_BYTES
from bot.referee.replays import MAX_GIF_BYTES
from bot.referee.replies import Reply

log = logging.getLogger("bot.discord")

TEXT_TYPES = ("application/json", "text/plain", "text/json", "")  # "": Discord did not say


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
        if await self._too_many(interaction):
            return
        reply = await self.bot.referee.dispute(*here(interaction), reason or "")
        if not reply.ok:
            await self.bot.answer(interaction, reply)
            return
        if self.bot.cooldowns is not None:  # only a dispute opened counts towards the limit
            self.bot.cooldowns.check("dispute", interaction.user.id, _at(interaction))
        reply = await self.bot.referee.draw(reply)  # a board held while the bot searched
        await interaction.response.defer(thinking=True)
        role = await self.bot.referee.mod_role(where_of(interaction))
        public = (await self.bot.languages(interaction))[0]  # the channel's: the server's
        said = to_message(reply, title=msg("title.dispute"), lang=public)
        packet = call_moderators(said, reply.mentions, role)
        room = await self._private_room(interaction, reply, public)
        if room is None:
            await interaction.followup.send(**packet.kwargs())
            return
        try:
            await room.send(**packet.kwargs(for_channel=True))
        except discord.HTTPException:
            log.warning("could not post the dispute in thread %s", room.id)
            await interaction.followup.send(**packet.kwargs())
            return
        opened = msg(
            "discord.dispute_opened", name=actor_of(interaction.user).name, room=room.mention
        )
        await interaction.followup.send(
            say(opened, public, escaped), allowed_mentions=discord.AllowedMentions.none()
        )

    async def _too_many(self, interaction: discord.Interaction[Any]) -> bool:
        """Refuse privately, with how many and when again, a dispute beyond the per-user limit
        (``COOLDOWNS["dispute"]``): each one pings the moderators' role."""
        book = self.bot.cooldowns
        wait = book.wait("dispute", interaction.user.id, _at(interaction)) if book else 0.0
        if book is None or not wait:
            return False
        uses, per = book.table["dispute"]
        said = msg(
            "discord.dispute_cooldown", n=uses, minutes=round(per / 60), wait=math.ceil(wait / 60)
        )
        lang = (await self.bot.languages(interaction))[1]
        await interaction.response.send_message(say(said, lang, escaped), ephemeral=True)
        return True

    async def _private_room(
        self, interaction: discord.Interaction[Any], reply: Reply, lang: str
    ) -> discord.Thread | None:
        """A private thread with both players in it, noted as the disputed game's room, or
        None when the bot may not make one."""
        channel = interaction.channel
        perms = interaction.app_permissions
        if not isinstance(channel, discord.TextChannel) or not (
            perms.create_private_threads and perms.send_messages_in_threads
        ):
            return None
        try:
            room = await channel.create_thread(
                name=say(msg("discord.dispute_thread", id=reply.game_id), lang)[:100],
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=1440,
            )
            for uid in reply.mentions:
                await room.add_user(discord.Object(id=uid))
        except discord.HTTPException:
            log.warning("could not open a private thread for a dispute in %s", channel.id)
            return None
        if reply.game_id is not None:  # the thread's commands then find this game, not the next
            noted = await self.bot.referee.dispute_room(
                where_of(interaction), reply.game_id, room.id
            )
            if not noted.ok:  # it still works: its commands fall back to the channel's game
                log.warning(
                    "thread %s not noted as game %s's: %s", room.id, reply.game_id, noted.reason
                )
        return room

    @app_commands.command(
        name="import", description="Check a record file: verdict, final position and replay"
    )
    @expensive("import")
    @app_commands.describe(record="A record file (JSON), e.g. from /record")
    async def import_record(
        self, interaction: discord.Interaction[Any], record: discord.Attachment
    ) -> None:
        """Every refusal is private: the file's size and kind (from its metadata), the cooldown,
        and reading and checking it (at most 2 MB: well within Discord's three seconds) come
        before the first answer. Only the replay animation, which can take longer, follows a
        public defer, so the verdict, the position and the replay arrive as one message."""
        why = attachment_problem(record)
        if why:
            raise UserFacingError(why)
        try:
            data = await record.read()
        except discord.HTTPException:
            raise UserFacingError(msg("discord.download_failed", name=record.filename)) from None
        where = where_of(interaction)
        reply = await self.bot.referee.import_record(where, data, name=record.filename)
        if not reply.ok or reply.image is None:  # a refusal, or no pictures on this bot
            await self.bot.answer(interaction, reply, title=msg("title.import"))
            return
        await interaction.response.defer(thinking=True)
        limit = min(interaction.filesize_limit or MAX_GIF_BYTES, MAX_GIF_BYTES)
        theme = str((await self.bot.referee.settings(where)).get("theme") or "dark")
        try:
            reply.file = await asyncio.to_thread(replay_gif, data, theme, limit)
            reply.file_name = replay_name(reply.image_name)
        except Exception:  # the verdict stands even if the animation fails
            log.exception("replay of an imported record failed")
        await self.bot.answer(interaction, reply, title=msg("title.import"))


def attachment_problem(record: discord.Attachment) -> Msg | None:
    """Why an attachment cannot be a record, from what Discord tells before the download."""
    name = record.filename
    if record.size > MAX_IMPORT_BYTES:
        return msg("discord.import_too_large", name=name, max=f"{MAX_IMPORT_BYTES:,}")
    if record.size == 0:
        return msg("discord.import_empty", name=name)
    kind = (record.content_type or "").split(";")[0].strip().lower()
    if not record.filename.lower().endswith(".json") and kind not in TEXT_TYPES:
        return msg("discord.import_not_json", name=name)
    return None


def replay_name(image_name: str) -> str:
    """``import-<game>.png`` -> ``replay-<game>.gif``, the name /replay gives the same game."""
    return "replay-" + image_name.removeprefix("import-").rsplit(".", 1)[0] + ".gif"


async def setup(bot: RefereeBot) -> None:
    await bot.add_cog(Disputes(bot))


def _at(interaction: discord.Interaction[Any]) -> float:
    return interaction.created_at.timestamp()
