"""Fixtures for the referee tests: a real SQLite file, a hand-moved clock, named players."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, ButtonKind, Reply, Where
from bot.store import SqliteStore, Store

ALICE = Actor(101, "alice")
BOB = Actor(202, "bob")
CAROL = Actor(303, "carol")
MOD = Actor(909, "mod", is_moderator=True)
HERE = Where(guild_id=1, channel_id=10)
THERE = Where(guild_id=1, channel_id=11)


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "referee.db")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def store(db_path: str) -> AsyncIterator[Store]:
    s = await SqliteStore.open(db_path)
    yield s
    await s.close()


@pytest.fixture
def referee(store: Store, clock: ManualClock) -> Referee:
    return Referee(store, clock, render=False)


async def start(
    referee: Referee,
    game: str = "atmalof",
    where: Where = HERE,
    first: Actor = ALICE,
    second: Actor = BOB,
    **kwargs,
) -> Reply:
    """A game in ``where`` with ``first`` moving first; the accept reply."""
    made = await referee.challenge(where, first, game, opponent=second, starter="me", **kwargs)
    assert made.ok, made.text
    reply = await referee.accept(where, second)
    assert reply.ok, reply.text
    return reply


async def play(referee: Referee, where: Where, actor: Actor, text: str) -> Reply:
    """``act`` and, for an announced drop, the roll: the final reply. A drop into a full line
    is confirmed when the referee asks (as a random player would press Announce)."""
    reply = await referee.act(where, actor, text)
    if any(b.kind is ButtonKind.DROP_CONFIRM for b in reply.buttons):
        reply = await referee.act(where, actor, f"{text} confirm")
    if reply.ok and reply.pending_roll:
        reply = await referee.roll_pending(where)
    return reply


async def random_game(
    referee: Referee, where: Where, players: dict[int, Actor], seed: int, limit: int = 2000
) -> Reply:
    """Play random legal actions for whoever is to move until the game ends."""
    rng = random.Random(seed)
    reply = await referee.board(where)
    for _ in range(limit):
        if reply.finished:
            return reply
        mover = players[reply.mentions[0]]
        moves = await referee.legal_for(where, mover)
        assert moves, reply.text
        reply = await play(referee, where, mover, rng.choice(moves))
        assert reply.ok, reply.text
    raise AssertionError("the game did not end")
