"""Morris engine speed: legal() on mid-game positions, random playouts, perft from the start."""

from __future__ import annotations

import random
import statistics
import time

from bench.timing import fmt_us, per_call
from engine.morris import GAME, MorrisState

TARGET_LEGAL_US = 20.0


def playout(rng: random.Random, state: MorrisState, max_plies: int = 400) -> MorrisState:
    """Random legal actions until the game ends (or ``max_plies``)."""
    for _ in range(max_plies):
        actions = GAME.legal(state)
        if not actions:
            break
        state = GAME.apply(state, rng.choice(actions))
    return state


def mid_game_positions(count: int = 200, seed: int = 2024) -> list[MorrisState]:
    """Positions from seeded random games, sampled in both phases, none of them finished."""
    rng = random.Random(seed)
    found: list[MorrisState] = []
    while len(found) < count:
        state = GAME.new()
        stop = rng.randrange(8, 80)
        for _ in range(stop):
            actions = GAME.legal(state)
            if not actions:
                break
            state = GAME.apply(state, rng.choice(actions))
        if GAME.legal(state):
            found.append(state)
    return found


def perft(state: MorrisState, depth: int) -> int:
    actions = GAME.legal(state)
    if depth == 1:
        return len(actions)
    return sum(perft(GAME.apply(state, a), depth - 1) for a in actions)


def main() -> None:
    positions = mid_game_positions()
    times = [per_call(lambda s=s: GAME.legal(s), repeat=5, number=200) for s in positions]
    median = statistics.median(times)
    verdict = "ok" if median * 1e6 < TARGET_LEGAL_US else "SLOWER THAN TARGET"
    print(
        f"legal(): median {fmt_us(median)} over {len(positions)} mid-game positions "
        f"(max {fmt_us(max(times))}; target < {TARGET_LEGAL_US:.0f} us: {verdict})"
    )
    apply_times = []
    for s in positions[:50]:
        action = GAME.legal(s)[0]
        apply_times.append(per_call(lambda s=s, a=action: GAME.apply(s, a), repeat=5, number=200))
    print(f"apply(): median {fmt_us(statistics.median(apply_times))}")

    rng = random.Random(7)
    started, games, plies = time.perf_counter(), 0, 0
    while time.perf_counter() - started < 2.0:
        end = playout(rng, GAME.new())
        games, plies = games + 1, plies + end.ply
    elapsed = time.perf_counter() - started
    print(f"random playouts: {games / elapsed:.0f} games/s, {plies / elapsed:,.0f} plies/s")

    expected = {1: 24, 2: 552, 3: 12_144, 4: 255_024, 5: 5_100_480}
    for depth in (3, 4, 5):
        started = time.perf_counter()
        nodes = perft(GAME.new(), depth)
        elapsed = time.perf_counter() - started
        status = "ok" if nodes == expected[depth] else f"WRONG (expected {expected[depth]:,})"
        print(f"perft({depth}) = {nodes:,} in {elapsed:.2f} s ({status})")


if __name__ == "__main__":
    main()
