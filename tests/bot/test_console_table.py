"""The console table as players and operators hit it (issue 12): names across restarts, the
moderator, names of any script, lines that must not end the table, files that never collide,
rules, echoed scripts and the whole list of legal moves. Real SQLite files, scripted stdin."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from bot.clock import ManualClock
from bot.config import Config
from bot.console.table import UNEXPECTED, ConsoleTable, open_table, play, run_console
from bot.referee.names import CONSOLE_IDS, console_id, name_problem
from bot.rules_text import RULES
from bot.rules_text import console as console_summary
from translations import words

ROOT = Path(__file__).resolve().parents[2]


async def table(db: Path, script: str, *, render: bool = False, images: Path | None = None) -> str:
    """One run of the table on ``db``: open, play the script, close (a restart between calls)."""
    out = io.StringIO()
    status = await play(str(db), io.StringIO(script), out, images, render=render, echo=True)
    text = out.getvalue()
    assert status == 0 and text.rstrip().endswith("bye"), text
    assert UNEXPECTED not in text, text
    return text


def console(db: Path, script: str | bytes, **environ: str) -> subprocess.CompletedProcess[bytes]:
    """``python -m bot console`` as an operator runs it, the script piped in."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(REFEREE_DB=str(db), PYTHONPATH=str(ROOT), TMPDIR=str(db.parent), **environ)
    data = script.encode() if isinstance(script, str) else script
    return subprocess.run(
        [sys.executable, "-m", "bot", "console"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


# --- 1. a name is the same player after a restart -----------------------------------------------


async def test_names_keep_their_players_across_a_restart_in_any_order(tmp_path: Path) -> None:
    db = tmp_path / "same.db"
    first = await table(
        db, "alice: challenge bob atmalof first me rated\nbob: accept\nalice: drop row 4\nquit\n"
    )
    assert "alice (Red) announces row 4" in first
    # After the restart bob speaks first, and the names are spelt differently.
    second = await table(db, "Bob: drop row 7\nALICE: resign\nstats alice\nstats bob\n")
    assert "bob (Blue) announces row 7" in second  # the names the game was started with
    assert "bob (Blue) wins (alice (Red) resigned)" in second
    alice, bob = second.split("> stats alice")[1].split("> stats bob")
    assert "Record (rated): 0W 1L 0D" in alice
    assert "Record (rated): 1W 0L 0D" in bob
    third = await table(db, "carol: stats bob atmalof\n")  # bob has not spoken in this run
    assert "Record (rated): 1W 0L 0D" in third and "bob, season 1" in third


def test_a_real_restart_of_python_m_bot_keeps_who_is_who(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    done = console(db, "alice: challenge bob morris first me\nbob: accept\nalice: place d7\n")
    assert done.returncode == 0, done.stderr
    again = console(db, "bob: place a1\nalice: place g7\nbob: resign\n")
    out = again.stdout.decode()
    assert again.returncode == 0, again.stderr
    assert "bob (Black) places a1" in out or "bob (Black) places on a1" in out, out
    assert "Game over: alice (White) wins (bob (Black) resigned)." in out


async def test_a_game_left_unfinished_is_shown_when_the_table_opens_again(tmp_path: Path) -> None:
    db = tmp_path / "left.db"
    first = await table(db, "alice: challenge bob morris first me\nbob: accept\nalice: place d7\n")
    assert "still being played" not in first  # nothing was left before this run
    second = await table(db, "quit\n")
    banner, left = second.split("A game from an earlier run is still being played at this table")
    assert "Console table" in banner and left.startswith(": play on, or resign it")
    assert "bob (Black) to move" in left and "White 8 in hand, ● Black 9 in hand" in left
    third = await table(db, "bob: resign\nquit\n")
    fourth = await table(db, "quit\n")
    assert "still being played" in third and "still being played" not in fourth


async def test_the_table_opened_again_says_who_plays_and_what_waits(tmp_path: Path) -> None:
    """The players and game lead the board, a draw offer waiting for its answer is said, and
    so is a practice game's level."""
    db = tmp_path / "left.db"

    async def left_after(script: str) -> str:
        """What the table says when opened again after ``script``, about the game left."""
        await table(db, script)
        return (await table(db, "quit\n")).split("still being played at this table")[1]

    left = await left_after(
        "alice: challenge bob morris first me\nbob: accept\nalice: place d7\nalice: draw\n"
    )
    assert "Nine Men's Morris: alice (White) vs bob (Black).\n" in left
    assert (
        "alice (White) has offered a draw: bob (Black) may accept or decline it. (to answer, "
        "type `bob: draw accept` or `bob: draw decline`)"
    ) in left
    left = await left_after("bob: draw decline\nbob: place a7\nbob: takeback\n")
    assert (
        "bob (Black) has asked to take back their last turn: alice (White) may allow or refuse "
        "it. (to answer, type `alice: takeback accept` or `alice: takeback decline`)"
    ) in left
    left = await left_after("bob: resign\nalice: practice atmalof 2 first me\n")
    assert "Atmalof: alice (Red) vs bot (Blue)." in left
    assert "Practice: alice plays the bot at level 2. Never rated." in left


async def test_an_open_challenge_asks_anyone_to_accept_and_its_challenger_to_withdraw(
    tmp_path: Path,
) -> None:
    """Anyone accepts an open challenge, only its challenger declines it: the hint said
    "`name: decline`" to everyone, and a stranger's decline was then refused."""
    script = "carol: challenge anyone morris\ncarol: accept\ndave: accept\n"
    text = await table(tmp_path / "o.db", script)
    hint = "(to accept, type `name: accept`; the challenger withdraws it with `carol: decline`)"
    assert hint in text and "or `name: decline`" not in text, text
    own = text.split("> carol: accept\n")[1].split("\n")[0]  # the console's own command
    assert own.endswith("you cannot accept your own challenge (`decline` withdraws it)"), own
    assert "Nine Men's Morris: " in text.split("> dave: accept")[1]


async def test_a_challenge_left_waiting_is_shown_with_who_answers_it(tmp_path: Path) -> None:
    db = tmp_path / "left.db"
    await table(db, "alice: challenge bob abalone first me\n")
    again = await table(db, "quit\n")
    waiting = again.split("A challenge from an earlier run is still waiting for its answer")[1]
    assert "alice challenges bob to Abalone, casual, no clock;" in waiting
    assert "(to answer, type `bob: accept` or `bob: decline`)" in waiting  # not `name:`
    await table(db, "bob: accept\n")
    started = await table(db, "quit\n")
    assert "still being played" in started and "waiting for its answer" not in started


def test_the_folder_is_said_before_the_game_left_unfinished(tmp_path: Path) -> None:
    db = tmp_path / "left.db"
    assert console(db, "alice: challenge bob atmalof first me\nbob: accept\n").returncode == 0
    out = console(db, "quit\n").stdout.decode()
    assert out.index("Console table") < out.index("(Pictures") < out.index("earlier run"), out
    assert "alice (Red) to move" in out, out


def test_console_ids_are_stable_and_never_discord_ids() -> None:
    assert console_id("Zoë") == console_id("zoë") == console_id("ZOË") == console_id("zoe\u0308")
    assert console_id("alice") != console_id("bob")
    assert 0 < console_id("alice") < CONSOLE_IDS < 80351110224678912  # Discord's first user id


# --- 2. the console's moderator -----------------------------------------------------------------

DISPUTED = (
    "alice: challenge bob morris first me\nbob: accept\nalice: place d7\nbob: place a1\n"
    "alice: dispute bob is slow\n"
)


async def test_a_dispute_survives_a_restart_and_the_referee_resumes_it(tmp_path: Path) -> None:
    db = tmp_path / "d.db"
    first = await table(db, DISPUTED)
    assert "alice (White) opened a dispute: bob is slow" in first
    assert "`referee: resume`" in first  # how the moderator is called here
    second = await table(db, "alice: place g7\nreferee: rewind 1 looking\nreferee: resume ok\n")
    assert "frozen for a dispute" in second
    assert "Moderator referee rewinds game 1 (looking): the position after action 1: place d7;" in (
        second
    )
    assert "Moderator referee resumes the game (ok)" in second
    third = await table(db, "alice: place g7\n")
    assert "alice (White) places" in third and "(refused)" not in third


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("void no fault", "Game over: no result (voided by moderator referee: no fault)."),
        ("abort gone", "Game over: no result (aborted by moderator referee: gone)."),
        ("award bob stalling", "Game over: bob (Black) wins (decided by moderator referee: "),
        ("award draw both right", "Game over: a draw (decided by moderator referee: both right)"),
        (
            "restore 1 agreed",
            "Moderator referee restores the game to action 1 (agreed): place a1 left the game",
        ),
    ],
)
async def test_the_referee_speaker_decides_a_disputed_game(
    tmp_path: Path, command: str, said: str
) -> None:
    text = await table(tmp_path / "m.db", DISPUTED + f"referee: {command}\n")
    assert said in text, text


async def test_the_referee_awards_to_a_player_who_has_not_spoken_since_a_restart(
    tmp_path: Path,
) -> None:
    await table(tmp_path / "w.db", DISPUTED)
    text = await table(tmp_path / "w.db", "referee: award bob stalling\n")
    assert "Game over: bob (Black) wins (decided by moderator referee: stalling)." in text


async def test_players_cannot_use_the_moderators_commands(tmp_path: Path) -> None:
    script = DISPUTED + "bob: referee void mine\nbob: referee resume\n"
    text = await table(tmp_path / "m.db", script)
    assert text.count("(refused) only moderators can do that") == 2


async def test_moderator_settings_and_help(tmp_path: Path) -> None:
    text = await table(
        tmp_path / "s.db",
        "referee: settings\nreferee: theme light\nreferee: season-close\nhelp\nreferee: rewind ²\n",
    )
    assert "Board theme: dark (default)" in text and "Ladders: one ladder per game" in text
    assert "(refused) settings belong to a server" in text  # the referee's own answer
    assert "(refused) nothing changed: `season-close confirm` closes the season" in text
    help_text = text.split("Moderator (type them as `referee: command`")[1]
    for word in ("abort", "award", "void", "rewind", "restore", "resume", "settings", "theme"):
        assert word in help_text, word
    assert "(refused) rewind to which action?" in text


# --- 3. names of any script ---------------------------------------------------------------------


async def test_names_in_any_script_are_players_and_others_are_refused(tmp_path: Path) -> None:
    script = (
        "zoë: challenge Ágnes morris first me\nÁgnes: accept\nzoe\u0308: place d7\n"
        "ÁGNES: place a1\n🎲: place g7\nzoë: place g7\nx" + "y" * 32 + ": place a4\n"
        "名前: help\n"
    )
    text = await table(tmp_path / "n.db", script)
    assert "zoë challenges Ágnes to Nine Men's Morris" in text
    assert "zoë (White) places d7" in text and "Ágnes (Black) places a1" in text
    assert "(refused) a name cannot start with '🎲': a name is letters and digits" in text
    assert "(refused) a name has at most 32 characters ('xyyy" in text
    assert "who is speaking" not in text
    assert text.count("(White) places") == 2  # 🎲's line moved nothing; zoë's g7 did


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("zoë", True),
        ("Ágnes", True),
        ("Þórr", True),
        ("名前", True),
        ("अनिल", True),  # vowel signs are marks after a letter
        ("mary-jane", True),
        ("r2d2", True),
        ("🎲", False),
        ("a b", False),
        ("-x", False),
        ("a" * 33, False),
        ("anyone", False),
        ("x²", False),
    ],
)
def test_what_a_name_may_be(name: str, ok: bool) -> None:
    assert (name_problem(name) is None) is ok


