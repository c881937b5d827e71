"""A move on PostgreSQL beside SQLite, and commands per second of 1, 2 and 4 processes on one
PostgreSQL (the scaling ratio). Open loop: moves arrive on a fixed schedule, whatever the bot is
doing, and a move's latency runs from its scheduled time to its answer (waiting included).

A move is one referee ``act`` (and the ``roll_pending`` after an Atmalof announcement) in one of
many running games; each game's next move is picked beforehand (``legal_for``, not timed). The
PostgreSQL server is ``BENCH_DB`` (a server URL; the bench makes and drops its databases), else
a throw-away server started from the ``pgserver`` wheel, as the test suite does.

Part 1, latency: ``RATE`` moves/s for ``SECONDS`` on each store, one process. Part 2, scaling:
1, 2 and 4 processes, each offered more moves than it can serve (``FLOOD`` a second, each on its
own games and servers), on one database; commands per second is what they answered in the
window. On a machine with few cores the processes and the server share them: the ratio then says
how far the database is from being the limit, not how the bot scales on separate machines.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bench.timing import percentile
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store import Store, open_store

GAMES = 120  # per process
KINDS = ("morris", "atmalof", "abalone")
RATE = float(os.environ.get("BENCH_PG_RATE", "100"))  # moves/s offered in part 1
SECONDS = float(os.environ.get("BENCH_PG_SECONDS", "5"))
FLOOD = float(os.environ.get("BENCH_PG_FLOOD", "1500"))  # moves/s offered per process, part 2
PROCESSES = (1, 2, 4)
TABLE_BYTES = (
    "SELECT SUM(pg_total_relation_size(oid)) FROM pg_class"
    " WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace"
)


class Games:
    """One process's games: where, players, and each game's next move, picked in advance."""

    def __init__(self, referee: Referee, index: int) -> None:
        self.referee = referee
        self.index = index
        self.where: list[Where] = []
        self.people: list[dict[int, Actor]] = []
        self.next: list[tuple[Actor, str] | None] = []
        self.locks: list[asyncio.Lock] = []

    async def setup(self) -> None:
        for i in range(GAMES):
            where = Where(1 + self.index, 1_000_000 * (self.index + 1) + i)
            base = 10_000_000 * (self.index + 1) + 2 * i
            a, b = Actor(base + 1, f"p{base + 1}"), Actor(base + 2, f"p{base + 2}")
            self.where.append(where)
            self.people.append({a.id: a, b.id: b})
            self.next.append(None)
            self.locks.append(asyncio.Lock())
            await self.restart(i, a, b)

    async def restart(self, i: int, first: Actor, second: Actor) -> None:
        where = self.where[i]
        await self.referee.challenge(where, first, KINDS[i % 3], opponent=second, starter="me")
        reply = await self.referee.accept(where, second)
        await self.pick(i, self.people[i][reply.mentions[0]])

    async def pick(self, i: int, mover: Actor) -> None:
        moves = await self.referee.legal_for(self.where[i], mover)
        if moves:
            self.next[i] = (mover, random.Random(hash((i, len(moves)))).choice(moves))
        else:  # the game is over: start another in its place
            other = next(p for p in self.people[i].values() if p.id != mover.id)
            await self.restart(i, mover, other)

    async def move(self, i: int, due: float, out: list[float]) -> None:
        """Play game ``i``'s next move; its latency from ``due`` goes to ``out``."""
        async with self.locks[i]:
            planned = self.next[i]
            assert planned is not None
            mover, text = planned
            reply = await self.referee.act(self.where[i], mover, text)
            if reply.pending_roll:
                reply = await self.referee.roll_pending(self.where[i])
            out.append(time.perf_counter() - due)
            if reply.finished or not reply.mentions:
                await self.pick(i, mover)  # ended: the pick starts another game
            else:
                await self.pick(i, self.people[i][reply.mentions[0]])


async def open_loop(games: Games, rate: float, seconds: float) -> tuple[list[float], float]:
    """Moves at ``rate`` a second for ``seconds``, round robin over the games; the latencies of
    the moves answered within the window, and the window's length."""
    out: list[float] = []
    tasks: set[asyncio.Task[None]] = set()
    began = time.perf_counter()
    k = 0
    while (due := began + k / rate) < began + seconds:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(games.move(k % GAMES, due, out))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        k += 1
    end = began + seconds
    answered = [t for t in out]  # answered within the window (later ones are not counted)
    for task in list(tasks):
        task.cancel()
    for task in list(tasks):
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    return answered, max(time.perf_counter(), end) - began


def server_cpu() -> float:
    """CPU seconds used so far by this machine's PostgreSQL processes (Linux /proc; 0 elsewhere):
    a local server's cost per move."""
    tick = os.sysconf("SC_CLK_TCK")
    used = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if (entry / "comm").read_text().strip() in ("postgres", "postmaster"):
                used += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return used / tick


