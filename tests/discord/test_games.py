"""Whole games of each game, played by two members through slash commands and buttons, on
uvloop and on asyncio's own loop (``EVENT_LOOP``)."""

from __future__ import annotations

import random

import pytest

from bot.clock import ManualClock, format_seconds
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness
from tests.discord.play import PNG, assert_move_reply, play_out, start_game

pytestmark = pytest.mark.both_loops

PLAYERS = (ALICE, BOB)
FINISHED_COLOUR = 0xC9A227
SMALL_ATMALOF = "rows=4 cols=4 beyond_rows=0 beyond_cols=0 pieces=5 line=3"


def ended(played) -> str:
    final = played.last.last
    assert final.embeds and final.embeds[0].get("color") == FINISHED_COLOUR, final.text
    return final.text


async def test_accepting_a_challenge_starts_the_game_with_the_board(harness: Harness) -> None:
    accepted = await start_game(harness, ALICE, BOB, "atmalof")
    assert_move_reply(accepted, PLAYERS)
    assert accepted.first.response_type == 7  # the challenge message loses its buttons
    assert accepted.first.data.get("components") == []
    assert ALICE.mention in accepted.last.content  # the challenger starts: "starter: me"


async def test_a_drop_is_announced_before_the_die_is_rolled(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    drop = await harness.slash(ALICE, "drop row", k=4)
    announcement, *rest = drop.messages
    assert announcement.kind == "callback" and not announcement.ephemeral
    assert "row 4" in announcement.text.lower()
    assert not announcement.files  # nothing rolled yet: no board with a landing square
    assert rest, "the roll was not shown after the announcement"
    rolled = rest[-1]
    assert rolled.kind in ("followup", "edit")
    assert any(data.startswith(PNG) for _, _, data in rolled.files)
    assert BOB.mention in rolled.content


async def test_a_whole_game_of_atmalof(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof", variant="custom", options=SMALL_ATMALOF)
    rng = random.Random(5)  # drops into random lines fill the board: a line or the tie-break

    def pick(commands: list[str]) -> str:
        return rng.choice([c for c in commands if c.startswith("drop")] or commands)

    played = await play_out(harness, PLAYERS, pick=pick)
    assert played.turns >= 5
    ended(played)


async def test_a_whole_game_of_nine_mens_morris(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    played = await play_out(harness, PLAYERS)
    assert played.turns >= 18  # every man placed before anything can end it
    ended(played)


async def test_a_whole_game_of_abalone(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "abalone")
    played = await play_out(harness, PLAYERS)
    ended(played)


async def test_slash_commands_build_the_games_notation(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    placed = await harness.slash(ALICE, "place", point="d7")
    assert_move_reply(placed, PLAYERS)
    assert "d7" in placed.text.lower()
    await start_game(harness, ALICE, BOB, "abalone", channel=42)
    pushed = await harness.slash(ALICE, "push", channel=42, marbles="a1-c3", direction="ne")
    assert_move_reply(pushed, PLAYERS)


async def test_move_replies_show_the_clocks_when_the_game_has_them(
    harness: Harness, clock: ManualClock
) -> None:
    await start_game(harness, ALICE, BOB, "morris", clock="5+0")
    clock.advance(10)
    placed = await harness.slash(ALICE, "place", point="d7")
    assert_move_reply(placed, PLAYERS)
    assert format_seconds(290) in placed.text  # alice used 10 s of her 5 minutes
    assert format_seconds(300) in placed.text  # bob's bank, untouched
