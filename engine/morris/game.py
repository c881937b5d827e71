"""Nine Men's Morris (and its relatives Six and Twelve Men's Morris): the Game object.

Side 0 is White and moves first, side 1 is Black. Each side places its men (phase 1), then moves
them along the lines (phase 2); a side with exactly three men may fly when ``flying`` is on.
Closing a mill leaves the same side to move with only ``Remove`` actions legal, so a removal is
an action and a ply of its own (as OpenSpiel and Sanmill count). ``Place`` and ``Move`` may also
carry the removal (``move d7 d6 x b6``): applying one equals applying the move and then the
removal, state for state (ply included, so it advances by two), but ``legal()`` lists only the
split form.

Points are ``int`` indices into the board's ``Layout`` (engine/morris/board.py); on the
24-point board 0..23 are the seed's letters A..X (0 = A = a7, 23 = X = g1). Input accepts grid
names ("d7") and, as a bare single letter, the seed's letters ("b" is B = d7, never file b);
output always uses grid names.

Variants: ``standard`` (9 men), ``six`` (16 points, 6 men, no flying by default) and ``twelve``
(diagonals added, 12 men, a full board after placing is a draw). Options: ``flying``,
``no_remill`` (off), ``repetition`` (on: third occurrence draws), ``move_limit`` (50 moves by
each side in phase 2 without a removal draws, unless that move blocks the opponent, which wins;
0 disables).

Accessors for the renderer and the referee (module functions): ``men``, ``men_on_board``,
``men_in_hand``, ``mills``, ``removable``, ``pending_removal``, ``phase``, ``can_fly``,
``layout``, ``point_name``, and the standard board's ``POINTS`` (grid coordinates),
``POINT_NAMES`` and ``LETTERS``.
"""

from __future__ import annotations

from typing import Any

from engine.core import Effect, IllegalAction, Landing, Outcome, Termination
from engine.morris.board import Layout
from engine.morris.rules import (
    _MILL,
    _NOTHING_TO_TAKE,
    _REMILL,
    LETTERS,
    POINT_NAMES,
    POINTS,
    SIDES,
    VARIANTS,
    MorrisAction,
    MorrisState,
    Move,
    Place,
    Remove,
    Rules,
    _can_fly,
    _final,
    _legal,
    _play,
    can_fly,
    closes_mill,
    layout,
    make_rules,
    men,
    men_in_hand,
    men_on_board,
    mills,
    pending_removal,
    phase,
    point_name,
    removable,
    start,
)
from engine.morris.text import from_text, notation, parse_action, to_text


