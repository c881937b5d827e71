"""/board names the game and who plays it before anything else: it began "Clock: 5 min each +
3 s a move." (a custom Atmalof: "Not the defaults: rows=5, ...") with nothing to say which game
of whom it was (the seventeenth session's player review); it still pings nobody."""

from __future__ import annotations

from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness
from tests.discord.play import start_game


async def test_board_begins_with_the_game_and_its_players(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "abalone", clock="5+3")
    await harness.slash(ALICE, "push", marbles="a5 c5", direction="nw")
    (shown,) = (await harness.slash(ALICE, "board")).messages
    lines = [line for line in shown.text.splitlines() if line.strip()]
    assert lines[0] == "Abalone: Alice (Black) vs Bob (White).", lines
    assert "Clock: 5 min each + 3 s a move." in lines and "Bob (White) to move." in lines
    assert shown.text.count("Abalone: Alice (Black) vs Bob (White).") == 1, shown.text
    assert "<@" not in shown.content and not shown.allowed_user_ids, shown.content


async def test_a_custom_boards_options_follow_its_name(harness: Harness) -> None:
    await start_game(
        harness, ALICE, BOB, "atmalof", variant="custom", options="rows=5 cols=5 pieces=4 line=3"
    )
    (shown,) = (await harness.slash(BOB, "board")).messages
    lines = [line for line in shown.text.splitlines() if line.strip()]
    assert lines[0] == "Atmalof (custom): Alice (Red) vs Bob (Blue).", lines
    assert lines[1].startswith("Not the defaults: rows=5, cols=5"), lines
