"""Game records: one JSON document that proves what happened in a game, and its checker.

A record holds the game, variant and full options, the two players, the dice commitment (and the
seed once the game is over), every action with its roll, time and chain hash, and the stored
result. ``verify`` replays it through the engine and recomputes every roll and hash, so anyone
holding the record can check the referee. docs/record-format.md is the format's reference.

The store appends log rows with ``log_row`` and ``chain_hash`` (the only definition of what a
row's hash covers); tests and tools build records with ``Recorder``.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
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
VERSION = 1

MAX_ACTIONS = 5000
MAX_NOTATION = 200
MAX_ID = 100  # player ids, game ids, display names
MAX_VARIANT = 40
MAX_REASON = 500
MAX_OPTIONS_CHARS = 4000  # the options object, as compact JSON
MAX_JSON_CHARS = 2_000_000  # a whole record's text
MAX_SEED_HEX = 128
MAX_TIME = 40

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
_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
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
class Record:
    """A whole game as evidence. ``seed`` is None while the game runs; ``result`` None too."""

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

    def __post_init__(self) -> None:
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
        if len(self.actions) > MAX_ACTIONS:
            raise RecordError(f"a record holds at most {MAX_ACTIONS} actions")
        if self.result is not None:
            _outcome(self.result)

    @property
    def head(self) -> str:
        """The last row's chain hash (``chain.GENESIS`` for a game without actions)."""
        return self.actions[-1].hash if self.actions else chain.GENESIS

    def to_dict(self) -> dict[str, Any]:
        result = None
        if self.result is not None:
            result = {
                "termination": self.result.termination.value,
                "winner": self.result.winner,
                "reason": self.result.reason,
            }
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "variant": self.variant,
            "options": self.options,
            "game_id": self.game_id,
            "players": [
                {"seat": seat, "id": p.id, "name": p.name} for seat, p in enumerate(self.players)
            ],
            "created": self.created,
            "ended": self.ended,
            "dice": {"commitment": self.commitment, "seed": self.seed},
            "result": result,
            "actions": [a.to_dict() for a in self.actions],
        }

    def to_json(self) -> str:
        """The record as JSON text: one field per line, one action per line, UTF-8 kept."""

        def dump(value: Any) -> str:
            return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))

        data = self.to_dict()
        actions = data.pop("actions")
        lines = [f" {dump(key)}: {dump(value)}," for key, value in data.items()]
        if actions:
            rows = ",\n".join(f"  {dump(a)}" for a in actions)
            lines.append(f' "actions": [\n{rows}\n ]')
        else:
            lines.append(' "actions": []')
        return "{\n" + "\n".join(lines) + "\n}\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Parse untrusted record text; raises RecordError saying what is wrong and where."""
        if isinstance(text, bytes | bytearray):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError("a record is UTF-8 text") from None
        if not isinstance(text, str):
            raise RecordError("a record is JSON text")
        if len(text) > MAX_JSON_CHARS:
            raise RecordError(f"a record is at most {MAX_JSON_CHARS:,} characters")
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise RecordError(f"not JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
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
                "actions",
            ),
            "the record",
        )
        if top["format"] != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, not {top['format']!r}")
        version = top["version"]
        if version != VERSION or isinstance(version, bool):
            raise RecordError(f"unsupported record version {version!r} (this reads {VERSION})")
        if not isinstance(top["options"], dict):
            raise RecordError("options must be an object")
        players = top["players"]
        if not isinstance(players, list) or len(players) != 2:
            raise RecordError("players must be a list of two players (seat 0, seat 1)")
        seats = []
        for seat, entry in enumerate(players):
            where = f"players[{seat}]: "
            fields = _wrap(where, lambda e=entry: _fields(e, ("seat", "id", "name"), "the player"))
            if fields["seat"] != seat or isinstance(fields["seat"], bool):
                raise RecordError(f"{where}seat must be {seat}")
            seats.append(_wrap(where, lambda f=fields: Player(f["id"], f["name"])))
        dice_fields = _fields(top["dice"], ("commitment", "seed"), "dice")
        actions = top["actions"]
        if not isinstance(actions, list):
            raise RecordError("actions must be a list")
        if len(actions) > MAX_ACTIONS:
            raise RecordError(f"a record holds at most {MAX_ACTIONS} actions, not {len(actions)}")
        parsed = tuple(
            _wrap(f"actions[{i}]: ", lambda a=a: RecordAction.from_dict(a))
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
            actions=parsed,
            result=result,
        )


