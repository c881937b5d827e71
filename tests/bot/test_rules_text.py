"""Each sentence of the ``/rules`` summaries (bot/rules_text.py) against what it summarises.

Every sentence of every summary must be claimed below: most are played through the engine or
the referee (a real SQLite file), the words about the board picture are measured on the picture
(``render.layout``); the few that say where a rule comes from quote the seed text instead. A
sentence added to a summary without a claim here fails
``test_every_sentence_of_the_summaries_is_claimed``.

A variant's summary (Six Men's Morris, Atmalos...) has claims of its own for the sentences that
differ from its game's standard summary (its board, its men, its dice), checked in that variant.
A sentence it shares word for word with the standard summary is the standard's claim: those are
the rules the variant does not change (placing, mills, takebacks...), run by the same engine code
whatever the board.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from itertools import pairwise
from pathlib import Path

import pytest

import engine
import render
from bot.clock import ManualClock
from bot.discord_ui.cogs.play import parse_options
from bot.referee import Referee
from bot.referee.replies import Actor, Where
from bot.rules_text import ATMALOF_LICENCE, DESCRIBED, RULES, plain, summary
from bot.store import SqliteStore
from engine import IllegalAction, Termination
from engine.abalone import marbles_off
from engine.abalone.board import CELL_INDEX, CELL_NAMES, CELLS, DIRECTIONS, NEIGHBOURS
from engine.atmalof import Drop, Move, landing
from engine.atmalof.game import fours
from engine.morris import can_fly, layout, mills, pending_removal, removable
from tests.engine.test_abalone import position as abalone_position
from tests.engine.test_abalone import where as abalone_cells
from tests.engine.test_atmalof import drop as atmalof_drop
from tests.engine.test_atmalof import move as atmalof_move
from tests.engine.test_atmalof import position as atmalof_position
from tests.engine.test_morris import FLYING, MOVING, names
from tests.engine.test_morris import play as morris_play
from tests.engine.test_morris import pos as morris_position
from translations import LANGUAGES

ATMALOF = engine.get_game("atmalof")
MORRIS = engine.get_game("morris")
ABALONE = engine.get_game("abalone")
ALICE, BOB = Actor(101, "alice"), Actor(202, "bob")
HERE = Where(guild_id=1, channel_id=10)

Check = Callable[[Path], Awaitable[None]]
SUMMARIES: dict[tuple[str, str], str] = {
    (game, variant): summary(game, "en", variant)[1]
    for game, variants in DESCRIBED.items()
    for variant in variants
}
"""Every summary the referee says, by (game, variant): the standard ones are ``RULES``."""
CLAIMS: dict[tuple[str, str], list[tuple[str, Check | str]]] = {key: [] for key in SUMMARIES}


def claim(game: str, start: str, variant: str = "standard") -> Callable[[Check], Check]:
    """Tie the sentence of ``game``'s summary (for ``variant``) beginning ``start`` to a check."""

    def register(check: Check) -> Check:
        CLAIMS[game, variant].append((start, check))
        return check

    return register


def cites(game: str, start: str, seed: str) -> None:
    """A sentence about where a rule comes from: the seed's own words it rests on."""
    CLAIMS[game, "standard"].append((start, seed))


def board(red: str = "", blue: str = "", **position: object) -> object:
    """An Atmalof position (7 × 7 unless options say otherwise) with pieces at "r,c r,c"."""
    cells = [["."] * 7 for _ in range(7)]
    for mark, squares in (("R", red), ("B", blue)):
        for square in squares.split():
            r, c = map(int, square.split(","))
            cells[r - 1][c - 1] = mark
    return atmalof_position("\n".join("".join(row) for row in cells), **position)


def sentences(text: str) -> list[str]:
    """The summary's sentences as a player reads them (plain text, bullets dropped)."""
    found = []
    for line in plain(text).splitlines():
        for part in re.split(r"(?<=[.!?])\s+(?=[A-Z])", line.strip().removeprefix("• ")):
            if part.strip():
                found.append(part.strip())
    return found


async def referee_game(tmp_path: Path, game: str, **challenge: object) -> Referee:
    store = await SqliteStore.open(str(tmp_path / "rules.db"))
    referee = Referee(store, ManualClock(), render=False)
    await referee.challenge(HERE, ALICE, game, opponent=BOB, **challenge)  # type: ignore[arg-type]
    assert (await referee.accept(HERE, BOB)).ok
    return referee


# --- Atmalof ------------------------------------------------------------------------------------


@claim("atmalof", "A 7 × 7 board, Red and Blue with 22 pieces each")
async def _(tmp_path: Path) -> None:
    state = ATMALOF.new("standard")
    assert (state.rows, state.cols, state.hands) == (7, 7, (22, 22))
    assert ATMALOF.side_names == ("Red", "Blue") and state.on_board(0) == state.on_board(1) == 0


@claim("atmalof", "A square is named by its row, then its column: (4,2) is row 4, column 2")
async def _(tmp_path: Path) -> None:
    start = ATMALOF.new()
    assert landing(start, ATMALOF.parse(start, "drop row 4"), 2) == (4, 2)
    assert atmalof_move(board("3,4"), "move 3,4 4,5").at((4, 5)) == 0
    centres = render.layout("atmalof", start).centres  # rows from the top, columns from the left
    assert min(centres, key=lambda square: centres[square][1])[0] == 1
    assert min(centres, key=lambda square: centres[square][0])[1] == 1
    assert centres[(4, 2)][1] > centres[(1, 2)][1] and centres[(4, 2)][0] < centres[(4, 5)][0]
    # The referee's result line names the square the same way: row first.
    referee = await referee_game(tmp_path, "atmalof", starter="me")
    await referee.act(HERE, ALICE, "drop row 4")
    rolled = await referee.roll_pending(HERE)
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None
    (square,) = [sq for sq, side in ATMALOF.from_text(g.position).cells() if side == 0]
    assert square[0] == 4 and f"({square[0]},{square[1]})" in rolled.text, rolled.text
    await referee.store.close()


@claim("atmalof", "On your turn do one of two things")
async def _(tmp_path: Path) -> None:
    assert {type(a) for a in ATMALOF.legal(board("4,4"))} == {Drop, Move}


@claim("atmalof", "Drop: first announce a row or a column")
async def _(tmp_path: Path) -> None:
    start = ATMALOF.new()
    assert ATMALOF.die_faces(start, ATMALOF.parse(start, "drop row 4")) == 6
    assert atmalof_drop(start, "drop row 4", 5).at((4, 5)) == 0
    assert atmalof_drop(start, "drop col 4", 5).at((5, 4)) == 0
    referee = await referee_game(tmp_path, "atmalof", starter="me")
    announced = await referee.act(HERE, ALICE, "drop row 4")
    assert announced.pending_roll and "Rolling the die" in announced.text  # first announced
    assert "rolls" in (await referee.roll_pending(HERE)).text  # then rolled, in public
    await referee.store.close()


