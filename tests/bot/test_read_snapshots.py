"""Reads of a game see one snapshot: a takeback (and a new move) landing between the read of
the game's row and the read of its moves cannot make /board, autocomplete or a move raise or
call the game broken (issue 14: 50 of 1,962 racing reads did, when they were two reads)."""

from __future__ import annotations

from typing import Any

from bot.clock import ManualClock
from bot.referee import Referee
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, play, start


class Interleaved:
    """The reading referee's store: right after it reads the channel's game, ``between`` runs
    once (another command landing), then the reads go on."""

    def __init__(self, store: Store, between: Any) -> None:
        self._store = store
        self._between = between

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def _after(self, row: Any) -> Any:
        if self._between is not None:
            between, self._between = self._between, None
            await between()
        return row

    async def latest_game(self, channel_id: int) -> Any:
        return await self._after(await self._store.latest_game(channel_id))

    async def active_game(self, channel_id: int) -> Any:
        return await self._after(await self._store.active_game(channel_id))


async def four_moves_then_a_takeback_lands(referee: Referee) -> Any:
    """Alice and Bob play four moves; the returned step takes back the last two (Alice asks,
    Bob agrees) and Alice plays on g7, the square Bob's taken-back move was on."""
    await start(referee, "morris")
    for mover, point in ((ALICE, "d7"), (BOB, "d1"), (ALICE, "a7"), (BOB, "g7")):
        assert (await play(referee, HERE, mover, f"place {point}")).ok

    async def step() -> None:
        asked = await referee.request_takeback(HERE, ALICE)
        assert asked.ok, asked.text
        agreed = await referee.answer_takeback(HERE, BOB, True)
        assert agreed.ok, agreed.text
        assert (await play(referee, HERE, ALICE, "place g7")).ok

    return step


async def test_board_read_across_a_takeback_is_one_snapshot(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    step = await four_moves_then_a_takeback_lands(referee)
    reader = Referee(Interleaved(store, step), clock, render=False)  # type: ignore[arg-type]
    shown = await reader.board(HERE)
    assert shown.ok, shown.text
    assert (await referee.board(HERE)).ok


async def test_autocomplete_read_across_a_takeback_is_one_snapshot(
    referee: Referee, store: Store, clock: ManualClock
) -> None:
    step = await four_moves_then_a_takeback_lands(referee)
    reader = Referee(Interleaved(store, step), clock, render=False)  # type: ignore[arg-type]
    offered = await reader.legal_for(HERE, BOB)  # Bob is to move after the takeback and g7
    assert offered and "place g7" not in offered  # the live line's moves, not a broken game
