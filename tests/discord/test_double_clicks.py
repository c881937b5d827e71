"""Double clicks (issue h37): two clicks on one button, racing as a real double click does, or a
click on a button whose answer already landed. One lands; the other is told privately what
became of what it asked (the rematch runs, the draw was agreed, the drop was announced), never
that the game "moved on" and to try again, and changes nothing."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from tests.discord.conftest import ALICE, BOB, running
from tests.discord.harness import Call, Exchange, Harness, Person
from tests.discord.play import button, message_with_buttons, start_game

PLAYERS = (ALICE, BOB)
NARROW = "rows=5 cols=3 beyond_rows=0 beyond_cols=0 pieces=6 line=4"
TALL = "rows=5 cols=3 beyond_rows=0 beyond_cols=0 pieces=6 line=5"  # lines only down a column
MOVED_ON = "moved on"
WINDOW = 3.0  # seconds Discord waits for the first answer to an interaction


@pytest.fixture
async def practice_bot(db_path: Path, clock: ManualClock) -> AsyncIterator[Harness]:
    async for h in running(db_path, clock, practice_nodes=40):
        yield h


def stale(call: Call) -> dict[str, Any]:
    """The message as the clicker's screen still shows it: its buttons, however the bot edits
    it meanwhile."""
    assert call.message is not None
    return copy.deepcopy(call.message)


async def race(
    h: Harness, first: Person, second: Person, message: dict, custom_id: str
) -> tuple[Exchange, Exchange]:
    """Two clicks at once; (the one that landed, the one refused)."""
    one, two = await asyncio.gather(
        h.click(first, message, custom_id), h.click(second, message, custom_id)
    )
    landed = [e for e in (one, two) if not e.all_ephemeral]
    refused = [e for e in (one, two) if e.all_ephemeral]
    assert len(landed) == 1 and len(refused) == 1, [one.text, two.text]
    return landed[0], refused[0]


def assert_refused(exchange: Exchange, says: str) -> None:
    """A private answer, in time, that says ``says`` and retires no button."""
    assert exchange.first.response_type == 4 and exchange.first.ephemeral, exchange.text
    assert exchange.latency < WINDOW
    assert all(c.response_type != 7 for c in exchange.calls)  # the message was not edited
    assert says in exchange.text, exchange.text
    assert MOVED_ON not in exchange.text and "try again" not in exchange.text


async def test_a_double_click_on_rematch_after_practice_says_the_rematch_has_started(
    practice_bot: Harness,
) -> None:
    h = practice_bot
    await h.slash(ALICE, "practice", game="morris", level=1, starter="me")
    ended = message_with_buttons(await h.slash(ALICE, "resign"))
    old, rematch = stale(ended), button(ended, "rematch")
    landed, refused = await race(h, ALICE, ALICE, old, rematch)
    assert "Practice: Alice plays the bot" in landed.text
    assert_refused(refused, "the rematch has already started")
    assert "Nine Men's Morris (Referee vs Alice)" in refused.text
    later = await h.click(ALICE, old, rematch)  # the old message still shows the button
    assert_refused(later, "the rematch has already started")
    assert "thinking" not in (await h.slash(ALICE, "board")).text  # still one game: game 2
    assert "game 2" in (await h.slash(ALICE, "board")).text


async def test_a_double_click_on_rematch_between_people_asks_once(harness: Harness) -> None:
    h = harness
    await start_game(h, ALICE, BOB, "morris")
    ended = message_with_buttons(await h.slash(ALICE, "resign"))
    old, rematch = stale(ended), button(ended, "rematch")
    landed, refused = await race(h, ALICE, ALICE, old, rematch)
    assert "challenges Bob" in landed.text
    assert_refused(refused, "you already asked for a rematch")
    accepted, refused = await race(h, BOB, BOB, old, rematch)  # Bob accepts, twice at once
    assert "Bob (White) vs Alice (Black)" in accepted.text
    assert_refused(refused, "the rematch has already started")
    for person in PLAYERS:
        assert_refused(await h.click(person, old, rematch), "the rematch has already started")


async def test_both_players_clicking_rematch_at_once_start_it(harness: Harness) -> None:
    h = harness
    await start_game(h, ALICE, BOB, "morris")
    ended = message_with_buttons(await h.slash(ALICE, "resign"))
    old, rematch = stale(ended), button(ended, "rematch")
    one, two = await asyncio.gather(h.click(ALICE, old, rematch), h.click(BOB, old, rematch))
    # whoever came second accepts the first one's request: the rematch starts at once
    assert not one.all_ephemeral and not two.all_ephemeral, [one.text, two.text]
    started = one if "vs" in one.text else two
    assert "Bob (White) vs Alice (Black)" in started.text
    for person in PLAYERS:
        assert_refused(await h.click(person, old, rematch), "the rematch has already started")


async def test_a_double_click_on_accept_draw_says_the_draw_was_agreed(harness: Harness) -> None:
    h = harness
    await start_game(h, ALICE, BOB, "morris")
    await h.slash(ALICE, "place", point="d7")
    offer = message_with_buttons(await h.slash(ALICE, "draw offer"))
    old, accept = stale(offer), button(offer, "draw-accept")
    landed, refused = await race(h, BOB, BOB, old, accept)
    assert "a draw (agreed by both players)" in landed.text
    assert_refused(refused, "the draw was already agreed")
    assert_refused(await h.click(BOB, old, accept), "the draw was already agreed")
    declined = await h.click(BOB, old, button(offer, "draw-decline"))
    assert_refused(declined, "that game has ended: a draw (agreed by both players)")


@pytest.mark.parametrize(("offer", "kind", "says"), [
    ("draw offer", "draw-decline", "there is no draw offer for you to answer"),
    ("takeback request", "takeback-accept", "there is no takeback request for you to answer"),
    ("takeback request", "takeback-decline", "there is no takeback request for you to answer"),
])  # fmt: skip
async def test_a_double_click_on_an_offers_button_says_nothing_waits(
    harness: Harness, offer: str, kind: str, says: str
) -> None:
    """The game goes on after a declined draw or a takeback answered, so the second click
    was told the game "moved on: try again"; now it hears that no question waits for it."""
    h = harness
    await start_game(h, ALICE, BOB, "morris")
    await h.slash(ALICE, "place", point="d7")
    asked = message_with_buttons(await h.slash(ALICE, offer))
    old, clicked = stale(asked), button(asked, kind)
    landed, refused = await race(h, BOB, BOB, old, clicked)
    assert not landed.all_ephemeral, landed.text
    assert_refused(refused, says)
    assert_refused(await h.click(BOB, old, clicked), says)  # a late click, the same


@pytest.mark.parametrize(("kind", "became"), [("accept", "accepted"), ("decline", "declined")])
async def test_a_double_click_on_a_challenge_says_what_became_of_it(
    harness: Harness, kind: str, became: str
) -> None:
    """The click that lost the race said only "already answered" while a later click said
    what happened; both say it now, in the reader's language."""
    h = harness
    posted = await h.slash(ALICE, "challenge", game="morris", opponent=BOB, starter="me")
    challenge = message_with_buttons(posted)
    old, clicked = stale(challenge), button(challenge, kind)
    landed, refused = await race(h, BOB, BOB, old, clicked)
    assert not landed.all_ephemeral, landed.text
    assert_refused(refused, f"that challenge was already {became}")
    assert_refused(await h.click(BOB, old, clicked), f"that challenge was already {became}")
    hu = await h.click(BOB, old, clicked, locale="hu")
    status = {"accepted": "elfogadták", "declined": "elutasították"}[became]
    assert_refused(hu, f"ez a kihívás már lezárult: {status}")


