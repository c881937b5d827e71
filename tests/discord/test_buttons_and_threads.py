"""Buttons (accept, decline, draw answers, stale and third-party clicks), autocomplete, threads,
and a restart in the middle of a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import ManualClock
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR, start_bot
from tests.discord.harness import CHANNEL_ID, Call, Harness
from tests.discord.play import (
    assert_move_reply,
    button,
    message_with_buttons,
    play_out,
    start_game,
)
from translations import words

PLAYERS = (ALICE, BOB)


async def test_decline_closes_the_challenge(harness: Harness) -> None:
    posted = await harness.slash(ALICE, "challenge", game="abalone", opponent=BOB)
    challenge = message_with_buttons(posted)
    declined = await harness.click(BOB, challenge.message, button(challenge, "decline"))
    assert not declined.first.ephemeral
    assert declined.first.response_type == 7
    again = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    assert again.all_ephemeral  # the challenge is gone: a polite private no
    assert (await harness.slash(ALICE, "board")).all_ephemeral


def labels(call: Call) -> list[str]:
    return [
        comp.get("label") or ""
        for row in call.data.get("components") or []
        for comp in row.get("components") or []
    ]


@pytest.mark.parametrize(
    ("lang", "label", "withdrawn", "open_withdrawn"),
    [
        (
            "en",
            "Decline / Withdraw",
            "Alice withdrew their challenge to Bob.",
            "Alice withdrew their open challenge.",
        ),
        (
            "eo",
            "Rifuzi / Nuligi",
            "Alice nuligis sian defion al Bob.",
            "Alice nuligis sian malferman defion.",
        ),
        (
            "hu",
            "Elutasítás / Visszavonás",
            "Alice visszavonta a kihívását (ellenfél: Bob).",
            "Alice visszavonta a nyílt kihívását.",
        ),
        (
            "is",
            "Hafna / Draga til baka",
            "Alice dró áskorun sína til baka (andstæðingur: Bob).",
            "Alice dró opna áskorun sína til baka.",
        ),
    ],
)
async def test_the_challenger_withdraws_with_the_same_button_and_reads_it(
    harness: Harness, lang: str, label: str, withdrawn: str, open_withdrawn: str
) -> None:
    """The challenge's second button declines for the challenged and withdraws for the
    challenger: its label says both, and the challenger's press is said as a withdrawal to
    whom, in public, where it said "Alice withdrew the challenge." (and the button read only
    "Decline", which the challenger had no reason to press)."""
    if lang != "en":
        await harness.slash(MODERATOR, "referee settings", language=lang)
        await harness.slash(ALICE, "language", language=lang)  # her private replies too
    posted = await harness.slash(ALICE, "challenge", game="abalone", opponent=BOB)
    challenge = message_with_buttons(posted)
    assert labels(challenge) == [words(lang).t("button.accept"), label]
    own = await harness.click(ALICE, challenge.message, button(challenge, "accept"))
    assert own.all_ephemeral and label in own.text, own.text  # how to withdraw it instead
    left = await harness.click(ALICE, challenge.message, button(challenge, "decline"))
    assert left.first.response_type == 7  # the press edits the challenge: buttons retired
    assert not harness.messages[int(challenge.message["id"])].get("components")
    (said,) = [c for c in left.calls if c.kind == "followup"]
    assert not said.ephemeral and withdrawn in said.text, said.text
    assert (await harness.slash(BOB, "accept")).all_ephemeral  # nothing left to accept

    posted = await harness.slash(ALICE, "challenge", game="morris")  # open: anyone accepts
    challenge = message_with_buttons(posted)
    assert labels(challenge) == [words(lang).t("button.accept"), label]
    left = await harness.click(ALICE, challenge.message, button(challenge, "decline"))
    (said,) = [c for c in left.calls if c.kind == "followup"]
    assert not said.ephemeral and open_withdrawn in said.text, said.text


async def test_a_third_member_cannot_accept_a_challenge_meant_for_another(
    harness: Harness,
) -> None:
    posted = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB)
    challenge = message_with_buttons(posted)
    refused = await harness.click(CAROL, challenge.message, button(challenge, "accept"))
    assert refused.all_ephemeral and refused.first.response_type == 4
    assert harness.messages[int(challenge.message["id"])]["components"]  # buttons still there
    accepted = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    assert_move_reply(accepted, PLAYERS)


async def test_an_open_challenge_is_accepted_by_whoever_clicks(harness: Harness) -> None:
    posted = await harness.slash(ALICE, "challenge", game="atmalof", starter="them")
    challenge = message_with_buttons(posted)
    accepted = await harness.click(CAROL, challenge.message, button(challenge, "accept"))
    assert_move_reply(accepted, (ALICE, CAROL))
    # carol starts ("starter: them"), but she has just clicked: the answer does not ping her
    assert CAROL.mention not in accepted.last.content
    assert accepted.last.allowed_user_ids == set()


async def test_a_stale_button_is_refused_politely(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    offer = await harness.slash(ALICE, "draw offer")
    offer_message = message_with_buttons(offer)
    stale_id = button(offer_message, "draw-accept")
    await harness.slash(BOB, "place", point="a1")  # the receiver's move declines the offer
    stale = await harness.click(BOB, offer_message.message, stale_id)
    assert stale.all_ephemeral
    assert stale.text.strip()
    assert not (await harness.slash(ALICE, "place", point="g7")).all_ephemeral  # game goes on


async def test_a_draw_offer_accepted_by_button_ends_the_game(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "abalone")
    offer = message_with_buttons(await harness.slash(ALICE, "draw offer"))
    assert ALICE.mention not in offer.content or BOB.mention in offer.content
    refused = await harness.click(ALICE, offer.message, button(offer, "draw-accept"))
    assert refused.all_ephemeral  # one cannot accept one's own offer
    accepted = await harness.click(BOB, offer.message, button(offer, "draw-accept"))
    assert not accepted.first.ephemeral
    assert "draw" in accepted.text.lower()
    rematch = [c for c in accepted.messages if any(":rematch:" in i for i in c.custom_ids)]
    if rematch:
        again = await harness.click(BOB, rematch[0].message, button(rematch[0], "rematch"))
        assert not again.first.ephemeral, again.text


async def test_autocomplete_offers_the_movers_legal_actions_filtered(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    everything = await harness.autocomplete(ALICE, "play", "command")
    assert 0 < len(everything) <= 25
    rows = await harness.autocomplete(ALICE, "play", "command", command="drop row")
    assert rows and all(c["value"].startswith("drop row") for c in rows)
    # not bob's turn, nor carol's game: one choice says so (a move's list would be empty)
    turn = await harness.autocomplete(BOB, "play", "command")
    assert turn == [{"name": "Alice (Red) is to move", "value": "?"}], turn
    (stranger,) = await harness.autocomplete(CAROL, "play", "command")
    assert stranger["name"].startswith("You are not playing in this game (Alice"), stranger


async def test_autocomplete_fills_coordinates(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    points = await harness.autocomplete(ALICE, "place", "point", point="d")
    assert points and all(c["value"].startswith("d") for c in points)
    await start_game(harness, ALICE, BOB, "abalone", channel=7)
    marbles = await harness.autocomplete(ALICE, "push", "marbles", channel=7, marbles="a1")
    assert marbles and all(c["value"].startswith("a1") for c in marbles)
    variants = await harness.autocomplete(ALICE, "challenge", "variant", game="abalone")
    assert {"standard", "belgian-daisy", "german-daisy"} <= {c["value"] for c in variants}


async def test_a_game_in_its_own_thread(harness: Harness) -> None:
    posted = await harness.slash(
        ALICE, "challenge", game="atmalof", opponent=BOB, thread=True, starter="me"
    )
    created = [c for c in posted.calls if c.kind == "rest" and c.path.endswith("/threads")]
    assert len(created) == 1, [c.path for c in posted.calls]
    thread_id = int(created[0].message["id"])
    assert int(created[0].message["parent_id"]) == CHANNEL_ID
    sent = [c for c in posted.calls if c.kind == "rest" and c.path.endswith("/messages")]
    (challenge,) = sent
    assert int(challenge.message["channel_id"]) == thread_id
    assert BOB.mention in challenge.content and challenge.custom_ids
    (pointer,) = [c for c in posted.calls if c.kind == "callback"]
    assert f"<#{thread_id}>" in pointer.content and not pointer.ephemeral
    accepted = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    assert_move_reply(accepted, PLAYERS)
    # The parent channel is free for another game while the thread's game runs.
    await start_game(harness, CAROL, ALICE, "morris")
    moved = await harness.slash(ALICE, "drop row", channel=thread_id, k=2)
    assert not moved.first.ephemeral, moved.text
    assert (await harness.slash(CAROL, "place", point="d7")).first.ephemeral is False


async def test_a_restart_in_the_middle_of_a_game(db_path: Path, clock: ManualClock) -> None:
    first, store = await start_bot(db_path, clock)
    try:
        await start_game(first, ALICE, BOB, "morris")
        await first.slash(ALICE, "place", point="d7")
        offer = message_with_buttons(await first.slash(BOB, "draw offer"))
    finally:
        await first.close()
        await store.close()
    second, store = await start_bot(db_path, clock)
    try:
        board = await second.slash(CAROL, "board")
        assert_move_reply(board, PLAYERS)
        assert "d7" in board.text.lower() or board.files
        declined = await second.click(ALICE, offer.message, button(offer, "draw-decline"))
        assert not declined.first.ephemeral, declined.text  # a button from before the restart
        played = await play_out(second, PLAYERS)
        assert played.turns > 0
    finally:
        await second.close()
        await store.close()
