"""Fit the Atmalof evaluation's weights to the results of self-play games.

    python -m engine.ai.atmalof_fit --games 4000 --seed 1000

Expectimax averages values over the die's faces, so the evaluation must be an expected
result, not just a score that rises with it (engine/ai/atmalof.py). This plays ``greedy``
against itself (one move in ten uniformly random, so the games differ and leave the usual
paths), records every position's features from its side to move's view with that side's
final result (1 a win, 0.5 a draw, 0 a loss), and fits a logistic model of the result by
Newton's method. It prints the weights (to paste into ``WEIGHTS``), the log-likelihood per
position on every fifth game, held out of the fit, and a calibration table: for each tenth of
the predicted range, how many positions, the mean prediction and the mean actual result.
The functions are pure; only ``main`` prints.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

import engine
from engine.ai.atmalof import WEIGHTS, AtmalofEvaluator, Features, Weights, features
from engine.ai.levels import GREEDY
from engine.ai.search import Search

Row = tuple[Features, float]
"""A position's features from its side to move's view, and that side's result (1, 0.5, 0)."""

MAX_PLIES = 300


def selfplay(
    games: int, seed: int, explore: float = 0.1, weights: Weights = WEIGHTS
) -> list[list[Row]]:
    """Each game's rows: ``greedy`` (by ``weights``) against itself, a uniformly random
    action with chance ``explore``; positions where a step completes a five are left out
    (the evaluation scores them as won without the model)."""
    game = engine.get_game("atmalof")
    ev = AtmalofEvaluator(weights)
    budget = GREEDY.budget()
    played = []
    for g in range(seed, seed + games):
        rng, dice = random.Random(g), random.Random(g * 7 + 1)
        state = game.new("standard")
        seen: list[tuple[int, Features]] = []
        for _ in range(MAX_PLIES):
            if game.result(state) is not None:
                break
            found = features(state)
            if found is not None:
                seen.append((state.to_move, found))
            actions = game.legal(state)
            if rng.random() < explore:
                action = rng.choice(actions)
            else:
                action = Search(game, ev, budget).run(state).action
            faces = game.die_faces(state, action)
            state = game.apply(state, action, dice.randint(1, faces) if faces else None)
        outcome = game.result(state)
        winner = None if outcome is None else outcome.winner
        played.append([(f, 0.5 if winner is None else float(winner == side)) for side, f in seen])
    return played


def inputs(found: Features) -> tuple[float, ...]:
    """The model's inputs for one position, in the order of ``Weights``."""
    mine, theirs, race, hands = found
    return 1.0, math.log2(1.0 + mine), math.log2(1.0 + theirs), race, float(hands)


def predict(found: Features, weights: Sequence[float]) -> float:
    """The model's chance of a win (a draw half) for the side to move."""
    z = sum(w * x for w, x in zip(weights, inputs(found), strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def fit(rows: Sequence[Row], iterations: int = 12) -> Weights:
    """The maximum-likelihood weights of the logistic model (Newton's method)."""
    data = [(inputs(f), y) for f, y in rows]
    k = len(WEIGHTS)
    w = [0.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[1e-9 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in data:
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, x, strict=True))))
            d, s = y - p, p * (1.0 - p)
            for i in range(k):
                grad[i] += d * x[i]
                row = hess[i]
                for j in range(k):
                    row[j] += s * x[i] * x[j]
        w = [a + b for a, b in zip(w, _solve(hess, grad), strict=True)]
    return w[0], w[1], w[2], w[3], w[4]


def log_likelihood(rows: Sequence[Row], weights: Sequence[float]) -> float:
    """The mean log-likelihood of the results under the model (higher is better; a model
    that always says 50% scores about -0.69)."""
    total = 0.0
    for f, y in rows:
        p = min(max(predict(f, weights), 1e-12), 1.0 - 1e-12)
        total += y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / max(len(rows), 1)


def calibration(
    rows: Sequence[Row], weights: Sequence[float]
) -> list[tuple[float, int, float, float]]:
    """(bin, positions, mean predicted, mean actual) by tenths of the expected result
    (2p - 1, from -1 to 1): a calibrated model predicts what happened in every bin."""
    bins: dict[float, list[float]] = {}
    for f, y in rows:
        e = 2.0 * predict(f, weights) - 1.0
        b = bins.setdefault(round(e, 1), [0, 0.0, 0.0])
        b[0] += 1
        b[1] += e
        b[2] += 2.0 * y - 1.0
    return [(k, int(n), p / n, a / n) for k, (n, p, a) in sorted(bins.items())]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a is small and dense)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(n):
            if r != i and m[r][i]:
                f = m[r][i] / m[i][i]
                for c in range(i, n + 1):
                    m[r][c] -= f * m[i][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.ai.atmalof_fit", description=__doc__)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--explore", type=float, default=0.1)
    args = parser.parse_args(argv)
    played = selfplay(args.games, args.seed, args.explore)
    train = [r for i, game in enumerate(played) if i % 5 for r in game]
    held = [r for i, game in enumerate(played) if not i % 5 for r in game]
    weights = fit(train)
    print(f"{len(train)} positions fitted, {len(held)} held out, from {args.games} games")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")")
    print(
        f"held-out log-likelihood per position: {log_likelihood(held, weights):.4f} "
        f"(the shipped weights: {log_likelihood(held, WEIGHTS):.4f}; always 50%: "
        f"{log_likelihood(held, (0.0,) * len(WEIGHTS)):.4f})"
    )
    print("expected result: bin, positions, predicted, actual (held out)")
    for b, n, p, a in calibration(held, weights):
        print(f"  {b:+.1f} {n:7d} {p:+.3f} {a:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
