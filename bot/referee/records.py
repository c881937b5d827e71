"""A stored game as an ``engine.record.Record``: the export format and what ``verify`` checks.

Games of log_version 2 export their whole chained log (actions and events, a version 2 record);
older games export their live line of actions (version 1). ``stored_record`` and
``check_stored`` pick the right one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot.ending import NOT_TOLD, Ending
from bot.store import ActionRow, EventRow, GameRow, Store
from engine import EngineError, Outcome, Termination, chain, dice
from engine.record import (
    ENDING_EVENTS,
    FULL_VERSION,
    LOG_VERSION,
    LogEntry,
    Player,
    Problem,
    Record,
    RecordAction,
    RecordEvent,
    Verification,
    iso_time,
    problem_of,
    verify,
)

VERIFY_PROGRAM = "referee-verify"  # the console script pyproject installs (engine.verify)
TOSS_ANNOUNCEMENT = "coin toss"
TOSS_NUMBER = 0  # drops roll 1, 2, ...; the coin toss before the game is roll 0


def iso(t: float) -> str:
    """A stored unix time as record text (UTC, milliseconds)."""
    return iso_time(datetime.fromtimestamp(t, UTC))


def outcome_of(g: GameRow) -> Outcome | None:
    if g.termination is None:
        return None
    return Outcome(Termination(g.termination), g.winner, g.reason or "")


def event_ending(kind: str, seat: int | None, note: Mapping[str, Any]) -> Ending:
    """How an ending event of ``kind`` (its ``seat`` and ``note``) ended the game."""
    moderator = note.get("moderator")
    name = moderator[:100] if isinstance(moderator, str) else ""  # a hostile record: text only
    why = str(note.get("reason") or "").strip()  # trimmed, as the result's English says it
    if kind == "void":
        return Ending(voided=why, moderator=name)
    if kind == "abort":  # a player's has their seat, a moderator's none (and a reason)
        if seat is not None:
            return Ending(by=seat)
        return Ending(stopped=why or None, moderator=name)  # no reason: said as an abort
    if kind == "award":
        return Ending(awarded=why or None, moderator=name)
    return NOT_TOLD


async def ending(store: Store, g: GameRow) -> Ending:
    """How the stored game ``g`` was aborted or awarded (nothing for a game that was not)."""
    if g.termination not in (Termination.ABORTED.value, Termination.AWARDED.value):
        return NOT_TOLD
    for event in reversed(await store.events(g.id)):
        if event.kind in ENDING_EVENTS:
            return event_ending(event.kind, event.seat, event.details)
    return NOT_TOLD


def record_ending(record: Record) -> Ending:
    """The same for a record: its log's ending event (a record without a log: nothing)."""
    for entry in reversed(record.log):
        if isinstance(entry, RecordEvent) and entry.kind in ENDING_EVENTS:
            return event_ending(entry.kind, entry.seat, entry.note)
    return NOT_TOLD


def build_record(g: GameRow, actions: Sequence[ActionRow]) -> Record:
    """The record of the game's live line; the seed only once the game is over."""
    return _game_record(
        g,
        actions=tuple(
            RecordAction(a.seq, a.side, a.actor, a.action, a.roll, a.at, a.hash) for a in actions
        ),
    )


def log_entry(row: ActionRow | EventRow) -> LogEntry:
    """One stored row as a record row; raises RecordError (or ValueError) for a damaged one."""
    if isinstance(row, ActionRow):
        return RecordAction(row.seq, row.side, row.actor, row.action, row.roll, row.at, row.hash)
    actor = None if row.user_id is None else str(row.user_id)
    return RecordEvent(row.kind, row.seat, actor, iso(row.at), row.details, row.hash or "")


def build_log_record(g: GameRow, rows: Sequence[ActionRow | EventRow]) -> Record:
    """The record of a log_version 2 game: its whole log, the seed once it is over; version 3
    when its start row says so (names, accept id and dice words are then the start row's)."""
    log = tuple(log_entry(r) for r in rows)
    return _game_record(g, log=log, **full_fields(log))


def full_fields(log: Sequence[LogEntry]) -> dict[str, Any]:
    """What a version 3 record takes from its start row (nothing for older games): the names
    as they were at the start (players may rename later), the accept id and the dice words."""
    start = log[0] if log else None
    if not isinstance(start, RecordEvent) or start.note.get("record") != FULL_VERSION:
        return {}
    note = start.note
    return {"names": note.get("names"), "accept": note.get("accept"), "words": note.get("words")}


def _game_record(g: GameRow, names: Any = None, **contents: Any) -> Record:
    """What every record of ``g`` says about the game (the seed only once it is over), with
    its ``contents``: the live line's ``actions`` or the whole ``log``."""
    over = g.status != "active"
    if not isinstance(names, list) or len(names) != 2:
        names = [g.name0, g.name1]
    return Record(
        game=g.game,
        variant=g.variant,
        options=json.loads(g.options),
        players=(Player(str(g.player0), names[0]), Player(str(g.player1), names[1])),
        game_id=str(g.id),
        created=iso(g.created_at),
        ended=iso(g.ended_at) if over and g.ended_at is not None else None,
        commitment=g.commitment,
        seed=g.seed if over else None,
        result=outcome_of(g),
        **contents,
    )


