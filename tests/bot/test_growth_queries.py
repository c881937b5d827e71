"""Costs that must not grow with the store (issue 17), asserted by structure, never by time:
every statement the real commands run against games, challenges and request ids is answered
through an index (``EXPLAIN QUERY PLAN`` shows no full scan and no sort of a whole channel's
games); answered request ids are pruned in small batches; abandoned games leave the cache."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

import bot.referee.upkeep
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Where
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, CAROL, HERE, THERE, play, start, swept

pytestmark = pytest.mark.sqlite_only  # it reads the query plans SQLite chooses

GROWING = ("games", "challenges", "request_ids")  # tables that grow with the bot's life


async def plans_of(store: Store, run: Callable[[], Awaitable[object]]) -> dict[str, list[str]]:
    """Each statement ``run`` sent to SQLite that reads a growing table, with its query plan."""
    seen: list[str] = []
    await store.db.set_trace_callback(seen.append)
    try:
        await run()
    finally:
        await store.db.set_trace_callback(None)
    plans: dict[str, list[str]] = {}
    for sql in seen:
        words = sql.lstrip().split(None, 1)
        verb = words[0].upper() if words else ""
        if verb not in ("SELECT", "DELETE", "UPDATE") or not any(t in sql for t in GROWING):
            continue
        rows = await store.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql)
        plans[sql] = [str(r[3]) for r in rows]
    assert plans, "the command read none of the growing tables"
    return plans


def growing_scans(plans: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(statement, plan line) for every full scan of a growing table, and every sort that a
    growing table's rows feed (a temporary B-tree reads them all before the first answer)."""
    bad = []
    for sql, lines in plans.items():
        for line in lines:
            scan = line.startswith("SCAN ") and line.split()[1] in (*GROWING, "g", "c")
            if scan or "TEMP B-TREE" in line:
                bad.append((sql, line))
    return bad


async def finished_games(referee: Referee, where: Where, n: int) -> None:
    for _ in range(n):
        await start(referee, "morris", where)
        assert (await referee.resign(where, BOB)).ok


async def test_board_in_a_channel_of_many_games_reads_no_old_game(referee: Referee) -> None:
    await finished_games(referee, HERE, 3)
    plans = await plans_of(referee.store, lambda: referee.board(HERE))
    assert not growing_scans(plans), growing_scans(plans)
    await start(referee, "morris")  # and with an active game among the finished ones
    plans = await plans_of(referee.store, lambda: referee.board(HERE))
    assert not growing_scans(plans), growing_scans(plans)
    assert (await referee.board(HERE)).game_id == 4  # the active game, not merely the newest


async def test_the_latest_game_is_the_active_one_else_the_newest(store: Store) -> None:
    referee = Referee(store, ManualClock(), render=False, per_user_limits=False)
    await finished_games(referee, HERE, 2)
    await finished_games(referee, THERE, 1)
    assert (await store.latest_game(HERE.channel_id)).id == 2  # type: ignore[union-attr]
    await start(referee, "morris", HERE)
    assert (await store.latest_game(HERE.channel_id)).id == 4  # type: ignore[union-attr]
    assert await store.latest_game(99) is None


async def test_challenge_and_accept_count_limits_through_indexes(referee: Referee) -> None:
    await start(referee, "morris", THERE, ALICE, CAROL)  # an active game to count
    store = referee.store

    async def challenge_and_accept() -> None:
        assert (await referee.challenge(HERE, ALICE, "morris", opponent=BOB)).ok
        assert (await referee.accept(HERE, BOB)).ok

    plans = await plans_of(store, challenge_and_accept)
    counts = [sql for sql in plans if "COUNT(*)" in sql]
    assert len(counts) >= 2, plans  # the per-user limits ran (inside the write)
    assert not growing_scans(plans), growing_scans(plans)


async def test_the_sweeper_finds_its_work_through_indexes(
    referee: Referee, clock: ManualClock
) -> None:
    await start(referee, "atmalof", clock="10+0")
    assert (await referee.act(HERE, ALICE, "drop row 4")).pending_roll  # a roll left waiting
    assert (await referee.challenge(THERE, CAROL, "morris", opponent=BOB)).ok
    clock.advance(30)
    plans = await plans_of(referee.store, lambda: swept(referee))
    assert any("pending_at" in sql for sql in plans) and any("deadline" in sql for sql in plans)
    assert any("DELETE FROM request_ids" in sql for sql in plans)
    assert not growing_scans(plans), growing_scans(plans)


async def test_the_sweeper_prunes_old_request_ids_in_small_batches(
    referee: Referee, store: Store, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.referee.upkeep, "REQUESTS_PRUNED_PER_SWEEP", 3)
    await start(referee, "morris")
    points = ["d7", "d1", "a4", "g4", "b2"]
    for n, point in enumerate(points):
        mover = (ALICE, BOB)[n % 2]
        assert (await referee.act(HERE, mover, f"place {point}", request_id=f"r{n}")).ok
    clock.advance(bot.referee.upkeep.REQUESTS_KEPT_FOR + 60)
    assert (await referee.act(HERE, BOB, "place g1", request_id="fresh")).ok

    async def kept() -> list[str]:
        rows = await store.db.execute_fetchall("SELECT request_id FROM request_ids ORDER BY at")
        return [r[0] for r in rows]

    assert len(await kept()) == 6
    await swept(referee)
    assert await kept() == ["r3", "r4", "fresh"]  # the three oldest went first
    await swept(referee)
    assert await kept() == ["fresh"]  # a fresh id stays: a redelivery is still answered once
    again = await referee.act(HERE, BOB, "place g1", request_id="fresh")
    assert again.ok and (await store.active_game(HERE.channel_id)).seq == 6  # type: ignore[union-attr]


async def test_abandoned_games_leave_the_position_cache(store: Store) -> None:
    clock = ManualClock()
    referee = Referee(store, clock, render=False, per_user_limits=False, positions_kept=2)
    channels = [Where(guild_id=1, channel_id=100 + n) for n in range(4)]
    for where in channels:
        await start(referee, "morris", where)
        assert (await play(referee, where, ALICE, "place d7")).ok
    cached = [g for g in range(1, 5) if g in referee.ctx.states]
    assert cached == [3, 4]  # the two most recent; the abandoned ones are gone
    assert (await play(referee, channels[0], BOB, "place d1")).ok  # replayed from the store
    assert 1 in referee.ctx.states and len(referee.ctx.states) == 2
