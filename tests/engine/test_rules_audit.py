"""A second referee's audit of the three rules files: the sentences the game tests left weak.

Each test quotes the sentence of /work/shared/rules/<game>.md it checks and plays it on a
concrete position. The last part cross-checks the Abalone and Morris move generators against
small naive generators written here from the rules text alone (not from the engines).
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, ParseError, Termination
from engine.abalone import GAME as ABALONE
from engine.abalone import AbaloneState, Push, marbles_off
from engine.abalone.board import CELL_INDEX
from engine.atmalof import GAME as ATMALOF
from engine.atmalof import AtmalofState, Drop, fours
from engine.morris import GAME as MORRIS
from engine.morris import MorrisState, Move, Place, Remove, can_fly, layout

# ---- Atmalof ------------------------------------------------------------------------------------


def atmalof(
    picture: str, turn: str = "red", variant: str = "custom", **options: object
) -> AtmalofState:
    """A position from rows top to bottom (R Red, B Blue, . empty); hands = pieces - on board."""
    rows = [line.strip() for line in picture.strip().splitlines()]
    pieces = ATMALOF.new(variant, **options).pieces
    text = "".join(rows)
    opts = " ".join(f"{k}={v}" for k, v in options.items())
    return ATMALOF.from_text(
        f"{variant} {opts} board={'/'.join(rows)} "
        f"hands={pieces - text.count('R')},{pieces - text.count('B')} turn={turn} ply=30"
    )


def drop(state: AtmalofState, text: str, roll: int) -> AtmalofState:
    return ATMALOF.apply(state, ATMALOF.parse(state, text), roll=roll)


@pytest.mark.parametrize("gap", [".", "B"])
def test_atmalof_two_fours_in_one_row_count_separately(gap: str) -> None:
    """'maximal runs of exactly four consecutive pieces': RRRR.RRRR (or RRRRBRRRR) is two."""
    state = atmalof(f"RRR.{gap}RRRR\n" + "\n".join(["........."] * 6), cols=9, pieces=8, turn="red")
    assert state.hands[0] == 1 and ATMALOF.result(state) is None
    after = drop(state, "drop row 1", 4)
    outcome = ATMALOF.result(after)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert outcome.winner == 0 and outcome.reason.startswith(
        "the tie-break count of lines of four: Red 2, Blue 0"
    )


def test_atmalof_four_directions_through_one_piece_count_four() -> None:
    """'A piece may belong to several fours in different directions': one per direction."""
    star = atmalof("R..R..R\n.R.R.R.\n..RRR..\nRRR....\n.......\n.......\n.......", pieces=13)
    after = drop(star, "drop row 4", 4)  # the shared piece, on (4,4)
    assert sorted(fours(after, 0)) == sorted(
        [
            ((4, 1), (4, 2), (4, 3), (4, 4)),
            ((1, 4), (2, 4), (3, 4), (4, 4)),
            ((1, 1), (2, 2), (3, 3), (4, 4)),
            ((1, 7), (2, 6), (3, 5), (4, 4)),
        ]
    )
    outcome = ATMALOF.result(after)
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason == "the tie-break count of lines of four: Red 4, Blue 0"


def test_atmalof_tiebreak_counts_runs_of_exactly_line_minus_one() -> None:
    """'tie-break counts runs of L-1': with L=6 a run of five counts and a run of four does not."""
    state = atmalof(
        "RRRRR..\n.......\nRRR....\n.......\nBBBB...\n.......\n.......", line=6, pieces=9
    )
    after = drop(state, "drop row 3", 4)  # Red's four on row 3: not a run of L-1
    assert after.hands[0] == 0
    assert [len(run) for run in fours(after, 0)] == [5]
    assert fours(after, 1) == []
    outcome = ATMALOF.result(after)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert (
        outcome.reason == "the tie-break count of lines of five: Red 1, Blue 0"
        and outcome.winner == 0
    )


def test_atmalof_a_four_filling_a_short_corner_diagonal_counts() -> None:
    """'either diagonal': a diagonal of only four squares, filled, is a maximal run of four."""
    state = atmalof("...R...\n..R....\n.R.....\nR......\n.......\n.......\n.......", pieces=5)
    assert fours(state, 0) == [((1, 4), (2, 3), (3, 2), (4, 1))]


def test_atmalof_a_run_of_four_inside_a_longer_run_is_not_a_four() -> None:
    """'maximal runs of exactly four': a six contains fours but is not one (and wins)."""
    state = atmalof("RRRRRR.\n.......\n.......\n.......\n.......\n.......\n.......", pieces=6)
    assert fours(state, 0) == []
    assert ATMALOF.result(state).termination is Termination.LINE  # type: ignore[union-attr]


def test_atmalof_drops_into_lines_beyond_the_dice_land_in_reach() -> None:
    """'Announcing a row rolls a die with C-X faces; announcing a column one with R-Y faces.'"""
    state = ATMALOF.new("custom", rows=8, cols=6, beyond_rows=2, beyond_cols=1, pieces=10)
    assert ATMALOF.die_faces(state, Drop("row", 8)) == 5
    assert ATMALOF.die_faces(state, Drop("col", 6)) == 6
    assert drop(state, "drop row 8", 5).at((8, 5)) == 0  # a beyond row: the die picks a column
    assert drop(state, "drop col 6", 6).at((6, 6)) == 0  # a beyond column: rows 1..6 only
    with pytest.raises(IllegalAction, match="not a roll of a 5-sided die"):
        ATMALOF.apply(state, Drop("row", 8), roll=6)
    with pytest.raises(IllegalAction, match="not a roll of a 6-sided die"):
        ATMALOF.apply(state, Drop("col", 6), roll=7)
    assert not state.reachable((7, 6)) and not state.reachable((8, 6))
    assert state.reachable((8, 5)) and state.reachable((6, 6))


def test_atmalof_either_trigger_also_fires_for_blue() -> None:
    """'The game stops as soon as a player has all 22 pieces on the board (default: EITHER)'."""
    state = atmalof("B.B.B.B\n" + "\n".join(["......."] * 6), turn="blue", pieces=5)
    after = drop(state, "drop row 5", 1)
    assert after.hands == (5, 0)
    assert ATMALOF.result(after).termination is Termination.TIEBREAK  # type: ignore[union-attr]
    assert ATMALOF.legal(after) == []


def test_atmalof_both_trigger_keeps_playing_after_a_lost_last_drop() -> None:
    """'the Esperanto text says when BOTH have': an occupied landing keeps the piece in hand."""
    picture = "R.R.R.R\n.......\nB.B.B.B\n.......\n.......\n.......\n......."
    state = atmalof(picture, turn="blue", pieces=5, tiebreak="both")
    state = drop(state, "drop row 5", 5)  # Blue's last piece lands on (5,5)
    assert state.hands == (1, 0) and ATMALOF.result(state) is None
    state = drop(state, "drop row 1", 1)  # Red's last drop hits (1,1): occupied, turn lost
    assert state.hands == (1, 0) and ATMALOF.result(state) is None and state.to_move == 1
    state = ATMALOF.apply(state, ATMALOF.parse(state, "move 5,5 n"))
    state = drop(state, "drop row 6", 2)
    outcome = ATMALOF.result(state)
    assert state.hands == (0, 0)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK


# ---- Morris -------------------------------------------------------------------------------------

BOARD = layout("standard")


def morris(
    white: str,
    black: str,
    turn: str = "w",
    hand: tuple[int, int] = (0, 0),
    pending: bool = False,
    quiet: int = 0,
    **options: object,
) -> MorrisState:
    cells = ["."] * 24
    for colour, names in (("W", white), ("B", black)):
        for name in names.split():
            cells[BOARD.point(name)] = colour
    words = [
        "standard",
        f"board={''.join(cells)}",
        f"hand={hand[0]},{hand[1]}",
        f"turn={turn}",
        "ply=40",
        f"quiet={quiet}",
    ]
    words += ["pending"] if pending else []
    words += [
        f"{k}={'on' if v is True else 'off' if v is False else v}" for k, v in options.items()
    ]
    return MORRIS.from_text(" ".join(words))


def run(state: MorrisState, *commands: str) -> MorrisState:
    for command in commands:
        state = MORRIS.apply(state, MORRIS.parse(state, command))
    return state


def names(points: object) -> set[str]:
    return {BOARD.points[p] for p in points}  # type: ignore[attr-defined]


def test_morris_only_the_man_outside_a_mill_may_be_removed() -> None:
    """'A piece standing in a mill may not be removed, unless every opponent piece is in a mill.'"""
    state = morris("d6 f6 g1", "a7 d7 g7 a1", pending=True)  # Black: a mill on row 7, and a1
    assert [a for a in MORRIS.legal(state)] == [Remove(BOARD.point("a1"))]
    with pytest.raises(IllegalAction, match="d7 stands in a mill"):
        MORRIS.parse(state, "remove d7")
    closing = morris("b6 f6 g1", "a7 d7 g7 a1", hand=(1, 1))
    with pytest.raises(IllegalAction, match="g7 stands in a mill"):
        MORRIS.parse(closing, "place d6 x g7")
    assert MORRIS.is_legal(closing, MORRIS.parse(closing, "place d6 x a1"))


def test_morris_every_man_in_mills_makes_each_one_removable() -> None:
    """'... unless every opponent piece is in a mill': then any of them may go."""
    state = morris("b6 f6 g1 b2", "a7 d7 g7 a4 a1", hand=(1, 1))
    after = run(state, "place d6")
    removals = MORRIS.legal(after)
    assert all(isinstance(a, Remove) for a in removals)
    assert names(a.point for a in removals) == {"a7", "d7", "g7", "a4", "a1"}  # type: ignore[union-attr]
    combined = MORRIS.parse(state, "place d6 x d7")
    assert MORRIS.apply(state, combined) == run(state, "place d6", "remove d7")


def test_morris_a_pending_removal_blocks_every_other_action() -> None:
    """'The removal is part of the same turn: the referee must ask for it ... before the turn
    passes.'"""
    pending = run(morris("b6 f6 d5 g1", "c5 e5 a1 c3"), "move d5 d6")  # a mill, not yet paid
    assert pending.pending and pending.to_move == 0
    assert all(isinstance(a, Remove) for a in MORRIS.legal(pending)) and MORRIS.legal(pending)
    for command in ("move g1 g4", "move g1 g4 x c5", "place d7", "fly g1 g7"):
        with pytest.raises(IllegalAction, match="must first remove a Black man"):
            MORRIS.parse(pending, command)
    assert not MORRIS.is_legal(pending, Move(BOARD.point("g1"), BOARD.point("g4")))


