"""What the operator commands' command lines share: one ``--db`` for every command that opens
the database (``store check``, ``backup``, ``forget``, ``copy``'s source, ``ladder rebuild``),
defined once so its name, default and help never drift apart."""

from __future__ import annotations

import argparse

from bot.config import database

DB_HELP = "the database: a SQLite file or a postgresql:// URL (default: REFEREE_DB)"


def _db_text(text: str) -> str:
    """An empty ``--db`` (``--db "$UNSET"``) is a mistake: taking REFEREE_DB instead, as it
    did, would open another database than the one the operator meant to name."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "it is empty: name a database, or leave --db out to use REFEREE_DB"
        )
    return text


def add_db(parser: argparse.ArgumentParser, *also: str) -> None:
    """The ``--db`` option (and ``also``'s older spellings of it) on ``parser``."""
    parser.add_argument(
        "--db", *also, dest="db", type=_db_text, default=None, metavar="DB", help=DB_HELP
    )


def chosen_database(db: str | None, default: str) -> str:
    """``--db`` as written (read as ``bot.config.database`` reads it), else ``default``;
    raises ConfigError for a URL the bot cannot use (never quoting it)."""
    return default if db is None else database(db, "--db")
