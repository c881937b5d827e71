"""Practice games at the console table (issue 18): `practice <game> [level]` and `challenge bot`
start a game at once, the bot's moves follow the player's as further lines, whole games end,
and a table reopened on the same file moves for the bot when a restart left it its turn."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import engine
from bot.console.table import TABLE, UNEXPECTED, ConsoleTable, open_table, play

NODES = 40
SMALL_ATMALOF = "custom rows=4 cols=4 beyond_rows=0 beyond_cols=0 pieces=5 line=3"


async def opened(db: Path) -> tuple[ConsoleTable, io.StringIO]:
    out = io.StringIO()
    return await open_table(str(db), out, None, render=False, practice_nodes=NODES), out


async def said_to(tmp_path: Path, *lines: str) -> str:
    """What a new table says to ``lines``, typed one after the other."""
    table, out = await opened(tmp_path / "t.db")
    try:
        for line in lines:
            await table.line(line)
    finally:
        await table.close()
    return out.getvalue()


async def then_board(tmp_path: Path, line: str) -> str:
    """What a new table says to alice's ``line`` and then to her ``board``."""
    return await said_to(tmp_path, f"alice: {line}", "alice: board")


async def play_out(table: ConsoleTable, seed: int, limit: int = 300) -> None:
    """alice types random legal moves until she has none (the game is over)."""
    rng = random.Random(seed)
    for _ in range(limit):
        moves = await table.referee.legal_moves(TABLE, table.actor("alice"))
        if not moves:
            return
        await table.line(f"alice: {rng.choice(moves)} confirm")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("game", "terms"), [("atmalof", SMALL_ATMALOF), ("morris", ""), ("abalone", "")]
)
async def test_a_whole_practice_game_at_the_console(tmp_path: Path, game: str, terms: str) -> None:
    table, out = await opened(tmp_path / "p.db")
    try:
        await table.line(f"alice: practice {game} 2 {terms} first me")
        await play_out(table, seed=5)
        await table.line("alice: verify")
    finally:
        await table.close()
    text = out.getvalue()
    assert UNEXPECTED not in text and "(refused)" not in text, text
    assert "Practice: alice plays the bot at level 2. Never rated." in text
    assert "bot (" in text  # the bot's own moves, said like anyone's ("bot (Blue) ...")
    assert " wins" in text or "draw" in text.lower(), text[-2000:]
    assert "Verified" in text


async def test_a_turn_against_the_bot_shows_one_text_board(tmp_path: Path) -> None:
    """The player's move hands the turn to the bot, whose answer comes at once with the
    board: the board between them was printed too, two boards a turn."""
    text = await said_to(tmp_path, "alice: practice morris 1 first me", "alice: place d7")
    boards = text.count("a   b   c   d   e   f   g")  # the text board's bottom line
    assert boards == 2, text  # the start's and the bot's answer's: not alice's move's
    assert "alice (White) places d7." in text and "bot (Black) places" in text, text


async def test_challenging_the_bot_at_the_console(tmp_path: Path) -> None:
    text = await said_to(tmp_path, "alice: challenge bot morris first them")
    assert "Practice: alice plays the bot at level 3" in text
    assert "bot (White) places" in text  # the bot moved first, in further lines
    assert "accept" not in text.split("Practice:")[1]  # nothing to accept


@pytest.mark.parametrize(
    "line",
    [
        "practice morris 9",
        "practice morris level 0",
        "practice morris level x",
        "practice morris -2",
    ],
)
async def test_a_level_out_of_range_is_refused_at_the_console(tmp_path: Path, line: str) -> None:
    text = await then_board(tmp_path, line)
    assert "the practice level is a whole number from 1" in text and "to 5" in text, text
    assert "there is no game running here" in text  # nothing started


async def test_the_name_bot_is_the_practice_opponent(tmp_path: Path) -> None:
    text = await said_to(tmp_path, "bot: practice morris", "alice: practice morris rated")
    assert "is the practice opponent here" in text
    assert "never rated" in text


