"""The real bot, driven offline through the test harness, with arrivals on a fixed schedule.

Open loop: interaction i arrives at ``t0 + i / rate`` whatever became of the earlier ones, as
users' commands reach Discord; latency runs from that scheduled arrival to the bot's first
response, so time spent queueing behind a busy event loop counts. ``TABLES`` games are played at
once, each acting once every ``TABLES / rate`` seconds (well beyond the latency expected, so moves
stay legal). A table whose previous interaction is still unanswered at its next slot sends its
last command again, as an impatient player would: counted as an overlap, apart. A refusal (a
private answer) is counted apart too. A finished game is followed, at its table's next slots, by
a new challenge and its acceptance; a hopeless Atmalof drop by its confirmation. Every move and
acceptance draws a board.

CPU per interaction: the process's CPU time (every thread, and a process pool's workers) over
a run, divided by the interactions answered, less the benchmark's own picking of legal moves
(``Referee.legal_for``, timed apart before the runs); measured at a gentle rate and with a few
tables acting back to back, next to a yardstick (one board drawn alone, in the same minute: a busy
machine inflates both). The goal is judged by the back-to-back figure: a core serving 300 a
second is never idle, while one idling between interactions at a gentle rate spends more on the
same work (cold caches; measured: the same boards cost up to twice the CPU). Capacity, two
ways: 1 / CPU per interaction, and a step search over rates, pinned to one core, for the highest
rate answered in time (>= 95 % within the run) with p99 under ``BOUND_MS``.

Board drawing is compared four ways, one after the other on the same bot and games, at
``GENTLE``/s and ``RATE``/s: inline on the event loop, asyncio's default executor
(``asyncio.to_thread``, as the bot drew before), the bot's bounded pool (``bot.referee.boards``, two
threads) and a pool of two processes.

Goals (issue 17): one core sustains 300 interactions/s with a board on every move (CPU per
interaction at most 3.3 ms); the p99 of the first response under 50 ms at 100/s.

The harness stands in for the gateway and the HTTP calls (no JSON decoding of gateway frames, no
aiohttp requests; instead it builds payloads and records calls), so the figures are the bot's own
work give or take that. Run alone: ``python -m bench discord`` (never ``python bench/discord.py``:
the file name would shadow the library). ``BENCH_SECONDS`` sets each run's length (default 3).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import render
from bench.timing import percentile
from bot import event_loop
from bot.clock import ManualClock
from bot.config import Config
from bot.discord_ui.app import RefereeBot
from bot.referee import Referee, boards
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore, Store
from render.gallery import random_game
from tests.discord.harness import GUILD_ID, Exchange, Harness, Person
from tests.discord.harness import _current as current_exchange

GAMES = ("atmalof", "morris", "abalone")
TABLES = 100
RATE = 100.0  # the rate the latency goal is set at
GENTLE = 30.0  # a rate served with room to spare even on a busy machine: CPU per interaction
IN_FLIGHT = 10  # tables acting back to back (closed loop): CPU per interaction with no idle
STEPS = (50.0, 100.0, 150.0, 200.0, 250.0, 300.0, 400.0)  # the capacity search
BOUND_MS = 100.0  # the p99 a rate must keep to count as served in the search
GOAL_RATE = 300.0
GOAL_CPU_MS = 1000 / GOAL_RATE
GOAL_P99_MS = 50.0
PNG = b"\x89PNG"


class Inline(Executor):
    """Runs each call at once on the caller's thread: boards drawn on the event loop."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed back to the awaiting coroutine
            future.set_exception(exc)
        return future


def _warm_worker() -> int:
    import render  # noqa: F401  (a worker imports the drawing code once, before the runs)

    return os.getpid()