@claim("atmalof", "After a row the die picks the column, after a column the row")
async def _(tmp_path: Path) -> None:
    start = ATMALOF.new()
    assert landing(start, ATMALOF.parse(start, "drop row 4"), 2) == (4, 2)
    assert landing(start, ATMALOF.parse(start, "drop col 4"), 2) == (2, 4)
    assert atmalof_drop(start, "drop row 4", 2).at((4, 2)) == 0  # the piece lands there


@claim("atmalof", "If the square is taken, nothing is placed: the piece stays in your hand and")
async def _(tmp_path: Path) -> None:
    state = board(blue="4,3")
    after = atmalof_drop(state, "drop row 4", 3)
    assert after.to_move == 1 and after.hands == state.hands and after.at((4, 3)) == 1
    assert [sq for sq, side in after.cells() if side is not None] == [(4, 3)]  # nothing placed


@claim("atmalof", "The die rolls 1 to 6, so it never picks column 7 of a row or row 7 of a column")
async def _(tmp_path: Path) -> None:
    start = ATMALOF.new()
    assert {ATMALOF.die_faces(start, drop) for drop in ATMALOF.legal(start)} == {6}
    rows, cols = ATMALOF.parse(start, "drop row 4"), ATMALOF.parse(start, "drop col 4")
    assert all(
        landing(start, rows, d)[1] != 7 and landing(start, cols, d)[0] != 7 for d in range(1, 7)
    )
    assert landing(start, ATMALOF.parse(start, "drop column 7"), 2) == (
        2,
        7,
    )  # "after /drop column 7"
    for line in ("row", "col"):
        announcement = ATMALOF.parse(start, f"drop {line} 7")
        assert announcement in ATMALOF.legal(start)
        assert ATMALOF.die_faces(start, announcement) == 6
        squares = {landing(start, announcement, roll) for roll in range(1, 7)}
        expected = {(7, d) for d in range(1, 7)} if line == "row" else {(d, 7) for d in range(1, 7)}
        assert squares == expected
    # Played through the referee: alice drops into row 7 and her piece stands there.
    referee = await referee_game(tmp_path, "atmalof", starter="me")
    await referee.act(HERE, ALICE, "drop row 7")
    rolled = await referee.roll_pending(HERE)
    assert rolled.ok and "row 7" in rolled.text
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None
    state = ATMALOF.from_text(g.position)
    assert next(square for square, side in state.cells() if side == 0)[0] == 7
    await referee.store.close()


@claim("atmalof", "Only the corner square (7,7) is out of the die's reach")
async def _(tmp_path: Path) -> None:
    start = ATMALOF.new()
    unreachable = [square for square, _ in start.cells() if not start.reachable(square)]
    assert unreachable == [(7, 7)]
    beside = board("6,7")
    assert atmalof_move(beside, "move 6,7 7,7").at((7, 7)) == 0


@claim("atmalof", "On the board picture row 7 and column 7 are shaded")
async def _(tmp_path: Path) -> None:
    start = ATMALOF.new()
    lay = render.layout("atmalof", start)
    for theme in render.THEME_NAMES:
        img = render.board_image("atmalof", start, theme=theme)
        seen = {square: img.getpixel(tuple(map(round, xy))) for square, xy in lay.centres.items()}
        square, shade, corner = seen[(3, 3)], seen[(7, 3)], seen[(7, 7)]
        assert len({square, shade, corner}) == 3, theme  # three shades, told apart
        for r, c in lay.centres:
            both = seen[(r, c)] == (square if max(r, c) < 7 else shade if min(r, c) < 7 else corner)
            assert both, (theme, r, c)


@claim("atmalof", "Move: step one of your pieces to a neighbouring empty square")
async def _(tmp_path: Path) -> None:
    free = [a for a in ATMALOF.legal(board("4,4")) if isinstance(a, Move)]
    assert len(free) == 8 and all(max(map(abs, _delta(a))) == 1 for a in free)
    assert atmalof_move(board("3,4"), "move 3,4 4,5").at((4, 5)) == 0
    beside = board("4,4", blue="4,5")
    assert len([a for a in ATMALOF.legal(beside) if isinstance(a, Move)]) == 7
    with pytest.raises(IllegalAction):
        ATMALOF.parse(beside, "move 4,4 4,5")  # no capture


def _delta(move: Move) -> tuple[int, int]:
    return (move.target[0] - move.origin[0], move.target[1] - move.origin[1])


@claim("atmalof", "Whoever gets 5 in a row, in any direction, wins at once")
async def _(tmp_path: Path) -> None:
    diagonal = atmalof_position("R......\n.R.....\n..R....\n...R...\n.......\n.......\n.......")
    outcome = ATMALOF.result(atmalof_drop(diagonal, "drop row 5", 5))
    assert outcome is not None and outcome.winner == 0 and outcome.termination is Termination.LINE


@claim("atmalof", "As soon as a player has every piece on the board")
async def _(tmp_path: Path) -> None:
    five = {"variant": "custom", "pieces": 5}  # the same rule with five pieces a side
    state = board("1,1 1,2 1,3", "3,1 3,2 3,3", **five)
    state = atmalof_drop(state, "drop row 1", 4)  # Red: a four, one piece in hand
    state = atmalof_drop(state, "drop row 6", 1)  # Blue: one in hand
    assert ATMALOF.result(state) is None
    state = atmalof_drop(state, "drop row 6", 6)  # Red's last piece is down: play stops
    outcome = ATMALOF.result(state)
    assert outcome is not None and outcome.termination is Termination.TIEBREAK
    assert outcome.winner == 0  # one four against none: more lines wins
    equal = board("1,1 1,2 1,3", "3,1 3,2 3,3 3,4", **five)
    equal = atmalof_drop(atmalof_drop(equal, "drop row 1", 4), "drop row 6", 1)  # Blue's last
    drawn = ATMALOF.result(equal)
    assert drawn is not None and drawn.termination is Termination.TIEBREAK
    assert drawn.winner is None  # one four each: a draw


@claim("atmalof", "Unless the challenge says who starts, a coin toss decides; rematches alternate")
async def _(tmp_path: Path) -> None:
    for starter, first in (("me", ALICE), ("them", BOB)):  # the challenge says who starts
        chosen = await referee_game(tmp_path / starter, "atmalof", starter=starter)
        g = await chosen.store.active_game(HERE.channel_id)
        assert g is not None and g.toss is None and g.players[0] == first.id, starter
        await chosen.store.close()
    referee = await referee_game(tmp_path, "atmalof")  # starter: random
    first = await referee.store.active_game(HERE.channel_id)
    assert first is not None and first.toss is not None  # the verifiable coin toss
    await referee.resign(HERE, ALICE)
    await referee.rematch(HERE, ALICE)
    assert (await referee.accept(HERE, BOB)).ok
    second = await referee.store.active_game(HERE.channel_id)
    assert second is not None and second.players == (first.players[1], first.players[0])
    await referee.store.close()


