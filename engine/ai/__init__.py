"""A practice opponent for all three games, at levels 1 to 5 (pure: no I/O, no asyncio).

>>> import engine
>>> from engine.ai import choose
>>> morris = engine.get_game("morris")
>>> state = morris.new("standard")
>>> action = choose("morris", state, level_number=1, seed=7)
>>> morris.is_legal(state, action)
True
>>> choose("morris", morris.to_text(state), level_number=1, seed=7) == action
True

``choose`` takes the position as a state or as its text (``to_text``; both pickle, so a worker
process can receive either; text drops the repetition history) and returns a legal action.
Given the seed and the node budget the choice is deterministic; the time limit is only a
safety bound. Atmalof is searched by expectimax (a drop is a chance node over the die), Morris
and Abalone by alpha-beta; see engine/ai/search.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import engine
from engine.ai.abalone import AbaloneEvaluator
from engine.ai.atmalof import AtmalofEvaluator
from engine.ai.levels import GREEDY, LEVELS, Level, level, on_clock
from engine.ai.morris import MorrisEvaluator
from engine.ai.search import WIN, Evaluator, Search, SearchResult
from engine.core import Game

_EVALUATORS: dict[str, Evaluator] = {
    "atmalof": AtmalofEvaluator(),
    "morris": MorrisEvaluator(),
    "abalone": AbaloneEvaluator(),
}


def evaluator(game_name: str) -> Evaluator:
    """The evaluation the search uses for a game (also the ``greedy`` opponent's)."""
    return _EVALUATORS[engine.get_game(game_name).name]


def _state(game: Game[Any, Any], position: Any) -> Any:
    """``position`` as a state: a state itself, or its text (``to_text``)."""
    return game.from_text(position) if isinstance(position, str) else position


def _spec(
    game: Game[Any, Any], level_number: int, nodes: int | None, seconds: float | None = None
) -> Level:
    """Level ``level_number``'s budget for ``game``, with ``nodes`` and ``seconds`` (its CPU
    bound) in place of its own where given."""
    spec = level(level_number, game.name)
    if nodes is not None:
        spec = replace(spec, nodes=nodes)
    return spec if seconds is None else replace(spec, seconds=seconds)


def analyse(
    game_name: str,
    position: Any,
    spec: Level,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Search ``position`` with the budget and randomness of ``spec``; see ``choose``.
    ``stop``: asked as often as the clock; True ends the search at once (its caller left)."""
    game = engine.get_game(game_name)
    state = _state(game, position)
    rng = random.Random(seed)
    if spec.blunder and rng.random() < spec.blunder:
        actions = game.legal(state)
        if not actions:
            raise ValueError("the game is over: there is no action to choose")
        return SearchResult(rng.choice(actions), 0.0, 0, 0)
    search = Search(
        game,
        evaluator(game.name),
        spec.budget(),
        noise=spec.noise,
        seed=rng.getrandbits(32),
        stop=stop,
    )
    return search.run(state)


def standing(game_name: str, position: Any, seat: int) -> float:
    """How ``seat`` stands in ``position`` by the ``greedy`` look one ply ahead: positive if
    better, in its evaluation's units (a won game ``WIN``, a drawn one 0).

    The side to move searches its actions (an Atmalof drop averaged over the die) and the value
    is turned to ``seat``'s view. A static evaluation alone is seen by the side to move, and
    Atmalof's gives having the move itself about a sixth of a win: the bot that answered draw
    offers by it accepted every offer made on the person's turn.
    """
    game = engine.get_game(game_name)
    state = _state(game, position)
    outcome = game.result(state)
    if outcome is not None:
        return 0.0 if outcome.winner is None else WIN if outcome.winner == seat else -WIN
    value = Search(game, evaluator(game.name), GREEDY.budget()).run(state, valued=True).value
    return value if state.to_move == seat else -value


def choose(
    game_name: str,
    position: Any,
    level_number: int,
    seed: int = 0,
    *,
    nodes: int | None = None,
) -> Any:
    """The practice opponent's action at ``level_number`` (1..5) in ``position``.

    ``nodes`` overrides the level's node budget (tests and benchmarks keep searches small).
    Raises OptionError for a bad level or game, ParseError for bad position text, and
    ValueError when the game is already over.
    """
    spec = _spec(engine.get_game(game_name), level_number, nodes)
    return analyse(game_name, position, spec, seed).action


def choose_turn(
    game_name: str,
    position: Any,
    level_number: int,
    seed: int = 0,
    *,
    nodes: int | None = None,
    seconds: float | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[Any]:
    """The practice opponent's whole turn: ``choose``'s action and, when that leaves it to move
    again (a Morris mill owes a removal), the removal, so that the bot plays both as one
    command, as a person may ("place g7 x d1"). The removal is the one the same search chose
    below the mill; a search that never looked there (one legal action, a beginner's random
    move) searches the removal on its own. ``nodes`` and ``seconds`` replace the level's
    budget (a game clock's share: ``levels.on_clock``)."""
    game = engine.get_game(game_name)
    spec = _spec(game, level_number, nodes, seconds)
    state = _state(game, position)
    found = analyse(game_name, state, spec, seed, stop)
    turn = [found.action]
    if game.die_faces(state, found.action):  # a drop: its die is rolled after it is shown
        return turn
    after = game.apply(state, found.action)
    if after.to_move == state.to_move and game.result(after) is None:
        then = found.then
        if then is None or then not in game.legal(after):
            then = analyse(game_name, after, spec, seed + 1, stop).action
        turn.append(then)
    return turn


__all__ = [
    "GREEDY",
    "LEVELS",
    "Level",
    "SearchResult",
    "analyse",
    "choose",
    "choose_turn",
    "evaluator",
    "level",
    "on_clock",
    "standing",
]
