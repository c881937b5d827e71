"""Soak over several processes on one PostgreSQL: ``SOAK_DB=postgresql://... SOAK_PROCESSES=4
make soak``.

Each worker process is one bot process serving one shard of ``SOAK_PROCESSES``: its tables play
random games (``bench.soak.Table``: legal moves, bad input, endings) in servers of its own shard
only, through its own referee and its own ``PostgresStore`` on the one shared database. Every
action the referee acknowledges is appended to the worker's journal (a line per action, flushed
before the next call), so what was acknowledged is known even of a process that is killed.

Halfway through, worker 0 is killed with SIGKILL and started again; the new process first ends
(resigns) every game the dead one left running, through its referee, then plays on.

At the end, on a fresh store: every game verifies from its exported record (``engine.record``);
every acknowledged action is stored, in order; a game of a killed process may hold one more
action than it acknowledged (the one in flight), never fewer; no game is left running; no call
raised and no error was logged in any process. Exits 1 if any check fails.

The soak makes a database of its own on the server (``CREATE DATABASE``) and drops it after
(``--keep`` keeps it). ``--seconds``, ``--tables`` (per process), ``--processes``, ``--no-kill``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bench.soak import ErrorLog, Table, Tally
from bench.timing import percentile
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store.postgres import PostgresStore, redacted
from engine.record import Record, verify

SHARD_BIT = 22  # a guild's shard is (guild_id >> 22) % shard count (bot.shards)
GUILD_BASE = 1_100_000_000_000_000_000


def guild_on(shard: int, count: int, n: int) -> int:
    """The ``n``th guild id (a realistic snowflake) that Discord sends to ``shard``."""
    base = GUILD_BASE + n * count * (1 << SHARD_BIT)
    return base - (base >> SHARD_BIT) % count * (1 << SHARD_BIT) + shard * (1 << SHARD_BIT)


class Journal(dict[int, list[str]]):
    """``Tally.acknowledged`` that also writes each acknowledged action to a file at once."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out

    def setdefault(self, gid: int, default: list[str] | None = None) -> list[str]:
        if gid not in self:
            self[gid] = JournalLine(gid, self.out)
            self.out.write(json.dumps({"g": gid}) + "\n")
            self.out.flush()
        return self[gid]


class JournalLine(list[str]):
    def __init__(self, gid: int, out: TextIO) -> None:
        super().__init__()
        self.gid = gid
        self.out = out

    def append(self, text: str) -> None:
        super().append(text)
        self.out.write(json.dumps({"g": self.gid, "a": text}) + "\n")
        self.out.flush()


async def worker(
    url: str,
    index: int,
    count: int,
    tables: int,
    seconds: float,
    seed: int,
    journal: Path,
    generation: int,
) -> dict[str, Any]:
    """One process: ``tables`` tables in guilds of shard ``index`` of ``count``."""
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    store = await PostgresStore.open(url)
    with journal.open("a") as out:
        tally = Tally()
        tally.acknowledged = Journal(out)
        try:
            referee = Referee(store, render=False)
            players = []
            for t in range(tables):
                table = Table(t, referee, tally, seed * 1_000_003 + index * 1_009 + t + generation)
                table.where = Where(
                    guild_id=guild_on(index, count, t), channel_id=index * 10_000 + t
                )
                base = 1_000_000 * (index + 1) + 10 * t
                table.players = (Actor(base + 1, f"p{base + 1}"), Actor(base + 2, f"p{base + 2}"))
                table.stranger = Actor(base + 3, f"s{base + 3}")
                players.append(table)
            if generation:  # a restarted process ends what the killed one left running
                for table in players:
                    if (await referee.board(table.where)).game_id is not None:
                        ended = await referee.resign(table.where, table.players[0])
                        if not ended.ok and not ended.finished:
                            ended = await referee.resign(table.where, table.players[1])
                    for person in table.players:  # an open challenge: withdrawn or declined
                        await referee.decline(table.where, person)
            began = time.perf_counter()
            await asyncio.gather(*(t.run(began + seconds) for t in players))
            wall = time.perf_counter() - began
        finally:
            await store.close()
            logging.getLogger().removeHandler(errors)
    ms = sorted(t * 1000 for t in tally.latencies)
    return {
        "index": index,
        "generation": generation,
        "wall": wall,
        "games": tally.games,
        "actions": tally.actions,
        "calls": len(ms),
        "refusals": tally.refusals,
        "bad_sent": tally.bad_sent,
        "median_ms": percentile(ms, 50) if ms else None,
        "p99_ms": percentile(ms, 99) if ms else None,
        "errors": tally.errors[:5] + errors.records[:5] + tally.broken_refusals[:5],
        "error_count": len(tally.errors) + len(errors.records) + len(tally.broken_refusals),
    }