@claim("atmalof", "Variants (type the name in brackets): Junior Atmalof (junior), 6 × 6; Atmalos")
async def _(tmp_path: Path) -> None:
    junior, atmalos = ATMALOF.new("junior"), ATMALOF.new("atmalos")
    assert (junior.rows, junior.cols, junior.line) == (6, 6, 5)
    assert (atmalos.rows, atmalos.cols, atmalos.line) == (9, 9, 7)
    assert ATMALOF.new("custom", rows=8, cols=8).rows == 8
    example = ATMALOF.new("custom", rows="8", cols="8", line="5", pieces="30")  # as typed
    assert (example.rows, example.cols, example.line, example.hands) == (8, 8, 5, (30, 30))
    beyond = ATMALOF.new("custom", beyond_rows=2, beyond_cols=0)
    drop = ATMALOF.parse(beyond, "drop col 3")
    assert ATMALOF.die_faces(beyond, drop) == 5  # rows 6 and 7 are beyond the die
    assert ATMALOF.die_faces(beyond, ATMALOF.parse(beyond, "drop row 3")) == 7


@claim("atmalof", "In every variant tiebreak=both plays on until both players have every piece")
async def _(tmp_path: Path) -> None:
    drops = [("row 1", 1), ("row 2", 2), ("row 1", 3), ("row 2", 4), ("row 1", 5), ("row 2", 6),
             ("row 3", 1), ("row 4", 2), ("row 3", 3), ("row 4", 4)]  # fmt: skip
    ends = {}
    for tiebreak in ("either", "both"):
        state = ATMALOF.new("custom", pieces=5, tiebreak=tiebreak)
        for n, (line, roll) in enumerate(drops, 1):
            state = ATMALOF.apply(state, ATMALOF.parse(state, f"drop {line}"), roll)
            if ATMALOF.result(state) is not None:
                ends[tiebreak] = n
                break
    assert ends == {"either": 9, "both": 10}  # Red's fifth piece; then Blue's fifth
    assert ATMALOF.new("junior", tiebreak="both").config.tiebreak == "both"


@claim("atmalof", "The referee's own rules, not the author's")
async def _(tmp_path: Path) -> None:
    options = ATMALOF.options(ATMALOF.new())
    if "repetition" not in options or "move_limit" not in options:
        pytest.skip("the Atmalof draw rules are another branch's engine work; not merged here")
    shuffle = atmalof_position("R......\n.......\n.......\n.......\n.......\n.......\n......B")
    steps = ("move 1,1 1,2", "move 7,7 7,6", "move 1,2 1,1", "move 7,6 7,7") * 2
    for step in steps:
        shuffle = atmalof_move(shuffle, step)
    outcome = ATMALOF.result(shuffle)
    assert outcome is not None and outcome.winner is None  # the third time the start is seen
    assert (options["repetition"], options["move_limit"]) == (True, 50)
    wasted = atmalof_position("R......\n.......\n.......\n.......\n.......\n.......\n......B")
    for _ in range(8):  # both keep announcing a line whose rolled square is taken
        wasted = ATMALOF.apply(wasted, ATMALOF.parse(wasted, "drop row 1"), 1)  # 1,1 is taken
    assert ATMALOF.result(wasted) is None and wasted.quiet == 8
    # "each side plays 50 turns without landing a piece": the 100th such turn draws, a lost
    # drop among them, while a piece that lands starts the count again.
    late = ATMALOF.from_text(ATMALOF.to_text(wasted).replace("quiet=8", "quiet=99"))
    for ending in (atmalof_move(late, "move 1,1 1,2"), atmalof_drop(late, "drop row 1", 1)):
        limit = ATMALOF.result(ending)
        assert limit is not None and limit.termination is Termination.MOVE_LIMIT
        assert limit.winner is None
    landed = atmalof_drop(late, "drop row 1", 3)
    assert ATMALOF.result(landed) is None and landed.quiet == 0
    off = ATMALOF.options(ATMALOF.new("standard", repetition="off", move_limit=0))
    assert (off["repetition"], off["move_limit"]) == (False, 0)
    await _draws_switch_as_typed(tmp_path, "atmalof")


async def _draws_switch_as_typed(tmp_path: Path, game: str) -> None:
    """The summary's option words for the referee's draws, typed into a challenge's options
    (read as Discord reads them), switch each draw off or set another limit."""
    text = RULES[game][1]
    (limit,) = re.findall(r"`move_limit=([1-9]\d*)`", text)
    assert re.findall(r"`(repetition=off)`, `(move_limit=0)`", text) == [
        ("repetition=off", "move_limit=0")
    ]
    referee = await referee_game(
        tmp_path, game, options=parse_options("repetition=off move_limit=0")
    )
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None
    stored = json.loads(g.options)
    assert (stored["repetition"], stored["move_limit"]) == (False, 0)
    await referee.store.close()
    rules_of = engine.get_game(game)
    changed = rules_of.options(rules_of.new(**parse_options(f"move_limit={limit}")))
    assert changed["move_limit"] == int(limit) != rules_of.options(rules_of.new())["move_limit"]


cites(
    "atmalof",
    "The referee's own rules",
    "the author's text has no draw by repetition or by a move limit (seed 001: only a five or "
    "the tie-break ends the game)",
)


@claim("atmalof", "Takebacks: you may take back your last turn only if your opponent agrees")
async def _(tmp_path: Path) -> None:
    await _takeback_needs_consent(tmp_path, "atmalof", ("drop row 4", "drop row 1"))


async def _takeback_needs_consent(tmp_path: Path, game: str, first: tuple[str, ...]) -> None:
    """The consent half of the takeback sentence: after ``first`` (the moves before alice's
    last turn), alice's last move is undone only when bob agrees. The casual-only rule and the
    server switch are another engineer's work (issue 12) and are tested with it."""
    referee = await referee_game(tmp_path, game, starter="me")
    for i, text in enumerate(first):
        assert (await referee.act(HERE, (ALICE, BOB)[i % 2], text)).ok
        if game == "atmalof":
            assert (await referee.roll_pending(HERE)).ok
    moves = await referee.legal_moves(HERE, ALICE)
    last = next(m for m in moves if m.startswith(("move", "push", "place")))
    assert (await referee.act(HERE, ALICE, last)).ok
    before = await referee.store.active_game(HERE.channel_id)
    assert before is not None
    asked = await referee.request_takeback(HERE, ALICE)
    assert asked.ok and "allow or refuse?" in asked.text
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.seq == before.seq  # nothing undone by the asking alone
    assert not (await referee.answer_takeback(HERE, ALICE, True)).ok  # not by the asker
    assert (await referee.answer_takeback(HERE, BOB, True)).ok
    g = await referee.store.active_game(HERE.channel_id)
    assert g is not None and g.seq == before.seq - 1
    await referee.store.close()


