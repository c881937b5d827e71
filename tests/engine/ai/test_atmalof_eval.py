"""The Atmalof evaluation: open lines read from tables agree with a plain count over windows,
a four is judged by who reaches its hole first (king steps through empty squares), and the
value is an expected result, bounded and monotone in what it reads."""

from __future__ import annotations

import random

import pytest

import engine
from engine.ai.atmalof import _SCALE, _SURE, AtmalofEvaluator, expected, features
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
    hands = state.hands[me] - state.hands[1 - me]
    assert features(state) == pytest.approx((mine, theirs, 0.0, hands))
    assert EVAL.evaluate(state) == pytest.approx(expected(mine, theirs, 0.0, hands))


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
    game = engine.get_game("atmalof")
    race = features(game.from_text(text))
    won = features(game.from_text(RED_FIRST))
    assert race is not None and won is not None
    assert won[2] > 0.5 > race[2]  # Red's race is no longer won...
    assert evaluate(text) < evaluate(RED_FIRST)  # ...and the position is worth less to Red


def test_a_wall_lengthens_the_way_to_the_hole() -> None:
    # Blue walls off row 2 under the hole: Red's piece must walk round (far), Blue's (2,6)
    # blocks first, so Blue to move is not lost.
    walled = (
        "standard board=RRRR.../...BBBB/....R../......./......./......./....... "
        "hands=17,18 turn=blue ply=10"
    )
    assert evaluate(walled) > -0.5 * WIN


def test_a_step_that_completes_a_five_is_scored_as_won_without_the_model() -> None:
    # Red's row 1 holds columns 1-4 and Red's (2,5) steps into (1,5).
    text = RED_FIRST.replace("/......./....R../", "/....R../......./")
    assert features(engine.get_game("atmalof").from_text(text)) is None
    assert evaluate(text) == _SURE


@pytest.mark.parametrize("race", [-1.0, -0.3, 0.0, 0.4, 1.0])
def test_the_value_is_an_expected_result_within_the_scale(race: float) -> None:
    extremes = [expected(m, t, race, h) for m in (0, 10**6) for t in (0, 10**6) for h in (-22, 22)]
    assert all(-_SCALE < v < _SCALE for v in extremes)
    assert max(extremes) < _SURE  # a step to a five always ranks above the model


def test_the_value_rises_with_own_lines_and_the_race_and_falls_with_the_opponents() -> None:
    base = expected(100.0, 100.0, 0.0, 0)
    assert expected(200.0, 100.0, 0.0, 0) > base > expected(100.0, 200.0, 0.0, 0)
    assert expected(100.0, 100.0, 0.5, 0) > base > expected(100.0, 100.0, -0.5, 0)
    # Material already on the board builds lines: more pieces in hand is worse.
    assert expected(100.0, 100.0, 0.0, -1) > base > expected(100.0, 100.0, 0.0, 1)


def test_a_single_drop_threat_no_longer_outweighs_a_board_of_threes() -> None:
    # The first evaluation added a race in win units to open lines in points, so one hole a
    # die finds 1 time in 6 outweighed any number of threes. In self-play a board of threes
    # (about 500 points against none) won more than such a threat did.
    threes = expected(500.0, 0.0, 0.0, 0)
    one_threat = expected(0.0, 0.0, 1 / 6, 0)
    assert threes > one_threat
