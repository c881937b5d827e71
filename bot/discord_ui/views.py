"""Buttons that survive restarts: one ``DynamicItem`` class matches every custom_id we make.

A custom_id is ``ref:<kind>:<target id>:<version>[:<arg>[:<seq>]]``
(``bot.referee.replies.ButtonSpec.custom_id``). The class is registered in ``setup_hook``, so
a click on any message, however old and whichever process sent it, reaches the referee, which
refuses stale versions and strangers politely.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from typing import Any

import discord

import translations
from bot import deadline
from bot.discord_ui.guards import first_delivery
from bot.discord_ui.shutdown import RESTARTING, admitted
from bot.discord_ui.tree import report, send_private
from bot.i18n import button_label, msg, say
from bot.metrics import metrics_of
from bot.referee.replies import CUSTOM_ID_PREFIX, ButtonKind, ButtonSpec

log = logging.getLogger("bot.discord")

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
KINDS = "|".join(re.escape(k.value) for k in ButtonKind)
TEMPLATE = (
    rf"{CUSTOM_ID_PREFIX}:(?P<kind>{KINDS}):(?P<target>[0-9]{{1,20}}):(?P<version>[0-9]{{1,10}})"
    r"(?::(?P<arg>[a-z0-9]{1,12})(?::(?P<seq>[0-9]{1,10}))?)?"
)
MAX_BUTTONS = 25  # five rows of five


class RefereeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A referee button; its whole state is in the custom_id."""

    def __init__(self, spec: ButtonSpec) -> None:
        super().__init__(
            discord.ui.Button(
                label=spec.label[:80],
                style=STYLES.get(spec.style, discord.ButtonStyle.secondary),
                custom_id=spec.custom_id,
            )
        )
        self.spec = spec

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> RefereeButton:
        label = getattr(item, "label", None) or match["kind"]
        style = getattr(getattr(item, "style", None), "name", "secondary")
        spec = ButtonSpec(
            label=label,
            kind=ButtonKind(match["kind"]),
            target_id=int(match["target"]),
            version=int(match["version"]),
            style=style,
            arg=match["arg"] or "",
            seq=int(match["seq"]) if match["seq"] else None,
        )
        return cls(spec)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        deadline.start(answered=interaction.response.is_done)  # the first answer is due
        if not first_delivery(interaction):  # a click delivered twice is handled once
            return False
        metrics_of(interaction).arrived(interaction, "button", "button")
        if not admitted(interaction):  # stopping (bot.discord_ui.shutdown)
            await send_private(
                interaction,
                say(
                    RESTARTING,
                    translations.choose(locale=getattr(interaction.locale, "value", None)),
                ),
            )
            return False
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the bot; discord.py only logs what escapes, so report it here."""
        try:
            await interaction.client.on_button(interaction, self.spec)  # type: ignore[attr-defined]
        except Exception as error:  # every failure still answers the clicker privately
            await report(interaction, error)


NO_LONGER_WORKS = msg("discord.button_gone")


class UnknownButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{CUSTOM_ID_PREFIX}:(?!(?:{KINDS}):[0-9]{{1,20}}:[0-9]{{1,10}}"
    r"(?::[a-z0-9]{1,12}(?::[0-9]{1,10})?)?\Z)[\s\S]*|[^:]+",
):
    """A button in our ``ref:`` namespace (or in none) that ``RefereeButton`` does not read: from
    an older version of the bot, or tampered with. Without this, discord.py drops the click and
    Discord shows "interaction failed"; with it, the clicker gets a clear private note."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> UnknownButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        log.info("unknown button %r from user %s", self.custom_id[:120], interaction.user.id)
        try:
            lang = translations.choose(locale=getattr(interaction.locale, "value", None))
            await send_private(interaction, say(NO_LONGER_WORKS, lang))
        except discord.HTTPException:
            log.warning("could not answer an unknown button click", exc_info=True)


def buttons_view(specs: list[ButtonSpec], lang: str = "en") -> discord.ui.View | None:
    """A timeout-free view holding the reply's buttons, labelled in ``lang``, or None."""
    if not specs:
        return None
    view = discord.ui.View(timeout=None)
    for spec in specs[:MAX_BUTTONS]:
        label = button_label(spec.kind.value, lang, spec.arg)
        view.add_item(RefereeButton(dataclasses.replace(spec, label=label)))
    return view
