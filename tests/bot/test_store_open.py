"""Opening the store: several processes on one fresh file, owner-only files and folder, a
folder that cannot be made, a damaged file, and ``python -m bot store check``.

Every case is a real SQLite file on disk, opened by the real ``Store.open``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import sqlite3
import stat
import subprocess
import sys
import traceback
from pathlib import Path

import aiosqlite
import pytest

from bot.__main__ import main
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Where
from bot.store import SqliteStore, StoreDamaged, StoreUnavailable
from bot.store.cli import main as store_main
from bot.store.migrations import LATEST
from bot.store.sqlite import _into_wal
from bot.texts import CANT_SAVE
from tests.bot.conftest import ALICE, BOB, HERE, file_with_games

ROOT = Path(__file__).resolve().parents[2]

PROCESSES = 6
TRIALS = 5


def _open_once(path: str, barrier: multiprocessing.synchronize.Barrier, errors: object) -> None:
    """A child: wait for the others, then open (and migrate) the same fresh file."""

    async def run() -> None:
        store = await SqliteStore.open(path)
        try:
            assert await store.schema_version() == LATEST
        finally:
            await store.close()

    barrier.wait()
    try:
        asyncio.run(run())
    except BaseException:
        errors.put(traceback.format_exc())  # type: ignore[attr-defined]
        raise SystemExit(1) from None


def test_processes_opening_one_fresh_file_at_once_all_succeed(tmp_path: Path) -> None:
    """The schema version is read inside the migration's exclusive transaction, so of several
    processes that find a fresh file, one migrates and the others find it done."""
    context = multiprocessing.get_context("fork")
    failures = []
    for trial in range(TRIALS):
        path = str(tmp_path / f"fresh-{trial}.db")
        barrier = context.Barrier(PROCESSES)
        errors = context.Queue()
        children = [
            context.Process(target=_open_once, args=(path, barrier, errors))
            for _ in range(PROCESSES)
        ]
        for child in children:
            child.start()
        for child in children:
            child.join(60)
        codes = [child.exitcode for child in children]
        while not errors.empty():
            failures.append(f"trial {trial}: {errors.get()}")
        assert all(code is not None for code in codes), f"trial {trial}: a child hung"
        if any(codes):
            failures.append(f"trial {trial}: exit codes {codes}")
    assert not failures, "\n".join(failures)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


async def test_a_new_database_and_its_folder_are_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "data" / "referee.db"
    store = await SqliteStore.open(path)
    try:
        await store.db.execute("CREATE TABLE scratch (x)")  # the WAL file exists while open
        for name in ("referee.db", "referee.db-wal", "referee.db-shm"):
            assert (path.parent / name).exists(), name
            assert mode(path.parent / name) == 0o600, (name, oct(mode(path.parent / name)))
        assert mode(path.parent) == 0o700
    finally:
        await store.close()


async def test_an_existing_readable_database_is_tightened_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The files, not the folder: one that is there is the operator's (it may be shared), and
    the files in it are owner-only either way (tests/bot/test_store_paths.py)."""
    folder = tmp_path / "data"
    path = folder / "referee.db"
    store = await SqliteStore.open(path)
    await store.close()
    folder.chmod(0o755)
    path.chmod(0o644)
    caplog.clear()
    store = await SqliteStore.open(path)
    try:
        await store.db.execute("CREATE TABLE scratch (x)")
        assert mode(path) == 0o600 and mode(folder) == 0o755
        for name in ("referee.db-wal", "referee.db-shm"):
            assert mode(folder / name) == 0o600, name
    finally:
        await store.close()
    (warning,) = [r.getMessage() for r in caplog.records if r.name == "bot.store"]
    assert str(path) in warning and "0644" in warning and "0600" in warning, warning
    assert "0755" not in warning
    caplog.clear()
    store = await SqliteStore.open(path)  # already tight: nothing more to say
    await store.close()
    assert not [r for r in caplog.records if r.name == "bot.store"]


def store_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.store"]


