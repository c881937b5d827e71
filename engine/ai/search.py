"""Game-tree search over any engine game: negamax alpha-beta, iterative deepening, a
transposition table, move ordering, and chance nodes for dice (expectimax).

One search serves all three games because it sees them only through the public ``Game`` API
plus a small ``Evaluator`` per game (a key, a static score, an order for actions):

- An action with a die (``die_faces``) is a chance node: its value is the mean over the faces,
  each child searched with a full window (so alpha-beta stays exact under averaging). Faces
  that lead to the same position (``Evaluator.chance_groups``: an Atmalof drop onto an
  occupied square, or two drops onto one square) are searched once per node and weighted.
- Children are made by ``apply(..., checked=True)``: every action searched came from ``legal``
  on its own position, so the engine's legality checks are not repeated inside the search.
- A child with the same side to move (Morris: a removal owed after a mill) is searched from the
  same side's view and costs no depth, so a mill and its removal count as one turn.
- Forward pruning (``Budget.width``, Atmalof's level 5): below the root, a node with two or
  more plies left searches only its ``width`` best actions by their one-ply values, so a third
  ply costs a few times the second rather than a hundred times.
- The budget is counted in nodes, so a search is deterministic; a time limit is only a safety
  bound, in CPU seconds of this process (``time.process_time``: "two seconds of one core",
  however busy the machine). When a budget runs out mid-iteration the last completed depth
  decides, unless a move of the unfinished iteration already beat the previous best.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import Game, Outcome

WIN = 1_000_000.0
"""Value of a won position (less the plies to reach it, so sooner wins score higher)."""
INF = float("inf")
_EXACT, _LOWER, _UPPER = 0, 1, 2
_CLOCK_EVERY = 128  # nodes between two looks at the clock


class Evaluator(Protocol):
    """What the search needs to know about one game beyond its rules."""

    noise_scale: float  # one "unit" of evaluation (a man, a marble), for low-level noise

    def key(self, state: Any) -> Hashable:
        """Equal for positions the search may treat as the same (transposition table key)."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The game's result, computed as cheaply as the game allows."""
        ...

    def evaluate(self, state: Any) -> float:
        """A static score from the view of the side to move (positive: good for it)."""
        ...

    def priority(self, state: Any, action: Any) -> float:
        """A cheap, coarse guess of how good ``action`` is, for ordering (higher first; ties
        are broken by the history of cut-offs)."""
        ...

    def chance_groups(
        self, state: Any, action: Any, faces: int
    ) -> Sequence[tuple[Hashable, int, int]]:
        """The die's faces of ``action`` grouped by the position they lead to, as (group,
        count, one roll of the group): two faces (of this or another action of ``state``)
        with the same group lead to equal positions (``each_face``: no two do)."""
        ...


