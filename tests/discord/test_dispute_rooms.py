"""A dispute's private thread stays bound to the game it was opened for: once that game is
decided and the players start the next one in the channel, the old thread still shows, and its
moderators still act on, the disputed game, never the channel's new one. A thread no dispute
opened (or one opened before threads were noted) reads its channel's latest game, as before."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import (
    BOT_USER_ID,
    CHANNEL_ID,
    Exchange,
    Harness,
    Person,
    snowflake,
    thread_payload,
)
from tests.discord.play import start_game
from tests.discord.test_disputes import PRIVATE_THREADS

GAME_1_OVER = "the game here has already ended: Bob (Black) wins (decided by moderator Mo"


async def placed(h: Harness, *moves: tuple[Person, str]) -> None:
    for person, point in moves:
        played = await h.slash(person, "place", point=point)
        assert not played.first.ephemeral, played.text


async def disputed_in_a_thread(h: Harness, person: Person, reason: str) -> int:
    """``person`` disputes the channel's game; the id of the private thread the bot opened."""
    before = len(h.rest_calls)
    opened = await h.slash(person, "dispute", reason=reason, app_permissions=PRIVATE_THREADS)
    assert not opened.all_ephemeral, opened.text
    made = [c for c in h.rest_calls[before:] if c.path == "/channels/{channel_id}/threads"]
    assert len(made) == 1 and made[0].payload["type"] == 12  # a private thread
    return int(made[0].message["id"])


def shown(seen: Exchange) -> str:
    """What a reply shows: its text (embeds too) and the names of its files."""
    return seen.text + " " + " ".join(name for name, _, _ in seen.files)


async def game(h: Harness, game_id: int) -> Any:
    return await h.bot.referee.store.game(game_id)  # type: ignore[attr-defined]


async def test_an_old_dispute_thread_shows_and_moderates_its_own_game_not_the_next(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "morris")  # game 1
    await placed(harness, (ALICE, "a1"), (BOB, "b2"))
    first = await disputed_in_a_thread(harness, BOB, "lag")
    awarded = await harness.slash(MODERATOR, "referee award", channel=first, reason="x", winner=BOB)
    assert not awarded.all_ephemeral and "Bob (Black) wins" in awarded.text
    await start_game(harness, ALICE, BOB, "morris")  # game 2, in the same channel
    await placed(harness, (ALICE, "g7"), (BOB, "d7"), (ALICE, "d6"))
    second = await disputed_in_a_thread(harness, ALICE, "bob stalls")  # game 2 frozen too
    before = await game(harness, 2)
    assert before.status == "active" and before.frozen_at is not None

    board = shown(await harness.slash(MODERATOR, "board", channel=first))
    assert "game 1 ·" in board and "game-1-v" in board and "decided by moderator" in board
    assert "game 2" not in board and "Frozen for a dispute" not in board
    history = shown(await harness.slash(MODERATOR, "history", channel=first))
    assert "Game 1: Alice (White) vs Bob (Black)" in history and "2. Black: place b2" in history
    assert "place g7" not in history and "Game 2" not in history
    record = await harness.slash(ALICE, "record", channel=first)
    assert [name for name, _, _ in record.files] == ["game-1.json"]
    assert "The record of game 1." in record.text
    verified = shown(await harness.slash(BOB, "verify", channel=first))
    assert "Verified" in verified and "game 1 ·" in verified and "game 2" not in verified

    # the moderators' decisions there: game 1 is over, and game 2 is left as it was
    for path, values in (
        ("referee void", {"reason": "x"}),
        ("referee resume", {}),
        ("referee award", {"reason": "x", "winner": ALICE}),
        ("referee restore", {"action": 1, "reason": "agreed"}),
        ("referee abort", {"reason": "x"}),
    ):
        refused = await harness.slash(MODERATOR, path, channel=first, **values)
        assert refused.all_ephemeral and refused.text.startswith(GAME_1_OVER), (path, refused.text)
    rewound = await harness.slash(MODERATOR, "referee rewind", channel=first, action=1)
    assert "game 1" in rewound.text and "after action 1: place a1;" in rewound.text
    moved = await harness.slash(ALICE, "place", channel=first, point="a7")  # no game of its own
    assert moved.all_ephemeral
    assert await game(harness, 2) == before  # nothing in thread 1 touched game 2

    # game 2's own thread shows and decides game 2
    board = shown(await harness.slash(MODERATOR, "board", channel=second))
    assert "game 2 ·" in board and "Frozen for a dispute" in board
    voided = await harness.slash(MODERATOR, "referee void", channel=second, reason="both lag")
    assert not voided.all_ephemeral and "voided by moderator" in voided.text
    assert (await game(harness, 2)).status == "aborted"
    assert (await game(harness, 1)).winner == 1  # game 1's award stands


async def test_a_thread_no_dispute_noted_reads_its_channels_latest_game(
    harness: Harness,
) -> None:
    """A thread of the channel the bot never noted (opened before threads were noted, or by
    people): its commands fall back to the channel's latest game, and a frozen one there."""
    old = snowflake()
    harness.channels[old] = thread_payload(old, CHANNEL_ID, "old dispute", BOT_USER_ID)
    await start_game(harness, ALICE, BOB, "morris")
    await placed(harness, (ALICE, "a1"))
    await harness.slash(BOB, "resign")
    await start_game(harness, ALICE, BOB, "morris")
    await placed(harness, (ALICE, "g7"))
    board = shown(await harness.slash(MODERATOR, "board", channel=old))
    assert "game 2 ·" in board
    opened = await harness.slash(BOB, "dispute", reason="lag")  # evidence in the channel
    assert not opened.all_ephemeral, opened.text
    resumed = await harness.slash(MODERATOR, "referee resume", channel=old, reason="ok")
    assert not resumed.all_ephemeral and "resumes the game" in resumed.text
    assert (await game(harness, 2)).frozen_at is None
