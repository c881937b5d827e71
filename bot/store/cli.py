"""``python -m bot store check [--db PATH]``: is the database file sound?

Runs SQLite's full ``integrity_check`` (at most ``MAX_PROBLEMS`` lines) and ``foreign_key_check``
on a read-only connection, so it never creates, migrates or locks the file, and can run beside
the bot. Exit 0: sound; 1: problems found (restore a backup); 3: the file cannot be opened.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from bot.store.migrations import LATEST
from bot.store.sqlite import fault_of

MAX_PROBLEMS = 100
RESTORE = "Restore the file from a backup; the bot refuses to start on it."


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot store", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="check the database file's integrity (read-only)")
    check.add_argument("--db", default=None, help="the file (default: REFEREE_DB)")
    return parser


def check(path: Path, out: TextIO) -> int:
    """Print what SQLite finds in ``path``; the exit code (0 sound, 1 damaged, 3 unreadable)."""
    if not path.is_file():
        print(f"{path}: no database file there", file=out)
        return 3
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        print(f"{path}: cannot open: {fault_of(exc) or exc}", file=out)
        return 3
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        problems = [str(r[0]) for r in db.execute(f"PRAGMA integrity_check({MAX_PROBLEMS})")]
        if problems == ["ok"]:
            problems = []
        keys = db.execute("PRAGMA foreign_key_check").fetchall()
    except sqlite3.Error as exc:
        if (getattr(exc, "sqlite_errorname", None) or "").startswith("SQLITE_CORRUPT"):
            print(f"{path}: integrity: damaged, SQLite stopped reading it: {exc}", file=out)
            print(RESTORE, file=out)
            return 1
        print(f"{path}: cannot read: {fault_of(exc) or exc} ({exc})", file=out)
        return 3
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


def main(argv: Sequence[str], db_path: str | None = None, out: TextIO | None = None) -> int:
    """Run a store command; ``db_path`` is the configured file, used without ``--db``."""
    out = out or sys.stdout
    try:
        options = _parser().parse_args(list(argv))
    except SystemExit as exc:  # argparse has printed the usage
        return int(exc.code or 0) and 2
    if options.db is None and db_path is None:
        from bot.config import Config

        db_path = Config.from_env().db_path
    return check(Path(options.db or db_path or ""), out)