async def test_a_name_that_cannot_be_used_is_refused_in_the_tables_language(tmp_path: Path) -> None:
    """The console's refusals of a name are said like any other refusal (issue 15)."""
    out = io.StringIO()
    script = "🎲: help\nbot: challenge alice morris\nanyone: help\nx" + "y" * 40 + ": help\n"
    status = await play(str(tmp_path / "hu.db"), io.StringIO(script), out, None, render=False,
                        echo=True, lang="hu")  # fmt: skip
    text = out.getvalue()
    assert status == 0
    assert "a név nem kezdődhet így: „🎲”" in text
    assert "„bot” itt a gyakorló ellenfél neve" in text
    assert "„anyone” itt nyílt kihívást jelent" in text
    assert "a név legfeljebb 32 karakter lehet („xyyy" in text
    assert "(refused)" not in text and "cannot" not in text, text


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "(refused) unknown game 'chess': choose one of atmalof, morris, abalone"),
        ("hu", "(elutasítva) nincs ilyen játék: „chess”; válassz: atmalof, morris, abalone"),
        ("eo", "ne ekzistas ludo „chess“: elektu unu el atmalof, morris, abalone"),
        ("is", "ekkert spil heitir „chess“: veldu eitt af atmalof, morris, abalone"),
    ],
)
async def test_a_challenge_to_an_unknown_game_is_refused_in_the_tables_language(
    tmp_path: Path, lang: str, said: str
) -> None:
    """The Hungarian table answered "(elutasítva) unknown game 'chess': choose one of ...": the
    engine's reason (unknown_game) has its sentence in every catalog."""
    out = io.StringIO()
    status = await play(str(tmp_path / "g.db"), io.StringIO("alice: challenge bob chess\n"), out,
                        None, render=False, echo=True, lang=lang)  # fmt: skip
    text = out.getvalue()
    assert status == 0 and said in text, text
    assert lang == "en" or "unknown game" not in text, text


