"""Rule edges no other test reached (issue 14's surviving mutants): the "both" tie-break after a
played turn, a line-3 tie-break pair at the board's edge, and Morris's move_limit bounds."""

from __future__ import annotations

import pytest

from engine import OptionError, Termination
from engine.atmalof import GAME as ATMALOF
from engine.atmalof import AtmalofState, fours
from engine.morris import GAME as MORRIS
from engine.morris.rules import MAX_MOVE_LIMIT


def atmalof(picture: str, turn: str, **options: object) -> AtmalofState:
    """A custom Atmalof position from a picture (row 1 on top; R Red, B Blue, . empty)."""
    rows = [r.strip() for r in picture.strip().splitlines()]
    pieces = ATMALOF.new("custom", **options).pieces
    text = "".join(rows)
    hands = (pieces - text.count("R"), pieces - text.count("B"))
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    return ATMALOF.from_text(
        f"custom {opts} board={'/'.join(rows)} hands={hands[0]},{hands[1]} turn={turn} ply=20"
    )


# Red's eight pieces fill rows 1-2, columns 1-4; Blue walls them in except at (3,5).
WALLED = "RRRRB..\nRRRRB..\nBBBB...\n.......\n.......\n.......\n......."
BOTH = dict(pieces=8, line=6, tiebreak="both")


def test_a_drop_that_leaves_the_opponent_no_hand_and_no_move_ends_the_game() -> None:
    # Kills: _after judging the tie-break for the mover instead of the side to move next.
    s = atmalof(WALLED, "blue", **BOTH)
    assert ATMALOF.result(s) is None and s.hands == (0, 2)
    after = ATMALOF.apply(s, ATMALOF.parse(s, "drop row 3"), roll=5)  # fills (3,5)
    outcome = ATMALOF.result(after)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert outcome.winner == 1  # Blue's row 3 is a run of five, Red has none
    assert (
        outcome.reason == "the tie-break count of lines of five: Red 0, Blue 1 "
        "(Red has no piece in hand and no move)"
    )
    assert ATMALOF.legal(after) == []


def test_a_move_that_walls_the_opponent_in_ends_the_game() -> None:
    s = atmalof(WALLED.replace("BBBB...", "BBBB.B."), "blue", **BOTH)
    assert ATMALOF.result(s) is None  # Red's (2,4) can still step to (3,5)
    after = ATMALOF.apply(s, ATMALOF.parse(s, "move 3,6 w"))
    outcome = ATMALOF.result(after)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert outcome.reason.endswith("(Red has no piece in hand and no move)")


def test_a_line_3_tiebreak_counts_a_pair_touching_the_board_edge() -> None:
    # Kills: _runs dropping a run that reaches the end of its segment when it is only a pair.
    picture = ".....RR\n.......\nR......\n.......\n..B....\n.......\nB......"
    s = atmalof(picture, "blue", pieces=3, line=3)
    assert fours(s, 0) == [((1, 6), (1, 7))]
    outcome = ATMALOF.result(s)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert outcome.winner == 0


def test_a_line_3_tiebreak_counts_pairs_at_both_ends_of_a_column() -> None:
    picture = "R......\nR......\n.......\n.......\n.......\nB.....R\nB.....R"
    s = atmalof(picture, "blue", pieces=4, line=3)
    assert sorted(fours(s, 0)) == [((1, 1), (2, 1)), ((6, 7), (7, 7))]
    assert fours(s, 1) == [((6, 1), (7, 1))]
    assert ATMALOF.result(s).winner == 0  # type: ignore[union-attr]


def test_morris_move_limit_bounds() -> None:
    # Kills: `<= MAX_MOVE_LIMIT` turned into `<`, or the bound moved by one either way.
    assert MAX_MOVE_LIMIT == 1000
    assert MORRIS.options(MORRIS.new("standard", move_limit=1000))["move_limit"] == 1000
    assert MORRIS.options(MORRIS.new("standard", move_limit="1000"))["move_limit"] == 1000
    assert MORRIS.options(MORRIS.new("standard", move_limit=0))["move_limit"] == 0
    for bad in (1001, "1001"):
        with pytest.raises(OptionError, match="from 0 \\(off\\) to 1000, not"):
            MORRIS.new("standard", move_limit=bad)