def each_face(action: Any, faces: int) -> tuple[tuple[Hashable, int, int], ...]:
    """Every face its own group: for games whose faces never lead to the same position."""
    return tuple(((action, roll), 1, roll) for roll in range(1, faces + 1))


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one search may spend: nodes (deterministic), depth, and seconds of the process's
    CPU time (a safety bound; ``Search``'s ``clock``)."""

    nodes: int
    depth: int
    seconds: float = 2.0
    width: int = 0
    """Below the root, a node with two or more plies left searches only its ``width`` best
    actions by their one-ply values (0: every action)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The chosen action, its value for the side to move, the deepest completed depth, nodes."""

    action: Any
    value: float
    depth: int
    nodes: int
    then: Any = None
    """When ``action`` leaves the same side to move (a Morris mill owes a removal), the action
    this search chose there, if it searched that position; else None."""


class _OutOfBudget(Exception):
    """Raised inside the search when the node or time budget is spent."""


class Search:
    """One search of one position (a fresh table each time, so the result is reproducible)."""

    def __init__(
        self,
        game: Game[Any, Any],
        evaluator: Evaluator,
        budget: Budget,
        *,
        noise: float = 0.0,
        seed: int = 0,
        clock: Callable[[], float] = time.process_time,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.game = game
        self.stop = stop  # asked with the clock: True ends the search as its bound would
        self.ev = evaluator
        self.budget = budget
        self.noise = noise * evaluator.noise_scale
        self.seed = seed & 0xFFFFFFFF
        self.clock = clock
        self.nodes = 0
        self.deadline = 0.0
        self.table: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.leaves: dict[Hashable, float] = {}
        self.history: dict[Any, int] = {}
        self.beams: dict[Hashable, list[Any]] = {}

    # --- the driver ----------------------------------------------------------------------

    def run(self, state: Any, *, valued: bool = False) -> SearchResult:
        """The best action found for the side to move in ``state`` within the budget. With one
        legal action there is nothing to choose and its value is not searched (0.0) unless
        ``valued``: a caller that asks how a position stands needs it."""
        actions = self.game.legal(state)
        if not actions:
            raise ValueError("the game is over: there is no action to choose")
        self.deadline = self.clock() + self.budget.seconds
        order = sorted(actions, key=lambda a: -self.ev.priority(state, a))
        best, best_value, done = order[0], -INF, 0
        if len(order) == 1 and not valued:
            return SearchResult(best, 0.0, 0, 0)
        for depth in range(1, self.budget.depth + 1):
            scores: dict[int, float] = {}
            try:
                value = self._root(state, order, depth, scores)
            except _OutOfBudget:
                # Moves of the unfinished depth that beat the previous best (searched first)
                # at that depth are trusted; otherwise the last completed depth decides.
                partial = _best_of(order, scores)
                if partial is not None and partial != 0 and 0 in scores:
                    best, best_value = order[partial], scores[partial]
                break
            top = _best_of(order, scores)
            assert top is not None
            best, best_value, done = order[top], value, depth
            # The next iteration tries the best first, then the rest by this one's scores.
            ranked = sorted(range(len(order)), key=lambda i: (i != top, -scores.get(i, -INF)))
            order = [order[i] for i in ranked]
            if abs(value) >= WIN - 1000:
                break  # a forced result: deeper search cannot change it
        return SearchResult(best, best_value, done, self.nodes, self._then(state, best))

    def _then(self, state: Any, action: Any) -> Any:
        """The table's best action after ``action`` when the same side acts again: the removal
        a mill owes was searched below it (charging no depth), so the turn is chosen whole."""
        if self.game.die_faces(state, action):  # a drop: the die decides what follows
            return None
        child = self.game.apply(state, action, checked=True)
        if child.to_move != state.to_move or self.ev.outcome(child) is not None:
            return None
        entry = self.table.get(self.ev.key(child))
        return None if entry is None else entry[3]

    def _root(self, state: Any, order: list[Any], depth: int, scores: dict[int, float]) -> float:
        alpha = -INF
        seen: dict[Hashable, float] = {}
        for i, action in enumerate(order):
            value = self._action(state, action, depth, alpha, INF, 0, seen)
            scores[i] = value
            if value > alpha:
                alpha = value
        return alpha

    # --- the recursion -------------------------------------------------------------------

    def _tick(self) -> None:
        if self.nodes >= self.budget.nodes:
            raise _OutOfBudget
        self.nodes += 1
        if not self.nodes % _CLOCK_EVERY and (
            self.clock() > self.deadline or (self.stop is not None and self.stop())
        ):
            raise _OutOfBudget

    def _action(
        self,
        state: Any,
        action: Any,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        seen: dict[Hashable, float],
    ) -> float:
        """The value of playing ``action`` (legal in ``state``), from the view of its side to
        move. ``seen`` holds the values of this node's chance children at this depth, by
        group: each was searched with a full window, so its value is exact and reusable."""
        game = self.game
        faces = game.die_faces(state, action)
        if faces:
            total = 0.0
            for group, count, roll in self.ev.chance_groups(state, action, faces):
                value = seen.get(group)
                if value is None:
                    child = game.apply(state, action, roll, checked=True)
                    value = seen[group] = self._child(state, child, depth, -INF, INF, ply)
                total += count * value
            return total / faces
        child = game.apply(state, action, checked=True)
        return self._child(state, child, depth, alpha, beta, ply)

    def _child(
        self, state: Any, child: Any, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        if child.to_move == state.to_move:  # the same side acts again (a removal): no depth
            return self._value(child, depth, alpha, beta, ply + 1)
        return -self._value(child, depth - 1, -beta, -alpha, ply + 1)

    def _value(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._tick()
        ev = self.ev
        outcome = ev.outcome(state)
        if outcome is not None:
            if outcome.winner is None:
                return 0.0
            return WIN - ply if outcome.winner == state.to_move else ply - WIN
        key = ev.key(state)
        if depth <= 0:
            return self._leaf(state, key)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            e_depth, e_value, e_flag, hint = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_value
                if e_flag == _LOWER and e_value > alpha:
                    alpha = e_value
                elif e_flag == _UPPER and e_value < beta:
                    beta = e_value
                if alpha >= beta:
                    return e_value
        actions = self.game.legal(state)
        if not actions:
            return 0.0
        if self.budget.width and depth >= 2 and len(actions) > self.budget.width:
            ordered = self._beam(state, key, actions, ply)
            if hint is not None and hint in ordered:
                ordered = [hint, *(a for a in ordered if a != hint)]
        else:
            ordered = self._ordered(state, actions, hint)
        alpha0 = alpha
        best_value, best = -INF, None
        seen: dict[Hashable, float] = {}
        for action in ordered:
            value = self._action(state, action, depth, alpha, beta, ply, seen)
            if value > best_value:
                best_value, best = value, action
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self.history[action] = self.history.get(action, 0) + depth * depth
                        break
        flag = _UPPER if best_value <= alpha0 else _LOWER if best_value >= beta else _EXACT
        self.table[key] = (depth, best_value, flag, best)
        return best_value

    def _beam(self, state: Any, key: Hashable, actions: list[Any], ply: int) -> list[Any]:
        """The ``width`` best actions by their one-ply values (forward pruning), best first;
        the one-ply values cost their leaves' nodes once a search."""
        beam = self.beams.get(key)
        if beam is None:
            seen: dict[Hashable, float] = {}
            values = [self._action(state, a, 1, -INF, INF, ply, seen) for a in actions]
            ranked = sorted(range(len(actions)), key=lambda i: -values[i])
            beam = self.beams[key] = [actions[i] for i in ranked[: self.budget.width]]
        return beam

    def _leaf(self, state: Any, key: Hashable) -> float:
        value = self.leaves.get(key)
        if value is None:
            value = self.ev.evaluate(state)
            if self.noise:
                # A fixed pseudo-random offset per position and seed: reproducible, and the
                # same position always looks the same within one search.
                h = zlib.crc32(repr(key).encode(), self.seed)
                value += self.noise * ((h % 2001) / 1000.0 - 1.0)
            self.leaves[key] = value
        return value

    def _ordered(self, state: Any, actions: list[Any], hint: Any) -> list[Any]:
        history = self.history
        priority = self.ev.priority
        ranked = sorted(actions, key=lambda a: (-priority(state, a), -history.get(a, 0)))
        if hint is not None and hint in actions:
            ranked.remove(hint)
            ranked.insert(0, hint)
        return ranked


def _best_of(order: list[Any], scores: dict[int, float]) -> int | None:
    """The index of the highest score (the earliest on ties), or None if nothing was scored."""
    best = None
    for i in sorted(scores):
        if best is None or scores[i] > scores[best]:
            best = i
    return best
