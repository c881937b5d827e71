"""Slash command, option and choice descriptions in the languages Discord offers (Hungarian).

discord.py asks an ``app_commands.Translator`` for each string at sync time; this one finds it in
the ``commands`` catalog by where it stands (the command's path, the option's name, the choice's
value), never by its English text. Command and option names stay English, as the notation does.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from translations import words

# Our language for each Discord locale we have a catalog for (Discord has no Esperanto or
# Icelandic locale: those users get the server's language in replies, English in the menus).
LOCALES: dict[Locale, str] = {Locale.hungarian: "hu"}


def command_key(
    context: app_commands.TranslationContext, choices: dict[int, str] | None = None
) -> str | None:
    """The catalog key of a string by its place, or None for what stays English (names).

    A choice knows only its value (the same value stands in several options), so its key comes
    from ``choices``: the key of each choice object of the tree (``choice_keys``).
    """
    data = context.data
    if context.location is Where.command_description:
        return f"cmd:{data.qualified_name}"
    if context.location is Where.group_description:
        return f"cmd:{data.qualified_name}"
    if context.location is Where.parameter_description:
        return f"opt:{data.command.qualified_name}:{data.name}"
    if context.location is Where.choice_name:
        return (choices or {}).get(id(data))
    return None


class CatalogTranslator(app_commands.Translator):
    """Descriptions and choice names from the ``commands`` catalogs (translations/locales)."""

    def __init__(self, tree: app_commands.CommandTree) -> None:
        self.tree = tree

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None:
            return None
        key = command_key(context, choice_keys(self.tree))
        if key is None:
            return None
        return words(lang, "commands").get(key)


def choice_keys(tree: app_commands.CommandTree) -> dict[int, str]:
    """The key of every choice object in the tree: its command, option and value."""
    return {id(choice): key for key, choice in _choices(tree)}


def _choices(tree: app_commands.CommandTree) -> list[tuple[str, app_commands.Choice]]:
    out = []
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                for choice in param.choices:
                    key = f"choice:{command.qualified_name}:{param.name}:{choice.value}"
                    out.append((key, choice))
    return out


def command_strings(tree: app_commands.CommandTree) -> dict[str, str]:
    """Every translatable string of the tree, by key, in English as declared (for the catalog
    test and for writing the English catalog)."""
    out: dict[str, str] = {}

    def visit(command: app_commands.Command | app_commands.Group) -> None:
        out[f"cmd:{command.qualified_name}"] = str(command.description)
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                visit(child)
            return
        for param in command.parameters:
            out[f"opt:{command.qualified_name}:{param.name}"] = str(param.description)

    for command in tree.get_commands():
        if isinstance(command, (app_commands.Command, app_commands.Group)):
            visit(command)
    out.update((key, choice.name) for key, choice in _choices(tree))
    return out
