"""``python -m bot``'s command line: subcommands are parsed and validated before anything runs.

Sync runs the real discord.py login and ``tree.sync`` with only ``HTTPClient.request`` (the
library's transport) replaced by a recorder, so the test sees exactly which REST calls a
command line would have made.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from discord.http import HTTPClient, Route

from bot.__main__ import main
from tests.languages import english_in
from translations import words

ROOT = Path(__file__).resolve().parents[2]
APP_ID = "700000000000000001"
FAKE_TOKEN = "MTAx.fake-token.for-sync-tests"


@pytest.fixture
def discord_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Every REST call discord.py makes, answered as Discord would for a login and a sync."""
    calls: list[tuple[str, str]] = []
    bot_user = {"id": "700000000000000002", "username": "referee", "discriminator": "0"}

    async def request(self: HTTPClient, route: Route, **kwargs: Any) -> Any:
        calls.append((route.method, route.url.removeprefix(Route.BASE)))
        if route.path == "/users/@me":
            return {**bot_user, "avatar": None, "bot": True}
        if route.path == "/oauth2/applications/@me":
            return {
                "id": APP_ID,
                "name": "referee",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": {**bot_user, "avatar": None},
                "verify_key": "0" * 64,
                "flags": 0,
            }
        if route.method == "PUT" and route.path.endswith("/commands"):
            return []
        raise AssertionError(f"unexpected call {route.method} {route.path}")

    monkeypatch.setattr(HTTPClient, "request", request)
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    return calls


def puts(calls: list[tuple[str, str]]) -> list[str]:
    return [path for method, path in calls if method == "PUT"]


