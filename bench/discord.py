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

from bot.app import RefereeBot
from bot.clock import ManualClock
from bot.referee import Referee
from bot.replies import Actor, Where
from bot.store import Store
from tests.discord.harness import GUILD_ID, Exchange, Harness, Person

GAMES = ("atmalof", "morris", "abalone")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


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


async def run(games: int, rounds: int, db: Path) -> None:
    random.seed(7)
    store = await Store.open(str(db))
    bot = RefereeBot(Referee(store, clock=ManualClock()), sweep_seconds=None)
    h = await Harness(bot).start()
    try:
        pairs = [
            (Person(10_000 + 2 * i, f"p{2 * i}"), Person(10_001 + 2 * i, f"p{2 * i + 1}"))
            for i in range(games)
        ]
        channels = [1_000_000 + i for i in range(games)]
        exchanges: list[Exchange] = []
        started = time.perf_counter()
        for batch in await asyncio.gather(
            *(
                _start(h, p, c, GAMES[i % 3])
                for i, (p, c) in enumerate(zip(pairs, channels, strict=True))
            )
        ):
            exchanges += batch
        for _ in range(rounds):
            done = await asyncio.gather(
                *(_turn(h, p, c) for p, c in zip(pairs, channels, strict=True))
            )
            exchanges += [e for e in done if e is not None]
        elapsed = time.perf_counter() - started
    finally:
        await h.close()
        await store.close()
    firsts = [e.latency * 1000 for e in exchanges if e.calls]
    totals = [(e.calls[-1].at - e.started) * 1000 for e in exchanges if e.calls]
    images = sum(1 for e in exchanges for f in e.files if f[2].startswith(b"\x89PNG"))
    print(f"{games} concurrent games, {len(exchanges)} interactions, {images} board images")
    print(f"interactions/s (incl. the harness): {len(exchanges) / elapsed:.1f}")
    print(
        f"first response: median {statistics.median(firsts):.1f} ms, "
        f"p99 {percentile(firsts, 0.99):.1f} ms, max {max(firsts):.1f} ms"
    )
    print(
        f"whole interaction (drop: announcement + roll): median {statistics.median(totals):.1f}"
        f" ms, p99 {percentile(totals, 0.99):.1f} ms"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(games=60, rounds=8, db=Path(tmp) / "bench.db"))


if __name__ == "__main__":
    main()
