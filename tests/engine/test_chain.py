"""The log's hash chain: each row's hash covers the row and the hash before it."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine import chain
from engine.record import Record, chain_hash, log_row, verify

pytest.importorskip("engine.atmalof", reason="the Atmalof module is not written yet")

from tests.engine.test_record import edited, play, renumber

ROW = {"seq": 1, "side": 0, "actor": "p0", "action": "drop row 4", "roll": 5, "at": "2025-01-01Z"}


def test_the_first_row_links_to_sixty_four_zeros() -> None:
    assert chain.GENESIS == "0" * 64
    body = json.dumps(ROW, sort_keys=True, separators=(",", ":"))
    assert (
        chain.link(chain.GENESIS, ROW)
        == hashlib.sha256(f"{chain.GENESIS}\n{body}".encode()).hexdigest()
    )


def test_key_order_does_not_change_the_hash() -> None:
    assert chain.link(chain.GENESIS, dict(reversed(list(ROW.items())))) == chain.link(
        chain.GENESIS, ROW
    )


def test_the_hash_covers_the_previous_hash_and_every_field() -> None:
    base = chain.link(chain.GENESIS, ROW)
    assert chain.link("1" * 64, ROW) != base
    for key, value in [
        ("seq", 2),
        ("side", 1),
        ("actor", "p1"),
        ("action", "drop row 5"),
        ("roll", 6),
        ("roll", None),
        ("at", "2025-01-01T00:00:01Z"),
    ]:
        assert chain.link(chain.GENESIS, {**ROW, key: value}) != base, key


def test_text_outside_ascii_is_hashed_as_utf8() -> None:
    row = {**ROW, "actor": "Zoë"}
    body = json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert "Zoë" in body
    assert (
        chain.link(chain.GENESIS, row)
        == hashlib.sha256(f"{chain.GENESIS}\n{body}".encode()).hexdigest()
    )


def test_the_short_form_is_the_first_ten_digits() -> None:
    digest = chain.link(chain.GENESIS, ROW)
    assert chain.short(digest) == digest[:10] and len(chain.short(digest)) == chain.SHORT


def test_chain_hash_is_link_over_log_row() -> None:
    row = log_row(3, 1, "p1", "move 3,4 4,5", None, "2025-01-01T12:00:00.000Z")
    assert set(row) == {"seq", "side", "actor", "action", "roll", "at"}
    assert chain_hash("a" * 64, row) == chain.link("a" * 64, row)


@pytest.fixture(scope="module")
def record() -> Record:
    """Thirty plies of a running game: no seed, so only the chain and the rules catch edits."""
    return play(plies=30, rng_seed=7).record()


def test_the_untouched_record_verifies(record: Record) -> None:
    assert len(record.actions) == 30
    assert verify(record).ok


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("notation", "drop row 7"),
        ("roll", 1),
        ("roll", 2),
        ("at", "2031-01-01T00:00:00.000Z"),
        ("actor", "someone else"),
        ("hash", "f" * 64),
    ],
)
def test_editing_any_row_breaks_verification_at_that_row(
    record: Record, field: str, value: object
) -> None:
    for k in range(1, len(record.actions) + 1):
        if record.actions[k - 1].to_dict()[field] == value:
            continue
        if field == "roll" and record.actions[k - 1].roll is None:
            continue

        def edit(data: dict, k: int = k) -> None:
            data["actions"][k - 1][field] = value

        verdict = verify(edited(record, edit))
        assert verdict.first_bad == k, (k, verdict.reason)
        assert verdict.reason.startswith(f"action {k}: ")


def test_reordering_any_two_neighbours_breaks_at_the_first(record: Record) -> None:
    for k in range(1, len(record.actions)):

        def swap(data: dict, k: int = k) -> None:
            rows = data["actions"]
            rows[k - 1], rows[k] = rows[k], rows[k - 1]

        assert verify(edited(record, swap)).first_bad == k

        def swap_renumbered(data: dict, k: int = k) -> None:
            swap(data)
            renumber(data)

        assert verify(edited(record, swap_renumbered)).first_bad == k


def test_deleting_any_row_breaks_at_its_place(record: Record) -> None:
    n = len(record.actions)
    for k in range(1, n):

        def delete(data: dict, k: int = k) -> None:
            del data["actions"][k - 1]

        assert verify(edited(record, delete)).first_bad == k

        def delete_renumbered(data: dict, k: int = k) -> None:
            delete(data)
            renumber(data)

        assert verify(edited(record, delete_renumbered)).first_bad == k
    # the last row's deletion leaves a valid shorter log: the published head catches it
    shorter = edited(record, lambda d: d["actions"].pop())
    assert verify(shorter).ok
    assert verify(shorter, head=record.head).reason.startswith("the log ends on #")


def test_inserting_a_row_breaks_at_the_first_original_row_after_it(record: Record) -> None:
    """A forged row with a valid link to its predecessor passes; the row after it cannot."""
    n = len(record.actions)
    for k in range(1, n):
        original = record.actions[k - 1]

        def insert(data: dict, k: int = k, original=original) -> None:
            prev = data["actions"][k - 2]["hash"] if k > 1 else chain.GENESIS
            forged = original.to_dict()
            forged["at"] = "2025-06-01T00:00:00.000Z"
            forged["hash"] = chain_hash(
                prev,
                log_row(
                    k,
                    forged["side"],
                    forged["actor"],
                    forged["notation"],
                    forged["roll"],
                    forged["at"],
                ),
            )
            data["actions"].insert(k - 1, forged)
            renumber(data)

        verdict = verify(edited(record, insert))
        assert verdict.first_bad == k + 1, (k, verdict.reason)
