"""Every operator command that opens the database takes the same ``--db`` (bot.cli_args): the
database it names, else REFEREE_DB. `store check` and `store backup` had it, `store forget` and
`ladder rebuild` refused it ("unrecognized arguments: --db r.db") and `store copy` spelled its
source only as a required --from."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli_args import DB_HELP
from tests.bot.conftest import file_with_games

NOWHERE = "postgresql://u:s3cret@127.0.0.1:1/x"  # nothing listens on port 1


@pytest.fixture
def games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A database with games; REFEREE_DB names a file that is not there (exit 3 if read)."""
    path = tmp_path / "r.db"
    asyncio.run(file_with_games(path))
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "not-this-one.db"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    return path


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["store", "check"], "integrity"),
        (["store", "backup", "--to", "{tmp}/b.db"], ""),
        (["store", "forget", "--guild", "1"], "nothing changed: run again with --yes"),
        (["ladder", "rebuild", "--check"], "no differences"),
    ],
)
def test_db_names_the_database_every_command_opens(
    argv: list[str], said: str, games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a.replace("{tmp}", str(games.parent)) for a in argv]
    assert main(argv) == 3  # REFEREE_DB: no database there
    capsys.readouterr()
    assert main([*argv[:2], "--db", str(games), *argv[2:]]) == 0  # anywhere among the options
    (games.parent / "b.db").unlink(missing_ok=True)
    assert main([*argv, "--db", str(games)]) == 0
    out, err = capsys.readouterr()
    assert said in out and "unrecognized" not in err, (out, err)


def test_store_copy_reads_its_source_from_db_or_referee_db(
    games: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The source opened (the refusal is PostgreSQL's, not "no database file there")."""
    for argv in (["--db", str(games)], ["--from", str(games)]):
        assert main(["store", "copy", *argv, "--to", NOWHERE]) == 3
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith("nothing copied: PostgreSQL: "), line
    assert main(["store", "copy", "--to", NOWHERE]) == 3  # REFEREE_DB: not there
    assert "no database file there" in capsys.readouterr().err
    monkeypatch.setenv("REFEREE_DB", str(games))
    assert main(["store", "copy", "--to", NOWHERE]) == 3
    assert capsys.readouterr().err.startswith("nothing copied: PostgreSQL: ")
    monkeypatch.setenv("REFEREE_DB", NOWHERE)  # a URL is no SQLite source: said, never quoted
    assert main(["store", "copy", "--to", NOWHERE]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "store copy copies from a SQLite file" in line and "s3cret" not in line, line


@pytest.mark.parametrize(
    "argv",
    [
        ["store", "check"],
        ["store", "backup"],
        ["store", "forget"],
        ["store", "copy"],
        ["ladder", "rebuild"],
    ],
)
def test_db_has_one_help_everywhere(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--db DB" in out and DB_HELP in out, out


@pytest.mark.parametrize(
    "argv",
    [
        ["store", "check"],
        ["store", "backup", "--to", "{tmp}/b.db"],
        ["store", "forget", "--guild", "1"],
        ["store", "copy", "--to", NOWHERE],
        ["ladder", "rebuild", "--check"],
    ],
)
@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_db_is_a_usage_error_not_referee_db(
    argv: list[str],
    empty: str,
    games: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--db "$UNSET"` opened REFEREE_DB, another database than the one meant, and said nothing."""
    monkeypatch.setenv("REFEREE_DB", str(games))  # would work: it must not be taken
    argv = [a.replace("{tmp}", str(games.parent)) for a in argv]
    assert main([*argv, "--db", empty]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not (games.parent / "b.db").exists()
    assert f"usage: python -m bot {argv[0]} {argv[1]}" in err, err
    assert err.splitlines()[-1].endswith(
        "error: argument --db/--from: it is empty: name a database, or leave --db out to use "
        "REFEREE_DB"
        if argv[1] == "copy"
        else "error: argument --db: it is empty: name a database, or leave --db out to use "
        "REFEREE_DB"
    ), err
