"""What is at REFEREE_DB (or --db) decides what may happen there: a text file, a folder or
another application's SQLite file is refused untouched; only the bot itself makes a new
database, and only where nothing is; the operator's commands open an existing database of this
bot, and those that only check never write it; ``store check`` refuses what is not this bot's
database, and ``store backup`` makes a copy that is.

Every case is a real file on disk, opened by the real commands (``python -m bot ...`` through
``bot.__main__.main``, or a subprocess where the working folder matters).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Config, ConfigError
from bot.store import Access, SqliteStore, StoreUnavailable
from bot.store.cli import main as store_main
from bot.store.files import Kind, inspect
from bot.store.migrations import LATEST, MIGRATIONS, statements
from tests.bot.conftest import file_with_games

ROOT = Path(__file__).resolve().parents[2]


def python_m_bot(
    args: list[str], env: dict[str, str], *, cwd: Path
) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` as an operator runs it, in ``cwd`` with ``env``."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


# Every command that opens REFEREE_DB: the bot's console, and the operator's commands.
COMMANDS = [
    ["console"],
    ["ladder", "rebuild"],
    ["ladder", "rebuild", "--check"],
    ["store", "forget", "--guild", "1"],
    ["store", "forget", "--guild", "1", "--yes"],
]
MAINTENANCE = COMMANDS[1:]
CHECK_ONLY = [["ladder", "rebuild", "--check"], ["store", "forget", "--guild", "1"]]


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Every file under ``folder`` (the folder itself too): its mode and content's digest."""
    found = {".": (mode(folder), "")}
    for path in sorted(folder.rglob("*")):
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        found[str(path.relative_to(folder))] = (mode(path), digest)
    return found


@pytest.fixture
def console_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """The console reads `quit` if it gets as far as opening."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("quit\n"))


def store_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "bot.store"]


def foreign_sqlite(path: Path) -> None:
    """Another application's database: one `invoices` table, rollback journal."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    db.execute("INSERT INTO invoices (total) VALUES (9.5)")
    db.commit()
    db.close()


def schema_file(path: Path, version: int, journal: str = "delete") -> None:
    """This bot's database at schema ``version``, made by the migrations themselves."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA journal_mode = {journal}")
    for script in MIGRATIONS[:version]:
        for statement in statements(script):
            db.execute(statement)
    db.execute(f"PRAGMA user_version = {version}")
    db.close()


# --- 1. a wrong REFEREE_DB is refused before anything changes ------------------------------


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_text_file_as_the_database_is_refused_untouched(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    console_input: None,
) -> None:
    folder = tmp_path / "etc"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    passwd = folder / "passwd"
    passwd.write_text("root:x:0:0\n")
    passwd.chmod(0o644)
    before = snapshot(folder)
    monkeypatch.setenv("REFEREE_DB", str(passwd))
    assert main(argv) == 3
    assert snapshot(folder) == before  # no mode changed, nothing made beside it
    (line,) = store_lines(caplog)  # one line, and no talk of "readable by other users"
    assert line.startswith(f"refusing to open {passwd}: it is not a database"), line


@pytest.mark.parametrize("argv", [["console"], ["ladder", "rebuild"]], ids=" ".join)
def test_a_folder_or_another_applications_database_is_refused_untouched(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    console_input: None,
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    foreign_sqlite(shared / "app.db")
    (shared / "app.db").chmod(0o644)
    before = snapshot(tmp_path)
    for where, said in [(shared, "it is a folder"), (shared / "app.db", "invoices")]:
        caplog.clear()
        monkeypatch.setenv("REFEREE_DB", str(where))
        assert main(argv) == 3
        assert snapshot(tmp_path) == before
        (line,) = store_lines(caplog)
        assert line.startswith(f"refusing to open {where}: ") and said in line, line


async def test_a_folder_the_bot_did_not_make_keeps_its_mode(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder that was there (shared, like /tmp/x 0711, or the repository's data/) is the
    operator's: the bot's files in it are owner-only, and the folder stays as it was."""
    shared = tmp_path / "x"
    shared.mkdir()
    shared.chmod(0o711)
    store = await SqliteStore.open(shared / "referee.db")
    await store.close()
    assert mode(shared) == 0o711 and mode(shared / "referee.db") == 0o600
    (shared / "referee.db").chmod(0o644)  # as an older version left it
    caplog.clear()
    store = await SqliteStore.open(shared / "referee.db")
    await store.close()
    assert mode(shared) == 0o711 and mode(shared / "referee.db") == 0o600
    (line,) = store_lines(caplog)
    assert "0644 -> 0600" in line and str(shared) + " " not in line, line