@claim("atmalof", "A drop can never be taken back once the die has rolled")
async def _(tmp_path: Path) -> None:
    referee = await referee_game(tmp_path, "atmalof", starter="me")
    await referee.act(HERE, ALICE, "drop row 4")
    await referee.roll_pending(HERE)
    refused = await referee.request_takeback(HERE, ALICE)
    assert not refused.ok
    assert "include a drop by alice (Red) with its die already rolled" in refused.text
    # Alice's own last turn a step, Bob's drop after it: taking back her step would take
    # back his roll too, and the refusal says whose drop it is (not that her turn was a drop).
    assert (await referee.act(HERE, BOB, "drop row 1")).ok
    await referee.roll_pending(HERE)
    step = next(m for m in await referee.legal_moves(HERE, ALICE) if m.startswith("move"))
    assert (await referee.act(HERE, ALICE, step)).ok
    assert (await referee.act(HERE, BOB, "drop row 2")).ok
    await referee.roll_pending(HERE)
    before = await referee.store.active_game(HERE.channel_id)
    refused = await referee.request_takeback(HERE, ALICE)
    assert not refused.ok and refused.text == (
        "the turns to take back include a drop by bob (Blue) with its die already rolled, "
        "and a roll cannot be taken back"
    )
    after = await referee.store.active_game(HERE.channel_id)
    assert before is not None and after is not None and after.seq == before.seq
    await referee.store.close()


cites(
    "atmalof",
    "The author's rules say a move once made is final",
    "seed 001: 'once you have moved and your finger is no longer in contact with the piece you "
    "cannot retract the move'",
)


@claim("atmalof", "Atmalof was invented by Richard Sandes Forsyth")
async def _(tmp_path: Path) -> None:
    text = RULES["atmalof"][1]
    assert "**Richard Sandes Forsyth**" in text and f"[CC BY-SA 3.0]({ATMALOF_LICENCE})" in text
    assert ATMALOF_LICENCE == "https://creativecommons.org/licenses/by-sa/3.0/"


# --- Nine Men's Morris --------------------------------------------------------------------------


@claim("morris", "24 points on three nested squares")
async def _(tmp_path: Path) -> None:
    start = MORRIS.new()
    assert len(MORRIS.legal(start)) == 24 and MORRIS.side_names[0] == "White"
    assert start.to_move == 0 and MORRIS.to_text(start).count("hand=9,9") == 1


def _letters_name_points_row_by_row(variant: str, listed: str) -> None:
    """Each letter ``listed`` names (runs like "A–F") is a point the engine takes, in reading
    order of the grid names (rank 7 first, files a..g), a7 A, d7 B, g1 X; no other letter is."""
    letters: list[str] = []
    for run in listed.split(", "):
        first, _, last = run.partition("–")
        letters += [chr(c) for c in range(ord(first), ord(last or first) + 1)]
    start = MORRIS.new(variant)
    board = layout(start)
    reading = sorted(board.points, key=lambda name: (-int(name[1]), name[0]))
    named = [MORRIS.notation(start, MORRIS.parse(start, f"place {x.lower()}")) for x in letters]
    assert named == [f"place {point}" for point in reading]
    assert (named[0], named[1], named[-1]) == ("place a7", "place d7", "place g1")
    for other in sorted(set("ABCDEFGHIJKLMNOPQRSTUVWXYZ") - set(letters)):
        with pytest.raises(engine.ParseError):
            MORRIS.parse(start, f"place {other}")


@claim(
    "morris", "A point is named by its column and row on the board picture (d7), or by its letter"
)
async def _(tmp_path: Path) -> None:
    _letters_name_points_row_by_row("standard", "A–X")
    _letters_name_points_row_by_row("twelve", "A–X")
    assert "A–X, row by row" in SUMMARIES["morris", "standard"]
    assert MORRIS.parse(MORRIS.new(), "place D7") == MORRIS.parse(MORRIS.new(), "place d7")
    centres = render.layout("morris", MORRIS.new()).centres  # d7: column d, top row
    assert centres["d7"][0] == centres["d1"][0] and centres["d7"][1] < centres["d6"][1]
    assert centres["a7"][0] < centres["d7"][0] < centres["g7"][0]


@claim("morris", "Placing: take turns putting a man on an empty point")
async def _(tmp_path: Path) -> None:
    after = morris_play(MORRIS.new(), "place d7")
    assert after.to_move == 1 and len(MORRIS.legal(after)) == 23


@claim("morris", "Moving: once all are placed, slide a man along a line")
async def _(tmp_path: Path) -> None:
    state = morris_position(**MOVING)
    assert morris_play(state, "move a7 d7").to_move == 1
    with pytest.raises(IllegalAction):
        MORRIS.parse(state, "move a7 g7")


@claim("morris", "With three men left you may fly to any empty point (an option, on unless")
async def _(tmp_path: Path) -> None:
    assert MORRIS.options(MORRIS.new())["flying"] is True  # "on unless ... flying=off"
    assert MORRIS.options(MORRIS.new(flying=False))["flying"] is False
    assert can_fly(morris_position(**FLYING), 0)
    assert not can_fly(morris_position(**FLYING, flying=False), 0)


@claim("morris", "Mills: three of your men in a row on a line")
async def _(tmp_path: Path) -> None:
    state = morris_play(morris_position("a7 d7", "b6 d6 f6 a4", hand=(7, 5)), "place g7")
    assert state.to_move == 0 and all(
        MORRIS.notation(state, a).startswith("remove") for a in MORRIS.legal(state)
    )


@claim("morris", "A man standing in a mill is safe unless all of that side's men stand in mills")
async def _(tmp_path: Path) -> None:
    state = morris_play(morris_position("a7 d7", "b6 d6 f6 a4", hand=(7, 5)), "place g7")
    assert names(removable(state)) == {"a4"}
    every = morris_play(morris_position("a7 d7", "b6 d6 f6", hand=(7, 6)), "place g7")
    assert names(removable(every)) == {"b6", "d6", "f6"}


@claim("morris", "Removed men never come back")
async def _(tmp_path: Path) -> None:
    state = morris_play(morris_position("a7 d7", "b6 d6 f6 a4", hand=(7, 5)), "place g7")
    after = morris_play(state, "remove a4")
    assert after.men[1].bit_count() == 3 and MORRIS.to_text(after).count("hand=6,5") == 1