# --- 4. no line ends the table ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("alice: accept ²", "`accept` alone answers the challenge waiting here"),
        ("alice: decline ²", "`decline` alone answers the challenge waiting here"),
        ("alice: history ²", "`history` takes a page number"),
        ("alice: accept 99999999999999999999", "there is no challenge 99999999999999999999 here"),
        ("alice: decline 99999999999999999999", "there is no challenge 99999999999999999999"),
        ("alice: history 99999999999999999999", "`history` takes a page number"),
        ("referee: rewind 99999999999999999999", "rewind to which action?"),
        ("alice: import a\x00b", "that is not a file name"),
        ("alice: moves ²", "`moves` takes a page number"),
    ],
)
async def test_lines_that_crashed_the_console_get_a_reason(
    tmp_path: Path, line: str, reason: str
) -> None:
    text = await table(tmp_path / "c.db", f"alice: challenge bob atmalof\n{line}\nalice: help\n")
    assert reason in text, text
    assert "Commands (type them as" in text  # the table went on after the line


@pytest.mark.parametrize("encoding", ["", "utf-8"])
def test_bytes_that_are_not_utf8_do_not_end_the_console(tmp_path: Path, encoding: str) -> None:
    """Read strictly (PYTHONIOENCODING=utf-8, as many containers set it) they raised; read
    with surrogates (the default) they reached SQLite, which refused them."""
    script = b"alice: challenge bob morris first me\nbob: accept\n"
    script += b"alice: dispute \xff\xfe\n\xc3(: x\nhelp\n"
    done = console(tmp_path / "u.db", script, PYTHONIOENCODING=encoding)
    out = done.stdout.decode()
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert "alice (White) opened a dispute: \ufffd\ufffd" in out
    assert "(refused) a name cannot start with '\ufffd'" in out
    assert out.count("Commands (type them as") == 1


