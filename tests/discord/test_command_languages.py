"""Slash command menus in Hungarian: every description, option and choice of the tree has its
translation, found by its place, and the payload discord.py syncs carries them."""

from __future__ import annotations

from typing import Any

from bot.discord_ui.translator import command_strings
from tests.discord.harness import Harness
from translations import words

HU = "hu"


def localised(payload: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(English, localisations) for the description, each option and each choice of a command."""
    out = [(payload["description"], payload.get("description_localizations") or {})]
    for option in payload.get("options") or []:
        out += localised(option)
        for choice in option.get("choices") or []:
            out.append((choice["name"], choice.get("name_localizations") or {}))
    return out


async def test_the_english_catalog_says_what_the_commands_declare(harness: Harness) -> None:
    """A changed or new description without its catalog entry fails here (and then the
    catalog test asks for its Hungarian)."""
    english = words("en", "commands")
    declared = command_strings(harness.bot.tree)
    assert declared
    for key, text in declared.items():
        assert english.get(key) == text, key
    assert set(english.keys()) == set(declared), "the catalog has keys no command declares"


async def test_synced_commands_carry_hungarian_for_every_string(harness: Harness) -> None:
    tree = harness.bot.tree
    translator = tree.translator
    assert translator is not None
    hungarian = words(HU, "commands")
    for command in tree.get_commands():
        payload = await command.get_translated_payload(tree, translator)
        assert "name_localizations" not in payload or not payload["name_localizations"]
        for english, locales in localised(payload):
            assert HU in locales, (payload["name"], english)
            assert locales[HU] != english or english in {"Atmalof", "Abalone", "Magyar"}, english
            assert len(locales[HU]) <= 100
            assert locales[HU] in {hungarian.t(k) for k in hungarian}
            assert set(locales) == {HU}  # no Esperanto or Icelandic locale in Discord
