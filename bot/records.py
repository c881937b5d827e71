"""A stored game as an ``engine.record.Record``: the export format and what ``verify`` checks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.store import ActionRow, EventRow, GameRow
from engine import Outcome, Termination, dice
from engine.record import Player, Record, RecordAction, Verification, iso_time, verify

TOSS_ANNOUNCEMENT = "coin toss"
TOSS_NUMBER = 0  # drops roll 1, 2, ...; the coin toss before the game is roll 0


def iso(t: float) -> str:
    """A stored unix time as record text (UTC, milliseconds)."""
    return iso_time(datetime.fromtimestamp(t, UTC))


def outcome_of(g: GameRow) -> Outcome | None:
    if g.termination is None:
        return None
    return Outcome(Termination(g.termination), g.winner, g.reason or "")


def build_record(g: GameRow, actions: Sequence[ActionRow]) -> Record:
    """The record of the game's live line; the seed only once the game is over."""
    over = g.status != "active"
    return Record(
        game=g.game,
        variant=g.variant,
        options=json.loads(g.options),
        players=(Player(str(g.player0), g.name0), Player(str(g.player1), g.name1)),
        game_id=str(g.id),
        created=iso(g.created_at),
        ended=iso(g.ended_at) if over and g.ended_at is not None else None,
        commitment=g.commitment,
        seed=g.seed if over else None,
        actions=tuple(
            RecordAction(a.seq, a.side, a.actor, a.action, a.roll, a.at, a.hash) for a in actions
        ),
        result=outcome_of(g),
    )


def record_json(g: GameRow, actions: Sequence[ActionRow], events: Sequence[EventRow]) -> bytes:
    """The export file: the engine's record (what ``python -m engine.verify`` reads)."""
    del events  # the record format carries the result; events stay in the store
    return build_record(g, actions).to_json().encode()


def check_toss(g: GameRow, events: Sequence[EventRow]) -> str | None:
    """None when the coin toss (if any) is the one the revealed seed gives, else the problem."""
    start = next((e for e in events if e.kind == "start"), None)
    if start is None or g.toss is None:
        return None
    expected = dice.roll(g.seed, str(g.id), TOSS_NUMBER, TOSS_ANNOUNCEMENT, 2)
    if expected != g.toss or start.details.get("toss") != g.toss:
        return f"the coin toss shows {g.toss}, but the seed gives {expected}"
    return None


def verify_game(
    g: GameRow, actions: Sequence[ActionRow], events: Sequence[EventRow]
) -> tuple[Verification, list[str]]:
    """The engine's verdict on the stored record plus the referee's own checks (toss, head)."""
    record = build_record(g, actions)
    verdict = verify(record, head=g.last_hash if actions else None)
    extra: list[str] = []
    if g.status != "active":
        problem = check_toss(g, events)
        if problem:
            extra.append(problem)
        elif g.toss is not None:
            extra.append("coin toss: recomputed from the seed, equal")
    return verdict, extra


def describe_events(events: Sequence[EventRow]) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "seat": e.seat, "at": iso(e.at), **e.details} for e in events]
