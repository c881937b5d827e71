"""/verify, /history, /record and /replay with ``game:``: an earlier game of the channel after
its rematch, through discord.py's own objects; another server's game and a number no game can
have are refused privately, as a game that does not exist."""

from __future__ import annotations

import json

from bot.referee.replies import Actor, Where
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import CHANNEL_ID, Harness, shown
from tests.discord.play import start_game


async def earlier_and_rematch(harness: Harness) -> tuple[int, int]:
    """A Morris game resigned after one move, then its rematch running here: both ids."""
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    await harness.slash(BOB, "resign")
    first = await harness.bot.referee.store.latest_game(CHANNEL_ID)
    assert first is not None and first.status != "active"
    await harness.slash(BOB, "rematch")
    await harness.slash(ALICE, "rematch")
    second = await harness.bot.referee.store.latest_game(CHANNEL_ID)
    assert second is not None and second.status == "active" and second.id != first.id
    return first.id, second.id


async def test_a_moderator_verifies_the_earlier_game_after_a_rematch(harness: Harness) -> None:
    first, second = await earlier_and_rematch(harness)
    latest = await harness.slash(MODERATOR, "verify")
    assert "White wins (Black resigned)" not in latest.text  # the rematch runs on
    verified = await harness.slash(MODERATOR, "verify", game=first)
    (call,) = verified.messages
    assert not call.ephemeral  # public, as /verify of the latest game is
    said = shown(call.embeds[0]["description"])
    assert said.startswith("Every move checks out."), said
    assert "White wins (Black resigned)" in said, said
    history = await harness.slash(CAROL, "history", game=first)
    assert f"Game {first}: Alice (White) vs Bob (Black)" in history.text, history.text
    assert f"Game {second}" not in history.text
    record = await harness.slash(CAROL, "record", game=first)
    ((name, _, data),) = record.files
    assert name == f"game-{first}.json" and json.loads(data)["game_id"] == str(first)


async def test_another_servers_game_is_refused_as_one_that_does_not_exist(
    harness: Harness,
) -> None:
    referee = harness.bot.referee
    elsewhere = Where(guild_id=GUILD_ELSEWHERE, channel_id=CHANNEL_ELSEWHERE)
    carol, bob = Actor(CAROL.id, CAROL.name), Actor(BOB.id, BOB.name)
    assert (await referee.challenge(elsewhere, carol, "morris", opponent=bob)).ok
    theirs = await referee.accept(elsewhere, bob)
    assert theirs.ok and theirs.game_id is not None
    missing = theirs.game_id + 500
    before = await referee.store.game(theirs.game_id)
    for command in ("verify", "history", "record", "replay"):
        refused = await harness.slash(MODERATOR, command, game=theirs.game_id)
        absent = await harness.slash(MODERATOR, command, game=missing)
        assert refused.all_ephemeral and absent.all_ephemeral, command
        assert not refused.files and not absent.files
        said = f"no game {theirs.game_id} was played in this channel: a game's number is the one"
        assert refused.text.startswith(said), refused.text
        assert refused.text == absent.text.replace(str(missing), str(theirs.game_id))
    assert await referee.store.game(theirs.game_id) == before


async def test_a_bad_game_number_is_refused_privately(harness: Harness) -> None:
    """Discord's client asks for a whole number from 1; a payload with another value is told
    what is wrong with it and nothing runs."""
    first, second = await earlier_and_rematch(harness)
    before = await harness.bot.referee.store.game(second)
    for value, said in (
        (-3, f"game must be between 1 and {2**53}"),
        (0, f"game must be between 1 and {2**53}"),
        (2**52, f"no game {2**52} was played in this channel"),
        (2**70, "game is out of range"),
        ("12", "game must be a number"),
        (1.5, "game must be a whole number"),
    ):
        refused = await harness.slash(MODERATOR, "verify", game=value)
        assert refused.all_ephemeral and refused.text.startswith(said), (value, refused.text)
    assert await harness.bot.referee.store.game(second) == before
    assert first < second


GUILD_ELSEWHERE = 700_000_000_000_000_901
CHANNEL_ELSEWHERE = 700_000_000_000_000_902
