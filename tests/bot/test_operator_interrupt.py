"""Ctrl-C (SIGINT) during `ladder rebuild` or `store copy` on a real database of 20,000 rated
games: one line on standard error, exit 130 (128 + SIGINT), and nothing half-written. Each
once printed a KeyboardInterrupt traceback through asyncio's runner.

The signal is sent once the process has the database file open (its /proc/PID/fd), so it
lands in the work itself, not in Python's start-up.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import INTERRUPTED
from tests.bot.test_ladder_rebuild import many_rated_games

ROOT = Path(__file__).resolve().parents[2]
GAMES = 20_000

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc")


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("interrupt") / "referee.db"
    asyncio.run(many_rated_games(str(path), GAMES))
    return path


def has_open(pid: int, path: Path) -> bool:
    try:
        links = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    except OSError:  # it ended, or an fd closed while listed
        return False
    return str(path) in links


def interrupted(argv: list[str], db: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGV`` with REFEREE_DB=db, Ctrl-C'd once it has ``db`` open."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(REFEREE_DB=str(db), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
        # a shell's Ctrl-C reaches a foreground command with SIGINT's default disposition
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not has_open(proc.pid, db):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.002)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def ratings(path: Path) -> list[tuple[object, ...]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT * FROM ratings ORDER BY 1, 2, 3, 4").fetchall()
    finally:
        db.close()


def test_ctrl_c_during_a_ladder_rebuild(big_file: Path) -> None:
    before = ratings(big_file)
    done = interrupted(["ladder", "rebuild"], big_file)
    assert (done.returncode, done.stderr, done.stdout) == (130, INTERRUPTED + "\n", "")
    assert ratings(big_file) == before  # the rewrite is one transaction: not committed


async def test_ctrl_c_during_a_store_copy(big_file: Path, postgres_url: str) -> None:
    done = await asyncio.to_thread(
        interrupted, ["store", "copy", "--from", str(big_file), "--to", postgres_url], big_file
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, INTERRUPTED + "\n", "")
    conn = await asyncpg.connect(postgres_url)
    try:
        games = await conn.fetchval("SELECT to_regclass('games') IS NOT NULL")
        if games:  # migrated before the Ctrl-C: the copy's transaction left nothing
            assert await conn.fetchval("SELECT count(*) FROM games") == 0
    finally:
        await conn.close()
