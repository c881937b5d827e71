"""What players see: flag falls, options, long move lists, permissions, confirmations."""

from __future__ import annotations

from bot.clock import ManualClock
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness
from tests.discord.play import PNG, start_game

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
