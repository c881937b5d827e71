"""Game records: one JSON document that proves what happened in a game, and its checker.

A record holds the game, variant and full options, the two players, the dice commitment (and the
seed once the game is over), every action with its roll, time and chain hash, and the stored
result. ``verify`` replays it through the engine and recomputes every roll and hash, so anyone
holding the record can check the referee. docs/record-format.md is the format's reference.

Version 1 chains the live line of actions only. Version 2 chains one ``log`` in the order it was
written: the actions (taken-back ones included) and the referee's events (the start with the dice
commitment, takebacks, disputes, moderators' decisions, the end), so a referee-decided result is
as tamper-evident as a move. Version 3 leaves no field outside the chain: its start row holds the
game, options, players' names, accept id and dice words, the start and end rows' times are the
record's created and ended, every action's actor must be its seat's player, and every roll mixes
``dice.mix(accept, words)``. ``Record.actions`` is always the live line.

The store appends log rows with ``log_row``/``event_row`` and ``chain_hash`` (the only definition
of what a row's hash covers); tests and tools build records with ``Recorder``.

One module a concept, each importing only those above it: ``fields`` (the format's constants and
limits, ``RecordError``, the checks of each field), ``rows`` (a log row and its hash),
``format`` (``Record`` and its rows, read from and written to JSON), ``replay`` (positions),
``verify`` (the verdict) and ``recorder`` (building a record). Import the names from here.
"""

from __future__ import annotations

from engine.record.fields import (
    ENDING_EVENTS,
    FORMAT,
    FREEZE_EVENT,
    FULL_VERSION,
    LINE_EVENTS,
    LOG_VERSION,
    MAX_ACTIONS,
    MAX_DEPTH,
    MAX_ID,
    MAX_INT_DIGITS,
    MAX_JSON_CHARS,
    MAX_NOTATION,
    MAX_NOTE_CHARS,
    MAX_OPTIONS_CHARS,
    MAX_REASON,
    MAX_SEED_HEX,
    MAX_TIME,
    MAX_VARIANT,
    NOT_CHAINED,
    REFEREE_TERMINATIONS,
    START_FIELDS,
    THAW_EVENTS,
    TOSS_ANNOUNCEMENT,
    TOSS_NUMBER,
    VERSION,
    VERSIONS,
    RecordError,
    problem_of,
)
from engine.record.format import (
    LogEntry,
    Player,
    Record,
    RecordAction,
    RecordEvent,
    live_line,
)
from engine.record.recorder import (
    Recorder,
)
from engine.record.replay import (
    ATMALOF_BEFORE_DRAWS,
    replay,
    replay_steps,
    start,
    stored_options,
)
from engine.record.rows import (
    chain_hash,
    event_hash,
    event_row,
    iso_time,
    log_row,
    row_hash,
    utc_now,
)
from engine.record.verify import (
    Problem,
    Verification,
    verify,
)

__all__ = [
    "ATMALOF_BEFORE_DRAWS",
    "ENDING_EVENTS",
    "FORMAT",
    "FREEZE_EVENT",
    "FULL_VERSION",
    "LINE_EVENTS",
    "LOG_VERSION",
    "MAX_ACTIONS",
    "MAX_DEPTH",
    "MAX_ID",
    "MAX_INT_DIGITS",
    "MAX_JSON_CHARS",
    "MAX_NOTATION",
    "MAX_NOTE_CHARS",
    "MAX_OPTIONS_CHARS",
    "MAX_REASON",
    "MAX_SEED_HEX",
    "MAX_TIME",
    "MAX_VARIANT",
    "NOT_CHAINED",
    "REFEREE_TERMINATIONS",
    "START_FIELDS",
    "THAW_EVENTS",
    "TOSS_ANNOUNCEMENT",
    "TOSS_NUMBER",
    "VERSION",
    "VERSIONS",
    "LogEntry",
    "Player",
    "Problem",
    "Record",
    "RecordAction",
    "RecordError",
    "RecordEvent",
    "Recorder",
    "Verification",
    "chain_hash",
    "event_hash",
    "event_row",
    "iso_time",
    "live_line",
    "log_row",
    "problem_of",
    "replay",
    "replay_steps",
    "row_hash",
    "start",
    "stored_options",
    "utc_now",
    "verify",
]
