"""A log row and its hash, shared with the store: ``log_row``/``event_row`` are the only
definition of what a row's chain hash covers, and ``iso_time`` of how a time is written."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from engine import chain
from engine.record.fields import (
    _KIND,
    MAX_ID,
    MAX_NOTATION,
    Problem,
    RecordError,
    _note,
    _positive,
    _roll,
    _side,
    _text,
    _time,
    quoted,
)

# --- the log row and its hash: shared with the store ----------------------------------------


def iso_time(moment: datetime) -> str:
    """The canonical time text of records and log rows: UTC, milliseconds, ``Z``."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        english = "a record time needs a time zone (use UTC)"
        raise RecordError(Problem("time_without_zone", english))
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def utc_now() -> str:
    """The current time as record text."""
    return iso_time(datetime.now(UTC))


def log_row(
    seq: int,
    side: int,
    actor: str | int,
    notation: str,
    roll: int | None,
    at: str | datetime,
) -> dict[str, Any]:
    """The exact dict a log row's chain hash covers: seq, side, actor, action, roll, at.

    ``actor`` is the acting user's id as text (an int id is written as its decimal text);
    ``at`` is ISO 8601 UTC text, kept verbatim, or a datetime written by ``iso_time``.
    """
    if isinstance(actor, int) and not isinstance(actor, bool):
        actor = str(actor)
    if isinstance(at, datetime):
        at = iso_time(at)
    return {
        "seq": _positive(seq, "seq"),
        "side": _side(side, "side"),
        "actor": _text(actor, "actor", MAX_ID),
        "action": _text(notation, "notation", MAX_NOTATION),
        "roll": _roll(roll, "roll"),
        "at": _time(at, "at"),
    }


def chain_hash(prev_hash: str, row: Mapping[str, Any]) -> str:
    """The hash of a row from ``log_row`` after the previous row's (``chain.GENESIS`` first)."""
    return chain.link(prev_hash, dict(row))


def row_hash(
    prev_hash: str,
    seq: int,
    side: int,
    actor: str | int,
    notation: str,
    roll: int | None,
    at: str | datetime,
) -> str:
    """``chain_hash(prev_hash, log_row(...))`` in one call: what the store stores per row."""
    return chain_hash(prev_hash, log_row(seq, side, actor, notation, roll, at))


def event_row(
    kind: str,
    seat: int | None,
    actor: str | int | None,
    at: str | datetime,
    note: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The exact dict an event row's chain hash covers: event, seat, actor, at, note.

    ``note`` is normalised through JSON (tuples become lists), so what is hashed is what a
    reader gets back from the stored or exported text.
    """
    if isinstance(actor, int) and not isinstance(actor, bool):
        actor = str(actor)
    if isinstance(at, datetime):
        at = iso_time(at)
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        said = quoted(kind)
        english = f"event kind must be 1 to 30 lower-case letters or '-', not {said}"
        raise RecordError(Problem("bad_event_kind", english, value=said))
    return {
        "event": kind,
        "seat": None if seat is None else _side(seat, "seat"),
        "actor": None if actor is None else _text(actor, "actor", MAX_ID),
        "at": _time(at, "at"),
        "note": _note(note),
    }


def event_hash(
    prev_hash: str,
    kind: str,
    seat: int | None,
    actor: str | int | None,
    at: str | datetime,
    note: Mapping[str, Any] | None = None,
) -> str:
    """``chain_hash(prev_hash, event_row(...))`` in one call: what the store stores per event."""
    return chain_hash(prev_hash, event_row(kind, seat, actor, at, note))
