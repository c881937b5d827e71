"""OpenSpiel's MCTS bot as a Morris opponent for the match runner (the optional [bench] extra).

OpenSpiel's ``nine_mens_morris`` numbers the 24 points as our engine does (a7, d7, g7, b6, ...,
g1 in reading order), places and removes with "Point N" actions and moves with "Move S -> D";
so each of our actions is found among OpenSpiel's legal actions by its numbers. The bot's
OpenSpiel state is rebuilt from the game's actions at every move (no state is shared between
the two engines). OpenSpiel ends a game at 214 plies, so matches against it use that cap.
"""

from __future__ import annotations

import re
from typing import Any

from engine.morris import Move, Place, Remove

OPENSPIEL_MAX_PLIES = 214


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text))


def to_openspiel(os_state: Any, action: Any) -> int:
    """The OpenSpiel action id of one of our Morris actions in the matching OpenSpiel state."""
    if isinstance(action, Place | Remove):
        want: tuple[int, ...] = (action.point,)
    elif isinstance(action, Move):
        want = (action.src, action.dst)
    else:
        raise ValueError(f"{action!r} is not a Morris action")
    for a in os_state.legal_actions():
        if _numbers(os_state.action_to_string(a)) == want:
            return a
    raise ValueError(f"OpenSpiel has no legal action for {action!r}")


def from_openspiel(state: Any, os_state: Any, os_action: int) -> Any:
    """Our Morris action for an OpenSpiel action id, found among our legal actions."""
    import engine

    game = engine.get_game("morris")
    numbers = _numbers(os_state.action_to_string(os_action))
    for action in game.legal(state):
        mine = (action.src, action.dst) if isinstance(action, Move) else (action.point,)
        if mine == numbers:
            return action
    raise ValueError(f"no legal action matches OpenSpiel's {os_state.action_to_string(os_action)}")


def mcts_player(game_name: str, simulations: int = 1000) -> Any:
    """A match-runner player backed by ``open_spiel.python.algorithms.mcts.MCTSBot``."""
    if game_name != "morris":
        raise ValueError("OpenSpiel's MCTS opponent is wired for Morris only")
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    os_game = pyspiel.load_game("nine_mens_morris")

    def play(state: Any, history: list[Any], seed: int) -> Any:
        os_state = os_game.new_initial_state()
        for action in history:
            os_state.apply_action(to_openspiel(os_state, action))
        rng = np.random.RandomState(seed % 2**32)
        bot = mcts.MCTSBot(
            os_game,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
            solve=True,
            random_state=rng,
        )
        return from_openspiel(state, os_state, bot.step(os_state))

    return play
