"""What a record may hold: its format's constants and limits, ``RecordError``, and the
checks of each field (a record is untrusted text: every field is bounded and typed)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from engine import dice
from engine.core import (
    EngineError,
    Outcome,
    Termination,
)

FORMAT = "board-referee/record"
VERSION = 1  # actions only
LOG_VERSION = 2  # actions and events in one chain
FULL_VERSION = 3  # the log covers every field; rolls mix the accept id and the players' words
VERSIONS = (VERSION, LOG_VERSION, FULL_VERSION)
NOT_CHAINED = {
    VERSION: "the events, the result, the players' names, the created and ended times",
    LOG_VERSION: "the players' names, the created and ended times, the result's reason",
}
"""What an older version's chain does not cover (its verdict says so)."""
START_FIELDS = ("record", "game", "variant", "options", "game_id", "names", "accept", "words")
"""What a version 3 start row adds to its note, so the chain covers the record's every field."""

MAX_ACTIONS = 5000  # rows a reader may insist on (the bot's /import); a record has no limit
MAX_NOTATION = 200
MAX_ID = 100  # player ids, game ids, display names
MAX_VARIANT = 40
MAX_REASON = 500
MAX_OPTIONS_CHARS = 4000  # the options object, as compact JSON
MAX_JSON_CHARS = 2_000_000  # a whole record's text, for a reader that bounds it (/import)
MAX_SEED_HEX = 128
MAX_TIME = 40
MAX_NOTE_CHARS = 2000  # an event's note, as compact JSON
MAX_DEPTH = 32  # lists and objects inside one another (a record needs 4, a note or option a few)
MAX_INT_DIGITS = 30  # digits of a JSON integer

REFEREE_TERMINATIONS: frozenset[Termination] = frozenset(
    {
        Termination.RESIGNATION,
        Termination.AGREEMENT,
        Termination.TIMEOUT,
        Termination.ABANDONMENT,
        Termination.ABORTED,
        Termination.AWARDED,
    }
)
"""Ends the referee decides; the engine's replay cannot reproduce them, only allow them."""

_DRAWN_ONLY = frozenset({Termination.AGREEMENT, Termination.ABORTED})
_DECISIVE_ONLY = frozenset({Termination.RESIGNATION})
ENDING_EVENTS: dict[str, Termination | None] = {
    "end": None,  # the engine's own result (line, blocked, six_off, ...)
    "resign": Termination.RESIGNATION,
    "draw": Termination.AGREEMENT,
    "timeout": Termination.TIMEOUT,
    "abandon": Termination.ABANDONMENT,
    "abort": Termination.ABORTED,
    "void": Termination.ABORTED,
    "award": Termination.AWARDED,
}
"""Event kinds that end a game, and the termination each must carry (None: the engine's)."""
LINE_EVENTS = frozenset({"takeback", "restore"})
"""Event kinds that cut the live line back to ``note["to"]`` actions; later rows stay logged."""
FREEZE_EVENT, THAW_EVENTS = "dispute", frozenset({"resume", "restore"})
"""A dispute freezes the game: no action may follow until a resume or restore (or the end)."""
TOSS_ANNOUNCEMENT, TOSS_NUMBER = "coin toss", 0

_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_KIND = re.compile(r"[a-z][a-z-]{0,29}")
_HASH = re.compile(r"[0-9a-f]{64}")


class RecordError(EngineError):
    """A record that is malformed (not one that is well-formed but wrong: see ``verify``)."""


# --- field checks -------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise RecordError(f"not JSON: {name} is not a number")


def _bounded_int(digits: str) -> int:
    """A JSON integer of at most ``MAX_INT_DIGITS`` digits (Python refuses > 4,300 with a
    ValueError deep in ``json``; no field of a record needs more than a few)."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise RecordError(f"a number has more than {MAX_INT_DIGITS} digits")
    return int(digits)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different: a repeated key would let two readers see two
    different records in one text (most keep the last, some the first)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise RecordError(f"not JSON of a record: the key {key[:40]!r} appears twice")
        data[key] = value
    return data


_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _check_nesting(text: str) -> None:
    """Refuse lists and objects nested deeper than ``MAX_DEPTH`` before parsing: deep nesting
    makes ``json`` (and every later walk of the value) hit Python's recursion limit."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecordError(f"not JSON: lists or objects nested over {MAX_DEPTH} deep")
        elif token in "]}":
            depth -= 1