def test_morris_flying_is_for_exactly_three_men_per_side() -> None:
    """'Flying: a player with exactly three pieces left may move a piece to ANY empty point.'"""
    state = morris("a7 d7 g1", "b6 f6 b2 f2")
    assert can_fly(state, 0) and not can_fly(state, 1)
    assert MORRIS.parse(state, "fly g1 d5") == Move(BOARD.point("g1"), BOARD.point("d5"))
    black = run(state, "fly g1 d5")
    with pytest.raises(IllegalAction, match="only a side with exactly three men may fly"):
        MORRIS.parse(black, "move b6 c5")
    with pytest.raises(IllegalAction, match="has 4 men and cannot fly"):
        MORRIS.parse(black, "fly b6 d6")
    placing = morris("a7 d7 g1", "b6 f6 b2", hand=(1, 1))  # three on the board, one in hand
    assert not can_fly(placing, 0)
    with pytest.raises(IllegalAction, match="still has 1 man to place"):
        MORRIS.parse(placing, "move g1 d5")


def test_morris_a_removal_down_to_three_lets_that_side_fly_next() -> None:
    """'Flying: a player with exactly three pieces left' (three reached by a removal)."""
    state = run(morris("a7 d7 a4", "b6 f6 b2 f2 c4"), "move a4 g7", "remove c4")
    assert MORRIS.result(state) is None and state.to_move == 1
    assert not can_fly(state, 1)  # four men: Black still walks
    state = run(morris("a7 d7 a4", "b6 f6 b2 c4"), "move a4 g7", "remove c4")
    assert can_fly(state, 1)
    assert Move(BOARD.point("b6"), BOARD.point("g1")) in MORRIS.legal(state)


