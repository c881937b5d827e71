"""Abalone: every rule of /work/shared/rules/abalone.md as a test on a concrete position."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction, OptionError, ParseError, Termination
from engine.abalone import (
    CELL_NAMES,
    CELLS,
    GAME,
    AbaloneState,
    Push,
    aba_pro,
    marble_at,
    marbles,
    marbles_off,
    moved_marbles,
)
from engine.abalone.board import CELL_INDEX
from engine.abalone.notation import notation
from engine.playout import perft
from tests.engine.effects import effects_of

DATA = Path(__file__).parent / "data"

# Marbles that pad a test position to 14 a side, all in rows F..I; tests act in rows A..D and
# row E stays empty between them.
BLACK_FILLER = ["i5", "i6", "i7", "i8", "i9", "h4", "h5", "h6", "h7", "h8", "h9", "g3", "g4"]
WHITE_FILLER = ["g5", "g6", "g7", "g8", "g9", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9"]


def position(
    black: str,
    white: str,
    to_move: int = 0,
    lost: tuple[int, int] = (0, 0),
    ply: int = 10,
    **options: object,
) -> AbaloneState:
    """Black and White marbles on the named cells (rows A..E), padded up to 14 - lost each."""
    board = bytearray(61)
    for side, (named, filler) in enumerate(((black, BLACK_FILLER), (white, WHITE_FILLER))):
        cells = named.split()
        cells += filler[: 14 - lost[side] - len(cells)]
        for name in cells:
            assert board[CELL_INDEX[name]] == 0, name
            board[CELL_INDEX[name]] = side + 1
    base = GAME.new("standard", **options)
    return AbaloneState("standard", bytes(board), to_move, ply, base.repetition, base.move_limit)


def play(state: AbaloneState, text: str) -> AbaloneState:
    return GAME.apply(state, GAME.parse(state, text))


def illegal(state: AbaloneState, text: str) -> str:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse(state, text)
    return str(caught.value)


def parse_error(text: str, state: AbaloneState | None = None) -> str:
    with pytest.raises(ParseError) as caught:
        GAME.parse(state or GAME.new(), text)
    return str(caught.value)


def where(state: AbaloneState, cells: str) -> str:
    """The marbles on the named cells as a string: b Black, w White, . empty."""
    return "".join(".bw"[state.board[CELL_INDEX[c]]] for c in cells.split())


# Board and coordinates


def test_board_has_61_cells_in_rows_a_to_i_on_diagonals_1_to_9() -> None:
    rows = {
        "a": "12345",
        "b": "123456",
        "c": "1234567",
        "d": "12345678",
        "e": "123456789",
        "f": "23456789",
        "g": "3456789",
        "h": "456789",
        "i": "56789",
    }
    expected = [f"{row}{n}" for row, numbers in rows.items() for n in numbers]
    assert list(CELL_NAMES) == expected
    assert len(CELLS) == 61
    assert CELLS[0] == (0, 1) and CELLS[-1] == (8, 9)
    assert all(CELL_NAMES[i] == "abcdefghi"[r] + str(n) for i, (r, n) in enumerate(CELLS))


@pytest.mark.parametrize(
    ("direction", "target"),
    [("e", "d5"), ("w", "d3"), ("ne", "e5"), ("sw", "c3"), ("nw", "e4"), ("se", "c4")],
)
def test_directions_step_by_row_and_diagonal(direction: str, target: str) -> None:
    state = position("d4", "")
    assert moved_marbles(state, GAME.parse(state, f"push d4 {direction}")) == [("d4", target)]


# Start


@pytest.mark.parametrize(
    ("variant", "black", "white"),
    [
        (
            "standard",
            "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5",
            "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7",
        ),
        (
            "belgian-daisy",
            "a1 a2 b1 b2 b3 c2 c3 i8 i9 h7 h8 h9 g7 g8",
            "a4 a5 b4 b5 b6 c5 c6 i5 i6 h4 h5 h6 g4 g5",
        ),
        (
            "german-daisy",
            "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
            "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5",
        ),
    ],
)
def test_layouts_give_each_side_14_marbles_and_black_starts(
    variant: str, black: str, white: str
) -> None:
    state = GAME.new(variant)
    assert set(marbles(state, 0)) == set(black.split())
    assert set(marbles(state, 1)) == set(white.split())
    assert state.to_move == 0 and state.ply == 0 and state.variant == variant
    assert marbles_off(state, 0) == marbles_off(state, 1) == 0


def test_players_alternate() -> None:
    state = GAME.new()
    state = play(state, "push c3 c5 ne")
    assert state.to_move == 1 and state.ply == 1
    state = play(state, "push g5 g7 sw")
    assert state.to_move == 0 and state.ply == 2


def test_get_game_finds_abalone() -> None:
    assert engine.get_game("abalone") is GAME
    assert GAME.side_names == ("Black", "White")
    assert GAME.variants == ("standard", "belgian-daisy", "german-daisy")


# A move


def test_one_marble_moves_one_cell_to_an_empty_cell() -> None:
    state = play(position("c3", "", lost=(0, 0)), "push c3 e")
    assert where(state, "c3 c4") == ".b"


def test_two_and_three_marbles_in_line_move_together() -> None:
    state = play(position("c1 c2 c3", ""), "push c1 c3 e")
    assert where(state, "c1 c2 c3 c4") == ".bbb"
    state = play(position("b2 c3", ""), "push b2 c3 ne")
    assert where(state, "b2 c3 d4") == ".bb"


def test_marbles_must_be_adjacent() -> None:
    assert illegal(position("c1 c3", ""), "push c1 c3 e") == "there is no marble on c2"


def test_marbles_must_be_in_a_straight_line() -> None:
    assert parse_error("push b2 d5 e", position("b2 c3 d4", "")) == "b2 and d5 are not in one line"
    assert parse_error("push b2 c4 e") == "b2 and c4 are not in one line"


def test_never_more_than_three_marbles_move() -> None:
    state = position("d1 d2 d3 d4", "")
    four = "d4 would make a line of four: at most three marbles move"
    assert parse_error("push d1 d4 e", state) == (
        "d1 to d4 is a line of 4 marbles: at most three move together"
    )
    assert parse_error("push d1 d2 d3 d4 e", state) == "at most three marbles move together"
    assert illegal(state, "push d1 d3 e") == four
    assert illegal(state, "d1d2") == four


def test_a_move_may_break_up_a_longer_line() -> None:
    state = play(position("d1 d2 d3 d4", ""), "push d2 d4 e")
    assert where(state, "d1 d2 d3 d4 d5") == "b.bbb"
    state = play(position("d1 d2 d3 d4", ""), "push d1 d2 ne")
    assert where(state, "d1 d2 d3 d4 e2 e3") == "..bbbb"


def test_a_single_marble_in_front_of_its_own_marble_is_blocked() -> None:
    state = position("c3 c4", "")
    assert illegal(state, "push c3 e") == "c4 is your own marble, in the way (name the whole line)"


def test_you_can_only_move_your_own_marbles() -> None:
    state = position("a1", "a2")
    assert illegal(state, "push a2 e") == "a2 is not one of your marbles"
    assert illegal(state, "push a1 a2 ne") == "a2 is not one of your marbles"
    assert illegal(state, "push c3 e") == "there is no marble on c3"
    assert illegal(state, "a2a3") == "a2 is not one of your marbles"
    assert illegal(state, "c3c4") == "there is no marble on c3"


def test_broadside_moves_two_or_three_marbles_off_their_axis_into_empty_cells() -> None:
    state = play(position("c3 c4 c5", ""), "push c3 c5 ne")
    assert where(state, "c3 c4 c5 d4 d5 d6") == "...bbb"
    state = play(position("c3 d3", ""), "push c3 d3 e")
    assert where(state, "c3 d3 c4 d4") == "..bb"


@pytest.mark.parametrize("blocker", ["black", "white"])
def test_broadside_is_blocked_by_any_marble(blocker: str) -> None:
    black, white = ("c3 c4 c5 d6", "") if blocker == "black" else ("c3 c4 c5", "d6")
    state = position(black, white)
    assert illegal(state, "push c3 c5 ne") == (
        "d6 is occupied: a broadside move needs every cell empty"
    )


def test_broadside_never_pushes() -> None:
    # Three Black marbles side by side against one White marble with room behind it.
    state = position("c3 c4 c5", "d4")
    assert illegal(state, "push c3 c5 ne") == (
        "d4 is occupied: a broadside move needs every cell empty"
    )
    assert Push(("c3", "c4", "c5"), "ne") not in GAME.legal(state)


@pytest.mark.parametrize(
    ("black", "command", "message"),
    [
        ("a1", "push a1 sw", "a1 cannot move south-west: your own marble would leave the board"),
        ("a3 a4 a5", "push a3 a5 e", "a5 cannot move east: your own marble would leave the board"),
        (
            "a1 a2 a3",
            "push a1 a3 se",
            "a1 cannot move south-east: your own marble would leave the board",
        ),
        ("d8", "push d8 e", "d8 cannot move east: your own marble would leave the board"),
    ],
)
def test_you_may_not_move_your_own_marble_off_the_board(
    black: str, command: str, message: str
) -> None:
    assert illegal(position(black, ""), command) == message


def test_the_old_state_is_unchanged_by_a_move() -> None:
    state = GAME.new()
    text = GAME.to_text(state)
    play(state, "push c3 c5 ne")
    assert GAME.to_text(state) == text


# Sumito


@pytest.mark.parametrize(
    ("black", "white", "command", "after"),
    [
        ("c1 c2", "c3", "push c1 c2 e", ".bbw"),  # 2 push 1
        ("c1 c2 c3", "c4", "push c1 c3 e", ".bbbw"),  # 3 push 1
        ("c1 c2 c3", "c4 c5", "push c1 c3 e", ".bbbww"),  # 3 push 2
    ],
)
def test_sumito_pushes_a_shorter_opponent_line(
    black: str, white: str, command: str, after: str
) -> None:
    state = play(position(black, white), command)
    assert where(state, "c1 c2 c3 c4 c5 c6"[: 3 * len(after) - 1]) == after
    assert marbles_off(state, 1) == 0


@pytest.mark.parametrize(
    ("black", "white", "command", "after"),
    [
        ("a3 a4", "a5", "push a3 a4 e", "a3 a4 a5:.bb"),
        ("a2 a3 a4", "a5", "push a2 a4 e", "a2 a3 a4 a5:.bbb"),
        ("a1 a2 a3", "a4 a5", "push a1 a3 e", "a1 a2 a3 a4 a5:.bbbw"),
        ("c3 b2", "a1", "push c3 b2 sw", "a1 b2 c3:bb."),
    ],
)
def test_a_marble_pushed_off_the_board_is_out_of_the_game(
    black: str, white: str, command: str, after: str
) -> None:
    state = position(black, white, lost=(0, 2))
    new = play(state, command)
    cells, expected = after.split(":")
    assert where(new, cells) == expected
    assert marbles_off(new, 1) == 3
    assert len(marbles(new, 1)) == 11


def test_a_gap_stops_the_push() -> None:
    state = play(position("c1 c2", "c4"), "push c1 c2 e")
    assert where(state, "c1 c2 c3 c4 c5") == ".bbw."


def test_lines_off_one_axis_do_not_push() -> None:
    # Black c1-c2 points east; the White marble north-east of c2 is not in its line.
    state = position("c1 c2", "d3")
    assert illegal(state, "push c1 c2 ne") == (
        "d3 is occupied: a broadside move needs every cell empty"
    )
    assert illegal(state, "push c2 ne") == "1 against 1 cannot push"


def test_sandwiched_by_own_marble_cannot_be_pushed() -> None:
    state = position("c1 c2 c4", "c3")
    assert illegal(state, "push c1 c2 e") == "c4 is occupied, so the White marble cannot be pushed"


def test_sandwiched_between_three_and_own_marble_cannot_be_pushed() -> None:
    state = position("c1 c2 c3 c6", "c4 c5")
    assert illegal(state, "push c1 c3 e") == (
        "c6 is occupied, so the White marbles cannot be pushed"
    )


def test_sandwiched_by_opponent_marble_is_a_pac() -> None:
    state = position("c1 c2", "c3 c4")
    assert illegal(state, "push c1 c2 e") == "2 against 2 cannot push"


@pytest.mark.parametrize(
    ("black", "white", "command", "message"),
    [
        ("d1", "d2", "push d1 e", "1 against 1 cannot push"),
        ("d1 d2", "d3 d4", "push d1 d2 e", "2 against 2 cannot push"),
        ("d1 d2 d3", "d4 d5 d6", "push d1 d3 e", "3 against 3 cannot push"),
        ("d1 d2", "d3 d4 d5", "push d1 d2 e", "2 against 3 cannot push"),
        ("d1", "d2 d3", "d1d2", "1 against 2 cannot push"),
    ],
)
def test_pac_equal_lines_cannot_push(black: str, white: str, command: str, message: str) -> None:
    assert illegal(position(black, white), command) == message


def test_four_against_three_is_a_pac() -> None:
    state = position("d1 d2 d3 d4", "d5 d6 d7")
    assert illegal(state, "push d2 d4 e") == "3 against 3 cannot push"
    assert illegal(state, "d1d2") == "d4 would make a line of four: at most three marbles move"
    pushes_east = [a for a in GAME.legal(state) if a.direction == "e" and "d4" in a.cells]
    assert pushes_east == []


def test_front_two_of_three_against_two_is_a_pac() -> None:
    state = position("d1 d2 d3", "d4 d5")
    assert illegal(state, "push d2 d3 e") == "2 against 2 cannot push"
    assert where(play(state, "push d1 d3 e"), "d1 d2 d3 d4 d5 d6") == ".bbbww"


def test_front_two_and_all_three_are_different_moves() -> None:
    state = position("d1 d2 d3", "d4")
    two, three = GAME.parse(state, "push d2 d3 e"), GAME.parse(state, "push d1 d3 e")
    assert two != three and two in GAME.legal(state) and three in GAME.legal(state)
    assert where(GAME.apply(state, two), "d1 d2 d3 d4 d5") == "b.bbw"
    assert where(GAME.apply(state, three), "d1 d2 d3 d4 d5") == ".bbbw"
    assert GAME.parse(state, "d2d3") == two and GAME.parse(state, "d1d2") == three


def test_pushing_is_optional() -> None:
    state = position("d1 d2", "d3")
    legal = GAME.legal(state)
    assert GAME.parse(state, "push d1 d2 e") in legal
    assert GAME.parse(state, "push d1 d2 ne") in legal  # the same marbles need not push


def test_a_pac_can_be_broken_from_another_direction() -> None:
    state = position("c1 c2 c3 a4 b4", "c4 c5 c6")
    assert illegal(state, "push c1 c3 e") == "3 against 3 cannot push"
    new = play(state, "push a4 b4 nw")
    assert where(new, "a4 b4 c4 d4") == ".bbw"


# End


def test_pushing_the_sixth_marble_off_wins() -> None:
    state = position("a3 a4", "a5", lost=(0, 5))
    action = GAME.parse(state, "push a3 a4 e")
    assert GAME.describe(state, action) == (
        "Black pushes a3-a4 east: the White marble on a5 falls off the board "
        "(White has lost 6 of 6: Black wins)."
    )
    new = GAME.apply(state, action)
    outcome = GAME.result(new)
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.SIX_OFF, 0)
    assert outcome.reason == "Black pushed six White marbles off the board"
    assert GAME.legal(new) == []
    assert not GAME.is_legal(new, GAME.legal(GAME.new())[0])
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply(new, Push(("c1",), "e"))


def test_white_can_win_too() -> None:
    state = position("a5", "a3 a4", to_move=1, lost=(5, 0))
    new = play(state, "push a3 a4 e")
    assert GAME.result(new).winner == 1  # type: ignore[union-attr]


SHUFFLE = ["push d1 e", "push a5 w", "push d2 w", "push a4 e"]


def test_third_occurrence_of_a_position_is_a_draw() -> None:
    state = position("d1", "a5")
    for _ in range(2):
        for text in SHUFFLE:
            assert GAME.result(state) is None
            state = play(state, text)
    outcome = GAME.result(state)
    assert outcome is not None and outcome.termination == Termination.REPETITION
    assert outcome.winner is None
    assert outcome.reason == ("the same position occurred for the third time with Black to move")
    assert GAME.legal(state) == []


def test_repetition_needs_the_same_side_to_move() -> None:
    here, other = position("d1", "a5").board, position("d2", "a5").board
    # here.board seen twice before, both times with White to move: no draw.
    state = AbaloneState("standard", here, 0, 10, history=(other, here, other, here))
    assert GAME.result(state) is None
    state = AbaloneState("standard", here, 0, 10, history=(here, other, here, other))
    assert GAME.result(state).termination == Termination.REPETITION  # type: ignore[union-attr]


def test_repetition_can_be_switched_off() -> None:
    state = position("d1", "a5", repetition=False)
    for _ in range(3):
        for text in SHUFFLE:
            state = play(state, text)
    assert GAME.result(state) is None
    assert GAME.to_text(state).endswith("repetition=off")


def test_a_push_off_starts_the_repetition_count_afresh() -> None:
    state = play(position("d1", "a5"), "push d1 e")
    assert len(state.history) == 1
    state = play(position("a3 a4", "a5"), "push a3 a4 e")
    assert state.history == ()


def test_move_limit_draws_with_equal_marbles() -> None:
    state = position("d1", "a5", ply=0, move_limit=4)
    for text in SHUFFLE:
        state = play(state, text)
    outcome = GAME.result(state)
    assert outcome is not None and outcome.termination == Termination.MOVE_LIMIT
    assert outcome.winner is None
    assert outcome.reason == (
        "the limit of 4 moves in all was reached with 14 marbles each on the board"
    )  # "moves", as players count them and the picture says; not "plies"


def test_move_limit_won_by_more_marbles_on_the_board() -> None:
    state = position("d1", "a5", ply=3, lost=(2, 1), move_limit=4)
    state = play(state, "push d1 e")
    outcome = GAME.result(state)
    assert outcome is not None and outcome.winner == 1
    assert outcome.reason == (
        "the limit of 4 moves in all was reached: White has 13 marbles on the board, Black 12"
    )


def test_move_limit_zero_disables_it_and_default_is_200() -> None:
    assert GAME.new().move_limit == 200
    assert GAME.result(position("d1", "a5", ply=100_000, move_limit=0)) is None
    assert GAME.result(position("d1", "a5", ply=200)).termination == Termination.MOVE_LIMIT  # type: ignore[union-attr]


# Errors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "jump a1",
            "'jump' is not an Abalone command: "
            "expected: push <first marble> [<last marble>] <direction>, e.g. push a1 c3 ne",
        ),
        ("push", "expected: push <first marble> [<last marble>] <direction>, e.g. push a1 c3 ne"),
        (
            "push a1",
            "expected: push <first marble> [<last marble>] <direction>, e.g. push a1 c3 ne",
        ),
        ("push z9 e", "'z9' is not a cell on the board"),
        ("push a9 e", "'a9' is not a cell on the board"),
        ("push a1 a3 up", "'up' is not a direction: use ne, e, se, sw, w or nw"),
        # The command is read without its spaces ("north east"), but shown as it was typed.
        ("push c3 ne ne", "'ne ne' is not a direction: use ne, e, se, sw, w or nw"),
        ("push a1-a3 north, up", "'north up' is not a direction: use ne, e, se, sw, w or nw"),
        ("a1a3ne e", "'ne e' is not a direction: use ne, e, se, sw, w or nw"),
        ("push b2 d5 ne", "b2 and d5 are not in one line"),
        ("push a1 a5 e", "a1 to a5 is a line of 5 marbles: at most three move together"),
        ("a1a3", "a1 and a3 are not neighbours; to move a line write push a1 a3 <direction>"),
        ("a1a3c5", "a1 and c5 are not neighbours; to move a line write push a1 c5 <direction>"),
        ("push a1 b3 a3 ne", "a1, b3, a3 are not three neighbouring marbles in one line"),
        ("push " + "a" * 300, "that command is too long (at most 200 characters)"),
    ],
)
def test_text_that_is_not_a_move_is_a_parse_error(text: str, message: str) -> None:
    assert parse_error(text) == message


def test_dice_and_foreign_actions_are_refused() -> None:
    state = GAME.new()
    with pytest.raises(IllegalAction, match="Abalone uses no dice"):
        GAME.apply(state, GAME.legal(state)[0], roll=3)
    with pytest.raises(IllegalAction, match="not a line of one to three marbles"):
        GAME.apply(state, Push(("a1", "a3"), "e"))
    with pytest.raises(IllegalAction, match="not an Abalone move"):
        GAME.apply(state, "push a1 e")  # type: ignore[arg-type]
    assert not GAME.is_legal(state, Push(("a1", "a2"), "up"))
    assert GAME.die_faces(state, GAME.legal(state)[0]) is None


@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        ("hexagon", {}, "unknown Abalone variant 'hexagon'"),
        ("standard", {"clock": 5}, "unknown Abalone option 'clock'"),
        ("standard", {"repetition": "yes"}, "repetition must be true or false"),
        ("standard", {"move_limit": -1}, "move_limit must be between 0"),
        ("standard", {"move_limit": True}, "move_limit must be a whole number"),
        ("standard", {"move_limit": "200"}, "move_limit must be a whole number"),
    ],
)
def test_bad_variants_and_options_are_option_errors(
    variant: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        GAME.new(variant, **options)


def test_options_recreate_the_same_kind_of_game() -> None:
    state = GAME.new("Belgian Daisy", repetition=False, move_limit=50)
    assert state.variant == "belgian-daisy"
    assert GAME.options(state) == {"repetition": False, "move_limit": 50}
    assert GAME.new(state.variant, **GAME.options(state)) == state


# Notation


@pytest.mark.parametrize(
    "text",
    [
        "push c1 c3 ne",
        "PUSH C1 C3 NE",
        "push c3 c1 ne",
        "push c1 c2 c3 ne",
        "push c1-c3 north-east",
        "push c1 c3 northeast",
        "push c1 c3 north east",
        "c1c3ne",
        "/push c1, c3 ne",
        "c1c3d2",
        "c3c1d4",
    ],
)
def test_command_spellings_name_the_same_broadside(text: str) -> None:
    state = position("c1 c2 c3", "")
    assert GAME.parse(state, text) == Push(("c1", "c2", "c3"), "ne")


def test_in_line_notation_lists_the_trailing_marble_first() -> None:
    state = position("c2 c3 c4", "")
    west = GAME.parse(state, "push c2 c4 w")
    assert west == Push(("c4", "c3", "c2"), "w")
    assert GAME.notation(state, west) == "push c4 c2 w"
    assert aba_pro(west) == "c4c3"
    east = GAME.parse(state, "push c4 c2 e")
    assert GAME.notation(state, east) == "push c2 c4 e"
    assert aba_pro(east) == "c2c3"
    assert GAME.notation(state, GAME.parse(state, "c4 c5")) == "push c4 e"


def test_aba_pro_in_line_moves_the_whole_run_of_own_marbles() -> None:
    state = position("c1 c2 c3", "c4")
    assert GAME.parse(state, "c1c2") == Push(("c1", "c2", "c3"), "e")
    assert GAME.parse(state, "C2C3") == Push(("c2", "c3"), "e")
    assert illegal(state, "c3c4") == "1 against 1 cannot push"


def test_two_own_marbles_as_two_words_ask_for_the_direction() -> None:
    """ "push c4 c5" names a line and forgets its direction; played as Aba-Pro's "c4c5" it
    moved the line east, a move the player never chose. Compact, it is still Aba-Pro's."""
    state = position("c3 c4 c5", "")
    with pytest.raises(ParseError, match=r"^c4 and c5 are both your marbles: say where") as err:
        GAME.parse(state, "push c4 c5")
    assert err.value.code == "needs_direction"
    assert err.value.params == {"first": "c4", "last": "c5"}
    assert GAME.parse(state, "c4c5") == GAME.parse(state, "push c4 c5 e")
    assert GAME.parse(state, "push c5 d5") == Push(("c5",), "nw")  # onto an empty cell: one way
    with pytest.raises(ParseError, match=r"not neighbours"):
        GAME.parse(state, "push c3 c5")


