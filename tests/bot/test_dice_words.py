"""Dice nobody can pick: the seed is committed at the challenge, and the accept's request id and
both players' dice words, fixed only afterwards, are mixed into every roll (the coin toss
first). The record (version 3) carries them and verifies; every field is in the chain."""

from __future__ import annotations

import json
import re

import pytest

from bot.errors import Refusal
from bot.i18n import say
from bot.referee import Referee
from bot.referee.grammar import dispatch
from bot.referee.records import check_stored, stored_record
from bot.store import Store
from engine import dice
from engine.record import Record, verify
from tests.bot.conftest import ALICE, BOB, HERE, play
from translations import words

PEOPLE = {"alice": ALICE, "bob": BOB}


async def test_the_challenge_publishes_the_commitment_the_game_keeps(
    referee: Referee, store: Store
) -> None:
    made = await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, dice_words="red sky")
    assert made.ok, made.text
    published = re.search(
        r"Dice commitment \(SHA-256 of the secret seed, fixed now\): (\w+)", made.text
    )
    assert published is not None
    started = await referee.accept(HERE, BOB, request_id="1188776655443322110", dice_words="42")
    assert started.ok, started.text
    g = await store.active_game(HERE.channel_id)
    assert g is not None and g.commitment == published.group(1)


async def test_the_accept_id_and_words_are_mixed_into_the_toss_and_every_roll(
    referee: Referee, store: Store
) -> None:
    await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, dice_words="  red   sky ")
    await referee.accept(HERE, BOB, request_id="1188776655443322110", dice_words="forty two")
    g = await store.active_game(HERE.channel_id)
    assert g is not None
    words = {str(ALICE.id): "red sky", str(BOB.id): "forty two"}
    mixed = dice.mix("1188776655443322110", words)
    assert g.dice_mix == mixed
    assert g.toss == dice.roll(g.seed, str(g.id), 0, "coin toss", 2, mixed)
    first = next(p for p in (ALICE, BOB) if g.players[0] == p.id)
    second = BOB if first is ALICE else ALICE
    await play(referee, HERE, first, "drop row 4")
    await play(referee, HERE, second, "drop col 2")
    await referee.resign(HERE, second)
    g = await store.game(g.id)
    record = await stored_record(store, g)
    assert record.version == 3
    assert (record.accept, record.words) == ("1188776655443322110", words)
    assert record.actions[0].roll == dice.roll(g.seed, str(g.id), 1, "drop row 4", 6, mixed)
    assert verify(record, head=g.last_hash).ok
    assert (await check_stored(store, g)).ok


async def test_the_console_takes_words_when_challenging_and_accepting(
    referee: Referee, store: Store
) -> None:
    made = await dispatch(referee, HERE, ALICE, 'challenge bob atmalof words "lucky socks"', PEOPLE)
    assert made.ok, made.text
    started = await dispatch(referee, HERE, BOB, 'accept words "my own words"', PEOPLE)
    assert started.ok, started.text
    g = await store.active_game(HERE.channel_id)
    record = await stored_record(store, g)
    assert record.words == {str(ALICE.id): "lucky socks", str(BOB.id): "my own words"}
    assert record.accept  # the console has no front-end id: a random one


async def test_words_whose_quote_is_never_closed_are_refused_and_change_nothing(
    referee: Referee, store: Store
) -> None:
    """What follows an open quote (here a clock) would silently become dice words."""
    line = 'challenge bob atmalof words "lucky socks clock 10+5'
    with pytest.raises(Refusal) as refused:
        await dispatch(referee, HERE, ALICE, line, PEOPLE)
    assert refused.value.code == "console_words_unclosed"
    assert 'write them as `words "lucky socks"`' in str(refused.value)
    assert await store.open_challenge(HERE.channel_id) is None
    await dispatch(referee, HERE, ALICE, "challenge bob atmalof", PEOPLE)
    for answer in ('accept words "my own', 'accept 1 words "my own'):
        with pytest.raises(Refusal) as refused:
            await dispatch(referee, HERE, BOB, answer, PEOPLE)
        assert refused.value.code == "console_words_unclosed", answer
    assert await store.active_game(HERE.channel_id) is None
    assert await store.open_challenge(HERE.channel_id) is not None


async def test_overlong_words_are_refused_and_change_nothing(
    referee: Referee, store: Store
) -> None:
    refused = await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, dice_words="x" * 201)
    assert not refused.ok and "at most 200 characters" in refused.text
    assert await store.open_challenge(HERE.channel_id) is None


async def test_a_rename_after_the_start_keeps_the_record_and_an_edited_name_fails(
    referee: Referee, store: Store
) -> None:
    await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, starter="me")
    await referee.accept(HERE, BOB, request_id="77")
    await play(referee, HERE, ALICE, "drop row 4")
    await referee.challenge(
        HERE.__class__(guild_id=1, channel_id=99), ALICE.__class__(ALICE.id, "alice2"), "morris"
    )  # Alice is now called alice2 in the players table
    g = await store.active_game(HERE.channel_id)
    record = await stored_record(store, g)
    assert [p.name for p in record.players] == ["alice", "bob"]
    assert verify(record, head=g.last_hash).ok
    data = json.loads(record.to_json())
    data["players"][1]["name"] = "Mallory"
    verdict = verify(Record.from_json(json.dumps(data)), head=g.last_hash)
    assert not verdict.ok and "names" in verdict.reason


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
@pytest.mark.parametrize("given", [{}, {"dice_words": "red sky"}])
async def test_verify_says_whether_any_player_gave_dice_words(
    referee: Referee, lang: str, given: dict[str, str]
) -> None:
    """/verify's dice line said "... and the players' words" when nobody gave any: a game
    without dice words says so, one with them still names them."""
    w = words(lang)
    assert (await referee.challenge(HERE, ALICE, "atmalof", opponent=BOB, **given)).ok
    started = await referee.accept(HERE, BOB, request_id="1188776655443322110")
    assert started.ok and (await referee.resign(HERE, ALICE)).ok
    said = [say(line, lang) for line in (await referee.verify(HERE)).lines]
    accept = "1188776655443322110"
    none = w.t("verify.detail", detail=w.t("verify.dice_mixed_toss_no_words", accept=accept))
    some = w.t("verify.detail", detail=w.t("verify.dice_mixed_toss", accept=accept))
    assert (some if given else none) in said, said
    assert (none if given else some) not in said, said