async def stored_record(store: Store, g: GameRow) -> Record:
    """The game's record as exported (version 2 for log_version 2 games, else version 1)."""
    if g.log_version >= LOG_VERSION:
        return build_log_record(g, await store.log(g.id))
    return build_record(g, await store.actions(g.id))


async def check_stored(store: Store, g: GameRow) -> Verification:
    """The engine's verdict on the stored game plus the store's own checks: the game row's head,
    live line, toss. A damaged row that cannot even be read is named by its place in the log."""
    if g.log_version < LOG_VERSION:
        verdict, notes, bad = verify_game(g, await store.actions(g.id), await store.events(g.id))
        return _with(verdict, notes, bad)
    rows = await store.log(g.id)
    entries = []
    for number, row in enumerate(rows, start=1):
        if row.link != number:
            english = f"row {number} is missing from the log (the next stored is {row.link})"
            said = Problem("row_missing", english, n=number, next=row.link)
            return Verification(False, number, said)
        try:
            entries.append(log_entry(row))
        except (EngineError, ValueError) as exc:
            english = f"row {number} cannot be read: {exc}"
            said = Problem("row_unreadable", english, n=number, why=problem_of(exc))
            return Verification(False, number, said)
    try:
        record = build_log_record(g, [])
        extra_fields = full_fields(entries)
        names = extra_fields.pop("names", None)
        if names is not None:
            record = _game_record(g, names=names, log=tuple(entries), **extra_fields)
        else:
            record = Record(**{**_fields(record), "log": tuple(entries)})
    except EngineError as exc:
        english = f"the game's row cannot be read: {exc}"
        said = Problem("game_unreadable", english, why=problem_of(exc))
        return Verification(False, None, said)
    verdict = verify(record, head=g.last_hash)
    extra: list[Note] = []
    problem = None
    if verdict.ok:
        start = next((r for r in rows if isinstance(r, EventRow) and r.kind == "start"), None)
        if len(rows) != g.links:
            english = f"the game counts {g.links} log rows, but {len(rows)} are stored"
            problem = Problem("store_links", english, counted=g.links, stored=len(rows))
        elif len(record.actions) != g.seq:
            live = len(record.actions)
            english = f"the game is at action {g.seq}, but the log's live line has {live}"
            problem = Problem("store_seq", english, seq=g.seq, live=live)
        elif start is not None and start.details.get("toss") != g.toss:
            logged = start.details.get("toss")
            english = f"the game shows coin toss {g.toss}, but the log has {logged}"
            problem = Problem("store_toss", english, toss=g.toss, log_toss=logged)
        else:
            short = chain.short(g.last_hash)
            english = f"store: the game's row agrees with the log (head #{short})"
            extra.append(("store_agrees", english, {"head": short}))
    return _with(verdict, extra, problem)


def _fields(record: Record) -> dict[str, Any]:
    return {name: getattr(record, name) for name in Record.__slots__}  # type: ignore[attr-defined]


Note = tuple[str, str, dict[str, Any]]
"""One of the referee's own checks: its code, its English and its parameters (as the engine's
``Verification.findings``), so the verdict is said in any language."""


def _with(verdict: Verification, extra: list[Note], problem: str | None) -> Verification:
    """``verdict`` with the store's details added; not ok (with that reason) if ``problem``."""
    findings = verdict.findings if len(verdict.findings) == len(verdict.details) else ()
    added = replace(
        verdict,
        details=(*verdict.details, *(english for _, english, _ in extra)),
        findings=(*findings, *((code, params) for code, _, params in extra)) if findings else (),
    )
    if problem is None or not verdict.ok:
        return added
    return replace(added, ok=False, first_bad=None, reason=problem, summary=None)


def record_json(g: GameRow, actions: Sequence[ActionRow], events: Sequence[EventRow]) -> bytes:
    """The export file: the engine's record (what ``referee-verify`` reads)."""
    del events  # the record format carries the result; events stay in the store
    return build_record(g, actions).to_json().encode()


def check_toss(g: GameRow, events: Sequence[EventRow]) -> str | None:
    """None when the coin toss (if any) is the one the revealed seed gives, else the problem."""
    start = next((e for e in events if e.kind == "start"), None)
    if start is None or g.toss is None:
        return None
    expected = dice.roll(g.seed, str(g.id), TOSS_NUMBER, TOSS_ANNOUNCEMENT, 2)
    if expected != g.toss or start.details.get("toss") != g.toss:
        english = f"the coin toss shows {g.toss}, but the seed gives {expected}"
        return Problem("toss_mismatch", english, toss=g.toss, expected=expected)
    return None


def verify_game(
    g: GameRow, actions: Sequence[ActionRow], events: Sequence[EventRow]
) -> tuple[Verification, list[Note], str | None]:
    """The engine's verdict on the stored record plus the referee's own checks (toss, head):
    (verdict, the checks' notes, the problem they found or None), so that nothing has to tell
    a problem from a note by its words."""
    record = build_record(g, actions)
    verdict = verify(record, head=g.last_hash if actions else None)
    notes: list[Note] = []
    problem = None
    if g.status != "active":
        problem = check_toss(g, events)
        if problem:
            notes.append(("", problem, {}))
        elif g.toss is not None:
            notes.append(("toss_recomputed", "coin toss: recomputed from the seed, equal", {}))
    return verdict, notes, problem


def describe_events(events: Sequence[EventRow]) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "seat": e.seat, "at": iso(e.at), **e.details} for e in events]
