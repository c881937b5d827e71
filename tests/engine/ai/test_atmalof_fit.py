"""The Atmalof evaluation's fit: Newton's method finds a logistic model's weights, self-play
records each position with its side's result, and the shipped weights predict results."""

from __future__ import annotations

import math
import random

import pytest

from engine.ai.atmalof import WEIGHTS
from engine.ai.atmalof_fit import calibration, fit, log_likelihood, predict, selfplay


def synthetic_rows(weights: tuple[float, ...], n: int, seed: int) -> list:
    """Positions with random features whose result is the model's own chance (a soft label):
    the likelihood is then highest at exactly those weights."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        found = (rng.uniform(0, 3000), rng.uniform(0, 3000), rng.uniform(-1, 1), rng.randint(-6, 6))
        rows.append((found, predict(found, weights)))
    return rows


def test_newton_finds_the_weights_that_made_the_results() -> None:
    truth = (0.4, 0.25, -0.3, 1.2, -0.2)
    fitted = fit(synthetic_rows(truth, 2000, seed=3))
    assert fitted == pytest.approx(truth, abs=1e-6)


def test_the_true_weights_are_more_likely_than_others() -> None:
    truth = (0.4, 0.25, -0.3, 1.2, -0.2)
    rows = synthetic_rows(truth, 500, seed=4)
    best = log_likelihood(rows, truth)
    for i in range(len(truth)):
        nudged = list(truth)
        nudged[i] += 0.1
        assert log_likelihood(rows, nudged) < best


def test_self_play_records_each_position_with_its_side_to_moves_result() -> None:
    played = selfplay(6, seed=50)
    assert len(played) == 6
    for rows in played:
        assert rows
        results = {y for _, y in rows}
        assert results <= {0.0, 0.5, 1.0}
        if results != {0.5}:
            # Sides alternate every turn: a decided game has both a winner's and a loser's
            # positions.
            assert results == {0.0, 1.0}
        for found, _ in rows:
            mine, theirs, race, hands = found
            assert mine >= 0 and theirs >= 0 and -1.0 <= race <= 1.0 and abs(hands) <= 22


def test_the_shipped_weights_predict_fresh_self_play_better_than_a_coin() -> None:
    # Games the weights were not fitted on (the fit used seeds 1000 on).
    rows = [r for game in selfplay(40, seed=90_000) for r in game]
    coin = log_likelihood(rows, (0.0,) * len(WEIGHTS))
    assert coin == pytest.approx(math.log(0.5), abs=1e-9)
    assert log_likelihood(rows, WEIGHTS) > coin + 0.04
    # Positions the model rates clearly won end as wins far more often than those it rates
    # clearly lost (each bin's mean result, weighted by its positions).
    table = calibration(rows, WEIGHTS)

    def mean_result(bins: list[tuple[float, int, float, float]]) -> float:
        return sum(n * actual for _, n, _, actual in bins) / sum(n for _, n, _, _ in bins)

    high = [b for b in table if b[0] >= 0.5]
    low = [b for b in table if b[0] <= -0.5]
    assert high and low and mean_result(high) > 0.3 > -0.3 > mean_result(low)
