"""Game records: JSON round trip, every malformed-record error, tampering caught by verify."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engine import EngineError, IllegalAction, Outcome, Termination, chain, dice
from engine.record import (
    FORMAT,
    MAX_ACTIONS,
    Record,
    Recorder,
    RecordError,
    iso_time,
    log_row,
    replay,
    row_hash,
    verify,
)
from engine.verify import main

pytest.importorskip("engine.atmalof", reason="the Atmalof module is not written yet")

SEED = bytes(range(32)).hex()
DOC = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"


# --- helpers shared with test_chain.py ----------------------------------------------------


def ticking_clock(start: datetime = datetime(2025, 1, 1, 12, tzinfo=UTC)) -> Callable[[], datetime]:
    """A clock that advances one second per reading: records with fixed times."""
    moments = iter(start + timedelta(seconds=i) for i in range(10**6))
    return lambda: next(moments)


def play(
    game: str = "atmalof",
    variant: str = "standard",
    plies: int = 40,
    rng_seed: int = 1,
    until_end: bool = False,
    **options: Any,
) -> Recorder:
    """A recorder after a seeded random game (to its end with ``until_end``)."""
    rec = Recorder(
        game,
        variant,
        options,
        players=(("111", "Ann"), ("222", "Bob")),
        game_id="test-game",
        seed=SEED,
        clock=ticking_clock(),
    )
    rng = random.Random(rng_seed)
    limit = 3000 if until_end else plies
    while len(rec.states) <= limit and rec.game.result(rec.state) is None:
        rec.play(rng.choice(rec.game.legal(rec.state)))
    return rec


def edited(record: Record, edit: Callable[[dict], Any], rehash: bool = False) -> Record:
    """``record`` changed by ``edit`` on its JSON dict; ``rehash`` recomputes the chain."""
    data = json.loads(record.to_json())
    edit(data)
    if rehash:
        prev = chain.GENESIS
        for row in data["actions"]:
            row["hash"] = prev = row_hash(
                prev, row["seq"], row["side"], row["actor"], row["notation"], row["roll"], row["at"]
            )
    return Record.from_dict(data)


def renumber(data: dict) -> None:
    for seq, row in enumerate(data["actions"], start=1):
        row["seq"] = seq


def first_index(record: Record, test: Callable[[Any], bool], start: int = 0) -> int:
    """The 0-based index of the first action (from ``start``) passing ``test``."""
    return next(i for i, a in enumerate(record.actions) if i >= start and test(a))


@pytest.fixture(scope="module")
def finished() -> Record:
    """A whole random Atmalof game, seed revealed, result stored."""
    record = play(until_end=True, rng_seed=3).finish()
    assert record.result is not None
    return record


@pytest.fixture(scope="module")
def running() -> Record:
    """Forty plies of a game still in progress: no seed, no result."""
    return play(plies=40).record()


# --- round trip and replay ----------------------------------------------------------------


def test_a_record_survives_json_round_trip(finished: Record, running: Record) -> None:
    for record in (finished, running):
        text = record.to_json()
        assert Record.from_json(text) == record
        assert Record.from_json(text.encode()) == record
        assert json.loads(text)["format"] == FORMAT


def test_the_json_keeps_the_documented_field_order(finished: Record) -> None:
    data = json.loads(finished.to_json())
    assert list(data) == [
        "format",
        "version",
        "game",
        "variant",
        "options",
        "game_id",
        "players",
        "created",
        "ended",
        "dice",
        "result",
        "actions",
    ]
    assert list(data["actions"][0]) == ["seq", "side", "actor", "notation", "roll", "at", "hash"]


def test_replay_gives_every_position_start_included() -> None:
    rec = play(plies=30)
    states = replay(rec.record())
    assert states == rec.states
    assert len(states) == 31
    assert states[0] == rec.game.new("standard")


def test_a_running_record_hides_the_seed_and_verifies_all_but_the_rolls(running: Record) -> None:
    assert running.seed is None and running.result is None and running.ended is None
    verdict = verify(running)
    assert verdict.ok, verdict.reason
    assert not verdict.rolls_checked
    assert "seed not revealed" in verdict.reason
    assert verdict.head == running.head == running.actions[-1].hash


def test_a_finished_record_verifies_with_every_roll(finished: Record) -> None:
    verdict = verify(finished)
    assert verdict.ok, verdict.reason
    assert verdict.rolls_checked and verdict.first_bad is None
    assert "dice: the revealed seed matches the commitment" in verdict.details
    rolls = sum(a.roll is not None for a in finished.actions)
    assert f"rolls: {rolls} recomputed from the seed, all equal" in verdict.details


def test_rolls_are_numbered_through_the_game(finished: Record) -> None:
    number = 0
    for entry in finished.actions:
        if entry.roll is not None:
            number += 1
            assert entry.roll == dice.roll(SEED, "test-game", number, entry.notation, 6)
    assert number > 0


def test_every_engine_variant_option_is_stored() -> None:
    rec = play(variant="custom", plies=6, rows=8, cols=8, line=6)
    record = rec.record()
    assert record.options == rec.game.options(rec.state)
    assert verify(Record.from_json(record.to_json())).ok


def test_a_referee_decided_end_is_accepted_while_the_game_runs() -> None:
    rec = play(plies=20)
    record = rec.finish(Outcome(Termination.RESIGNATION, 1, "Ann resigned"))
    verdict = verify(record)
    assert verdict.ok, verdict.reason
    assert verdict.reason == (
        "atmalof standard, 20 actions, Blue wins by resignation; record version 1 does not "
        "cover the events, the result, the players' names, the created and ended times"
    )


def test_an_empty_game_verifies() -> None:
    record = Recorder("atmalof", game_id="empty", seed=SEED).finish(
        Outcome(Termination.ABORTED, None, "aborted before the first move")
    )
    verdict = verify(record)
    assert verdict.ok and verdict.head == chain.GENESIS


# --- building records ---------------------------------------------------------------------


def test_the_recorder_refuses_play_after_the_end() -> None:
    rec = play(plies=4)
    rec.finish(Outcome(Termination.AGREEMENT, None, "draw agreed"))
    with pytest.raises(IllegalAction, match="the game is over"):
        rec.play("drop row 1")


def test_the_recorder_names_the_seat_as_actor_by_default() -> None:
    rec = play(plies=4)
    assert [a.actor for a in rec.record().actions] == ["111", "222", "111", "222"]
    assert rec.play(rec.game.legal(rec.state)[0], actor="mod-9").actor == "mod-9"


def test_log_row_is_the_hashed_dict() -> None:
    row = log_row(1, 0, 111, "drop row 4", 5, datetime(2025, 1, 1, 12, tzinfo=UTC))
    assert row == {
        "seq": 1,
        "side": 0,
        "actor": "111",
        "action": "drop row 4",
        "roll": 5,
        "at": "2025-01-01T12:00:00.000Z",
    }
    assert row_hash(chain.GENESIS, 1, 0, 111, "drop row 4", 5, "2025-01-01T12:00:00.000Z") == (
        chain.link(chain.GENESIS, row)
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 0, "a", "x", None, "2025-01-01T00:00:00Z"), "seq must be a whole number"),
        ((1, 2, "a", "x", None, "2025-01-01T00:00:00Z"), "side must be 0 or 1"),
        ((1, True, "a", "x", None, "2025-01-01T00:00:00Z"), "side must be 0 or 1"),
        ((1, 0, "", "x", None, "2025-01-01T00:00:00Z"), "actor must be 1 to"),
        ((1, 0, "a", "x" * 201, None, "2025-01-01T00:00:00Z"), "notation must be 1 to 200"),
        ((1, 0, "a", "x", 0, "2025-01-01T00:00:00Z"), "roll must be a face"),
        ((1, 0, "a", "x", "5", "2025-01-01T00:00:00Z"), "roll must be a face"),
        ((1, 0, "a", "x", None, "yesterday"), "at must be an ISO 8601 time"),
        ((1, 0, "a", "x", None, "2025-01-01T00:00:00+02:00"), "at must be in UTC"),
        ((1, 0, "a", "x", None, "2025-01-01T00:00:00"), "at must be in UTC"),
    ],
)
def test_log_row_refuses_bad_fields(args: tuple, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        log_row(*args)


def test_iso_time_needs_a_zone_and_writes_utc() -> None:
    with pytest.raises(RecordError, match="time zone"):
        iso_time(datetime(2025, 1, 1))
    plus_two = datetime(2025, 1, 1, 14, 0, 0, 123456).astimezone(UTC)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", iso_time(plus_two))


def test_record_error_is_an_engine_error() -> None:
    assert issubclass(RecordError, EngineError)


# --- malformed records --------------------------------------------------------------------


def _set(path: str, value: Any) -> Callable[[dict], None]:
    def edit(data: dict) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return edit


def _delete(path: str) -> Callable[[dict], None]:
    def edit(data: dict) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        del target[last]

    return edit


MALFORMED = [
    (_set("version", 99), "unsupported record version 99"),
    (_set("version", True), "unsupported record version true"),
    (_set("format", "pgn"), 'format must be "board-referee/record", not "pgn"'),
    (_delete("game_id"), "the record misses the field 'game_id'"),
    (_delete("actions"), "the record misses the field 'actions'"),
    (_set("extra", 1), "the record has an unknown field 'extra'"),
    (_set("game", "chess"), "game must be one of"),
    (_set("variant", ""), "variant must be 1 to"),
    (_set("variant", 7), "variant must be text"),
    (_set("options", []), "options must be an object"),
    (_set("options", {"x": "y" * 5000}), "options must be at most"),
    (_set("game_id", "a|b"), "game_id may hold only"),
    (_set("game_id", "x" * 101), "game_id must be 1 to 100"),
    (_set("players", []), "players must be a list of two"),
    (_set("players.1.seat", 0), r"players\[1\]: seat must be 1"),
    (_set("players.0.id", 111), r"players\[0\]: id must be text"),
    (_set("players.0.name", ""), r"players\[0\]: name must be 1 to"),
    (_delete("players.1.name"), r"players\[1\]: the player misses the field \'name\'"),
    (_set("players.0", "Ann"), r"players\[0\]: the player must be an object"),
    (_set("created", "not a time"), "created must be an ISO 8601 time"),
    (_set("ended", "2025-01-01T12:00:00+01:00"), "ended must be in UTC"),
    (_set("dice", None), "dice must be an object"),
    (_delete("dice.seed"), "dice misses the field 'seed'"),
    (_set("dice.commitment", "ABC"), "dice.commitment must be 64 lower-case hex"),
    (_set("dice.seed", "xyz"), "dice seed: a dice seed is written as hex"),
    (_set("dice.seed", "ab" * 8), "dice seed: a dice seed needs at least 16 bytes"),
    (_set("actions", {}), "actions must be a list"),
    (_set("actions.0", []), r"actions\[0\]: the action must be an object"),
    (_delete("actions.1.roll"), r"actions\[1\]: the action misses the field \'roll\'"),
    (_set("actions.2.extra", 1), r"actions\[2\]: the action has an unknown field \'extra\'"),
    (_set("actions.0.seq", "1"), r"actions\[0\]: seq must be a whole number"),
    (_set("actions.0.side", 2), r"actions\[0\]: side must be 0 or 1"),
    (_set("actions.0.roll", True), r"actions\[0\]: roll must be a face"),
    (_set("actions.0.roll", 257), r"actions\[0\]: roll must be a face"),
    (_set("actions.0.notation", "x" * 201), r"actions\[0\]: notation must be 1 to 200"),
    (_set("actions.0.actor", 5), r"actions\[0\]: actor must be text"),
    (_set("actions.0.at", "2025-13-01T00:00:00Z"), r"actions\[0\]: at must be an ISO 8601"),
    (_set("actions.0.hash", "0" * 63), r"actions\[0\]: hash must be 64 lower-case hex"),
    (_set("result", 1), "result must be an object"),
    (_set("result", {"termination": "checkmate", "winner": 0, "reason": "x"}), "not a known"),
    (_set("result", {"termination": "line", "winner": 2, "reason": "x"}), "winner must be 0"),
    (_set("result", {"termination": "line", "winner": 0, "reason": "x" * 501}), "reason must"),
    (_set("result", {"termination": "line", "winner": 0}), "result misses the field 'reason'"),
]


@pytest.mark.parametrize(("edit", "message"), MALFORMED)
def test_a_malformed_record_is_refused_with_a_clear_message(
    finished: Record, edit: Callable[[dict], None], message: str
) -> None:
    data = json.loads(finished.to_json())
    edit(data)
    with pytest.raises(RecordError, match=message):
        Record.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        ("[1, 2]", "the record must be an object"),
        ('{"version": NaN}', "NaN is not a number"),
        (b"\xff\xfe", "UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "not JSON"),
        (" " * 2_000_001, "at most 2,000,000 characters"),
    ],
    ids=["empty", "cut", "list", "nan", "bytes", "deep", "huge"],
)
def test_unreadable_text_is_refused(text: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Record.from_json(text, max_chars=2_000_000)


def test_a_reader_may_bound_the_rows_but_a_record_has_no_limit(finished: Record) -> None:
    data = json.loads(finished.to_json())
    data["actions"] = [data["actions"][0]] * (MAX_ACTIONS + 1)
    with pytest.raises(RecordError, match="at most 5000 actions rows"):
        Record.from_dict(data, max_rows=MAX_ACTIONS)
    assert len(Record.from_dict(data).actions) == MAX_ACTIONS + 1


def test_replay_stops_at_an_illegal_action(running: Record) -> None:
    bad = edited(running, _set("actions.2.notation", "fly away"))
    with pytest.raises(RecordError, match=r'action 3: "fly away" is not a command of Atmalof'):
        replay(bad)


def test_unusable_options_fail_verification(running: Record) -> None:
    verdict = verify(edited(running, _set("options.rows", 99)))
    assert not verdict.ok and verdict.first_bad is None
    assert "cannot start a game" in verdict.reason


# --- tampering ----------------------------------------------------------------------------


def _is_drop(entry: Any) -> bool:
    return entry.roll is not None


def _is_move(entry: Any) -> bool:
    return entry.notation.startswith("move")


def test_a_changed_roll_is_caught_at_its_action(finished: Record) -> None:
    i = first_index(finished, _is_drop, start=5)
    roll = finished.actions[i].roll
    wrong = roll % 6 + 1
    verdict = verify(edited(finished, _set(f"actions.{i}.roll", wrong), rehash=True))
    assert not verdict.ok and verdict.first_bad == i + 1
    assert (
        verdict.reason == f"action {i + 1}: roll {wrong} does not match the seed (expected {roll})"
    )


def test_a_changed_roll_breaks_the_chain_of_a_running_game(running: Record) -> None:
    i = first_index(running, _is_drop, start=3)
    wrong = running.actions[i].roll % 6 + 1
    verdict = verify(edited(running, _set(f"actions.{i}.roll", wrong)))
    assert verdict.first_bad == i + 1
    assert "chain hash does not match" in verdict.reason


def test_a_roll_off_the_die_is_caught_even_without_the_seed(running: Record) -> None:
    i = first_index(running, _is_drop, start=3)
    verdict = verify(edited(running, _set(f"actions.{i}.roll", 7), rehash=True))
    assert verdict.first_bad == i + 1
    assert verdict.reason == f"action {i + 1}: roll 7 is not a face of a 6-sided die"


def test_a_drop_without_a_roll_and_a_move_with_one_are_caught(finished: Record) -> None:
    i = first_index(finished, _is_drop, start=2)
    verdict = verify(edited(finished, _set(f"actions.{i}.roll", None), rehash=True))
    assert verdict.first_bad == i + 1 and "rolls a 6-sided die, but the record has no roll" in (
        verdict.reason
    )
    j = first_index(finished, _is_move)
    verdict = verify(edited(finished, _set(f"actions.{j}.roll", 3), rehash=True))
    assert (
        verdict.first_bad == j + 1 and "rolls no die, but the record has roll 3" in verdict.reason
    )


def test_a_changed_announcement_changes_the_roll_and_is_caught(finished: Record) -> None:
    i = first_index(finished, _is_drop, start=4)
    entry = finished.actions[i]
    other = "drop col 7" if entry.notation != "drop col 7" else "drop row 7"
    states = replay(finished)
    game = Recorder("atmalof", seed=SEED).game
    expected = dice.roll(SEED, "test-game", 1 + sum(map(_is_drop, finished.actions[:i])), other, 6)
    if expected == entry.roll:  # the forged announcement happens to give the same roll
        other = "drop row 1" if other != "drop row 1" else "drop row 2"
    assert game.is_legal(states[i], game.parse(states[i], other))
    verdict = verify(edited(finished, _set(f"actions.{i}.notation", other), rehash=True))
    assert verdict.first_bad == i + 1
    assert "does not match the seed" in verdict.reason


def _blocked_move(state: Any) -> tuple[str, str] | None:
    """A move of the side to move onto an occupied neighbour, as text, and that square."""
    for r, c in state.squares_of(state.to_move):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1), (-1, 1)):
            t = (r + dr, c + dc)
            if 1 <= t[0] <= state.rows and 1 <= t[1] <= state.cols and state.at(t) is not None:
                return f"move {r},{c} {t[0]},{t[1]}", f"({t[0]},{t[1]})"
    return None


def test_an_illegal_move_is_named_with_its_reason(finished: Record) -> None:
    states = replay(finished)
    i, (text, square) = next(
        (i, found)
        for i, state in enumerate(states[:-1])
        if (found := _blocked_move(state)) is not None
    )

    def forge(data: dict) -> None:
        data["actions"][i]["notation"] = text
        data["actions"][i]["roll"] = None

    verdict = verify(edited(finished, forge, rehash=True))
    assert verdict.first_bad == i + 1
    assert verdict.reason == f'action {i + 1}: "{text}" is illegal here: {square} is occupied'


def test_a_changed_time_breaks_the_chain(finished: Record) -> None:
    verdict = verify(edited(finished, _set("actions.9.at", "2030-01-01T00:00:00.000Z")))
    assert verdict.first_bad == 10 and "chain hash does not match" in verdict.reason


def test_a_changed_actor_breaks_the_chain(finished: Record) -> None:
    verdict = verify(edited(finished, _set("actions.4.actor", "999")))
    assert verdict.first_bad == 5 and "chain hash does not match" in verdict.reason


def test_swapped_rows_are_caught_where_the_order_breaks(finished: Record) -> None:
    def swap(data: dict) -> None:
        rows = data["actions"]
        rows[6], rows[7] = rows[7], rows[6]

    verdict = verify(edited(finished, swap))
    assert verdict.first_bad == 7 and "its number is 8" in verdict.reason

    def swap_and_renumber(data: dict) -> None:
        swap(data)
        renumber(data)

    verdict = verify(edited(finished, swap_and_renumber, rehash=True))
    assert verdict.first_bad == 7 and "acted, but it was" in verdict.reason


def test_a_deleted_row_is_caught_at_its_place(finished: Record) -> None:
    verdict = verify(edited(finished, lambda d: d["actions"].pop(11)))
    assert verdict.first_bad == 12 and "its number is 13" in verdict.reason

    def delete_and_renumber(data: dict) -> None:
        data["actions"].pop(11)
        renumber(data)

    verdict = verify(edited(finished, delete_and_renumber, rehash=True))
    assert verdict.reason == "action 12: Red acted, but it was Blue's turn"


def test_a_row_deleted_from_the_end_is_caught_by_the_published_head(running: Record) -> None:
    cut = edited(running, lambda d: d["actions"].pop())
    assert verify(cut).ok  # nothing inside the record shows it ...
    verdict = verify(cut, head=chain.short(running.head))  # ... the board message's hash does
    assert not verdict.ok and verdict.first_bad is None
    assert "not the published" in verdict.reason
    assert verify(running, head=chain.short(running.head)).ok
    assert verify(running, head="#" + running.head.upper()).ok
    assert not verify(running, head=running.head[:4]).ok  # too short to mean anything


def test_an_inserted_row_is_caught(finished: Record) -> None:
    def insert(data: dict) -> None:
        data["actions"].insert(8, dict(data["actions"][8]))

    verdict = verify(edited(finished, insert))
    assert verdict.first_bad == 10 and "its number is 9" in verdict.reason


def test_an_action_after_the_end_is_caught(finished: Record) -> None:
    n = len(finished.actions)

    def append(data: dict) -> None:
        extra = dict(data["actions"][-2])
        extra["seq"] = n + 1
        data["actions"].append(extra)

    verdict = verify(edited(finished, append, rehash=True))
    assert verdict.first_bad == n + 1 and "comes after the game ended" in verdict.reason


def test_a_non_canonical_or_unknown_notation_is_caught(running: Record) -> None:
    verdict = verify(edited(running, _set("actions.0.notation", "DROP  ROW 3"), rehash=True))
    assert verdict.first_bad == 1 and "is not written canonically" in verdict.reason
    verdict = verify(edited(running, _set("actions.1.notation", "jump 3"), rehash=True))
    assert verdict.first_bad == 2 and "is not a command of Atmalof" in verdict.reason


def test_the_wrong_side_is_caught(running: Record) -> None:
    verdict = verify(edited(running, _set("actions.3.side", 0), rehash=True))
    assert verdict.reason == "action 4: Red acted, but it was Blue's turn"


def test_a_revealed_seed_must_match_the_commitment(finished: Record) -> None:
    other = "ab" * 32
    verdict = verify(edited(finished, _set("dice.seed", other)))
    assert not verdict.ok and verdict.first_bad is None
    assert verdict.reason == "the revealed seed does not match the dice commitment"
    verdict = verify(edited(finished, _set("dice.commitment", dice.commitment(other))))
    assert verdict.reason == "the revealed seed does not match the dice commitment"


def test_a_swapped_seed_and_commitment_fail_at_the_first_roll(finished: Record) -> None:
    other = "ab" * 32

    def swap_seed(data: dict) -> None:
        data["dice"] = {"seed": other, "commitment": dice.commitment(other)}

    verdict = verify(edited(finished, swap_seed))
    first = first_index(finished, _is_drop)
    bad = verdict.first_bad
    assert bad is not None and bad >= first + 1 and "does not match the seed" in verdict.reason
    assert all(
        entry.roll == dice.roll(other, "test-game", k + 1, entry.notation, 6)
        for k, entry in enumerate(a for a in finished.actions[: bad - 1] if a.roll is not None)
    )


def test_a_roll_drawn_with_the_wrong_roll_number_is_caught(finished: Record) -> None:
    """The referee must count rolls through the game: a roll numbered as the action is caught."""
    number = 0
    for i, entry in enumerate(finished.actions):
        if entry.roll is None:
            continue
        number += 1
        wrong = dice.roll(SEED, "test-game", i + 1, entry.notation, 6)  # seq, not roll count
        if wrong != entry.roll:
            break
    else:
        pytest.fail("every roll equals the one drawn with the action's number")
    verdict = verify(edited(finished, _set(f"actions.{i}.roll", wrong), rehash=True))
    assert verdict.first_bad == i + 1
    assert verdict.reason == (
        f"action {i + 1}: roll {wrong} does not match the seed (expected {entry.roll})"
    )
    assert number < i + 1  # it really was a different number


def test_a_changed_game_id_fails_at_a_roll(finished: Record) -> None:
    verdict = verify(edited(finished, _set("game_id", "other-game")))
    assert not verdict.ok and "does not match the seed" in verdict.reason


def test_a_changed_winner_is_caught(finished: Record) -> None:
    assert finished.result is not None
    winner = finished.result.winner
    flipped = None if winner is not None else 0
    verdict = verify(edited(finished, _set("result.winner", flipped)))
    assert not verdict.ok and verdict.first_bad is None
    assert "but the replay gives" in verdict.reason


def test_a_missing_result_of_an_ended_game_is_caught(finished: Record) -> None:
    verdict = verify(edited(finished, _set("result", None)))
    assert "the record stores no result" in verdict.reason


def test_an_engine_ending_the_replay_does_not_reach_is_caught(running: Record) -> None:
    line = {"termination": "line", "winner": 0, "reason": "Red made five in a row"}
    verdict = verify(edited(running, _set("result", line)))
    assert not verdict.ok and "in the replay it is still running" in verdict.reason


def test_a_referee_ending_after_an_engine_ending_is_caught(finished: Record) -> None:
    resign = {"termination": "resignation", "winner": 1, "reason": "Red resigned"}
    verdict = verify(edited(finished, _set("result", resign)))
    assert not verdict.ok and "the engine had already ended the game" in verdict.reason


@pytest.mark.parametrize(
    ("termination", "winner", "ok", "message"),
    [
        ("resignation", 0, True, ""),
        ("resignation", None, False, "has a winner"),
        ("agreement", None, True, ""),
        ("agreement", 1, False, "has no winner"),
        ("aborted", 0, False, "has no winner"),
        ("timeout", 1, True, ""),
        ("timeout", None, True, ""),
        ("abandonment", 1, True, ""),
        ("awarded", None, True, ""),
    ],
)
def test_referee_endings_are_checked_for_sense(
    running: Record, termination: str, winner: int | None, ok: bool, message: str
) -> None:
    result = {"termination": termination, "winner": winner, "reason": "the referee says so"}
    verdict = verify(edited(running, _set("result", result)))
    assert verdict.ok is ok
    assert message in verdict.reason


# --- the command line and the documentation -----------------------------------------------


def test_the_command_line_reports_each_file(
    tmp_path: Path, finished: Record, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(finished.to_json(), encoding="utf-8")
    assert main([str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{good}: OK: atmalof standard, {len(finished.actions)} actions")
    assert "  chain: " in out

    bad = tmp_path / "bad.json"
    bad.write_text(edited(finished, _set("actions.9.at", "2030-01-01T00:00:00Z")).to_json())
    assert main([str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: BAD: action 10: its chain hash does not match" in out

    junk = tmp_path / "junk.json"
    junk.write_text("{}")
    assert main([str(good), str(bad), str(junk), str(tmp_path / "missing.json")]) == 2
    out = capsys.readouterr().out
    assert f"{junk}: UNREADABLE: the record misses the field 'format'" in out
    assert f"{tmp_path / 'missing.json'}: UNREADABLE:" in out


def test_the_command_line_checks_a_published_head(
    tmp_path: Path, running: Record, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_text(running.to_json())
    assert main([str(path), "--head", chain.short(running.head)]) == 0
    assert main([str(path), "--head", "0123456789"]) == 1
    assert "not the published #0123456789" in capsys.readouterr().out


def _doc_example() -> str:
    text = DOC.read_text(encoding="utf-8")
    return re.search(r"```json\n(.*?)```", text, re.S).group(1)


def test_the_documented_example_verifies() -> None:
    record = Record.from_json(_doc_example())
    verdict = verify(record)
    assert verdict.ok, verdict.reason
    assert record.seed == SEED and record.result.termination is Termination.RESIGNATION


def test_the_documented_chain_example_holds() -> None:
    text = DOC.read_text(encoding="utf-8")
    body = (
        '{"action":"drop row 4","actor":"p0","at":"2025-01-01T12:00:00.000Z",'
        '"roll":5,"seq":1,"side":0}'
    )
    digest = chain.link(chain.GENESIS, json.loads(body))
    assert body in text and digest in text
    assert digest == row_hash(
        chain.GENESIS, 1, 0, "p0", "drop row 4", 5, "2025-01-01T12:00:00.000Z"
    )


def test_the_documented_python_example_runs() -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)
    exec(compile(code, str(DOC), "exec"), {})