def test_morris_down_to_two_men_after_a_removal_loses_at_once() -> None:
    """'A player reduced to two pieces loses' (board plus hand: with none in hand)."""
    state = run(morris("a7 d7 a4", "b6 f6 b2"), "move a4 g7", "remove b2")
    outcome = MORRIS.result(state)
    assert outcome is not None and outcome.termination is Termination.TWO_PIECES
    assert outcome.winner == 0 and MORRIS.legal(state) == []
    two_and_one = morris("a7 d7 g7", "b6 f6", turn="b", hand=(0, 1))
    assert MORRIS.result(two_and_one) is None  # two on the board and one in hand are three


def test_morris_blocked_men_lose_only_in_the_moving_phase() -> None:
    """'A player who is to move in phase 2 and has no legal move (every piece blocked) loses.'"""
    # Black's four corner men are hemmed in, but Black still has a man to place.
    placing = morris("d7 a4 g4 d1 d6", "a7 g7 a1 g1", turn="b", hand=(1, 2))
    assert MORRIS.result(placing) is None
    assert all(isinstance(a, Place) for a in MORRIS.legal(placing)) and MORRIS.legal(placing)
    moving = morris("d7 a4 g4 d1 d6", "a7 g7 a1 g1", turn="b")
    assert MORRIS.result(moving).termination is Termination.BLOCKED  # type: ignore[union-attr]


