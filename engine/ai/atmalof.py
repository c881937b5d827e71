"""What the search knows about Atmalof: open lines.

Every window of L squares in a straight line that holds pieces of one colour only is an open
line; its worth grows steeply with the pieces in it (a four with its fifth square free is a
threat). The side to move gets a little extra for its own lines, since it acts on them first.
The dice are the search's business: a drop is a chance node over its landing squares
(engine/ai/search.py), so the evaluation only scores positions.

Boards become two integers, one byte per square (1 where a side stands), so a window's count is
``(mask & window).bit_count()``: two C-level operations per window instead of L lookups.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache

from engine.ai.search import WIN
from engine.atmalof import Action, AtmalofState, Drop
from engine.atmalof.config import AtmalofConfig
from engine.core import Outcome

_RED = bytes(1 if v == 1 else 0 for v in range(256))
_BLUE = bytes(1 if v == 2 else 0 for v in range(256))
_TEMPO = 1.3  # the side to move's own lines count this much more
_SURE = 0.9 * WIN  # the side to move can complete a line by a step: a win next ply
_FORK = 0.7 * WIN  # the opponent can complete two lines by steps: one block cannot stop both


@cache
def _windows(config: AtmalofConfig) -> tuple[int, ...]:
    """Every run of ``line`` squares along a straight line, as a byte-per-square mask."""
    masks = []
    for seg in config.tables.segments:
        for start in range(len(seg) - config.line + 1):
            masks.append(sum(1 << (8 * i) for i in seg[start : start + config.line]))
    return tuple(masks)


@cache
def _neighbours(config: AtmalofConfig) -> tuple[int, ...]:
    """Each square's king-step neighbours, as a byte-per-square mask."""
    return tuple(sum(1 << (8 * j) for j, _ in steps) for steps in config.tables.steps)


@cache
def _weights(line: int) -> tuple[float, ...]:
    """Worth of an open window by its piece count: 0, 1, 8, 64, ... up to L-1 pieces."""
    return (0.0, *(8.0 ** (k - 1) for k in range(1, line)), 0.0)


class AtmalofEvaluator:
    """Scores from the side to move's view; keys are the board and the side to move."""

    noise_scale = 8.0

    def key(self, state: AtmalofState) -> Hashable:
        return (state.board, state.to_move)

    def outcome(self, state: AtmalofState) -> Outcome | None:
        return state.outcome

    def evaluate(self, state: AtmalofState) -> float:
        board = state.board
        masks = (
            int.from_bytes(board.translate(_RED), "little"),
            int.from_bytes(board.translate(_BLUE), "little"),
        )
        occupied = masks[0] | masks[1]
        weights = _weights(state.line)
        near = state.line - 1
        neighbours = _neighbours(state.config)
        score = [0.0, 0.0]
        steps = [0, 0]  # fours whose missing square an own piece can step into
        for w in _windows(state.config):
            r = (masks[0] & w).bit_count()
            b = (masks[1] & w).bit_count()
            if r and b:
                continue
            side, n = (0, r) if r else (1, b)
            score[side] += weights[n]
            if n == near:
                hole = ((w & ~occupied).bit_length() - 1) // 8
                if masks[side] & neighbours[hole] & ~w:
                    steps[side] += 1
        me = state.to_move
        if steps[me]:
            return _SURE
        if steps[1 - me] >= 2:
            return -_FORK
        return _TEMPO * score[me] - score[1 - me]

    def priority(self, state: AtmalofState, action: Action) -> float:
        """Drops into lines holding own pieces first; moves keep their generated order."""
        if isinstance(action, Drop):
            me = state.to_move + 1
            cols = state.cols
            if action.axis == "row":
                row = state.board[(action.index - 1) * cols : action.index * cols]
                return float(row.count(me))
            column = state.board[action.index - 1 :: cols]
            return float(column.count(me))
        return 0.0
