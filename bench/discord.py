"""The real bot, driven offline through the test harness: many concurrent games, boards rendered.

Reports interactions handled per second and the time from an INTERACTION_CREATE payload to the
first recorded response (median, p99). Discord wants a first response within 3 s; the aim is a
p99 under 100 ms and at least 50 interactions/s (Discord's global rate limit for a bot).

Run it alone: ``python -m bench discord`` (never ``python bench/discord.py``: the file name
would shadow the library).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bench.timing import percentile
from bot.app import RefereeBot
from bot.clock import ManualClock
from bot.referee import Referee
from bot.replies import Actor, Where
from bot.store import Store
from tests.discord.harness import GUILD_ID, Exchange, Harness, Person

GAMES = ("atmalof", "morris", "abalone")


async def _mover(h: Harness, pair: tuple[Person, Person], channel: int) -> tuple[Person, str]:
    """The player to move and a legal command, asked of the referee directly (not timed)."""
    where = Where(guild_id=GUILD_ID, channel_id=channel)
    for person in pair:
        legal = await h.bot.referee.legal_for(where, Actor(person.id, person.name), "")  # type: ignore[attr-defined]
        if legal:
            return person, random.choice(legal)
    return pair[0], ""


async def _start(
    h: Harness, pair: tuple[Person, Person], channel: int, game: str
) -> list[Exchange]:
    posted = await h.slash(pair[0], "challenge", channel=channel, game=game, opponent=pair[1],
                           starter="me")  # fmt: skip
    call = next(c for c in posted.messages if c.custom_ids)
    accept = next(i for i in call.custom_ids if ":accept:" in i)
    return [posted, await h.click(pair[1], call.message, accept)]


async def _turn(h: Harness, pair: tuple[Person, Person], channel: int) -> Exchange | None:
    person, command = await _mover(h, pair, channel)
    if not command:
        return None
    return await h.slash(person, "play", channel=channel, command=command)


def report(label: str, exchanges: list[Exchange], elapsed: float) -> None:
    done = [e for e in exchanges if e.calls]
    firsts = [e.latency * 1000 for e in done]
    totals = [(e.calls[-1].at - e.started) * 1000 for e in done]
    images = sum(1 for e in done for f in e.files if f[2].startswith(b"\x89PNG"))
    print(
        f"{label}: {len(done)} interactions, {images} boards, "
        f"{len(done) / elapsed:.0f} interactions/s\n"
        f"  first response median {statistics.median(firsts):.1f} ms, "
        f"p99 {percentile(firsts, 99):.1f} ms; last message (a drop: its announcement, then "
        f"the roll) median {statistics.median(totals):.1f} ms, p99 {percentile(totals, 99):.1f} ms"
    )


async def run(games: int, rounds: int, rate: float, paced: int, db: Path) -> None:
    """Start ``games`` at once, play ``rounds`` bursts (every game moves at once), then a
    steady stream of ``paced`` moves arriving at ``rate`` per second."""
    random.seed(7)
    store = await Store.open(str(db))
    bot = RefereeBot(Referee(store, clock=ManualClock()), sweep_seconds=None)
    h = await Harness(bot).start()
    try:
        tables = [
            ((Person(10_000 + 2 * i, f"p{2 * i}"), Person(10_001 + 2 * i, f"p{2 * i + 1}")),
             1_000_000 + i)
            for i in range(games)
        ]  # fmt: skip
        started = time.perf_counter()
        starts = await asyncio.gather(
            *(_start(h, p, c, GAMES[i % 3]) for i, (p, c) in enumerate(tables))
        )
        report("challenge + accept, all at once", [e for b in starts for e in b],
               time.perf_counter() - started)  # fmt: skip
        burst: list[Exchange] = []
        started = time.perf_counter()
        for _ in range(rounds):
            done = await asyncio.gather(*(_turn(h, p, c) for p, c in tables))
            burst += [e for e in done if e is not None]
        report(f"{games} games moving at once", burst, time.perf_counter() - started)
        steady: list[asyncio.Task[Exchange | None]] = []
        busy: dict[int, asyncio.Task[Exchange | None]] = {}
        started = time.perf_counter()
        for n in range(paced):
            index = n % games
            if index in busy and not busy[index].done():
                await busy[index]
            busy[index] = asyncio.create_task(_turn(h, *tables[index]))
            steady.append(busy[index])
            await asyncio.sleep(1 / rate)
        results = [e for e in await asyncio.gather(*steady) if e is not None]
        report(f"a stream of moves at {rate:.0f}/s", results, time.perf_counter() - started)
    finally:
        await h.close()
        await store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(games=60, rounds=5, rate=50, paced=300, db=Path(tmp) / "bench.db"))


if __name__ == "__main__":
    main()
