"""Draw offers through Discord: the receiver's move (or drop announcement) declines the offer
and the channel is told so in the server's language; the offerer's own move leaves the offer
standing, its Accept button still answers it, and the offerer is told it is their own."""

from __future__ import annotations

import pytest

from tests.discord.conftest import ALICE, BOB, MODERATOR
from tests.discord.harness import Harness
from tests.discord.play import button, message_with_buttons, start_game
from tests.languages import english_in
from translations import words


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
async def test_the_receivers_move_declines_the_offer_in_the_servers_language(
    harness: Harness, lang: str
) -> None:
    if lang != "en":
        set_to = await harness.slash(MODERATOR, "referee settings", language=lang)
        assert not set_to.all_ephemeral, set_to.text
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    offer = message_with_buttons(await harness.slash(ALICE, "draw offer"))  # on bob's turn
    moved = await harness.slash(BOB, "place", point="a1")
    assert not moved.first.ephemeral, moved.text
    declined = words(lang).t("notice.draw_declined_by_play", actor="Bob", other="Alice")
    assert declined in moved.text.splitlines(), moved.text
    if lang != "en":
        assert english_in(moved.text, lang) == [], moved.text
    no_offer = words("en").t("refusal.no_draw_offer")  # private: in bob's client's English
    late = await harness.click(BOB, offer.message, button(offer, "draw-accept"))
    assert late.all_ephemeral and late.text == no_offer, late.text
    refused = await harness.slash(BOB, "draw accept")
    assert refused.all_ephemeral and refused.text == no_offer, refused.text
    went_on = await harness.slash(ALICE, "place", point="g7")  # the game goes on, drawless
    assert not went_on.first.ephemeral and declined not in went_on.text, went_on.text


async def test_the_offerers_own_move_leaves_the_offer_for_the_opponent(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    offer = message_with_buttons(await harness.slash(ALICE, "draw offer"))  # on her own turn
    moved = await harness.slash(ALICE, "place", point="d7")
    assert not moved.first.ephemeral and "draw" not in moved.text.lower(), moved.text
    own = "that draw offer is your own: it stands until Bob answers it"
    for kind in ("draw-accept", "draw-decline"):
        clicked = await harness.click(ALICE, offer.message, button(offer, kind))
        assert clicked.all_ephemeral and clicked.text == own, clicked.text
    assert (await harness.slash(ALICE, "draw accept")).text == own
    accepted = await harness.click(BOB, offer.message, button(offer, "draw-accept"))
    assert not accepted.first.ephemeral, accepted.text
    assert "a draw (agreed by both players)" in accepted.text, accepted.text
    verified = await harness.slash(ALICE, "verify")
    assert "\nVerified: Nine Men's Morris, 1 action" in verified.text, verified.text
    assert "a draw (agreed by both players)" in verified.text, verified.text


async def test_a_drop_announced_instead_of_answering_declines_the_offer(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    await harness.slash(BOB, "draw offer")  # on alice's turn
    announced = await harness.slash(ALICE, "play", command="drop row 3")
    lines = announced.text.splitlines()
    said = "Alice declines Bob's draw offer by playing on."
    assert said in lines, announced.text
    assert lines.index(said) > next(i for i, x in enumerate(lines) if "announces row 3" in x)
    refused = await harness.slash(ALICE, "draw accept")
    assert refused.all_ephemeral and "no draw offer" in refused.text


async def test_draw_withdraw_takes_back_ones_own_offer(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    offer = message_with_buttons(await harness.slash(ALICE, "draw offer"))
    not_his = await harness.slash(BOB, "draw withdraw")
    assert not_his.all_ephemeral and not_his.text == words("en").t("refusal.no_own_draw_offer")
    gone = await harness.slash(ALICE, "draw withdraw")
    assert (
        not gone.first.ephemeral
        and gone.text.splitlines()[0] == "Alice withdraws the draw offer to Bob."
    ), gone.text
    late = await harness.click(BOB, offer.message, button(offer, "draw-accept"))
    assert late.all_ephemeral and late.text == words("en").t("refusal.no_draw_offer"), late.text
    assert not (await harness.slash(ALICE, "place", point="d7")).first.ephemeral


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "Bob accepts Alice's draw offer."), ("hu", "Bob elfogadja Alice döntetlenajánlatát.")],
)
async def test_offering_a_draw_back_says_it_accepts_the_offer_waiting(
    harness: Harness, lang: str, said: str
) -> None:
    """/draw offer while the opponent's offer stands ended the game as "a draw (agreed by both
    players)" without saying there had been an offer to accept."""
    await harness.slash(MODERATOR, "referee settings", language=lang)  # a public reply's
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "draw offer")
    agreed = await harness.slash(BOB, "draw offer")
    assert not agreed.first.ephemeral, agreed.text
    assert agreed.first.content == ALICE.mention  # the draw is news to her, who offered it
    assert agreed.text.removeprefix(f"{ALICE.mention}\n").startswith(said), agreed.text


