"""A child process for the crash test: plays random moves on a file, printing each one the
referee acknowledged (``ACK game seq hash``), until it is killed. Run: python -m ... DB SEED MODE.

MODE ``run`` plays on until killed at a random moment. ``announced`` stops and waits to be
killed right after storing a drop's announcement (before the roll); ``challenged`` resigns the
game, posts a new challenge and waits to be killed before anyone accepts it.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.store import SqliteStore

ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")
TABLE = Where(None, 5)
MODES = ("run", "announced", "challenged")


async def wait_to_be_killed(line: str) -> None:
    print(line, flush=True)
    await asyncio.Event().wait()


async def main(path: str, seed: int, mode: str = "run") -> None:
    rng = random.Random(seed)
    store = await SqliteStore.open(path)
    referee = Referee(store, render=False)
    people = {ALICE.id: ALICE, BOB.id: BOB}
    acks = 0
    while True:
        reply = await referee.board(TABLE)  # completes a roll announced before a crash
        if not reply.ok or reply.finished:
            await referee.challenge(TABLE, ALICE, "atmalof", opponent=BOB, starter="me")
            reply = await referee.accept(TABLE, BOB)  # or the challenge left by a killed run
        mover = people[reply.to_move]
        if mode == "challenged" and acks >= 2:
            await referee.resign(TABLE, mover)
            made = await referee.challenge(TABLE, ALICE, "atmalof", opponent=BOB, starter="me")
            await wait_to_be_killed(f"CHALLENGED {made.challenge_id}")
        moves = await referee.legal_for(TABLE, mover)
        reply = await referee.act(TABLE, mover, rng.choice(moves))
        if reply.ok and reply.pending_roll:
            if mode == "announced":
                await wait_to_be_killed(f"ANNOUNCED {reply.game_id}")
            print(f"ANNOUNCED {reply.game_id}", flush=True)
            reply = await referee.roll_pending(TABLE)
        if reply.ok:
            g = await store.game(reply.game_id)
            # the move's own row: a game-ending move is followed in the chain by the ending's
            # event, so the game's head (last_hash) is then not a move's hash
            digest = await store.live_hash(g.id, g.seq)
            print(f"ACK {g.id} {g.seq} {digest}", flush=True)
            acks += 1


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), *sys.argv[3:4]))