def _pools() -> dict[str, Callable[[], Executor]]:
    default = min(32, (os.cpu_count() or 1) + 4)  # asyncio's default executor, as to_thread used
    context = multiprocessing.get_context("forkserver")
    return {
        "inline": Inline,
        f"to_thread ({default} threads, before)": lambda: ThreadPoolExecutor(default),
        f"pool of {boards.RENDER_THREADS} threads (the bot's)": lambda: ThreadPoolExecutor(
            boards.RENDER_THREADS, thread_name_prefix="board"
        ),
        "pool of 2 processes": lambda: ProcessPoolExecutor(2, mp_context=context),
    }


def _cpu(pool: Executor) -> float:
    """CPU seconds of this process (all threads) and of a process pool's live workers."""
    total = time.process_time()
    for pid in getattr(pool, "_processes", None) or {}:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


@contextmanager
def one_core() -> Iterator[int | None]:
    """Every thread of this process (and those it starts) on one CPU, the least busy one now;
    yields it (None where affinity cannot be set)."""
    if not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = os.sched_getaffinity(0)
    try:
        with open("/proc/stat") as f:
            idle = {
                int(parts[0][3:]): int(parts[4])
                for parts in (line.split() for line in f)
                if parts[0].startswith("cpu") and parts[0][3:].isdigit()
            }
        cpu = max(allowed, key=lambda c: idle.get(c, 0))
    except OSError:
        cpu = min(allowed)
    tids = [int(t) for t in os.listdir("/proc/self/task")]
    for tid in tids:
        os.sched_setaffinity(tid, {cpu})
    try:
        yield cpu
    finally:
        for tid in (int(t) for t in os.listdir("/proc/self/task")):
            with suppress(OSError):
                os.sched_setaffinity(tid, allowed)


class OpenLoop(Harness):
    """The harness, but it learns which tasks an interaction started from a task factory
    rather than by comparing ``asyncio.all_tasks()`` before and after: that costs time in
    proportion to the tasks in flight, which an open-loop run keeps many of."""

    _created: list[asyncio.Task[Any]] | None = None

    def _task_factory(
        self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
    ) -> asyncio.Task[Any]:
        task = asyncio.Task(coro, loop=loop, **kwargs)
        if self._created is not None:
            self._created.append(task)
        return task

    async def start(self) -> OpenLoop:
        asyncio.get_running_loop().set_task_factory(self._task_factory)  # type: ignore[arg-type]
        await super().start()
        return self

    async def dispatch(self, payload: dict[str, Any], *, message_id: int | None = None) -> Exchange:
        exchange = Exchange(
            int(payload["id"]), time.perf_counter(), int(payload["channel_id"]), message_id
        )
        self._created = created = []
        token = current_exchange.set(exchange)
        try:
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        finally:
            current_exchange.reset(token)
            self._created = None
        started = [
            t for t in created if t.get_name().startswith(("CommandTree-invoker", "discord-ui-"))
        ]
        if started:
            await asyncio.gather(*started)
        return exchange