@claim("morris", "Closing two mills at once still removes only one man")
async def _(tmp_path: Path) -> None:
    both = morris_play(morris_position("d7 g7 a4 a1", "b6 d6 f2 c3", hand=(5, 5)), "place a7")
    assert len(mills(both, 0)) == 2 and pending_removal(both)  # a7 closes two at once
    after = morris_play(both, "remove b6")
    assert after.to_move == 1 and after.men[1].bit_count() == 3  # one man, then Black's turn


@claim("morris", "Stepping out of a mill and back in makes a new mill, unless the challenge says")
async def _(tmp_path: Path) -> None:
    steps = ("move d7 d6", "move a4 b4", "move d6 d7")  # White's mill a7 d7 g7 opened, closed
    again = morris_play(morris_position("a7 d7 g7 b2", "a4 g4 c3 e3"), *steps)
    assert pending_removal(again)  # a new mill: a removal is owed
    (option,) = re.findall(r"`(no_remill=on)`", RULES["morris"][1])
    typed = parse_options(option)  # as a challenge's options field reads it
    assert MORRIS.options(MORRIS.new(**typed))["no_remill"] is True
    back = morris_play(morris_position("a7 d7 g7 b2", "a4 g4 c3 e3", **typed), *steps)
    assert mills(back, 0) and not pending_removal(back) and back.to_move == 1  # no removal
    elsewhere = morris_position("a7 g7 d6 b2", "a4 g4 c3 e3", **typed)
    assert pending_removal(morris_play(elsewhere, "move d6 d7"))  # it did not leave d7 just now


@claim("morris", "You lose with two men left or when you cannot move")
async def _(tmp_path: Path) -> None:
    two = MORRIS.result(
        morris_play(morris_position("a7 d7 g7 e3", "b6 d6 f2", pending=True), "remove b6")
    )
    assert two is not None and two.termination is Termination.TWO_PIECES
    blocked = MORRIS.result(morris_position("d7 a4 g4 d1 d6", "a7 g7 a1 g1", turn="b"))
    assert blocked is not None and blocked.termination is Termination.BLOCKED


@claim("morris", "Repeating a position three times, or 50 moves each without a removal")
async def _(tmp_path: Path) -> None:
    assert MORRIS.options(MORRIS.new())["move_limit"] == 50
    (limit,) = re.findall(r"or (\d+) moves each without a removal", RULES["morris"][1])
    assert int(limit) == MORRIS.options(MORRIS.new())["move_limit"]
    calm = MORRIS.result(morris_play(morris_position(**MOVING, quiet=2 * 50 - 2), "move a7 d7"))
    assert calm is None  # 49.5 moves each: not yet
    shuffle = ("move a7 d7", "move c5 d5", "move d7 a7", "move d5 c5")
    repeated = MORRIS.result(morris_play(morris_position(**MOVING), *shuffle, *shuffle))
    assert repeated is not None and repeated.termination is Termination.REPETITION
    quiet = MORRIS.result(morris_play(morris_position(**MOVING, quiet=99), "move a7 d7"))
    assert quiet is not None and quiet.termination is Termination.MOVE_LIMIT


@claim("morris", "The draws by repetition and by the move limit are the referee's own")
async def _(tmp_path: Path) -> None:
    await _draws_switch_as_typed(tmp_path, "morris")
    shuffle = ("move a7 d7", "move c5 d5", "move d7 a7", "move d5 c5")
    off = morris_position(**MOVING, **parse_options("repetition=off"))
    assert MORRIS.result(morris_play(off, *shuffle, *shuffle)) is None  # switched off: play on
    endless = morris_position(**MOVING, quiet=99, **parse_options("move_limit=0"))
    assert MORRIS.result(morris_play(endless, "move a7 d7")) is None


cites(
    "morris",
    "The draws by repetition and by the move limit are the referee's own",
    "seed 002 ends the game only with two men left or a side that cannot move; no draw rule",
)


@claim("morris", "Takebacks: you may take back your last turn only if your opponent agrees")
async def _(tmp_path: Path) -> None:
    await _takeback_needs_consent(tmp_path, "morris", ("place d7", "place a1"))


# --- Abalone ------------------------------------------------------------------------------------


@claim("abalone", "A hexagon of 61 cells, 14 marbles each, Black first")
async def _(tmp_path: Path) -> None:
    start = ABALONE.new()
    assert len(start.board) == 61 and start.board.count(1) == start.board.count(2) == 14
    assert ABALONE.side_names[0] == "Black" and start.to_move == 0


ABALONE_PICTURE = render.layout("abalone", ABALONE.new())


@claim("abalone", "On the board picture row A is at the bottom, where Black starts, and row I at")
async def _(tmp_path: Path) -> None:
    ys = {name[0]: xy[1] for name, xy in ABALONE_PICTURE.centres.items()}
    assert sorted(ys, key=ys.__getitem__) == list("ihgfedcba")  # image y grows downwards
    assert abalone_cells(ABALONE.new(), "a1 a2 a3 a4 a5") == "bbbbb"  # Black starts there
    assert abalone_cells(ABALONE.new(), "i5 i6 i7 i8 i9") == "wwwww"


@claim("abalone", "Each row is numbered from its left end: row A runs from a1 to a5, row E from")
async def _(tmp_path: Path) -> None:
    centres = ABALONE_PICTURE.centres
    for letter in "abcdefghi":
        row = sorted((n for r, n in CELLS if "abcdefghi"[r] == letter))
        xs = [centres[f"{letter}{n}"][0] for n in row]
        assert xs == sorted(xs), letter  # left to right as the numbers grow
        ends = {"a": (1, 5), "e": (1, 9), "i": (5, 9)}.get(letter)
        assert ends is None or (row[0], row[-1]) == ends, letter
    with pytest.raises(engine.EngineError):
        ABALONE.parse(ABALONE.new(), "push i4 sw")  # row I has no cell before i5


@claim("abalone", "Cells with the same number make a line slanting up to the left")
async def _(tmp_path: Path) -> None:
    centres = ABALONE_PICTURE.centres
    line = [centres[name] for name in ("a1", "b1", "c1", "d1", "e1")]
    assert all(b[0] < a[0] and b[1] < a[1] for a, b in pairwise(line))
    for n in range(1, 10):
        (label,) = [lb for lb in ABALONE_PICTURE.labels if lb.text == str(n)]
        cells = [name for name in CELL_NAMES if name[1:] == str(n)]
        nearest = min(cells, key=lambda c: _distance(centres[c], label.centre))
        assert nearest == min(cells), n  # written at the line's lower end (its lowest row)
        lower = centres[nearest]
        assert label.centre[1] > lower[1] and label.centre[0] > lower[0], n  # below, right


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


