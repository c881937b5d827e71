"""A record's positions: its game started with its stored options, each action applied."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine import get_game
from engine.core import (
    Game,
    IllegalAction,
    OptionError,
    ParseError,
)
from engine.record.fields import Problem, RecordError, engine_problem, quoted
from engine.record.format import Record

# --- replay and verification --------------------------------------------------------------


def start(record: Record) -> tuple[Game[Any, Any], Any]:
    """The record's game object and its starting position."""
    game = get_game(record.game)
    try:
        state = game.new(record.variant, **stored_options(record.game, record.options))
    except OptionError as exc:
        english = f"the record's variant and options cannot start a game: {exc}"
        why = engine_problem(exc)
        raise RecordError(Problem("cannot_start", english, game=record.game, why=why)) from None
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
            english = f"{quoted(entry.notation)} is not a command of {game.title}: {exc}"
            problem = Problem("not_a_command", english, action=quoted(entry.notation),
                              game=game.name, why=engine_problem(exc))  # fmt: skip
            raise RecordError(_at(number, problem)) from None
        except IllegalAction as exc:
            english = f"{quoted(entry.notation)} is illegal here: {exc}"
            problem = Problem("illegal", english, action=quoted(entry.notation), game=game.name,
                              why=engine_problem(exc))  # fmt: skip
            raise RecordError(_at(number, problem)) from None
        yield state, action, entry.roll, after
        state = after


def _at(number: int, problem: Problem) -> Problem:
    """``problem`` found at action ``number`` (the error's message, and the same as data)."""
    return Problem("at_action", f"action {number}: {problem}", n=number, problem=problem)
