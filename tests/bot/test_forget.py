"""Forgetting a server (docs/privacy.md): nothing of it is left but what other servers need.

Two servers on one real SQLite file. Server 1 has finished rated games, a running game, a
disputed one, a closed season, settings, a mod role, an open challenge and answers kept for
repeated requests; carol and bob play only there, alice plays on server 2 too. After
``/referee forget-server`` (the referee's call) or ``python -m bot store forget``, every table is
searched for server 1's id, its games' ids and its players' names.
"""

from __future__ import annotations

import asyncio
import io
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import ladder_store
from bot.__main__ import main
from bot.clock import ManualClock
from bot.config import Config
from bot.forget import cli, forget_guild
from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.records import check_stored
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore, Store
from tests.bot.conftest import ALICE, BOB, CAROL, MOD, random_game, start

GONE = 1  # the server that asks to be forgotten
STAYS = 2
DAVE = Actor(404, "dave")
ERIN = Actor(505, "erin")  # waits on server 1 with an open challenge: known nowhere else
PLAYERS = {p.id: p for p in (ALICE, BOB, CAROL, DAVE)}
GONE_ROOM = 2100  # the private thread of server 1's dispute
KEPT_ROOM = 3000  # one noted for a game of server 2


def at(guild: int, channel: int) -> Where:
    return Where(guild_id=guild, channel_id=channel)


async def two_servers(referee: Referee, store: Store, clock: ManualClock) -> list[int]:
    """Fill both servers; returns server 2's game ids."""
    for n, (a, b) in enumerate([(ALICE, BOB), (CAROL, BOB), (ALICE, CAROL)]):
        await start(referee, "morris", at(GONE, 10 + n), a, b, rated=True)
        await random_game(referee, at(GONE, 10 + n), PLAYERS, seed=n)
        clock.advance(60)
    await start(referee, "atmalof", at(GONE, 20), BOB, CAROL)  # still running
    await referee.act(at(GONE, 20), BOB, "drop row 4", request_id="req-gone-1")
    await start(referee, "abalone", at(GONE, 21), CAROL, ALICE)
    disputed = await referee.dispute(at(GONE, 21), CAROL, "a wrong push")
    assert disputed.ok and disputed.game_id is not None
    await store.open_room(GONE_ROOM, disputed.game_id, clock.now())  # its private thread
    assert (await referee.challenge(at(GONE, 22), ERIN, "morris", opponent=CAROL)).ok
    assert (await referee.set_setting(at(GONE, 10), MOD, "theme", "light")).ok
    assert (await referee.set_mod_role(at(GONE, 10), MOD, 5555)).ok
    await ladder_store.close_season(store, GONE, clock.now(), MOD.id)
    for n in range(2):
        await start(referee, "morris", at(STAYS, 30 + n), ALICE, DAVE, rated=True)
        await random_game(referee, at(STAYS, 30 + n), PLAYERS, seed=10 + n)
    await start(referee, "atmalof", at(STAYS, 40), DAVE, ALICE)
    await referee.act(at(STAYS, 40), DAVE, "drop col 3", request_id="req-stays-1")
    assert (await referee.set_setting(at(STAYS, 30), MOD, "theme", "dark")).ok
    rows = list(
        await store.db.execute_fetchall("SELECT id FROM games WHERE guild_id = ?", (STAYS,))
    )
    await store.open_room(KEPT_ROOM, rows[0][0], clock.now())
    return [r[0] for r in rows]


