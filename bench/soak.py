"""Soak: thousands of random games of all three games, played at once through the referee and
the store on one SQLite file, with bad input mixed in, for a bounded time.

Each table (a channel) plays game after game: the player to move picks a random legal action;
now and then a stranger, the player not to move, garbage text or a near-miss illegal move comes
in instead, and must be refused without changing the game's version. Games end by the rules or,
past a random length, by a resignation, an agreed draw or an abort.

At the end: every game's stored log, exported as the referee's record, replays and verifies with
``engine.record.verify``; every action the referee acknowledged is in the stored log, in order,
and nothing else is; no call raised; memory (RSS) stayed flat. Prints the figures; exits 1 if
any check fails. ``python -m bench.soak --seconds 60 --tables 64`` (or ``SOAK_SECONDS``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import resource
import sys
import tempfile
import time
import traceback
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bench.timing import percentile
from bot.referee import Referee
from bot.referee.replies import Actor, ButtonKind, Reply, Where
from bot.store import SqliteStore
from engine import EngineError
from engine.record import Record, verify

# (game, variant, options): every game, several variants
KINDS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("atmalof", "standard", {}),
    ("atmalof", "junior", {}),
    ("atmalof", "custom", {"rows": 5, "cols": 6, "line": 4, "pieces": 8}),
    ("morris", "standard", {}),
    ("morris", "six", {}),
    ("morris", "twelve", {}),
    ("abalone", "standard", {}),
    ("abalone", "belgian-daisy", {}),
    ("abalone", "german-daisy", {}),
)
GARBAGE = (
    "",
    "   ",
    "castle kingside",
    "drop row 99",
    "drop row -1",
    "move 0,0 9,9",
    "push z9 q1 up",
    "place d7 x d7",
    "fly a1",
    "remove",
    "x" * 5000,
    "drop row ٣",
    "\x00\x1b[2J",
    "💥 push a1 a3 ne",
    "move 3,4 4,5; DROP TABLE games;",
    "'\"\\",
)
NEAR_MISSES = ("a1", "d7", "g7", "i9", "e5", "3,4", "9,9", "row", "col", "ne", "w", "x", "99")
BAD_RATE = 0.25  # share of turns that first send one bad input
MEMORY_SLACK_MB = 40.0  # growth allowed from the warm-up sample to the last one


def rss_mb() -> float:
    """Resident memory of this process now (Linux /proc), else the peak from getrusage."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass
class Tally:
    """What the soak counted, and what it must find in the store at the end."""

    games: int = 0
    finished: int = 0
    actions: int = 0  # calls that changed a game (moves, rolls, endings, offers)
    refusals: int = 0
    bad_sent: int = 0
    errors: list[str] = field(default_factory=list)
    broken_refusals: list[str] = field(default_factory=list)  # a "no" that changed the game
    acknowledged: dict[int, list[str]] = field(default_factory=dict)  # game id -> notations
    latencies: array[float] = field(default_factory=lambda: array("d"))
    memory: list[tuple[float, float]] = field(default_factory=list)  # (seconds, MB)


