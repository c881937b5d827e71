"""/rules and /help answer in the user's Discord language where we have it (Hungarian)."""

from __future__ import annotations

import pytest

from bot.rules_text import summary
from tests.discord.conftest import CAROL
from tests.discord.harness import Harness
from translations import words


@pytest.mark.parametrize("game", ["atmalof", "morris", "abalone"])
async def test_rules_follow_a_hungarian_client(harness: Harness, game: str) -> None:
    hu, en = summary(game, "hu")[1], summary(game, "en")[1]
    reply = await harness.slash(CAROL, "rules", game=game, locale="hu")
    assert reply.all_ephemeral
    assert hu[:60] in reply.text
    assert en[:60] not in reply.text
    english = await harness.slash(CAROL, "rules", game=game, locale="en-GB")
    assert en[:60] in english.text


async def test_help_follows_the_client_and_falls_back_for_a_locale_we_lack(
    harness: Harness,
) -> None:
    hungarian = await harness.slash(CAROL, "help", locale="hu")
    assert words("hu").t("help.discord")[:50] in hungarian.text
    german = await harness.slash(CAROL, "help", locale="de")
    assert words("en").t("help.discord")[:50] in german.text
