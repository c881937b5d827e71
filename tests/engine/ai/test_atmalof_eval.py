"""The Atmalof evaluation: open lines read from tables agree with a plain count over windows,
and a four is judged by who reaches its hole first (king steps through empty squares)."""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai.atmalof import _TEMPO, AtmalofEvaluator
from engine.ai.search import WIN
from engine.atmalof import Drop
from engine.playout import favouring, playout

EVAL = AtmalofEvaluator()


def naive_lines(state: object) -> tuple[float, float, int]:
    """Both sides' open-line scores and the number of windows one piece short, window by
    window (8^(k-1) for k pieces of one colour)."""
    config = state.config  # type: ignore[attr-defined]
    board = state.board  # type: ignore[attr-defined]
    score, near = [0.0, 0.0], 0
    for seg in config.tables.segments:
        for s in range(len(seg) - config.line + 1):
            window = [board[i] for i in seg[s : s + config.line]]
            red, blue = window.count(1), window.count(2)
            if (red and blue) or not (red or blue):
                continue
            n = red or blue
            near += n == config.line - 1
            score[0 if red else 1] += 8.0 ** (n - 1) if n < config.line else 0.0
    return score[0], score[1], near


@pytest.mark.parametrize("seed", range(40))
def test_open_lines_from_tables_equal_a_count_window_by_window(seed: int) -> None:
    game = engine.get_game("atmalof")
    rng = random.Random(seed)
    state = playout(game, game.new(), rng, rng.randrange(4, 30), favouring(Drop, 0.7))
    if game.result(state) is not None:
        return
    red, blue, near = naive_lines(state)
    if near:
        return  # threats add a race term, tested below
    me = state.to_move
    mine, theirs = (red, blue) if me == 0 else (blue, red)
    assert EVAL.evaluate(state) == pytest.approx(_TEMPO * mine - theirs)


def evaluate(text: str) -> float:
    return EVAL.evaluate(engine.get_game("atmalof").from_text(text))


# Red's row 1 holds columns 1-4; its hole (1,5) is beyond a step for now. Red's piece at (3,5)
# is two steps from the hole; Blue's nearest piece, (7,7), is six.
RED_FIRST = (
    "standard board=RRRR.../......./....R../......./......./......./......B "
    "hands=17,21 turn=red ply=10"
)


def test_a_four_whose_hole_the_owner_reaches_first_is_nearly_won() -> None:
    assert evaluate(RED_FIRST) > 0.5 * WIN


def test_the_same_four_is_nearly_lost_for_the_side_that_cannot_block_it() -> None:
    assert evaluate(RED_FIRST.replace("turn=red", "turn=blue")) < -0.5 * WIN


def test_a_defender_next_to_the_hole_takes_the_race_away() -> None:
    # Blue at (2,6) steps into (1,5) before Red's piece arrives: no longer a won race.
    text = RED_FIRST.replace("/......./....R../", "/.....B./....R../").replace(
        "......B hands=17,21", "....... hands=17,21"
    )
    assert abs(evaluate(text)) < 0.5 * WIN


def test_a_wall_lengthens_the_way_to_the_hole() -> None:
    # Blue walls off row 2 under the hole: Red's piece must walk round (far), Blue's (2,6)
    # blocks first, so Blue to move is not lost.
    walled = (
        "standard board=RRRR.../...BBBB/....R../......./......./......./....... "
        "hands=17,18 turn=blue ply=10"
    )
    assert evaluate(walled) > -0.5 * WIN
