"""What a record may hold: its format's constants and limits, ``RecordError``, and the
checks of each field (a record is untrusted text: every field is bounded and typed)."""

from __future__ import annotations

import json
import math
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


def quoted(value: Any) -> str:
    """A value a record holds, as a problem quotes it: written as JSON (``"chess"``, ``null``,
    ``true``), the language of the file its reader wrote, where Python's ``repr`` said
    ``'chess'``, ``None``, ``True``; bounded to 100 characters, since it is the reader's text.
    Text JSON cannot say in UTF-8 (a lone surrogate) is written with ``\\u`` escapes, and a
    value JSON cannot write at all (a Python-built record's) falls back to ``repr``."""
    if isinstance(value, str):
        value = value[:100]  # the bound first: a long text is not written whole to be cut
    try:
        said = json.dumps(value, ensure_ascii=False)
        said.encode("utf-8")
    except UnicodeEncodeError:
        said = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        said = repr(value)
    return said[:100]


def engine_problem(exc: EngineError) -> Problem:
    """An engine refusal inside a problem: its English, its reason code and parameters (said
    in another language from ``engine.<game>.<code>``)."""
    return Problem(
        "engine",
        str(exc),
        reason=getattr(exc, "code", None),
        engine_params=dict(getattr(exc, "params", {}) or {}),
    )


class RecordError(EngineError):
    """A record that is malformed (not one that is well-formed but wrong: see ``verify``). Its
    argument is a ``Problem`` (``problem.<code>`` says it in another language)."""


def problem_of(exc: BaseException) -> Problem | str:
    """What an error says about a record: its ``Problem``, an engine refusal as one, or else
    its English text."""
    said = exc.args[0] if exc.args else ""
    if isinstance(said, Problem):
        return said
    if isinstance(exc, EngineError):
        return engine_problem(exc)
    return str(exc)


# --- JSON's own refusals, in plain words ---------------------------------------------------

JSON_SYNTAX: tuple[tuple[str, str, str], ...] = (
    # (how Python's json message starts, the problem's code, its English)
    ("Expecting value", "json_value_missing", "a value is missing"),
    (
        "Expecting property name",
        "json_name_missing",
        "a field name in double quotes is missing",
    ),
    ("Expecting ':'", "json_colon_missing", "a ':' is missing after a field name"),
    ("Expecting ','", "json_comma_missing", "a ',' is missing between two values"),
    ("Unterminated string", "json_text_unclosed", 'a text is missing its closing "'),
    (
        "Invalid control character",
        "json_control_character",
        "a text holds a line break, tab or other control character",
    ),
    ("Invalid \\uXXXX", "json_bad_unicode", "a \\u in a text is not followed by 4 hex digits"),
    (
        "Invalid \\escape",
        "json_bad_escape",
        "a backslash (\\) in a text is followed by a character JSON does not allow there",
    ),
    ("Extra data", "json_extra_data", "there is more after the record's end"),
    ("Unexpected UTF-8 BOM", "json_bom", "the text starts with a byte order mark"),
    (
        "Illegal trailing comma",
        "json_trailing_comma",
        "a ',' comes right before the end of a list or object",
    ),
)
"""Python's ``json`` refuses text with one of a few fixed messages (some with a detail after
them): each has a code of its own, so no language shows Python's wording."""


def json_syntax(message: str) -> Problem:
    """What Python's ``json`` message ``message`` means, in plain words (``problem.json_*``)."""
    for start, code, english in JSON_SYNTAX:
        if message.startswith(start):
            return Problem(code, english)
    return Problem("json_syntax", "something here is not written as JSON allows")


# --- field checks -------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise RecordError(Problem("not_json_constant", f"not JSON: {name} is not a number", name=name))


