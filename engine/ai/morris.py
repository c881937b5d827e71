"""What the search knows about Nine Men's Morris (and Six and Twelve): men, mills, mobility.

Reads the state's public fields (``men`` bitmasks, ``hand``, ``pending``, ``rules.layout``), so
every option (flying, ``no_remill``, repetition, move limit) stays the engine's business: the
search sees its effects through ``legal``, ``apply`` and ``result``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from engine.ai.search import each_face
from engine.core import Outcome
from engine.morris import GAME, MorrisAction, MorrisState, Move, Place, Remove

MAN = 100.0
_OPEN_TWO = 18.0  # two men of a mill with the third point empty
_CLOSED_MILL = 8.0  # a closed mill (it can be opened and closed again)
_MOBILITY = 4.0  # per empty neighbour, in the moving phase
_BLOCKED_MAN = 6.0  # a man with nowhere to go
_PENDING = 0.9 * MAN  # a removal owed to the side to move is almost a man
_THREAT = 0.7 * MAN  # the side to move can close a mill now
_DOUBLE_THREAT = 0.6 * MAN  # the opponent can close two mills: one block cannot stop both


class MorrisEvaluator:
    """Scores from the side to move's view; keys without history (see engine/ai/search.py)."""

    noise_scale = MAN

    def key(self, state: MorrisState) -> Hashable:
        return (state.men, state.hand, state.to_move, state.pending, state.last)

    def outcome(self, state: MorrisState) -> Outcome | None:
        return GAME.result(state)

    def evaluate(self, state: MorrisState) -> float:
        me = state.to_move
        score = self._side(state, me) - self._side(state, 1 - me)
        if state.pending:
            return score + _PENDING
        if _threats(state, me):
            score += _THREAT
        elif _threats(state, 1 - me) >= 2:
            score -= _DOUBLE_THREAT
        return score

    def _side(self, state: MorrisState, side: int) -> float:
        layout = state.rules.layout
        mine, theirs = state.men[side], state.men[1 - side]
        score = MAN * (mine.bit_count() + state.hand[side])
        empty = layout.full & ~(mine | theirs)
        for mask in layout.mill_masks:
            if theirs & mask:
                continue
            n = (mine & mask).bit_count()
            if n == 2:
                score += _OPEN_TWO
            elif n == 3:
                score += _CLOSED_MILL
        flying = state.rules.flying and mine.bit_count() == 3
        if not state.hand[side] and not flying:
            neighbours = layout.neighbours
            p = 0
            rest = mine
            while rest:
                if rest & 1:
                    free = (neighbours[p] & empty).bit_count()
                    score += _MOBILITY * free if free else -_BLOCKED_MAN
                rest >>= 1
                p += 1
        return score

    def chance_groups(
        self, state: MorrisState, action: Any, faces: int
    ) -> Sequence[tuple[Hashable, int, int]]:
        """No die in this game (never called): every face its own group."""
        return each_face(action, faces)

    def priority(self, state: MorrisState, action: MorrisAction) -> float:
        """Mill-closing placements and moves first, then moves that block a mill."""
        if type(action) is Remove:
            return 0.0
        layout = state.rules.layout
        me = state.to_move
        mine, theirs = state.men[me], state.men[1 - me]
        if type(action) is Place:
            dst, after = action.point, mine | 1 << action.point
        else:
            assert type(action) is Move
            dst, after = action.dst, (mine & ~(1 << action.src)) | 1 << action.dst
        score = 0.0
        for mask in layout.mills_at[dst]:
            if after & mask == mask:
                score += 2.0
            elif (theirs & mask).bit_count() == 2:
                score += 1.0
        return score


def _threats(state: MorrisState, side: int) -> int:
    """Mills ``side`` could close on its next turn: two men in it, the third point empty and
    within reach (a man in hand, flying, or an own man next to it that is not in the mill)."""
    layout = state.rules.layout
    mine, theirs = state.men[side], state.men[1 - side]
    free_anywhere = state.hand[side] > 0 or (state.rules.flying and mine.bit_count() == 3)
    count = 0
    for mask in layout.mill_masks:
        if theirs & mask or (mine & mask).bit_count() != 2:
            continue
        hole = mask & ~mine
        if free_anywhere:
            count += 1
            continue
        point = hole.bit_length() - 1
        if layout.neighbours[point] & mine & ~mask:
            count += 1
    return count
