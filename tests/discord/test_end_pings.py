"""A game's end on Discord pings whom it is news to: the other player of a game between two
people ("Game over: Alice (White) wins (Bob (Black) resigned)." pinged nobody, a player's
review), never the one who ended it, nobody in a practice game its person ended."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ManualClock
from tests.discord.conftest import ALICE, BOB, running
from tests.discord.harness import Call, Harness, Person
from tests.discord.play import button, message_with_buttons, start_game


def pings_only(call: Call, person: Person) -> bool:
    """Whether a message pings ``person`` and nobody else: named in its content, allowed."""
    return call.content.strip() == person.mention and call.allowed_user_ids == {person.id}


async def test_a_resignation_pings_the_winner(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    resigned = await harness.slash(BOB, "resign")
    (shown,) = resigned.messages
    assert "Alice (White) wins (Bob (Black) resigned)" in shown.text, shown.text
    assert pings_only(shown, ALICE), (shown.content, shown.allowed_user_ids)


async def test_a_draw_accepted_with_its_button_pings_the_one_who_offered_it(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    offer = message_with_buttons(await harness.slash(ALICE, "draw offer"))
    accepted = await harness.click(BOB, offer.message, button(offer, "draw-accept"))
    shown = accepted.last
    assert "a draw (agreed by both players)" in shown.text, shown.text
    assert pings_only(shown, ALICE), (shown.content, shown.allowed_user_ids)


async def test_a_claim_on_a_fallen_flag_pings_the_one_whose_flag_fell(
    harness: Harness, clock: ManualClock
) -> None:
    await start_game(harness, ALICE, BOB, "morris", clock="1+0")
    await harness.slash(ALICE, "place", point="d7")
    clock.advance(61)  # bob, to move, has run out of time
    (shown,) = (await harness.slash(ALICE, "claim")).messages
    assert "Bob (Black) ran out of time" in shown.text, shown.text
    assert pings_only(shown, BOB), (shown.content, shown.allowed_user_ids)


@pytest.fixture
async def practice_bot(db_path: Path, clock: ManualClock) -> AsyncIterator[Harness]:
    async for h in running(db_path, clock, practice_nodes=40):
        yield h


async def test_a_practice_game_its_person_resigns_pings_nobody(practice_bot: Harness) -> None:
    await practice_bot.slash(ALICE, "practice", game="morris", starter="me")
    (shown,) = (await practice_bot.slash(ALICE, "resign")).messages
    assert "Alice (White) resigned" in shown.text, shown.text
    assert "<@" not in shown.content and shown.allowed_user_ids == set(), shown.content