def _bounded_int(digits: str) -> int:
    """A JSON integer of at most ``MAX_INT_DIGITS`` digits (Python refuses > 4,300 with a
    ValueError deep in ``json``; no field of a record needs more than a few)."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        english = f"a number has more than {MAX_INT_DIGITS} digits"
        raise RecordError(Problem("number_too_long", english, most=MAX_INT_DIGITS))
    return int(digits)


def _finite_float(digits: str) -> float:
    """A JSON number with a fraction or exponent that a float holds (1e999 would be infinite,
    which no JSON writer can write back)."""
    value = float(digits)
    if not math.isfinite(value):
        english = f"the number {digits[:40]} is too large"
        raise RecordError(Problem("number_too_large", english, number=digits[:40]))
    return value


def _not_plain(value: Any, exc: Exception) -> Problem:
    """Why ``json.dumps`` refused ``value`` (built in Python), in plain words. Told apart by
    what ``json`` does, not by its message: a value it writes once NaN and infinity are
    allowed held such a number; one it still refuses holds itself."""
    if isinstance(exc, TypeError):
        english = "a value is not text, a number, true, false, null, a list or an object"
        return Problem("json_not_a_value", english)
    try:
        json.dumps(value)
    except ValueError:
        return Problem("json_circular", "a list or object holds itself")
    return Problem("json_not_finite", "a number is infinite or not a number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different: a repeated key would let two readers see two
    different records in one text (most keep the last, some the first)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            repeated = key[:40]
            english = f"not JSON of a record: the key '{repeated}' appears twice"
            raise RecordError(Problem("duplicate_key", english, repeated=repeated))
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
                english = f"not JSON: lists or objects nested over {MAX_DEPTH} deep"
                raise RecordError(Problem("json_too_deep", english, most=MAX_DEPTH))
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
                english = f"not a record: lists or objects nested over {MAX_DEPTH} deep"
                raise RecordError(Problem("value_too_deep", english, most=MAX_DEPTH))
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
        said = quoted(value[:40])  # written as \ud800: the text stays sayable
        english = f"not a record: the text {said} holds a lone surrogate (not Unicode)"
        raise RecordError(Problem("lone_surrogate", english, text=said)) from None


def _wrap(where: str, make: Callable[[], Any]) -> Any:
    try:
        return make()
    except RecordError as exc:
        raise RecordError(at_place(where, problem_of(exc))) from None


def at_place(where: str, problem: Problem | str) -> Problem:
    """``problem`` found in one part of the record (``where``: "players[0]: ", "log[3]: ")."""
    place = where.removesuffix(": ")
    return Problem("at_place", f"{where}{problem}", place=place, problem=problem)


def part(label: str) -> Problem | str:
    """A part of a record as a problem names it: "the record", "the player", "the action",
    "the event" are said in each language (``problem.part_<name>``); a field's own name
    ("dice", "result") is a JSON key, the same in every language."""
    if label.startswith("the "):
        return Problem(f"part_{label.removeprefix('the ')}", label)
    return label


def _fields(data: Any, names: tuple[str, ...], label: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError(Problem("not_an_object", f"{label} must be an object", label=part(label)))
    missing = [n for n in names if n not in data]
    if missing:
        english = f"{label} misses the field '{missing[0]}'"
        raise RecordError(Problem("missing_field", english, label=part(label), field=missing[0]))
    extra = sorted(set(data) - set(names))
    if extra:
        field = extra[0][:100]  # the reader's key: bounded, said as the catalog says it
        english = f"{label} has an unknown field '{field}'"
        raise RecordError(Problem("unknown_field", english, label=part(label), field=field))
    return {n: data[n] for n in names}


_JSON_KINDS: dict[type, tuple[str, str]] = {
    bool: ("json_kind_boolean", "true or false"),
    int: ("json_kind_number", "a number"),
    float: ("json_kind_number", "a number"),
    type(None): ("json_kind_null", "null"),
    list: ("json_kind_list", "a list"),
    dict: ("json_kind_object", "an object"),
}


def json_kind(value: Any) -> Problem:
    """What kind of JSON value ``value`` is, in words (``problem.json_kind_*``): a player
    reads "a number", not Python's "int"."""
    code, english = _JSON_KINDS.get(type(value), ("json_kind_other", "another kind of value"))
    return Problem(code, english)


