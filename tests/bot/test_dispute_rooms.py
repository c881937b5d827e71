"""Dispute rooms (migration 10), on SQLite and PostgreSQL: the store notes which private room
(a thread) a dispute of which game opened."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.referee import Referee
from bot.store import Store
from tests.bot.conftest import THERE, rows, start

ROOM = 1_100_000_000_000_000_555  # Discord-sized: BIGINT on PostgreSQL
ROOM_TOO = ROOM + 1


async def test_a_room_finds_the_game_it_was_opened_for(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris")
    await start(referee, "morris", where=THERE)
    await store.open_room(ROOM, 1, clock.now())
    await store.open_room(ROOM_TOO, 1, clock.now())  # disputed twice: two rooms
    await store.open_room(ROOM + 2, 2, clock.now())
    await store.open_room(ROOM, 2, clock.now() + 5)  # a room never moves to another game
    found = [await store.room_game(r) for r in (ROOM, ROOM_TOO, ROOM + 2, ROOM + 3)]
    assert [g.id if g else None for g in found] == [1, 1, 2, None]
    assert found[0] == await store.game(1)  # the whole row, names included
    async with store.reading() as rx:  # a read of a unit of work, as every read
        assert (await rx.room_game(ROOM_TOO)) == found[1]
    kept = await rows(store, "SELECT game_id, opened_at FROM dispute_rooms WHERE room_id = ?", ROOM)
    assert kept == [(1, clock.now())]


async def test_a_room_is_noted_in_its_own_transaction_or_not_at_all(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    await start(referee, "morris")
    try:
        async with store.transaction("a room, then a failure") as tx:
            await tx.open_room(ROOM, 1, clock.now())
            raise RuntimeError("after the room")
    except RuntimeError:
        pass
    assert await store.room_game(ROOM) is None
