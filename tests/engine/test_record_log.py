"""Version 2 records: actions and the referee's events in one chain, checked row by row."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from engine import Outcome, Termination
from engine.record import (
    LOG_VERSION,
    Record,
    Recorder,
    RecordError,
    RecordEvent,
    chain_hash,
    event_hash,
    event_row,
    verify,
)
from tests.engine.test_record import DOC, SEED, ticking_clock


def recorder(game: str = "atmalof") -> Recorder:
    return Recorder(
        game,
        players=(("111", "Ann"), ("222", "Bob")),
        game_id="log-game",
        seed=SEED,
        clock=ticking_clock(),
        log=True,
    )


def moves(rec: Recorder, count: int, rng_seed: int = 3) -> None:
    rng = random.Random(rng_seed)
    for _ in range(count):
        rec.play(rng.choice(rec.game.legal(rec.state)))


def disputed_game() -> Recorder:
    """Six moves, a takeback of two, a dispute and a resume, two more moves, Bob resigns."""
    rec = recorder()
    moves(rec, 6)
    rec.takeback(4)
    rec.event("dispute", seat=0, actor="111", note={"reason": "he played while I was away"})
    rec.event("resume", actor="999", note={"reason": "no fault found"})
    moves(rec, 2, rng_seed=5)
    return rec


def resigned(rec: Recorder) -> Record:
    seat = rec.state.to_move
    return rec.finish(Outcome(Termination.RESIGNATION, 1 - seat, "resigned"))


def rehashed(data: dict[str, Any]) -> Record:
    """A log dict whose hashes are recomputed after an edit (a forger's best effort)."""
    prev = "0" * 64
    for row in data["log"]:
        if "event" in row:
            row["hash"] = prev = event_hash(
                prev, row["event"], row["seat"], row["actor"], row["at"], row["note"]
            )
        else:
            body = {k: row[k] for k in ("seq", "side", "actor", "roll", "at")}
            body["action"] = row["notation"]
            row["hash"] = prev = chain_hash(prev, body)
    return Record.from_dict(data)


def test_a_log_record_is_version_2_and_round_trips() -> None:
    record = resigned(disputed_game())
    data = json.loads(record.to_json())
    assert data["version"] == LOG_VERSION and "actions" not in data
    assert [r.get("event") for r in data["log"]][:1] == ["start"]
    assert Record.from_json(record.to_json()) == record
    verdict = verify(record)
    assert verdict.ok, verdict.reason
    assert verdict.head == record.head == record.log[-1].hash


def test_the_live_line_leaves_out_what_was_taken_back() -> None:
    rec = disputed_game()
    record = rec.record()
    assert [a.seq for a in record.actions] == [1, 2, 3, 4, 5, 6]
    assert sum(isinstance(e, RecordEvent) for e in record.log) == 4  # start, takeback, 2 more
    assert len(record.log) == 1 + 6 + 3 + 2
    assert verify(record).ok


def test_a_resignations_winner_edited_in_the_log_is_caught_at_its_row() -> None:
    record = resigned(disputed_game())
    data = json.loads(record.to_json())
    row = len(data["log"])
    data["log"][-1]["note"]["winner"] = 1 - data["log"][-1]["note"]["winner"]
    data["result"]["winner"] = data["log"][-1]["note"]["winner"]
    verdict = verify(Record.from_dict(data))
    assert verdict.first_bad == row and "chain hash does not match" in verdict.reason


def test_a_rehashed_resignation_for_the_resigner_is_refused() -> None:
    record = resigned(disputed_game())
    data = json.loads(record.to_json())
    data["log"][-1]["note"]["winner"] = data["log"][-1]["seat"]
    data["result"]["winner"] = data["log"][-1]["seat"]
    verdict = verify(rehashed(data))
    assert verdict.first_bad == len(data["log"]) and "resigned cannot be" in verdict.reason


def test_a_result_that_differs_from_the_logged_end_is_caught() -> None:
    record = resigned(disputed_game())
    data = json.loads(record.to_json())
    data["result"]["winner"] = 1 - data["result"]["winner"]
    verdict = verify(Record.from_dict(data))
    assert not verdict.ok and "is not the logged one" in verdict.reason


def test_an_event_kind_changed_is_caught_at_its_row() -> None:
    record = resigned(disputed_game())
    data = json.loads(record.to_json())
    takeback = next(i for i, r in enumerate(data["log"]) if r.get("event") == "takeback")
    data["log"][takeback]["event"] = "rewind"
    verdict = verify(Record.from_dict(data))
    assert verdict.first_bad == takeback + 1 and "chain hash" in verdict.reason


def test_a_deleted_event_is_caught_at_the_next_row() -> None:
    record = resigned(disputed_game())
    data = json.loads(record.to_json())
    dispute = next(i for i, r in enumerate(data["log"]) if r.get("event") == "dispute")
    del data["log"][dispute]
    verdict = verify(Record.from_dict(data))
    assert verdict.first_bad == dispute + 1 and "chain hash" in verdict.reason


def test_a_deleted_last_row_is_caught_by_the_published_head() -> None:
    rec = disputed_game()
    running = rec.record()
    cut = Record.from_dict({**running.to_dict(), "log": running.to_dict()["log"][:-1]})
    assert verify(cut).ok  # a shorter log is consistent in itself...
    verdict = verify(cut, head=running.head[:10])  # ... but not with the board's hash
    assert not verdict.ok and "not the published" in verdict.reason


def test_an_action_while_frozen_is_refused() -> None:
    rec = recorder()
    moves(rec, 2)
    rec.event("dispute", seat=0, actor="111")
    moves(rec, 1)
    verdict = verify(rec.record())
    assert verdict.first_bad == 5 and "played while the game was frozen" in verdict.reason


def test_a_restore_before_a_roll_keeps_counting_rolls() -> None:
    """Rolls are numbered over the whole log: a re-announced drop gets a fresh roll number."""
    rec = recorder()
    rec.play("drop row 4")
    rec.play("drop col 2")
    rec.takeback(1, kind="restore", actor="999")
    rec.play("drop col 2")
    record = rec.finish(Outcome(Termination.ABORTED, None, "voided"))
    assert [a.seq for a in record.actions] == [1, 2]
    verdict = verify(record)
    assert verdict.ok and "rolls: 3 recomputed" in "\n".join(verdict.details), verdict.details


def test_a_restore_beyond_the_live_line_is_refused() -> None:
    rec = recorder()
    moves(rec, 2)
    rec.event("restore", note={"to": 5})
    verdict = verify(rec.record())
    assert verdict.first_bad == 4 and "from 0 to 2" in verdict.reason


def test_the_log_must_open_with_the_start_event_holding_the_commitment() -> None:
    record = disputed_game().record()
    data = json.loads(record.to_json())
    data["log"][0]["note"]["commitment"] = "ab" * 32
    verdict = verify(rehashed(data))
    assert verdict.first_bad == 1 and "commitment" in verdict.reason
    data = json.loads(record.to_json())
    del data["log"][0]
    verdict = verify(rehashed(data))
    assert verdict.first_bad == 1 and "start event" in verdict.reason


def test_an_engine_end_needs_its_end_row() -> None:
    rec = recorder("morris")
    rng = random.Random(2)
    while rec.game.result(rec.state) is None:
        rec.play(rng.choice(rec.game.legal(rec.state)))
    record = rec.finish()
    assert record.log[-1].kind == "end" and verify(record).ok
    data = json.loads(record.to_json())
    del data["log"][-1]
    data["result"] = None
    verdict = verify(Record.from_dict(data))
    assert not verdict.ok and "has no end row" in verdict.reason


def test_event_rows_are_bounded_and_validated() -> None:
    with pytest.raises(RecordError, match="event kind"):
        event_row("Bad Kind", None, None, "2025-01-01T00:00:00.000Z")
    with pytest.raises(RecordError, match="note must be at most"):
        event_row("dispute", 0, "1", "2025-01-01T00:00:00.000Z", {"reason": "x" * 3000})
    with pytest.raises(RecordError, match="version 2"):
        Recorder("atmalof").event("dispute")


def test_the_documented_version_2_example_verifies() -> None:
    text = DOC.read_text(encoding="utf-8")
    examples = [Record.from_json(t) for t in re.findall(r"```json\n(.*?)```", text, re.S)]
    (logged,) = [r for r in examples if r.version == LOG_VERSION]
    verdict = verify(logged)
    assert verdict.ok and verdict.rolls_checked, verdict.reason
    assert [e.kind for e in logged.log if isinstance(e, RecordEvent)] == [
        "start",
        "dispute",
        "resume",
        "resign",
    ]


def test_each_line_of_a_verdict_is_also_data_in_the_same_order() -> None:
    """What a verdict checked is said as data too (a code and its numbers), line for line, so a
    front end can say it in another language; a positive verdict's summary names the game, the
    counts and the result."""
    record = resigned(disputed_game())
    verdict = verify(record, head=record.head)
    assert verdict.ok and len(verdict.findings) == len(verdict.details)
    codes = [code for code, _ in verdict.findings]
    assert codes[0] == "seed_matches" and "log_chained_undone" in codes
    assert codes[-2:] == ["published_head", "not_covered_2"]  # a version 2 log
    chained = dict(verdict.findings)["log_chained_undone"]
    assert (chained["rows"], chained["n"], chained["undone"]) == (
        len(record.log),
        6,
        2,
    )  # back to 4, then 2 more
    assert (
        f"{chained['rows']} rows chained, 6 actions"
        in verdict.details[codes.index("log_chained_undone")]
    )
    summary = verdict.summary
    assert summary is not None and summary["outcome"] == record.result
    assert (summary["game"], summary["actions"], summary["rows"]) == ("atmalof", 6, len(record.log))
    data = json.loads(record.to_json())
    data["log"][3]["roll"] = 7 - (data["log"][3]["roll"] or 1)  # a forged roll: a problem
    bad = verify(rehashed(data))
    assert not bad.ok and bad.summary is None and len(bad.findings) == len(bad.details)
    assert bad.findings[-1] == ("rows_check_out", {"n": 3})


def test_a_changed_winner_of_an_award_reads_as_a_moderators_decision() -> None:
    """The English names how the game ended in words ("by a moderator's decision"), not by
    the termination's code ("by awarded")."""
    record = resigned(disputed_game())
    data = json.loads(record.to_json())
    for part in (data["result"], data["log"][-1]["note"]):
        part["termination"] = "awarded"
    data["log"][-1]["event"] = "award"
    data["log"][-1]["seat"] = None
    data = json.loads(rehashed(data).to_json())
    data["result"]["winner"] = 1 - data["result"]["winner"]
    verdict = verify(Record.from_dict(data))
    assert "wins by a moderator's decision) is not the logged one" in verdict.reason, verdict
