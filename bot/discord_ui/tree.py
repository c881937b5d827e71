"""One place where anything that goes wrong in a slash command or a button becomes a private note.

Discord shows the person who acted a reason they can act on ("you need Manage Server") or, for
anything unexpected, a short apology; the details go to the log with the interaction's context.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import discord
from discord import app_commands

import engine
import translations
from bot import deadline
from bot.discord_ui.guards import first_delivery
from bot.discord_ui.option_guard import check_options
from bot.discord_ui.shutdown import RESTARTING, admitted
from bot.errors import BadInput, StoreUnavailable
from bot.i18n import Msg, msg, plain, say, typed
from bot.metrics import metrics_of

log = logging.getLogger("bot.discord")

UNEXPECTED = say(msg("discord.unexpected"))
BOTS_REFUSED = msg("discord.bots_refused")


class UserFacingError(BadInput):
    """An error written for the player, raised by the Discord layer itself: a sentence
    (``Msg``) said in the reader's language; ``str()`` is its English, for logs."""

    def __init__(self, said: Msg) -> None:
        super().__init__(say(said))
        self.said = said


def message_for(error: BaseException) -> Msg | None:
    """What to say for an error, or None when it is a bug (the caller apologises and logs)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserFacingError):
        return error.said
    if isinstance(error, engine.EngineError):
        return plain(str(error))
    if isinstance(error, StoreUnavailable):
        return msg("refusal.cant_save")  # the store logged the fault; nothing was changed
    if isinstance(error, app_commands.MissingPermissions):
        wanted = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
        return msg("discord.missing_permissions", permissions=wanted)
    if isinstance(error, app_commands.NoPrivateMessage):
        return msg("discord.no_direct_messages")
    if isinstance(error, app_commands.CommandOnCooldown):
        return msg("discord.cooldown", seconds=math.ceil(error.retry_after))
    if isinstance(error, app_commands.TransformerError):
        if isinstance(error.value, str | int) and not isinstance(error.value, bool):
            return msg("discord.cannot_read", value=typed(error.value))
        return msg("discord.pick_from_list")  # never a repr
    if isinstance(error, app_commands.CheckFailure):
        said = error.args[0] if error.args else None
        if isinstance(said, Msg):
            return said
        return plain(str(error)) if str(error) else msg("discord.not_here")
    if isinstance(error, app_commands.CommandNotFound):
        return msg("discord.unknown_command")
    if isinstance(error, BadInput):
        # bot.clock.ClockSpecError and friends: written for players, in their language
        return error.said or plain(str(error))
    return None


async def private_language(interaction: discord.Interaction[Any], error: BaseException) -> str:
    """The reader's language for an error: their own, else their client's, else the server's;
    only their client's when the store failed or the bot is stopping (the store is not asked
    then: it may be what is slow, and the answer must still go out in time)."""
    locale = getattr(interaction.locale, "value", None)
    languages = getattr(interaction.client, "languages", None)
    failed = isinstance(getattr(error, "original", error), StoreUnavailable)
    if languages is not None and not failed and admitted(interaction):
        try:
            return str((await languages(interaction))[1])
        except Exception:  # an error path must still answer
            log.warning("no language for %s", interaction.id, exc_info=True)
    return translations.choose(locale=locale)


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral message, as a followup once the interaction has been answered."""
    if interaction.type is discord.InteractionType.autocomplete:
        if not interaction.response.is_done():  # it cannot carry a message: offer nothing
            await interaction.response.autocomplete([])
        return
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        metrics_of(interaction).answering(interaction)
        await interaction.response.send_message(text, ephemeral=True)


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the person what went wrong and log bugs with who, where and what."""
    said = message_for(error)
    command = interaction.command.qualified_name if interaction.command else None
    custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
    context = {
        "interaction": interaction.id,
        "user": interaction.user.id if interaction.user else None,
        "channel": interaction.channel_id,
        "guild": interaction.guild_id,
        "command": command,
        "custom_id": custom_id,
    }
    metrics = metrics_of(interaction)
    if said is None:
        metrics.outcome(interaction, "error")
        original = getattr(error, "original", error)
        log.error(
            "unexpected error %s",
            context,
            exc_info=(type(original), original, original.__traceback__),
        )
        said = msg("discord.unexpected")
    elif isinstance(getattr(error, "original", error), StoreUnavailable):
        metrics.outcome(interaction, "cant_save")
        metrics.store_faults.labels("command").inc()
        log.warning("could not save %s: %s", context, getattr(error, "original", error))
    else:
        metrics.outcome(interaction, "refused")
        log.info("refused %s: %s", context, say(said))
    try:
        await send_private(interaction, say(said, await private_language(interaction, error)))
    except discord.HTTPException:
        log.warning("could not deliver the error message %s", context, exc_info=True)
    metrics.finished(interaction)


class RefereeTree(app_commands.CommandTree[Any]):
    """The command tree whose ``on_error`` answers every failure privately."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Bots never use the referee, and guild-only commands are refused in direct messages
        even if Discord delivers one (discord.py leaves ``guild_only`` to Discord). An
        interaction delivered twice is handled once. The first answer is due from now on."""
        deadline.start(answered=interaction.response.is_done)
        if not first_delivery(interaction):
            return False
        if interaction.type is discord.InteractionType.application_command:
            name = interaction.command.qualified_name if interaction.command else "unknown"
            metrics_of(interaction).arrived(interaction, name, "command")
        if not admitted(interaction):  # stopping (discord_ui.shutdown): a private note
            raise app_commands.CheckFailure(RESTARTING)
        if interaction.user.bot:
            raise app_commands.CheckFailure(BOTS_REFUSED)
        command = interaction.command
        root = getattr(command, "root_parent", None) or command
        if interaction.guild_id is None and getattr(root, "guild_only", False):
            raise app_commands.NoPrivateMessage()
        try:
            check_options(interaction)  # types, ranges and lengths as declared
        except app_commands.AppCommandError:
            raise
        except Exception as exc:  # discord.py reports only AppCommandError; the rest is a bug
            raise app_commands.CommandInvokeError(command, exc) from exc  # type: ignore[arg-type]
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