class Tally(logging.Handler):
    """Counts what the bot logs at WARNING and above (by logger and message template) instead
    of printing it: an overloaded run logs a line per refused interaction."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[f"{record.name}: {record.msg}"[:80]] += 1


TALLY = Tally()


@dataclass
class Table:
    """One channel with a pair of players, and what its next interaction will be."""

    pair: tuple[Person, Person]
    channel: int
    game: str
    stage: str = "challenge"  # "challenge", "accept", "confirm" (a hopeless drop) or "move"
    busy: bool = False
    mover: Person | None = None
    command: str = ""
    message: dict[str, Any] | None = None  # the message whose button comes next
    button: str = ""


@dataclass
class Run:
    """What one run at a given rate saw."""

    rate: float
    seconds: float
    sent: int = 0
    answered: int = 0
    refused: int = 0
    overlaps: int = 0
    overlaps_refused: int = 0
    boards: int = 0
    picks: int = 0
    cpu: float = 0.0
    wall: float = 0.0  # from the first scheduled arrival to the last answer
    drawing: float = 0.0  # CPU seconds the renderer's thread spent drawing and encoding
    drawn: int = 0
    logged: int = 0
    latencies: list[float] = field(default_factory=list)  # ms from the scheduled arrival

    def cpu_ms(self, pick_ms: float) -> float:
        return (self.cpu * 1000 - self.picks * pick_ms) / max(1, self.answered)

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("nan")

    @property
    def p99(self) -> float:
        return percentile(self.latencies, 99)

    def served(self) -> bool:
        return self.answered >= 0.95 * self.sent and self.p99 < BOUND_MS


class Bench:
    """A bot on its own store, its tables, and the open-loop driver."""

    def __init__(self, h: Harness, pool: Executor, drawing: TimedDrawing | None = None) -> None:
        self.h = h
        self.pool = pool
        self.drawing = drawing
        self.tables = [
            Table(
                (Person(10_000 + 2 * i, f"p{2 * i}"), Person(10_001 + 2 * i, f"p{2 * i + 1}")),
                1_000_000 + i,
                GAMES[i % 3],
            )
            for i in range(TABLES)
        ]
        self.run: Run | None = None
        self.rng = random.Random(7)

    async def pick(self, table: Table) -> None:
        """The player to move and a random legal command, asked of the referee directly."""
        table.mover, table.command = None, ""
        where = Where(guild_id=GUILD_ID, channel_id=table.channel)
        referee = self.h.bot.referee  # type: ignore[attr-defined]
        for person in table.pair:
            if self.run is not None:
                self.run.picks += 1
            legal = await referee.legal_for(where, Actor(person.id, person.name), "", limit=None)
            if legal:
                table.mover, table.command = person, self.rng.choice(legal)
                return
        table.stage = "challenge"  # the game is over: a new one at the next slot

    async def interact(self, table: Table) -> Exchange:
        """Send the table's next interaction as is (an overlap repeats the last one)."""
        h = self.h
        a, b = table.pair
        if table.stage == "challenge":
            return await h.slash(a, "challenge", channel=table.channel, game=table.game,
                                 opponent=b, starter="me")  # fmt: skip
        if table.stage in ("accept", "confirm"):
            assert table.message is not None
            person = b if table.stage == "accept" else table.mover or a
            return await h.click(person, table.message, table.button)
        return await h.slash(table.mover or a, "play", channel=table.channel, command=table.command)

    async def advance(self, table: Table, exchange: Exchange) -> None:
        """What this table sends next, from the answer to its last interaction."""
        private = bool(exchange.messages) and exchange.all_ephemeral
        buttons = [(c, i) for c in exchange.messages if c.message for i in c.custom_ids]
        if table.stage == "challenge":
            found = [(c, i) for c, i in buttons if i.split(":")[1] == "accept"]
            if found and not private:
                table.stage, table.message, table.button = (
                    "accept",
                    found[0][0].message,
                    found[0][1],
                )
            else:  # refused: perhaps an earlier acceptance landed after all
                await self.pick(table)
                if table.mover is not None:
                    table.stage = "move"
            return
        confirm = [(c, i) for c, i in buttons if i.split(":")[1] == "drop-confirm"]
        if table.stage == "move" and confirm:
            table.stage, table.message, table.button = (
                "confirm",
                confirm[0][0].message,
                confirm[0][1],
            )
            return
        if table.stage == "accept" and private:
            table.stage = "challenge"
            return
        table.stage = "move"
        await self.pick(table)

    async def setup(self) -> None:
        """Every table starts a game (not timed), then picks its first move."""
        for _ in range(2):  # the challenge, then the acceptance, ten tables at a time
            for i in range(0, TABLES, 10):
                batch = self.tables[i : i + 10]
                await asyncio.gather(*(self.step(t, time.perf_counter()) for t in batch))

    async def step(self, table: Table, due: float) -> None:
        """One scheduled arrival at ``due`` (a perf_counter time)."""
        run = self.run
        overlap = table.busy
        if not overlap:
            table.busy = True
        exchange = await self.interact(table)
        if run is not None:
            run.sent += 1
            if exchange.calls:
                run.answered += 1
                run.latencies.append((exchange.calls[0].at - due) * 1000)
                run.boards += sum(1 for f in exchange.files if f[2].startswith(PNG))
                asked = any(":drop-confirm:" in i for c in exchange.messages for i in c.custom_ids)
                if exchange.messages and exchange.all_ephemeral and not asked:
                    if overlap:
                        run.overlaps_refused += 1
                    else:
                        run.refused += 1
            run.overlaps += overlap
        if not overlap:
            await self.advance(table, exchange)
            table.busy = False

    async def measure(self, rate: float, seconds: float) -> Run:
        """Arrivals at ``rate`` per second for ``seconds``, on schedule; waits for the last."""
        run = self.run = Run(rate, seconds)
        count = round(rate * seconds)
        tasks: list[asyncio.Task[None]] = []
        cpu0, logged0 = _cpu(self.pool), TALLY.counts.total()
        drawn0 = (self.drawing.cpu, self.drawing.boards) if self.drawing else (0.0, 0)
        t0 = time.perf_counter() + 0.01
        if rate > 0:
            for i in range(count):
                due = t0 + i / rate
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                tasks.append(asyncio.create_task(self.step(self.tables[i % TABLES], due)))
        else:  # closed loop: every table acts again as soon as it is answered, for ``seconds``
            tasks = [
                asyncio.create_task(self.back_to_back(t, t0 + seconds))
                for t in self.tables[:IN_FLIGHT]
            ]
        await asyncio.gather(*tasks)
        run.cpu = _cpu(self.pool) - cpu0
        run.wall = time.perf_counter() - t0
        run.logged = TALLY.counts.total() - logged0
        if self.drawing:
            run.drawing = self.drawing.cpu - drawn0[0]
            run.drawn = self.drawing.boards - drawn0[1]
        self.run = None
        return run

    async def back_to_back(self, table: Table, end: float) -> None:
        while time.perf_counter() < end:
            await self.step(table, time.perf_counter())

    async def pick_cost_ms(self) -> float:
        """CPU ms of one ``legal_for`` call as the benchmark makes them (subtracted later)."""
        referee = self.h.bot.referee  # type: ignore[attr-defined]
        start, calls = time.process_time(), 0
        for _ in range(3):
            for table in self.tables:
                for person in table.pair:
                    where = Where(guild_id=GUILD_ID, channel_id=table.channel)
                    await referee.legal_for(where, Actor(person.id, person.name), "", limit=None)
                    calls += 1
        return (time.process_time() - start) * 1000 / calls


