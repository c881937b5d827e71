"""Double clicks at the referee (issue h37): a click whose answer another click already gave is
told what became of what it asked, by what the referee knows of the game (the drop is the move
after the question, the draw was agreed, the game ended, the rematch runs or was asked for),
never "moved on: try again"; and it changes nothing. A click that overtakes its double is made
exact by landing the double on another store just before the click writes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot.clock import ManualClock
from bot.i18n import reply_words
from bot.referee import Referee
from bot.referee.names import CONSOLE_BOT
from bot.referee.replies import ButtonKind, Reply
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, play, start
from tests.bot.test_messages import NARROW, fill_row_one
from tests.bot.test_offer_races import lose_the_next_race


def button(reply: Reply, kind: ButtonKind) -> str:
    (found,) = [b.custom_id for b in reply.buttons if b.kind is kind]
    return found


def refused(reply: Reply, reason: str, english: str | None = None) -> None:
    assert not reply.ok and reply.ephemeral, reply.text
    assert reply.reason == reason, (reply.reason, reply.text)
    if english is not None:
        assert reply.text == english
    for lang in ("hu", "eo", "is"):  # every language says it, in its own words
        assert reply_words(reply, lang) and reply_words(reply, lang) != reply.text


def the_twin_writes_first(store: Store, method: str, twin: Callable[[], Awaitable[Any]]) -> list:
    """Make the store's next ``method`` call lose a real race: just before it writes, ``twin``
    (the other click, through another referee on another store) lands."""
    real = getattr(store, method)
    landed: list[Any] = []

    async def racing(*args: Any, **kwargs: Any) -> Any:
        if not landed:
            landed.append(await twin())
        return await real(*args, **kwargs)

    setattr(store, method, racing)
    return landed


# --- Rematch -------------------------------------------------------------------------------


async def rematch_button(referee: Referee) -> str:
    ended = await referee.resign(HERE, ALICE)
    assert ended.ok
    return button(ended, ButtonKind.REMATCH)


async def test_rematch_clicked_again_asks_once_and_then_says_it_started(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    rematch = await rematch_button(referee)
    assert (await referee.press(HERE, ALICE, rematch, request_id="a-1")).ok
    refused(await referee.press(HERE, ALICE, rematch, request_id="a-2"), "rematch_asked")
    assert (await referee.press(HERE, BOB, rematch, request_id="b-1")).ok  # accepts alice's
    running = await store.active_game(HERE.channel_id)
    assert running is not None and running.rematch_of == 1
    started = (
        "the rematch has already started: Nine Men's Morris (bob vs alice) is being played here"
    )
    for who in (ALICE, BOB):
        refused(await referee.press(HERE, who, rematch), "rematch_started", started)
    assert await store.active_game(HERE.channel_id) == running


async def test_rematch_that_loses_the_race_to_its_double_says_what_the_double_did(
    referee: Referee, store: Store, other: Store, clock: ManualClock
) -> None:
    await start(referee, "morris")
    rematch = await rematch_button(referee)
    twin = Referee(other, clock, render=False)
    the_twin_writes_first(store, "create_challenge", lambda: twin.press(HERE, ALICE, rematch))
    refused(await referee.press(HERE, ALICE, rematch), "rematch_asked")
    (waiting,) = [await store.open_challenge(HERE.channel_id)]
    assert waiting is not None and waiting.rematch_of == 1 and waiting.challenger_id == ALICE.id


async def test_both_players_clicking_rematch_at_once_start_it(
    referee: Referee, store: Store, other: Store, clock: ManualClock
) -> None:
    await start(referee, "morris")
    rematch = await rematch_button(referee)
    twin = Referee(other, clock, render=False)
    landed = the_twin_writes_first(
        store, "create_challenge", lambda: twin.press(HERE, ALICE, rematch)
    )
    bobs = await referee.press(HERE, BOB, rematch)  # alice's request landed first: he accepts it
    assert bobs.ok and landed[0].ok
    running = await store.active_game(HERE.channel_id)
    assert running is not None and running.rematch_of == 1 and running.names == ("bob", "alice")


async def test_both_players_clicking_rematch_together_start_one_game(
    referee: Referee, store: Store
) -> None:
    await start(referee, "morris")
    rematch = await rematch_button(referee)
    both = await asyncio.gather(
        referee.press(HERE, ALICE, rematch, request_id="a"),
        referee.press(HERE, BOB, rematch, request_id="b"),
    )
    assert all(r.ok for r in both), [r.text for r in both]
    running = await store.active_game(HERE.channel_id)
    assert running is not None and running.rematch_of == 1


async def practice_rematch(referee: Referee) -> str:
    started = await referee.practice(HERE, ALICE, "morris", bot=CONSOLE_BOT, starter="me")
    assert started.ok, started.text
    return await rematch_button(referee)


async def test_a_practice_rematch_clicked_again_says_it_started(
    referee: Referee, store: Store
) -> None:
    rematch = await practice_rematch(referee)
    try:
        assert (await referee.press(HERE, ALICE, rematch, request_id="1")).ok
        running = await store.active_game(HERE.channel_id)
        again = await referee.press(HERE, ALICE, rematch, request_id="2")
        refused(again, "rematch_started")
        assert "Nine Men's Morris (bot vs alice) is being played" in again.text
        assert await store.active_game(HERE.channel_id) == running
    finally:
        await referee.close()


async def test_a_practice_rematch_that_loses_the_race_to_its_double_says_it_started(
    referee: Referee, store: Store, other: Store, clock: ManualClock
) -> None:
    rematch = await practice_rematch(referee)
    twin = Referee(other, clock, render=False)
    try:
        landed = the_twin_writes_first(
            store, "start_practice", lambda: twin.press(HERE, ALICE, rematch)
        )
        refused(await referee.press(HERE, ALICE, rematch), "rematch_started")
        assert landed[0].ok
        running = await store.active_game(HERE.channel_id)
        assert running is not None and running.rematch_of == 1
    finally:
        await referee.close()
        await twin.close()


# --- Accept draw ---------------------------------------------------------------------------


async def offered(referee: Referee) -> Reply:
    await start(referee, "morris")
    await play(referee, HERE, ALICE, "place d7")
    offer = await referee.offer_draw(HERE, ALICE)
    assert offer.ok
    return offer


async def test_accept_draw_clicked_again_is_told_the_draw_was_agreed(
    referee: Referee, store: Store
) -> None:
    offer = await offered(referee)
    accept = button(offer, ButtonKind.DRAW_ACCEPT)
    assert (await referee.press(HERE, BOB, accept, request_id="click-1")).ok
    ended = await store.game(1)
    again = await referee.press(HERE, BOB, accept, request_id="click-2")
    refused(again, "draw_agreed", "the draw was already agreed: the game has ended")
    declined = await referee.press(HERE, BOB, button(offer, ButtonKind.DRAW_DECLINE))
    refused(declined, "button_game_over", "that game has ended: a draw (agreed by both players)")
    assert await store.game(1) == ended


async def test_accept_draw_that_loses_the_race_to_its_double_is_told_the_draw_was_agreed(
    referee: Referee, store: Store, other: Store
) -> None:
    offer = await offered(referee)
    agreed = {
        "status": "finished",
        "winner": None,
        "termination": "agreement",
        "reason": "agreed by both players",
        "ended_at": 1.0,
        "draw_offer": None,
    }
    landed = lose_the_next_race(store, other, agreed)
    reply = await referee.press(HERE, BOB, button(offer, ButtonKind.DRAW_ACCEPT))
    refused(reply, "draw_agreed")
    assert await store.game(1) == landed[0]


async def test_accept_draw_after_a_resignation_says_how_the_game_ended(referee: Referee) -> None:
    offer = await offered(referee)
    assert (await referee.resign(HERE, ALICE)).ok
    reply = await referee.press(HERE, BOB, button(offer, ButtonKind.DRAW_ACCEPT))
    ended = "that game has ended: bob (Black) wins (alice (White) resigned)"
    refused(reply, "button_game_over", ended)


# --- a drop's Announce ---------------------------------------------------------------------


async def test_announce_clicked_again_is_told_the_drop_was_announced(
    referee: Referee, store: Store
) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, asked = await fill_row_one(referee)
    confirm, cancel = button(asked, ButtonKind.DROP_CONFIRM), button(asked, ButtonKind.DROP_CANCEL)
    assert (await referee.press(HERE, mover, confirm, request_id="click-1")).pending_roll
    announced = await store.game(asked.game_id)
    waiting = await referee.press(HERE, mover, confirm, request_id="click-2")  # before the roll
    refused(waiting, "drop_announced", "you have already announced row 1")
    assert await store.game(asked.game_id) == announced  # not even the waiting roll was made
    assert (await referee.roll_pending(HERE)).ok
    rolled = await store.game(asked.game_id)
    for clicked in (confirm, cancel):
        refused(await referee.press(HERE, mover, clicked), "drop_announced")
    assert await store.game(asked.game_id) == rolled


async def test_announce_that_loses_the_race_to_its_double_is_told_it_was_announced(
    referee: Referee, store: Store, other: Store
) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, asked = await fill_row_one(referee)
    g = await store.game(asked.game_id)
    seat = g.seat_of(mover.id)
    landed = lose_the_next_race(
        store, other, {"pending": "drop row 1", "pending_seat": seat, "pending_at": 1.0}
    )
    reply = await referee.press(HERE, mover, button(asked, ButtonKind.DROP_CONFIRM))
    refused(reply, "drop_announced")
    assert await store.game(g.id) == landed[0]  # the double's announcement, nothing more


async def test_announce_after_the_game_moved_on_otherwise_still_says_so(referee: Referee) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, asked = await fill_row_one(referee)
    assert (await referee.offer_draw(HERE, mover)).ok  # a change, but no drop
    refused(await referee.press(HERE, mover, button(asked, ButtonKind.DROP_CONFIRM)), "moved_on")


async def test_an_announce_button_from_before_the_move_count_says_moved_on(
    referee: Referee,
) -> None:
    await start(referee, "atmalof", variant="custom", options=NARROW)
    mover, asked = await fill_row_one(referee)
    confirm = button(asked, ButtonKind.DROP_CONFIRM)
    old = confirm.rsplit(":", 1)[0]  # ref:drop-confirm:<game>:<version>:row1, as buttons were
    assert (await referee.press(HERE, mover, old)).pending_roll  # it still works
    refused(await referee.press(HERE, mover, old), "moved_on")  # but cannot tell it was made
    refused(await referee.press(HERE, mover, confirm), "drop_announced")
