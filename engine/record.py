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
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

from engine import GAME_NAMES, chain, dice, get_game
from engine.core import (
    EngineError,
    Game,
    IllegalAction,
    OptionError,
    Outcome,
    ParseError,
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


# --- the log row and its hash: shared with the store ----------------------------------------


def iso_time(moment: datetime) -> str:
    """The canonical time text of records and log rows: UTC, milliseconds, ``Z``."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise RecordError("a record time needs a time zone (use UTC)")
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
        raise RecordError(f"event kind must be 1 to 30 lower-case letters or '-', not {kind!r}")
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


# --- the record ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's occupant: a stable id (a Discord user id as text) and the name shown."""

    id: str
    name: str

    def __post_init__(self) -> None:
        _text(self.id, "player id", MAX_ID)
        _text(self.name, "player name", MAX_ID)


@dataclass(frozen=True, slots=True)
class RecordAction:
    """One row of the log: who did what, the die's roll (or None), when, and its chain hash."""

    seq: int
    side: int
    actor: str
    notation: str
    roll: int | None
    at: str
    hash: str

    def __post_init__(self) -> None:
        log_row(self.seq, self.side, self.actor, self.notation, self.roll, self.at)
        if not isinstance(self.actor, str):
            raise RecordError("actor must be text")
        if not isinstance(self.at, str):
            raise RecordError("at must be ISO 8601 text")
        _hash(self.hash, "hash")

    def row(self) -> dict[str, Any]:
        """The dict its chain hash covers."""
        return log_row(self.seq, self.side, self.actor, self.notation, self.roll, self.at)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "side": self.side,
            "actor": self.actor,
            "notation": self.notation,
            "roll": self.roll,
            "at": self.at,
            "hash": self.hash,
        }

    @classmethod
    def from_dict(cls, data: Any) -> RecordAction:
        fields = _fields(
            data, ("seq", "side", "actor", "notation", "roll", "at", "hash"), "the action"
        )
        return cls(**fields)


@dataclass(frozen=True, slots=True)
class RecordEvent:
    """A referee's row of the log (version 2): what was decided, by whom, when, and why."""

    kind: str
    seat: int | None
    actor: str | None
    at: str
    note: dict[str, Any]
    hash: str

    def __post_init__(self) -> None:
        event_row(self.kind, self.seat, self.actor, self.at, self.note)
        if self.actor is not None and not isinstance(self.actor, str):
            raise RecordError("actor must be text or null")
        if not isinstance(self.at, str):
            raise RecordError("at must be ISO 8601 text")
        if not isinstance(self.note, dict):
            raise RecordError("note must be an object")
        _hash(self.hash, "hash")

    def row(self) -> dict[str, Any]:
        """The dict its chain hash covers."""
        return event_row(self.kind, self.seat, self.actor, self.at, self.note)

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.kind,
            "seat": self.seat,
            "actor": self.actor,
            "at": self.at,
            "note": self.note,
            "hash": self.hash,
        }

    @classmethod
    def from_dict(cls, data: Any) -> RecordEvent:
        fields = _fields(data, ("event", "seat", "actor", "at", "note", "hash"), "the event")
        kind = fields.pop("event")
        return cls(kind=kind, **fields)

    def outcome(self) -> Outcome | None:
        """The result an ending event states (None for other kinds or a malformed note)."""
        if self.kind not in ENDING_EVENTS:
            return None
        try:
            termination = Termination(str(self.note.get("termination")))
        except ValueError:
            return None
        winner = self.note.get("winner")
        reason = self.note.get("result_reason", self.note.get("reason", ""))
        if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
            return None
        return Outcome(termination, winner, str(reason))


LogEntry = RecordAction | RecordEvent