class MorrisGame:
    """The Morris rules behind the shared Game protocol (engine/core.py)."""

    name = "morris"
    title = "Nine Men's Morris"
    variants: tuple[str, ...] = tuple(VARIANTS)
    side_names: tuple[str, str] = SIDES

    def new(self, variant: str = "standard", **options: Any) -> MorrisState:
        """A fresh game; unknown variants, options or bad values raise OptionError."""
        return start(make_rules(variant, **options))

    def options(self, state: MorrisState) -> dict[str, Any]:
        rules = state.rules
        return {
            "flying": rules.flying,
            "no_remill": rules.no_remill,
            "repetition": rules.repetition,
            "move_limit": rules.move_limit,
        }

    def legal(self, state: MorrisState) -> list[MorrisAction]:
        """Every action for the side to move (removals only while one is owed); [] when over."""
        if _final(state) is not None:
            return []
        return _legal(state)

    def is_legal(self, state: MorrisState, action: MorrisAction) -> bool:
        try:
            _play(state, action)
        except IllegalAction:
            return False
        return True

    def parse(self, state: MorrisState, text: str) -> MorrisAction:
        return parse_action(state, text)

    def notation(self, state: MorrisState, action: MorrisAction) -> str:
        return notation(state, action)

    def apply(
        self,
        state: MorrisState,
        action: MorrisAction,
        roll: int | None = None,
        *,
        checked: bool = False,
    ) -> MorrisState:
        """The position after ``action``; raises IllegalAction with the reason if forbidden.

        ``checked`` changes nothing here: Morris's checks are a few bit tests made in the same
        pass that applies the action, so there is no second check to skip."""
        if roll is not None:
            raise IllegalAction("Morris uses no dice, so an action takes no roll", "no_dice")
        return _play(state, action)[0]

    def die_faces(self, state: MorrisState, action: MorrisAction) -> int | None:
        return None

    def landings(self, state: MorrisState, action: MorrisAction) -> tuple[Landing, ...]:
        """Nothing: Morris has no dice."""
        return ()

    def pending_removal(self, state: MorrisState) -> bool:
        """True when the side to move closed a mill and must now remove a man (and the game
        goes on): then only ``Remove`` actions are legal."""
        return pending_removal(state) and _final(state) is None

    def turns(self, state: MorrisState) -> int:
        """Turns played: the ply less the men removed, as a removal belongs to the turn whose
        mill earned it. Split (``place d6``, ``remove f2``: two plies, one man) or joined
        (``place d6 x f2``: the ply advances by two too) it is one turn, and a mill whose
        removal is still owed is counted already. Men leave the board only by removal, so the
        position alone tells how many were."""
        removed = 2 * state.rules.pieces - sum(state.hand) - sum(m.bit_count() for m in state.men)
        return max(0, state.ply - removed)

    def effect(
        self, before: MorrisState, action: MorrisAction, roll: int | None, after: MorrisState
    ) -> Effect:
        """What ``action`` did (see ``Effect``): the man removed, a mill that owes one, and a
        side that may fly from now on (a removal left it three men, or its last placing did)."""
        taken = action.point if isinstance(action, Remove) else action.remove
        removed = None if taken is None else before.rules.layout.points[taken]
        flies = [s for s in (0, 1) if _can_fly(after, s) and not _can_fly(before, s)]
        outcome = self.result(after)
        history = after.history
        repeated = (  # the second time: the third draws (``result``), so players are told
            outcome is None
            and after.rules.repetition
            and not after.pending
            and len(history) > 2
            and history.count(history[-1]) == 2
        )
        return Effect(
            before.to_move,
            notation(before, action),
            removed=removed,
            mill=pending_removal(after),
            flies=flies[0] if flies else None,
            repeated=repeated,
            outcome=outcome,
        )

    def result(self, state: MorrisState) -> Outcome | None:
        """How the game ended (two men left, blocked, repetition, move limit), or None.

        A move that leaves the opponent blocked wins even when it is also the move that reaches
        the move limit: the rules' loss outranks the referee's counting draw (as mate does in
        chess).
        """
        outcome = _final(state)
        if outcome is not None and outcome.termination is not Termination.MOVE_LIMIT:
            return outcome
        if _legal(state):
            return outcome
        side = state.to_move
        return Outcome(
            Termination.BLOCKED,
            1 - side,
            f"{SIDES[side]} has no legal move",
        )

    def describe(self, state: MorrisState, action: MorrisAction, roll: int | None = None) -> str:
        """One sentence of what happened: "White places d7 and closes a mill." (whose removal it
        is, of which men and by which command, the board's line under it says)."""
        _, closed = _play(state, action)
        me, them = SIDES[state.to_move], SIDES[1 - state.to_move]
        name = state.rules.layout.points
        if isinstance(action, Remove):
            return f"{me} removes {name[action.point]}."
        if isinstance(action, Place):
            text = f"{me} places {name[action.point]}"
        else:
            verb = "flies" if _can_fly(state, state.to_move) else "moves"
            text = f"{me} {verb} {name[action.src]} to {name[action.dst]}"
        if closed == _MILL and action.remove is not None:
            return f"{text}, closes a mill and removes {name[action.remove]}."
        if closed == _MILL:
            return f"{text} and closes a mill."
        if closed == _REMILL:
            return f"{text} and closes a mill by returning, which removes nothing (no_remill)."
        if closed == _NOTHING_TO_TAKE:
            return f"{text} and closes a mill, but {them} has no man on the board to remove."
        return f"{text}."

    def to_text(self, state: MorrisState) -> str:
        return to_text(state)

    def from_text(self, text: str) -> MorrisState:
        return from_text(text)


GAME = MorrisGame()

__all__ = [
    "GAME",
    "LETTERS",
    "POINTS",
    "POINT_NAMES",
    "SIDES",
    "VARIANTS",
    "Layout",
    "MorrisAction",
    "MorrisGame",
    "MorrisState",
    "Move",
    "Place",
    "Remove",
    "Rules",
    "can_fly",
    "closes_mill",
    "layout",
    "men",
    "men_in_hand",
    "men_on_board",
    "mills",
    "pending_removal",
    "phase",
    "point_name",
    "removable",
]
