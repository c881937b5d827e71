"""Atmalof: every rule of /work/shared/rules/atmalof.md as a test on a concrete position."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction, OptionError, ParseError, Termination
from engine.atmalof import (
    GAME,
    AtmalofState,
    Drop,
    Move,
    drop_is_futile,
    fours,
    landing,
    winning_line,
    winning_lines,
)
from engine.playout import favouring, perft, random_steps

DATA = Path(__file__).parent / "data"


def position(
    picture: str,
    turn: str = "red",
    variant: str = "standard",
    hands: tuple[int, int] | None = None,
    ply: int = 10,
    **options: object,
) -> AtmalofState:
    """A position from a picture: rows top (row 1) to bottom, R Red, B Blue, . empty."""
    rows = [line.strip() for line in picture.strip().splitlines()]
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    pieces = GAME.new(variant, **options).pieces
    if hands is None:
        text = "".join(rows)
        hands = (pieces - text.count("R"), pieces - text.count("B"))
    return GAME.from_text(
        f"{variant} {opts} board={'/'.join(rows)} hands={hands[0]},{hands[1]} turn={turn} ply={ply}"
    )


EMPTY7 = "\n".join(["......."] * 7)


def drop(state: AtmalofState, text: str, roll: int) -> AtmalofState:
    return GAME.apply(state, GAME.parse(state, text), roll=roll)


def move(state: AtmalofState, text: str) -> AtmalofState:
    return GAME.apply(state, GAME.parse(state, text))


# --- board and pieces ----------------------------------------------------------------------------


def test_get_game_returns_this_module() -> None:
    assert engine.get_game("atmalof") is GAME
    assert isinstance(GAME, engine.Game)
    assert GAME.name == "atmalof" and GAME.title == "Atmalof"
    assert GAME.side_names == ("Red", "Blue")
    assert GAME.variants == ("standard", "junior", "atmalos", "custom")


def test_standard_board_is_7x7_empty_with_22_pieces_each_and_red_first() -> None:
    s = GAME.new()
    assert (s.rows, s.cols, s.beyond_rows, s.beyond_cols, s.line) == (7, 7, 1, 1, 5)
    assert s.hands == (22, 22) and s.in_hand(0) == 22 and s.on_board(1) == 0
    assert all(side is None for _, side in s.cells())
    assert len(list(s.cells())) == 49
    assert s.to_move == 0 and s.ply == 0 and s.variant == "standard"
    assert GAME.result(s) is None


def test_state_is_hashable_and_equal_by_value() -> None:
    a = drop(GAME.new(), "drop row 4", 6)
    b = drop(GAME.new(), "drop col 6", 4)
    assert a == b and hash(a) == hash(b)
    assert len({a, b, GAME.new()}) == 2


def test_cell_accessors_report_sides_and_refuse_off_board() -> None:
    s = position(EMPTY7.replace(".......", "R.....B", 1))
    assert s.at((1, 1)) == 0 and s.at((1, 7)) == 1 and s.at((2, 2)) is None
    assert s.squares_of(0) == [(1, 1)] and s.squares_of(1) == [(1, 7)]
    with pytest.raises(IndexError):
        s.at((8, 1))


# --- a drop --------------------------------------------------------------------------------------


def test_drop_row_4_rolling_6_lands_on_row_4_column_6() -> None:
    s = drop(GAME.new(), "drop row 4", 6)
    assert s.at((4, 6)) == 0 and s.hands == (21, 22) and s.to_move == 1 and s.ply == 1


def test_drop_column_4_rolling_1_lands_on_row_1_column_4() -> None:
    s = drop(GAME.new(), "drop col 4", 1)
    assert s.at((1, 4)) == 0


def test_landing_gives_row_then_column() -> None:
    s = GAME.new()
    assert landing(s, Drop("row", 3), 2) == (3, 2)
    assert landing(s, Drop("col", 3), 2) == (2, 3)


@pytest.mark.parametrize("occupant", ["R", "B"])
def test_drop_on_an_occupied_square_loses_the_turn(occupant: str) -> None:
    s = position(EMPTY7.replace(".......", f"..{occupant}....", 3), turn="red")
    after = drop(s, "drop row 3", 3)
    assert after.board == s.board and after.hands == s.hands
    assert after.to_move == 1 and after.ply == s.ply + 1
    assert GAME.result(after) is None


def test_drop_needs_a_roll_in_the_die_range() -> None:
    s = GAME.new()
    with pytest.raises(IllegalAction, match=r"needs the die's roll \(1 to 6\)"):
        GAME.apply(s, Drop("row", 4))
    for bad in (0, 7, True, 3.0):
        with pytest.raises(IllegalAction, match="is not a roll of a 6-sided die"):
            GAME.apply(s, Drop("row", 4), roll=bad)  # type: ignore[arg-type]


def test_a_move_takes_no_roll() -> None:
    s = position(EMPTY7.replace(".......", "R......", 1))
    with pytest.raises(IllegalAction, match="a move does not roll"):
        GAME.apply(s, Move((1, 1), (1, 2)), roll=3)


def test_row_7_and_column_7_are_announceable_in_standard() -> None:
    legal = GAME.legal(GAME.new())
    assert Drop("row", 7) in legal and Drop("col", 7) in legal
    assert legal[:14] == [Drop("row", k) for k in range(1, 8)] + [
        Drop("col", k) for k in range(1, 8)
    ]
    s = drop(GAME.new(), "drop row 7", 6)
    assert s.at((7, 6)) == 0
    s = drop(GAME.new(), "drop col 7", 2)
    assert s.at((2, 7)) == 0


def test_corner_7_7_is_reached_only_by_a_move() -> None:
    s = GAME.new()
    landed = {
        landing(s, d, roll)
        for d in GAME.legal(s)
        for roll in range(1, GAME.die_faces(s, d) + 1)  # type: ignore[operator]
    }
    assert (7, 7) not in landed and len(landed) == 48
    assert not s.reachable((7, 7)) and s.reachable((7, 6)) and s.reachable((6, 7))
    s = position("\n".join(["......."] * 5 + ["......R", "......."]))
    after = move(s, "move 6,7 s")
    assert after.at((7, 7)) == 0


def test_die_faces_are_six_for_both_axes_in_standard() -> None:
    s = GAME.new()
    assert GAME.die_faces(s, Drop("row", 7)) == 6 and GAME.die_faces(s, Drop("col", 1)) == 6
    assert GAME.die_faces(s, Move((1, 1), (1, 2))) is None
    assert (s.row_faces, s.col_faces) == (6, 6)


def test_no_drop_without_pieces_in_hand() -> None:
    s = position(
        "R.R.R.R\n.......\nR......\n" + "\n".join(["......."] * 4),
        variant="custom",
        pieces=5,
        tiebreak="both",
    )
    assert GAME.result(s) is None
    assert all(isinstance(a, Move) for a in GAME.legal(s))
    with pytest.raises(IllegalAction, match="Red has no pieces left in hand"):
        GAME.parse(s, "drop row 2")


def test_announcing_a_line_off_the_board_is_refused() -> None:
    s = GAME.new()
    with pytest.raises(IllegalAction, match="there is no row 8: rows are numbered 1 to 7"):
        GAME.parse(s, "drop row 8")
    with pytest.raises(IllegalAction, match="there is no column 0"):
        GAME.parse(s, "drop col 0")
    with pytest.raises(IllegalAction, match="announces a row or a column"):
        GAME.apply(s, Drop("diagonal", 1), roll=1)


def test_futile_drop_is_legal_but_flagged() -> None:
    s = position(EMPTY7.replace(".......", "RBRBRB.", 2))
    assert drop_is_futile(s, Drop("row", 2))
    assert not drop_is_futile(s, Drop("row", 3))
    assert not drop_is_futile(s, Drop("col", 1))
    assert GAME.is_legal(s, Drop("row", 2))
    after = drop(s, "drop row 2", 4)
    assert after.board == s.board and after.to_move == 1


# --- a move --------------------------------------------------------------------------------------

CENTRE = "\n".join(["......."] * 3 + ["...R..."] + ["......."] * 3)


@pytest.mark.parametrize(
    ("direction", "target"),
    [
        ("n", (3, 4)),
        ("ne", (3, 5)),
        ("e", (4, 5)),
        ("se", (5, 5)),
        ("s", (5, 4)),
        ("sw", (5, 3)),
        ("w", (4, 3)),
        ("nw", (3, 3)),
    ],
)
def test_a_piece_moves_one_king_step_north_being_towards_row_1(
    direction: str, target: tuple[int, int]
) -> None:
    s = position(CENTRE)
    action = GAME.parse(s, f"move r4c4 {direction}")
    assert action == Move((4, 4), target)
    after = GAME.apply(s, action)
    assert after.at(target) == 0 and after.at((4, 4)) is None
    assert after.hands == s.hands and after.to_move == 1


def test_legal_lists_all_eight_steps_of_a_free_piece_and_the_announcements() -> None:
    legal = GAME.legal(position(CENTRE))
    moves = [a for a in legal if isinstance(a, Move)]
    assert len(legal) == 14 + 8 and len(moves) == 8
    assert {m.origin for m in moves} == {(4, 4)}


def test_corner_piece_has_three_steps() -> None:
    s = position(EMPTY7.replace(".......", "R......", 1))
    assert sorted(m.target for m in GAME.legal(s) if isinstance(m, Move)) == [
        (1, 2),
        (2, 1),
        (2, 2),
    ]


MOVE_ERRORS = [
    ("move 4,4 4,5", "blue", r"\(4,4\) is a Red piece, not one of yours"),
    ("move 3,3 3,2", "red", r"there is no piece on \(3,3\)"),
    ("move 4,4 4,5", "red", r"\(4,5\) is occupied"),
    ("move 4,4 6,4", "red", r"\(4,4\) to \(6,4\) is not one step"),
    ("move 4,4 4,4", "red", r"\(4,4\) to \(4,4\) is not one step"),
    ("move 1,1 n", "red", r"\(0,1\) is off the 7x7 board"),
    ("move 1,1 0,0", "red", r"\(0,0\) is off the 7x7 board"),
    ("move 8,8 7,7", "red", r"\(8,8\) is not on the 7x7 board"),
]


@pytest.mark.parametrize(("text", "turn", "reason"), MOVE_ERRORS)
def test_moves_the_rules_forbid_are_refused_with_the_reason(
    text: str, turn: str, reason: str
) -> None:
    s = position("R......\n.......\n.......\n...RB..\n.......\n.......\n.......", turn=turn)
    with pytest.raises(IllegalAction, match=reason):
        GAME.parse(s, text)
    action = (
        Move(*[tuple(int(x) for x in w.split(",")) for w in text.split()[1:]])
        if (text.count(",") == 2)
        else None
    )
    if action is not None:
        assert not GAME.is_legal(s, action)
        with pytest.raises(IllegalAction, match=reason):
            GAME.apply(s, action)


def test_malformed_action_objects_are_refused() -> None:
    s = position(CENTRE)
    with pytest.raises(IllegalAction, match="a move goes from one square"):
        GAME.apply(s, Move((4, 4), "e"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="is not an Atmalof action"):
        GAME.apply(s, "drop row 4")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=r"there is no row 4\.0"):
        GAME.apply(s, Drop("row", 4.0), roll=1)  # type: ignore[arg-type]
    assert not GAME.is_legal(s, "move 4,4 4,5")  # type: ignore[arg-type]


def test_there_is_no_pass() -> None:
    s = GAME.new()
    with pytest.raises(ParseError, match="'pass' is not an Atmalof command"):
        GAME.parse(s, "pass")


# --- winning -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("picture", "text", "roll", "line"),
    [
        ("RRRR...", "drop row 1", 5, [(1, c) for c in range(1, 6)]),
        (None, "drop col 1", 5, [(r, 1) for r in range(1, 6)]),
    ],
)
def test_five_in_a_row_or_column_wins_at_once(
    picture: str | None, text: str, roll: int, line: list[tuple[int, int]]
) -> None:
    if picture is not None:
        s = position(EMPTY7.replace(".......", picture, 1))
    else:
        s = position("R......\nR......\nR......\nR......\n.......\n.......\n.......")
    after = drop(s, text, roll)
    outcome = GAME.result(after)
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.LINE, 0)
    assert outcome.reason == "Red made five in a row"
    assert winning_line(after) == tuple(line)
    assert GAME.legal(after) == []


def test_five_on_both_diagonals_win() -> None:
    s = position("R......\n.R.....\n..R....\n...R...\n.......\n.......\n.......")
    after = drop(s, "drop row 5", 5)
    assert GAME.result(after).winner == 0  # type: ignore[union-attr]
    assert winning_line(after) == tuple((i, i) for i in range(1, 6))
    s = position("......B\n.....B.\n....B..\n...B...\n.......\n.......\n.......", turn="blue")
    after = drop(s, "drop col 3", 5)
    assert GAME.result(after).winner == 1  # type: ignore[union-attr]
    assert GAME.result(after).reason == "Blue made five in a row"  # type: ignore[union-attr]


def test_a_five_made_by_a_move_wins() -> None:
    s = position("RRRR...\n....R..\n.......\n.......\n.......\n.......\n.......")
    after = move(s, "move 2,5 n")
    assert GAME.result(after).termination is Termination.LINE  # type: ignore[union-attr]
    assert winning_line(after) == tuple((1, c) for c in range(1, 6))


def test_lines_of_six_and_seven_also_win() -> None:
    six = drop(position("RRR.RR.\n" + "\n".join(["......."] * 6)), "drop row 1", 4)
    assert GAME.result(six).reason == "Red made six in a row"  # type: ignore[union-attr]
    assert winning_line(six) == tuple((1, c) for c in range(1, 7))
    seven = move(position("RRR.RRR\n...R...\n" + "\n".join(["......."] * 5)), "move 2,4 n")
    assert GAME.result(seven).reason == "Red made seven in a row"  # type: ignore[union-attr]
    assert len(winning_line(seven)) == 7  # type: ignore[arg-type]


def test_a_single_drop_can_make_two_lines() -> None:
    s = position("RRRR...\n....R..\n....R..\n....R..\n....R..\n.......\n.......")
    after = drop(s, "drop row 1", 5)
    assert len(winning_lines(after)) == 2


def test_four_in_a_row_does_not_win() -> None:
    after = drop(position("RRR....\n" + "\n".join(["......."] * 6)), "drop row 1", 4)
    assert GAME.result(after) is None and winning_line(after) is None


def test_nothing_is_legal_after_the_game_ends() -> None:
    won = drop(position("RRRR...\n" + "\n".join(["......."] * 6)), "drop row 1", 5)
    assert GAME.legal(won) == []
    for text in ("drop row 2", "move 1,1 2,1"):
        with pytest.raises(IllegalAction, match="the game is over"):
            GAME.parse(won, text)
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply(won, Drop("row", 2), roll=1)


# --- tie-break -----------------------------------------------------------------------------------


def test_the_22nd_piece_on_the_board_stops_the_game() -> None:
    # A striped board where no colour has a run longer than two: 21 Red, 21 Blue.
    s = position(".....RB\n.BRBRBR\nRBRBRBR\nBRBRBRB\nBRBRBRB\nRBRBRBR\nRBRBRB.")
    assert s.hands == (1, 1) and GAME.result(s) is None
    after = drop(s, "drop row 1", 2)
    assert after.on_board(0) == 22
    outcome = GAME.result(after)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert (
        outcome.winner is None
        and outcome.reason == "the tie-break count of lines of four: Red 0, Blue 0"
    )
    assert GAME.legal(after) == []


def test_more_fours_wins_the_tiebreak() -> None:
    # Red: a row four and a column four crossing at (4,4); Blue: one four.
    s = position(
        "B.BR...\n...R...\n...R...\nRRRR...\n.......\n.......\nBBBB...",
        variant="custom",
        pieces=8,
    )
    assert s.hands == (1, 2)
    after = drop(s, "drop row 6", 6)
    outcome = GAME.result(after)
    assert outcome is not None
    assert outcome.termination is Termination.TIEBREAK and outcome.winner == 0
    assert outcome.reason == "the tie-break count of lines of four: Red 2, Blue 1"
    assert fours(after, 1) == [tuple((7, c) for c in range(1, 5))]


def test_crossing_fours_sharing_a_piece_count_two() -> None:
    s = position(
        "...R...\n...R...\n...R...\nRRRR...\n.......\n.......\n.......",
        variant="custom",
        pieces=7,
    )
    assert sorted(fours(s, 0)) == [
        ((1, 4), (2, 4), (3, 4), (4, 4)),
        ((4, 1), (4, 2), (4, 3), (4, 4)),
    ]
    assert GAME.result(s).reason == "the tie-break count of lines of four: Red 2, Blue 0"  # type: ignore[union-attr]


def test_runs_of_three_or_five_are_not_fours() -> None:
    s = position("RRR....\n.......\nRRRRR..\n.......\nR......\nR......\nR......")
    assert fours(s, 0) == []
    assert GAME.result(s).termination is Termination.LINE  # type: ignore[union-attr]


def test_fours_on_diagonals_count() -> None:
    s = position(
        "R.....B\n.R...B.\n..R.B..\n...B...\n.......\n.......\n.......",
        turn="blue",
        variant="custom",
        pieces=5,
    )
    after = drop(s, "drop row 7", 1)
    assert len(fours(after, 0)) == 0 and len(fours(after, 1)) == 1
    outcome = GAME.result(after)
    assert outcome is not None and outcome.winner == 1
    assert outcome.reason == "the tie-break count of lines of four: Red 0, Blue 1"


def test_equal_fours_is_a_draw() -> None:
    s = position(
        "RRRR...\n.......\nBBBB...\n" + "\n".join(["......."] * 4), variant="custom", pieces=5
    )
    outcome = GAME.result(drop(s, "drop row 7", 6))
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert (
        outcome.is_draw and outcome.reason == "the tie-break count of lines of four: Red 1, Blue 1"
    )


def test_a_last_drop_that_makes_five_wins_by_line_not_tiebreak() -> None:
    s = position("RRRR...\n" + "\n".join(["......."] * 6), variant="custom", pieces=5)
    after = drop(s, "drop row 1", 5)
    assert after.hands == (0, 5)
    assert GAME.result(after).termination is Termination.LINE  # type: ignore[union-attr]


def test_either_trigger_ends_when_one_player_has_all_pieces_down() -> None:
    s = position("R.R.R.R\n" + "\n".join(["......."] * 6), variant="custom", pieces=5)
    after = drop(s, "drop row 3", 1)
    assert after.hands == (0, 5)
    assert GAME.result(after).termination is Termination.TIEBREAK  # type: ignore[union-attr]


def test_both_trigger_waits_for_the_second_player() -> None:
    s = position(
        "R.R.R.R\n" + "\n".join(["......."] * 5) + "\nB.B.B.B",
        variant="custom",
        pieces=5,
        tiebreak="both",
    )
    s = drop(s, "drop row 3", 3)
    assert s.hands == (0, 1) and GAME.result(s) is None
    s = move(s, "move 7,1 n")
    assert GAME.result(s) is None
    assert not any(isinstance(a, Drop) for a in GAME.legal(s))  # Red can only move
    with pytest.raises(IllegalAction, match="Red has no pieces left in hand"):
        GAME.parse(s, "drop row 4")
    s = move(s, "move 1,1 e")
    s = drop(s, "drop row 5", 5)
    outcome = GAME.result(s)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK


def test_both_trigger_with_a_side_that_cannot_move_goes_to_the_count() -> None:
    picture = "RRRRB..\nRRRRB..\nBBBBB..\n" + "\n".join(["......."] * 4)
    opts = dict(variant="custom", pieces=8, line=6, tiebreak="both")
    assert GAME.result(position(picture, turn="blue", **opts)) is None  # type: ignore[arg-type]
    s = position(picture, turn="red", **opts)  # type: ignore[arg-type]
    outcome = GAME.result(s)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert outcome.winner == 1
    assert outcome.reason == (
        "the tie-break count of lines of five: Red 0, Blue 1 (Red has no piece in hand and no move)"
    )
    assert GAME.legal(s) == []


# --- variants ------------------------------------------------------------------------------------


def test_junior_is_6x6_with_a_d6_everywhere_and_16_pieces() -> None:
    s = GAME.new("junior")
    assert (s.rows, s.cols, s.beyond_rows, s.beyond_cols, s.pieces, s.line) == (6, 6, 0, 0, 16, 5)
    assert (s.row_faces, s.col_faces) == (6, 6)
    assert all(s.reachable(sq) for sq, _ in s.cells())
    assert len(GAME.legal(s)) == 12
    with pytest.raises(IllegalAction, match="there is no row 7"):
        GAME.parse(s, "drop row 7")
    with pytest.raises(IllegalAction, match="not a roll of a 6-sided die"):
        GAME.apply(s, Drop("row", 6), roll=7)
    after = drop(s, "drop col 6", 6)
    assert after.at((6, 6)) == 0


def test_junior_tiebreak_at_16_pieces() -> None:
    s = position(".R.R.R\nR.R.R.\nR.R.R.\n.R.R.R\n.R.R.R\n......", variant="junior")
    assert s.hands == (1, 16)
    after = drop(s, "drop row 6", 6)
    assert GAME.result(after).termination is Termination.TIEBREAK  # type: ignore[union-attr]


def test_atmalos_is_9x9_with_a_d8_and_a_line_of_seven() -> None:
    s = GAME.new("atmalos")
    assert (s.rows, s.cols, s.beyond_rows, s.beyond_cols, s.pieces, s.line) == (9, 9, 1, 1, 36, 7)
    assert GAME.die_faces(s, Drop("row", 9)) == 8 and GAME.die_faces(s, Drop("col", 2)) == 8
    assert not s.reachable((9, 9)) and s.reachable((9, 8))
    with pytest.raises(IllegalAction, match="not a roll of a 8-sided die"):
        GAME.apply(s, Drop("row", 1), roll=9)
    nine = "\n".join(["........."] * 9)
    six = position(nine.replace(".........", "RRRRR....", 1), variant="atmalos")
    assert GAME.result(drop(six, "drop row 1", 6)) is None
    win = position(nine.replace(".........", "RRRRRR...", 1), variant="atmalos")
    outcome = GAME.result(drop(win, "drop row 1", 7))
    assert outcome is not None and outcome.reason == "Red made seven in a row"


def test_atmalos_tiebreak_counts_sixes() -> None:
    nine = "\n".join(["RRRRRR..."] + ["........."] * 7 + ["........R"])
    opts = dict(rows=9, cols=9, line=7, pieces=7)
    outcome = GAME.result(position(nine, variant="custom", **opts))  # type: ignore[arg-type]
    assert (
        outcome is not None
        and outcome.reason == "the tie-break count of lines of six: Red 1, Blue 0"
    )


def test_custom_dice_follow_rows_cols_and_beyond() -> None:
    s = GAME.new("custom", rows=8, cols=6, beyond_rows=1, beyond_cols=2, pieces=20, line=4)
    assert GAME.die_faces(s, Drop("row", 8)) == 4  # a row announcement picks a column 1..4
    assert GAME.die_faces(s, Drop("col", 6)) == 7  # a column announcement picks a row 1..7
    assert len(GAME.legal(s)) == 8 + 6
    assert drop(s, "drop row 8", 4).at((8, 4)) == 0
    assert drop(s, "drop col 6", 7).at((7, 6)) == 0
    with pytest.raises(IllegalAction, match="4-sided"):
        GAME.apply(s, Drop("row", 1), roll=5)
    assert not s.reachable((8, 5)) and s.reachable((7, 5)) and s.reachable((8, 4))


def test_custom_takes_string_numbers_and_reports_full_options() -> None:
    s = GAME.new("custom", rows="8", tiebreak="BOTH")
    assert GAME.options(s) == dict(
        rows=8,
        cols=7,
        beyond_rows=1,
        beyond_cols=1,
        pieces=22,
        line=5,
        tiebreak="both",
        repetition=True,
        move_limit=50,
    )
    again = GAME.new(s.variant, **GAME.options(s))
    assert again == s


@pytest.mark.parametrize("variant", ["standard", "junior", "atmalos", "custom"])
def test_every_variant_restarts_from_its_options(variant: str) -> None:
    s = GAME.new(variant, tiebreak="both")
    assert GAME.new(variant, **GAME.options(s)) == s


OPTION_ERRORS = [
    ("chess", {}, "unknown Atmalof variant 'chess'"),
    ("standard", {"colour": "red"}, "unknown Atmalof option 'colour'"),
    ("standard", {"rows": 8}, "the standard variant has rows=7; use the custom variant"),
    ("junior", {"pieces": 20}, "the junior variant has pieces=16"),
    ("standard", {"tiebreak": "neither"}, "tiebreak must be 'either' or 'both'"),
    ("custom", {"rows": 13}, "rows must be between 3 and 12, not 13"),
    ("custom", {"cols": 2, "line": 3}, "cols must be between 3 and 12, not 2"),
    ("custom", {"rows": "many"}, "rows must be a whole number, not 'many'"),
    ("custom", {"rows": True}, "rows must be a whole number"),
    ("custom", {"beyond_rows": 7}, r"beyond_rows \(7\) must be smaller than rows \(7\)"),
    ("custom", {"beyond_cols": -1}, "beyond_cols cannot be negative"),
    ("custom", {"beyond_cols": 6}, "announcing a row would roll a die of 1 face"),
    ("custom", {"beyond_rows": 6}, "announcing a column would roll a die of 1 face"),
    ("custom", {"line": 8}, "a line of 8 cannot fit on a 7x7 board"),
    ("custom", {"line": 2}, "line must be at least 3"),
    ("custom", {"pieces": 4}, r"pieces \(4\) must be at least line \(5\)"),
    ("custom", {"pieces": 25}, "25 pieces each need 50 squares, but a 7x7 board has only 49"),
]


@pytest.mark.parametrize(("variant", "options", "message"), OPTION_ERRORS)
def test_impossible_option_sets_are_refused(
    variant: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        GAME.new(variant, **options)


def test_a_line_longer_than_one_side_but_not_the_other_is_allowed() -> None:
    board = "\n".join(["RRRRR..."] + ["........"] * 3)
    s = position(
        board, variant="custom", rows=4, cols=8, beyond_rows=0, beyond_cols=0, pieces=6, line=6
    )
    assert GAME.result(drop(s, "drop row 1", 6)).reason == "Red made six in a row"  # type: ignore[union-attr]


# --- grammar -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("drop row 4", Drop("row", 4)),
        ("DROP  Row 4", Drop("row", 4)),
        ("drop col 2", Drop("col", 2)),
        ("drop column 2", Drop("col", 2)),
        ("drop r4", Drop("row", 4)),
        ("drop c 2", Drop("col", 2)),
        ("drop row4", Drop("row", 4)),
        ("drop column7", Drop("col", 7)),
        ("row 3", Drop("row", 3)),
        ("column 5", Drop("col", 5)),
        ("move 4,4 3,4", Move((4, 4), (3, 4))),
        ("move 4, 4 5,5", Move((4, 4), (5, 5))),
        ("move (4,4) to (5,5)", Move((4, 4), (5, 5))),
        ("move r4c4 r4c3", Move((4, 4), (4, 3))),
        ("move r4c4 ne", Move((4, 4), (3, 5))),
        ("move 4,4 south-west", Move((4, 4), (5, 3))),
        ("move 4,4 northeast", Move((4, 4), (3, 5))),
        ("move 4,4 north east", Move((4, 4), (3, 5))),
        ("move 4,4 to south west", Move((4, 4), (5, 3))),
        ("move 4,4 west", Move((4, 4), (4, 3))),
    ],
)
def test_command_aliases(text: str, action: Drop | Move) -> None:
    assert GAME.parse(position(CENTRE), text) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty command"),
        ("jump 1,1 2,2", "'jump' is not an Atmalof command"),
        ("drop diagonal 3", "expected: drop row <k> or drop col <k>"),
        ("drop row", "expected: drop row <k> or drop col <k>"),
        ("drop row four", "'four' is not a row number"),
        ("drop col -1", "'-1' is not a column number"),
        ("move 4,4", "expected: move <row,col> <row,col>"),
        ("move 4x4 3,4", "'4x4' is not a square"),
        ("move 4,4 up", "'up' is not a direction"),
        ("move 4,4 ne ne", "expected: move <row,col> <row,col>"),
        ("move 4,4 3,4,5", "'3,4,5' is not a square"),
        ("x" * 300, "too long"),
    ],
)
def test_text_that_is_not_a_command_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        GAME.parse(position(CENTRE), text)


def test_notation_is_canonical() -> None:
    s = position(CENTRE)
    assert GAME.notation(s, Drop("row", 4)) == "drop row 4"
    assert GAME.notation(s, Drop("col", 2)) == "drop col 2"
    assert GAME.notation(s, Move((3, 4), (4, 5))) == "move 3,4 4,5"


# --- describe ------------------------------------------------------------------------------------


def test_describe_says_what_happened() -> None:
    s = position(EMPTY7.replace(".......", "..B....", 4))
    assert GAME.describe(s, Drop("row", 4), 6) == (
        "Red announces row 4 and rolls 6: a piece lands on (4,6)."
    )
    assert GAME.describe(s, Drop("row", 4), 3) == (
        "Red announces row 4 and rolls 3: (4,3) is occupied, so Red loses the turn."
    )
    assert GAME.describe(s, Drop("col", 3), None) == (
        "Red announces column 3; a 6-sided die will pick the row."
    )
    blue = position(EMPTY7.replace(".......", "...B...", 3), turn="blue")
    assert GAME.describe(blue, Move((3, 4), (4, 5))) == "Blue moves (3,4) to (4,5)."


# --- position text -------------------------------------------------------------------------------


def test_position_text_format() -> None:
    s = drop(GAME.new("custom", rows=5, cols=6, pieces=10, tiebreak="both"), "drop row 2", 3)
    assert GAME.to_text(s) == (
        "custom rows=5 cols=6 pieces=10 tiebreak=both "
        "board=....../..R.../....../....../...... hands=9,10 turn=blue ply=1"
    )
    assert GAME.from_text(GAME.to_text(s)) == s


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty position"),
        ("chess board=x", "unknown Atmalof variant"),
        ("standard board=......./.. hands=22,22 turn=red ply=0", "should be 7 rows of 7"),
        ("standard hands=22,22 turn=red ply=0", "missing"),
        ("standard board", "not a key=value field"),
        (
            f"standard board={'/'.join(['.......'] * 7)} hands=22,22 turn=red ply=0 clock=5",
            "unknown \\['clock'\\]",
        ),
        ("standard rows=9 board=. hands=1,1 turn=red ply=0", "bad position"),
        (
            "standard board=X....../......./......./......./......./......./....... "
            "hands=22,22 turn=red ply=0",
            "only R",
        ),
        (
            f"standard board={'/'.join(['.......'] * 7)} hands=21,22 turn=red ply=0",
            "Red has 0 on the board and 21 in hand",
        ),
        (f"standard board={'/'.join(['.......'] * 7)} hands=22 turn=red ply=0", "two counts"),
        (f"standard board={'/'.join(['.......'] * 7)} hands=22,22 turn=green ply=0", "red or blue"),
        (f"standard board={'/'.join(['.......'] * 7)} hands=22,22 turn=red ply=-1", "ply=-1"),
        (
            "standard board=RRRRR../BBBBB../......./......./......./......./....... "
            "hands=17,17 turn=red ply=20",
            "both sides have a winning line",
        ),
        ("standard " + "x" * 3000, "at most 2000"),
    ],
)
def test_garbage_position_text_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        GAME.from_text(text)


def test_from_text_decides_the_result() -> None:
    s = position("RRRRR..\n" + "\n".join(["......."] * 6), turn="blue")
    assert GAME.result(s).winner == 0  # type: ignore[union-attr]
    assert winning_line(s) == tuple((1, c) for c in range(1, 6))


# --- perft (counts of the chance tree: every drop expands into every roll) -----------------------


def reference_perft(state: AtmalofState, depth: int) -> int:
    """An independent, naive count from the rules text (dict board, no engine tables)."""
    rows, cols = state.rows, state.cols
    board = {sq: side for sq, side in state.cells() if side is not None}
    hands = list(state.hands)

    def lines_of(side: int, sq: tuple[int, int]) -> int:
        best = 0
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            n = 1
            for sign in (1, -1):
                r, c = sq[0] + sign * dr, sq[1] + sign * dc
                while board.get((r, c)) == side:
                    n += 1
                    r, c = r + sign * dr, c + sign * dc
            best = max(best, n)
        return best

    def count(to_move: int, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        if hands[to_move]:
            for axis, n, faces in (("row", rows, state.row_faces), ("col", cols, state.col_faces)):
                for k in range(1, n + 1):
                    for d in range(1, faces + 1):
                        sq = (k, d) if axis == "row" else (d, k)
                        if sq in board:
                            total += count(1 - to_move, depth - 1)
                            continue
                        board[sq] = to_move
                        hands[to_move] -= 1
                        over = lines_of(to_move, sq) >= state.line or (
                            0 in hands if state.tiebreak == "either" else hands == [0, 0]
                        )
                        total += 1 if depth == 1 else (0 if over else count(1 - to_move, depth - 1))
                        hands[to_move] += 1
                        del board[sq]
        for sq, side in sorted(board.items()):
            if side != to_move:
                continue
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    t = (sq[0] + dr, sq[1] + dc)
                    if t == sq or t in board or not (1 <= t[0] <= rows and 1 <= t[1] <= cols):
                        continue
                    del board[sq]
                    board[t] = to_move
                    over = lines_of(to_move, t) >= state.line
                    total += 1 if depth == 1 else (0 if over else count(1 - to_move, depth - 1))
                    del board[t]
                    board[sq] = to_move
        return total

    return count(state.to_move, depth)


PERFT_CASES = json.loads((DATA / "perft_atmalof.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", PERFT_CASES, ids=[c["name"] for c in PERFT_CASES])
def test_perft_counts_match_the_recorded_data(case: dict[str, object]) -> None:
    state = GAME.from_text(str(case["position"]))
    for depth, expected in enumerate(case["counts"], start=1):  # type: ignore[arg-type]
        assert perft(GAME, state, depth) == expected, f"depth {depth}"


@pytest.mark.parametrize("case", PERFT_CASES[:4], ids=[c["name"] for c in PERFT_CASES[:4]])
def test_perft_agrees_with_a_naive_reading_of_the_rules(case: dict[str, object]) -> None:
    state = GAME.from_text(str(case["position"]))
    assert perft(GAME, state, 2) == reference_perft(state, 2)


# --- random playouts -----------------------------------------------------------------------------


def playout(seed: int, variant: str, tiebreak: str, limit: int = 400) -> list[AtmalofState]:
    """Every position of a seeded random game (at most ``limit``), drops favoured so games
    reach the tie-break and lines, not only shuffling."""
    state = GAME.new(variant, tiebreak=tiebreak)
    steps = random_steps(GAME, state, random.Random(seed), limit - 1, favouring(Drop, 0.6))
    return [state, *(step.after for step in steps)]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["standard", "junior", "atmalos"]),
    tiebreak=st.sampled_from(["either", "both"]),
)
def test_random_playouts_keep_the_invariants(seed: int, variant: str, tiebreak: str) -> None:
    states = playout(seed, variant, tiebreak)
    for before, after in pairwise(states):
        assert GAME.result(before) is None
        assert after.to_move == 1 - before.to_move and after.ply == before.ply + 1
        for side in (0, 1):
            assert after.on_board(side) == after.board.count(side + 1)
            assert after.hands[side] <= before.hands[side]
        assert sum(after.hands) >= sum(before.hands) - 1
    for state in states:
        assert GAME.from_text(GAME.to_text(state)) == state
        result = GAME.result(state)
        if result is None or result.termination is not Termination.REPETITION:
            # position text keeps no history, so a repetition draw is not read back
            assert GAME.result(GAME.from_text(GAME.to_text(state))) == result
        legal = GAME.legal(state)
        for action in legal:
            assert GAME.parse(state, GAME.notation(state, action)) == action
            assert GAME.is_legal(state, action)
        outcome = GAME.result(state)
        if outcome is None:
            assert legal, "a running game always has an action: no pass is needed"
        else:
            assert legal == []
            if outcome.termination is Termination.LINE:
                assert winning_line(state) is not None
            elif outcome.termination in (Termination.REPETITION, Termination.MOVE_LIMIT):
                assert outcome.winner is None  # the referee's draws
            else:
                counts = [len(fours(state, side)) for side in (0, 1)]
                expected = None if counts[0] == counts[1] else counts.index(max(counts))
                assert outcome.winner == expected


def test_a_drop_with_a_word_too_many_says_which_word_and_what_to_type() -> None:
    state = GAME.new()
    for typed, token, command in [
        ("drop row 1 please", "please", "drop row 1"),
        ("drop column 04 now", "now", "drop col 4"),
        ("drop c 3 x y", "x", "drop col 3"),
    ]:
        with pytest.raises(ParseError) as refused:
            GAME.parse(state, typed)
        assert refused.value.code == "extra_words"
        assert refused.value.params == {"token": token, "command": command}
        assert str(refused.value) == f"'{token}' is not part of a drop: type {command}"
        GAME.parse(state, command)  # what it says to type is a drop
    with pytest.raises(ParseError) as other:
        GAME.parse(state, "drop sideways 1 2")
    assert other.value.code == "expected"
