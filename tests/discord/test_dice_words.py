"""Players' dice words through Discord: ``/challenge dice_words:`` and ``/accept dice_words:``;
the accepting interaction's id (or the Accept click's) is mixed into every roll."""

from __future__ import annotations

from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness
from tests.discord.play import button, message_with_buttons


async def test_accept_with_words_mixes_the_interaction_id_and_both_players_words(
    harness: Harness,
) -> None:
    posted = await harness.slash(
        ALICE, "challenge", game="atmalof", opponent=BOB, dice_words="red sky"
    )
    assert "Dice commitment" in posted.text
    accepted = await harness.slash(BOB, "accept", dice_words="forty two")
    assert not accepted.first.ephemeral, accepted.text
    store = harness.bot.referee.store  # type: ignore[attr-defined]
    (start,) = [e for e in await store.events(1) if e.kind == "start"]
    assert start.details["accept"] == str(accepted.interaction_id)
    assert sorted(start.details["words"].values()) == ["forty two", "red sky"]


async def test_the_accept_button_mixes_the_clicks_id(harness: Harness) -> None:
    posted = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB)
    challenge = message_with_buttons(posted)
    clicked = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    store = harness.bot.referee.store  # type: ignore[attr-defined]
    (start,) = [e for e in await store.events(1) if e.kind == "start"]
    assert start.details["accept"] == str(clicked.interaction_id)
