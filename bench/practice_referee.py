"""The practice opponent through the referee: how long the bot takes to answer a move at a level
(wall clock, its search in the worker process), and that the event loop stays free meanwhile
(the longest gap of a 10 ms ticker while the bot thinks, and a move in a game between people
made during the search), and after a restart, how long a backlog of waiting practice games takes
the sweeper with one worker and with two. Real SQLite file, no rendering.
``PRACTICE_REFEREE_MOVES`` (default 4) player moves per game, ``PRACTICE_REFEREE_LEVEL`` (default
5), ``PRACTICE_REFEREE_BACKLOG`` (default 6) games waiting after the restart."""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.referee import Referee
from bot.referee.names import CONSOLE_BOT
from bot.referee.replies import Actor, Moved, Reply, Where
from bot.store import SqliteStore

ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")


async def ticker(stop: asyncio.Event, gaps: list[float]) -> None:
    """Sleep 10 ms at a time; keep how late each wake-up was (the loop's longest stall)."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        gaps.append(time.perf_counter() - before - 0.01)


async def bot_answered(referee: Referee, where: Where, reply: Reply) -> bool:
    """Show the command's replies as a front end would; whether the bot (seat 1) moved."""
    moved = False
    async for shown in referee.sequence(where, reply):
        moved = moved or any(isinstance(e, Moved) and e.side == 1 for e in shown.events)
    return moved


async def one_game(referee: Referee, game: str, n: int, level: int, first: bool) -> str:
    where, other = Where(1, 100 + hash(game) % 1000), Where(1, 5000 + hash(game) % 1000)
    await referee.practice(where, ALICE, game, bot=CONSOLE_BOT, level=level, starter="me")
    await referee.challenge(other, BOB, "morris", opponent=CAROL, starter="me")
    await referee.accept(other, CAROL)
    rng = random.Random(7)
    answers: list[float] = []
    gaps: list[float] = []
    starting: list[float] = []  # the stalls while the first search starts the worker process
    side_moves: list[float] = []
    for _ in range(n):
        moves = await referee.legal_moves(where, ALICE)
        if not moves:
            break
        reply = await referee.act(where, ALICE, f"{rng.choice(moves)} confirm")
        stop = asyncio.Event()
        tick = asyncio.create_task(ticker(stop, gaps))
        started = time.perf_counter()
        thinking = asyncio.create_task(bot_answered(referee, where, reply))
        await asyncio.sleep(0.05)  # the search has started in the worker
        people = await referee.legal_moves(other, BOB) or await referee.legal_moves(other, CAROL)
        mover = BOB if await referee.legal_moves(other, BOB) else CAROL
        if people:
            t = time.perf_counter()
            await referee.act(other, mover, rng.choice(people))
            side_moves.append(time.perf_counter() - t)
        if await thinking:
            answers.append(time.perf_counter() - started)
        stop.set()
        await tick
        if first:
            starting, gaps, first = gaps, [], False
    if not answers:
        return f"{game:8} no answer measured"
    return (
        f"{game:8} level {level}: {len(answers)} answers, wall median "
        f"{statistics.median(answers):.2f} s, max {max(answers):.2f} s; event loop's longest "
        f"stall {max(gaps, default=0) * 1000:.1f} ms"
        + (f" (while the worker started: {max(starting) * 1000:.1f} ms)" if starting else "")
        + "; a move in another game during the search "
        f"{max(side_moves) * 1000 if side_moves else float('nan'):.1f} ms at most"
    )


async def backlog(path: str, games: int, level: int, workers: int) -> str:
    """``games`` Abalone games, each waiting for the bot after its player's first move when the
    process died; a new process's first sweep answers them ``workers`` at a time. When each
    move was shown, and how long after it was stored (it starts its player's clock)."""
    store = await SqliteStore.open(path)
    try:
        before = Referee(store, render=False, per_user_limits=False)
        places = [Where(1, 9000 + 100 * workers + i) for i in range(games)]
        for i, where in enumerate(places):
            player = Actor(1000 + i, f"p{i}")
            await before.practice(where, player, "abalone", bot=CONSOLE_BOT, level=level)
            moves = await before.legal_moves(where, player)
            if moves:
                await before.act(where, player, moves[0])
        await before.close()
        after = Referee(store, render=False, per_user_limits=False, practice_workers=workers)
        began, shown = time.time(), []
        try:
            async for notice in after.sweep():
                shown.append((notice.where.channel_id, time.time()))
        finally:
            await after.close()
        lags = []
        for channel, at in shown:
            g = await store.latest_game(channel)
            if g is not None and g.turn_started_at is not None:
                lags.append(at - g.turn_started_at)
    finally:
        await store.close()
    return (
        f"backlog of {games} abalone games at level {level} after a restart, {workers} "
        f"worker(s): all answered in {shown[-1][1] - began if shown else float('nan'):.2f} s "
        f"(shown at {', '.join(f'{at - began:.2f}' for _, at in shown)} s), each shown at most "
        f"{max(lags, default=float('nan')) * 1000:.1f} ms after it was stored"
    )


async def run() -> None:
    n = int(os.environ.get("PRACTICE_REFEREE_MOVES", "4"))
    level = int(os.environ.get("PRACTICE_REFEREE_LEVEL", "5"))
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(str(Path(tmp) / "practice.db"))
        referee = Referee(store, render=False, per_user_limits=False)
        try:
            for i, game in enumerate(("atmalof", "morris", "abalone")):
                print(await one_game(referee, game, n, level, first=i == 0))
        finally:
            await referee.close()
            await store.close()
        waiting = int(os.environ.get("PRACTICE_REFEREE_BACKLOG", "6"))
        for workers in (1, 2):
            print(await backlog(str(Path(tmp) / f"backlog{workers}.db"), waiting, level, workers))


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