# White flies its third man b6 -> d5 -> f2 -> b6 (a cycle of three moves) while Black steps
# g4 <-> f4 (a cycle of two): the board after Black's first move is back after plies 8 and 13,
# but with White to move at ply 8. Every (board, side) pair recurs only every 12 plies.
WHITE_CYCLE = ("fly b6 d5", "fly d5 f2", "fly f2 b6")
BLACK_CYCLE = ("move g4 f4", "move f4 g4")


def test_morris_repetition_counts_only_the_same_side_to_move() -> None:
    """'a draw when the same position with the same player to move occurs for the third time'."""
    state = morris("a7 g1 b6", "c3 e3 g4")
    seen = [(state.men, state.to_move)]
    for ply in range(24):
        assert MORRIS.result(state) is None, ply
        cycle = WHITE_CYCLE if ply % 2 == 0 else BLACK_CYCLE
        state = run(state, cycle[(ply // 2) % len(cycle)])
        seen.append((state.men, state.to_move))
    # After ply 13 that board had stood three times (Black, White, Black to move): no draw.
    assert seen[1][0] == seen[8][0] == seen[13][0]
    assert [seen[i][1] for i in (1, 8, 13)] == [1, 0, 1]
    # The start position with White to move, for the third time at ply 24: a draw.
    assert seen[0] == seen[12] == seen[24]
    outcome = MORRIS.result(state)
    assert outcome is not None and outcome.termination is Termination.REPETITION


def test_morris_fifty_moves_by_each_side_without_a_removal_draw() -> None:
    """'a draw after 50 moves in a row by each side in phase 2 with no removal'."""
    state = morris("a7 b2 e3 g4 c4", "c5 f6 d2 a1", turn="w", hand=(1, 1), repetition=False)
    state = run(state, "place d3", "place g7")  # placements are not moves: the count starts here
    assert state.quiet == 0
    shuffle = ("move a7 d7", "move c5 d5", "move d7 a7", "move d5 c5")
    for ply in range(99):
        state = run(state, shuffle[ply % 4])
        assert MORRIS.result(state) is None, ply
    state = run(state, shuffle[99 % 4])
    outcome = MORRIS.result(state)
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT
    assert outcome.winner is None and MORRIS.legal(state) == []
    short = run(morris("a7 b2 e3 g4", "c5 f6 d2 a1", move_limit=2, repetition=False), *shuffle[:3])
    assert MORRIS.result(short) is None  # two moves by White, one by Black
    assert MORRIS.result(run(short, shuffle[3])).termination is Termination.MOVE_LIMIT  # type: ignore[union-attr]


def test_morris_blocking_the_opponent_on_the_limit_move_still_wins() -> None:
    """'A player who is to move in phase 2 and has no legal move loses' outranks the referee's
    move-limit draw when the hundredth move is the one that blocks."""
    state = morris("d7 a4 g4 d1 d5", "a7 g7 a1 g1", quiet=99)
    after = run(state, "move d5 d6")
    assert after.quiet == 100
    outcome = MORRIS.result(after)
    assert outcome is not None and outcome.termination is Termination.BLOCKED
    assert outcome.winner == 0


# ---- Abalone ------------------------------------------------------------------------------------


def hex_distance(a: str, b: str) -> int:
    (ra, na), (rb, nb) = (("abcdefghi".index(c[0]), int(c[1])) for c in (a, b))
    dr, dn = ra - rb, na - nb
    return max(abs(dr), abs(dn), abs(dr - dn))


ALL_CELLS = sorted(CELL_INDEX, key=CELL_INDEX.__getitem__)


def abalone(black: str, white: str, to_move: int = 0, **options: object) -> AbaloneState:
    """The named marbles, each side padded to 14 with marbles at least 3 cells from them."""
    board = bytearray(61)
    named = black.split() + white.split()
    far = [c for c in ALL_CELLS if all(hex_distance(c, n) >= 3 for n in named)]
    for side, cells in enumerate((black.split(), white.split())):
        for cell in cells:
            board[CELL_INDEX[cell]] = side + 1
        for _ in range(14 - len(cells)):
            board[CELL_INDEX[far.pop()]] = side + 1
    base = ABALONE.new("standard", **options)
    return AbaloneState("standard", bytes(board), to_move, 10, base.repetition, base.move_limit)


def cells_of(state: AbaloneState, cells: str) -> str:
    return "".join(".bw"[state.board[CELL_INDEX[c]]] for c in cells.split())


@pytest.mark.parametrize(
    ("back", "front", "target", "direction"),
    [
        ("e7", "e8", "e9", "e"),
        ("e3", "e2", "e1", "w"),
        ("g5", "h6", "i7", "ne"),
        ("c5", "b4", "a3", "sw"),
        ("d2", "e2", "f2", "nw"),
        ("c3", "b3", "a3", "se"),
    ],
)
def test_abalone_pushing_off_works_across_every_edge(
    back: str, front: str, target: str, direction: str
) -> None:
    """'a marble pushed off the board is out of the game', in each of the six directions."""
    state = abalone(f"{back} {front}", target)
    after = ABALONE.apply(state, ABALONE.parse(state, f"push {back} {front} {direction}"))
    assert cells_of(after, f"{back} {front} {target}") == ".bb"
    assert marbles_off(after, 1) == 1 and marbles_off(after, 0) == 0
    # The same step with the roles swapped: your own marble may not go off.
    with pytest.raises(IllegalAction, match="your own marble would leave the board"):
        ABALONE.parse(abalone(f"{back} {front} {target}", ""), f"push {front} {target} {direction}")


def test_abalone_four_behind_two_pushes_as_three() -> None:
    """'Four or more own marbles behind count as three': 4 v 2 is 3 v 2, a push."""
    state = abalone("d1 d2 d3 d4", "d5 d6")
    after = ABALONE.apply(state, ABALONE.parse(state, "push d2 d4 e"))
    assert cells_of(after, "d1 d2 d3 d4 d5 d6 d7") == "b.bbbww"
    with pytest.raises(IllegalAction, match="line of four"):
        ABALONE.parse(state, "d1d2")


def test_abalone_three_push_two_is_stopped_by_any_marble_behind() -> None:
    """'the cell behind the opponent's line holds any marble (yours or theirs, "sandwiched")'."""
    with pytest.raises(IllegalAction, match="d6 is occupied"):
        ABALONE.parse(abalone("d1 d2 d3 d6", "d4 d5"), "push d1 d3 e")
    with pytest.raises(IllegalAction, match="3 against 3"):  # their own marble behind: 3 v 3
        ABALONE.parse(abalone("d1 d2 d3", "d4 d5 d6"), "push d1 d3 e")
    with pytest.raises(IllegalAction, match="d4 is occupied"):  # 2 v 1 with yours behind
        ABALONE.parse(abalone("d1 d2 d4", "d3"), "push d1 d2 e")
    assert ABALONE.is_legal(abalone("d1 d2 d3", "d4 d5"), Push(("d1", "d2", "d3"), "e"))


def test_abalone_three_marble_broadside_needs_all_three_cells() -> None:
    """'Broadside ... every destination cell must be empty': the middle one too."""
    assert ABALONE.parse(abalone("c3 c4 c5", ""), "push c3 c5 ne") == Push(("c3", "c4", "c5"), "ne")
    with pytest.raises(IllegalAction, match="d5 is occupied"):
        ABALONE.parse(abalone("c3 c4 c5", "d5"), "push c3 c5 ne")
    with pytest.raises(IllegalAction, match="would leave the board"):
        ABALONE.parse(abalone("a1 b2 c3", ""), "push a1 c3 se")  # only a1 would leave
    with pytest.raises(IllegalAction, match="would leave the board"):
        ABALONE.parse(abalone("a1 a2 a3", ""), "push a1 a3 se")


def test_abalone_aba_pro_forms_and_their_ambiguities() -> None:
    """'Accept also the common in-line notation of Aba-Pro: trailing marble then its destination
    (a1b2), and for a broadside the two end marbles then the destination of the first.'"""
    state = abalone("c1 c2 c3 e5", "c4")
    three = Push(("c1", "c2", "c3"), "e")
    assert ABALONE.parse(state, "c1c2") == three  # the whole run of own marbles moves
    with pytest.raises(ParseError, match="both your marbles: say where the line goes"):
        ABALONE.parse(state, "push c1 c2")  # two own marbles as words: a line, its way forgotten
    assert ABALONE.parse(state, "push e5 e6") == Push(("e5",), "e")  # onto an empty cell
    assert ABALONE.parse(state, "c2c3") == Push(("c2", "c3"), "e")  # the front two only
    assert ABALONE.parse(state, "c1 c3 e") == three  # two ends and a direction: our form
    assert ABALONE.parse(state, "c3c1d3") == Push(("c1", "c2", "c3"), "nw")  # ends, then target
    with pytest.raises(ParseError, match="not neighbours"):
        ABALONE.parse(state, "c1c2c3")  # three cells of a line with no direction
    with pytest.raises(ParseError, match="not neighbours"):
        ABALONE.parse(state, "c1c3")  # Aba-Pro needs the destination next to the marble
    with pytest.raises(IllegalAction, match="there is no marble on d1"):
        ABALONE.parse(state, "d1d2")


def test_abalone_the_sixth_push_off_on_the_limit_ply_wins_by_six() -> None:
    """'The first player to push six opponent marbles off the board wins' (before the limit)."""
    board = bytearray(abalone("e7 e8", "e9").board)
    removed = 0
    for i, v in enumerate(board):
        if v == 2 and removed < 5 and i != CELL_INDEX["e9"]:
            board[i] = 0
            removed += 1
    state = AbaloneState("standard", bytes(board), 0, 199)
    after = ABALONE.apply(state, ABALONE.parse(state, "push e7 e8 e"))
    outcome = ABALONE.result(after)
    assert after.ply == 200
    assert outcome is not None and outcome.termination is Termination.SIX_OFF
    assert outcome.winner == 0


# ---- independent move generators, written from the rules text alone ----------------------------

# Abalone: cells as (row 0..8 for A..I, diagonal 1..9); "E (0,+1), W (0,-1), NE (+1,+1),
# SW (-1,-1), NW (+1,0), SE (-1,0)".
STEP = {"e": (0, 1), "w": (0, -1), "ne": (1, 1), "sw": (-1, -1), "nw": (1, 0), "se": (-1, 0)}
BACK = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
Cell = tuple[int, int]


def on_board(cell: Cell) -> bool:
    row, number = cell
    return 0 <= row <= 8 and max(1, row - 3) <= number <= min(9, row + 5)


HEX = [(r, n) for r in range(9) for n in range(1, 10) if on_board((r, n))]


def step(cell: Cell, direction: str) -> Cell:
    return cell[0] + STEP[direction][0], cell[1] + STEP[direction][1]


def naive_abalone(board: dict[Cell, int], me: int) -> dict[tuple[frozenset[Cell], str], list]:
    """Every move of side ``me``: (marbles, direction) -> [(from, to)] of every marble it moves."""
    moves: dict[tuple[frozenset[Cell], str], list] = {}
    for cell in HEX:
        if board.get(cell) != me:
            continue
        groups = {(cell,)}
        for axis in ("e", "ne", "nw"):
            group = [cell]
            while len(group) < 3 and board.get(step(group[-1], axis)) == me:
                group.append(step(group[-1], axis))
                groups.add(tuple(group))
        for group in groups:
            axis_dirs = (
                set(STEP)
                if len(group) == 1
                else {d for d in STEP if step(group[0], d) == group[1]}
                | {BACK[d] for d in STEP if step(group[0], d) == group[1]}
            )
            for d in STEP:
                key = (frozenset(group), d)
                if d not in axis_dirs:  # broadside: every destination empty and on the board
                    targets = [step(c, d) for c in group]
                    if all(on_board(t) and t not in board for t in targets):
                        moves[key] = [(c, step(c, d)) for c in group]
                    continue
                front = next(c for c in group if step(c, d) not in group)
                ahead = step(front, d)
                if not on_board(ahead):
                    continue  # never your own marble off the board
                if ahead not in board:
                    moves[key] = [(c, step(c, d)) for c in group]
                    continue
                if board[ahead] == me or len(group) == 1:
                    continue
                theirs = [ahead]
                while board.get(step(theirs[-1], d)) == board[ahead]:
                    theirs.append(step(theirs[-1], d))
                behind = step(theirs[-1], d)
                if len(theirs) < len(group) and (not on_board(behind) or behind not in board):
                    moves[key] = [(c, step(c, d)) for c in [*group, *theirs]]
    return moves


def to_bytes(board: dict[Cell, int]) -> bytes:
    raw = bytearray(61)
    for (row, number), side in board.items():
        raw[CELL_INDEX[f"{'abcdefghi'[row]}{number}"]] = side
    return bytes(raw)


def cell_of(name: str) -> Cell:
    return "abcdefghi".index(name[0]), int(name[1])


@pytest.mark.parametrize("seed", range(4))
def test_abalone_legal_agrees_with_a_naive_generator_on_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        black, white = rng.randint(9, 14), rng.randint(9, 14)
        cells = rng.sample(HEX, black + white)
        board = {c: 1 for c in cells[:black]} | {c: 2 for c in cells[black:]}
        state = AbaloneState("standard", to_bytes(board), rng.randint(0, 1), 0)
        expected = naive_abalone(board, state.to_move + 1)
        got = {(frozenset(map(cell_of, a.cells)), a.direction): a for a in ABALONE.legal(state)}
        assert set(got) == set(expected), ABALONE.to_text(state)
        for key, action in got.items():
            after = dict(board)
            pairs = expected[key]
            sides = [board[c] for c, _ in pairs]
            for c, _ in pairs:
                del after[c]
            after |= {t: s for (_, t), s in zip(pairs, sides, strict=True) if on_board(t)}
            assert ABALONE.apply(state, action).board == to_bytes(after), (key, action)


# Morris: the adjacency and mills exactly as the rules file spells them, in the seed's letters.
RULE_LINES = (
    "A-B, B-C, C-O, O-X, X-W, W-V, V-J, J-A; D-E, E-F, F-N, N-U, U-T, T-S, S-K, K-D; G-H, H-I, "
    "I-M, M-R, R-Q, Q-P, P-L, L-G; B-E, E-H, J-K, K-L, M-N, N-O, Q-T, T-W"
)
RULE_MILLS = (
    "A-B-C, D-E-F, G-H-I, J-K-L, M-N-O, P-Q-R, S-T-U, V-W-X, A-J-V, D-K-S, G-L-P, B-E-H, Q-T-W, "
    "I-M-R, F-N-U, C-O-X"
)
DIAGONAL_LINES = "A-D, D-G, C-F, F-I, V-S, S-P, X-U, U-R"  # Twelve: "adds the four diagonals"
DIAGONAL_MILLS = "A-D-G, C-F-I, P-S-V, R-U-X"
SIX_POINTS = set("ABCDEFJKNOSTUVWX")  # Six: "two squares, 16 points, 6 pieces, no flying"


class RuleBoard:
    """A Morris board as the rules text describes it: points, lines, mills, men, flying."""

    def __init__(self, variant: str) -> None:
        lines, mills = RULE_LINES.replace(";", ","), RULE_MILLS
        if variant == "twelve":
            lines, mills = f"{lines}, {DIAGONAL_LINES}", f"{mills}, {DIAGONAL_MILLS}"
        self.points = SIX_POINTS if variant == "six" else set("ABCDEFGHIJKLMNOPQRSTUVWX")
        self.pieces = {"standard": 9, "six": 6, "twelve": 12}[variant]
        self.flying = variant != "six"
        self.neighbours: dict[str, set[str]] = {p: set() for p in self.points}
        for pair in lines.split(","):
            a, b = pair.strip().split("-")
            if a in self.points and b in self.points:
                self.neighbours[a].add(b)
                self.neighbours[b].add(a)
        self.mills = [set(m.strip().split("-")) for m in mills.split(",")]
        self.mills = [m for m in self.mills if m <= self.points]
        if variant == "six":  # the half-rows J-K and N-O lose their inner point
            self.mills = [m for m in self.mills if m not in ({"J", "K", "L"}, {"M", "N", "O"})]


def naive_morris(
    rules: RuleBoard, board: dict[str, str], hand: tuple[int, int], me: str, pending: bool
) -> set[tuple[str, ...]]:
    """The legal actions from the rules: removals when owed, else placing, flying or stepping."""
    side = "WB".index(me)
    mine = {p for p, v in board.items() if v == me}
    theirs = set(board) - mine
    if len(mine) + hand[side] < 3 or len(theirs) + hand[1 - side] < 3:
        return set()  # "A player reduced to two pieces loses"
    if pending:
        in_mill = {p for m in rules.mills if m <= theirs for p in m}
        return {("remove", p) for p in (theirs - in_mill or theirs)}
    empty = rules.points - set(board)
    if not empty and not any(hand):
        return set()  # Twelve: "a full board after placement is a draw"
    if hand[side]:
        return {("place", p) for p in empty}
    if rules.flying and len(mine) == 3:
        return {("move", s, d) for s in mine for d in empty}
    return {("move", s, d) for s in mine for d in rules.neighbours[s] & empty}


def letter_key(letters: tuple[str, ...], action: object) -> tuple[str, ...]:
    if isinstance(action, Remove):
        return ("remove", letters[action.point])
    if isinstance(action, Place):
        return ("place", letters[action.point])
    assert isinstance(action, Move)
    return ("move", letters[action.src], letters[action.dst])


@pytest.mark.parametrize(
    ("variant", "seed"), [(v, s) for v in ("standard", "six", "twelve") for s in range(2)]
)
def test_morris_legal_agrees_with_a_naive_generator_on_random_positions(
    variant: str, seed: int
) -> None:
    rules = RuleBoard(variant)
    letters = layout(variant).letters
    assert set(letters) == rules.points
    rng = random.Random(seed)
    for _ in range(300):
        to_move = rng.randint(0, 1)
        placed = rng.choice([0, 0, 0, *range(1, rules.pieces + 1)])  # hands as real play leaves
        hand = (0, 0) if not placed else (placed, placed) if to_move == 0 else (placed - 1, placed)
        white = rng.randint(0, rules.pieces - hand[0])
        black = rng.randint(0, min(rules.pieces - hand[1], len(letters) - white))
        points = rng.sample(letters, white + black)
        board = {p: "W" for p in points[:white]} | {p: "B" for p in points[white:]}
        pending = rng.random() < 0.25 and (black, white)[to_move] > 0
        pending = pending and min(white + hand[0], black + hand[1]) >= 3
        cells = "".join(board.get(p, ".") for p in letters)
        state = MORRIS.from_text(
            f"{variant} board={cells} hand={hand[0]},{hand[1]} turn={'wb'[to_move]} ply=0"
            + (" pending" if pending else "")
        )
        me = "WB"[to_move]
        expected = naive_morris(rules, board, hand, me, pending)
        got = {letter_key(letters, a): a for a in MORRIS.legal(state)}
        assert set(got) == expected, MORRIS.to_text(state)
        assert (MORRIS.result(state) is None) == bool(expected), MORRIS.to_text(state)
        for key, action in got.items():
            after = MORRIS.apply(state, action)
            if key[0] == "remove":
                assert not after.pending and after.to_move == 1 - to_move
                continue
            new = {p: v for p, v in board.items() if key[0] != "move" or p != key[1]}
            new[key[-1]] = me
            mill = any(key[-1] in m and all(new.get(p) == me for p in m) for m in rules.mills)
            owed = mill and any(v != me for v in new.values())
            assert after.pending == owed, (MORRIS.to_text(state), key)
            assert after.to_move == (to_move if owed else 1 - to_move)