def test_aba_pro_broadside_names_the_ends_and_the_first_target() -> None:
    state = position("c3 c4 c5", "")
    push = GAME.parse(state, "c3c5d4")
    assert push == Push(("c3", "c4", "c5"), "ne")
    assert aba_pro(push) == "c3c5d4"
    assert GAME.parse(state, "c5c3d6") == push


@pytest.mark.parametrize("variant", GAME.variants)
def test_every_start_move_round_trips_through_all_notations(variant: str) -> None:
    state = GAME.new(variant)
    for action in GAME.legal(state):
        assert GAME.parse(state, GAME.notation(state, action)) == action
        assert GAME.parse(state, aba_pro(action)) == action
        assert GAME.parse(state, GAME.notation(state, action).upper()) == action


# Position text


def test_start_position_text() -> None:
    assert GAME.to_text(GAME.new()) == ("standard bbbbb/bbbbbb/2bbb2/8/9/8/2www2/wwwwww/wwwww b 0")


def test_position_text_round_trips_with_options() -> None:
    state = position("c1 c2", "c3", to_move=1, lost=(3, 1), ply=17, move_limit=60)
    text = GAME.to_text(state)
    assert text.endswith("w 17 move_limit=60")
    assert GAME.from_text(text) == state
    assert GAME.to_text(GAME.from_text(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected: <variant> <board> <b|w> <ply>"),
        ("chess 5/6/7/8/9/8/7/6/5 b 0", "unknown Abalone variant 'chess'"),
        ("standard 5/6/7/8/9/8/7/6 b 0", "a board needs 9 rows"),
        ("standard 5/6/7/8/9/8/7/6/4 b 0", "row I needs 5 cells, not 4"),
        ("standard 5/6/7/8/9/8/7/6/x4 b 0", "unexpected 'x' in row I"),
        ("standard 5/6/7/8/9/8/7/6/5 x 0", "the side to move must be b"),
        ("standard 5/6/7/8/9/8/7/6/5 b -1", "the ply count must be a whole number"),
        ("standard 5/6/7/8/9/8/7/6/5 b 0 colour=red", "unknown position option"),
        ("standard bbbbb/bbbbbb/bbbbbbb/8/9/8/7/6/5 b 0", "Black has more than 14 marbles"),
        ("standard 5/6/7/8/9/8/7/6/5 b 0 move_limit=999999", "move_limit must be between"),
    ],
)
def test_garbage_position_text_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        GAME.from_text(text)


