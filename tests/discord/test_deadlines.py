"""Every interaction answered within Discord's three seconds, even while another writer holds the
database: commands waiting on one connection used to wait out the busy timeout in turn (answers
at 2, 4 and 6 seconds: two of three players saw "the application did not respond")."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.clock import ManualClock
from bot.texts import CANT_SAVE
from tests.discord.conftest import ALICE, BOB, CAROL, start_bot
from tests.discord.harness import CHANNEL_ID, Call, Exchange
from tests.discord.play import assert_move_reply, button, message_with_buttons, start_game

WINDOW = 3.0  # seconds Discord waits for an interaction's first response
CHANNELS = [CHANNEL_ID + n for n in range(3)]


def first_response(exchange: Exchange) -> Call:
    (call,) = [c for c in exchange.calls if c.kind == "callback"]
    return call


async def test_three_commands_against_a_locked_database_are_each_answered_in_time(
    db_path: Path, clock: ManualClock
) -> None:
    h, store = await start_bot(db_path, clock)  # the default busy timeout
    try:
        for channel in CHANNELS:
            await start_game(h, ALICE, BOB, "morris", channel=channel)
        offer = message_with_buttons(await h.slash(BOB, "draw offer", channel=CHANNELS[1]))
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # e.g. a ladder rebuild from the command line

            async def look_later() -> Exchange:  # a read that queues behind the waiting writes
                await asyncio.sleep(0.3)
                return await h.slash(CAROL, "board", channel=CHANNELS[0])

            async def click_later() -> Exchange:  # a button, queued the same way
                await asyncio.sleep(0.3)
                return await h.click(ALICE, offer.message, button(offer, "draw-decline"))

            moves = await asyncio.gather(
                *(h.slash(ALICE, "place", channel=c, point="d7") for c in CHANNELS),
                look_later(),
                click_later(),
            )
        finally:
            other.execute("ROLLBACK")
            other.close()
        for exchange in moves:
            answer = first_response(exchange)
            assert answer.at - exchange.started < WINDOW, exchange.latency
        for exchange in moves[:3]:
            answer = first_response(exchange)
            assert answer.response_type == 4 and answer.ephemeral and answer.text == CANT_SAVE
        for channel in CHANNELS:  # nothing was lost or half-done: the moves work now
            assert_move_reply(
                await h.slash(ALICE, "place", channel=channel, point="d7"), (ALICE, BOB)
            )
    finally:
        await h.close()
        await store.close()
