"""Costs that grow with the store or the game (issue 17), each at a small and a large size:
/board's channel lookup among many stored games, the per-user game count and the sweeper's
pending-roll query among many active games, the first command after a restart at a late ply,
Abalone's apply late in a game without a move limit, and the request ids kept after a sweep.
Flat numbers across each pair are the aim. ``python -m bench growth``.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import engine
from bot import limits
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore
from engine.abalone import moved_marbles

ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")
HERE = Where(1, 10)


def fill(path: str, n: int, *, status: str, same_channel: bool) -> None:
    """``n`` games written straight into the file (the shape, not a real log)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    db.executemany(
        "INSERT OR IGNORE INTO players (id, name, first_seen, last_seen) VALUES (?,?,0,0)",
        [(i, f"p{i}") for i in range(1, 2 * n + 3)],
    )
    db.executemany(
        "INSERT INTO games (channel_id, game, variant, player0, player1, status, position,"
        " last_hash, seed, commitment, created_at, updated_at, turn_started_at)"
        " VALUES (?, 'morris', 'standard', ?, ?, ?, '', '', '', '', 0, 0, 0)",
        [(10 if same_channel else 1000 + i, 2 * i + 3, 2 * i + 4, status) for i in range(n)],
    )
    db.execute("COMMIT")
    db.close()


async def per_call(run: Callable[[], Awaitable[object]], times: int = 200) -> float:
    """Mean milliseconds of one call."""
    await run()
    started = time.perf_counter()
    for _ in range(times):
        await run()
    return (time.perf_counter() - started) / times * 1000


async def store_costs(folder: Path) -> None:
    for n in (1_000, 100_000):
        path = str(folder / f"channel-{n}.db")
        await (await SqliteStore.open(path)).close()
        fill(path, n, status="finished", same_channel=True)
        store = await SqliteStore.open(path)
        ms = await per_call(lambda store=store: store.latest_game(10))
        print(f"latest_game (/board) with {n:>7,} games in the channel: {ms:.3f} ms")
        await store.close()
    for n in (1_000, 50_000):
        path = str(folder / f"active-{n}.db")
        await (await SqliteStore.open(path)).close()
        fill(path, n, status="active", same_channel=False)
        store = await SqliteStore.open(path)
        ms = await per_call(lambda store=store: limits.active_games(store, 3))
        rolls = await per_call(lambda store=store: store.stale_rolls(1e12))
        print(
            f"with {n:>6,} active games: per-user game count {ms:.3f} ms, "
            f"sweeper's pending rolls {rolls:.3f} ms"
        )
        await store.close()


async def restart_costs(folder: Path) -> None:
    for plies in (60, 600):
        path = str(folder / f"restart-{plies}.db")
        store = await SqliteStore.open(path)
        clock = ManualClock()
        referee = Referee(store, clock, render=False)
        await referee.challenge(
            HERE, ALICE, "abalone", opponent=BOB, starter="me", options={"move_limit": 0}
        )
        reply = await referee.accept(HERE, BOB)
        rng = random.Random(plies)
        played = 0
        for _ in range(plies):
            mover = (ALICE, BOB)[played % 2]
            moves = await referee.legal_for(HERE, mover)
            quiet = [m for m in moves if "off" not in m] or moves
            reply = await referee.act(HERE, mover, rng.choice(quiet))
            if not reply.ok or reply.finished:
                break
            played += 1
        cold = []
        for _ in range(5):
            fresh = Referee(store, clock, render=False)  # a restart: nothing cached
            started = time.perf_counter()
            await fresh.board(HERE)
            cold.append(time.perf_counter() - started)
        warm = await per_call(lambda fresh=fresh: fresh.board(HERE), 20)
        print(
            f"first /board after a restart at ply {played}: {min(cold) * 1000:.2f} ms "
            f"(warm: {warm:.2f} ms)"
        )
        await store.close()


def abalone_apply() -> None:
    rules = engine.get_game("abalone")
    state = rules.new("standard", move_limit=0)
    rng = random.Random(1)
    spans: dict[int, float] = {}
    spent, count = 0.0, 0
    for ply in range(1, 3001):
        moves = rules.legal(state)
        quiet = [m for m in moves if all(t for _, t in moved_marbles(state, m))]
        action = rng.choice(quiet or moves)
        started = time.perf_counter()
        state = rules.apply(state, action)
        spent += time.perf_counter() - started
        count += 1
        if ply % 1000 == 0:
            spans[ply] = spent / count * 1e6
            spent, count = 0.0, 0
    line = ", ".join(f"plies {p - 999}-{p}: {us:.1f} us" for p, us in spans.items())
    print(f"Abalone apply, move limit off (history {len(state.history)}): {line}")


async def request_ids(folder: Path) -> None:
    path = str(folder / "requests.db")
    store = await SqliteStore.open(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.executemany(
        "INSERT INTO request_ids (request_id, game_id, reply, at) VALUES (?, NULL, '{}', ?)",
        [(f"r{i}", float(i)) for i in range(20_000)],
    )
    db.close()
    clock = ManualClock()
    clock.advance(3 * 86_400)
    referee = Referee(store, clock, render=False)
    for _ in range(10):
        await referee.sweep()
    (kept,) = (await store.db.execute_fetchall("SELECT COUNT(*) FROM request_ids"))[0]
    print(f"request ids kept after 10 sweeps, of 20,000 older than a day: {kept:,}")
    await store.close()


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        await store_costs(folder)
        await restart_costs(folder)
        await request_ids(folder)
    abalone_apply()


def main() -> None:
    asyncio.run(run())