# Describe and accessors


def test_describe_says_what_moved_in_side_names() -> None:
    """A move that pushes no opponent "moves" (as the pictures say); only a sumito "pushes"."""
    state = position("c1 c2 c3", "")
    assert GAME.describe(state, GAME.parse(state, "push c1 c3 e")) == "Black moves c1-c3 east."
    assert GAME.describe(state, GAME.parse(state, "push c3 ne")) == "Black moves c3 north-east."
    assert GAME.describe(state, GAME.parse(state, "push c1 c3 ne")) == (
        "Black moves c1-c3 north-east."
    )


def test_describe_a_push_and_a_push_off() -> None:
    """A sumito "pushes" once: the pushed marbles, named where they stood, "move back" or fall
    off, no "pushing"."""
    state = position("d1 d2 d3", "d4 d5")
    assert GAME.describe(state, GAME.parse(state, "push d1 d3 e")) == (
        "Black pushes d1-d3 east: the two White marbles on d4 and d5 move back."
    )
    state = position("c4", "c5 c6 c7", to_move=1)
    assert GAME.describe(state, GAME.parse(state, "push c7 c5 w")) == (
        "White pushes c7-c5 west: the Black marble on c4 moves back."
    )
    state = position("c1", "c2 c3 c4", to_move=1, lost=(2, 0))
    assert GAME.describe(state, GAME.parse(state, "push c4 c2 w")) == (
        "White pushes c4-c2 west: the Black marble on c1 falls off the board"
        " (Black has lost 3 of 6)."
    )
    effect = GAME.effect(
        state, push := GAME.parse(state, "push c4 c2 w"), None, GAME.apply(state, push)
    )
    assert (effect.pushed, effect.pushed_off, effect.off_from) == (1, 1, "c1")
    state = position("c1 c2", "c3 c4 c5", to_move=1)
    push = GAME.parse(state, "c5c4")
    effect = GAME.effect(state, push, None, GAME.apply(state, push))
    assert (effect.pushed, effect.pushed_off, effect.off_from) == (2, 1, "c1")
    assert GAME.describe(state, GAME.parse(state, "c5c4")) == (
        "White pushes c5-c3 west: the Black marble on c2 moves back and the one on c1 falls off"
        " the board (Black has lost 1 of 6)."
    )


