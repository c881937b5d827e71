"""Abalone engine speed: legal() on mid-game positions, apply(), random playouts, perft."""

from __future__ import annotations

import random
import statistics
import time

from bench.timing import fmt_us, per_call
from engine.abalone import GAME, AbaloneState, moved_marbles

TARGET_LEGAL_US = 200.0


def random_step(rng: random.Random, state: AbaloneState, aggressive: bool) -> AbaloneState:
    """One random legal move; an aggressive player pushes whenever a push is legal."""
    actions = GAME.legal(state)
    if aggressive:
        pushes = [a for a in actions if len(moved_marbles(state, a)) > len(a.cells)]
        actions = pushes or actions
    return GAME.apply(state, rng.choice(actions))


def mid_game_positions(variant: str, count: int = 60, seed: int = 2024) -> list[AbaloneState]:
    """Unfinished positions from seeded aggressive random games, 20 to 80 plies in."""
    rng = random.Random(seed)
    found: list[AbaloneState] = []
    while len(found) < count:
        state = GAME.new(variant)
        for _ in range(rng.randrange(20, 80)):
            if GAME.result(state) is not None:
                break
            state = random_step(rng, state, aggressive=True)
        if GAME.result(state) is None:
            found.append(state)
    return found


def perft(state: AbaloneState, depth: int) -> int:
    actions = GAME.legal(state)
    if depth == 1:
        return len(actions)
    return sum(perft(GAME.apply(state, a), depth - 1) for a in actions)


def main() -> None:
    for variant in GAME.variants:
        positions = mid_game_positions(variant)
        times = [per_call(lambda s=s: GAME.legal(s), repeat=5, number=200) for s in positions]
        median = statistics.median(times)
        moves = statistics.median(len(GAME.legal(s)) for s in positions)
        verdict = "ok" if median * 1e6 < TARGET_LEGAL_US else "SLOWER THAN TARGET"
        print(
            f"{variant} legal(): median {fmt_us(median)} over {len(positions)} mid-game "
            f"positions, {moves:.0f} moves (max {fmt_us(max(times))}; "
            f"target < {TARGET_LEGAL_US:.0f} us: {verdict})"
        )
        last_moves = [(s, GAME.legal(s)[-1]) for s in positions[:30]]
        applies = [
            per_call(lambda s=s, a=a: GAME.apply(s, a), repeat=5, number=200) for s, a in last_moves
        ]
        print(f"{variant} apply(): median {fmt_us(statistics.median(applies))}")

    rng = random.Random(7)
    for aggressive in (False, True):
        started, games, plies = time.perf_counter(), 0, 0
        while time.perf_counter() - started < 2.0:
            state = GAME.new("standard")
            while GAME.result(state) is None:
                state = random_step(rng, state, aggressive)
            games, plies = games + 1, plies + state.ply
        elapsed = time.perf_counter() - started
        kind = "aggressive" if aggressive else "uniform"
        print(
            f"{kind} random playouts (standard, to the end or 200 plies): "
            f"{games / elapsed:.1f} games/s, {plies / elapsed:.0f} plies/s"
        )

    for variant in GAME.variants:
        started = time.perf_counter()
        nodes = perft(GAME.new(variant), 3)
        print(f"{variant} perft(3) = {nodes}: {time.perf_counter() - started:.2f} s")


if __name__ == "__main__":
    main()
