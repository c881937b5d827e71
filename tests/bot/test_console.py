"""The console table driven by scripted input, end to end; and the entry point's choices."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.console.table import play
from bot.errors import Refusal
from bot.referee import Referee
from bot.referee.grammar import COMMAND_WORDS, dispatch
from tests.bot.conftest import ALICE, BOB, HERE
from translations import LANGUAGES, words

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
alice: help
alice: challenge bob morris first me
bob: accept
alice: place a7
bob: place a1
carol: place d7
alice: place d7
bob: place d1
alice: place g7
alice: remove a1
bob: resign
alice: verify
quit
"""


async def test_a_whole_console_game_from_scripted_input(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await play(str(tmp_path / "c.db"), io.StringIO(SCRIPT), out, tmp_path / "img")
    text = out.getvalue()
    assert status == 0 and text.rstrip().endswith("bye")
    assert "alice challenges bob to Nine Men's Morris" in text
    assert "[private] (refused) you are not playing in this game" in text  # carol
    assert "alice (White) to remove one of Black's men with `remove <point>`: a1, d1." in text
    assert "Game over: alice (White) wins (bob (Black) resigned)." in text
    assert "Verified: Nine Men's Morris, 6 actions" in text
    assert "(image: " in text and any((tmp_path / "img").glob("*.png"))


async def test_end_of_input_closes_the_table(tmp_path: Path) -> None:
    out = io.StringIO()
    assert await play(str(tmp_path / "c.db"), io.StringIO(""), out, None, render=False) == 0
    assert "bye" in out.getvalue()


def test_python_m_bot_without_a_token_opens_the_console_and_exits_on_eof(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(REFEREE_DB=str(tmp_path / "m.db"), PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        input="alice: challenge bob atmalof\nbob: accept\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "`DISCORD_TOKEN` is not set" in done.stdout and "Dice commitment" in done.stdout


def test_config_from_env_defaults_and_errors() -> None:
    config = Config.from_env({})
    assert (config.token, config.db_path, config.log_level) == (None, "data/referee.db", "INFO")
    config = Config.from_env(
        {"DISCORD_TOKEN": "secret", "REFEREE_DB": "/x.db", "DEV_GUILD_ID": "42"}
    )
    assert config.has_token and config.dev_guild_id == 42 and "secret" not in repr(config)
    for bad in ({"LOG_LEVEL": "LOUD"}, {"DEV_GUILD_ID": "guild"}):
        with pytest.raises(ConfigError):
            Config.from_env(bad)


async def run_table(tmp_path: Path, script: str) -> str:
    out = io.StringIO()
    await play(str(tmp_path / "t.db"), io.StringIO(script), out, None, render=False)
    return out.getvalue()


async def test_help_typed_without_a_name_shows_the_help(tmp_path: Path) -> None:
    text = await run_table(tmp_path, "help\n?\n")
    assert "who is speaking" not in text
    assert text.count("Commands (type them as `name: command` at the console):") == 2


async def test_sentences_say_column_while_the_notation_stays_short(tmp_path: Path) -> None:
    script = "alice: challenge bob atmalof first me\nbob: accept\nalice: drop col 3\nbob: legal\n"
    text = await run_table(tmp_path, script)
    assert "alice (Red) announces column 3. Rolling the die..." in text
    assert "alice (Red) announces column 3 and rolls" in text
    sentences = text.split("[private] bob: 14 legal moves")[0].splitlines()  # before the list
    assert not any(" col " in line for line in sentences), text
    assert "drop col 3" in text  # `legal` lists the notation


async def test_buttons_are_offered_as_lines_to_type(tmp_path: Path) -> None:
    script = (
        "alice: challenge bob morris first me\nbob: accept\nalice: place a7\nalice: draw\n"
        "bob: draw decline\nbob: resign\n"
    )
    text = await run_table(tmp_path, script)
    assert "(to answer, type `bob: accept` or `bob: decline`)" in text
    assert "(to answer, type `bob: draw accept` or `bob: draw decline`)" in text
    # A finished game asks nothing: its Rematch button is offered to both players.
    assert "(for another game, type `alice: rematch` or `bob: rematch`)" in text
    assert "to answer, type `name: rematch`" not in text


async def test_a_practice_game_offers_its_rematch_to_the_player_alone(tmp_path: Path) -> None:
    text = await run_table(tmp_path, "alice: practice morris 1 first me\nalice: resign\n")
    assert "game over: bot (Black) wins (alice (White) resigned)" in text
    assert "(for another game, type `alice: rematch`)" in text
    assert "`bot: rematch`" not in text


async def test_a_game_ended_after_a_restart_offers_its_rematch_to_both_players(
    tmp_path: Path,
) -> None:
    """The table opened again has heard neither player yet: both are still named."""
    await run_table(tmp_path, "alice: challenge bob morris first me\nbob: accept\n")
    text = await run_table(tmp_path, "alice: resign\n")
    assert "(for another game, type `alice: rematch` or `bob: rematch`)" in text, text


@pytest.mark.parametrize(
    ("game", "move", "result"),
    [
        ("atmalof", "drop row 4", "game over: alice (Red) wins (bob (Blue) resigned)"),
        ("morris", "place a7", "game over: alice (White) wins (bob (Black) resigned)"),
        ("abalone", "push a1 c3 ne", "game over: alice (Black) wins (bob (White) resigned)"),
    ],
)
async def test_a_finished_board_says_the_result_not_whose_move(
    tmp_path: Path, game: str, move: str, result: str
) -> None:
    script = f"alice: challenge bob {game} first me\nbob: accept\nalice: {move}\nbob: resign\n"
    text = await run_table(tmp_path, script)
    ended = text.split("Game over:")[1]
    status = [line for line in ended.splitlines() if "game over:" in line]
    assert status and status[0].endswith(result)
    assert "to move" not in ended


def console_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(REFEREE_DB=str(tmp_path / "m.db"), PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path))
    return env


def test_python_m_bot_console_starts_with_a_tip_and_leaves_on_eof(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=console_env(tmp_path),
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    first = done.stdout.splitlines()[:3]
    tip = "\n".join(first)
    assert all(name in tip for name in ("atmalof", "morris", "abalone"))
    assert "alice: challenge bob atmalof" in tip and "bob: accept" in tip
    assert done.stdout.rstrip().endswith("bye")


def test_ctrl_c_leaves_the_console_without_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "console"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=console_env(tmp_path),
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("alice: challenge bob atmalof\n")
        proc.stdin.flush()
        while "expires in" not in proc.stdout.readline():  # the table is waiting for a line
            pass
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert out.rstrip().endswith("bye")


async def test_a_private_question_names_the_player_who_must_answer_it(tmp_path: Path) -> None:
    """Announcing a drop into a full line is asked back of the player who typed it, by name
    (not "`name: drop row 1 confirm`"): the reply is private and mentions nobody."""
    narrow = "rows=5 cols=3 beyond_rows=0 beyond_cols=0 pieces=6 line=4"
    script = f"alice: challenge bob atmalof custom first me {narrow}\nbob: accept\n"
    script += "alice: drop row 1\nbob: drop row 1\n" * 20
    text = await run_table(tmp_path, script)
    assert "can only lose your turn" in text, text
    question = next(line for line in text.splitlines() if "can only lose your turn" in line)
    assert "(refused)" not in question and question.startswith("[private]"), question
    asked = [line for line in text.splitlines() if line.startswith("(to answer, type `")]
    confirms = [line for line in asked if "drop row 1 confirm" in line]
    assert confirms and all(
        line.startswith(("(to answer, type `alice:", "(to answer, type `bob:")) for line in confirms
    ), confirms


async def test_a_word_that_is_no_command_or_move_is_called_unknown(tmp_path: Path) -> None:
    """ "hello" is neither a console command nor a move word of any game: it is an unknown
    command, with or without a game (not "no game here", nor one game's move syntax); a move
    word with bad arguments, or another game's move word, keeps its game's syntax hint."""
    script = (
        "alice: xyzzy\n"
        "alice: challenge bob atmalof first me\nbob: accept\n"
        "alice: language xx\nbob: hello\nalice: push a1 ne\nalice: drop vico 4\n"
    )
    text = await run_table(tmp_path, script)
    unknown = [line for line in text.splitlines() if "unknown command" in line]
    assert [line.split("unknown command ")[1] for line in unknown] == [
        "'xyzzy': type `help` for the commands",
        "'language': type `help` for the commands",
        "'hello': type `help` for the commands",
    ], text
    assert "there is no game running here" not in text
    assert "'push' is not an Atmalof command" in text
    assert "expected: drop row <k> or drop col <k>" in text
    out = io.StringIO()
    await play(str(tmp_path / "hu.db"), io.StringIO("alice: xyzzy\n"), out, None, lang="hu")
    assert "ismeretlen parancs: „xyzzy”; a parancsokat a `help` sorolja fel" in out.getvalue()


async def test_every_command_word_is_a_command_dispatch_knows(referee: Referee) -> None:
    """``COMMAND_WORDS`` keeps a line like "dispute reason: ..." a command rather than a
    speaker called "dispute reason": each word in it must be one ``dispatch`` answers."""
    people = {"alice": ALICE, "bob": BOB}
    for word in sorted(COMMAND_WORDS):
        codes = set()
        for line in (word, f"{word} x"):  # some take nothing after them, some something
            try:
                await dispatch(referee, HERE, ALICE, line, people)
                codes.add("")
            except Refusal as refusal:
                codes.add(refusal.code)
        assert codes != {"console_unknown_command"}, word


def run_folders(where: Path) -> list[Path]:
    return sorted(where.glob("referee-console-*"))


def console_run(tmp_path: Path, db: str, script: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` without a token, ``script`` piped in, its run folders under tmp/."""
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(REFEREE_DB=db, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path / "tmp"))
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        input=script,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def test_a_database_the_console_cannot_open_is_one_line_on_stderr(tmp_path: Path) -> None:
    """It used to exit 3 after the banner, the reason only in a log file in a folder whose path
    was never printed (and every such start left that folder in /tmp)."""
    text_file = tmp_path / "notadb.txt"
    text_file.write_text("not a database\n")
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    for db, says in [
        (str(text_file), f"refusing to open {text_file}: it is not a database"),
        (
            f"postgresql://bot:s3cret-pw@127.0.0.1:{port}/referee",
            f"cannot open the database postgresql://bot:***@127.0.0.1:{port}/referee",
        ),
    ]:
        done = console_run(tmp_path, db, "quit\n")
        assert done.returncode == 3
        (line,) = done.stderr.splitlines()
        assert line.startswith(says), line
        assert "s3cret-pw" not in done.stdout + done.stderr
        assert run_folders(tmp_path / "tmp") == []  # the reason is on stderr: no log to keep


def test_a_run_that_wrote_nothing_leaves_no_folder_and_one_with_images_keeps_it(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "f.db")
    quiet = console_run(tmp_path, db, "alice: help\nquit\n")
    assert quiet.returncode == 0 and "Pictures, records and the log go to" in quiet.stdout
    assert run_folders(tmp_path / "tmp") == [] and quiet.stderr == ""
    played = console_run(tmp_path, db, "alice: challenge bob morris first me\nbob: accept\n")
    assert played.returncode == 0 and "(image: " in played.stdout
    (kept,) = run_folders(tmp_path / "tmp")  # the images whose paths the table printed
    assert any(kept.glob("*.png")) and played.stderr == ""


def test_a_run_that_logged_a_warning_keeps_its_log_and_says_where(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    assert console_run(tmp_path, str(db), "quit\n").returncode == 0  # made, quietly
    db.chmod(0o644)  # a database others can read: the store warns, then fixes it
    done = console_run(tmp_path, str(db), "quit\n")
    assert done.returncode == 0
    (folder,) = run_folders(tmp_path / "tmp")
    log_file = folder / "console.log"
    assert "WARNING" in log_file.read_text()
    assert done.stderr.splitlines() == [f"this run logged warnings: {log_file}"]


async def test_the_revealed_seed_names_the_consoles_own_verify(tmp_path: Path) -> None:
    """The seed line at a game's end tells how to check its coin toss with the table's own
    command, `verify` (Discord's words name `/verify`; it said a bare "verify" to both)."""
    script = "alice: challenge bob morris\nbob: accept\nalice: resign\nquit\n"
    out = io.StringIO()
    assert await play(str(tmp_path / "c.db"), io.StringIO(script), out, None, render=False) == 0
    text = out.getvalue()
    assert "check the coin toss, this game's only roll, with `verify`)" in text, text
    assert "`/verify`" not in text


async def test_the_coin_toss_names_the_consoles_own_verify(tmp_path: Path) -> None:
    """The coin toss says it is the game's first roll and how the table checks it, `verify`,
    as Discord names `/verify` (it said "verifiable roll 0 of this game": jargon)."""
    script = "alice: challenge bob morris\nbob: accept\nquit\n"
    out = io.StringIO()
    assert await play(str(tmp_path / "c.db"), io.StringIO(script), out, None, render=False) == 0
    (line,) = [x for x in out.getvalue().splitlines() if x.startswith("Coin toss")]
    assert re.fullmatch(
        r"Coin toss: (alice|bob) moves first \(the game's first roll, which `verify` checks\)\.",
        line,
    ), line


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_help_says_morris_points_are_also_letters_and_its_example_plays(
    tmp_path: Path, lang: str
) -> None:
    """The engine takes the original rules' letters for Morris points, but the console's help
    never said so (a player's finding): it does in every language, and its example, ``place
    b``, places a man on d7 at the console."""
    help_text = words(lang).t("help.console")
    assert "A..X" in help_text and "place b" in help_text and "place d7" in help_text
    assert "rules morris" in help_text  # where each letter's point is told
    script = "alice: challenge bob morris first me\nbob: accept\nalice: place b\n"
    text = await run_table(tmp_path, script)
    assert "alice (White) places d7." in text, text
