"""Check a slash command's raw option values against what the command declared, before it runs.

Discord's client enforces option types, ranges and lengths, but discord.py passes the values of
a payload through as they come (a float where a string goes, 2**70 where a row goes, 6,000
characters where 200 are allowed). A modified client or a Discord change must not reach the
commands with such values: this guard refuses them with a sentence naming the option.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from bot.i18n import Msg, msg, say, typed

INT_LIMIT = 2**53  # Discord's integer options lie within +-2**53
MAX_STRING = 6000  # Discord's own ceiling for a string option
SNOWFLAKE_TYPES = (
    AppCommandOptionType.user,
    AppCommandOptionType.channel,
    AppCommandOptionType.role,
    AppCommandOptionType.mentionable,
    AppCommandOptionType.attachment,
)
# where the payload's ``resolved`` describes an id of each kind (discord.py makes a bare Object
# of an id it does not find there, which no command can use)
RESOLVED_IN = {
    AppCommandOptionType.user: ("users",),
    AppCommandOptionType.channel: ("channels",),
    AppCommandOptionType.role: ("roles",),
    AppCommandOptionType.mentionable: ("users", "roles"),
    AppCommandOptionType.attachment: ("attachments",),
}


class BadOption(app_commands.CheckFailure):
    """An option value the command cannot take; its one argument, a sentence (``Msg``), names
    the option and why (``str()`` is its English, for logs)."""

    def __init__(self, said: Msg) -> None:
        super().__init__(said)
        self.said = said

    def __str__(self) -> str:
        return say(self.said)


def leaf_options(options: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The options of the subcommand actually invoked (groups and subcommands unwrapped)."""
    for option in options:
        if option.get("type") in (1, 2):  # a subcommand or a group
            yield from leaf_options(option.get("options") or [])
        else:
            yield option


def problem(param: app_commands.Parameter, value: Any) -> Msg | None:
    """Why ``value`` does not fit ``param``, or None."""
    name = param.display_name
    kind = param.type
    if param.choices and value not in [c.value for c in param.choices]:
        return msg("option.choices", name=name)
    if kind is AppCommandOptionType.string:
        if not isinstance(value, str):
            return msg("option.text", name=name)
        longest = param.max_value if isinstance(param.max_value, int) else MAX_STRING
        if len(value) > longest:
            return msg("option.too_long", name=name, n=longest)
        if isinstance(param.min_value, int) and len(value) < param.min_value:
            return msg("option.too_short", name=name, n=param.min_value)
        return None
    if kind is AppCommandOptionType.boolean:
        return None if isinstance(value, bool) else msg("option.boolean", name=name)
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        whole = kind is AppCommandOptionType.integer
        if isinstance(value, bool) or not isinstance(value, int | float):
            return msg("option.number", name=name)
        if whole and not isinstance(value, int):
            return msg("option.whole", name=name)
        # an int past 10**308 cannot become a float (math.isfinite raises OverflowError): test
        # floats for NaN and infinity, and compare ints as ints
        if (isinstance(value, float) and not math.isfinite(value)) or abs(value) > INT_LIMIT:
            return msg("option.range", name=name)
        low, high = param.min_value, param.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                return msg("option.between", name=name, low=low, high=high)
            return msg("option.range", name=name)
        return None
    if kind in SNOWFLAKE_TYPES:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**64:
            value = str(value)  # (never str() of a huge int: past 4300 digits it raises)
        fits = isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20
        return None if fits else msg("option.pick", name=name)
    return None


def unresolved(param: app_commands.Parameter, value: Any, resolved: Any) -> Msg | None:
    """Why a user, role, channel or attachment id is not one the payload describes, or None."""
    places = RESOLVED_IN.get(param.type)
    if places is None or any(str(value) in (resolved.get(p) or {}) for p in places):
        return None
    return msg("option.pick", name=param.display_name)


def check_options(interaction: discord.Interaction[Any]) -> None:
    """Raise ``BadOption`` for the first option whose value the command did not declare, or
    for a required option the payload leaves out (discord.py would fail with a signature
    mismatch, which reads as a bug)."""
    command = interaction.command
    data: Any = interaction.data or {}
    if not isinstance(command, app_commands.Command):
        return
    params = {p.display_name: p for p in command.parameters}
    given = list(leaf_options(list(data.get("options") or [])))  # type: ignore[arg-type]
    for option in given:
        param = params.get(str(option.get("name")))
        if param is None:
            name = typed(option.get("name"), 40)
            raise BadOption(msg("option.unknown", command=command.qualified_name, name=name))
        value = option.get("value")
        if option.get("focused"):  # what someone is typing: only its type is checked now
            if param.type is AppCommandOptionType.string and not isinstance(value, str):
                raise BadOption(msg("option.text", name=param.display_name))
            continue
        why = problem(param, value) or unresolved(param, value, data.get("resolved") or {})
        if why:
            raise BadOption(why)
    if interaction.type is discord.InteractionType.autocomplete:
        return  # while someone types, the options after the focused one are not filled in yet
    named = {str(option.get("name")) for option in given}
    for name, param in params.items():
        if param.required and name not in named:
            raise BadOption(msg("option.missing", command=command.qualified_name, name=name))
