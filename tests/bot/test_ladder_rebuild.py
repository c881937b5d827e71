"""``python -m bot ladder rebuild`` beside a bot that is playing: the fold runs with no lock
held, so moves and results go on being saved; a game that ends while the rebuild computes is
not lost (the guild is folded again), and the rebuilt table equals the live one.

The games are real rows: a few played and resigned through the referee, then copied (as a
server with tens of thousands of rated games would have them) with SQL on the same file.
"""

from __future__ import annotations

import asyncio
import io
import os
import sqlite3
import sys
import time
from collections.abc import Awaitable
from pathlib import Path

from bot import ladder_store
from bot.clock import ManualClock
from bot.config import Config
from bot.ladder_cli import main as ladder_cli
from bot.referee import Referee
from bot.referee.replies import Reply, Where
from bot.store import SqliteStore, StoreUnavailable
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, both_act, start

ROOT = Path(__file__).resolve().parents[2]
GUILD = HERE.guild_id
POOL = 40  # players the copied games are shared among
COPIES = int(os.environ.get("REBUILD_GAMES") or 10_000)


async def many_rated_games(path: str, copies: int) -> None:
    """One rated game resigned through the referee, then ``copies`` more like it between
    POOL players, each ending a second after the one before."""
    store = await SqliteStore.open(path)
    referee = Referee(store, ManualClock(), render=False, per_user_limits=False)
    await start(referee, "morris", rated=True)
    await both_act(referee, HERE, ALICE, BOB)
    assert (await referee.resign(HERE, BOB)).finished
    await store.close()
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?, ?, 0, 0)",
            [(1000 + p, f"player{p}") for p in range(POOL)],
        )
        columns = [r[1] for r in db.execute("PRAGMA table_info(games)")]
        varied = {
            "id": "1 + n.i",
            "channel_id": "100000 + n.i",
            "player0": f"1000 + n.i % {POOL}",
            "player1": f"1000 + (n.i * 7 + 1) % {POOL}",  # never the same player twice
            "winner": "CASE n.i % 3 WHEN 2 THEN NULL ELSE n.i % 3 END",
            "ended_at": "t.ended_at + n.i",
        }
        chosen = ", ".join(varied.get(c, f"t.{c}") for c in columns)
        db.execute(
            f"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {copies})"
            f" INSERT INTO games ({', '.join(columns)}) SELECT {chosen} FROM games t, n"
            " WHERE t.id = 1"
        )
        db.execute("COMMIT")
    finally:
        db.close()


async def resign_one(referee: Referee, where: Where) -> None:
    await start(referee, "morris", where=where, first=ALICE, second=CAROL, rated=True)
    await both_act(referee, where, ALICE, CAROL)
    assert (await referee.resign(where, CAROL)).finished


async def test_a_game_ended_while_the_rebuild_computes_is_folded_in(tmp_path: Path) -> None:
    path = str(tmp_path / "referee.db")
    await many_rated_games(path, 200)
    bot_store, cli_store = await SqliteStore.open(path), await SqliteStore.open(path)
    clock = ManualClock()
    clock.advance(3600)  # after the stored games (one that ended earlier is refolded instead)
    referee = Referee(bot_store, clock, render=False)
    ended: list[int] = []

    async def a_game_ends(guild: int) -> None:
        if not ended:  # between the first fold and its write
            await resign_one(referee, Where(GUILD, 77))
            ended.append(guild)

    try:
        report = await ladder_store.rebuild_store(cli_store, computed=a_game_ends)
        assert ended == [GUILD] and report.retries == 0
        assert report.games == 202  # the first, the copies and the one that ended meanwhile
        again = await ladder_store.rebuild_store(cli_store, check=True)
        assert again.differences == [] and again.games == 202
        alice = (await ladder_store.ratings(bot_store, GUILD, "morris", 1))[ALICE.id]
        assert alice.games == 2  # her first game and the one that ended during the rebuild
    finally:
        await bot_store.close()
        await cli_store.close()


async def test_a_result_changed_while_the_rebuild_computes_is_computed_again(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "referee.db")
    await many_rated_games(path, 200)
    cli_store = await SqliteStore.open(path)
    changed: list[int] = []

    async def a_result_changes(guild: int) -> None:
        if not changed:  # as a moderator's decision on a finished game would
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("UPDATE games SET winner = 1 - winner, version = version + 1 WHERE id = 5")
            db.close()
            changed.append(guild)

    try:
        report = await ladder_store.rebuild_store(cli_store, computed=a_result_changes)
        assert changed == [GUILD] and report.retries == 1
        again = await ladder_store.rebuild_store(cli_store, check=True)
        assert again.differences == []
    finally:
        await cli_store.close()


async def play_while(referee: Referee, running: asyncio.Task[object]) -> list[float]:
    """Rated games (a challenge, its acceptance, four moves, a resignation) until ``running``
    is done: how long each of those saved changes took. A change the store cannot save
    raises StoreUnavailable (the test fails)."""
    waits: list[float] = []
    players = (ALICE, BOB)

    async def timed(call: Awaitable[Reply]) -> Reply:
        started = time.perf_counter()
        reply = await call
        waits.append(time.perf_counter() - started)
        assert reply.ok, reply.text
        return reply

    for n in range(10_000):
        if running.done():
            break
        where = Where(GUILD, 500 + n)
        await timed(
            referee.challenge(where, ALICE, "morris", opponent=BOB, starter="me", rated=True)
        )
        await timed(referee.accept(where, BOB))
        for k, point in enumerate(("d7", "d1", "a7", "g7")):
            await timed(referee.act(where, players[k % 2], f"place {point}"))
        assert (await timed(referee.resign(where, BOB))).finished
        await asyncio.sleep(0.01)
    return waits


async def test_a_rebuild_beside_a_playing_bot_never_keeps_it_from_saving(
    tmp_path: Path,
) -> None:
    path = str(tmp_path / "referee.db")
    await many_rated_games(path, COPIES)
    store = await SqliteStore.open(path)
    clock = ManualClock()
    clock.advance(COPIES + 3600)  # the bot's games end after the stored ones
    referee = Referee(store, clock, render=False, per_user_limits=False)
    rebuild = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "ladder", "rebuild",
        cwd=ROOT,
        env={**os.environ, "REFEREE_DB": path, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    waiting = asyncio.create_task(rebuild.communicate())
    try:
        waits = await play_while(referee, waiting)
    except StoreUnavailable:
        rebuild.kill()
        raise
    finally:
        _, err = await waiting
        await store.close()
    assert rebuild.returncode == 0, err.decode()[-2000:]
    assert len(waits) >= 35, "the rebuild ended before the bot played"
    print(f"{len(waits)} changes saved during the rebuild; the slowest took {max(waits):.3f} s")
    assert max(waits) < 1.0, f"a change waited {max(waits):.2f} s for the rebuild"
    check = io.StringIO()
    code = await asyncio.to_thread(ladder_cli, Config(db_path=path), ["rebuild", "--check"], check)
    assert code == 0, check.getvalue()
    assert "no differences" in check.getvalue()