# --- replay and verification --------------------------------------------------------------


def start(record: Record) -> tuple[Game[Any, Any], Any]:
    """The record's game object and its starting position."""
    game = get_game(record.game)
    try:
        state = game.new(record.variant, **record.options)
    except OptionError as exc:
        raise RecordError(f"the record's variant and options cannot start a game: {exc}") from None
    return game, state


def replay(record: Record) -> list[Any]:
    """Every position of the game, the start included; raises RecordError at a bad action."""
    game, state = start(record)
    states = [state]
    for number, entry in enumerate(record.actions, start=1):
        try:
            action = game.parse(state, entry.notation)
            state = game.apply(state, action, entry.roll)
        except ParseError as exc:
            raise RecordError(
                f"action {number}: {entry.notation!r} is not a command of {game.title}: {exc}"
            ) from None
        except IllegalAction as exc:
            raise RecordError(
                f"action {number}: {entry.notation!r} is illegal here: {exc}"
            ) from None
        states.append(state)
    return states


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
            self.details.append(f"actions: 1 to {first_bad - 1} check out")
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
    if head is not None:
        wanted = head.strip().lstrip("#").lower()
        if len(wanted) < chain.SHORT or not walk.prev.startswith(wanted):
            return walk.verdict(
                None, f"the log ends on #{chain.short(walk.prev)}, not the published #{wanted}"
            )
        walk.details.append("chain: the log ends on the published hash")
    reason = (
        f"{record.game} {record.variant}, {count} actions, {_describe_result(game, record.result)}"
    )
    if seed is None:
        reason += " (rolls not checked: seed not revealed)"
    return Verification(
        ok=True,
        first_bad=None,
        reason=reason,
        details=tuple(walk.details),
        rolls_checked=seed is not None,
        head=walk.prev,
    )


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
        if walk.record.seed is not None:
            expected = dice.roll(walk.record.seed, walk.record.game_id, walk.rolls, text, faces)
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
    return f"{_winner(game.side_names, result.winner)} by {result.termination.value}"


# --- building a record --------------------------------------------------------------------


class Recorder:
    """Plays a game and writes its record as it goes: rolls from the seed, hashes chained.

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
            roll = dice.roll(self.seed, self._game_id, self._rolls + 1, notation, faces)
        after = game.apply(state, action, roll)
        if faces is not None:
            self._rolls += 1
        side = state.to_move
        seq = len(self._actions) + 1
        at = iso_time(self._clock())
        who = actor if actor is not None else self._players[side].id
        prev = self._actions[-1].hash if self._actions else chain.GENESIS
        entry = RecordAction(
            seq, side, who, notation, roll, at, row_hash(prev, seq, side, who, notation, roll, at)
        )
        self._actions.append(entry)
        self.state = after
        self.states.append(after)
        return entry

    def finish(self, result: Outcome | None = None) -> Record:
        """End the game (the engine's result, or a referee's ``result``) and reveal the seed."""
        if self._ended is None:
            self._result = result if result is not None else self.game.result(self.state)
            self._ended = iso_time(self._clock())
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
            actions=tuple(self._actions),
            result=self._result,
        )


# --- field checks -------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise RecordError(f"not JSON: {name} is not a number")


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
    if moment.utcoffset() is None or moment.utcoffset().total_seconds() != 0:
        raise RecordError(f"{name} must be in UTC (ending in Z), not {value!r}")
    return value


def _hash(value: Any, name: str) -> str:
    if not isinstance(value, str) or not _HASH.fullmatch(value):
        raise RecordError(f"{name} must be 64 lower-case hex digits")
    return value


def _options(value: Any) -> None:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise RecordError("options must be an object with text keys")
    try:
        text = json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"options must be plain JSON values: {exc}") from None
    if len(text) > MAX_OPTIONS_CHARS:
        raise RecordError(f"options must be at most {MAX_OPTIONS_CHARS} characters of JSON")


def _outcome(value: Any) -> None:
    if not isinstance(value, Outcome) or not isinstance(value.termination, Termination):
        raise RecordError("result must be an Outcome")
    if value.winner is not None:
        _side(value.winner, "result.winner")
    if not isinstance(value.reason, str) or len(value.reason) > MAX_REASON:
        raise RecordError(f"result.reason must be text of at most {MAX_REASON} characters")