async def hopeless_drop(h: Harness) -> tuple[Person, Call]:
    """Both players drop into row 1 until it is full; (the mover, the question to confirm)."""
    for turn in range(60):
        mover = PLAYERS[turn % 2]
        dropped = await h.slash(mover, "drop row", k=1)
        if dropped.all_ephemeral:
            return mover, message_with_buttons(dropped)
    raise AssertionError("row 1 never filled")


async def test_a_double_click_on_announce_says_it_was_announced(harness: Harness) -> None:
    h = harness
    await start_game(h, ALICE, BOB, "atmalof", variant="custom", options=NARROW)
    mover, question = await hopeless_drop(h)
    old, confirm = stale(question), button(question, "drop-confirm")
    landed, refused = await race(h, mover, mover, old, confirm)
    assert "announces row 1" in landed.text and "loses the turn" in landed.text
    assert_refused(refused, "you have already announced row 1")
    later = await h.click(mover, old, confirm)
    assert_refused(later, "you have already announced row 1")
    cancelled = await h.click(mover, old, button(question, "drop-cancel"))
    assert_refused(cancelled, "you have already announced row 1")
    other = PLAYERS[1 - PLAYERS.index(mover)]
    assert not (await h.slash(other, "drop row", k=2)).all_ephemeral  # the game goes on


async def test_a_double_click_on_announce_in_practice_waits_for_no_retry(
    practice_bot: Harness,
) -> None:
    h = practice_bot
    question = None
    for _ in range(5):  # the bot may make its line first (then another game)
        await h.slash(ALICE, "practice", game="atmalof", variant="custom", options=TALL,
                      level=1, starter="me")  # fmt: skip
        for _ in range(20):
            dropped = await h.slash(ALICE, "drop row", k=1)
            if dropped.all_ephemeral:
                break
        if any(c.custom_ids for c in dropped.messages):
            question = message_with_buttons(dropped)
            break
        await h.slash(ALICE, "resign")
    assert question is not None, "row 1 never filled"
    old, confirm = stale(question), button(question, "drop-confirm")
    landed, refused = await race(h, ALICE, ALICE, old, confirm)
    assert "announces row 1" in landed.text  # then the bot's answer, in the same exchange
    assert_refused(refused, "you have already announced row 1")
    assert_refused(await h.click(ALICE, old, confirm), "you have already announced row 1")