@claim("abalone", "Move one, two or three of your marbles in a line one step")
async def _(tmp_path: Path) -> None:
    three = abalone_position("c3 c4 c5", "")
    for text in ("push c5 ne", "push c4 c5 e", "push c3 c5 e", "push c3 c5 ne"):
        assert ABALONE.parse(three, text) in ABALONE.legal(three)  # along the line or sideways
    with pytest.raises(engine.EngineError):
        ABALONE.parse(abalone_position("c2 c3 c4 c5", ""), "push c2 c5 e")  # four marbles


@claim("abalone", "From the start, /push a1 c3 ne moves a1, b2 and c3 one step along their line")
async def _(tmp_path: Path) -> None:
    start = ABALONE.new()
    inline = ABALONE.apply(start, ABALONE.parse(start, "push a1 c3 ne"))
    assert (
        abalone_cells(start, "a1 b2 c3 d4") == "bbb."
        and abalone_cells(inline, "a1 b2 c3 d4") == ".bbb"
    )
    sideways = ABALONE.apply(start, ABALONE.parse(start, "push c3 c5 nw"))  # the line c3 to c5
    assert abalone_cells(sideways, "c3 c4 c5 d3 d4 d5") == "...bbb"
    one = ABALONE.apply(start, ABALONE.parse(start, "push c5 e"))
    assert abalone_cells(one, "c5 c6") == ".b" and abalone_cells(one, "c3 c4") == "bb"