async def test_a_folder_that_cannot_be_made_is_one_clear_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """As root, no file mode stops us: a path under a regular file fails for everyone."""
    blocker = tmp_path / "mounted"
    blocker.write_text("not a folder")
    path = blocker / "data" / "referee.db"
    with pytest.raises(StoreUnavailable) as raised:
        await SqliteStore.open(path)
    assert not isinstance(raised.value.__cause__, StoreUnavailable)
    (line,) = store_lines(caplog)
    assert line.levelno == logging.CRITICAL
    text = line.getMessage()
    assert f"cannot open the database {path}" in text and "Not a directory" in text, text


def test_the_bot_does_not_start_on_a_folder_it_cannot_make(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "mounted"
    blocker.write_text("not a folder")
    monkeypatch.setenv("REFEREE_DB", str(blocker / "referee.db"))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["console"]) == 3
    assert "Traceback" not in capsys.readouterr().err


def _open_without_root(folder: str, result: object) -> None:
    """A child that drops root (as the bot would run under its own user) and opens a database
    in ``folder``, a root-owned 0500 folder: like a root-owned bind mount."""
    os.setgid(65534)
    os.setuid(65534)
    records: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: records.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("bot.store").addHandler(handler)
    try:
        asyncio.run(SqliteStore.open(Path(folder) / "referee.db"))
    except StoreUnavailable:
        result.put(("refused", records))  # type: ignore[attr-defined]
    except BaseException as exc:
        result.put(("raised", [f"{type(exc).__name__}: {exc}", *records]))  # type: ignore[attr-defined]
    else:
        result.put(("opened", records))  # type: ignore[attr-defined]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")
def test_a_read_only_folder_as_another_user_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "mount"
    folder.mkdir()
    folder.chmod(0o500)
    tmp_path.chmod(0o755)
    context = multiprocessing.get_context("fork")
    result = context.Queue()
    child = context.Process(target=_open_without_root, args=(str(folder), result))
    child.start()
    child.join(30)
    outcome, lines = result.get(timeout=5)
    assert outcome == "refused", lines
    (line,) = lines
    assert "cannot open the database" in line and "Permission denied" in line, line