async def test_a_takeback_requests_own_buttons_tell_its_asker_it_waits(harness: Harness) -> None:
    """Alice clicking Allow or Refuse on her own takeback request (or typing /takeback accept)
    heard "there is no takeback request for you to answer", while one stood on the screen:
    as with her own draw offer, she is told it is hers and whom it waits for."""
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    asked = message_with_buttons(await harness.slash(ALICE, "takeback request"))
    own = "that takeback request is your own: it waits for Bob to allow or refuse it"
    for kind in ("takeback-accept", "takeback-decline"):
        clicked = await harness.click(ALICE, asked.message, button(asked, kind))
        assert clicked.all_ephemeral and clicked.text == own, clicked.text
    for path in ("takeback accept", "takeback decline"):
        typed = await harness.slash(ALICE, path)
        assert typed.all_ephemeral and typed.text == own, typed.text
    allowed = await harness.click(BOB, asked.message, button(asked, "takeback-accept"))
    assert not allowed.first.ephemeral and "d7" in allowed.text, allowed.text


@pytest.mark.parametrize("lang", ["en", "is"])
async def test_a_declined_draw_says_whose_turn_it_is_as_a_move_does(
    harness: Harness, lang: str
) -> None:
    """ "Bob declines the draw." alone left both players asking who was to move: the reply
    names the side to move in the words a move's reply and /board use, whoever's turn the
    offer came on, typed or by the button."""
    await harness.slash(MODERATOR, "referee settings", language=lang)
    await start_game(harness, ALICE, BOB, "morris")
    moved = await harness.slash(ALICE, "place", point="d7")
    bobs_turn = moved.text.splitlines()[-2]  # above the footer ("game 1 · log #...")
    assert "Bob" in bobs_turn and "Alice" not in bobs_turn, moved.text
    await harness.slash(ALICE, "draw offer")  # on bob's turn
    declined = await harness.slash(BOB, "draw decline")
    said = words(lang).t("notice.draw_declined", actor="Bob")
    assert not declined.first.ephemeral, declined.text
    assert declined.text.splitlines()[:2] == [said, bobs_turn], declined.text
    await harness.slash(BOB, "place", point="a1")
    offered = message_with_buttons(await harness.slash(BOB, "draw offer"))  # on alice's turn
    by_button = await harness.click(ALICE, offered.message, button(offered, "draw-decline"))
    alices_turn = (await harness.slash(ALICE, "board")).text.splitlines()[-2]
    assert "Alice" in alices_turn and "Bob" not in alices_turn, alices_turn
    said = words(lang).t("notice.draw_declined", actor="Alice")
    assert by_button.last.text.splitlines()[:2] == [said, alices_turn], by_button.text


async def test_a_refused_takeback_says_whose_turn_it_is_as_a_declined_draw_does(
    harness: Harness,
) -> None:
    """ "Bob refuses the takeback." alone, like the declined draw before it, left the table
    asking who was to move: the answer names the side to move in the words of a move's reply,
    typed or by the button."""
    await start_game(harness, ALICE, BOB, "morris")
    moved = await harness.slash(ALICE, "place", point="d7")
    bobs_turn = moved.text.splitlines()[-2]  # above the footer ("game 1 · log #...")
    assert "Bob" in bobs_turn and "Alice" not in bobs_turn, moved.text
    await harness.slash(ALICE, "takeback request")
    refused = await harness.slash(BOB, "takeback decline")
    said = words("en").t("notice.takeback_refused", actor="Bob")
    assert not refused.first.ephemeral, refused.text
    assert refused.text.splitlines()[:2] == [said, bobs_turn], refused.text
    await harness.slash(BOB, "place", point="a1")
    asked = message_with_buttons(await harness.slash(BOB, "takeback request"))
    by_button = await harness.click(ALICE, asked.message, button(asked, "takeback-decline"))
    alices_turn = (await harness.slash(ALICE, "board")).text.splitlines()[-2]
    said = words("en").t("notice.takeback_refused", actor="Alice")
    assert by_button.last.text.splitlines()[:2] == [said, alices_turn], by_button.text
