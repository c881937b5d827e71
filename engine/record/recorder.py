"""``Recorder``: plays a game and writes its record as it goes (tests and tools)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from engine import chain, dice, get_game
from engine.core import (
    IllegalAction,
    Outcome,
    Termination,
)
from engine.record.fields import ENDING_EVENTS, FULL_VERSION, Problem, RecordError
from engine.record.format import LogEntry, Player, Record, RecordAction, RecordEvent
from engine.record.rows import chain_hash, event_row, iso_time, row_hash

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
            english = "events belong to a version 2 record: Recorder(..., log=True)"
            raise RecordError(Problem("events_need_log", english))
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