@pytest.mark.parametrize("bad", ["12345x", "-5", "0", "１２３", "99999999999999999999", ""])
def test_a_mistyped_server_id_syncs_nothing(
    bad: str, discord_calls: list[tuple[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sync", bad]) == 2
    assert discord_calls == []
    assert "is not a server id" in capsys.readouterr().err


def test_sync_without_a_server_or_global_syncs_nothing(
    discord_calls: list[tuple[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sync"]) == 2
    assert discord_calls == []
    assert "--global" in capsys.readouterr().err


def test_sync_to_one_server_and_global_only_when_asked(
    discord_calls: list[tuple[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["sync", "12345"]) == 0
    assert puts(discord_calls) == [f"/applications/{APP_ID}/guilds/12345/commands"]
    discord_calls.clear()
    monkeypatch.setenv("DEV_GUILD_ID", "777")
    assert main(["sync"]) == 0
    assert puts(discord_calls) == [f"/applications/{APP_ID}/guilds/777/commands"]
    discord_calls.clear()
    assert main(["sync", "--global"]) == 0
    assert puts(discord_calls) == [f"/applications/{APP_ID}/commands"]
    discord_calls.clear()
    assert main(["sync", "12345", "--global"]) == 2  # one or the other
    assert discord_calls == []


@pytest.mark.parametrize(
    "argv", [["nonsense"], ["run", "extra"], ["store"], ["store", "forget"], ["sync", "1", "2"]]
)
def test_unknown_or_incomplete_commands_are_usage_errors(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(argv) == 2
    assert "usage: python -m bot" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["run", "extra"], "usage: python -m bot run [-h]"),
        (["sync", "1", "2"], "usage: python -m bot sync [-h] [--global] [guild]"),
        (["store", "forget", "--guild", "1", "--bogus"], "usage: python -m bot store forget [-h]"),
        (["store", "check", "x"], "usage: python -m bot store check [-h] [--db DB]"),
        (["store", "copy", "--to", "postgresql://h/x", "y"], "usage: python -m bot store copy "),
        (["ladder", "rebuild", "extra"], "usage: python -m bot ladder rebuild [-h]"),
        (["health", "x"], "usage: python -m bot health [-h]"),
        (["--bogus"], "usage: python -m bot [-h] COMMAND ..."),  # no subcommand: the top's
    ],
)
def test_a_stray_argument_shows_its_subcommands_usage(
    argv: list[str],
    usage: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """They showed `usage: python -m bot [-h] COMMAND ...`, which says nothing of what the
    subcommand takes (parse_args: the top parser reports what a subparser left over)."""
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "nothing-opened.db"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    first, *_, last = err.splitlines()
    assert first.startswith(usage), err
    assert last.endswith(f"error: unrecognized arguments: {argv[-1]}"), err
    assert out == "" and not (tmp_path / "nothing-opened.db").exists()


def test_ladder_subcommands_still_reach_the_ladder_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "l.db"))
    assert main(["ladder", "rebuild", "--check"]) == 3  # no database there: none is made
    assert not (tmp_path / "l.db").exists()
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["console"]) == 0  # the bot itself makes it
    capsys.readouterr()
    assert main(["ladder", "rebuild", "--check"]) == 0
    assert "no differences" in capsys.readouterr().out
    assert main(["ladder", "rebuild", "--guild", "x"]) == 2


def env_without_token(tmp_path: Path, lang: str = "en") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(REFEREE_DB=str(tmp_path / "e.db"), PYTHONPATH=str(ROOT), REFEREE_LANGUAGE=lang)
    return env


@pytest.mark.parametrize("lang", ["en", "eo", "hu", "is"])
def test_no_token_and_no_input_exits_non_zero_with_one_line(tmp_path: Path, lang: str) -> None:
    """As in a container started without -it: standard input is /dev/null. The line is in
    the console's language (REFEREE_LANGUAGE), the variable and the command as typed."""
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env_without_token(tmp_path, lang),
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line == words(lang).t("console.no_token_no_input")
    assert "`DISCORD_TOKEN`" in line and "`python -m bot console`" in line
    if lang == "en":
        assert line.startswith("`DISCORD_TOKEN` is not set and there is no terminal or piped")
    else:
        assert english_in(line, lang) == [], line
    assert not (tmp_path / "e.db").exists()  # it did not open the console's store either


def test_no_token_at_a_terminal_opens_the_console(tmp_path: Path) -> None:
    """``make run`` at a terminal: standard input is a tty, so the console table opens."""
    out = console_at_a_terminal(tmp_path)
    assert "`DISCORD_TOKEN` is not set" in out and "Dice commitment" in out


def test_the_no_token_banner_speaks_the_consoles_language(tmp_path: Path) -> None:
    """REFEREE_LANGUAGE=hu: the banner before the table is Hungarian, as the table is; only
    the variable, the files and the commands stay as typed."""
    out = console_at_a_terminal(tmp_path, "hu")
    banner = words("hu").t("console.no_token")
    assert out.startswith(banner), out
    assert english_in(banner, "hu") == [] and "not connecting" not in out
    assert "`DISCORD_TOKEN`" in banner and "`make run`" in banner and "README.md" in banner
    assert words("hu").t("console.banner") in out  # the table's own, after it


def console_at_a_terminal(tmp_path: Path, lang: str = "en") -> str:
    """What ``python -m bot`` prints without a token at a terminal (a pty) where two players
    start an Atmalof game and leave."""
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env_without_token(tmp_path, lang),
        )
        os.write(leader, b"alice: challenge bob atmalof\nbob: accept\nquit\n")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 0, err
    return out


@pytest.mark.parametrize(
    ("env", "name"),
    [
        ({"METRICS_PORT": "²"}, "METRICS_PORT"),
        ({"METRICS_HOST": "0.0.0.0:9100"}, "METRICS_HOST"),
        ({"METRICS_HOST": "every interface"}, "METRICS_HOST"),
        ({"PRACTICE_WORKERS": "²"}, "PRACTICE_WORKERS"),
        ({"DEV_GUILD_ID": "²"}, "DEV_GUILD_ID"),
        ({"DEV_GUILD_ID": "0"}, "DEV_GUILD_ID"),
        ({"DEV_GUILD_ID": "99999999999999999999999"}, "DEV_GUILD_ID"),
        ({"DEV_GUILD_ID": "１２３"}, "DEV_GUILD_ID"),
        ({"SHARD_COUNT": "²"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "²"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "1,1"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-2,1"}, "SHARD_IDS"),
        ({"REFEREE_DB": "postgresql://u:s3cret@[::1/db"}, "REFEREE_DB"),
        ({"REFEREE_DB": "postgresql://u:s3cret@h:notaport/db"}, "REFEREE_DB"),
        ({"REFEREE_DB": "postgresql://u:s3cret/db"}, "REFEREE_DB"),  # no @: the password as port
        ({"DISCORD_TOKEN": "MTAx.s3cret\nx"}, "DISCORD_TOKEN"),  # once aiohttp's traceback
        ({"DISCORD_TOKEN": "MTAx.s3cret\x01x"}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "Bot MTAx.s3cret"}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": '"MTAx.s3cret"'}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "MTAx.s3cret€"}, "DISCORD_TOKEN"),
    ],
)
@pytest.mark.parametrize("command", [[], ["sync"], ["console"]])
def test_a_bad_setting_is_one_line_and_exit_2(
    env: dict[str, str],
    name: str,
    command: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Never a traceback (``int('²')`` raises), never a password, never a setting half taken
    (DEV_GUILD_ID=0 once made `sync` publish to every server)."""
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert main(command) == 2
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert line.startswith("configuration error: ") and name in line, line
    assert "s3cret" not in out + err and out == ""


@pytest.mark.parametrize(
    ("name", "value"), [("DISCORD_TOKEN", "Bot abc"), ("LOG_LEVEL", "zzz"), ("SHARD_COUNT", "x")]
)
def test_the_database_commands_read_referee_db_alone(
    name: str,
    value: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bad token or log level keeps the bot from starting, and that is when the operator
    checks and backs up its file: `store check`, `store backup`, `ladder rebuild` and even
    `ladder rebuild --help` were refused with that setting's configuration error."""
    import asyncio

    from tests.bot.conftest import file_with_games

    asyncio.run(file_with_games(tmp_path / "r.db"))
    monkeypatch.setenv(name, value)
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    assert main(["store", "check"]) == 0
    assert main(["store", "backup", "--to", str(tmp_path / "b.db")]) == 0
    assert main(["ladder", "rebuild", "--check"]) == 0
    assert main(["ladder", "rebuild", "--help"]) == 0
    assert main(["store", "forget", "--guild", "1"]) == 0
    assert "configuration error" not in capsys.readouterr().err
    monkeypatch.setenv("REFEREE_DB", "mysql://u:s3cret@h/db")  # the one they read: still checked
    assert main(["ladder", "rebuild"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("configuration error: REFEREE_DB") and "s3cret" not in line, line


def test_dev_guild_id_0_never_syncs_globally(
    discord_calls: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DEV_GUILD_ID", "0")
    assert main(["sync"]) == 2
    assert discord_calls == []
    assert "DEV_GUILD_ID" in capsys.readouterr().err


@pytest.mark.usefixtures("root_logging")
def test_the_apps_sync_publishes_globally_only_for_none(
    discord_calls: list[tuple[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    """``bot.discord_ui.app.sync`` reads None as "every server", and nothing else (a 0 that got
    past the command line is a server, refused by Discord, never the world)."""
    import bot.discord_ui.app as app
    from bot.config import Config

    config = Config(token=FAKE_TOKEN)
    app.sync(config, 0)
    assert puts(discord_calls) == [f"/applications/{APP_ID}/guilds/0/commands"]
    assert "guild 0" in capsys.readouterr().out


def test_ladder_help_names_its_subcommand_not_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "-h"]) == 0
    out = capsys.readouterr().out
    assert "rebuild" in out and "`python -m bot ladder -h`" not in out


def test_help_lists_every_operator_command_in_plain_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README says `python -m bot --help` lists every operator command, `store forget
    --guild ID` among them; it showed only `store  operator commands on the database`, under
    a summary that began with the docstring's reST quotes (``python -m bot``)."""
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "``" not in out
    for command in (
        "python -m bot store forget --guild ID [--yes] [--db DB]",
        "python -m bot store check [--db DB]",
        "python -m bot store backup --to FILE [--db DB]",
        "python -m bot store copy [--db DB] --to",
        "python -m bot ladder rebuild",
        "python -m bot sync --global",
        "python -m bot health",
    ):
        assert command in out, command


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://u:s3cret/db",  # no @: asyncpg read the password as the port, in a traceback
        "postgresql://u:s3cret@h:notaport/db",
        "postgresql://u:s3cret@[::1/db",
        "postgresql+asyncpg://u:s3cret@h/db",  # once quoted whole in the refusal
        "mysql://u:s3cret@h/db",
    ],
)
def test_store_copy_to_an_unusable_url_is_one_line_without_the_password(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["store", "copy", "--from", str(tmp_path / "a.db"), "--to", url]) == 2
    out, err = capsys.readouterr()
    assert len((out + err).splitlines()) == 1 and "--to" in out + err
    assert "s3cret" not in out + err


def test_store_copys_own_refusal_never_quotes_a_url(tmp_path: Path) -> None:
    """``bot.store.copy.cli`` on its own (as tests and scripts call it) names no password."""
    from bot.store.copy import cli

    out, err = io.StringIO(), io.StringIO()
    assert cli(str(tmp_path / "a.db"), "mysql://u:s3cret@h/db", out, err) == 2
    assert "s3cret" not in err.getvalue() and "postgresql://" in err.getvalue()
    assert out.getvalue() == ""


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["store", "check", "--db", "{tmp}/nothere.db"], "nothere.db: no database file there"),
        (
            ["store", "backup", "--to", "{tmp}/b.db", "--db", "{tmp}/nothere.db"],
            "nothere.db: no database file there",
        ),
        (
            ["store", "backup", "--to", "{tmp}/taken", "--db", "{tmp}/nothere.db"],
            "taken already exists: a backup never overwrites a file",
        ),
        (["store", "copy", "--from", "{tmp}/a.db", "--to", "{tmp}/y.db"], "--to must be a"),
        (
            ["store", "copy", "--from", "{tmp}/nothere.db", "--to", "postgresql://u@127.0.0.1:1/x"],
            "nothing copied: ",
        ),
    ],
)
def test_a_store_commands_error_goes_to_standard_error(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A script pipes standard output (the results); the refusal once went there too, so a
    `store check | tee` showed nothing on the terminal and logged an error as a result."""
    (tmp_path / "taken").write_text("keep me")
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) != 0
    out, err = capsys.readouterr()
    assert out == ""
    assert said in err, err


def test_store_copy_exits_3_when_a_database_cannot_be_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README: a database that cannot be opened is one line and exit 3, as `ladder
    rebuild` does; `store copy` exited 2 (a usage error's code) for PostgreSQL unreachable
    and for a missing source. A target that is no URL, or holds games, stays 2."""
    import asyncio

    from tests.bot.conftest import file_with_games

    source = tmp_path / "referee.db"
    asyncio.run(file_with_games(source))
    nowhere = "postgresql://u:s3cret@127.0.0.1:1/x"  # nothing listens on port 1
    assert main(["store", "copy", "--from", str(source), "--to", nowhere]) == 3
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert line.startswith("nothing copied: PostgreSQL: ") and "s3cret" not in line, line
    assert out == ""
    missing = str(tmp_path / "nothere.db")
    assert main(["store", "copy", "--from", missing, "--to", nowhere]) == 3
    assert "no database file there" in capsys.readouterr().err
    monkeypatch.setenv("REFEREE_DB", missing)
    assert main(["ladder", "rebuild"]) == 3  # the same fault, the same code
    assert main(["store", "copy", "--from", str(source), "--to", str(source)]) == 2


@pytest.mark.parametrize("bad", ["99999999999999999999", "-5", "１２３", "abc", ""])
def test_ladder_rebuild_of_a_mistyped_server_is_a_usage_error(
    bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A number past 2**63-1 reached SQLite and ended in an OverflowError traceback; -5 and
    '１２３' rebuilt a server that cannot exist and reported "no differences"."""
    import asyncio

    from tests.bot.conftest import file_with_games

    asyncio.run(file_with_games(tmp_path / "r.db"))
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "r.db"))
    assert main(["ladder", "rebuild", "--guild", bad]) == 2
    out, err = capsys.readouterr()
    assert "is not a server id" in err and out == "", err
    assert main(["ladder", "rebuild", "--guild", "0", "--check"]) == 0  # the console's games


def test_store_copy_of_a_file_from_a_newer_bot_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "start the bot on it once (it migrates the file), then copy", and this bot
    refuses to start on a newer file: the advice led nowhere."""
    import asyncio
    import sqlite3

    from bot.store.migrations import LATEST
    from tests.bot.conftest import file_with_games

    source = tmp_path / "referee.db"
    asyncio.run(file_with_games(source))
    db = sqlite3.connect(source)
    db.execute(f"PRAGMA user_version = {LATEST + 1}")
    db.commit()
    db.close()
    nowhere = "postgresql://u@127.0.0.1:1/x"
    assert main(["store", "copy", "--from", str(source), "--to", nowhere]) == 3
    (line,) = capsys.readouterr().err.splitlines()
    assert f"newer than this bot's {LATEST}" in line and "start the bot" not in line, line


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_console_names_its_database_in_its_opening_lines(tmp_path: Path, lang: str) -> None:
    """As the bot's start logs `database: PATH`: a mistyped REFEREE_DB is a new, empty
    database, and the table that opens on it looked like one that lost every game. The path
    is absolute (the file is relative to the working folder), in the table's language."""
    out = console_at_a_terminal(tmp_path, lang)
    line = words(lang).t("console.database", path=str(tmp_path / "e.db"))
    assert line in out.split("Atmalof")[0], out  # before the game it starts
    if lang != "en":
        assert english_in(line, lang) == [], line


def test_the_database_is_shown_absolute_and_a_url_without_its_password() -> None:
    from bot.config import shown_database as shown

    assert shown("data/referee.db") == str(ROOT / "data" / "referee.db")
    assert shown("postgresql://u:s3cret@db/x") == "postgresql://u:***@db/x"


@pytest.mark.parametrize("argv", [[], ["console"]])
def test_a_closed_standard_output_ends_the_console_quietly(argv: list[str], tmp_path: Path) -> None:
    """`make run | head`: the reader is gone before the table says anything. The banner's
    print raised BrokenPipeError, a traceback and exit 1; now nothing is said, exit 0, as
    when the reader leaves during the game."""
    script = tmp_path / "lines.txt"
    script.write_text("alice: challenge bob atmalof\nbob: accept\nhelp\nquit\n")
    reader, writer = os.pipe()
    os.close(reader)  # `head` has read its lines and left
    try:
        with script.open() as lines:
            done = subprocess.run(
                [sys.executable, "-m", "bot", *argv],
                stdin=lines,
                stdout=writer,
                stderr=subprocess.PIPE,
                text=True,
                cwd=ROOT,
                env=env_without_token(tmp_path),
                timeout=60,
            )
    finally:
        os.close(writer)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
