"""Atmalof engine speed: legal() on mid-game positions, random playouts, chance-tree perft."""

from __future__ import annotations

import random
import statistics
import time

from bench.timing import fmt_us, per_call
from engine.atmalof import GAME, AtmalofState, Drop

TARGET_LEGAL_US = 50.0


def random_step(rng: random.Random, state: AtmalofState) -> AtmalofState:
    """One random legal action (drops favoured, as players drop early) with a random roll."""
    actions = GAME.legal(state)
    drops = [a for a in actions if isinstance(a, Drop)]
    action = rng.choice(drops if drops and rng.random() < 0.6 else actions)
    faces = GAME.die_faces(state, action)
    return GAME.apply(state, action, roll=rng.randint(1, faces) if faces else None)


def playout(rng: random.Random, state: AtmalofState, max_plies: int = 1000) -> AtmalofState:
    for _ in range(max_plies):
        if GAME.result(state) is not None:
            break
        state = random_step(rng, state)
    return state


def mid_game_positions(variant: str, count: int = 200, seed: int = 2024) -> list[AtmalofState]:
    """Unfinished positions from seeded random games, 10 to 60 plies in."""
    rng = random.Random(seed)
    found: list[AtmalofState] = []
    while len(found) < count:
        state = GAME.new(variant)
        for _ in range(rng.randrange(10, 60)):
            if GAME.result(state) is not None:
                break
            state = random_step(rng, state)
        if GAME.result(state) is None:
            found.append(state)
    return found


def perft(state: AtmalofState, depth: int) -> int:
    """Leaves of the chance tree: each drop counts once per face of its die."""
    if depth == 0:
        return 1
    total = 0
    for action in GAME.legal(state):
        faces = GAME.die_faces(state, action)
        if faces is None:
            total += perft(GAME.apply(state, action), depth - 1)
        else:
            for roll in range(1, faces + 1):
                total += perft(GAME.apply(state, action, roll=roll), depth - 1)
    return total


def main() -> None:
    for variant in ("standard", "atmalos"):
        positions = mid_game_positions(variant, count=100)
        times = [per_call(lambda s=s: GAME.legal(s), repeat=5, number=200) for s in positions]
        median = statistics.median(times)
        verdict = "ok" if median * 1e6 < TARGET_LEGAL_US else "SLOWER THAN TARGET"
        print(
            f"{variant} legal(): median {fmt_us(median)} over {len(positions)} mid-game "
            f"positions (max {fmt_us(max(times))}; target < {TARGET_LEGAL_US:.0f} us: {verdict})"
        )
        applies = []
        for s in positions[:50]:
            action = GAME.legal(s)[-1]
            roll = 1 if isinstance(action, Drop) else None
            applies.append(
                per_call(lambda s=s, a=action, r=roll: GAME.apply(s, a, r), repeat=5, number=200)
            )
        print(f"{variant} apply(): median {fmt_us(statistics.median(applies))}")

    rng = random.Random(7)
    started, games, plies = time.perf_counter(), 0, 0
    while time.perf_counter() - started < 2.0:
        end = playout(rng, GAME.new())
        games, plies = games + 1, plies + end.ply
    elapsed = time.perf_counter() - started
    print(f"random playouts: {games / elapsed:.0f} games/s, {plies / elapsed:,.0f} plies/s")

    for depth in (1, 2, 3):
        started = time.perf_counter()
        nodes = perft(GAME.new(), depth)
        elapsed = time.perf_counter() - started
        print(f"perft({depth}) from the standard start = {nodes:,} leaves in {elapsed:.2f} s")


if __name__ == "__main__":
    main()
