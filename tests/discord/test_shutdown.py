"""SIGTERM while commands are running: the bot stops taking interactions (a private note
says so), lets those in flight finish, and only then closes; nothing dies with "the store is
closed" and nothing is logged as an error.

The commands are kept in flight by a real lock: another connection holds the file's write lock
(as a ladder rebuild or a backup would) for a moment, so every move waits in SQLite's busy
handler when the signal comes. The close path is the one ``bot.discord_ui.app.serve`` runs on
SIGTERM:
``bot.close()``, then ``store.close()``. On uvloop and on asyncio's own loop (``EVENT_LOOP``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore
from bot.texts import CANT_SAVE
from tests.discord.conftest import start_bot
from tests.discord.harness import GUILD_ID, Person

pytestmark = pytest.mark.both_loops

TABLES = 12
LOCK_HELD = 0.5  # seconds the other writer keeps the lock after the signal


def people(n: int) -> tuple[Person, Person]:
    return (
        Person(910_000_000_000_000_000 + 2 * n, f"red{n}"),
        Person(910_000_000_000_000_001 + 2 * n, f"blue{n}"),
    )


async def test_sigterm_lets_commands_in_flight_finish_and_refuses_new_ones(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db_path = tmp_path / "referee.db"
    h, store = await start_bot(db_path, ManualClock())
    referee = h.bot.referee  # type: ignore[attr-defined]
    for n in range(TABLES):  # a game at each table, set up through the referee
        red, blue = people(n)
        where = Where(GUILD_ID, 5000 + n)
        made = await referee.challenge(
            where, Actor(red.id, red.name), "morris", opponent=Actor(blue.id, blue.name),
            starter="me",
        )  # fmt: skip
        assert made.ok, made.text
        assert (await referee.accept(where, Actor(blue.id, blue.name))).ok
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    caplog.clear()
    try:
        moves = [
            asyncio.create_task(h.slash(people(n)[0], "place", channel=5000 + n, point="d7"))
            for n in range(TABLES)
        ]
        await asyncio.sleep(0.1)  # every move is now waiting for the lock
        stopping = asyncio.create_task(h.bot.close())  # what SIGTERM runs first
        await asyncio.sleep(0.05)
        late = await h.slash(people(0)[1], "board", channel=5000)
        await asyncio.sleep(LOCK_HELD)
    finally:
        other.execute("ROLLBACK")
        other.close()
    await stopping
    await store.close()  # then the store, as serve does
    answered = await asyncio.gather(*moves)
    assert late.all_ephemeral and "restarting" in late.text.lower(), late.text
    for n, exchange in enumerate(answered):
        assert not exchange.first.ephemeral, (n, exchange.text)
        assert CANT_SAVE not in exchange.text and "place" in exchange.text.lower(), exchange.text
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    reopened = await SqliteStore.open(db_path)
    try:
        for n in range(TABLES):
            g = await reopened.latest_game(5000 + n)
            assert [a.action for a in await reopened.actions(g.id)] == ["place d7"]
    finally:
        await reopened.close()
    await h.close()


async def test_commands_still_running_after_the_grace_are_cut_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db_path = tmp_path / "referee.db"
    h, store = await start_bot(db_path, ManualClock())
    h.bot.grace_seconds = 0.1  # type: ignore[attr-defined]
    red, blue = people(0)
    referee = h.bot.referee  # type: ignore[attr-defined]
    where = Where(GUILD_ID, 5000)
    await referee.challenge(where, Actor(red.id, red.name), "morris",
                            opponent=Actor(blue.id, blue.name), starter="me")  # fmt: skip
    await referee.accept(where, Actor(blue.id, blue.name))
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # held past the grace
    caplog.clear()
    try:
        move = asyncio.create_task(h.slash(red, "place", channel=5000, point="d7"))
        await asyncio.sleep(0.1)
        await h.bot.close()
        await store.close()
        with contextlib.suppress(asyncio.CancelledError):
            await move  # cut: Discord shows that interaction as failed
    finally:
        other.execute("ROLLBACK")
        other.close()
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.levelno for r in records] == [logging.WARNING], [r.getMessage() for r in records]
    assert "1 interaction(s) still running" in records[0].getMessage()
    await h.close()
