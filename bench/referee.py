"""Referee throughput and latency: a stream of moves over 1,000 concurrent games on a real
SQLite file, no rendering. A command is one referee call that changes a game (``act``, and
``roll_pending`` after an Atmalof announcement); the players also ask ``legal_for`` (a read,
counted in the wall-clock rate). Reported per level of commands in flight: commands per second
(wall clock) and median/p99 latency per command. Aim: p99 < 10 ms, > 500 commands/s.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.timing import percentile
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore

GAMES = 1000
GAME_KINDS = ("morris", "atmalof", "abalone")
LEVELS = ((1, 3000), (4, 3000), (16, 3000))  # (commands in flight, commands to time)


class Tables:
    """The 1,000 games: where each is, its two players, and who is to move."""

    def __init__(self) -> None:
        self.where: list[Where] = []
        self.people: list[dict[int, Actor]] = []
        self.mover: list[int] = []

    async def setup(self, referee: Referee) -> None:
        for i in range(GAMES):
            where = Where(1, 10_000 + i)
            a, b = Actor(2 * i + 1, f"p{2 * i + 1}"), Actor(2 * i + 2, f"p{2 * i + 2}")
            await referee.challenge(where, a, GAME_KINDS[i % 3], opponent=b, starter="me")
            reply = await referee.accept(where, b)
            self.where.append(where)
            self.people.append({a.id: a, b.id: b})
            self.mover.append(reply.mentions[0])

    async def turn(self, referee: Referee, i: int, rng: random.Random, out: list[float]) -> None:
        """The player to move in game ``i`` picks a random legal action and plays it."""
        where, actor = self.where[i], self.people[i][self.mover[i]]
        moves = await referee.legal_for(where, actor)
        if not moves:  # the game ended: start another in its place
            other = next(p for p in self.people[i].values() if p.id != actor.id)
            await referee.challenge(where, actor, GAME_KINDS[i % 3], opponent=other, starter="me")
            self.mover[i] = (await referee.accept(where, other)).mentions[0]
            return
        start = time.perf_counter()
        reply = await referee.act(where, actor, rng.choice(moves))
        out.append(time.perf_counter() - start)
        if reply.pending_roll:
            start = time.perf_counter()
            reply = await referee.roll_pending(where)
            out.append(time.perf_counter() - start)
        if reply.ok and reply.mentions:
            self.mover[i] = reply.mentions[0]


async def run_level(referee: Referee, tables: Tables, flight: int, commands: int) -> str:
    rng = random.Random(flight)
    timings: list[float] = []
    queue = iter(range(10**9))

    async def worker(w: int) -> None:
        while len(timings) < commands:
            # each worker keeps to its own games, so no game has two turns in flight
            await tables.turn(referee, (next(queue) * flight + w) % GAMES, rng, timings)

    started = time.perf_counter()
    await asyncio.gather(*(worker(w) for w in range(flight)))
    wall = time.perf_counter() - started
    ms = sorted(t * 1000 for t in timings)
    return (
        f"{flight:>2} in flight: {len(ms)} commands in {wall:.2f} s = {len(ms) / wall:.0f} cmd/s; "
        f"latency median {percentile(ms, 50):.2f} ms, p99 {percentile(ms, 99):.2f} ms, "
        f"max {ms[-1]:.1f} ms"
    )


async def bench() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "bench.db")
        try:
            referee = Referee(store, ManualClock(), render=False)
            tables = Tables()
            started = time.perf_counter()
            await tables.setup(referee)
            setup = time.perf_counter() - started
            lines = [f"{GAMES} games (morris, atmalof, abalone) on a file, set up in {setup:.2f} s"]
            for flight, commands in LEVELS:
                lines.append(await run_level(referee, tables, flight, commands))
            return lines
        finally:
            await store.close()


def main() -> None:
    for line in asyncio.run(bench()):
        print(line)


if __name__ == "__main__":
    main()
