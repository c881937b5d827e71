"""Nine Men's Morris: every sentence of /work/shared/rules/morris.md, on concrete positions."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import IllegalAction, OptionError, ParseError, Termination
from engine.morris import (
    GAME,
    LETTERS,
    POINT_NAMES,
    POINTS,
    MorrisState,
    Move,
    Place,
    Remove,
    can_fly,
    layout,
    men,
    men_in_hand,
    men_on_board,
    mills,
    pending_removal,
    phase,
    removable,
)
from engine.playout import perft
from tests.engine.effects import effects_of

DATA = json.loads((Path(__file__).parent / "data" / "perft_morris.json").read_text())
BOARD = layout("standard")


def p(name: str) -> int:
    """A point index from its grid name or letter."""
    return BOARD.point(name)


def pos(
    white: str = "",
    black: str = "",
    *,
    hand: tuple[int, int] = (0, 0),
    turn: str = "w",
    variant: str = "standard",
    pending: bool = False,
    quiet: int = 0,
    ply: int = 40,
    **options: object,
) -> MorrisState:
    """A position from point lists ("a7 d7"), built through from_text."""
    board_of = layout(variant)
    cells = ["."] * board_of.size
    for colour, names in (("W", white), ("B", black)):
        for name in names.split():
            cells[board_of.point(name)] = colour
    words = [
        variant,
        f"board={''.join(cells)}",
        f"hand={hand[0]},{hand[1]}",
        f"turn={turn}",
        f"ply={ply}",
        f"quiet={quiet}",
    ]
    if pending:
        words.append("pending")
    for key, value in options.items():
        words.append(f"{key}={('on' if value else 'off') if isinstance(value, bool) else value}")
    return GAME.from_text(" ".join(words))


def play(state: MorrisState, *commands: str) -> MorrisState:
    for command in commands:
        state = GAME.apply(state, GAME.parse(state, command))
    return state


def names(points: object) -> set[str]:
    return {POINT_NAMES[i] for i in points}  # type: ignore[attr-defined]


# ---- the board ----


def test_board_has_24_points_named_by_letter_and_grid() -> None:
    assert len(POINT_NAMES) == 24 and len(set(POINT_NAMES)) == 24
    assert LETTERS["A"] == "a7" and LETTERS["B"] == "d7" and LETTERS["X"] == "g1"
    assert POINTS[p("a7")] == (0, 6) and POINTS[p("g1")] == (6, 0) and POINTS[p("d5")] == (3, 4)
    assert all(p(letter) == p(grid) for letter, grid in LETTERS.items())


def test_adjacency_is_exactly_the_rules_file_lines() -> None:
    listed = (
        "A-B B-C C-O O-X X-W W-V V-J J-A D-E E-F F-N N-U U-T T-S S-K K-D G-H H-I I-M M-R R-Q "
        "Q-P P-L L-G B-E E-H J-K K-L M-N N-O Q-T T-W"
    )
    expected = {frozenset((p(a), p(b))) for a, b in (pair.split("-") for pair in listed.split())}
    assert {frozenset(edge) for edge in BOARD.edges} == expected
    assert len(expected) == 32


def test_seed_examples_of_neighbours() -> None:
    def around(letter: str) -> set[str]:
        nb = BOARD.neighbours[p(letter)]
        return {BOARD.letters[i] for i in range(24) if nb >> i & 1}

    assert around("A") == {"B", "J"}
    assert around("T") == {"Q", "S", "U", "W"}


def test_the_16_mills_are_the_rules_file_rows_and_columns_without_diagonals() -> None:
    listed = "ABC DEF GHI JKL MNO PQR STU VWX AJV DKS GLP BEH QTW IMR FNU COX"
    expected = {frozenset(p(c) for c in trio) for trio in listed.split()}
    assert {frozenset(mill) for mill in BOARD.mills} == expected
    assert frozenset((p("a7"), p("b6"), p("c5"))) not in expected


def test_a_bare_letter_is_a_letter_name_and_letter_digit_is_a_grid_point() -> None:
    state = GAME.new()
    assert GAME.parse(state, "place b") == Place(p("d7"))  # B, not file b
    assert GAME.parse(state, "PLACE B6") == Place(p("b6"))
    assert GAME.parse(state, "place D") == GAME.parse(state, "place b6")


# ---- placing ----


def test_white_moves_first_and_the_board_starts_empty_with_nine_in_each_hand() -> None:
    state = GAME.new()
    assert state.to_move == 0 and GAME.side_names == ("White", "Black")
    assert men(state, 0) == men(state, 1) == ()
    assert (men_in_hand(state, 0), men_in_hand(state, 1)) == (9, 9)
    assert len(GAME.legal(state)) == 24 and phase(state) == 1


def test_placing_alternates_onto_empty_points() -> None:
    state = play(GAME.new(), "place d7")
    assert state.to_move == 1 and men(state, 0) == (p("d7"),) and men_in_hand(state, 0) == 8
    assert Place(p("d7")) not in GAME.legal(state)
    with pytest.raises(IllegalAction, match=r"^d7 is occupied$"):
        GAME.parse(state, "place d7")


def test_placed_men_do_not_move_during_placing() -> None:
    state = play(GAME.new(), "place d7", "place a1")
    with pytest.raises(IllegalAction, match="White still has 8 men to place: place one first"):
        GAME.parse(state, "move d7 d6")


def test_moving_starts_once_both_have_placed_all_nine() -> None:
    rng = random.Random(3)
    state = GAME.new()
    while phase(state) == 1:
        state = GAME.apply(state, rng.choice(GAME.legal(state)))
    assert men_in_hand(state, 0) == men_in_hand(state, 1) == 0
    assert all(isinstance(a, Move | Remove) for a in GAME.legal(state))


def test_a_side_with_an_empty_hand_moves_while_the_other_still_places() -> None:
    state = pos("a7 d7 g4 b2", "a1 d1 f2", hand=(0, 2), turn="w")
    assert all(isinstance(a, Move) for a in GAME.legal(state))
    with pytest.raises(IllegalAction, match="White has no men left to place: move one instead"):
        GAME.parse(state, "place c5")
    state = play(state, "move a7 a4")
    assert all(isinstance(a, Place) for a in GAME.legal(state))


# ---- moving ----

MOVING = {"white": "a7 b2 e3 g4", "black": "c5 f6 d2 a1"}


def test_a_man_moves_along_a_line_to_an_adjacent_empty_point() -> None:
    state = pos(**MOVING)
    assert names(a.dst for a in GAME.legal(state) if a.src == p("a7")) == {"d7", "a4"}
    state = play(state, "move a7 d7")
    assert p("d7") in men(state, 0) and p("a7") not in men(state, 0)


def test_moving_to_a_point_that_is_not_adjacent_is_refused() -> None:
    with pytest.raises(IllegalAction, match=r"^a7 and g7 are not adjacent \(only a side"):
        GAME.parse(pos(**MOVING), "move a7 g7")


def test_moving_onto_any_occupied_point_is_refused() -> None:
    state = pos(**MOVING)
    with pytest.raises(IllegalAction, match=r"^f4 is occupied$"):
        GAME.parse(play(state, "move e3 e4", "move f6 f4"), "move e4 f4")  # the opponent's
    with pytest.raises(IllegalAction, match=r"^b2 is occupied$"):
        GAME.parse(pos("a7 b2 b4 g4", "c5 f6 d2 a1"), "move b4 b2")


def test_moving_a_man_that_is_not_yours_is_refused() -> None:
    state = pos(**MOVING)
    with pytest.raises(IllegalAction, match=r"^c5 is not one of White's men$"):
        GAME.parse(state, "move c5 d5")
    with pytest.raises(IllegalAction, match=r"^d5 is not one of White's men$"):
        GAME.parse(state, "move d5 d6")


def test_moving_to_the_same_point_is_refused() -> None:
    with pytest.raises(IllegalAction, match="a man must move to another point"):
        GAME.apply(pos(**MOVING), Move(p("a7"), p("a7")))


# ---- flying ----

FLYING = {"white": "a7 b2 e3", "black": "c5 f6 d2 a1"}


def test_a_side_with_exactly_three_men_flies_to_any_empty_point() -> None:
    state = pos(**FLYING)
    assert can_fly(state, 0) and not can_fly(state, 1)
    empty = 24 - 7
    assert len(GAME.legal(state)) == 3 * empty
    action = GAME.parse(state, "fly a7 g1")
    assert action == Move(p("a7"), p("g1")) and GAME.notation(state, action) == "fly a7 g1"
    assert GAME.parse(state, "move a7 g1") == action  # 'move' is accepted for a fly
    assert GAME.notation(state, Move(p("a7"), p("d7"))) == "fly a7 d7"


def test_a_side_with_four_men_cannot_fly() -> None:
    state = play(pos(**FLYING), "fly a7 g1")
    with pytest.raises(IllegalAction, match="Black has 4 men and cannot fly"):
        GAME.parse(state, "fly c5 d5")
    with pytest.raises(IllegalAction, match="c5 and g7 are not adjacent"):
        GAME.parse(state, "move c5 g7")


def test_flying_off_keeps_three_men_on_the_lines() -> None:
    state = pos(**FLYING, flying=False)
    assert not can_fly(state, 0)
    with pytest.raises(IllegalAction, match=r"a7 and g1 are not adjacent \(flying is off"):
        GAME.parse(state, "move a7 g1")
    with pytest.raises(IllegalAction, match="flying is off in this game"):
        GAME.parse(state, "fly a7 d7")


# ---- mills and removals ----


def test_closing_a_mill_by_placing_leaves_the_same_side_to_remove() -> None:
    state = pos("a7 d7", "b6 d6", hand=(7, 7))
    state = play(state, "place g7")
    assert pending_removal(state) and state.to_move == 0
    assert GAME.legal(state) == [Remove(p("b6")), Remove(p("d6"))]
    state = play(state, "remove b6")
    assert not pending_removal(state) and state.to_move == 1
    assert men(state, 1) == (p("d6"),) and men_in_hand(state, 1) == 7  # never returns


def test_closing_a_mill_by_moving_grants_a_removal() -> None:
    state = play(pos("a7 g7 d6 b2", "a4 g4 c3 e3"), "move d6 d7")
    assert pending_removal(state) and mills(state) == [(p("a7"), p("d7"), p("g7"))]


def test_a_man_in_a_mill_cannot_be_removed_while_others_stand_outside() -> None:
    state = play(pos("a7 d7", "b6 d6 f6 a4", hand=(7, 5)), "place g7")
    assert names(removable(state)) == {"a4"}
    with pytest.raises(IllegalAction, match=r"^d6 stands in a mill and Black has men outside"):
        GAME.parse(state, "remove d6")


def test_when_every_opponent_man_is_in_a_mill_any_may_be_removed() -> None:
    state = play(pos("a7 d7", "b6 d6 f6", hand=(7, 6)), "place g7")
    assert names(removable(state)) == {"b6", "d6", "f6"}
    assert play(state, "remove d6").men[1].bit_count() == 2


def test_closing_two_mills_at_once_still_removes_one_man() -> None:
    state = play(pos("d7 g7 a4 a1", "b6 d6 f2 c3", hand=(5, 5)), "place a7")
    assert len(mills(state, 0)) == 2 and pending_removal(state)
    state = play(state, "remove b6")
    assert state.to_move == 1 and not pending_removal(state)
    assert men_on_board(state, 1) == 3


def test_removal_pending_refuses_any_other_action() -> None:
    state = play(pos("a7 d7", "b6 d6", hand=(7, 7)), "place g7")
    with pytest.raises(IllegalAction, match=r"White closed a mill and must first remove a Black"):
        GAME.parse(state, "place a1")
    with pytest.raises(IllegalAction, match="must first remove"):
        GAME.apply(state, Move(p("a7"), p("a4")))


def test_removing_without_a_mill_is_refused() -> None:
    with pytest.raises(IllegalAction, match=r"^no mill was closed, so nothing can be removed$"):
        GAME.parse(pos("a7 d7", "b6 d6", hand=(7, 7)), "remove b6")


def test_removing_your_own_man_or_an_empty_point_is_refused() -> None:
    state = play(pos("a7 d7", "b6 d6", hand=(7, 7)), "place g7")
    with pytest.raises(IllegalAction, match=r"^a7 is one of White's own men$"):
        GAME.parse(state, "remove a7")
    with pytest.raises(IllegalAction, match=r"^c5 is empty$"):
        GAME.parse(state, "remove c5")


def test_reopening_and_closing_a_mill_again_is_a_new_mill_by_default() -> None:
    state = play(pos("a7 d7 g7 b2", "a4 g4 c3 e3"), "move d7 d6", "move a4 b4", "move d6 d7")
    assert pending_removal(state)


def test_no_remill_denies_the_removal_for_a_man_returning_where_it_left() -> None:
    state = pos("a7 d7 g7 b2", "a4 g4 c3 e3", no_remill=True)
    state = play(state, "move d7 d6", "move a4 b4")
    with pytest.raises(IllegalAction, match="d7 closes a mill by returning"):
        GAME.parse(state, "move d6 d7 x b4")
    assert (
        GAME.describe(state, GAME.parse(state, "move d6 d7"))
        == "White moves d6 to d7 and closes a mill by returning, which removes nothing "
        "(no_remill)."
    )
    state = play(state, "move d6 d7")
    assert not pending_removal(state) and state.to_move == 1 and mills(state, 0)


def test_no_remill_still_rewards_a_mill_closed_by_another_route() -> None:
    state = pos("a7 g7 d6 b2", "a4 g4 c3 e3", no_remill=True)
    assert pending_removal(play(state, "move d6 d7"))  # no previous move to return from
    state = pos("a7 d7 g7 b2 b4", "a1 g4 c3 e3", no_remill=True)
    state = play(state, "move d7 d6", "move a1 a4", "move b2 d2", "move g4 g1", "move d6 d7")
    assert pending_removal(state)  # d6 was left two turns ago, not on the previous turn


def test_no_remill_remembers_each_sides_last_move_in_the_position_string() -> None:
    state = play(pos("a7 d7 g7 b2", "a4 g4 c3 e3", no_remill=True), "move d7 d6", "move a4 b4")
    text = GAME.to_text(state)
    assert "last=d7-d6,a4-b4" in text and "no_remill=on" in text
    assert GAME.from_text(text).last == state.last and GAME.to_text(GAME.from_text(text)) == text


# ---- the combined removal ----


def test_a_move_may_carry_its_removal_and_equals_the_two_plies() -> None:
    state = pos("a7 g7 d6 b2", "a4 g4 c3 e3")
    combined = GAME.parse(state, "move d6 d7 x a4")
    assert combined == Move(p("d6"), p("d7"), remove=p("a4"))
    assert GAME.notation(state, combined) == "move d6 d7 x a4"
    assert GAME.is_legal(state, combined) and combined not in GAME.legal(state)
    after = GAME.apply(state, combined)
    assert after == play(state, "move d6 d7", "remove a4")
    assert after.ply == state.ply + 2 and after.to_move == 1


def test_a_placement_may_carry_its_removal_with_letters() -> None:
    state = pos("a7 d7", "b6 d6", hand=(7, 7))
    action = GAME.parse(state, "place c x d")
    assert action == Place(p("g7"), remove=p("b6"))
    assert GAME.notation(state, action) == "place g7 x b6"
    assert GAME.parse(state, GAME.notation(state, action)) == action


def test_the_letter_x_is_a_point_and_a_separator_by_position() -> None:
    state = pos("a1 d1", "a7 d7", hand=(7, 7))
    assert GAME.parse(state, "place x x a") == Place(p("g1"), remove=p("a7"))
    assert GAME.parse(state, "place x") == Place(p("g1"))


def test_the_removal_joins_its_move_by_the_words_players_read() -> None:
    """The rules summary shows Discord's ``remove:b6`` option; typed at the console it reads
    as ``x b6``, as do ``remove b6`` and ``take b6``."""
    state = pos("a7 d7", "b6 d6", hand=(7, 7))
    meant = Place(p("g7"), remove=p("b6"))
    for typed in ("place g7 remove:b6", "place g7 remove b6", "place g7 take b6", "place g7 x b6"):
        assert GAME.parse(state, typed) == meant, typed
    moving = pos("a7 g7 d6 b2", "a4 g4 c3 e3")
    assert GAME.parse(moving, "move d6 d7 remove:a4") == Move(p("d6"), p("d7"), remove=p("a4"))
    with pytest.raises(ParseError):
        GAME.parse(state, "place g7 remove")  # a removal word with no point after it
    owed = GAME.apply(state, GAME.parse(state, "place g7"))  # the mill, its removal owed
    assert GAME.parse(owed, "x b6") == GAME.parse(owed, "remove b6") == Remove(p("b6"))


def test_a_removal_without_a_mill_in_the_same_command_is_refused() -> None:
    state = pos(**MOVING)
    with pytest.raises(IllegalAction, match=r"^d7 closes no mill, so nothing can be removed$"):
        GAME.parse(state, "move a7 d7 x c5")


def test_a_combined_removal_obeys_the_removal_rules() -> None:
    state = pos("a7 d7", "b6 d6 f6 a4", hand=(7, 5))
    with pytest.raises(IllegalAction, match="d6 stands in a mill"):
        GAME.parse(state, "place g7 x d6")
    with pytest.raises(IllegalAction, match=r"^d7 is one of White's own men$"):
        GAME.parse(state, "place g7 x d7")


def test_a_mill_closed_without_x_leaves_the_removal_pending() -> None:
    state = play(pos("a7 d7", "b6 d6", hand=(7, 7)), "place g7")
    assert pending_removal(state) and state.to_move == 0


# ---- the end ----


def test_a_side_reduced_to_two_men_loses() -> None:
    state = pos("a7 d7 g7 e3", "b6 d6 f2", turn="w", pending=True)
    state = play(state, "remove b6")
    outcome = GAME.result(state)
    assert outcome is not None and outcome.termination is Termination.TWO_PIECES
    assert outcome.winner == 0 and "Black is down to two men" in outcome.reason
    assert GAME.legal(state) == []
    with pytest.raises(IllegalAction, match=r"^the game is over$"):
        GAME.parse(state, "move d6 d5")


def test_men_in_hand_count_so_nobody_loses_while_placing() -> None:
    state = pos("a7 d7 g7", "b6", hand=(6, 2), turn="b")
    assert GAME.result(state) is None and men_on_board(state, 1) == 1


def test_a_side_to_move_with_every_man_blocked_loses() -> None:
    state = pos("d7 a4 g4 d1 d6", "a7 g7 a1 g1", turn="b")
    outcome = GAME.result(state)
    assert outcome is not None and outcome.termination is Termination.BLOCKED
    assert outcome.winner == 0 and GAME.legal(state) == []


def test_three_men_fly_out_of_a_block_unless_flying_is_off() -> None:
    assert GAME.result(pos("d7 a4 g4 d1", "a7 g7 a1", turn="b")) is None
    blocked = GAME.result(pos("d7 a4 g4 d1", "a7 g7 a1", turn="b", flying=False))
    assert blocked is not None and blocked.termination is Termination.BLOCKED


SHUFFLE = ("move a7 d7", "move c5 d5", "move d7 a7", "move d5 c5")


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    state = play(pos(**MOVING), *SHUFFLE, *SHUFFLE[:3])
    assert GAME.result(state) is None
    state = play(state, SHUFFLE[3])
    outcome = GAME.result(state)
    assert outcome is not None and outcome.termination is Termination.REPETITION
    assert outcome.winner is None and GAME.legal(state) == []


def test_repetition_off_plays_on() -> None:
    state = play(pos(**MOVING, repetition=False), *SHUFFLE, *SHUFFLE, *SHUFFLE)
    assert GAME.result(state) is None


def test_a_removal_clears_the_repetition_history() -> None:
    state = play(pos("a7 g7 d6 b2", "a4 g4 c3 e3"), "move d6 d7", "remove a4")
    assert len(state.history) == 1


def test_fifty_moves_each_without_a_removal_is_a_draw() -> None:
    state = pos(**MOVING, quiet=99)
    assert GAME.result(state) is None
    state = play(state, "move a7 d7")
    outcome = GAME.result(state)
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT


def test_the_move_limit_is_an_option_and_zero_disables_it() -> None:
    short = play(pos(**MOVING, move_limit=2), *SHUFFLE)
    assert GAME.result(short) is not None and GAME.result(short).termination == "move_limit"
    assert GAME.result(play(pos(**MOVING, quiet=500, move_limit=0), "move a7 d7")) is None


def test_a_removal_resets_the_move_limit_count() -> None:
    state = play(pos("a7 g7 d6 b2", "a4 g4 c3 e3", quiet=98), "move d6 d7")
    assert state.quiet == 99
    assert play(state, "remove a4").quiet == 0


# ---- options, variants, text ----


def test_options_have_defaults_and_round_trip_through_new() -> None:
    state = GAME.new()
    assert GAME.options(state) == {
        "flying": True,
        "no_remill": False,
        "repetition": True,
        "move_limit": 50,
    }
    other = GAME.new("standard", flying="off", no_remill=True, move_limit=30)
    assert GAME.new(other.variant, **GAME.options(other)) == other
    assert engine.get_game("morris") is GAME


@pytest.mark.parametrize(
    ("variant", "options", "message"),
    [
        ("chess", {}, "unknown Morris variant 'chess'"),
        ("standard", {"diagonals": True}, "unknown Morris option 'diagonals'"),
        ("standard", {"flying": "maybe"}, "flying must be on or off"),
        ("standard", {"move_limit": -1}, "move_limit must be a whole number"),
        ("standard", {"move_limit": True}, "move_limit must be a whole number"),
        ("standard", {"move_limit": 5000}, "move_limit must be a whole number"),
    ],
)
def test_bad_variants_and_options_raise_option_error(
    variant: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        GAME.new(variant, **options)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected: place <point>, move"),
        ("castle kingside", "expected: place <point>, move"),
        ("place", "expected: place <point>"),
        ("place d7 d6", "expected: place <point>"),
        ("place d7 x", "expected: place <point>"),
        ("move d7", "expected: move <from> <to>"),
        ("fly a1", "expected: fly <from> <to>"),
        ("remove b6 x a1", "expected: remove <point>"),
        ("place z9", "^'z9' is not a point on the board$"),
        ("place d4", "^'d4' is not a point on the board$"),
        ("place y", "'y' is not a point on this board"),
        ("move d7 " + "d6 " * 80, "too long"),
    ],
)
def test_text_that_is_not_a_command_raises_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        GAME.parse(GAME.new(), text)


def test_apply_refuses_foreign_objects_points_and_rolls() -> None:
    state = GAME.new()
    with pytest.raises(IllegalAction, match="not a Morris action"):
        GAME.apply(state, "place d7")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="30 is not a point"):
        GAME.apply(state, Place(30))
    with pytest.raises(IllegalAction, match="no dice"):
        GAME.apply(state, Place(0), roll=3)
    assert GAME.die_faces(state, Place(0)) is None
    assert not GAME.is_legal(state, Remove(0))


def test_the_start_position_string() -> None:
    text = GAME.to_text(GAME.new())
    assert text == "standard board=........................ hand=9,9 turn=w ply=0 quiet=0"
    assert GAME.from_text(text) == GAME.new()
    text = GAME.to_text(GAME.new("six", flying=True, move_limit=10, repetition=False))
    assert text.endswith("flying=on repetition=off move_limit=10")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "chess board=x",
        "standard board=W hand=9,9 turn=w ply=0",
        "standard board=........................ turn=w ply=0",
        "standard board=........................ hand=9,9 turn=x ply=0",
        "standard board=........................ hand=10,9 turn=w ply=0",
        "standard board=........................ hand=9 turn=w ply=0",
        "standard board=........................ hand=9,9 turn=w ply=-1",
        "standard board=........................ hand=9,9 turn=w ply=0 flying=maybe",
        "standard board=........................ hand=9,9 turn=w ply=0 last=-,-",
        "standard board=........................ hand=9,9 turn=w ply=0 colour=red",
        "standard board=........................ hand=9,9 turn=w ply=0 ply=1",
        "standard board=........................ hand=9,9 turn=w ply=0 pending",
        "standard board=........................ hand=9,9 turn=w ply=0 no_remill=on last=a7",
        "standard " + "x" * 700,
    ],
)
def test_garbage_position_strings_raise_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        GAME.from_text(text)


def test_six_mens_morris_has_16_points_8_mills_and_no_flying() -> None:
    state = GAME.new("six")
    assert layout(state).size == 16 and len(layout(state).mills) == 8
    assert men_in_hand(state, 0) == 6 and GAME.options(state)["flying"] is False
    with pytest.raises(ParseError, match="'c5' is not a point on the board"):
        GAME.parse(state, "place c5")
    assert GAME.parse(state, "place x") == Place(layout(state).point("g1"))
    assert GAME.parse(state, "place a") == Place(0) and layout(state).points[0] == "a7"


def test_twelve_mens_morris_adds_diagonal_lines_and_mills() -> None:
    state = pos("a7 b6", "d7 d6", hand=(10, 10), variant="twelve")
    state = play(state, "place c5")
    assert pending_removal(state)
    assert men_in_hand(GAME.new("twelve"), 0) == 12


def test_twelve_mens_morris_full_board_after_placing_is_a_draw() -> None:
    whites = "a7 g7 c5 e5 a4 g4 e4 c3 d1 b2 f2 d6"
    blacks = "d7 b6 f6 d5 b4 c4 f4 d3 e3 a1 g1 d2"
    outcome = GAME.result(pos(whites, blacks, variant="twelve"))
    assert outcome is not None and outcome.termination is Termination.FULL_BOARD
    assert outcome.winner is None


def test_a_mill_with_no_opponent_man_on_the_board_passes_the_turn() -> None:
    state = pos("a7 d7", "", hand=(7, 9))
    assert (
        GAME.describe(state, Place(p("g7")))
        == "White places g7 and closes a mill, but Black has no man on the board to remove."
    )
    assert play(state, "place g7").to_move == 1
    with pytest.raises(IllegalAction, match="Black has no man on the board"):
        GAME.parse(state, "place g7 x d6")


# ---- describe and accessors ----


def test_describe_says_what_an_action_does() -> None:
    state = pos("a7 g7", "b6 d6", hand=(7, 7))
    place = GAME.parse(state, "place d7")
    assert GAME.describe(state, place) == "White places d7 and closes a mill."
    assert GAME.describe(state, Place(p("a1"))) == "White places a1."
    assert (
        GAME.describe(state, GAME.parse(state, "place d7 x b6"))
        == "White places d7, closes a mill and removes b6."
    )
    after = GAME.apply(state, place)
    assert GAME.describe(after, Remove(p("b6"))) == "White removes b6."
    black = pos("a7 b2 e3 g4", "c5 f6 d2", turn="b", pending=True)
    assert GAME.describe(black, Remove(p("b2"))) == "Black removes b2."
    flying = pos(**FLYING)
    assert GAME.describe(flying, Move(p("a7"), p("g7"))) == "White flies a7 to g7."
    assert GAME.describe(pos(**MOVING), Move(p("a7"), p("d7"))) == "White moves a7 to d7."


def test_accessors_for_the_renderer() -> None:
    state = play(pos("a7 d7", "b6 d6 f6", hand=(7, 6)), "place g7")
    assert men_on_board(state, 0) == 3 and men_in_hand(state, 0) == 6
    assert sorted(mills(state)) == sorted(
        [(p("a7"), p("d7"), p("g7")), (p("b6"), p("d6"), p("f6"))]
    )
    assert mills(state, 1) == [(p("b6"), p("d6"), p("f6"))]
    assert pending_removal(state) and removable(state) == {p("b6"), p("d6"), p("f6")}
    assert removable(play(state, "remove b6")) == set()


# ---- perft ----


@pytest.mark.parametrize(
    ("variant", "depth", "count"),
    [
        (entry["variant"], depth, count)
        for entry in DATA["positions"]
        for depth, count in enumerate(entry["counts"], start=1)
        if depth <= DATA["max_test_depth"]
    ],
)
def test_perft_counts_from_the_start(variant: str, depth: int, count: int) -> None:
    assert perft(GAME, GAME.new(variant), depth) == count


# ---- random playouts ----


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(["standard", "six", "twelve"]),
    flying=st.booleans(),
    no_remill=st.booleans(),
    move_limit=st.sampled_from([0, 5, 50]),
)
def test_random_playouts_keep_the_invariants(
    seed: int, variant: str, flying: bool, no_remill: bool, move_limit: int
) -> None:
    rng = random.Random(seed)
    state = GAME.new(variant, flying=flying, no_remill=no_remill, move_limit=move_limit)
    pieces = state.rules.pieces
    for _ in range(250):
        actions = GAME.legal(state)
        outcome = GAME.result(state)
        assert (outcome is None) == bool(actions)
        assert not state.men[0] & state.men[1]
        for side in (0, 1):
            assert men_on_board(state, side) + men_in_hand(state, side) <= pieces
        assert GAME.from_text(GAME.to_text(state)).men == state.men
        assert GAME.to_text(GAME.from_text(GAME.to_text(state))) == GAME.to_text(state)
        if not actions:
            break
        for action in rng.sample(actions, min(4, len(actions))):
            assert GAME.parse(state, GAME.notation(state, action)) == action
        a, b = rng.randrange(24), rng.randrange(24)
        probe = rng.choice([Place(a), Move(a, b), Remove(a)])
        assert GAME.is_legal(state, probe) == (probe in actions)
        action = rng.choice(actions)
        after = GAME.apply(state, action)
        assert after.ply == state.ply + 1
        assert GAME.turns(after) == GAME.turns(state) + (not isinstance(action, Remove))
        if isinstance(action, Remove):
            assert after.to_move == 1 - state.to_move and not after.pending
            assert (
                men_on_board(after, 1 - state.to_move) == men_on_board(state, 1 - state.to_move) - 1
            )
        else:
            assert after.to_move == (state.to_move if after.pending else 1 - state.to_move)
        if after.pending and GAME.legal(after):
            take = rng.choice(GAME.legal(after))
            combined = dataclasses.replace(action, remove=take.point)
            assert GAME.apply(state, combined) == GAME.apply(after, take)
            assert GAME.turns(GAME.apply(state, combined)) == GAME.turns(state) + 1
            assert GAME.parse(state, GAME.notation(state, combined)) == combined
        state = after


def test_a_position_that_stands_for_the_second_time_is_told() -> None:
    """``Effect.repeated``: the referee warns before a third occurrence draws unannounced."""
    effects, state = effects_of(GAME, pos(**MOVING), SHUFFLE * 2)
    told = [e.repeated for e in effects]
    assert told == [False] * 3 + [True] * 4 + [False]  # the last one draws: no warning
    assert GAME.result(state) is not None
    effects, _ = effects_of(GAME, pos(**MOVING, repetition=False), SHUFFLE * 2)
    assert not any(e.repeated for e in effects)  # no repetition draw: nothing to warn of