def _check_strings(data: Any) -> None:
    """Refuse text with a lone surrogate (JSON's ``\\ud800``): it is not Unicode text, cannot
    be written as UTF-8, and so cannot be hashed. Also bounds the nesting of values built in
    Python (``_check_nesting`` does it for text)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _no_surrogate(value)
        elif isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise RecordError(f"not a record: lists or objects nested over {MAX_DEPTH} deep")
            if isinstance(value, dict):
                for key in value:
                    if isinstance(key, str):
                        _no_surrogate(key)
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)


def _no_surrogate(value: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(
            f"not a record: the text {value[:40]!r} holds a lone surrogate (not Unicode)"
        ) from None


def _wrap(where: str, make: Callable[[], Any]) -> Any:
    try:
        return make()
    except RecordError as exc:
        raise RecordError(f"{where}{exc}") from None


def _fields(data: Any, names: tuple[str, ...], label: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError(f"{label} must be an object")
    missing = [n for n in names if n not in data]
    if missing:
        raise RecordError(f"{label} misses the field {missing[0]!r}")
    extra = sorted(set(data) - set(names))
    if extra:
        raise RecordError(f"{label} has an unknown field {extra[0]!r}")
    return {n: data[n] for n in names}


def _text(value: Any, name: str, limit: int) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{name} must be text, not {type(value).__name__}")
    if not value or len(value) > limit:
        raise RecordError(f"{name} must be 1 to {limit} characters")
    _no_surrogate(value)
    return value


def _positive(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RecordError(f"{name} must be a whole number from 1, not {value!r}")
    return value


def _side(value: Any, name: str) -> int:
    if isinstance(value, bool) or value not in (0, 1) or not isinstance(value, int):
        raise RecordError(f"{name} must be 0 or 1, not {value!r}")
    return value


def _roll(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= dice.MAX_FACES:
        raise RecordError(f"{name} must be a face 1..{dice.MAX_FACES} or null, not {value!r}")
    return value


def _time(value: Any, name: str) -> str:
    _text(value, name, MAX_TIME)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(f"{name} must be an ISO 8601 time, not {value!r}") from None
    offset = moment.utcoffset()
    if offset is None or offset.total_seconds() != 0:
        raise RecordError(f"{name} must be in UTC (ending in Z), not {value!r}")
    return value


def _hash(value: Any, name: str) -> str:
    if not isinstance(value, str) or not _HASH.fullmatch(value):
        raise RecordError(f"{name} must be 64 lower-case hex digits")
    return value


def _options(value: Any) -> None:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise RecordError("options must be an object with text keys")
    _check_strings(value)
    try:
        text = json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"options must be plain JSON values: {exc}") from None
    if len(text) > MAX_OPTIONS_CHARS:
        raise RecordError(f"options must be at most {MAX_OPTIONS_CHARS} characters of JSON")


def _note(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise RecordError("note must be an object with text keys")
    _check_strings(dict(value))
    try:
        text = json.dumps(dict(value), allow_nan=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"note must hold plain JSON values: {exc}") from None
    if len(text) > MAX_NOTE_CHARS:
        raise RecordError(f"note must be at most {MAX_NOTE_CHARS} characters of JSON")
    return json.loads(text)


def _outcome(value: Any) -> None:
    if not isinstance(value, Outcome) or not isinstance(value.termination, Termination):
        raise RecordError("result must be an Outcome")
    if value.winner is not None:
        _side(value.winner, "result.winner")
    if not isinstance(value.reason, str) or len(value.reason) > MAX_REASON:
        raise RecordError(f"result.reason must be text of at most {MAX_REASON} characters")


class Problem(str):
    """What is wrong with a record, in English (it is a ``str``: callers that only read the text
    need nothing new), with the same as data: ``code`` and ``params`` (parameters may be
    problems themselves, side indexes, notations, numbers, ``Outcome``s), so a front end can say
    it in another language."""

    code: str
    params: Mapping[str, Any]

    def __new__(cls, code: str, english: str, **params: Any) -> Problem:
        made = super().__new__(cls, english)
        made.code = code
        made.params = params
        return made


def engine_problem(exc: EngineError) -> Problem:
    """An engine refusal inside a problem: its English, its reason code and parameters (said
    in another language from ``engine.<game>.<code>``)."""
    return Problem(
        "engine",
        str(exc),
        reason=getattr(exc, "code", None),
        engine_params=dict(getattr(exc, "params", {}) or {}),
    )
