"""Discord faults: a reply Discord fails to take after the action was stored, an interaction
delivered twice, the bot restarting with buttons on old messages, and the database faults as a
member sees them (a polite private note, nothing changed, the next command works).

Discord's failures are injected where the harness records the bot's HTTP calls: the recorded
call raises ``discord.DiscordServerError`` (a 500) as the real transport would.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.clock import ManualClock
from bot.discord_ui.tree import UNEXPECTED
from bot.referee.replies import Actor, Where
from bot.store import BUSY_TIMEOUT_MS, SqliteStore
from bot.texts import CANT_SAVE, ROLL_LATER
from tests.discord.conftest import ALICE, BOB, CAROL, start_bot
from tests.discord.harness import CHANNEL_ID, Harness
from tests.discord.play import assert_move_reply, button, message_with_buttons, start_game

PLAYERS = (ALICE, BOB)
DISCORD_WINDOW_MS = 3_000  # an interaction not answered within three seconds fails


@contextlib.contextmanager
def discord_fails(kind: str, times: int = 1) -> Iterator[list[str]]:
    """The next ``times`` webhook calls of ``kind`` ("callback" or "followup") answer 500."""
    recorded = AsyncWebhookAdapter.__dict__["request"]  # the harness's recorder
    failed: list[str] = []

    async def request(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        is_kind = (
            route.path.endswith("/callback")
            if kind == "callback"
            else route.method == "POST" and route.path == "/webhooks/{webhook_id}/{webhook_token}"
        )
        if is_kind and len(failed) < times:
            failed.append(route.path)
            response = SimpleNamespace(status=500, reason="Internal Server Error")
            raise discord.DiscordServerError(response, "500: Internal Server Error")  # type: ignore[arg-type]
        return await recorded(adapter, route, *args, **kwargs)

    AsyncWebhookAdapter.request = request  # type: ignore[method-assign]
    try:
        yield failed
    finally:
        AsyncWebhookAdapter.request = recorded  # type: ignore[method-assign]


def lines(caplog: pytest.LogCaptureFixture, level: int = logging.WARNING) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= level]


async def moves(h: Harness) -> list[str]:
    store = h.bot.referee.store  # type: ignore[attr-defined]
    g = await store.latest_game(CHANNEL_ID)
    return [a.action for a in await store.actions(g.id)]


async def test_a_move_whose_reply_discord_drops_still_stands(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    caplog.clear()
    with discord_fails("callback") as failed:
        exchange = await harness.slash(ALICE, "place", point="d7")
    assert failed and not exchange.calls  # Discord never took the answer
    assert await moves(harness) == ["place d7"]
    (warning,) = lines(caplog)
    assert "reply not delivered" in warning and '"status": 500' in warning, warning
    assert not any(UNEXPECTED in c.text for c in exchange.calls)
    board = await harness.slash(CAROL, "board")  # anyone sees the move that stood
    assert_move_reply(board, PLAYERS)
    assert "Bob (Black) to move" in board.last.text  # the turn passed (a look pings nobody)
    again = await harness.slash(ALICE, "place", point="d7")
    assert again.all_ephemeral  # it is Bob's turn: the move is not played twice


async def test_a_roll_whose_followup_discord_drops_still_stands(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    caplog.clear()
    with discord_fails("followup") as failed:
        exchange = await harness.slash(ALICE, "drop row", k=4)
    assert failed and len(exchange.messages) == 1  # the announcement went out, the roll did not
    (drop,) = await moves(harness)
    assert drop == "drop row 4"
    store = harness.bot.referee.store  # type: ignore[attr-defined]
    g = await store.latest_game(CHANNEL_ID)
    assert g.pending is None and (await store.actions(g.id))[0].roll is not None
    assert any("reply not delivered" in line for line in lines(caplog))
    board = await harness.slash(BOB, "board")
    assert_move_reply(board, PLAYERS)
    assert "Bob (Blue) to move" in board.last.text  # the roll stood (a look pings nobody)


async def test_an_interaction_delivered_twice_is_answered_and_played_once(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    payload = harness._base(2, ALICE, CHANNEL_ID)
    payload["data"], _ = harness._options("place", {"point": "d7"})
    first = await harness.dispatch(payload)
    second = await harness.dispatch(payload)
    assert_move_reply(first, PLAYERS)
    assert second.calls == []
    assert await moves(harness) == ["place d7"]
    assert any("duplicate interaction" in line for line in lines(caplog))


async def test_a_button_click_delivered_twice_is_handled_once(harness: Harness) -> None:
    posted = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB, starter="me")
    challenge = message_with_buttons(posted)
    payload = harness._base(3, BOB, CHANNEL_ID)
    payload["message"] = challenge.message
    payload["data"] = {"custom_id": button(challenge, "accept"), "component_type": 2}
    first = await harness.dispatch(payload, message_id=int(challenge.message["id"]))
    second = await harness.dispatch(payload, message_id=int(challenge.message["id"]))
    assert not first.first.ephemeral and second.calls == []


async def test_a_move_delivered_again_after_a_restart_lands_once(
    db_path: Path, clock: ManualClock
) -> None:
    first, store = await start_bot(db_path, clock)
    try:
        await start_game(first, ALICE, BOB, "morris")
        payload = first._base(2, ALICE, CHANNEL_ID)
        payload["data"], _ = first._options("place", {"point": "d7"})
        assert_move_reply(await first.dispatch(payload), PLAYERS)
    finally:
        await first.close()
        await store.close()
    second, store = await start_bot(db_path, clock)  # a fresh process: nothing remembered
    try:
        again = await second.dispatch(payload)  # the request id is the interaction id
        assert UNEXPECTED not in again.text and "not your" not in again.text.lower()
        assert await moves(second) == ["place d7"]
    finally:
        await second.close()
        await store.close()


async def test_a_restart_between_announcement_and_roll_with_old_buttons(
    db_path: Path, clock: ManualClock
) -> None:
    first, store = await start_bot(db_path, clock)
    try:
        await start_game(first, ALICE, BOB, "atmalof")
        offer = message_with_buttons(await first.slash(ALICE, "draw offer"))
        referee = first.bot.referee  # type: ignore[attr-defined]
        where = Where(None, CHANNEL_ID)
        announced = await referee.act(where, Actor(ALICE.id, "alice"), "drop col 2")
        assert announced.pending_roll  # the process dies here, before the roll
    finally:
        await first.close()
        await store.close()
    second, store = await start_bot(db_path, clock)
    try:
        # alice's offer stands across her own announcement: bob's button made before it (and
        # before the restart) accepts it, once the roll the dead process owed is made and said
        agreed = await second.click(BOB, offer.message, button(offer, "draw-accept"))
        assert not agreed.all_ephemeral, agreed.text
        lines = agreed.text.lower()
        assert "announces column 2 and rolls" in lines, agreed.text
        assert "a draw (agreed by both players)" in lines, agreed.text
        assert lines.index("announces column 2") < lines.index("agreed by both players")
        (drop,) = await store.actions(1)
        assert drop.action == "drop col 2" and drop.roll is not None
        g = await store.game(1)
        assert (g.status, g.termination) == ("finished", "agreement")
    finally:
        await second.close()
        await store.close()


async def test_a_database_fault_is_a_polite_private_note_and_clears(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    store = harness.bot.referee.store  # type: ignore[attr-defined]
    await store.db.execute("PRAGMA query_only = ON")  # SQLite refuses writes: a read-only file
    caplog.clear()
    refused = await harness.slash(ALICE, "place", point="d7")
    assert refused.all_ephemeral and refused.text == CANT_SAVE
    assert any("cannot save" in line and "read-only" in line for line in lines(caplog))
    assert not any("unexpected error" in line for line in lines(caplog))
    resign = await harness.slash(BOB, "resign")
    assert resign.all_ephemeral and resign.text == CANT_SAVE
    assert (await harness.slash(CAROL, "board")).first.ephemeral is False  # reads still work
    await store.db.execute("PRAGMA query_only = OFF")
    assert_move_reply(await harness.slash(ALICE, "place", point="d7"), PLAYERS)
    assert await moves(harness) == ["place d7"]


async def test_a_roll_that_cannot_be_saved_says_so_and_is_rolled_later(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    store = harness.bot.referee.store  # type: ignore[attr-defined]
    referee = harness.bot.referee  # type: ignore[attr-defined]
    original = referee.roll_pending

    async def roll_while_read_only(*args: Any, **kwargs: Any) -> Any:
        await store.db.execute("PRAGMA query_only = ON")  # the disk goes read-only just now
        try:
            return await original(*args, **kwargs)
        finally:
            await store.db.execute("PRAGMA query_only = OFF")

    referee.roll_pending = roll_while_read_only
    try:
        exchange = await harness.slash(ALICE, "drop row", k=3)
    finally:
        del referee.roll_pending
    announcement, note = exchange.messages
    assert not announcement.ephemeral and note.ephemeral and note.text == ROLL_LATER
    board = await harness.slash(BOB, "board")
    assert_move_reply(board, PLAYERS)
    (drop,) = await store.actions(1)
    assert drop.roll is not None


async def test_a_thread_opened_for_a_challenge_that_cannot_be_saved_is_removed(
    harness: Harness,
) -> None:
    store = harness.bot.referee.store  # type: ignore[attr-defined]
    await store.db.execute("PRAGMA query_only = ON")
    refused = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB, thread=True)
    await store.db.execute("PRAGMA query_only = OFF")
    (answer,) = [c for c in refused.calls if c.kind == "callback"]
    assert answer.ephemeral and answer.text == CANT_SAVE
    made = [c for c in harness.rest_calls if c.path == "/channels/{channel_id}/threads"]
    gone = [c for c in harness.rest_calls if c.method == "DELETE"]
    assert len(made) == 1 and len(gone) == 1
    assert set(harness.channels) == {CHANNEL_ID}


async def test_the_default_lock_wait_leaves_time_to_answer_within_discords_window(
    db_path: Path,
) -> None:
    """A writer that holds the lock longer than the store waits is a "can't save" answer; the
    wait must leave a second of Discord's three for the rest of the answer."""
    store = await SqliteStore.open(str(db_path))
    try:
        ((waits,),) = await store.db.execute_fetchall("PRAGMA busy_timeout")
    finally:
        await store.close()
    assert waits == BUSY_TIMEOUT_MS <= DISCORD_WINDOW_MS - 1_000


async def test_a_lock_held_by_another_writer_is_the_first_answer_cant_save(
    db_path: Path, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    h, store = await start_bot(db_path, clock, busy_timeout_ms=50)
    try:
        await start_game(h, ALICE, BOB, "morris")
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # e.g. a ladder rebuild from the command line
            refused = await h.slash(ALICE, "place", point="d7")
        finally:
            other.execute("ROLLBACK")
            other.close()
        answer = refused.first  # the interaction's own response: no defer, no followup
        assert answer.response_type == 4 and answer.ephemeral and answer.text == CANT_SAVE
        assert any("cannot save" in line and "locked" in line for line in lines(caplog))
        assert_move_reply(await h.slash(ALICE, "place", point="d7"), PLAYERS)
    finally:
        await h.close()
        await store.close()