def read_journal(path: Path) -> dict[int, list[str]]:
    """Game id -> acknowledged actions; a torn last line (a kill mid-write) is dropped."""
    out: dict[int, list[str]] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        moves = out.setdefault(int(entry["g"]), [])
        if "a" in entry:
            moves.append(entry["a"])
    return out


async def check(url: str, acknowledged: dict[int, list[str]], killed: set[int]) -> list[str]:
    """Every game verifies, holds what was acknowledged (``killed``: maybe one more), ended."""
    problems: list[str] = []
    store = await PostgresStore.open(url)
    try:
        referee = Referee(store, render=False)
        for gid, moves in sorted(acknowledged.items()):
            g = await store.game(gid)
            if g is None:
                problems.append(f"game {gid}: not in the store")
                continue
            exported = await referee.record(Where(g.guild_id, g.channel_id), game_id=gid)
            if exported.file is None:
                problems.append(f"game {gid}: no record: {exported.text}")
                continue
            verdict = verify(Record.from_json(exported.file), head=g.last_hash)
            if not verdict.ok:
                problems.append(f"game {gid}: does not verify: {verdict}")
            stored = [a.action for a in await store.actions(gid)]
            if stored[: len(moves)] != moves:
                problems.append(f"game {gid}: an acknowledged action is missing or moved")
            elif len(stored) > len(moves) + (1 if gid in killed else 0):
                problems.append(f"game {gid}: {len(stored) - len(moves)} unacknowledged actions")
            if g.status == "active":
                problems.append(f"game {gid}: still active after the soak")
        async with store.reading() as rx:
            every = await rx.game_ids()  # type: ignore[attr-defined]
        unknown = set(every) - set(acknowledged)
        if len(unknown) > len(killed):  # at most the one started as its process died
            problems.append(f"{len(unknown)} games in the store that no journal names")
    finally:
        await store.close()
    return problems


def _spawn(
    args: argparse.Namespace, url: str, index: int, journal: Path, seconds: float, generation: int
) -> subprocess.Popen[str]:
    command = [
        sys.executable,
        "-m",
        "bench.soak_processes",
        "--worker",
        str(index),
        "--processes",
        str(args.processes),
        "--tables",
        str(args.tables),
        "--seconds",
        f"{seconds:.2f}",
        "--seed",
        str(args.seed),
        "--journal",
        str(journal),
        "--generation",
        str(generation),
    ]
    env = {**os.environ, "SOAK_WORKER_DB": url}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)


async def _database(server: str) -> str:
    """A fresh database on the server at ``server``; its URL."""
    name = "soak_" + uuid.uuid4().hex[:12]
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return urlunsplit(urlsplit(server)._replace(path="/" + name))


async def _drop(server: str, url: str) -> None:
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{urlsplit(url).path[1:]}" WITH (FORCE)')
    finally:
        await conn.close()


