"""Record version 3 (issue 13.10 and the dice words): every field is covered by the chain or
derived from what is, actors are the seats' players, and every roll mixes a value fixed after
the commitment that the operator cannot pick. Versions 1 and 2 still verify, and say what they
do not cover."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine import Outcome, Termination, dice
from engine.record import Record, Recorder, RecordError, verify
from tests.engine.test_record import ticking_clock

SEED = bytes(range(32)).hex()
WORDS = {"111": "lucky socks", "222": ""}


def recorder(accept: str = "1234567890", words: dict[str, str] | None = None) -> Recorder:
    return Recorder(
        "atmalof",
        players=(("111", "Ann"), ("222", "Bob")),
        game_id="v3",
        seed=SEED,
        clock=ticking_clock(),
        accept=accept,
        words=WORDS if words is None else words,
    )


def finished(accept: str = "1234567890", words: dict[str, str] | None = None) -> Record:
    rec = recorder(accept, words)
    for text in ("drop row 4", "drop col 2", "drop row 3", "drop col 5"):
        rec.play(text)
    return rec.finish(Outcome(Termination.RESIGNATION, 0, "Bob resigned"))


def edited(record: Record, edit: Callable[[dict[str, Any]], None]) -> Record:
    data = json.loads(record.to_json())
    edit(data)
    return Record.from_json(json.dumps(data))


def test_a_version_3_record_round_trips_and_verifies() -> None:
    record = finished()
    assert record.version == 3
    assert Record.from_json(record.to_json()) == record
    verdict = verify(record)
    assert verdict.ok, verdict.reason
    assert "does not cover" not in verdict.reason
    assert any("covers every field" in d for d in verdict.details)
    data = json.loads(record.to_json())
    assert data["dice"]["accept"] == "1234567890" and data["dice"]["words"] == WORDS


EDITS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a player's name": (
        lambda d: d["players"][1].update(name="Bobby"),
        'the record does not match the start row\'s "names"',
    ),
    "created": (
        lambda d: d.update(created="2020-01-01T00:00:00.000Z"),
        "created time is not the start row's",
    ),
    "ended": (
        lambda d: d.update(ended="2030-01-01T00:00:00.000Z"),
        "ended time is not the ending row's",
    ),
    "the result's reason": (
        lambda d: d["result"].update(reason="Bob lost on time"),
        "result reason is not the logged one",
    ),
    "the options": (
        lambda d: d["options"].update(move_limit=40),
        'the record does not match the start row\'s "options"',
    ),
    "the accept id": (
        lambda d: d["dice"].update(accept="999"),
        'the record does not match the start row\'s "accept"',
    ),
    "the words": (
        lambda d: d["dice"]["words"].update({"222": "mine"}),
        'the record does not match the start row\'s "words"',
    ),
    "a downgrade to version 2": (
        lambda d: (d.update(version=2), d["dice"].pop("accept"), d["dice"].pop("words")),
        "the log was written for a version 3 record",
    ),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_editing_any_field_is_caught_even_with_the_head(name: str) -> None:
    record = finished()
    edit, message = EDITS[name]
    verdict = verify(edited(record, edit), head=record.head)
    assert not verdict.ok
    assert message in verdict.reason


def test_an_actor_who_is_not_the_seats_player_is_caught() -> None:
    rec = recorder()
    rec.play("drop row 4", actor="333")
    verdict = verify(rec.finish(Outcome(Termination.ABORTED, None, "called off")))
    assert not verdict.ok
    assert 'the actor "333" is not Red\'s player ("111")' in verdict.reason


def test_older_versions_still_verify_and_say_what_they_do_not_cover() -> None:
    for log in (False, True):
        rec = Recorder("atmalof", players=(("111", "Ann"), ("222", "Bob")), seed=SEED, log=log)
        rec.play("drop row 4")
        record = rec.finish(Outcome(Termination.RESIGNATION, 0, "Bob resigned"))
        renamed = edited(record, lambda d: d["players"][0].update(name="Eve"))
        verdict = verify(renamed, head=record.head)
        assert verdict.ok, verdict.reason
        assert f"record version {record.version} does not cover" in verdict.reason
        assert "players' names" in verdict.reason


def test_every_roll_and_the_toss_mix_the_accept_id_and_the_words() -> None:
    plain = dice.roll(SEED, "v3", 1, "drop row 4", 6)
    mixed = dice.mix("1234567890", WORDS)
    assert dice.roll(SEED, "v3", 1, "drop row 4", 6, mixed) == finished().actions[0].roll
    rolls = {tuple(a.roll for a in finished(str(accept)).actions) for accept in range(1000, 1020)}
    assert len(rolls) > 10  # the accept id changes the game's dice
    assert plain in range(1, 7)
    assert dice.mix("1", {"a": "x", "b": ""}) != dice.mix("1", {"a": "", "b": "x"})


def test_words_must_name_the_players_and_be_short() -> None:
    with pytest.raises(RecordError, match="one entry per player id"):
        edited(finished(), lambda d: d["dice"]["words"].update({"333": "x"}))
    with pytest.raises(RecordError, match="at most 200"):
        edited(finished(), lambda d: d["dice"]["words"].update({"111": "x" * 201}))


def test_the_documented_mix_vector_holds() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "record-format.md").read_text()
    words = {"111": "lucky socks", "222": ""}
    mixed = dice.mix("1188776655443322110", words)
    assert mixed in text
    rolls = [
        dice.roll(SEED, "demo", 0, "coin toss", 2, mixed),
        dice.roll(SEED, "demo", 1, "drop row 4", 6, mixed),
        dice.roll(SEED, "demo", 2, "drop col 7", 6, mixed),
    ]
    assert rolls == [2, 1, 3]
    assert "roll 0 (`coin toss`, 2\nfaces) is 2, roll 1 (`drop row 4`, 6 faces) is 1" in text


def test_a_game_that_rolled_nothing_says_so_rather_than_what_its_rolls_mix() -> None:
    """A Morris game with a chosen starter has no toss and no die: "every roll mixes ..."
    would describe none. An Atmalof game's rolls still say what they mix."""
    rec = Recorder(
        "morris",
        players=(("111", "Ann"), ("222", "Bob")),
        game_id="m3",
        seed=SEED,
        clock=ticking_clock(),
        accept="1234567890",
        words=WORDS,
    )
    for text in ("place d7", "place a1"):
        rec.play(text)
    verdict = verify(rec.finish(Outcome(Termination.RESIGNATION, 0, "Bob resigned")))
    codes = [code for code, _ in verdict.findings]
    assert verdict.ok and "dice_unused" in codes and "dice_mixed" not in codes, codes
    assert "dice: this game rolled nothing (no coin toss, no die)" in verdict.details
    rolled = [code for code, _ in verify(finished()).findings]
    assert "dice_mixed" in rolled and "dice_unused" not in rolled
