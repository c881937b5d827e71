"""What players see: flag falls, options, long move lists, permissions, confirmations."""

from __future__ import annotations

import re

import pytest

import engine
import engine.ai
from bot.clock import ManualClock
from bot.referee.replies import Actor, Where
from tests.discord.conftest import ALICE, BOB, CAROL, MODERATOR
from tests.discord.harness import CHANNEL_ID, GUILD_ID, Exchange, Harness, Person
from tests.discord.play import PNG, button, message_with_buttons, start_game

PLAYERS = (ALICE, BOB)


def where(channel: int = CHANNEL_ID) -> Where:
    return Where(GUILD_ID, channel)


def actor(person: Person) -> Actor:
    return Actor(person.id, person.name)


async def test_a_claim_on_a_fallen_flag_wins_without_calling_itself_late(
    harness: Harness, clock: ManualClock
) -> None:
    """Alice's /claim on Bob's fallen flag was answered "Alice's command came after Black's
    flag fell." before her win, as if her claim had come too late: it is what the flag is
    claimed with, so only the result is said."""
    await start_game(harness, ALICE, BOB, "morris", clock="1+0")
    await harness.slash(ALICE, "place", point="d7")
    clock.advance(61)  # bob, to move, has run out of time
    claimed = await harness.slash(ALICE, "claim")
    (shown,) = claimed.messages
    assert not shown.ephemeral, shown.text
    assert "Alice (White) wins (Bob (Black) ran out of time)" in shown.text, shown.text
    assert "came after" not in shown.text, shown.text


async def test_a_flag_found_by_the_late_players_own_command_is_announced_in_public(
    harness: Harness, clock: ManualClock
) -> None:
    await start_game(harness, ALICE, BOB, "morris", clock="1+0")
    clock.advance(61)  # alice, to move, has run out of time
    late = await harness.slash(ALICE, "place", point="d7")
    (shown,) = late.messages
    assert not shown.ephemeral, shown.text  # the channel learns it, not only alice
    assert "Alice's command came after White's flag fell" in shown.text
    assert "Bob (Black) wins (Alice (White) ran out of time)" in shown.text
    assert any(data.startswith(PNG) for _, _, data in late.files)  # with the board
    assert await harness.bot.post_notices() == 0  # type: ignore[attr-defined]  # said once
    again = await harness.slash(ALICE, "place", point="d7")  # told how it ended, privately
    assert again.all_ephemeral, again.text
    ended = "your game here has ended: Bob (Black) wins (Alice (White) ran out of time)"
    assert ended in again.text
    stranger = await harness.slash(CAROL, "place", point="d7")
    assert stranger.all_ephemeral and "no game running" in stranger.text


async def test_the_opponent_sees_changed_options_in_the_challenge_and_the_start(
    harness: Harness,
) -> None:
    posted = await harness.slash(
        ALICE, "challenge", game="morris", opponent=BOB, options="no_remill=on flying=off",
        clock="10+5", starter="me",
    )  # fmt: skip
    assert "Not the defaults: flying=off, no_remill=on." in posted.text
    assert "to Nine Men's Morris, casual, 10 min each + 5 s a move;" in posted.text, posted.text
    challenge = message_with_buttons(posted)
    started = await harness.click(BOB, challenge.message, button(challenge, "accept"))
    shown = "Not the defaults: flying=off, no_remill=on. Clock: 10 min each + 5 s a move."
    assert shown in started.text
    assert shown in (await harness.slash(BOB, "board")).text


async def test_autocomplete_says_how_many_more_moves_match_than_it_shows(harness: Harness) -> None:
    await start_game(harness, ALICE, BOB, "abalone")  # 44 legal pushes at the start
    choices = await harness.autocomplete(ALICE, "play", "command")
    assert len(choices) == 25
    assert choices[-1]["name"] == "… 20 more: type more of the move to narrow the list"
    assert [c["value"] for c in choices[:24]] == [
        c for c in await harness.bot.referee.legal_for(where(), actor(ALICE), limit=24)
    ]
    picked = await harness.slash(ALICE, "play", command=choices[-1]["value"])
    assert picked.all_ephemeral  # the "more" choice picked changes nothing
    narrowed = await harness.autocomplete(ALICE, "play", "command", command="push a1")
    assert 0 < len(narrowed) < 25 and not narrowed[-1]["name"].startswith("…")
    marbles = await harness.autocomplete(ALICE, "push", "marbles", marbles="a")
    assert all(len(c["value"]) <= 100 and len(c["name"]) <= 100 for c in marbles)


SEND, EMBED, ATTACH = 1 << 11, 1 << 14, 1 << 15
THREADS, SEND_IN_THREADS = 1 << 35, 1 << 38


async def test_a_thread_the_bot_may_not_create_is_refused_naming_what_is_missing(
    harness: Harness, caplog
) -> None:
    lacking = SEND | EMBED | ATTACH | SEND_IN_THREADS  # no Create Public Threads
    asked = await harness.slash(
        ALICE, "challenge", app_permissions=lacking, game="morris", opponent=BOB, thread=True
    )
    assert asked.all_ephemeral
    assert "Create Public Threads" in asked.text and "without thread" in asked.text
    assert not harness.rest_calls  # no thread was tried
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    here = await harness.slash(ALICE, "challenge", game="morris", opponent=BOB)
    assert not here.first.ephemeral  # nothing was stored: a challenge right here still works