def live_line(log: tuple[LogEntry, ...]) -> tuple[RecordAction, ...]:
    """The actions still in play: every action, cut back by each takeback or restore."""
    line: list[RecordAction] = []
    for entry in log:
        if isinstance(entry, RecordAction):
            line.append(entry)
        elif entry.kind in LINE_EVENTS:
            to = entry.note.get("to")
            if isinstance(to, int) and not isinstance(to, bool) and 0 <= to <= len(line):
                del line[to:]
    return tuple(line)


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game as evidence. ``seed`` is None while the game runs; ``result`` None too.

    Version 2 records pass ``log`` (actions and events in chain order); ``actions`` is then
    derived from it: the live line.
    """

    game: str
    variant: str
    options: dict[str, Any]
    players: tuple[Player, Player]
    game_id: str
    created: str
    ended: str | None
    commitment: str
    seed: str | None
    actions: tuple[RecordAction, ...] = ()
    result: Outcome | None = None
    log: tuple[LogEntry, ...] = ()
    accept: str | None = None
    words: dict[str, str] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.log, tuple) or not all(
            isinstance(e, RecordAction | RecordEvent) for e in self.log
        ):
            raise RecordError("log must be a tuple of RecordAction and RecordEvent")
        if self.log:
            line = live_line(self.log)
            if self.actions and self.actions != line:
                raise RecordError("actions must be the log's live line (or left empty)")
            object.__setattr__(self, "actions", line)
        if self.game not in GAME_NAMES:
            raise RecordError(f"game must be one of {', '.join(GAME_NAMES)}, not {self.game!r}")
        _text(self.variant, "variant", MAX_VARIANT)
        _options(self.options)
        if (
            not isinstance(self.players, tuple)
            or len(self.players) != 2
            or not all(isinstance(p, Player) for p in self.players)
        ):
            raise RecordError("players must be two players, seat 0 then seat 1")
        _text(self.game_id, "game_id", MAX_ID)
        if not _GAME_ID.fullmatch(self.game_id):
            raise RecordError("game_id may hold only letters, digits and . _ : -")
        _time(self.created, "created")
        if self.ended is not None:
            _time(self.ended, "ended")
        _hash(self.commitment, "dice commitment")
        if self.seed is not None:
            _text(self.seed, "dice seed", MAX_SEED_HEX)
            try:
                dice.commitment(self.seed)
            except EngineError as exc:
                raise RecordError(f"dice seed: {exc}") from None
        if not isinstance(self.actions, tuple) or not all(
            isinstance(a, RecordAction) for a in self.actions
        ):
            raise RecordError("actions must be a tuple of RecordAction")
        if self.result is not None:
            _outcome(self.result)
        if (self.accept is None) != (self.words is None):
            raise RecordError("a version 3 record has both the accept id and the dice words")
        if self.accept is not None:
            if not self.log:
                raise RecordError("a version 3 record has a log")
            _text(self.accept, "dice accept id", MAX_ID)
            ids = sorted(p.id for p in self.players)
            if not isinstance(self.words, dict) or sorted(self.words) != ids:
                raise RecordError("dice words must be an object with one entry per player id")
            for text in self.words.values():
                if not isinstance(text, str) or len(text) > dice.MAX_WORDS:
                    raise RecordError(f"dice words are text of at most {dice.MAX_WORDS} characters")
                _no_surrogate(text)

    @property
    def version(self) -> int:
        """1: the actions alone are chained; 2: the whole log (actions and events) is;
        3: the log covers every field, and the rolls mix the accept id and words."""
        if self.accept is not None:
            return FULL_VERSION
        return LOG_VERSION if self.log else VERSION

    @property
    def mixed(self) -> str | None:
        """``dice.mix`` of a version 3 record (None before version 3)."""
        if self.accept is None or self.words is None:
            return None
        return dice.mix(self.accept, self.words)

    @property
    def head(self) -> str:
        """The last row's chain hash (``chain.GENESIS`` for a game without rows)."""
        if self.log:
            return self.log[-1].hash
        return self.actions[-1].hash if self.actions else chain.GENESIS

    def to_dict(self) -> dict[str, Any]:
        result = None
        if self.result is not None:
            result = {
                "termination": self.result.termination.value,
                "winner": self.result.winner,
                "reason": self.result.reason,
            }
        rows = self.log or self.actions
        return {
            "format": FORMAT,
            "version": self.version,
            "game": self.game,
            "variant": self.variant,
            "options": self.options,
            "game_id": self.game_id,
            "players": [
                {"seat": seat, "id": p.id, "name": p.name} for seat, p in enumerate(self.players)
            ],
            "created": self.created,
            "ended": self.ended,
            "dice": {
                "commitment": self.commitment,
                "seed": self.seed,
                **({} if self.accept is None else {"accept": self.accept, "words": self.words}),
            },
            "result": result,
            ("log" if self.log else "actions"): [a.to_dict() for a in rows],
        }

    def to_json(self) -> str:
        """The record as JSON text: one field per line, one action per line, UTF-8 kept."""

        def dump(value: Any) -> str:
            return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))

        data = self.to_dict()
        key = "log" if self.log else "actions"
        actions = data.pop(key)
        lines = [f" {dump(k)}: {dump(value)}," for k, value in data.items()]
        if actions:
            rows = ",\n".join(f"  {dump(a)}" for a in actions)
            lines.append(f' "{key}": [\n{rows}\n ]')
        else:
            lines.append(f' "{key}": []')
        return "{\n" + "\n".join(lines) + "\n}\n"

    @classmethod
    def from_json(
        cls, text: str | bytes, *, max_chars: int | None = None, max_rows: int | None = None
    ) -> Record:
        """Parse untrusted record text; raises RecordError saying what is wrong and where.

        A record has no size limit of its own (every game the referee allows must export and
        verify); a reader that must bound its work, like the bot's /import, passes
        ``max_chars`` and ``max_rows`` (``MAX_JSON_CHARS`` and ``MAX_ACTIONS``)."""
        if isinstance(text, bytes | bytearray):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError("a record is UTF-8 text") from None
        if not isinstance(text, str):
            raise RecordError("a record is JSON text")
        if max_chars is not None and len(text) > max_chars:
            raise RecordError(f"a record here is at most {max_chars:,} characters")
        _check_nesting(text)
        try:
            data = json.loads(
                text,
                parse_constant=_no_constant,
                parse_int=_bounded_int,
                object_pairs_hook=_unique_keys,
            )
        except (json.JSONDecodeError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
        _check_strings(data)
        return cls.from_dict(data, max_rows=max_rows)

    @classmethod
    def from_dict(cls, data: Any, *, max_rows: int | None = None) -> Record:
        version = data.get("version") if isinstance(data, dict) else None
        rows_key = "log" if version in (LOG_VERSION, FULL_VERSION) else "actions"
        top = _fields(
            data,
            (
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
                rows_key,
            ),
            "the record",
        )
        if top["format"] != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, not {top['format']!r}")
        if version not in VERSIONS or isinstance(version, bool):
            raise RecordError(f"unsupported record version {version!r} (this reads 1, 2 and 3)")
        if not isinstance(top["options"], dict):
            raise RecordError("options must be an object")
        players = top["players"]
        if not isinstance(players, list) or len(players) != 2:
            raise RecordError("players must be a list of two players (seat 0, seat 1)")
        seats = []
        for seat, entry in enumerate(players):
            where = f"players[{seat}]: "
            fields = _wrap(where, partial(_fields, entry, ("seat", "id", "name"), "the player"))
            if fields["seat"] != seat or isinstance(fields["seat"], bool):
                raise RecordError(f"{where}seat must be {seat}")
            seats.append(_wrap(where, partial(Player, fields["id"], fields["name"])))
        dice_names = ("commitment", "seed", "accept", "words")[: 4 if version == 3 else 2]
        dice_fields = _fields(top["dice"], dice_names, "dice")
        actions = top[rows_key]
        if not isinstance(actions, list):
            raise RecordError(f"{rows_key} must be a list")
        if max_rows is not None and len(actions) > max_rows:
            raise RecordError(
                f"a record here holds at most {max_rows} {rows_key} rows, not {len(actions)}"
            )
        parsed = tuple(
            _wrap(f"{rows_key}[{i}]: ", partial(_log_entry, a, rows_key == "log"))
            for i, a in enumerate(actions)
        )
        result = None
        if top["result"] is not None:
            fields = _fields(top["result"], ("termination", "winner", "reason"), "result")
            try:
                termination = Termination(fields["termination"])
            except ValueError:
                raise RecordError(
                    f"result.termination {fields['termination']!r} is not a known ending"
                ) from None
            result = Outcome(termination, fields["winner"], fields["reason"])
        return cls(
            game=top["game"],
            variant=top["variant"],
            options=top["options"],
            players=(seats[0], seats[1]),
            game_id=top["game_id"],
            created=top["created"],
            ended=top["ended"],
            commitment=dice_fields["commitment"],
            seed=dice_fields["seed"],
            actions=() if rows_key == "log" else parsed,
            result=result,
            log=parsed if rows_key == "log" else (),
            accept=dice_fields.get("accept"),
            words=dice_fields.get("words"),
        )


def _log_entry(data: Any, events_allowed: bool) -> LogEntry:
    if events_allowed and isinstance(data, dict) and "event" in data:
        return RecordEvent.from_dict(data)
    return RecordAction.from_dict(data)


# --- replay and verification --------------------------------------------------------------


def start(record: Record) -> tuple[Game[Any, Any], Any]:
    """The record's game object and its starting position."""
    game = get_game(record.game)
    try:
        state = game.new(record.variant, **stored_options(record.game, record.options))
    except OptionError as exc:
        raise RecordError(f"the record's variant and options cannot start a game: {exc}") from None
    return game, state


ATMALOF_BEFORE_DRAWS = {"repetition": False, "move_limit": 0}
"""Atmalof as played before the referee's draw options existed: a stored game or record whose
full options lack both was played without them, and must replay the same."""


def stored_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options to start a stored game or record with (its full options, as stored)."""
    if game == "atmalof" and options and not any(k in options for k in ATMALOF_BEFORE_DRAWS):
        return {**ATMALOF_BEFORE_DRAWS, **options}
    return dict(options)


def replay(record: Record) -> list[Any]:
    """Every position of the game, the start included; raises RecordError at a bad action."""
    game, state = start(record)
    return [state, *(after for _, _, _, after in replay_steps(game, state, record))]


def replay_steps(
    game: Game[Any, Any], state: Any, record: Record
) -> Iterator[tuple[Any, Any, int | None, Any]]:
    """(before, action, roll, after) for each of the record's actions from ``state`` (see
    ``start``); raises RecordError naming the first action that does not parse or apply."""
    for number, entry in enumerate(record.actions, start=1):
        try:
            action = game.parse(state, entry.notation)
            after = game.apply(state, action, entry.roll)
        except ParseError as exc:
            raise RecordError(
                f"action {number}: {entry.notation!r} is not a command of {game.title}: {exc}"
            ) from None
        except IllegalAction as exc:
            raise RecordError(
                f"action {number}: {entry.notation!r} is illegal here: {exc}"
            ) from None
        yield state, action, entry.roll, after
        state = after


@dataclass(frozen=True, slots=True)
class Verification:
    """A verdict: ok, the first bad action (1-based) if any, why, and what was checked."""

    ok: bool
    first_bad: int | None
    reason: str
    details: tuple[str, ...] = ()
    rolls_checked: bool = False
    head: str = chain.GENESIS

    def __str__(self) -> str:
        return ("OK: " if self.ok else "BAD: ") + self.reason


@dataclass(slots=True)
class _Walk:
    """The state of a verification as it walks the log."""

    record: Record
    details: list[str] = field(default_factory=list)
    prev: str = chain.GENESIS
    rolls: int = 0

    def verdict(self, first_bad: int | None, reason: str) -> Verification:
        if first_bad is not None and first_bad > 1:
            rows = "log rows" if self.record.log else "actions"
            self.details.append(f"{rows}: 1 to {first_bad - 1} check out")
        return Verification(
            ok=False,
            first_bad=first_bad,
            reason=reason,
            details=tuple(self.details),
            rolls_checked=self.record.seed is not None,
            head=self.prev,
        )


def verify(record: Record, head: str | None = None) -> Verification:
    """Replay ``record`` and check commitment, rolls, legality, chain hashes and result.

    ``head`` is a chain hash published elsewhere (e.g. on the last board message, its short
    prefix is enough); when given, the log must end on it, which catches deleted final rows.
    A version 2 record is checked row by row, events included (see ``_verify_log``); its
    ``first_bad`` is then the log row's number.
    """
    walk = _Walk(record)
    seed = record.seed
    if seed is None:
        walk.details.append("dice: seed not revealed yet (game running), so rolls are not checked")
    elif not dice.check_commitment(seed, record.commitment):
        return walk.verdict(None, "the revealed seed does not match the dice commitment")
    else:
        walk.details.append("dice: the revealed seed matches the commitment")
    try:
        game, state = start(record)
    except EngineError as exc:
        return walk.verdict(None, str(exc))
    if record.log:
        return _verify_log(walk, game, state, head)
    for number, entry in enumerate(record.actions, start=1):
        problem = _check_action(walk, game, state, number, entry)
        if isinstance(problem, str):
            return walk.verdict(number, f"action {number}: {problem}")
        state = problem
    count = len(record.actions)
    walk.details.append(f"actions: {count} replayed, every one legal and canonical")
    if seed is not None:
        walk.details.append(f"rolls: {walk.rolls} recomputed from the seed, all equal")
    else:
        walk.details.append(f"rolls: {walk.rolls} in range (not recomputed)")
    walk.details.append(f"chain: {count} rows link, head #{chain.short(walk.prev)}")
    problem = _check_result(game, state, record.result)
    if problem:
        return walk.verdict(None, problem)
    walk.details.append(f"result: {_describe_result(game, record.result)}")
    return _conclude(walk, game, head, f"{count} actions")


def _conclude(walk: _Walk, game: Game[Any, Any], head: str | None, counted: str) -> Verification:
    """The published-head check and the positive verdict."""
    record = walk.record
    if head is not None:
        wanted = head.strip().lstrip("#").lower()
        if len(wanted) < chain.SHORT or not walk.prev.startswith(wanted):
            return walk.verdict(
                None, f"the log ends on #{chain.short(walk.prev)}, not the published #{wanted}"
            )
        walk.details.append("chain: the log ends on the published hash")
    reason = f"{record.game} {record.variant}, {counted}, {_describe_result(game, record.result)}"
    if record.seed is None:
        reason += " (rolls not checked: seed not revealed)"
    if record.version < FULL_VERSION:
        uncovered = NOT_CHAINED[record.version]
        reason += f"; record version {record.version} does not cover {uncovered}"
        walk.details.append(
            f"not covered (record version {record.version}): {uncovered}; actors are not "
            "compared with the seats' players; the rolls mix nothing the operator could not pick"
        )
    else:
        walk.details.append(
            "chain: covers every field (the start row holds the game, options, names, accept "
            "id and dice words; the start and end rows' times are created and ended)"
        )
        walk.details.append(
            f"dice: every roll mixes accept id {record.accept} and the players' words"
        )
    return Verification(
        ok=True,
        first_bad=None,
        reason=reason,
        details=tuple(walk.details),
        rolls_checked=record.seed is not None,
        head=walk.prev,
    )


@dataclass(slots=True)
class _Line:
    """The live line while a version 2 log is walked: positions, whether frozen, the end."""

    states: list[Any]
    frozen: bool = False
    ended: Outcome | None = None
    undone: int = 0
    ended_at: str | None = None
    reason: str | None = None


def _verify_log(walk: _Walk, game: Game[Any, Any], first: Any, head: str | None) -> Verification:
    """Walk a version 2 log: every row chained in order, actions replayed on the live line,
    rolls numbered over the whole log (an undone roll keeps its number), events checked."""
    record = walk.record
    line = _Line([first])
    for number, entry in enumerate(record.log, start=1):
        if line.ended is not None:
            return walk.verdict(number, f"row {number}: comes after the game ended")
        if isinstance(entry, RecordAction):
            label = f"row {number} (action {len(line.states)}, {entry.notation!r})"
            if number == 1:
                return walk.verdict(number, f"{label}: the log must open with the start event")
            if line.frozen:
                return walk.verdict(number, f"{label}: played while the game was frozen")
            after = _check_action(walk, game, line.states[-1], len(line.states), entry)
            if isinstance(after, str):
                return walk.verdict(number, f"{label}: {after}")
            line.states.append(after)
            continue
        problem = _check_event(walk, game, line, number, entry)
        if problem:
            return walk.verdict(number, f"row {number} (event {entry.kind}): {problem}")
    final = game.result(line.states[-1])
    if final is not None and line.ended is None:
        return walk.verdict(
            None, f"the replay ends the game ({final.reason}), but the log has no end row"
        )
    stored = record.result
    if (stored is None) != (line.ended is None) or (
        stored is not None
        and line.ended is not None
        and (stored.termination, stored.winner) != (line.ended.termination, line.ended.winner)
    ):
        return walk.verdict(
            None,
            f"the record's result ({_describe_result(game, stored)}) is not the logged one "
            f"({_describe_result(game, line.ended)})",
        )
    if record.version >= FULL_VERSION:
        if record.ended != line.ended_at:
            return walk.verdict(None, "the record's ended time is not the ending row's time")
        if stored is not None and stored.reason != line.reason:
            return walk.verdict(None, "the record's result reason is not the logged one")
    live = len(line.states) - 1
    walk.details.append(
        f"log: {len(record.log)} rows chained, {live} actions in the live line"
        + (f", {line.undone} taken back or restored away" if line.undone else "")
    )
    if record.seed is not None:
        walk.details.append(f"rolls: {walk.rolls} recomputed from the seed, all equal")
    else:
        walk.details.append(f"rolls: {walk.rolls} in range (not recomputed)")
    walk.details.append(f"chain: {len(record.log)} rows link, head #{chain.short(walk.prev)}")
    walk.details.append(f"result: {_describe_result(game, stored)}")
    return _conclude(walk, game, head, f"{live} actions, {len(record.log)} log rows")


def _check_start(record: Record, entry: RecordEvent) -> str | None:
    """A version 3 start row must state every field the chain covers through it; an older
    record must not carry a version 3 start row (a downgrade to escape those checks)."""
    note = entry.note
    if record.version < FULL_VERSION:
        if "record" in note:
            return f"the log was written for a version {note['record']} record"
        return None
    wanted = {
        "record": FULL_VERSION,
        "game": record.game,
        "variant": record.variant,
        "options": record.options,
        "game_id": record.game_id,
        "names": [p.name for p in record.players],
        "accept": record.accept,
        "words": record.words,
    }
    for name, value in wanted.items():
        if note.get(name) != value:
            return f"the record's {name} is not the one logged at the start"
    if entry.at != record.created:
        return "the record's created time is not the start row's time"
    return None


def _check_event(
    walk: _Walk, game: Game[Any, Any], line: _Line, number: int, entry: RecordEvent
) -> str | None:
    """What is wrong with an event row (None: it checks out, and ``line`` is updated)."""
    record = walk.record
    expected_hash = chain_hash(walk.prev, entry.row())
    if entry.hash != expected_hash:
        return "its chain hash does not match the row (the row or its hash was altered)"
    walk.prev = expected_hash
    note = entry.note
    if (number == 1) != (entry.kind == "start"):
        return "the log opens with the start event, and only there"
    if entry.kind == "start":
        if note.get("commitment") != record.commitment:
            return "the dice commitment logged at the start is not the record's"
        ids = [str(p) for p in note.get("players") or []]
        if ids != [p.id for p in record.players]:
            return "the seats logged at the start are not the record's players"
        problem = _check_start(record, entry)
        if problem:
            return problem
        toss = note.get("toss")
        if toss is not None and record.seed is not None:
            expected = dice.roll(
                record.seed, record.game_id, TOSS_NUMBER, TOSS_ANNOUNCEMENT, 2, record.mixed
            )
            if toss != expected:
                return f"the coin toss shows {toss}, but the seed gives {expected}"
            walk.details.append("coin toss: recomputed from the seed, equal")
    elif entry.kind in LINE_EVENTS:
        to, live = note.get("to"), len(line.states) - 1
        if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to <= live:
            return f"it must go back to an action from 0 to {live}, not {to!r}"
        line.undone += live - to
        del line.states[to + 1 :]
    elif entry.kind in ENDING_EVENTS:
        outcome = entry.outcome()
        if outcome is None:
            return "its note does not state a result (termination, winner, reason)"
        problem = _check_result(game, line.states[-1], outcome)
        if problem:
            return problem
        wanted = ENDING_EVENTS[entry.kind]
        if wanted is None and outcome.termination in REFEREE_TERMINATIONS:
            return f"an engine's end cannot be {outcome.termination.value}"
        if wanted is not None and outcome.termination is not wanted:
            return f"a {entry.kind} ends by {wanted.value}, not {outcome.termination.value}"
        if entry.kind == "resign" and entry.seat is not None and outcome.winner != 1 - entry.seat:
            return "the player who resigned cannot be the winner"
        line.ended = outcome
        line.ended_at = entry.at
        line.reason = outcome.reason
    if entry.kind == FREEZE_EVENT:
        line.frozen = True
    elif entry.kind in THAW_EVENTS:
        line.frozen = False
    return None


def _check_action(
    walk: _Walk, game: Game[Any, Any], state: Any, number: int, entry: RecordAction
) -> Any:
    """The state after ``entry``, or a string saying what is wrong with it."""
    names = game.side_names
    text = entry.notation
    if entry.seq != number:
        return f"its number is {entry.seq} (rows are missing, repeated or out of order)"
    if entry.side != state.to_move:
        return f"{names[entry.side]} acted, but it was {names[state.to_move]}'s turn"
    seated = walk.record.players[entry.side].id
    if walk.record.version >= FULL_VERSION and entry.actor != seated:
        return f"the actor {entry.actor!r} is not {names[entry.side]}'s player ({seated!r})"
    over = game.result(state)
    if over is not None:
        return f"{text!r} comes after the game ended ({over.reason})"
    try:
        action = game.parse(state, text)
    except ParseError as exc:
        return f"{text!r} is not a command of {game.title}: {exc}"
    except IllegalAction as exc:
        return f"{text!r} is illegal here: {exc}"
    canonical = game.notation(state, action)
    if canonical != text:
        return f"{text!r} is not written canonically (expected {canonical!r})"
    faces = game.die_faces(state, action)
    if faces is None and entry.roll is not None:
        return f"{text!r} rolls no die, but the record has roll {entry.roll}"
    if faces is not None:
        if entry.roll is None:
            return f"{text!r} rolls a {faces}-sided die, but the record has no roll"
        if not 1 <= entry.roll <= faces:
            return f"roll {entry.roll} is not a face of a {faces}-sided die"
        walk.rolls += 1
        record = walk.record
        if record.seed is not None:
            expected = dice.roll(record.seed, record.game_id, walk.rolls, text, faces, record.mixed)
            if entry.roll != expected:
                return f"roll {entry.roll} does not match the seed (expected {expected})"
    try:
        after = game.apply(state, action, entry.roll)
    except IllegalAction as exc:
        return f"{text!r} is illegal here: {exc}"
    expected_hash = chain_hash(walk.prev, entry.row())
    if entry.hash != expected_hash:
        return "its chain hash does not match the row (the row or its hash was altered)"
    walk.prev = expected_hash
    return after


def _check_result(game: Game[Any, Any], state: Any, stored: Outcome | None) -> str | None:
    replayed = game.result(state)
    names = game.side_names
    if stored is None:
        if replayed is not None:
            return (
                f"the replay ends the game ({replayed.termination.value}: {replayed.reason}), "
                "but the record stores no result"
            )
        return None
    if stored.termination in REFEREE_TERMINATIONS:
        if replayed is not None:
            return (
                f"the record says {stored.termination.value}, but the engine had already ended "
                f"the game ({replayed.termination.value}: {replayed.reason})"
            )
        if stored.termination in _DRAWN_ONLY and stored.winner is not None:
            return f"a game ended by {stored.termination.value} has no winner"
        if stored.termination in _DECISIVE_ONLY and stored.winner is None:
            return f"a game ended by {stored.termination.value} has a winner"
        return None
    if replayed is None:
        return (
            f"the record says the game ended by {stored.termination.value}, "
            "but in the replay it is still running"
        )
    if (replayed.termination, replayed.winner) != (stored.termination, stored.winner):
        return (
            f"the record says {stored.termination.value}, {_winner(names, stored.winner)}, "
            f"but the replay gives {replayed.termination.value}, "
            f"{_winner(names, replayed.winner)}"
        )
    return None


def _winner(names: tuple[str, str], winner: int | None) -> str:
    return "a draw" if winner is None else f"{names[winner]} wins"


def _describe_result(game: Game[Any, Any], result: Outcome | None) -> str:
    if result is None:
        return "game running"
    how = result.termination.value.replace("_", " ")
    if result.termination is Termination.ABORTED:
        return "aborted, no result"
    return f"{_winner(game.side_names, result.winner)} by {how}"


# --- building a record --------------------------------------------------------------------


class Recorder:
    """Plays a game and writes its record as it goes: rolls from the seed, hashes chained.

    ``log=True`` writes a version 2 record: a start event first, ``event``/``takeback`` rows
    between the actions, and an ending event from ``finish``.

    >>> rec = Recorder("atmalof", game_id="demo")        # doctest: +SKIP
    >>> rec.play("drop row 4")                           # doctest: +SKIP
    >>> record = rec.finish()                            # doctest: +SKIP
    """

    def __init__(
        self,
        game: str,
        variant: str = "standard",
        options: Mapping[str, Any] | None = None,
        *,
        players: tuple[tuple[str, str], tuple[str, str]] = (("p0", "Player 1"), ("p1", "Player 2")),
        game_id: str | None = None,
        seed: str | None = None,
        clock: Callable[[], datetime] | None = None,
        log: bool = False,
        accept: str | None = None,
        words: Mapping[str, str] | None = None,
    ) -> None:
        self.game = get_game(game)
        self.state = self.game.new(variant, **dict(options or {}))
        self.states: list[Any] = [self.state]
        self.seed = seed if seed is not None else dice.new_seed()
        self._clock = clock or (lambda: datetime.now(UTC))
        self._players = (Player(*players[0]), Player(*players[1]))
        self._game_id = game_id if game_id is not None else secrets.token_hex(8)
        self._options = json.loads(json.dumps(self.game.options(self.state)))
        self._created = iso_time(self._clock())
        self._actions: list[RecordAction] = []
        self._rolls = 0
        self._result: Outcome | None = None
        self._ended: str | None = None
        self._name = self.game.name
        self._head = chain.GENESIS
        self._log: list[LogEntry] | None = None
        self._accept = accept
        self._words: dict[str, str] | None = None
        self._mixed: str | None = None
        if accept is not None:  # a version 3 record: words default to "" for each player
            self._words = {p.id: "" for p in self._players} | dict(words or {})
            self._mixed = dice.mix(accept, self._words)
            log = True
        if log:
            self._log = []
            ids = [p.id for p in self._players]
            note: dict[str, Any] = {
                "commitment": dice.commitment(self.seed),
                "players": ids,
                "toss": None,
            }
            if accept is not None:
                note |= {
                    "record": FULL_VERSION,
                    "game": self._name,
                    "variant": self.state.variant,
                    "options": self._options,
                    "game_id": self._game_id,
                    "names": [p.name for p in self._players],
                    "accept": accept,
                    "words": self._words,
                }
            self.event("start", note=note, at=self._created if accept is not None else None)

    @property
    def game_id(self) -> str:
        return self._game_id

    def play(self, command: Any, actor: str | None = None) -> RecordAction:
        """Apply one command (text or an action object), rolling the die when it needs one."""
        if self._ended is not None:
            raise IllegalAction("the game is over")
        game, state = self.game, self.state
        action = game.parse(state, command) if isinstance(command, str) else command
        notation = game.notation(state, action)
        faces = game.die_faces(state, action)
        roll = None
        if faces is not None:
            roll = dice.roll(
                self.seed, self._game_id, self._rolls + 1, notation, faces, self._mixed
            )
        after = game.apply(state, action, roll)
        if faces is not None:
            self._rolls += 1
        side = state.to_move
        seq = len(self._actions) + 1
        at = iso_time(self._clock())
        who = actor if actor is not None else self._players[side].id
        prev = self._head
        entry = RecordAction(
            seq, side, who, notation, roll, at, row_hash(prev, seq, side, who, notation, roll, at)
        )
        self._actions.append(entry)
        self._head = entry.hash
        if self._log is not None:
            self._log.append(entry)
        self.state = after
        self.states.append(after)
        return entry

    def event(
        self,
        kind: str,
        *,
        seat: int | None = None,
        actor: str | None = None,
        note: Mapping[str, Any] | None = None,
        at: str | None = None,
    ) -> RecordEvent:
        """Append a referee's event to a version 2 log (``log=True``)."""
        if self._log is None:
            raise RecordError("events belong to a version 2 record: Recorder(..., log=True)")
        at = at if at is not None else iso_time(self._clock())
        row = event_row(kind, seat, actor, at, note)
        entry = RecordEvent(kind, seat, row["actor"], at, row["note"], chain_hash(self._head, row))
        self._log.append(entry)
        self._head = entry.hash
        return entry

    def takeback(self, to: int, *, kind: str = "takeback", actor: str | None = None) -> None:
        """Cut the live line back to ``to`` actions (a takeback, or a moderator's restore)."""
        self.event(kind, actor=actor, note={"to": to})
        del self._actions[to:]
        del self.states[to + 1 :]
        self.state = self.states[-1]

    def finish(self, result: Outcome | None = None) -> Record:
        """End the game (the engine's result, or a referee's ``result``) and reveal the seed."""
        if self._ended is None:
            self._result = result if result is not None else self.game.result(self.state)
            self._ended = iso_time(self._clock())
            if self._log is not None and self._result is not None:
                kind = _ending_kind(self._result.termination)
                seat = None if kind != "resign" else 1 - (self._result.winner or 0)
                note = {
                    "termination": self._result.termination.value,
                    "winner": self._result.winner,
                    "reason": self._result.reason,
                }
                self.event(kind, seat=seat, note=note, at=self._ended)
        return self.record(reveal=True)

    def record(self, reveal: bool | None = None) -> Record:
        """The record so far; the seed shows only when ``reveal`` (default: once finished)."""
        show = self._ended is not None if reveal is None else reveal
        return Record(
            game=self._name,
            variant=self.state.variant,
            options=json.loads(json.dumps(self._options)),
            players=self._players,
            game_id=self._game_id,
            created=self._created,
            ended=self._ended,
            commitment=dice.commitment(self.seed),
            seed=self.seed if show else None,
            actions=() if self._log is not None else tuple(self._actions),
            result=self._result,
            log=tuple(self._log or ()),
            accept=self._accept,
            words=None if self._words is None else dict(self._words),
        )


def _ending_kind(termination: Termination) -> str:
    """The event kind that logs a result (the first kind whose termination it is)."""
    for kind, wanted in ENDING_EVENTS.items():
        if wanted is termination:
            return kind
    return "end"


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