HEADS = str.split(
    "challenge accept decline withdraw draw takeback resign abort claim dispute referee import "
    "rules rematch board history record replay verify moves legal ladder stats theme drop move "
    "place remove push fly award void rewind restore resume settings season-close"
)
ARGS = str.split(
    "² 99999999999999999999 -1 0 1 7 accept no row col d7 c3 ne 3,4 x bob zoë 🎲 anyone morris "
    "rated clock 10+5 first confirm draw \x00"
)
SPEAKERS = ("alice", "bob", "referee", "zoë", "carol", "🎲", "", "a b", "x" * 40)
LINE = st.one_of(
    st.builds(
        lambda who, head, args: f"{who}: {head} {' '.join(args)}" if who else f"{head} {args}",
        st.sampled_from(SPEAKERS),
        st.sampled_from(HEADS),
        st.lists(st.sampled_from(ARGS), max_size=4),
    ),
    st.text(max_size=60).map(lambda t: t.replace("\n", " ").replace("\r", " ")),
).filter(lambda line: line.split(":")[-1].strip().lower() not in ("quit", "exit"))
START = {
    "atmalof": "alice: challenge bob atmalof first me\nbob: accept\n",
    "morris": "alice: challenge bob morris first me\nbob: accept\nalice: place d7\n",
    "abalone": "alice: challenge bob abalone first me\nbob: accept\n",
}


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.sampled_from(sorted(START)), st.lists(LINE, max_size=12))
def test_random_lines_never_end_the_console(game: str, lines: list[str]) -> None:
    """Whatever is typed, the table answers each line and goes on to the end of the input;
    nothing reaches the catch-all (an unexpected error would be a bug to fix)."""
    with tempfile.TemporaryDirectory() as folder:
        script = START[game] + "".join(line + "\n" for line in lines) + "alice: help\n"
        text = asyncio.run(table(Path(folder) / "f.db", script))
    assert text.count("Commands (type them as") >= 1


# --- 5. files never collide ---------------------------------------------------------------------

GAME = "alice: challenge bob morris first me\nbob: accept\nalice: place d7\nbob: record\n"


def images_of(text: str) -> dict[Path, bytes]:
    paths = [Path(p) for p in re.findall(r"\((?:image|file): (.+)\)", text)]
    return {p: p.read_bytes() for p in paths}