def test_a_move_names_its_line_as_its_notation_does_however_it_was_typed() -> None:
    """The live sentence and `history` (the stored notation) give a line's ends in one order:
    an in-line move from its trailing marble to its leading one, a broadside as the notation
    sorts it."""
    state = GAME.new("standard")
    for typed, said in [
        ("push c3 c5 w", "c5-c3 west"),
        ("push c5 c3 w", "c5-c3 west"),
        ("push c5 c3 ne", "c3-c5 north-east"),
        ("push c3 c5 ne", "c3-c5 north-east"),
    ]:
        action = GAME.parse(state, typed)
        first, last = GAME.notation(state, action).split()[1:3]
        assert f"{first}-{last}" in said
        assert GAME.describe(state, action) == f"Black moves {said}."


def test_moved_marbles_lists_own_then_pushed_marbles() -> None:
    state = position("a1 a2 a3", "a4 a5")
    assert moved_marbles(state, GAME.parse(state, "push a1 a3 e")) == [
        ("a1", "a2"),
        ("a2", "a3"),
        ("a3", "a4"),
        ("a4", "a5"),
        ("a5", None),
    ]
    with pytest.raises(IllegalAction):
        moved_marbles(state, Push(("a4",), "w"))


def test_marble_at_and_marbles_off() -> None:
    state = position("a1", "a2", lost=(1, 4))
    assert marble_at(state, "a1") == 0 and marble_at(state, "A2") == 1
    assert marble_at(state, "c3") is None and marble_at(state, CELL_INDEX["a1"]) == 0
    assert (marbles_off(state, 0), marbles_off(state, 1)) == (1, 4)