def _text(value: Any, name: str, limit: int) -> str:
    if not isinstance(value, str):
        kind = json_kind(value)
        english = f"{name} must be text, not {kind}"
        raise RecordError(Problem("not_text", english, name=name, kind=kind))
    if not value or len(value) > limit:
        english = f"{name} must be 1 to {limit} characters"
        raise RecordError(Problem("text_length", english, name=name, most=limit))
    _no_surrogate(value)
    return value


def _positive(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        english = f"{name} must be a whole number from 1, not {quoted(value)}"
        raise RecordError(Problem("not_positive", english, name=name, value=quoted(value)))
    return value


def _side(value: Any, name: str) -> int:
    if isinstance(value, bool) or value not in (0, 1) or not isinstance(value, int):
        english = f"{name} must be 0 or 1, not {quoted(value)}"
        raise RecordError(Problem("not_a_seat", english, name=name, value=quoted(value)))
    return value


def _roll(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= dice.MAX_FACES:
        said = quoted(value)
        english = f"{name} must be a face 1..{dice.MAX_FACES} or null, not {said}"
        problem = Problem("not_a_face", english, name=name, most=dice.MAX_FACES, value=said)
        raise RecordError(problem)
    return value


def _time(value: Any, name: str) -> str:
    _text(value, name, MAX_TIME)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        english = f"{name} must be an ISO 8601 time, not {quoted(value)}"
        raise RecordError(Problem("not_a_time", english, name=name, value=quoted(value))) from None
    offset = moment.utcoffset()
    if offset is None or offset.total_seconds() != 0:
        english = f"{name} must be in UTC (ending in Z), not {quoted(value)}"
        raise RecordError(Problem("not_utc", english, name=name, value=quoted(value)))
    return value


def _hash(value: Any, name: str) -> str:
    if not isinstance(value, str) or not _HASH.fullmatch(value):
        english = f"{name} must be 64 lower-case hex digits"
        raise RecordError(Problem("not_a_hash", english, name=name))
    return value


def _options(value: Any) -> None:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        english = "options must be an object with text keys"
        raise RecordError(Problem("not_text_keys", english, name="options"))
    _check_strings(value)
    try:
        text = json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        why = _not_plain(value, exc)
        english = f"options must be plain JSON values: {why}"
        raise RecordError(Problem("options_not_plain", english, why=why)) from None
    if len(text) > MAX_OPTIONS_CHARS:
        english = f"options must be at most {MAX_OPTIONS_CHARS} characters of JSON"
        raise RecordError(Problem("json_too_long", english, name="options", most=MAX_OPTIONS_CHARS))


def _note(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        english = "note must be an object with text keys"
        raise RecordError(Problem("not_text_keys", english, name="note"))
    _check_strings(dict(value))
    try:
        text = json.dumps(dict(value), allow_nan=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        why = _not_plain(dict(value), exc)
        english = f"note must hold plain JSON values: {why}"
        raise RecordError(Problem("note_not_plain", english, why=why)) from None
    if len(text) > MAX_NOTE_CHARS:
        english = f"note must be at most {MAX_NOTE_CHARS} characters of JSON"
        raise RecordError(Problem("json_too_long", english, name="note", most=MAX_NOTE_CHARS))
    return json.loads(text)


def _outcome(value: Any) -> None:
    if not isinstance(value, Outcome) or not isinstance(value.termination, Termination):
        raise RecordError(Problem("not_an_outcome", "result must be an Outcome"))
    if value.winner is not None:
        _side(value.winner, "result.winner")
    if not isinstance(value.reason, str) or len(value.reason) > MAX_REASON:
        english = f"result.reason must be text of at most {MAX_REASON} characters"
        raise RecordError(Problem("reason_too_long", english, most=MAX_REASON))