async def test_a_challenge_says_privately_what_the_bot_cannot_post_on_its_own(
    harness: Harness,
) -> None:
    posted = await harness.slash(
        ALICE, "challenge", app_permissions=SEND, game="morris", opponent=BOB
    )
    challenge, note = posted.messages
    assert not challenge.ephemeral and "challenges" in challenge.text
    assert note.ephemeral and "Embed Links, Attach Files" in note.text
    everything = await harness.slash(BOB, "challenge", game="morris", channel=CHANNEL_ID + 1)
    assert len(everything.messages) == 1  # nothing missing: no note


async def test_moderators_turn_takebacks_off_and_a_request_is_refused_with_the_reason(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "morris")
    await harness.slash(ALICE, "place", point="d7")
    turned = await harness.slash(MODERATOR, "referee settings", takebacks=False)
    assert "off" in turned.text
    asked = await harness.slash(ALICE, "takeback request")
    assert asked.all_ephemeral and "turned takebacks off" in asked.text
    shown = await harness.slash(MODERATOR, "referee settings")
    assert "Takebacks: off" in shown.text


NARROW = "rows=5 cols=3 beyond_rows=0 beyond_cols=0 pieces=6 line=4"


async def test_a_hopeless_drop_is_confirmed_with_a_button_before_the_die_rolls(
    harness: Harness,
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof", variant="custom", options=NARROW)
    for turn in range(60):
        mover = PLAYERS[turn % 2]
        dropped = await harness.slash(mover, "drop row", k=1)
        if dropped.all_ephemeral:
            break
    else:
        raise AssertionError("row 1 never filled")
    (question,) = dropped.messages
    assert "can only lose your turn" in question.text and not question.files
    confirm, cancel = question.custom_ids
    # the game, its version, the line, and the move count the drop would follow
    assert re.fullmatch(r"ref:drop-confirm:1:[0-9]+:row1:[0-9]+", confirm), confirm
    other = PLAYERS[1 - PLAYERS.index(mover)]
    assert (await harness.click(other, question.message, confirm)).all_ephemeral  # not theirs
    cancelled = await harness.click(mover, question.message, cancel)
    retire, said = cancelled.calls
    assert retire.response_type == 7 and retire.data.get("components") == []
    assert said.ephemeral and "Nothing was announced" in said.text
    (question,) = (await harness.slash(mover, "drop row", k=1)).messages  # asked again
    clicked = await harness.click(mover, question.message, question.custom_ids[0])
    retire, announced, rolled = clicked.calls
    assert retire.response_type == 7 and retire.data.get("components") == []
    assert not announced.ephemeral and "announces row 1" in announced.text
    assert not rolled.ephemeral and "loses the turn" in rolled.text
    assert any(data.startswith(PNG) for _, _, data in rolled.files)


def alt_texts(exchange: Exchange) -> list[str]:
    """The alt texts (the files' descriptions) of the board images a command posted."""
    return [d for _, d, data in exchange.files if data.startswith(PNG) and d]


async def test_a_mill_and_its_removal_are_one_last_turn_in_the_alt_text(harness: Harness) -> None:
    """What the player read: "Last: White placed a4. Last: White removed d6." (and in
    Hungarian "Utolsó: … Utolsó: …"). The picture's own status line already said them as one
    turn; the alt text says "Last:" once too, in each language."""
    said = {
        "en": "Last: White placed g7 and removed a1.",
        "hu": "Utolsó: Fehér lerakott egy bábut: g7, és levett egyet: a1.",
    }
    for channel, (lang, last) in enumerate(said.items(), start=CHANNEL_ID):
        await harness.slash(MODERATOR, "referee settings", channel=channel, language=lang)
        await start_game(harness, ALICE, BOB, "morris", channel=channel)
        for person, point in ((ALICE, "a7"), (BOB, "a1"), (ALICE, "d7"), (BOB, "d1")):
            await harness.slash(person, "place", channel=channel, point=point)
        await harness.slash(ALICE, "place", channel=channel, point="g7")  # a mill
        removed = await harness.slash(ALICE, "remove", channel=channel, point="a1")
        (alt,) = alt_texts(removed)
        assert last in alt, alt
        assert alt.count(last.split(":")[0] + ":") == 1, alt


@pytest.mark.parametrize(("lang", "last"), [("en", "Last: "), ("hu", "Utolsó: ")])
async def test_a_push_off_in_the_alt_text_ends_with_its_exclamation_alone(
    harness: Harness, lang: str, last: str
) -> None:
    """What the player read: "the opposing marble on h4 is off!." A sentence that ends with
    its own "!" takes no full stop after it, in any language."""
    await harness.slash(MODERATOR, "referee settings", language=lang)
    await start_game(harness, ALICE, BOB, "abalone")
    referee = harness.bot.referee
    rules = engine.get_game("abalone")
    people = {ALICE.id: ALICE, BOB.id: BOB}
    for _ in range(400):
        g = await referee.store.active_game(CHANNEL_ID)
        assert g is not None
        state = await referee.ctx.state(g)
        off = [
            a
            for a in rules.legal(state)
            if rules.effect(state, a, None, rules.apply(state, a)).pushed_off
        ]
        action = off[0] if off else engine.ai.choose("abalone", state, 2, g.seq, nodes=150)
        pushed = await harness.slash(
            people[g.players[state.to_move]], "play", command=rules.notation(state, action)
        )
        if off:
            break
    else:
        raise AssertionError("no marble was pushed off")
    (alt,) = alt_texts(pushed)
    said = alt.split(last, 1)[1]
    # said as a sentence now ("... went off the board."): one stop, never "!." nor ".."
    assert "!." not in alt and ".." not in alt, alt
    assert said.split(". ", 1)[1], alt  # the position's sentences follow