def damage(path: Path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


async def test_a_damaged_page_is_refused_at_start_with_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "referee.db"
    await file_with_games(path)
    pages = path.stat().st_size // 4096
    for page in range(2, pages):  # garble the middle of every page after the schema's
        damage(path, page * 4096 + 100, b"\xff" * 1500)
    caplog.clear()
    with pytest.raises(StoreDamaged):
        await SqliteStore.open(path)
    (line,) = store_lines(caplog)
    text = line.getMessage()
    assert line.levelno == logging.CRITICAL and f"refusing to open {path}" in text, text
    assert "python -m bot store check" in text


async def test_a_damaged_header_is_refused_with_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "referee.db"
    await file_with_games(path)
    damage(path, 0, b"this is no database header")
    caplog.clear()
    with pytest.raises(StoreUnavailable):
        await SqliteStore.open(path)
    (line,) = store_lines(caplog)
    assert "not a database" in line.getMessage() and str(path) in line.getMessage()


def test_store_check_reports_a_sound_and_a_damaged_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "referee.db"
    asyncio.run(file_with_games(path))
    assert store_main(["check", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and str(path) in out and f"schema version {LATEST}" in out, out
    for page in range(2, path.stat().st_size // 4096):
        damage(path, page * 4096 + 100, b"\xff" * 1500)
    assert store_main(["check", "--db", str(path)]) == 1
    out = capsys.readouterr().out
    assert "damaged" in out, out
    damage(path, 0, b"this is no database header")
    assert store_main(["check", "--db", str(path)]) == 3
    assert "not a database" in capsys.readouterr().err
    assert store_main(["check", "--db", str(tmp_path / "missing.db")]) == 3
    assert not (tmp_path / "missing.db").exists()  # checking never creates a file


def test_python_m_bot_store_check_runs(tmp_path: Path) -> None:
    path = tmp_path / "referee.db"
    asyncio.run(file_with_games(path))
    done = subprocess.run(
        [sys.executable, "-m", "bot", "store", "check"],
        cwd=ROOT,
        env={**os.environ, "REFEREE_DB": str(path), "DISCORD_TOKEN": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok" in done.stdout


def test_store_check_of_a_url_says_what_it_checks_and_not_the_password() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "store", "check"],
        cwd=ROOT,
        env={**os.environ, "REFEREE_DB": "postgresql://u:s3cret@db/x", "DISCORD_TOKEN": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "SQLite file" in done.stderr and "s3cret" not in done.stdout + done.stderr


async def test_a_database_deleted_while_running_stops_acknowledging_writes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "referee.db"
    store = await SqliteStore.open(path)
    referee = Referee(store, ManualClock(), render=False)
    await referee.challenge(HERE, ALICE, "morris", opponent=BOB, starter="me")
    assert (await referee.accept(HERE, BOB)).ok
    for name in ("referee.db", "referee.db-wal", "referee.db-shm"):
        (tmp_path / name).unlink()
    caplog.clear()
    for _ in range(2):  # the referee's wrapper answers "can't save", with the reason as data
        refused = await referee.act(HERE, ALICE, "place d7")
        assert refused.reason == "cant_save" and refused.text == CANT_SAVE
    assert (await referee.handle(HERE, ALICE, "place d7")).text == CANT_SAVE
    critical = [r for r in store_lines(caplog) if r.levelno == logging.CRITICAL]
    assert len(critical) == 1 and str(path) in critical[0].getMessage()
    assert "deleted or replaced" in critical[0].getMessage()
    await store.close()


async def test_a_database_replaced_while_running_stops_acknowledging_writes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "referee.db"
    store = await SqliteStore.open(path)
    referee = Referee(store, ManualClock(), render=False)
    await referee.challenge(HERE, ALICE, "morris", opponent=BOB, starter="me")
    other = tmp_path / "restored.db"
    await (await SqliteStore.open(other)).close()  # a second, different file: a restore, say
    os.replace(other, path)
    caplog.clear()
    refused = await referee.accept(HERE, BOB)
    assert refused.reason == "cant_save" and not refused.ok
    assert any("deleted or replaced" in r.getMessage() for r in store_lines(caplog))
    await store.close()


async def test_a_file_damaged_after_the_start_is_a_store_fault_not_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Pages damaged after the start's check (opened here without it): reads and writes raise
    StoreUnavailable, which the referee answers with the polite note, with one log line."""
    path = tmp_path / "referee.db"
    await file_with_games(path)
    with sqlite3.connect(path) as db:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
    db.close()
    damage(path, (root - 1) * 4096, b"\xff" * 4096)  # the games table's page, nothing else
    store = await SqliteStore.open(path, check=False)
    try:
        referee = Referee(store, ManualClock(), render=False)
        where = Where(1, 100)
        caplog.clear()
        assert (await referee.verify(where)).reason == "cant_save"
        (line,) = [r.getMessage() for r in store_lines(caplog)]
        assert "the database file is damaged" in line and str(path) in line, line
        assert (await referee.handle(where, BOB, "place d1")).text == CANT_SAVE
    finally:
        await store.close()


async def test_the_wal_switch_is_tried_again_while_another_connection_holds_the_file(
    tmp_path: Path,
) -> None:
    """The WAL switch of a fresh file can fail at once with "database is locked" when another
    process switches it too (SQLite skips its busy handler there). Here a busy timeout of 0
    makes every try fail at once while another connection holds the file exclusively; the
    switch succeeds once that one lets go, and gives up at its own timeout."""
    path = tmp_path / "fresh.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        await db.execute("PRAGMA busy_timeout = 0")
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await _into_wal(db, 50)  # still held when its time is up
        asyncio.get_running_loop().call_later(0.1, holder.execute, "COMMIT")
        await _into_wal(db, 5_000)
        rows = await db.execute_fetchall("PRAGMA journal_mode")
        assert next(iter(rows))[0] == "wal"
    finally:
        await db.close()
        holder.close()