class TimedDrawing:
    """The bot's renderer, counting the CPU time its drawing thread spends on each board."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.boards = 0
        self._lock = threading.Lock()

    def __call__(self, view: boards.BoardView) -> bytes:
        start = time.thread_time()
        png = boards.draw_png(view)
        with self._lock:
            self.cpu += time.thread_time() - start
            self.boards += 1
        return png

    def __getstate__(self) -> dict[str, Any]:
        return {}  # a process pool's worker draws with its own copy (its counts stay there)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]


async def open_bench(db: Path, pool: Executor) -> tuple[Bench, Store]:
    """The bot on a new store, its boards drawn in ``pool``, every table's game started."""
    store = await SqliteStore.open(str(db))
    timed = TimedDrawing()
    bot = RefereeBot(Referee(store, clock=ManualClock(), render=timed), sweep_seconds=None)
    h = await OpenLoop(bot).start()
    bot.freeze_startup()  # as the bot does once connected (on_ready)
    boards.use_render_pool(pool)
    bench = Bench(h, pool, timed)
    await bench.setup()
    return bench, store


def line(label: str, run: Run, pick_ms: float) -> str:
    drawing = ""
    if run.drawn:
        share = run.drawing * 1000 / max(1, run.answered) / run.cpu_ms(pick_ms)
        drawing = f", {run.drawing * 1000 / run.drawn:.2f} ms a board drawn ({share:.0%} of it)"
    offered = "back to back" if run.rate <= 0 else f"at {run.rate:.0f}/s"
    return (
        f"{label} {offered}: answered {run.answered}/{run.sent} "
        f"({run.answered / run.wall:.0f}/s over {run.wall:.1f} s), {run.boards} boards, "
        f"refused {run.refused}, overlaps {run.overlaps} ({run.overlaps_refused} refused), "
        f"{run.logged} warnings logged\n"
        f"    first response from the scheduled arrival: median {run.p50:.1f} ms, "
        f"p99 {run.p99:.1f} ms; CPU {run.cpu_ms(pick_ms):.2f} ms an interaction{drawing}"
        f" (this process used {run.cpu / run.wall:.2f} cores)"
    )


