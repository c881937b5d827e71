"""Options are listed in the order the game declares them (``rules.options``), as a player
thinks of them: "rows=5, cols=5, pieces=4, line=3", where the sorted stored keys read
"cols=5, line=3, pieces=4, rows=5" (the review of the seventeenth session). Every place that
shows them: the challenge, the start, /board, /record, /rules during the game, the console."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_console_table import table
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness
from tests.discord.play import button, message_with_buttons

ATMALOF = "Not the defaults: rows=5, cols=5, pieces=4, line=3, move_limit=20."
MORRIS = "Not the defaults: flying=off, no_remill=on, move_limit=30."


async def test_a_custom_games_options_read_in_the_games_order_on_discord(
    harness: Harness,
) -> None:
    typed = "move_limit=20 line=3 cols=5 pieces=4 rows=5"  # in no order at all
    posted = await harness.slash(ALICE, "challenge", game="atmalof", variant="custom",
                                 opponent=BOB, starter="me", options=typed)  # fmt: skip
    challenge = message_with_buttons(posted)
    started = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    shown = [posted, started]
    shown += [await harness.slash(ALICE, name) for name in ("board", "record")]
    shown.append(await harness.slash(ALICE, "rules", game="atmalof"))
    for exchange in shown:
        assert ATMALOF in exchange.text.splitlines(), exchange.text


async def test_the_console_lists_them_in_the_games_order_too(tmp_path: Path) -> None:
    script = (
        "alice: challenge bob morris move_limit=30 no_remill=on flying=off first me\n"
        "bob: accept\nalice: board\nalice: rules morris\n"
    )
    text = await table(tmp_path / "r.db", script)
    assert text.count(MORRIS) >= 4, text  # the challenge, the start, the board, the rules
    assert "flying=off, move_limit=30" not in text, text
