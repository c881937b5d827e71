"""``python -m bot``: serve Discord when DISCORD_TOKEN is set, else open the console table.

python -m bot                  Discord with a token, the console without
python -m bot console          the console table (same referee and store)
python -m bot sync [guild_id]  publish the slash commands (to one guild: instantly)
python -m bot ladder rebuild   recompute the ladders from the stored games
python -m bot store check      check the database file's integrity (read-only)
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bot.config import Config, ConfigError

NO_TOKEN = (
    "DISCORD_TOKEN is not set, so the bot is not connecting to Discord.\n"
    "To play on Discord: create an application, set DISCORD_TOKEN (see README.md and\n"
    "docs/discord-setup.md) and run `make run` again. Meanwhile, here is the console table."
)


def _app():  # the Discord layer is optional for the console
    try:
        import bot.app as app
    except ImportError as exc:
        print(f"the Discord layer cannot be loaded ({exc}); use `python -m bot console`")
        return None
    return app


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; a database that cannot be opened ends it with the store's one log line."""
    from bot.store import SchemaTooNew, StoreUnavailable

    try:
        return _command(argv)
    except (SchemaTooNew, StoreUnavailable):
        return 3


def _command(argv: Sequence[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    command = args[0] if args else "run"
    if command == "console":
        from bot.console import run_console

        return run_console(config)
    if command == "sync":
        if not config.has_token:
            print("sync needs DISCORD_TOKEN", file=sys.stderr)
            return 2
        guild = int(args[1]) if len(args) > 1 and args[1].isdigit() else config.dev_guild_id
        app = _app()
        if app is None:
            return 1
        app.sync(config, guild)
        return 0
    if command == "ladder":
        try:
            from bot.ladder import cli
        except ImportError:
            print("ladder commands are not available in this version", file=sys.stderr)
            return 1
        return int(cli(config, args[1:]) or 0)
    if command == "store":
        from bot.store_cli import main as store_main

        return store_main(args[1:], str(config.db_path))
    if command != "run":
        print(__doc__, file=sys.stderr)
        return 2
    if config.has_token:
        app = _app()
        if app is None:
            return 1
        app.run(config)
        return 0
    print(NO_TOKEN)
    from bot.console import run_console

    return run_console(config)


if __name__ == "__main__":
    sys.exit(main())
