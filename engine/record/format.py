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
    Problem,
    RecordError,
    _bounded_int,
    _check_nesting,
    _check_strings,
    _fields,
    _finite_float,
    _hash,
    _no_constant,
    _no_surrogate,
    _options,
    _outcome,
    _text,
    _time,
    _unique_keys,
    _wrap,
    at_place,
    engine_problem,
    json_syntax,
    quoted,
)
from engine.record.rows import event_row, log_row

# --- the record ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's occupant: a stable id (a Discord user id as text) and the name shown."""

    id: str
    name: str

    def __post_init__(self) -> None:
        _text(self.id, "id", MAX_ID)  # JSON keys: a problem names them as the file does
        _text(self.name, "name", MAX_ID)


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
            raise RecordError(Problem("text_only", "actor must be text", name="actor"))
        if not isinstance(self.at, str):
            raise RecordError(Problem("iso_text", "at must be ISO 8601 text", name="at"))
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
            raise RecordError(Problem("text_or_null", "actor must be text or null", name="actor"))
        if not isinstance(self.at, str):
            raise RecordError(Problem("iso_text", "at must be ISO 8601 text", name="at"))
        if not isinstance(self.note, dict):
            raise RecordError(Problem("not_an_object", "note must be an object", label="note"))
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
            english = "log must be a tuple of RecordAction and RecordEvent"
            raise RecordError(Problem("log_not_rows", english))
        if self.log:
            line = live_line(self.log)
            if self.actions and self.actions != line:
                english = "actions must be the log's live line (or left empty)"
                raise RecordError(Problem("not_the_live_line", english))
            object.__setattr__(self, "actions", line)
        if self.game not in GAME_NAMES:
            choices = ", ".join(GAME_NAMES)
            value = quoted(self.game)
            english = f"game must be one of {choices}, not {value}"
            problem = Problem("not_a_game", english, choices=choices, value=value)
            raise RecordError(problem)
        _text(self.variant, "variant", MAX_VARIANT)
        _options(self.options)
        if (
            not isinstance(self.players, tuple)
            or len(self.players) != 2
            or not all(isinstance(p, Player) for p in self.players)
        ):
            english = "players must be two players, seat 0 then seat 1"
            raise RecordError(Problem("not_two_players", english))
        _text(self.game_id, "game_id", MAX_ID)
        if not _GAME_ID.fullmatch(self.game_id):
            english = "game_id may hold only letters, digits and . _ : -"
            raise RecordError(Problem("bad_game_id", english))
        _time(self.created, "created")
        if self.ended is not None:
            _time(self.ended, "ended")
        _hash(self.commitment, "dice.commitment")
        if self.seed is not None:
            _text(self.seed, "dice.seed", MAX_SEED_HEX)
            try:
                dice.commitment(self.seed)
            except EngineError as exc:
                problem = Problem("bad_seed", f"dice seed: {exc}", why=engine_problem(exc))
                raise RecordError(problem) from None
        if not isinstance(self.actions, tuple) or not all(
            isinstance(a, RecordAction) for a in self.actions
        ):
            english = "actions must be a tuple of RecordAction"
            raise RecordError(Problem("actions_not_rows", english))
        if self.result is not None:
            _outcome(self.result)
        if (self.accept is None) != (self.words is None):
            english = "a version 3 record has both the accept id and the dice words"
            raise RecordError(Problem("accept_and_words", english))
        if self.accept is not None:
            if not self.log:
                raise RecordError(Problem("v3_without_log", "a version 3 record has a log"))
            _text(self.accept, "dice.accept", MAX_ID)
            ids = sorted(p.id for p in self.players)
            if not isinstance(self.words, dict) or sorted(self.words) != ids:
                english = "dice words must be an object with one entry per player id"
                raise RecordError(Problem("words_per_player", english))
            for text in self.words.values():
                if not isinstance(text, str) or len(text) > dice.MAX_WORDS:
                    english = f"dice words are text of at most {dice.MAX_WORDS} characters"
                    raise RecordError(Problem("words_too_long", english, most=dice.MAX_WORDS))
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
            try:  # an editor may save a byte order mark first: it is no part of the record
                text = bytes(text).decode("utf-8-sig")
            except UnicodeDecodeError:
                raise RecordError(Problem("not_utf8", "a record is UTF-8 text")) from None
        if not isinstance(text, str):
            raise RecordError(Problem("not_json_text", "a record is JSON text"))
        text = text.removeprefix("\ufeff")
        if max_chars is not None and len(text) > max_chars:
            english = f"a record here is at most {max_chars:,} characters"
            raise RecordError(Problem("record_too_long", english, most=max_chars))
        _check_nesting(text)
        try:
            data = json.loads(
                text,
                parse_constant=_no_constant,
                parse_int=_bounded_int,
                parse_float=_finite_float,
                object_pairs_hook=_unique_keys,
            )
        except json.JSONDecodeError as exc:  # Python's words said plainly, where it stopped
            why = json_syntax(exc.msg)
            english = f"not JSON: {why} (line {exc.lineno}, column {exc.colno})"
            where = {"line": exc.lineno, "column": exc.colno, "char": exc.pos}
            raise RecordError(Problem("not_json", english, why=why, **where)) from None
        except RecursionError:
            why = json_syntax("")
            raise RecordError(Problem("not_json_other", f"not JSON: {why}", why=why)) from None
        _check_strings(data)
        return cls.from_dict(data, max_rows=max_rows)

    @classmethod
    def from_dict(cls, data: Any, *, max_rows: int | None = None) -> Record:
        version = data.get("version") if isinstance(data, dict) else None
        if isinstance(data, dict):  # which fields a record has depends on these two
            if "format" in data:
                _format(data["format"])
            if "version" in data:
                _version(version)
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
        if not isinstance(top["options"], dict):
            english = "options must be an object"
            raise RecordError(Problem("not_an_object", english, label="options"))
        players = top["players"]
        if not isinstance(players, list) or len(players) != 2:
            english = "players must be a list of two players (seat 0, seat 1)"
            raise RecordError(Problem("players_not_two", english))
        seats = []
        for seat, entry in enumerate(players):
            where = f"players[{seat}]: "
            fields = _wrap(where, partial(_fields, entry, ("seat", "id", "name"), "the player"))
            if fields["seat"] != seat or isinstance(fields["seat"], bool):
                wrong = Problem("wrong_seat", f"seat must be {seat}", seat=seat)
                raise RecordError(at_place(where, wrong))
            seats.append(_wrap(where, partial(Player, fields["id"], fields["name"])))
        dice_names = ("commitment", "seed", "accept", "words")[: 4 if version == 3 else 2]
        dice_fields = _fields(top["dice"], dice_names, "dice")
        actions = top[rows_key]
        if not isinstance(actions, list):
            raise RecordError(Problem("not_a_list", f"{rows_key} must be a list", name=rows_key))
        if max_rows is not None and len(actions) > max_rows:
            english = f"a record here holds at most {max_rows} {rows_key} rows, not {len(actions)}"
            problem = Problem(
                "too_many_rows", english, most=max_rows, name=rows_key, count=len(actions)
            )
            raise RecordError(problem)
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
                value = quoted(fields["termination"])
                english = f"result.termination {value} is not a known ending"
                raise RecordError(Problem("unknown_ending", english, value=value)) from None
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


def _format(value: Any) -> None:
    if value != FORMAT:
        said = quoted(value)
        english = f"format must be {quoted(FORMAT)}, not {said}"
        raise RecordError(Problem("bad_format", english, wanted=FORMAT, value=said))


def _version(value: Any) -> None:
    if value not in VERSIONS or isinstance(value, bool):
        said = quoted(value)
        english = f"unsupported record version {said} (this reads 1, 2 and 3)"
        raise RecordError(Problem("bad_version", english, value=said))


def _log_entry(data: Any, events_allowed: bool) -> LogEntry:
    if events_allowed and isinstance(data, dict) and "event" in data:
        return RecordEvent.from_dict(data)
    return RecordAction.from_dict(data)