async def test_a_reopened_table_moves_for_the_bot(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    table, _ = await opened(db)
    try:  # the game starts, alice moves, and the process dies before the bot's answer
        await table.line("alice: practice morris 1 first me")
        reply = await table.referee.act(TABLE, table.actor("alice"), "place d7")
        assert reply.ok
    finally:
        await table.close()
    out = io.StringIO()
    status = await play(str(db), io.StringIO("alice: board\n"), out, None, render=False,
                        echo=True, practice_nodes=NODES)  # fmt: skip
    assert status == 0
    caught_up, board = out.getvalue().split("> alice: board")
    assert "bot (Black) places" in caught_up  # at the start, before anyone typed
    assert "alice (White) to move" in board


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("practice atmalof hard", "hard"),
        ("practice morris 2.5", "2.5"),
        ("practice morris level", "level"),
        ("practice abalone 3 belgian", "belgian"),
    ],
)
async def test_a_word_that_is_no_level_and_no_variant_says_both(
    tmp_path: Path, line: str, word: str
) -> None:
    # a level was meant more often than a variant: the refusal names both, and the variants
    text = await then_board(tmp_path, line)
    level = "a practice level (a whole number from 1 to 5)"
    assert f"'{word}' is neither {level} nor a variant" in text
    game = line.split()[1]
    assert ", ".join(engine.get_game(game).variants) in text
    assert "there is no game running here" in text  # nothing started


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("practice morris 2 2", "`level` is given twice (2 and 2)"),
        ("practice atmalof 3 junior 4", "`level` is given twice (3 and 4)"),
        ("practice atmalof level 3 5", "`level` is given twice (3 and 5)"),
        ("practice atmalof 3 clock 1+2 clock 5+5", "`clock` is given twice (1+2 and 5+5)"),
        ("practice atmalof junior first them first me", "`first` is given twice (them and me)"),
        ("practice morris starter me starter them", "`starter` is given twice (me and them)"),
        ("practice atmalof junior atmalos", "`variant` is given twice (junior and atmalos)"),
        ("challenge bot morris rated casual", "`rated` is given twice (rated and casual)"),
    ],
)
async def test_a_term_given_twice_is_refused_not_the_last_kept(
    tmp_path: Path, line: str, said: str
) -> None:
    """The level given twice was refused as "neither a level nor a variant", while a clock or
    a starter given twice kept the last (a player's finding): all are refused alike."""
    text = await then_board(tmp_path, line)
    assert f"(refused) {said}: give it once" in text, text
    assert "there is no game running here" in text  # nothing started


async def test_a_level_and_a_variant_together_start_the_game(tmp_path: Path) -> None:
    table, out = await opened(tmp_path / "v.db")
    try:
        await table.line("alice: practice atmalof 4 junior first me")
        g = await table.referee.store.latest_game(TABLE.channel_id)
    finally:
        await table.close()
    assert "Practice: alice plays the bot at level 4" in out.getvalue()
    assert g is not None and g.variant == "junior" and g.practice == 4


async def test_a_second_game_or_a_rematch_during_a_practice_game_says_what_to_do(
    tmp_path: Path,
) -> None:
    table, out = await opened(tmp_path / "b.db")
    try:
        await table.line("alice: practice morris 1 first me")
        start = len(out.getvalue())
        await table.line("alice: practice atmalof 2")
        busy = out.getvalue()[start:]
        start = len(out.getvalue())
        await table.line("alice: rematch")
        early = out.getvalue()[start:]
        await table.line("alice: resign")
        start = len(out.getvalue())
        await table.line("alice: rematch")
        later = out.getvalue()[start:]
    finally:
        await table.close()
    # the console's one table has no other channel or thread to suggest
    unmoved = "your game here is still being played, and you have not moved yet: `abort` ends"
    assert f"this table is busy: {unmoved} it with no result" in busy, busy
    assert "thread" not in busy
    assert "a rematch comes after this game has ended: finish it first, or resign" in early
    assert "Practice: alice plays the bot at level 1" in later  # and after it, one starts


async def test_replay_at_the_console_writes_the_games_animation(tmp_path: Path) -> None:
    from PIL import Image

    out = io.StringIO()
    table = await open_table(
        str(tmp_path / "g.db"), out, tmp_path / "files", render=False, practice_nodes=NODES
    )
    try:
        await table.line("alice: practice morris 1 first me")
        for point in ("d7", "a1"):
            await table.line(f"alice: place {point}")
        start = len(out.getvalue())
        await table.line("alice: replay")
    finally:
        await table.close()
    said = out.getvalue()[start:]
    assert "Animated replay" in said and "(refused)" not in said, said
    path = Path(said.split("(file: ")[1].split(")")[0])
    assert path.name == "replay-1.gif"
    with Image.open(path) as gif:
        assert gif.format == "GIF" and gif.n_frames == 5  # the start and each of 4 placings


async def test_replay_with_no_game_here_is_refused(tmp_path: Path) -> None:
    text = await said_to(tmp_path, "alice: replay")
    assert "(refused)" in text and "no game" in text.lower() and "(file:" not in text