# Perft


def _perft_cases() -> list[tuple[str, int, int]]:
    data = json.loads((DATA / "perft_abalone.json").read_text(encoding="utf-8"))
    return [(c["variant"], c["depth"], c["nodes"]) for c in data["cases"]]


@pytest.mark.parametrize(("variant", "depth", "nodes"), _perft_cases())
def test_perft_from_the_start(variant: str, depth: int, nodes: int) -> None:
    assert perft(GAME, GAME.new(variant), depth) == nodes


# Random playouts


def _checked_apply(state: AbaloneState, action: Push) -> AbaloneState:
    """Apply a legal action, checking every invariant that must hold around it."""
    assert GAME.result(state) is None
    assert GAME.is_legal(state, action)
    assert GAME.parse(state, GAME.notation(state, action)) == action
    assert GAME.parse(state, aba_pro(action)) == action
    moved = moved_marbles(state, action)
    pushed_off = sum(1 for _, to in moved if to is None)
    new = GAME.apply(state, action)
    mover, other = state.to_move, 1 - state.to_move
    assert new.to_move == other and new.ply == state.ply + 1
    assert marbles_off(new, mover) == marbles_off(state, mover)
    assert marbles_off(new, other) == marbles_off(state, other) + pushed_off
    for side in (0, 1):
        assert len(marbles(new, side)) + marbles_off(new, side) == 14
    assert GAME.describe(state, action).startswith(GAME.side_names[mover])
    assert GAME.from_text(GAME.to_text(new)) == new
    outcome = GAME.result(new)
    assert (outcome is None) == bool(GAME.legal(new))
    if outcome is not None and outcome.termination == Termination.SIX_OFF:
        assert outcome.winner == mover and marbles_off(new, other) == 6
    return new


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(GAME.variants),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120),
)
def test_random_playouts_keep_the_invariants(variant: str, choices: list[int]) -> None:
    state = GAME.new(variant)
    for choice in choices:
        actions = GAME.legal(state)
        if not actions:
            break
        state = _checked_apply(state, actions[choice % len(actions)])


