"""What the search knows about Abalone: marbles, the centre, and cohesion.

Marbles dominate (a marble pushed off is most of a game's sixth), then how central a side's
marbles stand (the edge is where marbles are lost), then how many of them touch each other (a
group can push and cannot be pushed). The draw rules stay the engine's: ``result`` sees the
repetition history and the move limit, and a draw scores zero, so a side ahead avoids it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from engine.abalone import GAME, AbaloneState, Push
from engine.abalone.board import AXES, CELLS, EMPTY, N_CELLS, NEIGHBOURS, OFF
from engine.abalone.moves import INFO
from engine.ai.search import each_face
from engine.core import Outcome

MARBLE = 1000.0
_CENTRE = (30.0, 24.0, 16.0, 6.0, -12.0)  # by distance from e5 (0..4)
_TOUCH = 7.0  # per pair of neighbouring marbles of one side


def _distance(cell: int) -> int:
    row, number = CELLS[cell]
    dr, dn = row - 4, number - 5
    return max(abs(dr), abs(dn)) if dr * dn >= 0 else abs(dr) + abs(dn)


DISTANCE = tuple(_distance(c) for c in range(N_CELLS))
CENTRE = tuple(_CENTRE[d] for d in DISTANCE)
PAIRS = tuple(
    (c, NEIGHBOURS[d][c]) for c in range(N_CELLS) for d in AXES if NEIGHBOURS[d][c] != OFF
)


class AbaloneEvaluator:
    """Scores from the side to move's view; keys are the board and the side to move."""

    noise_scale = MARBLE / 4

    def key(self, state: AbaloneState) -> Hashable:
        return (state.board, state.to_move)

    def outcome(self, state: AbaloneState) -> Outcome | None:
        return GAME.result(state)

    def evaluate(self, state: AbaloneState) -> float:
        board = state.board
        me = state.to_move + 1
        score = MARBLE * (board.count(me) - board.count(3 - me))
        for c, v in enumerate(board):
            if v:
                score += CENTRE[c] if v == me else -CENTRE[c]
        for a, b in PAIRS:
            v = board[a]
            if v and v == board[b]:
                score += _TOUCH if v == me else -_TOUCH
        return score

    def chance_groups(
        self, state: AbaloneState, action: Any, faces: int
    ) -> Sequence[tuple[Hashable, int, int]]:
        """No die in this game (never called): every face its own group."""
        return each_face(action, faces)

    def priority(self, state: AbaloneState, action: Push) -> float:
        """Pushes off the board first, then other pushes, then moves towards the centre."""
        cells, d, inline = INFO[action]
        board = state.board
        nb = NEIGHBOURS[d]
        score = 0.0
        if inline:
            ahead = nb[cells[-1]]
            own = board[cells[0]]
            if ahead != OFF and board[ahead] not in (EMPTY, own):
                score += 100.0
                n = nb[ahead]
                while n != OFF and board[n] not in (EMPTY, own):
                    n = nb[n]
                if n == OFF:
                    score += 1000.0
        for c in cells:
            t = nb[c]
            if t != OFF:
                score += (CENTRE[t] - CENTRE[c]) / 10.0
        return score
