"""Dispute rooms (migration 10), on SQLite and PostgreSQL: the store notes which private room
(a thread) a dispute of which game opened, and the referee's commands in that thread read and
decide that game, not the one its channel plays next."""

from __future__ import annotations

from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Where
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, MOD, THERE, play, rows, start

ROOM = 1_100_000_000_000_000_555  # Discord-sized: BIGINT on PostgreSQL
ROOM_TOO = ROOM + 1
IN_ROOM = Where(HERE.guild_id, ROOM, parent_id=HERE.channel_id)


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


async def test_the_referee_notes_a_room_only_for_this_channels_game(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    for where, game_id in ((THERE, 1), (HERE, 99), (Where(2, HERE.channel_id), 1)):
        refused = await referee.dispute_room(where, game_id, ROOM)
        assert not refused.ok and refused.reason == "no_game", (where, game_id)
    assert await store.room_game(ROOM) is None
    noted = await referee.dispute_room(HERE, 1, ROOM)
    assert noted.ok and noted.game_id == 1 and noted.text == ""  # nothing to say to anyone
    assert (await store.room_game(ROOM)).id == 1


async def test_the_room_reads_and_decides_its_game_after_the_channel_moves_on(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")  # game 1
    await play(referee, HERE, ALICE, "place a1")
    assert (await referee.dispute(HERE, BOB, "lag")).ok
    assert (await referee.dispute_room(HERE, 1, ROOM)).ok
    assert (await referee.award(IN_ROOM, MOD, BOB, "x")).ok
    await start(referee, "morris")  # game 2 in the same channel, disputed in turn
    await play(referee, HERE, ALICE, "place g7")
    assert (await referee.dispute(HERE, ALICE, "stalling")).ok
    second = await store.game(2)
    assert second.status == "active" and second.frozen_at is not None

    assert (await referee.board(IN_ROOM)).game_id == 1
    history = await referee.history(IN_ROOM)
    assert history.game_id == 1 and "place a1" in history.text and "g7" not in history.text
    assert (await referee.record(IN_ROOM)).file_name == "game-1.json"
    assert (await referee.verify(IN_ROOM)).game_id == 1
    for decided in (
        referee.void(IN_ROOM, MOD, "x"),
        referee.resume(IN_ROOM, MOD),
        referee.award(IN_ROOM, MOD, ALICE, "x"),
        referee.moderator_abort(IN_ROOM, MOD, "x"),
    ):
        refused = await decided
        assert not refused.ok and refused.reason == "moderation_game_over"
        assert refused.game_id == 1
    assert not (await play(referee, IN_ROOM, ALICE, "place a7")).ok  # no game of its own
    assert await store.game(2) == second  # the room left game 2 as it was

    unnoted = Where(HERE.guild_id, ROOM_TOO, parent_id=HERE.channel_id)  # as before rooms
    assert (await referee.board(unnoted)).game_id == 2
    assert (await referee.resume(unnoted, MOD)).ok  # its channel's frozen game
