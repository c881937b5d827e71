"""Draw offers and takeback requests: offering back agrees, offering twice does not end the game,
and an answer or request that loses a race to another change is told the game has moved on
(and changes nothing)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot import texts
from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.replies import Reply
from bot.store import GameRow, Store, Transaction
from tests.bot.conftest import ALICE, BOB, HERE, play, start


def lose_the_next_race(store: Store, other: Store, changes: dict[str, Any]) -> list[GameRow]:
    """Make the store's next write transaction lose a real race: just before it begins,
    ``other`` lands ``changes`` on the channel's game (the loser still writes with the version
    it read)."""
    real = store.transaction
    landed: list[GameRow] = []

    @asynccontextmanager
    async def racing(what: str = "a write") -> AsyncIterator[Transaction]:
        if not landed:
            fresh = await other.latest_game(HERE.channel_id)
            assert fresh is not None
            async with other.transaction() as tx:
                landed.append(await tx.change_game(fresh, changes))
        async with real(what) as tx:
            yield tx

    store.transaction = racing  # type: ignore[method-assign]
    return landed


def assert_moved_on(reply: Reply) -> None:
    assert not reply.ok and reply.ephemeral
    assert reply.text == texts.MOVED_ON


async def test_offering_a_draw_back_agrees_it(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    assert (await referee.offer_draw(HERE, ALICE)).ok
    agreed = await referee.offer_draw(HERE, BOB)
    assert agreed.ok and agreed.finished
    g = await store.game(1)
    assert (g.status, g.winner, g.termination) == ("finished", None, "agreement")
    # It said only "a draw (agreed by both players)": that Bob took Alice's offer comes first.
    assert agreed.text.startswith("bob accepts alice's draw offer.\n"), agreed.text
    assert "agreed by both players" in agreed.text
    assert reply_words(agreed, "hu").startswith("bob elfogadja alice döntetlenajánlatát.\n")


async def test_offering_twice_does_not_end_the_game(referee: Referee, store: Store) -> None:
    # Kills: offer_draw taking its own earlier offer for the opponent's (== seat / != ...).
    await start(referee, "morris")
    offered = await referee.offer_draw(HERE, ALICE)
    assert offered.ok and offered.mentions == [BOB.id]
    before = await store.game(1)
    again = await referee.offer_draw(HERE, ALICE)
    assert not again.ok and again.ephemeral and not again.finished
    assert again.text == "you have already offered a draw"
    assert await store.game(1) == before  # still active, the one offer still Alice's
    assert before.status == "active" and before.draw_offer == 0


async def test_a_draw_decline_that_loses_a_race_is_told_the_game_moved_on(
    referee: Referee, store: Store, other: Store
) -> None:
    await start(referee, "morris")
    await referee.offer_draw(HERE, ALICE)
    landed = lose_the_next_race(store, other, {"updated_at": 5.0})
    reply = await referee.answer_draw(HERE, BOB, False)
    assert_moved_on(reply)
    assert await store.game(1) == landed[0]  # the offer stands: the decline did not land
    assert landed[0].draw_offer == 0


async def test_a_draw_offer_that_loses_a_race_is_told_the_game_moved_on(
    referee: Referee, store: Store, other: Store
) -> None:
    await start(referee, "morris")
    landed = lose_the_next_race(store, other, {"updated_at": 5.0})
    assert_moved_on(await referee.offer_draw(HERE, ALICE))
    assert (await store.game(1)).draw_offer is None
    assert await store.game(1) == landed[0]


async def test_a_takeback_request_that_loses_a_race_is_told_the_game_moved_on(
    referee: Referee, store: Store, other: Store
) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    landed = lose_the_next_race(store, other, {"updated_at": 5.0})
    assert_moved_on(await referee.request_takeback(HERE, ALICE))
    g = await store.game(1)
    assert g == landed[0] and g.takeback_offer is None


async def test_a_takeback_refusal_that_loses_a_race_is_told_the_game_moved_on(
    referee: Referee, store: Store, other: Store
) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    assert (await referee.request_takeback(HERE, ALICE)).ok
    landed = lose_the_next_race(store, other, {"updated_at": 5.0})
    assert_moved_on(await referee.answer_takeback(HERE, BOB, False))
    g = await store.game(1)
    assert g == landed[0] and g.takeback_offer == 0


async def test_a_takeback_acceptance_that_loses_a_race_is_told_the_game_moved_on(
    referee: Referee, store: Store, other: Store
) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    assert (await referee.request_takeback(HERE, ALICE)).ok
    landed = lose_the_next_race(store, other, {"updated_at": 5.0})
    assert_moved_on(await referee.answer_takeback(HERE, BOB, True))
    g = await store.game(1)
    assert g == landed[0] and g.seq == 1
    assert [a.action for a in await store.actions(1)] == ["place d7"]
