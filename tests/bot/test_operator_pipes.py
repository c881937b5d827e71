"""Operator commands piped into a reader that leaves early (`python -m bot store check | head -1`).

Each runs as a real ``python -m bot`` process whose standard output is a real pipe, closed by
the reader: before the command starts, or after its first line. The Docker image sets
PYTHONUNBUFFERED=1 (every print is a write, so the closed pipe is met mid-command); without it
the output is block-buffered and met at the last flush. Either way: no traceback, nothing on
standard error, and the exit code the work itself earned.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.store.migrations import LATEST
from tests.bot.conftest import file_with_games

ROOT = Path(__file__).resolve().parents[2]


def env_for(tmp_path: Path, *, unbuffered: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PYTHONUNBUFFERED")}
    env.update(REFEREE_DB=str(tmp_path / "r.db"), PYTHONPATH=str(ROOT))
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def bot_command(
    argv: list[str],
    tmp_path: Path,
    *,
    unbuffered: bool = True,
    closed: int | None = None,
    **kw: Any,
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGV`` on ``tmp_path``'s database, with file descriptor ``closed`` shut
    before it starts (1: no standard output, 2: no standard error); ``kw``: subprocess.run's
    streams and an ``env`` to add."""
    env = {**env_for(tmp_path, unbuffered=unbuffered), **kw.pop("env", {})}
    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=env,
        preexec_fn=None if closed is None else (lambda: os.close(closed)),
        timeout=120,
        **kw,
    )


@pytest.fixture
def games_file(tmp_path: Path) -> Path:
    path = tmp_path / "r.db"
    asyncio.run(file_with_games(path))
    return path


@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["store", "check"],
        ["store", "check", "--db", "{tmp}/r.db"],
        ["store", "backup", "--to", "{tmp}/b.db"],
        ["store", "forget", "--guild", "1"],
        ["ladder", "rebuild", "--check"],
        ["ladder", "rebuild", "-h"],
    ],
)
def test_a_reader_gone_before_the_first_line_ends_the_command_quietly(
    argv: list[str], unbuffered: bool, tmp_path: Path, games_file: Path
) -> None:
    """It printed `BrokenPipeError: [Errno 32] Broken pipe` with a traceback and exited 1
    (unbuffered), or `Exception ignored in: <_io.TextIOWrapper name='<stdout>' ...>` and
    exited 120 (buffered), though the work was done."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        typed = [a.replace("{tmp}", str(tmp_path)) for a in argv]
        done = bot_command(
            typed, tmp_path, unbuffered=unbuffered, stdout=writer, stderr=subprocess.PIPE
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (0, "")
    if "backup" in argv:
        assert (tmp_path / "b.db").exists()  # the work went on after the reader left


def damaged(path: Path, rows: int) -> None:
    """``rows`` rating changes of games that do not exist: as many foreign-key problems."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys = OFF")
    db.executemany(
        "INSERT INTO rating_changes VALUES (?, 1, 1, 'morris', 1, 2, 0, '', '', '', '')",
        [(1000 + n,) for n in range(rows)],
    )
    db.commit()
    db.close()


def test_a_reader_gone_after_the_first_line_leaves_the_verdict_in_the_exit_code(
    tmp_path: Path, games_file: Path
) -> None:
    """`store check | head -1` on a damaged file: the reader takes the first line and leaves
    while the report is still being written (a pipe of one page, a report of more than one,
    so the closed pipe is always met). No traceback; the exit code is still check's 1
    (damaged), not a blanket 0 and not a traceback's 1 with the verdict lost."""
    damaged(games_file, 200)
    reader, writer = os.pipe()
    fcntl.fcntl(writer, fcntl.F_SETPIPE_SZ, 4096)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "store", "check", "--db", str(games_file)],
        stdin=subprocess.DEVNULL,
        stdout=writer,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env_for(tmp_path, unbuffered=True),
    )
    os.close(writer)
    first = b""
    while not first.endswith(b"\n"):  # one byte at a time: the rest stays in the pipe
        byte = os.read(reader, 1)
        assert byte, "the command wrote no line"
        first += byte
    os.close(reader)  # `head -1` has its line
    _, err = proc.communicate(timeout=120)
    assert first.decode().endswith(f"schema version {LATEST}\n")
    assert (proc.returncode, err) == (1, "")


@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
def test_no_standard_output_at_all(unbuffered: bool, tmp_path: Path, games_file: Path) -> None:
    """`python -m bot store check >&-`: Python starts with sys.stdout None, and print() writes
    nothing; the command's last flush must not meet None (an AttributeError traceback)."""
    done = bot_command(
        ["store", "check"], tmp_path, unbuffered=unbuffered, closed=1, stderr=subprocess.PIPE
    )
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])
def test_a_full_disk_under_standard_output_is_one_line(
    unbuffered: bool, tmp_path: Path, games_file: Path
) -> None:
    """`store check > report.txt` on a full disk: the report is lost, and said so in one line
    (it was an OSError traceback); the exit code is still the check's verdict."""
    with open("/dev/full", "w") as full:
        done = bot_command(
            ["store", "check"], tmp_path, unbuffered=unbuffered, stdout=full, stderr=subprocess.PIPE
        )
    assert done.returncode == 0
    assert done.stderr == "standard output cannot be written: No space left on device\n"


@pytest.mark.parametrize(
    ("argv", "env", "code"),
    [
        (["store", "check", "--db", "{tmp}/nothere.db"], {}, 3),
        (["store", "forget", "--guild", "1", "--bogus"], {}, 2),  # argparse's usage
        (["store", "check", "--db", ""], {}, 2),
        (["sync"], {"LOG_LEVEL": "zzz"}, 2),  # configuration error
        (["ladder", "rebuild", "--db", "mysql://u:s3cret@h/x"], {}, 2),
        (["health"], {}, 1),
    ],
)
def test_with_standard_error_closed_an_error_is_the_exit_code_alone(
    argv: list[str], env: dict[str, str], code: int, tmp_path: Path, games_file: Path
) -> None:
    """`python -m bot store check 2>&- | script`: Python starts with sys.stderr None, and
    print(file=sys.stderr), argparse's usage too, wrote to standard output, where the script
    would read the error as a result. Results stay there (the last case)."""
    typed = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    done = bot_command(typed, tmp_path, closed=2, stdout=subprocess.PIPE, env=env)
    assert (done.returncode, done.stdout) == (code, "")


def test_with_standard_error_closed_results_still_go_to_standard_output(
    tmp_path: Path, games_file: Path
) -> None:
    done = bot_command(["store", "check"], tmp_path, closed=2, stdout=subprocess.PIPE)
    assert done.returncode == 0 and f"schema version {LATEST}" in done.stdout, done.stdout
