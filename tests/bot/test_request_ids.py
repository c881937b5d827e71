"""Request ids: a double click or a redelivered interaction repeats a command with the same id;
the referee answers the repeat with the first answer's text and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.replies import ButtonKind, Reply
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, play, start

Call = Callable[[Referee, str], Awaitable[Reply]]


async def snapshot(store: Store) -> tuple[Any, ...]:
    """What a repeat must not change: the channel's latest game and its waiting challenge."""
    g = await store.latest_game(HERE.channel_id)
    c = await store.open_challenge(HERE.channel_id)
    game = None if g is None else (g.id, g.version, g.status, g.links, g.seq)
    return game, None if c is None else (c.id, c.status)


async def a_game(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "morris")


async def a_placed_man(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")


async def a_draw_offer(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "morris")
    await referee.offer_draw(HERE, ALICE)


async def a_takeback_request(referee: Referee, clock: ManualClock) -> None:
    await a_placed_man(referee, clock)
    await referee.request_takeback(HERE, ALICE)


async def a_fallen_flag(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "morris", clock="10+0")
    clock.advance(601)


async def a_challenge(referee: Referee, clock: ManualClock) -> None:
    assert (await referee.challenge(HERE, ALICE, "morris", opponent=BOB)).ok


async def a_finished_game(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "morris")
    await referee.resign(HERE, BOB)


async def a_draw_offer_button(referee: Referee, clock: ManualClock) -> None:
    await start(referee, "morris")
    offer = await referee.offer_draw(HERE, ALICE)
    (accept,) = [b for b in offer.buttons if b.kind is ButtonKind.DRAW_ACCEPT]
    BUTTONS["draw accept"] = accept.custom_id


BUTTONS: dict[str, str] = {}


CASES: dict[str, tuple[Callable[..., Awaitable[None]], Call]] = {
    "resign": (a_game, lambda r, rid: r.resign(HERE, ALICE, request_id=rid)),
    "offer draw": (a_game, lambda r, rid: r.offer_draw(HERE, ALICE, request_id=rid)),
    "accept draw": (a_draw_offer, lambda r, rid: r.answer_draw(HERE, BOB, True, request_id=rid)),
    "decline draw": (
        a_draw_offer,
        lambda r, rid: r.answer_draw(HERE, BOB, False, request_id=rid),
    ),
    "ask takeback": (a_placed_man, lambda r, rid: r.request_takeback(HERE, ALICE, request_id=rid)),
    "allow takeback": (
        a_takeback_request,
        lambda r, rid: r.answer_takeback(HERE, BOB, True, request_id=rid),
    ),
    "refuse takeback": (
        a_takeback_request,
        lambda r, rid: r.answer_takeback(HERE, BOB, False, request_id=rid),
    ),
    "abort": (a_game, lambda r, rid: r.abort(HERE, ALICE, request_id=rid)),
    "claim": (a_fallen_flag, lambda r, rid: r.claim(HERE, BOB, request_id=rid)),
    "accept challenge": (a_challenge, lambda r, rid: r.accept(HERE, BOB, request_id=rid)),
    "decline challenge": (a_challenge, lambda r, rid: r.decline(HERE, BOB, request_id=rid)),
    "rematch": (a_finished_game, lambda r, rid: r.rematch(HERE, ALICE, request_id=rid)),
    "press": (
        a_draw_offer_button,
        lambda r, rid: r.press(HERE, BOB, BUTTONS["draw accept"], request_id=rid),
    ),
}


@pytest.mark.parametrize("name", list(CASES))
async def test_a_repeated_request_is_answered_once_and_changes_nothing(
    referee: Referee, store: Store, clock: ManualClock, name: str
) -> None:
    setup, call = CASES[name]
    await setup(referee, clock)
    first = await call(referee, "interaction-1")
    assert first.ok, first.text
    after = await snapshot(store)
    again = await call(referee, "interaction-1")
    assert (again.text, again.ok) == (first.text, True)
    assert await snapshot(store) == after
    # the repeat is said in its reader's language, as the first answer was, not in its English
    assert reply_words(again, "hu") == reply_words(first, "hu") != reply_words(first, "en")


async def test_another_request_id_is_a_new_command(referee: Referee) -> None:
    await start(referee, "morris")
    assert (await referee.offer_draw(HERE, ALICE, request_id="a")).ok
    second = await referee.offer_draw(HERE, ALICE, request_id="b")
    assert not second.ok and second.text == "you have already offered a draw"


async def test_a_refusal_is_not_kept_for_the_id(referee: Referee) -> None:
    await start(referee, "morris")
    early = await referee.abort(HERE, BOB, request_id="c")  # fine: nobody has moved
    assert early.ok
    refused = await referee.resign(HERE, ALICE, request_id="d")  # the game is over
    assert not refused.ok
    assert (await referee.store.request_reply("d")) is None


async def test_twins_in_flight_at_once_end_the_game_once(referee: Referee, store: Store) -> None:
    await start(referee, "morris")
    one, two = await asyncio.gather(
        referee.resign(HERE, ALICE, request_id="twin"),
        referee.resign(HERE, ALICE, request_id="twin"),
    )
    assert one.ok and two.ok
    assert one.text in two.text or two.text in one.text
    g = await store.latest_game(HERE.channel_id)
    assert [e.kind for e in await store.events(g.id)].count("resign") == 1


async def test_a_twin_in_flight_of_an_abort_says_who_aborted(referee: Referee) -> None:
    """The answer a twin finds while the first is under way (written with the change) says the
    result as the first answer does: who aborted, in every language."""
    await start(referee, "morris")
    one, two = await asyncio.gather(
        referee.abort(HERE, ALICE, request_id="twin"),
        referee.abort(HERE, ALICE, request_id="twin"),
    )
    for reply in (one, two):
        said = reply_words(reply, "hu")
        assert "alice megszakította, mielőtt mindketten léptek volna" in said, said
