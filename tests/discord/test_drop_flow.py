"""One Atmalof drop as the players see it on Discord: the announcement is the answer to the
command, then the roll follows with the board, the square the piece landed on, the next player's
mention and the chain head in the footer; no line is said twice."""

from __future__ import annotations

import re

from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Call, Harness
from tests.discord.play import PNG, start_game


def lines(call: Call) -> list[str]:
    return [line for c in (call.content, *(e.get("description") or "" for e in call.embeds))
            for line in c.split("\n") if line.strip()]  # fmt: skip


def footer(call: Call) -> str:
    (embed,) = call.embeds
    return (embed.get("footer") or {}).get("text") or ""


async def test_a_drop_reads_announcement_then_roll_board_and_next_player(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    drop = await harness.slash(ALICE, "drop row", k=4)
    announcement, roll = drop.calls  # nothing else: no defer, no stray note
    assert announcement.kind == "callback" and roll.kind == "followup"
    assert not announcement.ephemeral and not roll.ephemeral
    assert lines(announcement)[0].startswith("Alice (Red) announces row 4.")
    assert not announcement.files and not announcement.allowed_user_ids  # nobody pinged yet

    assert roll.content == BOB.mention and roll.allowed_user_ids == {BOB.id}  # Bob's turn
    said = "\n".join(lines(roll))
    assert re.search(r"rolls \d: a piece lands on \(4,\d\)", said), said
    assert "Bob (Blue) to move." in said and "Log #" not in said
    ((name, alt, data),) = roll.files
    assert data.startswith(PNG) and alt and roll.embeds[0]["image"]["url"] == f"attachment://{name}"
    assert re.fullmatch(r"game 1 · log #[0-9a-f]{10}", footer(roll)), footer(roll)

    both = lines(announcement) + lines(roll)
    assert len(both) == len(set(both)), both


async def test_the_board_shows_the_chain_head_in_the_footer_once(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    await harness.slash(ALICE, "drop row", k=4)
    board = (await harness.slash(BOB, "board")).last
    assert "Log #" not in board.text.replace(footer(board), "")
    assert footer(board).count("log #") == 1 and "move" not in footer(board)
