"""Ladders on a real SQLite file: what rating costs a game's end, a rebuild of the stored games,
/ladder and /stats (with Atmalof dice luck replayed from the log) as the referee answers them."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.timing import percentile
from bot import ladder_store
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore

PLAYERS = [Actor(i, f"p{i}") for i in range(1, 41)]
GAMES = 600
LUCK_GAMES = 100


async def _ended(referee: Referee, clock: ManualClock, i: int, rated: bool) -> float:
    """Start a game between two players and time the resignation (the ending transaction)."""
    where = Where(1, 100 + i % 50)
    a, b = PLAYERS[i % 40], PLAYERS[(i * 7 + 3) % 40]
    if a == b:
        b = PLAYERS[(i + 1) % 40]
    clock.advance(600)
    await referee.challenge(where, a, "morris", opponent=b, rated=rated, starter="me")
    await referee.accept(where, b)
    start = time.perf_counter()
    reply = await referee.resign(where, b)
    elapsed = time.perf_counter() - start
    assert reply.ok, reply.text
    return elapsed


async def _atmalof_games(referee: Referee, clock: ManualClock) -> None:
    where = Where(1, 99)
    a, b = PLAYERS[0], PLAYERS[1]
    for _ in range(LUCK_GAMES):
        clock.advance(60)
        await referee.challenge(where, a, "atmalof", opponent=b, rated=True, starter="me")
        await referee.accept(where, b)
        for k in range(6):
            for who in (a, b):
                reply = await referee.act(where, who, f"drop row {k + 1}")
                if reply.pending_roll:
                    await referee.roll_pending(where)
        await referee.resign(where, b)


async def _run(path: str) -> None:
    clock = ManualClock()
    store = await SqliteStore.open(path)
    try:
        referee = Referee(store, clock, render=False)
        casual = [await _ended(referee, clock, i, False) for i in range(200)]
        rated = [await _ended(referee, clock, i, True) for i in range(GAMES)]
        for label, times in (("casual", casual), ("rated", rated)):
            print(
                f"game end, {label + ',':<7} {len(times)} games: median "
                f"{statistics.median(times) * 1e3:.2f} ms, p99 {percentile(times, 99) * 1e3:.2f} ms"
                + (" (rating in the same transaction)" if label == "rated" else "")
            )
        start = time.perf_counter()
        report = await ladder_store.rebuild_store(store, check=True)
        t = time.perf_counter() - start
        diffs = len(report.differences)
        print(
            f"rebuild --check of {report.games} games: {t * 1e3:.0f} ms (one run), "
            f"{diffs} differences"
        )
        await _atmalof_games(referee, clock)
        drawn = Referee(store, clock, render=True)
        here = Where(1, 5)
        for label, call in (
            ("/ladder (text + PNG)", lambda: drawn.ladder(here, PLAYERS[3], "morris", top=25)),
            ("/stats, 100 Atmalof games", lambda: drawn.stats(here, PLAYERS[1])),
            ("/stats, no dice luck", lambda: drawn.stats(here, PLAYERS[5], None, "morris")),
        ):
            times = []
            for _ in range(5):
                start = time.perf_counter()
                await call()
                times.append(time.perf_counter() - start)
            print(
                f"{label + ':':<27} median {statistics.median(times) * 1e3:.0f} ms, "
                f"max {max(times) * 1e3:.0f} ms (5 calls)"
            )
    finally:
        await store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(_run(str(Path(tmp) / "ladder.db")))


if __name__ == "__main__":
    main()