def every_value(db_path: str) -> list[tuple[str, str, Any]]:
    """(table, column, value) for every cell of every table, read with plain sqlite3."""
    con = sqlite3.connect(db_path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        cells = []
        for table in tables:
            cur = con.execute(f'SELECT * FROM "{table}"')
            names = [d[0] for d in cur.description]
            for row in cur:
                cells += [(table, col, value) for col, value in zip(names, row, strict=True)]
        return cells
    finally:
        con.close()


def triggers(db_path: str) -> list[tuple[str, str]]:
    con = sqlite3.connect(db_path)
    try:
        return sorted(con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
    finally:
        con.close()


async def assert_forgotten(store: Store, db_path: str, gone_games: set[int], kept: list[int]):
    guild_columns = {"guild_id"}
    game_columns = {"game_id", "rematch_of"}
    for table, column, value in every_value(db_path):
        where = f"{table}.{column} = {value!r}"
        if column in guild_columns:
            assert value != GONE, where
        if column in game_columns or (table == "games" and column == "id"):
            assert value not in gone_games, where
        if isinstance(value, str):
            for name in ("bob", "carol", "erin", "wrong push"):
                assert name not in value, where
    ids = {v for t, c, v in every_value(db_path) if t == "players" and c == "id"}
    assert ids == {ALICE.id, DAVE.id}  # alice stays: server 2's games show and verify her
    assert await store.room_game(GONE_ROOM) is None
    room = await store.room_game(KEPT_ROOM)  # server 2's thread still finds its game
    assert room is not None and room.id == kept[0]
    for game_id in kept:
        g = await store.game(game_id)
        assert g is not None
        verdict = await check_stored(store, g)
        assert verdict.ok, (game_id, verdict.reason, verdict.details)


@pytest.mark.sqlite_only
async def test_a_moderator_forgets_the_server_and_only_what_others_need_stays(
    referee: Referee, store: Store, clock: ManualClock, db_path: str
) -> None:
    kept = await two_servers(referee, store, clock)
    gone = {
        r[0]
        for r in list(
            await store.db.execute_fetchall("SELECT id FROM games WHERE guild_id = ?", (GONE,))
        )
    }
    before = triggers(db_path)

    refused = await referee.forget_server(at(GONE, 10), ALICE)
    assert not refused.ok and refused.ephemeral
    assert len(
        list(await store.db.execute_fetchall("SELECT 1 FROM games WHERE guild_id = ?", (GONE,)))
    ) == len(gone)
    assert not (await referee.forget_server(Where(None, 99), MOD)).ok

    reply = await referee.forget_server(at(GONE, 10), MOD)
    assert reply.ok and reply.ephemeral
    assert "Removed from this server: games: 5, " in reply.text
    assert "links from dispute threads to their games: 1" in reply.text
    assert "Kept the name and id of 1 player who also plays on other servers" in reply.text
    hungarian = reply_words(reply, "hu")  # a moderator reads it in their language
    assert "Törölve erről a szerverről: játszmák: 5, " in hungarian
    assert "Megmaradt 1 játékos neve és azonosítója" in hungarian
    await assert_forgotten(store, db_path, gone, kept)
    assert triggers(db_path) == before  # the logs are append-only again
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with store.transaction("a test") as tx:
            db = tx.db  # type: ignore[attr-defined]  # SQLite's own, for this test
            await db.execute("DELETE FROM actions WHERE game_id = ?", (kept[0],))

    again = await referee.forget_server(at(GONE, 10), MOD)
    assert again.text == "Removed from this server: players: 0."  # nothing else was left
    # the server can play again, and server 2 goes on
    await start(referee, "morris", at(GONE, 10), CAROL, BOB)
    assert (await referee.board(at(STAYS, 40))).ok


@pytest.mark.sqlite_only
async def test_the_command_line_counts_first_and_deletes_only_with_yes(
    referee: Referee,
    store: Store,
    clock: ManualClock,
    db_path: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept = await two_servers(referee, store, clock)
    gone = {
        r[0]
        for r in list(
            await store.db.execute_fetchall("SELECT id FROM games WHERE guild_id = ?", (GONE,))
        )
    }
    cells = every_value(db_path)
    out = io.StringIO()
    config = Config(db_path=db_path)
    assert await asyncio.to_thread(cli, config, GONE, delete=False, out=out) == 0
    assert "would remove 5 games" in out.getvalue() and "--yes" in out.getvalue()
    assert every_value(db_path) == cells  # counting changed nothing
    assert await asyncio.to_thread(main, ["store", "forget", "--guild", "1x"]) == 2
    assert every_value(db_path) == cells
    await store.close()  # the command opens the file itself, as an operator would
    monkeypatch.setenv("REFEREE_DB", db_path)
    assert await asyncio.to_thread(main, ["store", "forget", "--guild", str(GONE), "--yes"]) == 0
    reopened = await SqliteStore.open(db_path)
    try:
        await assert_forgotten(reopened, db_path, gone, kept)
    finally:
        await reopened.close()


@pytest.mark.sqlite_only
async def test_a_failure_midway_leaves_everything_as_it_was(
    referee: Referee, store: Store, clock: ManualClock, db_path: str
) -> None:
    await two_servers(referee, store, clock)
    before = triggers(db_path)
    async with store.transaction("a link the forget cannot honour") as tx:
        db = tx.db  # type: ignore[attr-defined]  # SQLite's own, for this test
        # a row of another server pointing at a game of the forgotten one: the foreign key
        # check at commit refuses the whole forget
        gone_game = next(
            iter(
                await db.execute_fetchall(
                    "SELECT id FROM games WHERE guild_id = ? LIMIT 1", (GONE,)
                )
            )
        )[0]
        await db.execute(
            "UPDATE games SET rematch_of = ? WHERE guild_id = ? AND status = 'active'",
            (gone_game, STAYS),
        )
    cells = every_value(db_path)
    with pytest.raises(sqlite3.IntegrityError):
        await forget_guild(store, GONE)
    assert every_value(db_path) == cells
    assert triggers(db_path) == before


def test_the_privacy_note_names_both_ways_to_forget() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "privacy.md").read_text()
    assert "/referee forget-server" in text and "python -m bot store forget --guild" in text
