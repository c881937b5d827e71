"""``python -m bot store check [--db PATH]``: is the database file sound?
``python -m bot store backup --to FILE [--db PATH]``: a consistent copy, while the bot runs.

``check`` first makes sure the file is this bot's database (``bot.store.files.inspect``: not
empty, not another application's, not a schema-0 copy that lost its ``-wal``), then runs
SQLite's full ``integrity_check`` (at most ``MAX_PROBLEMS`` lines) and ``foreign_key_check`` on
a read-only connection, so it never creates, migrates or locks the file, and can run beside the
bot. Exit 0: sound; 1: problems found (restore a backup); 3: the file cannot be opened, or is
not this bot's database.

``backup`` copies the database with SQLite's online backup API (``sqlite3.Connection.backup``)
in one read transaction: a snapshot of one moment, the ``-wal``'s committed pages included,
which no writer waits for. ``cp`` of a live WAL file is not a backup: the newest games are in
the ``-wal`` beside it. The copy is one self-contained file (rollback journal, not WAL), 0600,
checked (``quick_check``) before it takes its name; an existing file is never overwritten.
Exit 0: written; 2: the target is unusable; 3: the source is not this bot's database.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bot.cli_args import add_db, leaf, parse
from bot.config import is_url
from bot.store.files import FILE_MODE, READ_TIMEOUT_S, Kind, inspect, read_only_uri
from bot.store.migrations import LATEST
from bot.store.sqlite import fault_of

MAX_PROBLEMS = 100
RESTORE = (
    "Restore the file from a backup (`python -m bot store backup` makes them; how to restore: "
    "docs/reliability.md, Backups); the bot refuses to start on it."
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot store", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    check = leaf(sub, "check", help="check the database file's integrity (read-only)")
    add_db(check)
    backup = leaf(sub, "backup", help="copy the database to a new file, safe while it runs")
    backup.add_argument("--to", dest="target", required=True, help="the new file")
    add_db(backup)
    return parser


POSTGRES = {
    "check": "store check reads a SQLite file; PostgreSQL checks its own pages",
    "backup": "store backup copies a SQLite file; back PostgreSQL up with pg_dump "
    "(docs/reliability.md)",
}
NOT_OURS = (
    "Check the path. A copy made with cp while the bot ran misses what is in the -wal file: "
    "make backups with `python -m bot store backup --to FILE`."
)


def _unreadable(path: Path, exc: sqlite3.Error, out: TextIO, err: TextIO) -> int:
    """What SQLite's refusal to read ``path`` means, printed; the exit code (1: damaged,
    restore it, a finding on ``out``; 3: unreadable for another reason, a lock or the
    permissions, an error on ``err``)."""
    if (getattr(exc, "sqlite_errorname", None) or "").startswith("SQLITE_CORRUPT"):
        print(f"{path}: integrity: damaged, SQLite stopped reading it: {exc}", file=out)
        print(RESTORE, file=out)
        return 1
    print(f"{path}: cannot read: {fault_of(exc) or exc} ({exc})", file=err)
    return 3


def _ours(path: Path, out: TextIO, err: TextIO) -> int | None:
    """None when ``path`` holds this bot's database, else the exit code, with its lines on
    ``err`` (a script pipes ``out``, the results)."""
    try:
        found = inspect(path)
    except OSError as exc:
        print(f"{path}: cannot open: {exc.strerror or exc}", file=err)
        return 3
    except sqlite3.Error as exc:
        return _unreadable(path, exc, out, err)
    if found.kind is Kind.MISSING:
        print(f"{path}: no database file there", file=err)
        return 3
    if found.kind is not Kind.OURS:
        print(f"{path}: not a database of this bot: {found.why}", file=err)
        print(NOT_OURS, file=err)
        return 3
    return None


def check(path: Path, out: TextIO, err: TextIO | None = None) -> int:
    """Print what SQLite finds in ``path`` on ``out``, why it cannot look on ``err`` (default:
    standard error); the exit code (0 sound, 1 damaged, 3 unreadable)."""
    err = err or sys.stderr
    refused = _ours(path, out, err)
    if refused is not None:
        return refused
    try:
        db = sqlite3.connect(read_only_uri(path), uri=True, timeout=READ_TIMEOUT_S)
    except sqlite3.Error as exc:
        print(f"{path}: cannot open: {fault_of(exc) or exc}", file=err)
        return 3
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        problems = [str(r[0]) for r in db.execute(f"PRAGMA integrity_check({MAX_PROBLEMS})")]
        if problems == ["ok"]:
            problems = []
        keys = db.execute("PRAGMA foreign_key_check").fetchall()
    except sqlite3.Error as exc:
        return _unreadable(path, exc, out, err)
    finally:
        db.close()
    newer = " (newer than this bot's)" if version > LATEST else ""
    print(f"{path}: schema version {version}{newer}", file=out)
    problems += [f"row {r[1]} of {r[0]} points at a missing row of {r[2]}" for r in keys]
    if not problems:
        print("integrity: ok", file=out)
        return 0
    print(f"integrity: damaged, {len(problems)} problem(s):", file=out)
    for line in problems[:MAX_PROBLEMS]:
        print(f"  {line}", file=out)
    print(RESTORE, file=out)
    return 1


def backup(source: Path, target: Path, out: TextIO, err: TextIO | None = None) -> int:
    """Copy the database at ``source`` to the new file ``target`` (see the module's docstring),
    saying what was written on ``out``, why nothing was on ``err`` (default: standard error);
    the exit code (0 written, 2 the target unusable, 3 the source not this bot's database)."""
    err = err or sys.stderr
    if os.path.lexists(target):
        print(f"{target} already exists: a backup never overwrites a file; name another", file=err)
        return 2
    if not target.parent.is_dir():
        print(f"{target}: no folder {target.parent} to write it in", file=err)
        return 2
    refused = _ours(source, out, err)
    if refused is not None:
        return refused
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
        version, games, problems = _copy(source, partial)
        if problems:
            print(f"nothing written: the copy of {source} is damaged: {problems[0]}", file=err)
            print(RESTORE, file=err)
            return 1
        _into_place(partial, target)
    except sqlite3.Error as exc:
        print(f"nothing written: {fault_of(exc) or exc} ({exc})", file=err)
        return 3
    except OSError as exc:
        print(f"nothing written: {exc.strerror or exc} ({exc.filename or target})", file=err)
        return 2
    finally:
        for leftover in (partial, Path(f"{partial}-journal")):
            leftover.unlink(missing_ok=True)
    print(
        f"backed up {source} to {target}: schema version {version}, {games} game(s), integrity ok",
        file=out,
    )
    return 0


def _copy(source: Path, target: Path) -> tuple[int, int, list[str]]:
    """SQLite's online backup of ``source`` into ``target`` in one step (one read transaction:
    one moment's snapshot), made a rollback-journal file and checked: (schema version, games,
    problems found)."""
    src = sqlite3.connect(read_only_uri(source), uri=True, timeout=READ_TIMEOUT_S)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")  # one file; the bot turns WAL on again
            problems = [str(r[0]) for r in dst.execute("PRAGMA quick_check")]
            version = int(dst.execute("PRAGMA user_version").fetchone()[0])
            games = int(dst.execute("SELECT count(*) FROM games").fetchone()[0])
        finally:
            dst.close()
    finally:
        src.close()
    with open(target, "rb+") as f:
        os.fsync(f.fileno())
    return version, games, [] if problems == ["ok"] else problems


def _into_place(partial: Path, target: Path) -> None:
    """Give the finished copy its name, never over a file that appeared meanwhile (a hard
    link fails if the name is taken); a file system without hard links gets a rename."""
    try:
        os.link(partial, target)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(17, "the file appeared meanwhile", str(target)) from None
        os.rename(partial, target)


def main(
    argv: Sequence[str],
    db_path: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run a store command; ``db_path`` is the configured file, used without ``--db``. Results
    go to ``out``, errors to ``err`` (standard output and error: scripts pipe the results)."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        options = parse(_parser(), argv)
    except SystemExit as exc:  # argparse has printed the usage
        return int(exc.code or 0) and 2
    if options.db is None and db_path is None:
        from bot.config import database_from_env

        db_path = database_from_env(os.environ)  # the one setting read (bot.__main__.OFFLINE)
    chosen = options.db or db_path or ""
    if is_url(chosen):  # never echo the URL: it may hold the password
        print(POSTGRES[options.command], file=err)
        return 2
    where = Path(chosen)
    if options.command == "backup":
        return backup(where, Path(options.target), out, err)
    return check(where, out, err)
