"""A child process for the crash test: plays random moves on a file, printing each one the
referee acknowledged (``ACK game seq hash``), until it is killed. Run: python -m ... DB SEED."""

from __future__ import annotations

import asyncio
import random
import sys

from bot.referee import Referee
from bot.replies import Actor, Where
from bot.store import Store

ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")
TABLE = Where(None, 5)


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(path)
    referee = Referee(store, render=False)
    people = {ALICE.id: ALICE, BOB.id: BOB}
    while True:
        reply = await referee.board(TABLE)  # completes a roll announced before a crash
        if not reply.ok or reply.finished:
            await referee.challenge(TABLE, ALICE, "atmalof", opponent=BOB, starter="me")
            reply = await referee.accept(TABLE, BOB)
        mover = people[reply.mentions[0]]
        moves = await referee.legal_for(TABLE, mover)
        reply = await referee.act(TABLE, mover, rng.choice(moves))
        if reply.ok and reply.pending_roll:
            print(f"ANNOUNCED {reply.game_id}", flush=True)
            reply = await referee.roll_pending(TABLE)
        if reply.ok:
            g = await store.game(reply.game_id)
            print(f"ACK {g.id} {g.seq} {g.last_hash}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