async def test_an_empty_file_someone_else_made_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """`touch referee.db` (0644) is not a database of this bot; a 0600 empty file of this user
    is, as the bot makes its own new file so before SQLite writes it."""
    touched = tmp_path / "touched.db"
    touched.touch(mode=0o644)
    touched.chmod(0o644)
    with pytest.raises(StoreUnavailable):
        await SqliteStore.open(touched)
    assert touched.stat().st_size == 0 and mode(touched) == 0o644
    (line,) = store_lines(caplog)
    assert "it is an empty file" in line, line
    mine = tmp_path / "mine.db"
    mine.touch(mode=0o600)
    store = await SqliteStore.open(mine)
    assert await store.schema_version() == LATEST
    await store.close()


# --- 2. the operator's commands never create, and those that check never write ------------


@pytest.mark.parametrize("argv", MAINTENANCE, ids=" ".join)
def test_a_maintenance_command_on_a_mistyped_path_creates_nothing(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    typo = tmp_path / "typo" / "referee.db"
    monkeypatch.setenv("REFEREE_DB", str(typo))
    assert main(argv) == 3
    assert list(tmp_path.iterdir()) == []  # no folder, no file
    assert "nothing of server" not in capsys.readouterr().out  # not "server 1 has no data"
    (line,) = store_lines(caplog)
    assert line.startswith(f"refusing to open {typo}: there is no database file there"), line


@pytest.mark.parametrize("argv", MAINTENANCE, ids=" ".join)
def test_a_maintenance_command_on_a_new_empty_file_makes_no_database_of_it(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty owner-only file, or a SQLite file with nothing in it, is what the bot makes
    before it writes a new database (NEW): only the bot may go on to make one there; an
    operator's command refuses it as it is (no schema written into it)."""
    empty = tmp_path / "empty.db"
    empty.touch(mode=0o600)
    blank = tmp_path / "blank.db"
    blank.write_bytes(sqlite_header_only())
    blank.chmod(0o600)
    for path in (empty, blank):
        assert inspect(path).kind is Kind.NEW, path
        before = snapshot(tmp_path)
        monkeypatch.setenv("REFEREE_DB", str(path))
        assert main(argv) == 3, path
        assert snapshot(tmp_path) == before, path


def sqlite_header_only() -> bytes:
    """A SQLite file with no tables (what ``sqlite3.connect`` leaves is an empty file)."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (x)")
    db.execute("DROP TABLE t")
    data = db.serialize()
    db.close()
    return data


def test_a_maintenance_command_elsewhere_does_not_make_data_referee_db(tmp_path: Path) -> None:
    """Run from another folder without REFEREE_DB, `ladder rebuild` used to make a new
    data/referee.db there and report "no differences"."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "REFEREE_DB")}
    env["PYTHONPATH"] = str(ROOT)
    done = python_m_bot(["ladder", "rebuild"], env, cwd=tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    assert list(tmp_path.iterdir()) == []
    assert "no differences" not in done.stdout
    assert str(tmp_path / "data" / "referee.db") in done.stderr  # where it looked


@pytest.mark.parametrize("argv", MAINTENANCE, ids=" ".join)
def test_another_applications_database_is_not_migrated(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "invoices.db"
    foreign_sqlite(path)
    before = snapshot(tmp_path)
    monkeypatch.setenv("REFEREE_DB", str(path))
    assert main(argv) == 3
    assert snapshot(tmp_path) == before
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert tables == ["invoices"]
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()


@pytest.mark.parametrize("argv", CHECK_ONLY, ids=" ".join)
def test_a_check_only_command_never_writes(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At this bot's schema, in rollback-journal mode: it reads, and the file stays
    byte for byte (no switch to WAL); at an older schema it is refused, not migrated."""
    current = tmp_path / "current.db"
    schema_file(current, LATEST)
    digest = hashlib.sha256(current.read_bytes()).hexdigest()
    monkeypatch.setenv("REFEREE_DB", str(current))
    assert main(argv) == 0
    assert hashlib.sha256(current.read_bytes()).hexdigest() == digest
    older = tmp_path / "older.db"
    schema_file(older, LATEST - 2)
    digest = hashlib.sha256(older.read_bytes()).hexdigest()
    monkeypatch.setenv("REFEREE_DB", str(older))
    assert main(argv) == 3
    assert hashlib.sha256(older.read_bytes()).hexdigest() == digest
    db = sqlite3.connect(older)
    assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST - 2
    db.close()


def test_a_writing_maintenance_command_migrates_this_bots_older_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    older = tmp_path / "older.db"
    schema_file(older, LATEST - 2)
    monkeypatch.setenv("REFEREE_DB", str(older))
    assert main(["store", "forget", "--guild", "1", "--yes"]) == 0
    db = sqlite3.connect(older)
    assert db.execute("PRAGMA user_version").fetchone()[0] == LATEST
    db.close()


async def test_a_check_only_open_reads_beside_the_running_bot(tmp_path: Path) -> None:
    path = tmp_path / "referee.db"
    referee = await file_with_games(path, keep_open=True)
    try:
        reader = await SqliteStore.open(path, access=Access.READ)
        try:
            async with reader.reading() as rx:
                assert all([await rx.game(n) for n in (1, 2, 3)])
        finally:
            await reader.close()
    finally:
        await referee.store.close()


@pytest.mark.parametrize(
    "url", ["mysql://u:s3cret@h/db", "sqlite://u:s3cret@h/db", "MongoDB+srv://u:s3cret@h/"]
)
def test_a_url_of_another_database_is_refused_without_the_password(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REFEREE_DB", url)
    for argv in COMMANDS:
        assert main(argv) == 2
        said = capsys.readouterr()
        assert "s3cret" not in said.out + said.err and "REFEREE_DB" in said.err
    assert list(tmp_path.iterdir()) == []  # no folders named after the server and password
    monkeypatch.delenv("REFEREE_DB")
    assert main(["store", "check", "--db", url]) == 2
    assert "s3cret" not in "".join(capsys.readouterr())


def test_a_sqlite_url_is_its_path() -> None:
    assert Config.from_env({"REFEREE_DB": "sqlite:///data/x.db"}).db_path == "data/x.db"
    assert Config.from_env({"REFEREE_DB": "sqlite:////srv/x.db"}).db_path == "/srv/x.db"
    assert Config.from_env({"REFEREE_DB": "data/x.db"}).db_path == "data/x.db"
    with pytest.raises(ConfigError):
        Config.from_env({"REFEREE_DB": "sqlite://host/x.db"})


# --- 3. store check refuses what is not this bot's database; store backup ----------------


def test_store_check_refuses_an_empty_a_schema_0_and_a_foreign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    blank = tmp_path / "blank.db"
    sqlite3.connect(blank).execute("PRAGMA journal_mode = WAL").close()  # a header, no tables
    foreign = tmp_path / "invoices.db"
    foreign_sqlite(foreign)
    before = snapshot(tmp_path)
    for path, said in [(empty, "empty file"), (blank, "schema version 0"), (foreign, "invoices")]:
        assert store_main(["check", "--db", str(path)]) == 3, path
        out, err = capsys.readouterr()
        assert "not a database of this bot" in err and said in err, err
        assert out == ""
    assert snapshot(tmp_path) == before


def test_store_check_refuses_a_cp_of_a_live_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """cp of the file while the bot runs leaves its newest pages (here: all) in the -wal."""
    path = tmp_path / "referee.db"

    async def copy_while_open() -> None:
        referee = await file_with_games(path, keep_open=True)
        shutil.copy(path, tmp_path / "copy.db")
        await referee.store.close()

    asyncio.run(copy_while_open())
    assert store_main(["check", "--db", str(tmp_path / "copy.db")]) == 3
    err = capsys.readouterr().err
    assert "not a database of this bot" in err and "store backup" in err, err


def test_store_backup_copies_a_live_database_into_one_checked_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "referee.db"
    backups = tmp_path / "backups"
    backups.mkdir()
    target = backups / "referee-1.db"

    async def back_up_while_open() -> int:
        referee = await file_with_games(path, keep_open=True)
        try:  # the bot holds the file, its games still in the -wal
            assert Path(f"{path}-wal").stat().st_size > 0
            return await asyncio.to_thread(
                store_main, ["backup", "--to", str(target), "--db", str(path)]
            )
        finally:
            await referee.store.close()

    assert asyncio.run(back_up_while_open()) == 0
    out = capsys.readouterr().out
    assert f"to {target}" in out and "3 game(s)" in out and "integrity ok" in out, out
    assert sorted(p.name for p in backups.iterdir()) == ["referee-1.db"]  # one file, no -wal
    assert mode(target) == 0o600
    db = sqlite3.connect(target)
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 3
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    db.close()
    assert store_main(["check", "--db", str(target)]) == 0
    capsys.readouterr()

    async def reopened() -> int:
        store = await SqliteStore.open(target)  # the bot starts on a restored backup
        try:
            async with store.reading() as rx:
                return len([n for n in (1, 2, 3, 4) if await rx.game(n)])
        finally:
            await store.close()

    assert asyncio.run(reopened()) == 3


def test_store_backup_never_overwrites_and_refuses_what_is_not_ours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "referee.db"
    asyncio.run(file_with_games(path))
    taken = tmp_path / "taken.db"
    taken.write_text("keep me")
    assert store_main(["backup", "--to", str(taken), "--db", str(path)]) == 2
    assert taken.read_text() == "keep me" and "already exists" in capsys.readouterr().err
    foreign = tmp_path / "invoices.db"
    foreign_sqlite(foreign)
    for source in (foreign, tmp_path / "missing.db"):
        assert store_main(["backup", "--to", str(tmp_path / "b.db"), "--db", str(source)]) == 3
        assert not (tmp_path / "b.db").exists()
    assert store_main(["backup", "--to", str(tmp_path / "no" / "b.db"), "--db", str(path)]) == 2
    assert not (tmp_path / "no").exists()
    assert not [p for p in tmp_path.iterdir() if "partial" in p.name]


def test_python_m_bot_store_backup_runs_and_postgres_is_told_pg_dump(tmp_path: Path) -> None:
    path = tmp_path / "referee.db"
    asyncio.run(file_with_games(path))
    env = {**os.environ, "REFEREE_DB": str(path), "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT)}
    target = tmp_path / "backup.db"
    done = python_m_bot(["store", "backup", "--to", str(target)], env, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert target.exists() and "3 game(s)" in done.stdout
    env["REFEREE_DB"] = "postgresql://u:s3cret@db/x"
    done = python_m_bot(["store", "backup", "--to", str(tmp_path / "pg.db")], env, cwd=ROOT)
    assert done.returncode == 2
    said = done.stdout + done.stderr
    assert "pg_dump" in said and "s3cret" not in said


def test_the_operator_docs_say_how_to_back_up_and_restore() -> None:
    text = (ROOT / "docs" / "reliability.md").read_text()
    assert "python -m bot store backup --to" in text and "pg_dump" in text
    assert "-wal" in text  # what to move aside when restoring
    assert "store backup" in (ROOT / "README.md").read_text()


def test_store_copy_refuses_a_source_that_is_not_this_bots_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before PostgreSQL is reached (nothing listens on port 1)."""
    foreign = tmp_path / "invoices.db"
    foreign_sqlite(foreign)
    before = snapshot(tmp_path)
    url = "postgresql://u:s3cret@127.0.0.1:1/x"
    assert main(["store", "copy", "--from", str(foreign), "--to", url]) == 3
    err = capsys.readouterr().err
    assert "nothing copied" in err and "not a database of this bot" in err and "invoices" in err
    assert snapshot(tmp_path) == before


# --- 5. loose files left by an older version, and links ----------------------------------


async def test_a_loose_wal_left_by_a_crash_is_tightened_with_the_file(tmp_path: Path) -> None:
    """An older version's crash leaves its ``-wal`` (the running games' seeds in it) with the
    loose mode it had: the bot tightens it with the database file, before SQLite reads it."""
    live = tmp_path / "live" / "referee.db"
    referee = await file_with_games(live, keep_open=True)
    try:
        left = tmp_path / "left"
        left.mkdir()
        for name in ("referee.db", "referee.db-wal"):  # what a crash leaves on disk
            shutil.copyfile(live.parent / name, left / name)
            (left / name).chmod(0o644)
    finally:
        await referee.store.close()
    store = await SqliteStore.open(left / "referee.db")
    try:
        assert mode(left / "referee.db") == 0o600
        assert mode(left / "referee.db-wal") == 0o600
        async with store.reading() as rx:  # the games in the -wal are there
            assert all([await rx.game(n) for n in (1, 2, 3)])
    finally:
        await store.close()


async def test_a_check_only_open_changes_no_mode(tmp_path: Path) -> None:
    """A command that only reads leaves even a loose file's mode as it is (the bot tightens it
    when it starts): looking changes nothing."""
    path = tmp_path / "referee.db"
    await file_with_games(path)
    path.chmod(0o644)
    reader = await SqliteStore.open(path, access=Access.READ)
    await reader.close()
    assert mode(path) == 0o644


async def test_a_link_to_nothing_makes_an_owner_only_file_where_it_points(
    tmp_path: Path,
) -> None:
    """REFEREE_DB a symlink to a file not made yet (a volume's path): the new database there
    is 0600 like any other, not made by SQLite with the process umask (0644: every running
    game's seed readable by any user until the next start tightened it)."""
    volume = tmp_path / "volume"
    volume.mkdir()
    link = tmp_path / "referee.db"
    link.symlink_to(volume / "real.db")
    old = os.umask(0o022)
    try:
        store = await SqliteStore.open(link)
    finally:
        os.umask(old)
    try:
        await store.db.execute("CREATE TABLE scratch (x)")  # the -wal and -shm exist now
        for name in ("real.db", "real.db-wal", "real.db-shm"):
            assert mode(volume / name) == 0o600, (name, oct(mode(volume / name)))
        assert link.is_symlink()
    finally:
        await store.close()
