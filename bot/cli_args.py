"""What the operator commands' command lines share: one ``--db`` for every command that opens
the database (``store check``, ``backup``, ``forget``, ``copy``'s source, ``ladder rebuild``),
defined once so its name, default and help never drift apart; and parsing that blames a stray
argument on the subcommand it was given to, with that subcommand's usage."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

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


def leaf(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, *, help: str
) -> argparse.ArgumentParser:
    """A subcommand's parser, which ``parse`` blames for a stray argument after it."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help)
    parser.set_defaults(usage_of=parser)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """``parser.parse_args``, but an argument nothing took is a usage error of the subcommand it
    followed: ``parse_args`` said it under the top-level usage (``python -m bot [-h] COMMAND
    ...``), which does not show what the subcommand takes. Exits (SystemExit) as argparse does."""
    args, extra = parser.parse_known_args(list(argv))
    if extra:
        blamed: argparse.ArgumentParser = getattr(args, "usage_of", parser)
        blamed.error(f"unrecognized arguments: {' '.join(extra)}")
    return args