async def latency(url: str, label: str) -> str:
    store = await open_store(url)
    pg = url.startswith("postgresql://")
    try:
        games = Games(Referee(store, ManualClock(), render=False), 0)
        await games.setup()
        wal = await _scalar(url, "SELECT pg_current_wal_lsn() - '0/0'") if pg else 0
        cpu, db_cpu = time.process_time(), server_cpu()
        times, _ = await open_loop(games, RATE, SECONDS)
        cpu, db_cpu = time.process_time() - cpu, server_cpu() - db_cpu
        wal = (await _scalar(url, "SELECT pg_current_wal_lsn() - '0/0'") - wal) if pg else 0
        size = await _scalar(url, TABLE_BYTES) if pg else 0
        stored = await _scalar(url, "SELECT (SELECT COUNT(*) FROM actions) + (SELECT COUNT(*)"
                               " FROM events)") if pg else 0  # fmt: skip
    finally:
        await store.close()
    ms = sorted(t * 1000 for t in times)
    n = max(1, len(ms))
    text = (
        f"{label:<10} {RATE:.0f} moves/s offered for {SECONDS:.0f} s: {len(ms)} answered, "
        f"median {percentile(ms, 50):.2f} ms, p99 {percentile(ms, 99):.2f} ms, "
        f"max {ms[-1]:.1f} ms; bot CPU {cpu * 1000 / n:.2f} ms a move"
    )
    if pg:
        text += (
            f", server CPU {db_cpu * 1000 / n:.2f} ms a move, WAL {float(wal) / n / 1024:.1f} KiB"
            f" a move; tables and indexes {float(size) / 2**20:.1f} MiB for {stored} log rows"
            f" ({float(size) / max(1, int(stored)):.0f} bytes a row, games included)"
        )
    return text


async def _scalar(url: str, sql: str) -> object:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


async def worker(url: str, index: int, start_at: float, rate: float, seconds: float) -> dict:
    store: Store = await open_store(url)
    try:
        games = Games(Referee(store, ManualClock(), render=False), index)
        await games.setup()
        await asyncio.sleep(max(0.0, start_at - time.time()))
        times, wall = await open_loop(games, rate, seconds)
    finally:
        await store.close()
    ms = sorted(t * 1000 for t in times)
    return {"answered": len(ms), "wall": wall, "p50": percentile(ms, 50)}


def scaling(url: str, processes: int) -> str:
    start_at = time.time() + 3.0 + processes  # every process has set up its games by then
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "bench.postgres", "--worker", str(i), str(start_at), url],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(processes)
    ]
    results = []
    for p in procs:
        out, _ = p.communicate()
        results.append(json.loads(out.strip().splitlines()[-1]))
    total = sum(r["answered"] for r in results) / SECONDS
    return f"{processes} process(es): {total:.0f} moves/s answered in all", total


@contextlib.contextmanager
def server() -> Iterator[str]:
    """The PostgreSQL server's URL: BENCH_DB, else a throw-away pgserver."""
    given = os.environ.get("BENCH_DB", "").strip()
    if given:
        yield given
        return
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver

        folder = tempfile.mkdtemp(prefix="bench-pg-")
        pg = pgserver.get_server(folder, cleanup_mode="delete")
    try:
        yield pg.get_uri()
    finally:
        pg.cleanup()


async def _database(server_url: str) -> str:
    name = "bench_" + uuid.uuid4().hex[:12]
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    url = urlunsplit(urlsplit(server_url)._replace(path="/" + name))
    await (await open_store(url)).close()  # migrated before any process starts
    return url


async def _drop(server_url: str, url: str) -> None:
    conn = await asyncpg.connect(server_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{urlsplit(url).path[1:]}" WITH (FORCE)')
    finally:
        await conn.close()


def main() -> None:
    load = "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    print(f"open loop; {GAMES} games per process; {os.cpu_count()} CPUs, {load} at the start")
    with tempfile.TemporaryDirectory() as tmp, server() as pg:
        print(asyncio.run(latency(str(Path(tmp) / "bench.db"), "SQLite")))
        url = asyncio.run(_database(pg))
        try:
            print(asyncio.run(latency(url, "PostgreSQL")))
        finally:
            asyncio.run(_drop(pg, url))
        totals = {}
        for n in PROCESSES:
            url = asyncio.run(_database(pg))
            try:
                text, totals[n] = scaling(url, n)
            finally:
                asyncio.run(_drop(pg, url))
            print(f"{text} ({FLOOD:.0f}/s offered per process for {SECONDS:.0f} s)")
        ratios = ", ".join(f"{n}: {totals[n] / totals[1]:.2f}x" for n in PROCESSES)
        print(f"scaling ratio over one process: {ratios}")
    print("load average {:.2f} {:.2f} {:.2f} at the end".format(*os.getloadavg()))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        index, start_at, url = int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
        print(json.dumps(asyncio.run(worker(url, index, start_at, FLOOD, SECONDS))))
    else:
        main()