async def search(bench: Bench, seconds: float, pick_ms: float) -> float:
    """The highest rate of ``STEPS`` served (see ``Run.served``), stopping at the first miss."""
    best = 0.0
    for rate in STEPS:
        run = await bench.measure(rate, seconds)
        print("  " + line("step", run, pick_ms), flush=True)
        if not run.served():
            break
        best = rate
    return best


def capacity(best: float) -> str:
    return f"{best:.0f}/s" if best else f"below {STEPS[0]:.0f}/s"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSES THE GOAL"


def reference_board_ms() -> float:
    """CPU ms of one board drawn alone (median over the three games' mid-game positions): the
    yardstick for the CPU figures, which a busy machine inflates along with it."""
    times = []
    for game in GAMES:
        for state, last in random_game(game, seed=5, plies=60)[20:50]:
            start = time.thread_time()
            render.board_png(game, state, last, players=("Alice", "Bob"))
            times.append(time.thread_time() - start)
    return statistics.median(times[3:]) * 1000


async def run_all(tmp: Path, seconds: float) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"{TABLES} tables, each acting every {TABLES / RATE:.1f} s at {RATE:.0f}/s; "
        f"{seconds:.0f} s a run; {os.cpu_count()} CPUs, load average {load:.1f} at the start "
        "(on a shared machine other work competes for the cores: see 'cores' on each line); "
        f"event loop: {event_loop.kind(asyncio.get_running_loop())} (EVENT_LOOP)"
    )
    reference = reference_board_ms()
    print(f"yardstick: one board drawn alone, {reference:.2f} ms CPU (median)")
    logging.getLogger().addHandler(TALLY)
    pick_ms, clean, busy = 0.0, None, None
    best_one = best_two = 0.0
    results: dict[str, Run] = {}
    gentle: dict[str, Run] = {}
    bench, store = await open_bench(tmp / "bench.db", Inline())
    try:
        pick_ms = await bench.pick_cost_ms()
        print(f"(the benchmark's own move picking: {pick_ms:.2f} ms CPU a legal_for call, "
              "subtracted from every CPU figure)")  # fmt: skip
        for label, make in _pools().items():  # one bot and its games; the pool changes
            pool = bench.pool = make()
            if isinstance(pool, ProcessPoolExecutor):
                for future in [pool.submit(_warm_worker) for _ in range(4)]:
                    future.result()
            boards.use_render_pool(pool)
            try:
                clean = gentle[label] = await bench.measure(GENTLE, seconds)
                print(line(f"{label}, a rate served with room to spare,", clean, pick_ms))
                if label == "inline":
                    busy = await bench.measure(0, seconds)
                    print(line(f"{label}, {IN_FLIGHT} tables", busy, pick_ms))
                run = results[label] = await bench.measure(RATE, seconds)
                print(line(label, run, pick_ms), flush=True)
                if label == "inline":
                    with one_core() as cpu:
                        print(f"capacity search, boards inline, every thread pinned to CPU {cpu}:")
                        best_one = await search(bench, seconds * 0.75, pick_ms)
                elif label.startswith("pool of") and "threads" in label:
                    print("capacity search, the bot's pool, both CPUs:")
                    best_two = await search(bench, seconds * 0.75, pick_ms)
            finally:
                pool.shutdown(wait=True)
    finally:
        await bench.h.close()
        await store.close()
        boards.use_render_pool(None)
    logging.getLogger().removeHandler(TALLY)
    for what, count in TALLY.counts.most_common(3):
        print(f"logged {count} times: {what}")
    assert clean is not None and busy is not None
    chosen_label = next(k for k in results if k.startswith("pool of") and "threads" in k)
    chosen, inline = results[chosen_label], results["inline"]
    before = next(v for k, v in results.items() if k.startswith("to_thread"))
    clean = gentle["inline"]
    cpu, hot = clean.cpu_ms(pick_ms), busy.cpu_ms(pick_ms)
    print("\ngoals (issue 17) next to the measured values:")
    # The goal is a busy core's (300 a second leave it no idle time), so the back-to-back run
    # judges it. At a gentle rate the same work costs more CPU (even a board timed alone on its
    # thread: see "ms a board drawn" on the lines above): a core that idles between
    # interactions starts each one with cold caches, and on a shared machine others use them.
    print(
        f"  CPU per interaction, boards inline, back to back ({busy.boards} boards in "
        f"{busy.answered} answers): {hot:.2f} ms (goal <= {GOAL_CPU_MS:.1f} ms: "
        f"{verdict(hot <= GOAL_CPU_MS)}); at {GENTLE:.0f}/s ({clean.boards} boards in "
        f"{clean.answered} answers, a core idle between them): {cpu:.2f} ms; that is "
        f"{hot / reference:.1f} and {cpu / reference:.1f} boards drawn alone ({reference:.2f} ms "
        "each, this run)"
    )
    print(
        f"  one core's capacity as 1 / CPU per interaction: {1000 / hot:.0f}/s back to back "
        f"(goal >= {GOAL_RATE:.0f}/s: {verdict(1000 / hot >= GOAL_RATE)}), {1000 / cpu:.0f}/s "
        f"at {GENTLE:.0f}/s"
    )
    print(
        f"  one core's capacity by step search (inline, pinned; p99 < {BOUND_MS:.0f} ms and >= "
        f"95 % answered in the run): {capacity(best_one)} (goal >= {GOAL_RATE:.0f}/s: "
        f"{verdict(best_one >= GOAL_RATE)})"
    )
    print(
        f"  p99 of the first response at {RATE:.0f}/s, the bot's pool: {chosen.p99:.1f} ms "
        f"(goal < {GOAL_P99_MS:.0f} ms: {verdict(chosen.p99 < GOAL_P99_MS)}); inline "
        f"{inline.p99:.1f} ms, to_thread {before.p99:.1f} ms"
    )
    print(f"  two cores, the bot's pool, step search: {capacity(best_two)}")
    for rate, runs in ((GENTLE, gentle), (RATE, results)):
        ours = runs[chosen_label]
        print(
            f"  first response at {rate:.0f}/s, the bot's pool: median {ours.p50:.1f} ms, p99 "
            f"{ours.p99:.1f} ms; ratios to it, median and p99: " + "; ".join(
                f"{k.split(' (')[0]} {v.p50 / ours.p50:.2f}, {v.p99 / ours.p99:.2f}"
                for k, v in runs.items() if k != chosen_label
            )
        )  # fmt: skip


def main() -> None:
    seconds = float(os.environ.get("BENCH_SECONDS", "3"))
    with tempfile.TemporaryDirectory() as tmp:
        event_loop.run(run_all(Path(tmp), seconds), Config.from_env().event_loop)  # the bot's


if __name__ == "__main__":
    main()
