"""Every "no" is private: the referee's reason as an ephemeral message, and nothing changes."""

from __future__ import annotations

import pytest

from bot.cogs.referee_mod import NOT_A_MODERATOR
from bot.errors import UNEXPECTED
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import Harness
from tests.discord.play import start_game


def private(exchange, *, bug: bool = False) -> str:
    """The whole answer was ephemeral (and, unless a bug is injected, a reason, not an apology)."""
    assert exchange.calls, "no answer at all"
    assert exchange.all_ephemeral, [c.payload for c in exchange.messages]
    assert bug or exchange.text != UNEXPECTED, "an unexpected error, not a refusal"
    assert not exchange.files or all(not d.startswith(b"\x89PNG") for _, _, d in exchange.files)
    return exchange.text


async def test_commands_without_a_game_are_refused_privately(harness: Harness) -> None:
    for path in ("board", "resign", "abort", "claim", "draw offer", "takeback request", "verify"):
        text = private(await harness.slash(ALICE, path))
        assert text.strip(), path


async def test_a_move_out_of_turn_is_refused_privately(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    text = private(await harness.slash(BOB, "drop row", k=3))
    assert "turn" in text.lower()


async def test_a_stranger_cannot_move_in_someone_elses_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    private(await harness.slash(CAROL, "drop column", k=3))


async def test_an_illegal_move_gets_the_engines_reason_privately(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    text = private(await harness.slash(BOB, "place", point="d7"))
    assert "d7" in text.lower()


async def test_nonsense_in_play_is_refused_privately(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "abalone")
    private(await harness.slash(ALICE, "play", command="castle kingside"))


async def test_a_busy_channel_refuses_a_second_challenge(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    private(await harness.slash(CAROL, "challenge", game="morris", opponent=ALICE))


async def test_unreadable_options_are_refused_before_the_referee(harness: Harness) -> None:
    text = private(
        await harness.slash(ALICE, "challenge", game="morris", opponent=BOB, options="fly!")
    )
    assert "name=value" in text


async def test_challenging_yourself_is_refused(harness: Harness) -> None:
    private(await harness.slash(ALICE, "challenge", game="morris", opponent=ALICE))


async def test_members_cannot_use_moderator_commands(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    assert private(await harness.slash(ALICE, "referee abort", reason="no")) == NOT_A_MODERATOR
    assert private(await harness.slash(BOB, "referee theme", theme="light")) == NOT_A_MODERATOR


async def test_a_moderator_can_abort_a_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    ended = await harness.slash(MODERATOR, "referee abort", reason="players left")
    assert not ended.first.ephemeral, ended.text
    private(await harness.slash(ALICE, "drop row", k=2))  # nothing left to play


async def test_a_moderator_can_award_a_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    awarded = await harness.slash(MODERATOR, "referee award", reason="dispute", winner=BOB)
    assert not awarded.first.ephemeral, awarded.text
    assert "bob" in awarded.text.lower()


async def test_an_unexpected_error_is_an_ephemeral_apology(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(harness.bot.referee, "board", broken)  # fault injection, not a fake
    exchange = await harness.slash(ALICE, "board")
    assert private(exchange, bug=True) == UNEXPECTED
    assert "the disk is on fire" in caplog.text


async def test_an_error_after_the_response_goes_out_as_a_followup(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")

    async def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the die fell off the table")

    monkeypatch.setattr(harness.bot.referee, "roll_pending", broken)
    exchange = await harness.slash(ALICE, "drop row", k=4)
    announcement, apology = exchange.messages
    assert not announcement.ephemeral
    assert apology.kind == "followup" and apology.ephemeral and apology.content == UNEXPECTED