def test_two_consoles_on_two_databases_never_share_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the runs' folders go there
    runs = []
    for name in ("one.db", "two.db"):
        out = io.StringIO()
        config = Config.from_env({"REFEREE_DB": str(tmp_path / name)})
        assert run_console(config, io.StringIO(GAME), out) == 0
        runs.append(images_of(out.getvalue()))
    first, second = runs
    assert first and second and not set(first) & set(second)
    assert {p.name for p in first} == {p.name for p in second}  # the same game in each
    for path, data in first.items():  # the second run wrote nothing over the first one's
        assert path.read_bytes() == data
    assert len({p.parent for p in (*first, *second)}) == 2


async def test_a_run_never_writes_over_its_own_files_nor_outside_its_folder(
    tmp_path: Path,
) -> None:
    out = io.StringIO()
    folder = tmp_path / "run"
    shown = ConsoleTable.__new__(ConsoleTable)
    shown.image_dir = folder
    first = shown.save("import-7.png", b"one record")
    same = shown.save("import-7.png", b"one record")
    other = shown.save("import-7.png", b"another record")
    escaped = shown.save("../../evil.png", b"x")
    assert first == same and other != first and other.name == "import-7-2.png"
    assert first.read_bytes() == b"one record" and other.read_bytes() == b"another record"
    assert escaped.parent == folder and not (tmp_path / "evil.png").exists()
    assert out.getvalue() == ""


# --- 6. rules and usage -------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(RULES))
async def test_rules_at_the_console_are_the_discord_summary(tmp_path: Path, game: str) -> None:
    text = await table(tmp_path / "r.db", f"rules\nalice: rules {game}\n")
    assert "(refused) rules of which game? rules atmalof | rules morris | rules abalone" in text
    title, summary = RULES[game]
    assert f"{title}: the rules\n{console_summary(summary)}" in text
    assert "**" not in text


@pytest.mark.parametrize("game", sorted(RULES))
async def test_rules_at_the_console_give_commands_as_typed_at_the_console(
    tmp_path: Path, game: str
) -> None:
    """No Discord slash command or option at the table: each example is a line it takes."""
    text = await table(tmp_path / "r.db", f"alice: rules {game}\n")
    assert not re.search(r"(^|[\s(])/[a-z]", text), text
    assert "remove:" not in text and "referee: settings" in text
    if game == "morris":
        assert "move d6 d7 x b6" in text


async def test_rules_during_a_custom_game_say_how_the_game_here_differs(tmp_path: Path) -> None:
    script = (
        "alice: challenge bob atmalof custom rows=5 cols=5 line=4 pieces=8 first me\n"
        "bob: accept\nalice: rules atmalof\nalice: rules morris\n"
    )
    text = await table(tmp_path / "r.db", script)
    atmalof = text.split("> alice: rules atmalof")[1].split("> alice: rules morris")[0]
    assert "The game being played here is Atmalof (custom).\n" in atmalof
    assert "Not the defaults: " in atmalof and "rows=5" in atmalof and "line=4" in atmalof
    assert "being played here" not in text.split("> alice: rules morris")[1]
    dice = (
        "The dice here: announcing a row rolls 1 to 4 for its column, announcing a column rolls "
        "1 to 4 for its row."  # one row and one column beyond the die, as in the standard game
    )
    assert text.count(dice) == 3, text  # the challenge, the start and the rules say it


async def test_rules_during_a_variant_describe_that_variant(tmp_path: Path) -> None:
    """Twelve Men's Morris and Junior Atmalof are told as themselves: their own board, men and
    dice, with no "its junior variant" line after the standard game's rules."""
    script = (
        "alice: challenge bob morris twelve first me\nbob: accept\nalice: rules\n"
        "alice: resign\nalice: challenge bob atmalof junior first me\nbob: accept\n"
        "bob: rules atmalof\n"
    )
    text = await table(tmp_path / "r.db", script)
    twelve = text.split("> alice: rules")[1].split("> alice: resign")[0]
    assert "Twelve Men's Morris: the rules\n24 points on three nested squares" in twelve
    assert "twelve men each" in twelve and "nine men" not in twelve
    assert "A board full once all are placed is a draw" in twelve
    assert "move d6 d7 x b6" in twelve and "variant" not in twelve
    junior = text.split("> bob: rules atmalof")[1]
    assert "Junior Atmalof: the rules\nA 6 × 6 board, Red and Blue with 16 pieces each" in junior
    assert "every square can be rolled" in junior and "(7,7)" not in junior
    assert "The dice here" not in junior and "variant.\n" not in junior


async def test_the_standard_and_junior_dice_are_said_only_where_they_differ(tmp_path: Path) -> None:
    script = (
        "alice: challenge bob atmalof first me\nbob: accept\nalice: resign\n"
        "alice: challenge bob atmalof junior first me\nbob: accept\n"
    )
    text = await table(tmp_path / "r.db", script)
    standard, junior = text.split("> alice: resign")
    assert "The dice here" not in standard
    assert junior.count("announcing a row rolls 1 to 6 for its column") == 2, junior


