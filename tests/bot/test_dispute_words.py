"""What a dispute and a frozen game say (a player's review): a frozen game invites no move,
games without dice say nothing of dice, a dispute's first line writes a square and an action
as the rest of the bot does."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import table as console
from bot.i18n import reply_words
from bot.referee import Referee
from tests.bot.conftest import ALICE, BOB, HERE, MOD, morris_mill, play, start

LANGS = ("en", "eo", "hu", "is")


async def test_a_frozen_game_says_who_moves_once_a_moderator_resumes_it(referee: Referee) -> None:
    await start(referee, "atmalof", clock="10+0")
    assert (await play(referee, HERE, ALICE, "drop row 4")).ok
    dispute = await referee.dispute(HERE, ALICE, "lag")
    board = await referee.board(HERE)
    for reply in (dispute, board):
        text = reply.text
        assert "to move" not in text, text
        assert (
            "Frozen for a dispute: bob (Blue) moves when a moderator unfreezes the game with "
            "`/referee resume`." in text
        ), text
        assert text.count("Frozen for a dispute") == 1 and "The clocks are stopped." in text
        assert reply_words(reply, "hu").count("be van fagyasztva") == 1
    resumed = await referee.resume(HERE, MOD, "no fault")
    assert "bob (Blue) to move." in resumed.text and "Frozen" not in resumed.text


async def test_a_frozen_mill_says_the_removal_waits_for_a_moderator(referee: Referee) -> None:
    await morris_mill(referee)
    dispute = await referee.dispute(HERE, BOB, "that was no mill")
    board = await referee.board(HERE)
    for reply in (dispute, board):
        assert "to remove" not in reply.text and "`/remove`" not in reply.text, reply.text
        assert (
            "Frozen for a dispute: alice (White) removes one of Black's men when a moderator "
            "unfreezes the game with `/referee resume`." in reply.text
        ), reply.text
        for lang in LANGS:
            assert "/referee resume" in reply_words(reply, lang), lang


async def test_the_console_names_its_own_resume_for_a_frozen_game(tmp_path: Path) -> None:
    script = (
        "alice: challenge bob morris first me\nbob: accept\nalice: place a7\n"
        "bob: dispute she was slow\nboard\nquit\n"
    )
    out = io.StringIO()
    await console.play(str(tmp_path / "c.db"), io.StringIO(script), out, tmp_path, render=False)
    text = out.getvalue()
    assert "bob (Black) moves when a moderator unfreezes the game with `referee: resume`." in text
    assert "/referee resume" not in text.split("opened a dispute")[1].split("Moderators:")[0]