def parent(args: argparse.Namespace) -> int:
    server = args.db
    url = asyncio.run(_database(server))
    asyncio.run(_migrate(url))
    print(
        f"soak: {args.processes} processes x {args.tables} tables, {args.seconds:.0f} s, "
        f"one database ({redacted(url)}); load average {os.getloadavg()[0]:.2f}"
    )
    folder = Path(tempfile.mkdtemp(prefix="soak-"))
    journals = [folder / f"worker{i}.jsonl" for i in range(args.processes)]
    began = time.perf_counter()
    procs = {i: _spawn(args, url, i, journals[i], args.seconds, 0) for i in range(args.processes)}
    results: list[dict[str, Any]] = []
    killed: set[int] = set()
    if args.kill:
        time.sleep(args.seconds / 2)
        victim = procs[0]
        before = read_journal(journals[0])
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        killed = set(read_journal(journals[0])) | set(before)
        print(
            f"killed worker 0 (SIGKILL) at {time.perf_counter() - began:.1f} s, "
            f"{sum(map(len, read_journal(journals[0]).values()))} actions acknowledged"
        )
        left = max(2.0, args.seconds - (time.perf_counter() - began))
        procs[0] = _spawn(args, url, 0, journals[0], left, 1)
    for proc in procs.values():
        out, _ = proc.communicate()
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not lines:
            results.append({"error_count": 1, "errors": [f"exit {proc.returncode}: {out[-500:]}"]})
            continue
        results.append(json.loads(lines[-1]))
    wall = time.perf_counter() - began
    acknowledged: dict[int, list[str]] = {}
    for journal in journals:
        acknowledged.update(read_journal(journal))
    checked = time.perf_counter()
    problems = asyncio.run(check(url, acknowledged, killed))
    check_seconds = time.perf_counter() - checked
    if not args.keep:
        asyncio.run(_drop(server, url))
    actions = sum(len(v) for v in acknowledged.values())
    errors = sum(r.get("error_count", 0) for r in results)
    for r in results:
        if "index" in r:
            print(
                f"  worker {r['index']} (run {r['generation']}): {r['games']} games, "
                f"{r['actions']} actions, {r['calls']} calls in {r['wall']:.1f} s, median "
                f"{r['median_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, errors {r['error_count']}"
            )
        for line in r.get("errors", [])[:3]:
            print("    " + str(line).strip().replace("\n", "\n    ")[:800])
    print(
        f"acknowledged {actions} actions in {len(acknowledged)} games over {wall:.1f} s "
        f"({actions / wall:.0f} actions/s in all); errors {errors}; lost "
        f"{sum('missing' in p for p in problems)}; checked in {check_seconds:.1f} s; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    for p in problems[:10]:
        print("  " + p)
    ok = not problems and errors == 0 and acknowledged
    print("OK: every check passed" if ok else "FAILED")
    return 0 if ok else 1


async def _migrate(url: str) -> None:
    await (await PostgresStore.open(url)).close()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.soak_processes", description=__doc__)
    env = os.environ.get
    parser.add_argument("--db", default=env("SOAK_DB"), help="a postgresql:// server URL")
    parser.add_argument("--processes", type=int, default=int(env("SOAK_PROCESSES", "2")))
    parser.add_argument("--tables", type=int, default=int(env("SOAK_TABLES", "8")))
    parser.add_argument("--seconds", type=float, default=float(env("SOAK_SECONDS", "20")))
    parser.add_argument("--seed", type=int, default=int(env("SOAK_SEED", "1")))
    parser.add_argument("--keep", action="store_true", help="keep the soak's database")
    parser.add_argument("--no-kill", dest="kill", action="store_false")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--journal", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--generation", type=int, default=0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def run(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.worker is not None:
        result = asyncio.run(
            worker(
                os.environ["SOAK_WORKER_DB"],
                args.worker,
                args.processes,
                args.tables,
                args.seconds,
                args.seed,
                args.journal,
                args.generation,
            )
        )
        print(json.dumps(result))
        return 0
    if not args.db or not args.db.startswith(("postgresql://", "postgres://")):
        print("SOAK_DB must be a postgresql:// URL of a server (the soak makes its database)")
        return 2
    return parent(args)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