async def test_rules_without_a_game_are_those_of_the_game_here(tmp_path: Path) -> None:
    """Whoever types ``rules`` at a table with a game (or a challenge) means that game's."""
    script = "alice: challenge bob morris flying=off\ncarol: rules\nbob: accept\nbob: rules\n"
    text = await table(tmp_path / "r.db", script)
    waiting = text.split("> carol: rules")[1].split("> bob: accept")[0]
    assert "Nine Men's Morris: the rules" in waiting and "(refused)" not in waiting
    during = text.split("> bob: rules")[1]
    assert "Nine Men's Morris: the rules" in during
    assert during.rstrip().endswith("Not the defaults: flying=off.\nbye"), during[-200:]


async def test_import_without_a_path_gives_its_usage(tmp_path: Path) -> None:
    text = await table(tmp_path / "i.db", "alice: import\n")
    assert "(refused) import which file? `import <path>`" in text
    assert "no game running" not in text


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
async def test_a_record_says_how_to_check_it_at_this_table_and_that_works(
    tmp_path: Path, lang: str
) -> None:
    """`record` named Discord's /import (or only the shell's checker) at a table whose own
    command is `import <path>`: it says the console's way, in the table's language, and the
    path it prints is the one `import` takes."""
    images = tmp_path / "files"
    path = images / "game-1.json"
    script = (
        "alice: challenge bob morris first me\nbob: accept\nalice: place d7\nbob: resign\n"
        f"carol: record\ncarol: import {path}\n"
    )
    out = io.StringIO()
    db = str(tmp_path / "rec.db")
    status = await play(db, io.StringIO(script), out, images, echo=True, lang=lang)
    text = out.getvalue()
    assert status == 0 and UNEXPECTED not in text, text
    said = text.split("> carol: record\n")[1].split("> carol: import")[0]
    w = words(lang)
    assert said.startswith(w.t("console.record_finished", id=1, program="referee-verify")), said
    assert "/import" not in said and w.t("console.file", path=str(path)) in said
    imported = text.split("> carol: import")[1]
    assert "(refused)" not in imported and w.t("verify.ok", reason="") in imported, imported


# --- 7. a piped script is echoed ----------------------------------------------------------------


def test_piped_input_is_echoed_before_each_answer(tmp_path: Path) -> None:
    done = console(tmp_path / "e.db", "alice: challenge bob atmalof\n# a comment\nbob: accept\n")
    lines = done.stdout.decode().splitlines()
    asked = lines.index("> alice: challenge bob atmalof")
    assert lines[asked + 1].startswith("alice challenges bob to Atmalof")
    assert "> # a comment" in lines and "> bob: accept" in lines


# --- 9. every legal move, paged -----------------------------------------------------------------


async def test_moves_lists_all_44_abalone_openings_with_the_count(tmp_path: Path) -> None:
    text = await table(
        tmp_path / "a.db", "alice: challenge bob abalone first me\nbob: accept\nalice: moves\n"
    )
    rules = engine.get_game("abalone")
    state = rules.new("standard")
    expected = {rules.notation(state, a) for a in rules.legal(state)}
    listed = text.split("alice: 44 legal moves:\n")[1].split("\nbye")[0]
    assert {m.strip() for m in listed.replace("\n", " ").split(",")} == expected
    for line in listed.splitlines():  # a move is never split across two lines
        assert {m.strip() for m in line.rstrip(",").split(",")} <= expected, line
    assert len(expected) == 44


async def test_moves_pages_through_a_long_list(tmp_path: Path) -> None:
    script = (
        "alice: challenge bob abalone german-daisy first me\nbob: accept\nalice: moves\n"
        "alice: moves 2\nalice: legal push b1\nbob: moves\nalice: moves 7\n"
    )
    text = await table(tmp_path / "g.db", script)
    assert "alice: 80 legal moves (page 1 of 2; `moves 2` for the next):" in text
    page2 = text.split("alice: 80 legal moves (page 2 of 2):\n")[1].split("[private]")[0]
    assert len(page2.replace("\n", " ").split(",")) == 20
    past = text.split("> alice: moves 7\n")[1]  # the last page, and that it is not page 7
    assert past.startswith(
        "[private] alice: 80 legal moves (page 2 of 2):\n(there is no page 7: this is the last)\n"
    ), past[:200]
    assert "legal moves match 'push b1':" in text
    assert "bob: moves\n[private] (refused) alice (Black) is to move, not you" in text


