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
from bot import deadline
from bot.discord_ui.guards import first_delivery
from bot.discord_ui.option_guard import check_options
from bot.discord_ui.shutdown import RESTARTING, admitted
from bot.errors import BadInput, StoreUnavailable
from bot.metrics import metrics_of
from bot.texts import CANT_SAVE

log = logging.getLogger("bot.discord")

UNEXPECTED = "Something went wrong on my side and it has been logged. Please try again."
BOTS_REFUSED = "Bots cannot use the referee."


class UserFacingError(BadInput):
    """An error whose message is written for the player; raised by the Discord layer itself."""


def message_for(error: BaseException) -> str | None:
    """The text to show for an error, or None when it is a bug (the caller apologises and logs)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserFacingError | engine.EngineError):
        return str(error)
    if isinstance(error, StoreUnavailable):
        return CANT_SAVE  # the store logged the fault; nothing was changed
    if isinstance(error, app_commands.MissingPermissions):
        wanted = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
        return f"You need the {wanted} permission to do that."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Games are played in a server channel, not in direct messages."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {math.ceil(error.retry_after)} s."
    if isinstance(error, app_commands.TransformerError):
        if isinstance(error.value, str | int) and not isinstance(error.value, bool):
            return f"I can't read {str(error.value)[:100]!r} there."
        return "I can't use that there: pick it from the list Discord shows."  # never a repr
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use that command here."
    if isinstance(error, app_commands.CommandNotFound):
        return "I don't know that command any more; Discord may still be updating the list."
    if isinstance(error, BadInput):
        return str(error)  # bot.clock.ClockSpecError and friends: written for players
    return None


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
    text = message_for(error)
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
    if text is None:
        metrics.outcome(interaction, "error")
        original = getattr(error, "original", error)
        log.error(
            "unexpected error %s",
            context,
            exc_info=(type(original), original, original.__traceback__),
        )
        text = UNEXPECTED
    elif isinstance(getattr(error, "original", error), StoreUnavailable):
        metrics.outcome(interaction, "cant_save")
        metrics.store_faults.labels("command").inc()
        log.warning("could not save %s: %s", context, getattr(error, "original", error))
    else:
        metrics.outcome(interaction, "refused")
        log.info("refused %s: %s", context, text)
    try:
        await send_private(interaction, text)
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
