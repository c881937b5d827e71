"""What players see: flag falls, options, long move lists, permissions, confirmations."""

from __future__ import annotations

from bot.clock import ManualClock
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness
from tests.discord.play import PNG, button, message_with_buttons, start_game

PLAYERS = (ALICE, BOB)


async def test_a_flag_found_by_the_late_players_own_command_is_announced_in_public(
    harness: Harness, clock: ManualClock
) -> None:
    await start_game(harness, ALICE, BOB, "morris", clock="1+0")
    clock.advance(61)  # alice, to move, has run out of time
    late = await harness.slash(ALICE, "place", point="d7")
    (shown,) = late.messages
    assert not shown.ephemeral, shown.text  # the channel learns it, not only alice
    assert "Alice's command came after White's flag fell" in shown.text
    assert "Bob (Black) wins (White ran out of time)" in shown.text
    assert any(data.startswith(PNG) for _, _, data in late.files)  # with the board
    assert await harness.bot.post_notices() == 0  # type: ignore[attr-defined]  # said once
    again = await harness.slash(ALICE, "place", point="d7")
    assert again.all_ephemeral and "no game" in again.text


async def test_the_opponent_sees_changed_options_in_the_challenge_and_the_start(
    harness: Harness,
) -> None:
    posted = await harness.slash(
        ALICE, "challenge", game="morris", opponent=BOB, options="no_remill=on flying=off",
        clock="10+5", starter="me",
    )  # fmt: skip
    assert "Not the defaults: flying=off, no_remill=on." in posted.text
    challenge = message_with_buttons(posted)
    started = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    shown = "Not the defaults: flying=off, no_remill=on, clock 10+5."
    assert shown in started.text
    assert shown in (await harness.slash(BOB, "board")).text