async def test_a_name_of_two_words_is_told_to_be_one(tmp_path: Path) -> None:
    """ "Alice Smith: drop row 3" was read as a command called 'alice'; a command whose own
    text holds a colon after its first word (a dispute's reason) is still a command."""
    script = (
        "Alice Smith: challenge bob morris\nalice: challenge bob morris first me\nbob: accept\n"
        "dispute reason: he played twice\n"  # bob, who spoke last
    )
    text = await table(tmp_path / "n.db", script)
    said = "(refused) a name is one word, without spaces: type `Alice_Smith: challenge bob morris`"
    assert said in text and "unknown command" not in text, text
    assert "bob (Black) opened a dispute: reason: he played twice" in text, text


async def test_a_reopened_table_shows_the_clocks_given_back_not_the_outage(
    tmp_path: Path,
) -> None:
    """After a restart the table showed the board with the outage taken off the clock, then
    the notice giving the time back, then the board again (a player's finding): only the
    clock given back is shown now."""
    clock, db = ManualClock(), str(tmp_path / "c.db")
    first = await open_table(db, io.StringIO(), None, render=False, clock=clock)
    await first.greet()
    for line in ("alice: challenge bob atmalof clock 5+10 first me", "bob: accept"):
        await first.line(line)
    clock.advance(3)
    await first.line("alice: drop row 4")  # bob's turn, with 5:00
    await first.close()
    clock.advance(40)  # the table was closed for 40 s
    out = io.StringIO()
    second = await open_table(db, out, None, render=False, clock=clock)
    await second.greet()
    await second.close()
    text = out.getvalue()
    assert "bob (Blue) starts the turn again with 5:00 on the clock" in text, text
    assert text.count("Clocks:") == 1 and "Clocks: Red 5:07, Blue 5:00" in text, text
    unfinished = text.index("A game from an earlier run is still being played")
    assert unfinished < text.index("was offline"), text


async def test_a_line_without_a_name_before_its_colon_is_nobody_s(tmp_path: Path) -> None:
    """ ": place d7" was played by whoever spoke last, and nothing said so."""
    script = "alice: challenge bob morris first me\nbob: accept\n: place d7\nalice: board\n"
    text = await table(tmp_path / "n.db", script)
    said = "(refused) a line starts with the speaker's name and a colon: type `name: place d7`"
    assert said in text and "places d7" not in text, text


async def test_a_busy_table_says_what_each_person_can_do_about_it(tmp_path: Path) -> None:
    """The challenged is told to answer; a player who has moved is told to finish or resign,
    one who has not that abort ends the game; a rematch asked while another game runs here is
    refused as a busy table, not as 'not playing in this game' (a player's finding)."""
    script = (
        "alice: challenge bob morris first me\nbob: practice atmalof\nbob: accept\n"
        "alice: place d7\nalice: practice atmalof\nbob: practice atmalof\nalice: resign\n"
        "carol: practice atmalof 1 first me\nalice: rematch\n"
    )
    text = await table(tmp_path / "b.db", script)

    def after(line: str) -> str:
        return text.split(f"> {line}\n")[1].split("\n")[0]

    busy = "[private] (refused) this table is busy: "
    said = "alice's challenge to you is waiting here: `accept` or `decline` it"
    assert after("bob: practice atmalof") == busy + said
    moved = "your game here is still being played: finish it first, or resign it"
    assert after("alice: practice atmalof") == busy + moved
    unmoved = "your game here is still being played, and you have not moved yet: `abort` ends it"
    assert text.split("> bob: practice atmalof\n")[2].startswith(f"{busy}{unmoved}"), text
    running = "a game is being played here (carol vs bot): wait for it to end"
    assert after("alice: rematch") == busy + running


async def test_the_moderator_plays_no_game(tmp_path: Path) -> None:
    """`referee:` rules on the table's disputes, so it may not sit at a game: challenging,
    practising or accepting as it is refused, and nothing starts; a player's command or move
    in a game is refused with the same reason, not "you are not playing in this game"."""
    script = (
        "referee: challenge bob atmalof\nreferee: practice morris\n"
        "alice: challenge anyone abalone\nreferee: accept\nalice: board\n"
        "bob: accept\nreferee: draw\nreferee: push a1 a3 ne\nreferee: resign\n"
    )
    text = await table(tmp_path / "m.db", script)
    for word in ("challenge", "practice", "accept", "draw", "push", "resign"):
        said = (
            "(refused) `referee:` speaks for the moderator, who rules on disputes and plays no"
            f" game here: type `{word}` after a player's name, as in `alice: {word} …`"
        )
        assert said in text, (word, text)
    assert "referee challenges" not in text and "vs referee" not in text, text
    board = text.split("> alice: board\n")[1]
    assert board.startswith("[private] (refused) the game has not started"), board
    assert "not playing in this game" not in text and "offers a draw" not in text, text