class ErrorLog(logging.Handler):
    """Counts ERROR records from the referee and store: a logged bug is a failed soak."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


class Table:
    """One channel that plays random games back to back until the time is up."""

    def __init__(self, index: int, referee: Referee, tally: Tally, seed: int) -> None:
        self.where = Where(guild_id=1 + index % 3, channel_id=50_000 + index)
        base = 10 * (index + 1)
        self.players = (Actor(base + 1, f"p{base + 1}"), Actor(base + 2, f"p{base + 2}"))
        self.stranger = Actor(base + 3, f"s{base + 3}")
        self.referee = referee
        self.tally = tally
        self.rng = random.Random(seed)

    async def call(self, method: str, *args: Any, **kwargs: Any) -> Reply | None:
        """One timed referee call; an exception is an error of the soak, never raised on."""
        started = time.perf_counter()
        try:
            reply = await getattr(self.referee, method)(*args, **kwargs)
        except Exception:
            self.tally.errors.append(f"{method}{args[1:]!r}: {traceback.format_exc()}")
            return None
        self.tally.latencies.append(time.perf_counter() - started)
        return reply

    async def run(self, until: float) -> None:
        errors = len(self.tally.errors)
        while time.perf_counter() < until and len(self.tally.errors) == errors:
            await self.play_one(until)  # after an error this table stops: it is reported

    async def play_one(self, until: float) -> None:
        game, variant, options = self.rng.choice(KINDS)
        first, second = self.players if self.rng.random() < 0.5 else self.players[::-1]
        made = await self.call(
            "challenge", self.where, first, game, opponent=second, variant=variant, options=options
        )
        if made is None or not made.ok:
            self.tally.errors.append(f"challenge refused: {made and made.text}")
            return
        started = await self.call("accept", self.where, second)
        if started is None or not started.ok or started.game_id is None:
            self.tally.errors.append(f"accept refused: {started and started.text}")
            return
        gid = started.game_id
        self.tally.games += 1
        log = self.tally.acknowledged.setdefault(gid, [])
        by_id = {p.id: p for p in self.players}
        mover = by_id[started.mentions[0]]
        length = self.rng.randint(2, 60)
        for _turn in range(length):
            if time.perf_counter() >= until and self.rng.random() < 0.5:
                break
            if self.rng.random() < BAD_RATE:
                await self.bad_input(gid, mover)
            moves = await self.call("legal_for", self.where, mover)
            if not moves:
                return await self.after_end(gid)
            text = self.rng.choice(moves)
            reply = await self.call("act", self.where, mover, text)
            if reply is not None and any(b.kind is ButtonKind.DROP_CONFIRM for b in reply.buttons):
                # a drop that can only lose the turn: the referee asks; a player presses Announce
                reply = await self.call("act", self.where, mover, f"{text} confirm")
            if reply is None or not reply.ok:
                self.tally.errors.append(f"game {gid}: legal {text!r} refused: {reply and reply}")
                return
            self.tally.actions += 1
            if reply.pending_roll:
                reply = await self.call("roll_pending", self.where, game_id=gid)
                if reply is None or not reply.ok:
                    self.tally.errors.append(f"game {gid}: roll refused: {reply and reply.text}")
                    return
                self.tally.actions += 1
            log.append(sys.intern(text))
            if reply.finished:
                return await self.after_end(gid)
            mover = by_id[reply.mentions[0]]
        await self.finish(gid, mover)

    async def finish(self, gid: int, mover: Actor) -> None:
        """End a game that ran long: a resignation, an agreed draw, or an abort attempt."""
        other = next(p for p in self.players if p.id != mover.id)
        roll = self.rng.random()
        if roll < 0.4:
            ended = await self.call("resign", self.where, mover)
        elif roll < 0.8:
            offer = await self.call("offer_draw", self.where, mover)
            if offer is not None and offer.ok:
                self.tally.actions += 1
            ended = await self.call("answer_draw", self.where, other, True)
        else:
            ended = await self.call("abort", self.where, mover)
            if ended is not None and not ended.ok:  # too late to abort: resign instead
                ended = await self.call("resign", self.where, mover)
        if ended is None or not ended.ok or not ended.finished:
            self.tally.errors.append(f"game {gid}: could not end it: {ended and ended.text}")
            return
        self.tally.actions += 1
        await self.after_end(gid)

    async def after_end(self, gid: int) -> None:
        self.tally.finished += 1
        if self.rng.random() < 0.2:  # a late move in a finished game is refused
            await self.expect_refusal(gid, self.players[0], "push a1 a3 ne", "after the end")

    async def bad_input(self, gid: int, mover: Actor) -> None:
        """One input that must be refused: a stranger, out of turn, garbage, or an illegal move."""
        other = next(p for p in self.players if p.id != mover.id)
        kind = self.rng.randrange(4)
        if kind == 0:
            moves = await self.call("legal_for", self.where, mover)
            await self.expect_refusal(gid, self.stranger, self.pick(moves), "stranger")
        elif kind == 1:
            moves = await self.call("legal_for", self.where, mover)
            await self.expect_refusal(gid, other, self.pick(moves), "out of turn")
        elif kind == 2:
            await self.expect_refusal(gid, mover, self.rng.choice(GARBAGE), "garbage")
        else:
            await self.expect_refusal(gid, mover, await self.near_miss(gid, mover), "illegal")

    def pick(self, moves: list[str] | None) -> str:
        return self.rng.choice(moves) if moves else "drop row 1"

    async def near_miss(self, gid: int, mover: Actor) -> str:
        """A legal command with one word changed so that the engine refuses it here."""
        moves = await self.call("legal_for", self.where, mover) or []
        g = await self.referee.store.game(gid)
        assert g is not None
        rules = engine.get_game(g.game)
        state = rules.from_text(g.position)
        base = self.pick(moves)
        for _ in range(20):
            words = base.split()
            words[self.rng.randrange(len(words))] = self.rng.choice(NEAR_MISSES)
            text = " ".join(words)
            try:
                rules.parse(state, text)
            except EngineError:
                return text  # what the engine refuses, the referee must refuse too
        return "move 99,99 98,98"

    async def expect_refusal(self, gid: int, actor: Actor, text: str, why: str) -> None:
        """``act`` must refuse and leave the game's version, position and log as they were."""
        before = await self.referee.store.game(gid)
        reply = await self.call("act", self.where, actor, text)
        self.tally.bad_sent += 1
        if reply is None:
            return
        after = await self.referee.store.game(gid)
        assert before is not None and after is not None
        same = (before.version, before.position, before.last_hash) == (
            after.version,
            after.position,
            after.last_hash,
        )
        if reply.ok or not reply.ephemeral or not reply.text.strip() or not same:
            self.tally.broken_refusals.append(f"game {gid} {why} {text[:40]!r}: {reply.text!r}")
        else:
            self.tally.refusals += 1


