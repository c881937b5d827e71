"""Strength, measured: a level against an opponent over K games with colours alternating.

    python -m engine.ai.match morris --level 5 --vs random --games 20 --seed 1
    python -m engine.ai.match abalone --level 3 --vs level:2 --games 10 --nodes-scale 0.5
    python -m engine.ai.match morris --level 5 --vs openspiel-mcts --games 4  # needs [bench]

Opponents: ``random`` (a uniform legal action), ``greedy`` (the best action one ply ahead by
the same evaluation), ``level:M``, and for Morris ``openspiel-mcts[:SIMULATIONS]`` (OpenSpiel's
MCTS bot with random rollouts, 1,000 simulations by default; engine/ai/openspiel.py). The
level plays side 0 in even games and side 1 in odd ones; each pair of games opens with the
same two random plies (Morris, Abalone), so deterministic levels do not replay one game, and
the same dice for each colour (Atmalof): Red's k-th drop rolls the same value in both games of a
pair, whoever plays Red, so each player meets the other's luck and luck weighs less on a
comparison.
Every game has a ply cap (a game still running at the cap counts as a draw), and every die
and choice comes from the seed, so a run can be repeated. The functions here are pure; only
``main`` prints.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine.ai import GREEDY, Level, analyse, level

MAX_PLIES = {"atmalof": 300, "morris": 600, "abalone": 400}
"""Ply caps per game (Morris and Abalone also end by their own move limits before these)."""
OPENING_PLIES = {"atmalof": 0, "morris": 2, "abalone": 2}
"""Random plies that open each pair of games: levels 4 and 5 have no randomness, so without
them every game with the same colours would repeat move for move (Atmalof's dice vary it)."""

Player = Callable[[Any, list[Any], int], Any]
"""(state, actions played so far from the start, seed) -> the action to play."""


@dataclass(slots=True)
class Tally:
    """Results from the level's side: wins, draws, losses, and games that hit the ply cap."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    capped: int = 0
    plies: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    """CPU seconds (this process) of each of the level's moves: its budget is per move."""
    results: list[int] = field(default_factory=list)
    """Each game's result for the level in order (1 a win, 0 a draw, -1 a loss): games 2k and
    2k+1 are a pair, the same dice or opening with the colours swapped."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def _scaled(spec: Level, scale: float) -> Level:
    return replace(spec, nodes=max(1, int(spec.nodes * scale)))


def make_player(game_name: str, spec: str, nodes_scale: float = 1.0) -> Player:
    """A player from an opponent name: random, greedy, level:M or openspiel-mcts[:N]."""
    game = engine.get_game(game_name)
    if spec == "random":
        return lambda state, _history, seed: random.Random(seed).choice(game.legal(state))
    if spec == "greedy":
        return lambda state, _history, seed: analyse(game_name, state, GREEDY, seed).action
    if spec.startswith("level:"):
        budget = _scaled(level(int(spec.split(":", 1)[1]), game.name), nodes_scale)
        return lambda state, _history, seed: analyse(game_name, state, budget, seed).action
    if spec.startswith("openspiel-mcts"):
        from engine.ai.openspiel import mcts_player  # optional: the [bench] extra

        sims = int(spec.split(":", 1)[1]) if ":" in spec else 1000
        return mcts_player(game_name, sims)
    raise ValueError(f"unknown opponent {spec!r}: random, greedy, level:M or openspiel-mcts[:N]")


def play_game(
    game_name: str,
    players: Sequence[Player],
    seed: int,
    variant: str = "standard",
    max_plies: int | None = None,
    opening: Sequence[Any] = (),
    dice_seed: int | None = None,
) -> tuple[int | None, int, bool]:
    """One game from the start, after the ``opening`` actions (no dice in them): (winner side
    or None, plies played, whether the cap ended it). Each side rolls its own stream of dice
    from ``dice_seed`` (by default ``seed``): a step by one side does not shift the other's
    rolls."""
    game = engine.get_game(game_name)
    cap = max_plies or MAX_PLIES[game.name]
    base = seed if dice_seed is None else dice_seed
    dice = (random.Random(base * 2), random.Random(base * 2 + 1))
    state = game.new(variant)
    history: list[Any] = []
    for action in opening:
        state = game.apply(state, action)
        history.append(action)
    for ply in range(len(history), cap):
        outcome = game.result(state)
        if outcome is not None:
            return outcome.winner, ply, False
        action = players[state.to_move](state, history, seed * 100_003 + ply)
        faces = game.die_faces(state, action)
        roll = dice[state.to_move].randint(1, faces) if faces else None
        state = game.apply(state, action, roll)
        history.append(action)
    outcome = game.result(state)
    if outcome is not None:
        return outcome.winner, cap, False
    return None, cap, True


def random_opening(game_name: str, variant: str, seed: int) -> list[Any]:
    """``OPENING_PLIES`` random legal actions, the same for both games of a pair."""
    game = engine.get_game(game_name)
    rng = random.Random(seed)
    state, actions = game.new(variant), []
    for _ in range(OPENING_PLIES[game.name]):
        action = rng.choice(game.legal(state))
        state = game.apply(state, action)
        actions.append(action)
    return actions


def run_match(
    game_name: str,
    level_number: int,
    opponent: str,
    games: int,
    seed: int = 1,
    *,
    nodes_scale: float = 1.0,
    variant: str = "standard",
    max_plies: int | None = None,
    progress: Callable[[int, int | None, int], None] | None = None,
) -> Tally:
    """Play ``games`` games of ``level_number`` against ``opponent``, colours alternating."""
    if opponent.startswith("openspiel") and max_plies is None:
        from engine.ai.openspiel import OPENSPIEL_MAX_PLIES

        max_plies = OPENSPIEL_MAX_PLIES
    level_player = make_player(game_name, f"level:{level_number}", nodes_scale)
    tally = Tally()

    def me(state: Any, history: list[Any], player_seed: int) -> Any:
        started = time.process_time()
        action = level_player(state, history, player_seed)
        tally.seconds.append(time.process_time() - started)
        return action

    them = make_player(game_name, opponent, nodes_scale)
    for g in range(games):
        side = g % 2
        players = (me, them) if side == 0 else (them, me)
        opening = random_opening(game_name, variant, seed * 1_000 + g // 2)
        winner, plies, capped = play_game(
            game_name,
            players,
            seed * 1_000 + g,
            variant,
            max_plies,
            opening,
            dice_seed=seed * 1_000 + g // 2 * 2,  # both games of a pair: the same dice per colour
        )
        tally.plies.append(plies)
        tally.capped += capped
        if winner is None:
            tally.draws += 1
            tally.results.append(0)
        elif winner == side:
            tally.wins += 1
            tally.results.append(1)
        else:
            tally.losses += 1
            tally.results.append(-1)
        if progress:
            progress(g, winner if winner is None else int(winner == side), plies)
    return tally


def summary(game_name: str, level_number: int, opponent: str, tally: Tally) -> str:
    """The result lines ``main`` prints (also quoted in docs/practice.md)."""
    n = tally.games
    lo, hi = wilson(tally.wins, n)
    slo, shi = wilson(tally.wins + tally.draws / 2, n)
    mean = sum(tally.plies) / n if n else 0.0
    return (
        f"{game_name}: level {level_number} vs {opponent}, {n} games: "
        f"{tally.wins} wins, {tally.draws} draws, {tally.losses} losses "
        f"({tally.capped} at the ply cap; {mean:.0f} plies on average)\n"
        f"  win rate {tally.wins / max(n, 1):.0%} (95% Wilson {lo:.0%}-{hi:.0%}); "
        f"score {(tally.wins + tally.draws / 2) / max(n, 1):.0%} ({slo:.0%}-{shi:.0%})"
        + _pairs_line(tally.results)
        + _cpu_line(tally.seconds)
    )


@dataclass(frozen=True, slots=True)
class Pairs:
    """How the pairs of games went. A pair plays the same dice (Atmalof) or opening with the
    colours swapped: a split pair went to the same colour whoever played it (its dice, the
    first move, or play that did not make the most of the other colour's), and a pair lost
    twice was lost with either colour. Replaying only the lost games with another player
    cannot tell which: any different move re-deals the luck (docs/practice.md, eighth
    session)."""

    both_won: int = 0
    first_won_both: int = 0  # side 0 (the first to move) won both games
    second_won_both: int = 0
    both_lost: int = 0
    with_a_draw: int = 0


def pairs(results: Sequence[int]) -> Pairs:
    """The pairs of ``results`` (game 2k: the level plays side 0; 2k+1: side 1)."""
    counts = [0, 0, 0, 0, 0]
    for first, second in zip(results[::2], results[1::2], strict=False):
        if 0 in (first, second):
            counts[4] += 1
        elif first == second:
            counts[0 if first == 1 else 3] += 1
        else:  # the level won one game: as side 0 (side 0 won both) or as side 1
            counts[1 if first == 1 else 2] += 1
    return Pairs(*counts)


def _pairs_line(results: Sequence[int]) -> str:
    """The pairs of games: won twice, split by the side that won both, lost twice."""
    if len(results) < 2:
        return ""
    p = pairs(results)
    return (
        f"\n  pairs (the same dice or opening, colours swapped): {p.both_won} won twice, "
        f"{p.first_won_both + p.second_won_both} split (the first to move won both in "
        f"{p.first_won_both}, the second in {p.second_won_both}), {p.both_lost} lost twice, "
        f"{p.with_a_draw} with a draw"
    )


def _cpu_line(seconds: list[float]) -> str:
    """The level's CPU seconds per move: mean, 95th percentile and the slowest."""
    if not seconds:
        return ""
    ranked = sorted(seconds)
    p95 = ranked[min(len(ranked) - 1, int(0.95 * len(ranked)))]
    return (
        f"\n  level's CPU per move: mean {sum(ranked) / len(ranked):.2f} s, "
        f"95th percentile {p95:.2f} s, slowest {ranked[-1]:.2f} s over {len(ranked)} moves"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.ai.match", description=__doc__)
    parser.add_argument("game", choices=engine.GAME_NAMES)
    parser.add_argument("--level", type=int, required=True)
    parser.add_argument("--vs", default="random", help="random, greedy, level:M, openspiel-mcts")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--max-plies", type=int, default=None)
    parser.add_argument(
        "--nodes-scale", type=float, default=1.0, help="multiply every level's node budget"
    )
    parser.add_argument("--verbose", action="store_true", help="one line per game")
    args = parser.parse_args(argv)

    def progress(g: int, result: int | None, plies: int) -> None:
        word = "draw" if result is None else ("win" if result else "loss")
        print(f"  game {g + 1}: {word} in {plies} plies", flush=True)

    tally = run_match(
        args.game,
        args.level,
        args.vs,
        args.games,
        args.seed,
        nodes_scale=args.nodes_scale,
        variant=args.variant,
        max_plies=args.max_plies,
        progress=progress if args.verbose else None,
    )
    print(summary(args.game, args.level, args.vs, tally))
    return 0


if __name__ == "__main__":
    sys.exit(main())