async def test_help_with_a_topic_shows_the_entries_that_name_it(tmp_path: Path) -> None:
    text = await table(tmp_path / "h.db", "alice: help takeback\nhelp rewind\nhelp zzz\n")
    takeback = text.split("> alice: help takeback\n")[1].split("> help rewind")[0]
    assert takeback == (
        "[private] Commands (type them as `name: command` at the console):\n"
        "  takeback [accept|decline]    ask to take back your last turn, or answer (casual games)\n"
    ), takeback
    rewind = text.split("> help rewind\n")[1].split("> help zzz")[0]
    assert rewind.startswith("[private] Moderator (type them as `referee: command`"), rewind
    assert "rewind <N> [reason]" in rewind and "challenge" not in rewind
    whole = text.split("> help zzz\n")[1]  # a topic no entry names: said, then the whole help
    assert whole.startswith("[private] Nothing in the help mentions 'zzz'; here is all of it:\n")
    assert "challenge <name|anyone>" in whole and "rewind <N>" in whole


async def test_a_line_without_its_colon_says_how_to_type_it(tmp_path: Path) -> None:
    script = "alice: challenge bob morris first me\nbob: accept\nalice place d7\n"
    text = await table(tmp_path / "c.db", script)
    said = "(refused) a line starts with the speaker's name and a colon: type `alice: place d7`"
    assert said in text
    assert "alice: place d7`" in text and "unknown command 'alice'" not in text, text


async def test_the_one_reason_and_the_consoles_own_commands(tmp_path: Path) -> None:
    script = (
        "carol: moves\nalice: challenge bob morris first me\nbob: moves\nbob: accept\n"
        "carol: moves\nalice: resign\nbob: moves\ncarol: rematch\n"
    )
    text = await table(tmp_path / "g.db", script)
    private = "[private] (refused) "
    refused = [line[len(private) :] for line in text.splitlines() if line.startswith(private)]
    assert refused == [
        "there is no game running here: challenge someone (`challenge <name> <game>`), or "
        "practise against the bot (`practice <game>`)",
        "the game has not started: the challenge waiting here must be accepted first",
        "you are not playing in this game (alice vs bob)",
        "your game here has ended: bob (Black) wins (alice (White) resigned); ask for a rematch, "
        "or challenge someone",
        "only the players of the last game here (alice vs bob) can ask for its rematch: challenge "
        "someone (`challenge <name> <game>`), or practise against the bot (`practice <game>`)",
    ], text


async def test_a_store_the_sweeps_cannot_reach_is_said_once_not_as_a_lost_move(
    tmp_path: Path,
) -> None:
    """With the database unreachable, every idle sweep (2 s) printed "the referee can't save
    right now, so your move was not recorded" though nobody moved (an operator's finding): it
    is said once, as the store being away, until a sweep reaches the store again."""
    clock, db = ManualClock(), str(tmp_path / "s.db")
    out = io.StringIO()
    t = await open_table(db, out, None, render=False, clock=clock)
    try:
        for line in ("alice: challenge bob morris clock 1+0 first me", "bob: accept"):
            await t.line(line)
        clock.advance(61)  # alice's flag falls: the next sweep must write the result
        await t.referee.store.db.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
        start = len(out.getvalue())
        said = [await t.catch_up() for _ in range(5)]  # five idle sweeps
        away = out.getvalue()[start:]
        assert said == [1, 0, 0, 0, 0] and away.count("can't be reached") == 1, away
        assert "your move was not recorded" not in away
        await t.referee.store.db.execute("PRAGMA query_only = OFF")  # type: ignore[attr-defined]
        assert await t.catch_up() == 1 and "ran out of time" in out.getvalue()[start:]
        assert not t.store_down  # a later outage is said again
    finally:
        await t.close()


async def test_the_console_names_its_own_commands_in_the_new_refusals(tmp_path: Path) -> None:
    """A refusal that points to another command names it as the table types it (`abort`),
    not as a Discord slash command (`/abort`)."""
    script = "alice: challenge bob morris rated first me\nbob: accept\nalice: resign\n"
    text = await table(tmp_path / "r.db", script)
    assert "`abort` ends it without a result" in text and "`/abort`" not in text, text
