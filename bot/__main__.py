"""``python -m bot``: serve Discord when DISCORD_TOKEN is set, else open the console table.

python -m bot [run]                   Discord with a token; without one, the console at a terminal
python -m bot console [--lang LANG]   the console table (same referee and store)
python -m bot sync GUILD_ID           publish the slash commands to one server (instantly)
python -m bot sync --global           publish them to every server (may take an hour)
python -m bot store forget --guild ID [--yes] [--db DB]   remove a server's data (no --yes: count)
python -m bot store check [--db DB]   check the database file's integrity (read-only)
python -m bot store backup --to FILE [--db DB]   copy the SQLite database, safe while it runs
python -m bot store copy [--db DB] --to postgresql://...   move the history to PostgreSQL
python -m bot ladder rebuild [--guild ID] [--check] [--db DB]   recompute the ladders from the games
python -m bot health                  exit 0 while the heartbeat is fresh (Docker's health check)
--db DB: the database a store or ladder command opens (a file or a URL; default: REFEREE_DB)
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import stat
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, TextIO, cast

import translations
from bot.cli_args import add_db, chosen_database, leaf, parse
from bot.config import Config, ConfigError, database, database_from_env, is_snowflake, is_url

INTERRUPTED = (
    "interrupted (Ctrl-C): a write under way was not committed (each command writes in one "
    "transaction)"
)
# The commands on the database: REFEREE_DB is the one setting they use, so a bad DISCORD_TOKEN
# or LOG_LEVEL, which keeps the bot from starting, never keeps the operator from checking,
# backing up or copying its file (nor from `ladder rebuild --help`).
OFFLINE = ("store", "ladder")
HEARTBEAT_MAX_AGE = 120.0  # seconds; the bot touches the file every few seconds while serving


def snowflake(text: str) -> int:
    """A Discord id (digits only, 1..2**63-1): anything else is a usage error, never a guess."""
    if not is_snowflake(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a server id (digits, like 123456789)")
    return int(text)


def parser() -> argparse.ArgumentParser:
    """The whole command line; each subcommand validates its own arguments."""
    summary, commands = __doc__.replace("``", "").split("\n\n", 1)
    top = argparse.ArgumentParser(  # the docstring's table: every operator command, spelled out
        prog="python -m bot",
        description=summary,
        epilog="every command:\n" + "".join(f"  {line}\n" for line in commands.splitlines()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    leaf(sub, "run", help="Discord with a token; without one, the console at a terminal")
    console = leaf(sub, "console", help="the console table (same referee and store)")
    console.add_argument(
        "--lang",
        choices=translations.LANGUAGES,
        help="the table's language (default: REFEREE_LANGUAGE, else en)",
    )
    sync = leaf(sub, "sync", help="publish the slash commands (to one server, or --global)")
    where = sync.add_mutually_exclusive_group()
    where.add_argument("guild", nargs="?", type=snowflake, help="the server to publish to")
    where.add_argument("--global", dest="everywhere", action="store_true", help="every server")
    store = sub.add_parser("store", help="operator commands on the database")
    store_sub = store.add_subparsers(dest="store_command", required=True, metavar="STORE_COMMAND")
    forget = leaf(store_sub, "forget", help="remove one server's data (docs/privacy.md)")
    forget.add_argument("--guild", type=snowflake, required=True, help="the server's id")
    forget.add_argument("--yes", action="store_true", help="delete (without it: only count)")
    add_db(forget)
    check = leaf(store_sub, "check", help="check the database file's integrity (read-only)")
    add_db(check)
    backup = leaf(store_sub, "backup", help="copy the database to a new file, while it runs")
    backup.add_argument("--to", dest="target", required=True, help="the new file")
    add_db(backup)
    move = leaf(store_sub, "copy", help="copy a SQLite file to PostgreSQL, then verify")
    add_db(move, "--from")  # --from: its first spelling, kept for the scripts that use it
    move.add_argument("--to", dest="target", required=True, help="a postgresql:// URL")
    ladder = sub.add_parser(
        "ladder", help="ladder commands: rebuild [--guild ID] [--check] [--db DB]"
    )
    ladder.add_argument(
        "args",
        nargs=argparse.REMAINDER,
        help="rebuild [--guild ID] [--check] [--db DB]; `python -m bot ladder rebuild -h`: more",
    )
    leaf(sub, "health", help="exit 0 while REFEREE_HEARTBEAT is fresh, else 1")
    return top


def _app():  # the Discord layer is optional for the console
    try:
        import bot.discord_ui.app as app
    except ImportError as exc:
        print(f"the Discord layer cannot be loaded ({exc}); use `python -m bot console`")
        return None
    return app


class ReaderMayLeave:
    """Standard output for every command but the console table: a reader that leaves early
    (`store check | head -1`) ends the output, not the command. The rest goes to os.devnull
    and the exit code stays the command's own (1 for a damaged file, 0 for a copy that
    verified), where a BrokenPipeError once printed a traceback and exited 1 whatever the
    work had found. Output that cannot be written for another reason (`> /dev/full`, a full
    disk) is said once on standard error, the exit code again the command's. The console
    keeps the stream itself: its loop leaves when nobody reads."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as exc:
            self._unwritable(exc)
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            self._unwritable(exc)

    def _unwritable(self, exc: OSError) -> None:
        from bot.console.lines import silence

        silence(self.stream)
        if not isinstance(exc, BrokenPipeError):  # nobody chose to stop reading: say it
            print(f"standard output cannot be written: {exc.strerror or exc}", file=sys.stderr)

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding: the stream's
        return getattr(self.stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; a database that cannot be opened ends it with the store's one log line.
    Standard output is ``ReaderMayLeave`` for the command's length (one place for every
    command, argparse's --help included)."""
    from bot.store import SchemaTooNew, StoreUnavailable

    real = sys.stdout
    if real is not None:  # None: started without a standard output; print() writes nothing
        sys.stdout = cast(TextIO, ReaderMayLeave(real))
    no_errors = sys.stderr is None  # `2>&-`: print(file=sys.stderr), argparse's usage: stdout
    if no_errors:  # where a script reads results; an error there reads as one: say it nowhere
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    hook, interrupted = threading.excepthook, False
    threading.excepthook = _quiet_when_the_loop_closed  # set before a Ctrl-C can close the loop
    try:
        code = _command(argv)
        if sys.stdout is not None:  # block-buffered output meets a closed pipe here
            sys.stdout.flush()
        return code
    except (SchemaTooNew, StoreUnavailable):
        return 3
    except KeyboardInterrupt:  # Ctrl-C in `store copy`, `ladder rebuild`: no traceback
        interrupted = True  # (the hook stays: a worker thread may end after this returns)
        print(INTERRUPTED, file=sys.stderr)
        return 130  # 128 + SIGINT, as a shell reports a command Ctrl-C stopped
    finally:
        if not interrupted:
            threading.excepthook = hook
        sys.stdout = real
        if no_errors:
            sys.stderr.close()
            sys.stderr = cast(TextIO, None)


def _quiet_when_the_loop_closed(args: threading.ExceptHookArgs) -> None:
    """After a Ctrl-C the event loop is closed while aiosqlite's worker thread may still hand
    back a result ("Event loop is closed", a traceback after the one-line message, seen under
    load); that one is expected, and any other thread error is still reported."""
    if isinstance(args.exc_value, RuntimeError) and "loop is closed" in str(args.exc_value):
        return
    threading.__excepthook__(args)


def _command(argv: Sequence[str] | None) -> int:
    try:
        args = parse(parser(), sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse printed the usage (or the help)
        return 0 if exc.code in (0, None) else 2
    command = args.command or "run"
    if command == "health":
        return heartbeat_status(os.environ.get("REFEREE_HEARTBEAT"))
    try:
        if command in OFFLINE:
            config = Config(db_path=database_from_env(os.environ))
        else:
            config = Config.from_env()
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    if command == "console":
        if args.lang:
            config = dataclasses.replace(config, language=args.lang)
        return _console(config)
    if command == "sync":
        return _sync(config, args.guild, everywhere=args.everywhere)
    if command == "store":
        try:
            where = chosen_database(args.db, config.db_path)
            if args.store_command == "copy":
                target = database(args.target, "--to")  # unreadable: never quoted, no traceback
        except ConfigError as exc:
            print(f"configuration error: {exc}", file=sys.stderr)
            return 2
        return _store(args, where, target if args.store_command == "copy" else "", config)
    if command == "ladder":
        from bot.ladder_cli import main as ladder_cli

        return int(ladder_cli(config, args.args) or 0)
    if config.has_token:
        app = _app()
        if app is None:
            return 1
        return int(app.run(config))
    w = translations.words(config.language)  # the console's language (REFEREE_LANGUAGE)
    if not has_console_input():
        print(w.t("console.no_token_no_input"), file=sys.stderr)
        return 2
    return _console(config, w.t("console.no_token"))


def _console(config: Config, banner: str | None = None) -> int:
    """The console table; a reader that goes away (`make run | head`) ends it quietly, exit 0,
    as its loop does: the banner's print, and the interpreter's last flush, once ended it with
    a BrokenPipeError traceback and exit 1."""
    from bot.console.lines import silence
    from bot.console.table import run_console

    out = sys.stdout.stream if isinstance(sys.stdout, ReaderMayLeave) else sys.stdout
    try:
        if banner is not None:
            print(banner, file=out)
        code = run_console(config, out=out)
        out.flush()  # a closed pipe is found here, not at the interpreter's exit
    except BrokenPipeError:
        silence(out)
        return 0
    return code


def _store(args: argparse.Namespace, where: str, target: str, config: Config) -> int:
    """``store check``, ``backup``, ``copy`` or ``forget`` on ``where`` (``--db``, else
    REFEREE_DB)."""
    if args.store_command in ("check", "backup"):
        from bot.store.cli import main as store_cli

        return store_cli(_store_argv(args), where, sys.stdout)
    if args.store_command == "copy":
        from bot.store.copy import cli as copy_cli

        if is_url(where):  # never quoted: it may hold the password
            print(
                "store copy copies from a SQLite file, and --db (default: REFEREE_DB) is a "
                "PostgreSQL URL: name the file with --db",
                file=sys.stderr,
            )
            return 2
        return copy_cli(where, target, sys.stdout)
    from bot.forget import cli as forget_cli

    return forget_cli(dataclasses.replace(config, db_path=where), args.guild, delete=args.yes)


def _store_argv(args: argparse.Namespace) -> list[str]:
    """``store check`` or ``store backup`` again as ``bot.store.cli`` reads them (its --db is
    passed on its own, already read)."""
    if args.store_command == "backup":
        return ["backup", "--to", args.target]
    return ["check"]


def _sync(config: Config, guild: int | None, *, everywhere: bool) -> int:
    """Publish to one server (the argument, else DEV_GUILD_ID), or everywhere only when asked."""
    if not config.has_token:
        print("sync needs DISCORD_TOKEN", file=sys.stderr)
        return 2
    if guild is None and not everywhere:
        guild = config.dev_guild_id
    if guild is None and not everywhere:
        print(
            "sync needs a server id (or DEV_GUILD_ID), or --global to publish to every server",
            file=sys.stderr,
        )
        return 2
    app = _app()
    if app is None:
        return 1
    return int(app.sync(config, guild))


def has_console_input(fd: int = 0) -> bool:
    """Is someone there to type: a terminal, or input piped or redirected from a file?

    A container started without ``-it`` has /dev/null (or nothing) as its input: there the
    console would read end-of-file at once and exit 0, and a restart policy would loop quietly.
    """
    try:
        if os.isatty(fd):
            return True
        mode = os.fstat(fd).st_mode
    except OSError:  # no standard input at all
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISSOCK(mode)


def heartbeat_status(path: str | None, max_age: float = HEARTBEAT_MAX_AGE) -> int:
    """0 if the heartbeat file was touched within ``max_age`` seconds, else 1 (with a line why)."""
    if not path:
        print("REFEREE_HEARTBEAT is not set", file=sys.stderr)
        return 1
    try:
        found = os.stat(path)
    except OSError:
        print(f"no heartbeat at {path}: not connected to Discord yet", file=sys.stderr)
        return 1
    if not stat.S_ISREG(found.st_mode):  # a folder's time says nothing about the bot
        print(f"REFEREE_HEARTBEAT={path} is not a file: point it at a file", file=sys.stderr)
        return 1
    age = time.time() - found.st_mtime
    if age > max_age:
        print(
            f"heartbeat {age:.0f} s old: disconnected from Discord, or not serving", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
