"""Costs that grow with the store or the game (issue 17), each at a small and a large size:
/board's channel lookup among many stored games, the per-user game count and the sweeper's
pending-roll query among many active games, the first command after a restart at a late ply,
Abalone's apply late in a game without a move limit, a Morris removal sent as its own command
late in a game, the request ids kept after the sweeps and the positions kept in memory. Each
goal is printed next to its value: flat means the large size costs at most ``FLAT`` times the
small one (a shared machine's noise is larger than that between two runs of a flat cost).
``python -m bench growth``.
"""

from __future__ import annotations

import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import engine
from bot import event_loop, limits
from bot.clock import ManualClock
from bot.config import Config
from bot.referee import Referee
from bot.referee.context import REQUESTS_PRUNED_PER_SWEEP
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore
from engine.abalone import moved_marbles

ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")
HERE = Where(1, 10)
FLAT = 2.0


def flat(small: float, large: float) -> str:
    """The ratio of the large size's cost to the small one's, and the verdict."""
    ratio = large / small if small > 0 else float("inf")
    verdict = "ok" if ratio <= FLAT else "MISSES THE GOAL"
    return f"x{ratio:.2f} (goal: flat, at most x{FLAT:.0f}: {verdict})"


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
    """Milliseconds of one call: the mean over ``times`` calls, the best of five such batches
    (other work on a shared machine only ever adds to a figure)."""
    await run()
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(times // 5 or 1):
            await run()
        best = min(best, (time.perf_counter() - started) / (times // 5 or 1))
    return best * 1000


async def store_costs(folder: Path) -> None:
    board = []
    for n in (1_000, 100_000):
        path = str(folder / f"channel-{n}.db")
        await (await SqliteStore.open(path)).close()
        fill(path, n, status="finished", same_channel=True)
        store = await SqliteStore.open(path)
        board.append(await per_call(lambda store=store: store.latest_game(10)))
        print(f"latest_game (/board) with {n:>7,} games in the channel: {board[-1]:.3f} ms")
        await store.close()
    print(f"  /board, 100,000 games against 1,000: {flat(*board)}")
    count, rolls = [], []
    for n in (1_000, 50_000):
        path = str(folder / f"active-{n}.db")
        await (await SqliteStore.open(path)).close()
        fill(path, n, status="active", same_channel=False)
        store = await SqliteStore.open(path)
        count.append(await per_call(lambda store=store: limits.active_games(store, 3)))
        rolls.append(await per_call(lambda store=store: store.stale_rolls(1e12)))
        print(
            f"with {n:>6,} active games: per-user game count {count[-1]:.3f} ms, "
            f"sweeper's pending rolls {rolls[-1]:.3f} ms"
        )
        await store.close()
    print(f"  per-user game count (challenge, accept), 50,000 active games against 1,000: "
          f"{flat(*count)}")  # fmt: skip
    print(f"  sweeper's pending rolls, 50,000 active games against 1,000: {flat(*rolls)}")


async def restart_costs(folder: Path) -> None:
    colds, warms = [], []
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
        colds.append(min(cold) * 1000)
        warms.append(warm)
        print(
            f"first /board after a restart at ply {played}: {colds[-1]:.2f} ms "
            f"(warm: {warm:.2f} ms)"
        )
        await store.close()
    print(f"  the first command after a restart, ply 600 against ply 60: {flat(*colds)}; "
          f"against a warm one at ply 600: {flat(warms[-1], colds[-1])}")  # fmt: skip


async def morris_removal(folder: Path) -> None:
    """A Morris removal sent as its own command, early and late in a game (no move limit, no
    repetition draw), against the quiet move before it: the turn it draws must not replay the
    log. Boards are "drawn" by a stub, so the figures are the referee's and the store's."""
    path = str(folder / "morris.db")
    store = await SqliteStore.open(path)
    clock = ManualClock()
    referee = Referee(store, clock, render=lambda view: b"\x89PNG")
    await referee.challenge(HERE, ALICE, "morris", opponent=BOB, starter="me",
                            options={"move_limit": 0, "repetition": False})  # fmt: skip
    await referee.accept(HERE, BOB)
    rules = engine.get_game("morris")
    state = rules.new("standard", move_limit=0, repetition=False)
    rng = random.Random(3)
    removal: dict[int, float] = {}
    quiet: dict[int, float] = {}
    players = (ALICE, BOB)
    targets = [60, 600]
    while targets:
        mover = players[state.to_move]
        legal = rules.legal(state)
        mills = [a for a in legal if rules.pending_removal(rules.apply(state, a))]
        others = [a for a in legal if a not in mills]
        due = state.ply >= targets[0] and mills
        action = rng.choice(mills if due or not others else others)
        started = time.perf_counter()
        reply = await referee.act(HERE, mover, rules.notation(state, action))
        spent = time.perf_counter() - started
        state = rules.apply(state, action)
        if not reply.ok or rules.result(state) is not None:
            print(f"Morris removal: the game ended at ply {state.ply} before ply {targets[0]}")
            break
        if rules.pending_removal(state):
            take = rng.choice(rules.legal(state))
            started = time.perf_counter()
            reply = await referee.act(HERE, mover, rules.notation(state, take))
            if due:
                removal[targets[0]] = (time.perf_counter() - started) * 1000
                quiet[targets[0]] = spent * 1000
                targets.pop(0)
            state = rules.apply(state, take)
    await store.close()
    for ply, ms in removal.items():
        print(f"Morris removal as its own command from ply {ply} on: {ms:.2f} ms (the move that "
              f"closed the mill: {quiet[ply]:.2f} ms)")  # fmt: skip
    if len(removal) == 2:
        early, late = removal.values()
        print(f"  a removal, ply 600 against ply 60: {flat(early, late)}")


async def positions_kept(folder: Path) -> None:
    """Games that stop being played leave memory: the referee keeps at most ``positions_kept``
    positions (an LRU), here 20 against 60 games that each made a move."""
    store = await SqliteStore.open(str(folder / "kept.db"))
    referee = Referee(store, ManualClock(), render=False, positions_kept=20)
    for i in range(60):
        where = Where(1, 1000 + i)
        a, b = Actor(100 + 2 * i, "a"), Actor(101 + 2 * i, "b")
        await referee.challenge(where, a, "abalone", opponent=b, starter="me")
        await referee.accept(where, b)
        await referee.act(where, a, (await referee.legal_for(where, a))[0])
    kept = len(referee.ctx.states)
    verdict = "ok" if kept <= 20 else "MISSES THE GOAL"
    print(f"positions kept in memory after 60 games moved, bound 20: {kept} (goal: at most the "
          f"bound: {verdict})")  # fmt: skip
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
    print(f"  the last thousand plies against the first: {flat(spans[1000], spans[3000])}")


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
        async for _notice in referee.sweep():  # none: the requests are all this store holds
            pass
    (kept,) = (await store.db.execute_fetchall("SELECT COUNT(*) FROM request_ids"))[0]
    pruned = 20_000 - kept
    verdict = "ok" if pruned >= 10 * REQUESTS_PRUNED_PER_SWEEP else "MISSES THE GOAL"
    print(
        f"request ids kept after 10 sweeps, of 20,000 older than a day: {kept:,} (goal: bounded, "
        f"{REQUESTS_PRUNED_PER_SWEEP} of the oldest pruned a sweep: {pruned:,} pruned, {verdict})"
    )
    await store.close()


async def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        await store_costs(folder)
        await restart_costs(folder)
        await morris_removal(folder)
        await request_ids(folder)
        await positions_kept(folder)
    abalone_apply()


def main() -> None:
    event_loop.run(run(), Config.from_env().event_loop)  # the bot's loop