async def sample_memory(tally: Tally, until: float, every: float) -> None:
    start = time.perf_counter()
    while time.perf_counter() < until:
        tally.memory.append((time.perf_counter() - start, rss_mb()))
        await asyncio.sleep(every)
    gc.collect()
    tally.memory.append((time.perf_counter() - start, rss_mb()))


async def check_store(referee: Referee, tally: Tally) -> tuple[int, list[str]]:
    """Verify every stored game from its exported record; compare with what was acknowledged."""
    problems: list[str] = []
    verified = 0
    for gid, acknowledged in tally.acknowledged.items():
        g = await referee.store.game(gid)
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
            continue
        stored = [a.action for a in await referee.store.actions(gid)]
        if stored != acknowledged:
            problems.append(
                f"game {gid}: stored {len(stored)} actions, acknowledged {len(acknowledged)}"
            )
            continue
        if g.status == "active":
            problems.append(f"game {gid}: still active after the soak")
            continue
        verified += 1
    return verified, problems


async def soak(seconds: float, tables: int, seed: int, db: Path) -> int:
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    store = await SqliteStore.open(db)
    tally = Tally()
    try:
        referee = Referee(store, render=False)
        began = time.perf_counter()
        until = began + seconds
        players = [Table(i, referee, tally, seed * 100_003 + i) for i in range(tables)]
        sampler = asyncio.create_task(sample_memory(tally, until, max(0.5, seconds / 60)))
        await asyncio.gather(*(t.run(until) for t in players))
        wall = time.perf_counter() - began
        await sampler
        checked_at = time.perf_counter()
        verified, problems = await check_store(referee, tally)
        check_seconds = time.perf_counter() - checked_at
    finally:
        await store.close()
        logging.getLogger().removeHandler(errors)
    return report(tally, wall, verified, problems, check_seconds, errors.records, db, tables)


def report(
    tally: Tally,
    wall: float,
    verified: int,
    problems: list[str],
    check_seconds: float,
    logged: list[str],
    db: Path,
    tables: int,
) -> int:
    ms = sorted(t * 1000 for t in tally.latencies)
    mem = [m for _, m in tally.memory]
    warm = mem[min(len(mem) - 1, max(1, len(mem) // 10))] if mem else 0.0
    growth = (mem[-1] - warm) if mem else 0.0
    calls = len(ms)
    print(f"soak: {wall:.1f} s, {tables} tables at once on one file ({db.name})")
    print(
        f"games {tally.games} started, {tally.finished} finished; actions {tally.actions} "
        f"acknowledged; bad inputs {tally.bad_sent}, refused cleanly {tally.refusals}; "
        f"errors {len(tally.errors) + len(logged)}"
    )
    print(
        f"throughput {tally.actions / wall:.0f} actions/s, {calls / wall:.0f} referee calls/s; "
        f"latency per call median {percentile(ms, 50):.2f} ms, p99 {percentile(ms, 99):.2f} ms, "
        f"max {ms[-1] if ms else float('nan'):.1f} ms"
    )
    print(
        f"memory RSS first {mem[0] if mem else 0:.1f} MB, after warm-up {warm:.1f} MB, "
        f"peak {max(mem) if mem else 0:.1f} MB, last {mem[-1] if mem else 0:.1f} MB "
        f"({len(mem)} samples)"
    )
    print(f"verified {verified} of {len(tally.acknowledged)} games in {check_seconds:.1f} s")
    failures = []
    if tally.errors or logged:
        failures.append(f"{len(tally.errors)} calls raised, {len(logged)} errors logged")
    if tally.broken_refusals:
        failures.append(f"{len(tally.broken_refusals)} bad inputs were not clean refusals")
    if problems:
        failures.append(f"{len(problems)} games failed the store check")
    if growth > MEMORY_SLACK_MB:
        failures.append(f"memory grew {growth:.1f} MB after warm-up (> {MEMORY_SLACK_MB} MB)")
    if tally.games == 0:
        failures.append("no game was played")
    for line in (tally.errors + logged + tally.broken_refusals + problems)[:10]:
        print("  " + line.strip().replace("\n", "\n  "))
    print("FAILED: " + "; ".join(failures) if failures else "OK: every check passed")
    return 1 if failures else 0


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument(
        "--seconds", type=float, default=float(os.environ.get("SOAK_SECONDS", "60"))
    )
    parser.add_argument("--tables", type=int, default=int(os.environ.get("SOAK_TABLES", "128")))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SOAK_SEED", "1")))
    parser.add_argument("--db", type=Path, default=None, help="keep the SQLite file here")
    return parser.parse_args(argv)


def run(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.db is not None:
        args.db.unlink(missing_ok=True)
        return asyncio.run(soak(args.seconds, args.tables, args.seed, args.db))
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(soak(args.seconds, args.tables, args.seed, Path(tmp) / "soak.db"))


def main() -> None:
    """``python -m bench soak``: a short soak (10 s); ``make soak`` runs the full minute."""
    code = run(["--seconds", os.environ.get("SOAK_SECONDS", "10")])
    if code:
        raise SystemExit(code)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
