"""``python -m bot ladder rebuild [--guild ID] [--check] [--db DB]``: recompute the ladders.

Every rating is a fold of ``bot.ladder.apply_game`` over the stored finished games, so the
tables can always be rebuilt: after a restore from backup, a dispute that changed a result, or to
check that the live updates hold (``--check`` writes nothing and exits 1 on any difference).
It runs beside the bot: the computing takes no lock, and the result is written in one short
transaction (``bot.ladder_store.rebuild_store``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from bot.cli_args import add_db, chosen_database, leaf, parse
from bot.config import ConfigError, is_snowflake, shown_database
from bot.ladder_store import RebuildRaced, RebuildReport, rebuild_store
from bot.store import Access, open_store

MAX_SHOWN = 20


def guild_id(text: str) -> int:
    """A server id as typed, or 0 for the console's games: anything else is a usage error. A
    number past 2**63-1 reached SQLite (an OverflowError traceback); -5 or '１２３' rebuilt
    a server that cannot exist and said "no differences"."""
    if text != "0" and not is_snowflake(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a server id (digits, like 123456789; 0: the console's games)"
        )
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot ladder", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rebuild = leaf(sub, "rebuild", help="recompute every rating from the stored games")
    rebuild.add_argument(
        "--guild", type=guild_id, default=None, help="only this server (0: the console's games)"
    )
    rebuild.add_argument("--check", action="store_true", help="only report differences")
    add_db(rebuild)
    return parser


async def rebuild(db_path: str, guild: int | None, check: bool) -> RebuildReport:
    store = await open_store(db_path, Access.READ if check else Access.EXISTING)
    try:
        return await rebuild_store(store, guild, check=check)
    finally:
        await store.close()


def main(config: Any, args: Sequence[str], out: TextIO | None = None) -> int:
    """Run a ladder command; 0 on success, 1 when ``--check`` found differences, 2 on usage.
    A ``--guild`` with no rated games is said so (a mistyped id, more often than not) and is
    no failure: there is nothing to rebuild, as for the console's ladder on a fresh file."""
    out = out or sys.stdout
    try:
        options = parse(_parser(), args)
    except SystemExit as exc:  # argparse has printed the usage
        return int(exc.code or 0) and 2
    try:
        db = chosen_database(options.db, str(config.db_path))
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(rebuild(db, options.guild, options.check))
    except RebuildRaced as exc:
        print(f"nothing written: {exc}", file=sys.stderr)
        return 1
    if options.guild is not None and not report.seasons:  # not "0 season(s)... no differences"
        print(
            f"guild {options.guild} has no rated games in {shown_database(db)}: nothing to rebuild "
            "(0 is the console's ladder)",
            file=out,
        )
        return 0
    if report.retries:
        print(f"recomputed {report.retries} time(s): results changed while it ran", file=out)
    print(
        f"{report.seasons} season(s), {report.games} rated game(s), {report.rows} rating(s) "
        f"recomputed from {shown_database(db)}",
        file=out,
    )
    for line in report.differences[:MAX_SHOWN]:
        print(f"  {line}", file=out)
    if len(report.differences) > MAX_SHOWN:
        print(f"  ... and {len(report.differences) - MAX_SHOWN} more", file=out)
    if not report.differences:
        print("no differences: the stored ratings equal the rebuild", file=out)
        return 0
    if options.check:
        print(f"{len(report.differences)} difference(s); run without --check to fix", file=out)
        return 1
    print(f"{len(report.differences)} rating(s) rewritten", file=out)
    return 0
