"""The record itself: players, log rows (actions and events), and ``Record`` with its JSON
reading (bounded, strict) and writing (docs/record-format.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from typing import Any

from engine import GAME_NAMES, chain, dice
from engine.core import (
    EngineError,
    Outcome,
    Termination,
)
from engine.record.fields import (
    _GAME_ID,
    ENDING_EVENTS,
    FORMAT,
    FULL_VERSION,
    LINE_EVENTS,
    LOG_VERSION,
    MAX_ID,
    MAX_SEED_HEX,
    MAX_VARIANT,
    VERSION,
    VERSIONS,
    RecordError,
    _bounded_int,
    _check_nesting,
    _check_strings,
    _fields,
    _hash,
    _no_constant,
    _no_surrogate,
    _options,
    _outcome,
    _text,
    _time,
    _unique_keys,
    _wrap,
)
from engine.record.rows import event_row, log_row

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
