"""Who reads which language: the user's own /language, else their client's locale where we have
it, else the server's (/referee settings language:), kept in the store across restarts."""

from __future__ import annotations

from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import Harness
from translations import words


def says(lang: str, text: str) -> bool:
    return words(lang).t("rules.abalone")[:60] in text


async def test_user_locale_and_server_language_mixed(harness: Harness) -> None:
    refused = await harness.slash(ALICE, "referee settings", language="eo")
    assert refused.all_ephemeral and "only moderators" in refused.text.lower()
    assert says("en", (await harness.slash(ALICE, "rules", game="abalone")).text)

    done = await harness.slash(MODERATOR, "referee settings", language="eo")
    assert "Esperanto" in done.text
    assert says("eo", (await harness.slash(ALICE, "rules", game="abalone")).text)  # the server's
    hungarian_client = await harness.slash(BOB, "rules", game="abalone", locale="hu")
    assert says("hu", hungarian_client.text)  # a client locale we have beats the server's

    chosen = await harness.slash(CAROL, "language", language="is")
    assert chosen.all_ephemeral and "Íslenska" in chosen.text
    mine = await harness.slash(CAROL, "rules", game="abalone", locale="hu")
    assert says("is", mine.text)  # the user's own choice beats both
    assert says("eo", (await harness.slash(ALICE, "rules", game="abalone")).text)  # others: no

    await harness.slash(CAROL, "language", language="auto")
    assert says("hu", (await harness.slash(CAROL, "rules", game="abalone", locale="hu")).text)
    shown = await harness.slash(MODERATOR, "referee settings")
    assert "Language: Esperanto" in shown.text