def test_aggressive_playouts_end_by_six_off_or_the_move_limit() -> None:
    rng = random.Random(2024)
    endings = []
    for game in range(6):
        state = GAME.new(GAME.variants[game % 3])
        while GAME.result(state) is None:
            actions = GAME.legal(state)
            pushes = [a for a in actions if len(moved_marbles(state, a)) > len(a.cells)]
            state = _checked_apply(state, rng.choice(pushes or actions))
        endings.append(GAME.result(state).termination)  # type: ignore[union-attr]
    assert Termination.SIX_OFF in endings
    assert set(endings) <= {Termination.SIX_OFF, Termination.MOVE_LIMIT, Termination.REPETITION}


def test_a_finished_game_refuses_commands() -> None:
    state = position("c1", "c2", lost=(0, 6))
    assert GAME.result(state).winner == 0  # type: ignore[union-attr]
    assert illegal(state, "push c1 ne") == "the game is over"


def test_malformed_actions_have_no_notation() -> None:
    state = GAME.new()
    not_canonical = Push(("a2", "a1"), "e")
    for call in (
        lambda: GAME.notation(state, not_canonical),
        lambda: GAME.describe(state, not_canonical),
        lambda: aba_pro(not_canonical),
    ):
        with pytest.raises(IllegalAction, match="not a line of one to three marbles"):
            call()
    with pytest.raises(IllegalAction, match="a1 cannot move off the board"):
        aba_pro(Push(("a1",), "sw"))
    assert not GAME.is_legal(state, "push a1 e")  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="at most 400 characters"):
        GAME.from_text("standard " * 100)


def test_a_position_that_stands_for_the_second_time_is_told() -> None:
    """``Effect.repeated``: the referee warns before a third occurrence draws unannounced."""
    effects, state = effects_of(GAME, position("d1", "a5"), SHUFFLE * 2)
    told = [e.repeated for e in effects]
    assert told == [False] * 3 + [True] * 4 + [False]  # the last one draws: no warning
    assert GAME.result(state) is not None


def test_move_is_read_as_push() -> None:
    """Replies say "alice (Black) moves a1-c3 north-east", so players type ``move`` too; the
    notation written stays ``push``."""
    state = GAME.new()
    for typed in ("move a1 c3 ne", "Move a1 c3 NE", "/move c3 a1 ne"):
        assert GAME.parse(state, typed) == GAME.parse(state, "push a1 c3 ne"), typed
    assert notation(GAME.parse(state, "move b1 ne")) == "push b1 ne"
    with pytest.raises(ParseError) as caught:
        GAME.parse(state, "mover a1 ne")
    assert caught.value.code == "unknown_command"
