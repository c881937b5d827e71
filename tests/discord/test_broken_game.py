"""A game whose stored log was hand-edited, as members and moderators meet it in Discord: the
players get an answer (never the apology for an unexpected error), ``/referee void`` ends it,
and a new challenge in the channel works."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.discord_ui.tree import UNEXPECTED
from tests.bot.test_broken_game import hand_edit
from tests.discord.conftest import ALICE, BOB, MODERATOR, start_bot
from tests.discord.play import start_game


async def test_a_broken_game_is_answered_and_a_moderator_frees_the_channel(
    db_path: Path, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    first, store = await start_bot(db_path, clock)
    try:
        await start_game(first, ALICE, BOB, "morris")
        await first.slash(ALICE, "place", point="d7")
    finally:
        await first.close()
        await store.close()
    hand_edit(str(db_path), 1, "place q9")
    h, store = await start_bot(db_path, clock)  # a restart: nothing cached
    try:
        caplog.clear()
        for person in (BOB, ALICE):
            exchange = await h.slash(person, "place", point="d1")
            assert exchange.calls and UNEXPECTED not in exchange.text, exchange.text
            assert "void" in exchange.text, exchange.text
        assert UNEXPECTED not in (await h.slash(BOB, "board")).text
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and "no longer replays" in errors[0], errors
        voided = await h.slash(MODERATOR, "referee void", reason="the log was damaged")
        assert not voided.first.ephemeral, voided.text
        assert (await store.game(1)).status == "aborted"
        await start_game(h, ALICE, BOB, "atmalof")  # the channel is free again
    finally:
        await h.close()
        await store.close()