@claim(
    "abalone",
    "Directions as on the picture: E right, W left, NE up and right, NW up and left, SE down and "
    "right, SW down and left.",
)
async def _(tmp_path: Path) -> None:
    said = {"e": (1, 0), "w": (-1, 0), "ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1)}
    centres, c3 = ABALONE_PICTURE.centres, CELL_INDEX["c3"]
    for d, direction in enumerate(DIRECTIONS):  # (x, y) signs on the image: y grows downwards
        x0, y0 = centres["c3"]
        x1, y1 = centres[CELL_NAMES[NEIGHBOURS[d][c3]]]
        signs = (_sign(x1 - x0), _sign(y1 - y0))
        assert signs == said[direction], direction
        assert ABALONE.parse(abalone_position("c3", ""), f"push c3 {direction}")


def _sign(value: float) -> int:
    return 0 if abs(value) < 1e-6 else 1 if value > 0 else -1


@claim("abalone", "Sumito: pushing along the line, more of yours than of theirs pushes them")
async def _(tmp_path: Path) -> None:
    for black, white, command in (
        ("c1 c2", "c3", "push c1 c2 e"),
        ("c1 c2 c3", "c4", "push c1 c3 e"),
        ("c1 c2 c3", "c4 c5", "push c1 c3 e"),
    ):
        state = abalone_position(black, white)
        pushed = ABALONE.apply(state, ABALONE.parse(state, command))
        assert abalone_cells(pushed, "c1") == "."  # the whole line moved, theirs in front
    edge = abalone_position("a3 a4", "a5", lost=(0, 0))
    off = ABALONE.apply(edge, ABALONE.parse(edge, "push a3 a4 e"))
    assert marbles_off(off, 1) == 1  # the cell behind was off the board
    with pytest.raises(IllegalAction):  # the cell behind holds a marble
        ABALONE.parse(abalone_position("c1 c2 c5", "c3 c4"), "push c1 c2 e")


@claim("abalone", "Equal numbers cannot push, nor can four of yours behind three of theirs")
async def _(tmp_path: Path) -> None:
    with pytest.raises(IllegalAction, match="2 against 2 cannot push"):
        ABALONE.parse(abalone_position("d1 d2", "d3 d4"), "push d1 d2 e")
    four = abalone_position("e1 e2 e3 e4", "e5 e6 e7")  # e8 is empty behind them
    with pytest.raises(IllegalAction, match="3 against 3 cannot push"):
        ABALONE.parse(four, "push e2 e4 e")  # the fourth marble behind does not count
    with pytest.raises(engine.ParseError, match="at most three move together"):
        ABALONE.parse(four, "push e1 e4 e")
    with pytest.raises(IllegalAction):
        ABALONE.parse(abalone_position("a1", ""), "push a1 w")  # off the board


@claim("abalone", "A sideways move never pushes: every cell its marbles move into must be empty")
async def _(tmp_path: Path) -> None:
    free = abalone_position("c3 c4 c5", "")
    moved = ABALONE.apply(free, ABALONE.parse(free, "push c3 c5 ne"))  # onto d4 d5 d6
    assert abalone_cells(moved, "d4 d5 d6") == "bbb"
    for black, white in (("c3 c4 c5", "d5"), ("c3 c4 c5 d6", ""), ("c3 c4", "d4")):
        state = abalone_position(black, white)
        line = "push c3 c5 ne" if "c5" in black else "push c3 c4 ne"
        with pytest.raises(IllegalAction):  # one of yours or theirs in the way: no push
            ABALONE.parse(state, line)


@claim("abalone", "Push six of your opponent's marbles off the board to win")
async def _(tmp_path: Path) -> None:
    state = abalone_position("a3 a4", "a5", lost=(0, 5))
    outcome = ABALONE.result(ABALONE.apply(state, ABALONE.parse(state, "push a3 a4 e")))
    assert outcome is not None and outcome.winner == 0
    assert outcome.termination is Termination.SIX_OFF


@claim("abalone", "The referee's own rules, not the original's")
async def _(tmp_path: Path) -> None:
    assert ABALONE.options(ABALONE.new()) == {"repetition": True, "move_limit": 200}
    # The 200th move ends the game: White has more marbles on the board and wins.
    state = abalone_position("d1", "a5", ply=199, lost=(2, 1))
    outcome = ABALONE.result(ABALONE.apply(state, ABALONE.parse(state, "push d1 e")))
    assert outcome is not None and outcome.termination is Termination.MOVE_LIMIT
    assert outcome.winner == 1
    level = abalone_position("d1", "a5", ply=199)
    drawn = ABALONE.result(ABALONE.apply(level, ABALONE.parse(level, "push d1 e")))
    assert drawn is not None and drawn.winner is None
    # Shuffling back and forth: the third time a position comes round with Black to move.
    state = abalone_position("d1", "a5")
    for _ in range(2):
        for text in ("push d1 e", "push a5 w", "push d2 w", "push a4 e"):
            assert ABALONE.result(state) is None
            state = ABALONE.apply(state, ABALONE.parse(state, text))
    outcome = ABALONE.result(state)
    assert outcome is not None and outcome.termination is Termination.REPETITION
    await _draws_switch_as_typed(tmp_path, "abalone")


cites(
    "abalone",
    "The referee's own rules",
    "seed 003 ends the game only when six marbles are pushed off; a draw by repetition and a "
    "move limit are not in it",
)


@claim(
    "abalone",
    "Layouts (type the name in brackets): standard (standard), Belgian daisy (belgian-daisy), "
    "German daisy (german-daisy)",
)
async def _(tmp_path: Path) -> None:
    for name in ("standard", "belgian-daisy", "german-daisy"):
        assert ABALONE.new(name).board.count(1) == 14


@claim("abalone", "Takebacks: you may take back your last turn only if your opponent agrees")
async def _(tmp_path: Path) -> None:
    await _takeback_needs_consent(tmp_path, "abalone", ("push c3 ne", "push g5 sw"))


cites(
    "abalone",
    "The original rules say a move cannot be changed once made",
    "seed 003: 'Ekki er leyfilegt að breyta leik eftir að kúlur hafa verið færðar.'",
)


# --- the variants' own sentences ---------------------------------------------------------------


@claim("atmalof", "A 6 × 6 board, Red and Blue with 16 pieces each", "junior")
async def _(tmp_path: Path) -> None:
    junior = ATMALOF.new("junior")
    assert (junior.rows, junior.cols, junior.hands) == ((6, 6, (16, 16)))
    assert (
        junior.line == 5
    )  # so "gets 5 in a row" and "lines of exactly 4" are the standard's words
    assert junior.on_board(0) == junior.on_board(1) == 0


@claim("atmalof", "The die rolls 1 to 6, one face for each square of the line", "junior")
async def _(tmp_path: Path) -> None:
    junior = ATMALOF.new("junior")
    assert {ATMALOF.die_faces(junior, drop) for drop in ATMALOF.legal(junior)} == {6}
    assert all(junior.reachable(square) for square, _ in junior.cells())
    img = render.board_image("atmalof", junior, theme="light")
    centres = render.layout("atmalof", junior).centres
    assert len({img.getpixel(tuple(map(round, xy))) for xy in centres.values()}) == 1  # no shade


@claim("atmalof", "A 9 × 9 board, Red and Blue with 36 pieces each", "atmalos")
async def _(tmp_path: Path) -> None:
    atmalos = ATMALOF.new("atmalos")
    assert (atmalos.rows, atmalos.cols, atmalos.hands) == (9, 9, (36, 36))


@claim("atmalof", "The die rolls 1 to 8, so it never picks column 9 of a row or row 9", "atmalos")
async def _(tmp_path: Path) -> None:
    atmalos = ATMALOF.new("atmalos")
    assert {ATMALOF.die_faces(atmalos, drop) for drop in ATMALOF.legal(atmalos)} == {8}
    assert landing(atmalos, ATMALOF.parse(atmalos, "drop column 9"), 2) == (2, 9)
    row = ATMALOF.parse(atmalos, "drop row 4")
    assert {landing(atmalos, row, d) for d in range(1, 9)} == {(4, c) for c in range(1, 9)}


@claim("atmalof", "Only the corner square (9,9) is out of the die's reach", "atmalos")
async def _(tmp_path: Path) -> None:
    atmalos = ATMALOF.new("atmalos")
    assert [square for square, _ in atmalos.cells() if not atmalos.reachable(square)] == [(9, 9)]
    beside = atmalof_position("\n".join(["." * 9] * 7 + ["........R", "." * 9]), variant="atmalos")
    assert atmalof_move(beside, "move 8,9 9,9").at((9, 9)) == 0


@claim("atmalof", "On the board picture row 9 and column 9 are shaded", "atmalos")
async def _(tmp_path: Path) -> None:
    atmalos = ATMALOF.new("atmalos")
    centres = render.layout("atmalof", atmalos).centres
    img = render.board_image("atmalof", atmalos, theme="light")
    seen = {square: img.getpixel(tuple(map(round, xy))) for square, xy in centres.items()}
    square, shade, corner = seen[(3, 3)], seen[(9, 3)], seen[(9, 9)]
    assert len({square, shade, corner}) == 3
    for r, c in centres:
        assert seen[(r, c)] == (square if max(r, c) < 9 else shade if min(r, c) < 9 else corner)


@claim("atmalof", "Whoever gets 7 in a row, in any direction, wins at once", "atmalos")
async def _(tmp_path: Path) -> None:
    six = atmalof_position("\n".join(["RRRRRR..."] + ["." * 9] * 8), variant="atmalos")
    assert ATMALOF.result(six) is None  # six in a row is not yet a win here
    outcome = ATMALOF.result(atmalof_drop(six, "drop row 1", 7))
    assert outcome is not None and outcome.winner == 0 and outcome.termination is Termination.LINE


@claim(
    "atmalof", "As soon as a player has every piece on the board, play stops and each", "atmalos"
)
async def _(tmp_path: Path) -> None:
    runs = atmalof_position(
        "\n".join(["RRRRRR...", "RRRR.....", *["." * 9] * 7]), variant="atmalos"
    )
    assert [len(run) for run in fours(runs, 0)] == [6]  # the tie-break counts sixes, not fours
    assert ATMALOF.new("atmalos").config.tiebreak == "either"  # "as soon as a player": either


@claim("morris", "16 points on two nested squares joined by four lines; six men each", "six")
async def _(tmp_path: Path) -> None:
    six = MORRIS.new("six")
    board_of = layout(six)
    assert board_of.size == 16 and len(MORRIS.legal(six)) == 16
    squares = (
        {"a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4"},
        {"b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4"},
    )
    assert set(board_of.points) == squares[0] | squares[1]
    joins = [(board_of.points[a], board_of.points[b]) for a, b in board_of.edges]
    across = [pair for pair in joins if (pair[0] in squares[0]) != (pair[1] in squares[0])]
    assert len(across) == 4 and len(joins) == 20  # 8 sides each, and the four joining lines
    assert MORRIS.to_text(six).count("hand=6,6") == 1 and six.to_move == 0


@claim("morris", "A point is named by its column and row on the board picture (d7)", "six")
async def _(tmp_path: Path) -> None:
    _letters_name_points_row_by_row("six", "A–F, J, K, N, O, S–X")
    assert "A–F, J, K, N, O, S–X, row by row" in SUMMARIES["morris", "six"]


@claim("morris", "Men never fly unless the challenge says flying=on", "six")
async def _(tmp_path: Path) -> None:
    assert MORRIS.options(MORRIS.new("six"))["flying"] is False
    three = {"white": "a7 b2 f4", "black": "g7 d6 b4 d1"}
    assert not can_fly(morris_position(**three, variant="six"), 0)
    assert can_fly(morris_position(**three, variant="six", flying=True), 0)


@claim("morris", "24 points on three nested squares joined by four lines and by four", "twelve")
async def _(tmp_path: Path) -> None:
    twelve = MORRIS.new("twelve")
    board_of = layout(twelve)
    assert board_of.size == 24 and len(board_of.edges) == 32 + 8
    assert len(board_of.mills) == 16 + 4  # each diagonal is a mill too
    assert MORRIS.to_text(twelve).count("hand=12,12") == 1 and twelve.to_move == 0
    corner = morris_play(
        morris_position("a7 b6", "d7 g4", hand=(10, 10), variant="twelve"), "place c5"
    )
    assert corner.to_move == 0 and all(
        MORRIS.notation(corner, a).startswith("remove") for a in MORRIS.legal(corner)
    )  # a7 b6 c5: a mill along a diagonal


@claim("morris", "A board full once all are placed is a draw, and so is repeating", "twelve")
async def _(tmp_path: Path) -> None:
    white = "a7 g7 b6 f6 c5 e5 a4 b4 c4 c3 b2 a1"  # no three of a colour on one line
    black = "d7 d6 d5 e4 f4 g4 e3 d3 d2 f2 d1 g1"
    state = morris_position(white, black, variant="twelve")
    outcome = MORRIS.result(state)
    assert outcome is not None and outcome.termination is Termination.FULL_BOARD
    assert outcome.winner is None
    assert MORRIS.options(MORRIS.new("twelve"))["move_limit"] == 50
    assert MORRIS.options(MORRIS.new("twelve"))["repetition"] is True


cites(
    "atmalof",
    "If the square is taken, nothing is placed",
    "seed 001: 'If a piece of either colour is already located at the designated position, you "
    "simply lose a turn.' Seed 000: 'Se peco iukolora jam staras ce la pozicio specifita, vi "
    "perdas vian ludvicon.'",
)
cites(
    "morris",
    "A man standing in a mill is safe unless all of that side's men stand in mills",
    "seed 002: 'Nem szabad levenni olyan bábut, ami éppen malomban áll; kivéve azt a ritka "
    "esetet, ha az ellenfél valamennyi bábuja malomban van.'",
)
cites("morris", "Removed men never come back", "seed 002: 'A levett bábu nem tehető vissza többé.'")
cites(
    "abalone",
    "Push six of your opponent's marbles off the board to win",
    "seed 003: 'Að vera fyrri til við að ýta sex kúlum andstæðingsins af spilaborðinu.' and "
    "'Sigurvegari er sá sem er fyrri til að ýta sex af kúlum andstæðingsins af spilaborðinu'",
)


# --- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "variant"), sorted(SUMMARIES))
def test_every_sentence_of_the_summaries_is_claimed(game: str, variant: str) -> None:
    starts = [start for start, _ in CLAIMS[game, variant]]
    shared = sentences(RULES[game][1]) if variant != "standard" else []
    standard = [start for start, _ in CLAIMS[game, "standard"]]
    for sentence in sentences(SUMMARIES[game, variant]):
        if any(sentence.startswith(start) for start in starts):
            continue
        assert sentence in shared, (variant, sentence)  # the standard's words: its claim
        assert any(sentence.startswith(start) for start in standard), sentence


def test_the_standard_summaries_are_the_rules_shown_without_a_game() -> None:
    assert {game: SUMMARIES[game, "standard"] for game in RULES} == {
        game: text for game, (_, text) in RULES.items()
    }


CHECKS = [
    pytest.param(game, variant, start, check, id=f"{game} {variant}: {start[:40]}")
    for (game, variant), claims in CLAIMS.items()
    for start, check in claims
    if not isinstance(check, str)
]


@pytest.mark.parametrize(("game", "variant", "start", "check"), CHECKS)
async def test_each_sentence_holds_in_the_engine_or_the_referee(
    tmp_path: Path, game: str, variant: str, start: str, check: Check
) -> None:
    assert any(s.startswith(start) for s in sentences(SUMMARIES[game, variant])), start
    await check(tmp_path)


def test_row_7_is_no_longer_called_out_of_the_die_s_reach() -> None:
    """Issue 12: the old text said row 7 and column 7 were beyond the die; only (7,7) is."""
    text = RULES["atmalof"][1]
    assert "Row 7 and column 7 are beyond the die's reach" not in text
    assert "Only the corner square (7,7)" in text


def test_no_sentence_of_a_summary_begins_with_a_digit() -> None:
    """ "5 in a row, in any direction, wins at once" read badly beside "seven in a row": the
    number stays, the sentence starts with a word, in every language and described variant.
    The opening line is left out: a heading-like "24 points on three nested squares" under
    the title, not a sentence in the middle of the rules."""
    starts = re.compile(r"(?:[.!?]\s+|\n)(?:• )?(\d[^.\n]{0,30})")
    found = {
        (lang, game, variant): starts.findall(
            plain(summary(game, lang, variant)[1]).split("\n", 1)[1]
        )
        for game, variants in DESCRIBED.items()
        for variant in variants
        for lang in LANGUAGES
    }
    assert {key: hits for key, hits in found.items() if hits} == {}


def test_no_summary_repeats_five_words_of_a_seed_it_cites() -> None:
    """The summaries are our own words (Atmalof's licence asks it, and the other seeds are not
    ours to copy): no run of five words of a seed passage quoted above, in any language. The
    Icelandic summary once said the seed's 'breyta leik eftir að kúlur hafa verið færðar'."""
    quoted = [
        quote
        for claims in CLAIMS.values()
        for _, check in claims
        if isinstance(check, str)
        for quote in re.findall(r"'([^']{20,})'", check)
    ]
    seed_runs = {run for quote in quoted for run in _runs_of_five(quote)}
    repeated = {
        (lang, game, variant): sorted(_runs_of_five(summary(game, lang, variant)[1]) & seed_runs)
        for game, variants in DESCRIBED.items()
        for variant in variants
        for lang in LANGUAGES
    }
    assert {key: runs for key, runs in repeated.items() if runs} == {}


def _runs_of_five(text: str) -> set[tuple[str, ...]]:
    said = re.findall(r"\w+", plain(text).lower())
    return {tuple(said[i : i + 5]) for i in range(len(said) - 4)}


def test_every_summary_leaves_room_in_a_discord_embed_for_the_game_s_notes() -> None:
    """/rules sends the summary as one embed, whose description Discord caps at 4,096
    characters (an over-long one is refused, and the player gets nothing), and adds the notes of
    the game being played (changed options, its clock, a custom board and its dice: a few hundred
    characters). The summaries grow with every rule a review finds missing, the Hungarian
    Atmalof one the longest (3,120 characters): each must leave 500 characters for the notes."""
    longest = max(
        (len(summary(game, lang, variant)[1]), lang, game, variant)
        for lang in LANGUAGES
        for game in RULES
        for variant in engine.get_game(game).variants
    )
    assert longest[0] <= 4096 - 500, longest
