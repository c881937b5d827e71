"""Configuration from the environment: the Discord token, the database file, logging, a dev guild.

The token is kept out of ``repr`` and logs; ``Config.from_env()`` reads, validates and defaults.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import translations
from bot import event_loop
from bot.errors import RefereeError
from bot.logs import LOG_FORMATS
from bot.shards import ShardError, Shards

DEFAULT_DB = Path("data") / "referee.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_PRACTICE_WORKERS = 64  # PRACTICE_WORKERS at most
MAX_SNOWFLAKE = 2**63 - 1  # a Discord id is a positive signed 64-bit number
LOOPBACK = "127.0.0.1"  # METRICS_HOST's default: this host only, never its public interface
TOKEN_TEXT = re.compile(r"[A-Za-z0-9._-]+")  # what Discord issues: base64url parts and dots


class ConfigError(RefereeError, ValueError):
    """A setting that cannot be used; the message names the variable."""


def is_number(text: str) -> bool:
    """Only the digits 0-9: ``str.isdigit`` alone also takes ``'²'`` (which ``int`` refuses with
    a traceback) and ``'１２３'`` (which ``int`` reads as 123)."""
    return text.isascii() and text.isdigit()


def is_snowflake(text: str) -> bool:
    """A Discord id as typed: digits only, 1..2**63-1 (0 is no server, never "every server")."""
    return is_number(text) and 0 < int(text) <= MAX_SNOWFLAKE


def is_ip_address(text: str) -> bool:
    """An IPv4 or IPv6 address as written (``0.0.0.0``, ``::1``); never a name to look up, which
    could resolve to an interface nobody meant."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def token_problem(token: str) -> str:
    """Why DISCORD_TOKEN cannot be a bot token, never quoting it. A line break or a control
    character in it once reached aiohttp, which raised a traceback instead of a login; a
    space or quotes are a paste's leftovers (``Bot ...``, an env file's ``"..."``)."""
    if token.lower().startswith("bot "):
        hint = "it starts with 'Bot ': set the token alone"
    elif any(c in token for c in "\"'"):
        hint = "it holds quotes: set the token without them"
    elif any(c.isspace() for c in token):
        hint = "it holds a space or a line break: copy it again as one line"
    else:
        hint = "it holds a character a token never has: copy it again"
    return (
        f"DISCORD_TOKEN is not a bot token ({hint}); a token is letters, digits, '.', '-' and "
        "'_' only (docs/discord-setup.md)"
    )


def url_problem(db: str) -> str | None:
    """Why a database URL cannot be used (its host or port unreadable), or None. The answer
    never quotes the URL: what ``urlsplit`` complains about may be part of the password."""
    try:
        urlsplit(db).port  # noqa: B018 - reading it is the check: a port that is not a number raises
    except ValueError:
        return (
            "REFEREE_DB is not a usable database URL (its host or port cannot be read); "
            "expected postgresql://user:password@host:port/database"
        )
    return None


def is_url(db: str) -> bool:
    """A database URL (PostgreSQL) rather than a SQLite file path."""
    return db.startswith(("postgresql://", "postgres://"))


_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
SQLITE_URL = "sqlite:///"


def database(text: str, name: str = "REFEREE_DB") -> str:
    """Where the database is: a SQLite file path or a ``postgresql://`` URL, as written. A
    ``sqlite:///PATH`` URL is its path (``sqlite:///data/referee.db``: relative,
    ``sqlite:////srv/referee.db``: absolute, as SQLAlchemy reads them). Any other URL is a
    ConfigError naming only its scheme (the rest may hold a password): taken as a path it would
    make folders named after the server and the password."""
    if is_url(text):
        if problem := url_problem(text):
            raise ConfigError(problem.replace("REFEREE_DB", name, 1))
        return text
    found = _SCHEME.match(text)
    if found is None:
        return text
    scheme = found.group(1)
    if text.startswith(SQLITE_URL) and text != SQLITE_URL:
        return text.removeprefix(SQLITE_URL)
    if scheme.lower() == "sqlite":
        raise ConfigError(
            f"{name}: write a SQLite URL as sqlite:///relative/path or sqlite:////absolute/path "
            "(no host), or just the file's path"
        )
    raise ConfigError(
        f"{name} is a {scheme}:// URL; the bot stores in a SQLite file (a path) or PostgreSQL "
        "(a postgresql:// URL)"
    )


def database_from_env(env: Mapping[str, str]) -> str:
    """REFEREE_DB (unset or empty: ``DEFAULT_DB``), read as ``database`` reads it."""
    return database((env.get("REFEREE_DB") or "").strip() or str(DEFAULT_DB))


def redacted(db: str) -> str:
    """``db`` fit for a log line: a URL's password replaced by ``***``."""
    if not is_url(db):
        return db
    parts = urlsplit(db)
    if parts.password is None:
        return db
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def shown_database(db: str) -> str:
    """Which database ``db`` is, for the operator to read: a file's absolute path (a mistyped
    relative path makes a new file elsewhere than they think), a URL without its password."""
    return redacted(db) if is_url(db) else os.path.abspath(db)


@dataclass(frozen=True, slots=True)
class Config:
    """What the bot needs to start. ``token`` None means: no Discord, open the console."""

    token: str | None = field(default=None, repr=False)
    db_path: str = str(DEFAULT_DB)
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    shards: Shards = field(default_factory=Shards)  # SHARD_COUNT, SHARD_IDS (bot.shards)
    metrics_port: int | None = None  # METRICS_PORT: Prometheus's /metrics (bot.metrics)
    metrics_host: str = LOOPBACK  # METRICS_HOST: the address it listens on (0.0.0.0: everywhere)
    log_format: str = "text"  # LOG_FORMAT: text or json (bot.logs)

    language: str = "en"  # the console's (REFEREE_LANGUAGE, or python -m bot console --lang)
    practice_workers: int = 1  # PRACTICE_WORKERS: practice games searched at once (a process each)
    event_loop: str = event_loop.DEFAULT  # EVENT_LOOP: uvloop or asyncio (bot.event_loop)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read DISCORD_TOKEN, REFEREE_DB, LOG_LEVEL, DEV_GUILD_ID, SHARD_COUNT, SHARD_IDS,
        METRICS_PORT, METRICS_HOST, LOG_FORMAT, REFEREE_LANGUAGE, PRACTICE_WORKERS and
        EVENT_LOOP (unset or empty: default)."""
        env = os.environ if env is None else env
        token = (env.get("DISCORD_TOKEN") or "").strip() or None
        if token is not None and not TOKEN_TEXT.fullmatch(token):
            raise ConfigError(token_problem(token))
        db_path = database_from_env(env)
        level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        guild_text = (env.get("DEV_GUILD_ID") or "").strip()
        guild = None
        if guild_text:
            if not is_snowflake(guild_text):
                raise ConfigError(
                    f"DEV_GUILD_ID must be a server id (digits, like 123456789), not {guild_text!r}"
                )
            guild = int(guild_text)
        try:
            shards = Shards.from_text(env.get("SHARD_COUNT"), env.get("SHARD_IDS"))
        except ShardError as exc:
            raise ConfigError(str(exc)) from None
        port_text = (env.get("METRICS_PORT") or "").strip()
        if port_text and (not is_number(port_text) or not 0 < int(port_text) < 65536):
            raise ConfigError(f"METRICS_PORT must be a port number 1..65535, not {port_text!r}")
        host = (env.get("METRICS_HOST") or "").strip() or LOOPBACK
        if not is_ip_address(host):
            raise ConfigError(
                "METRICS_HOST must be an IP address to listen on (127.0.0.1: this host only, "
                f"0.0.0.0: every interface), not {host!r}"
            )
        log_format = (env.get("LOG_FORMAT") or "text").strip().lower()
        if log_format not in LOG_FORMATS:
            raise ConfigError(
                f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}"
            )
        try:
            lang = translations.language((env.get("REFEREE_LANGUAGE") or "").strip())
        except translations.UnknownLanguage as exc:
            raise ConfigError(f"REFEREE_LANGUAGE: {exc}") from None
        workers_text = (env.get("PRACTICE_WORKERS") or "1").strip()
        if not is_number(workers_text) or not 1 <= int(workers_text) <= MAX_PRACTICE_WORKERS:
            raise ConfigError(
                f"PRACTICE_WORKERS must be a number of processes 1..{MAX_PRACTICE_WORKERS}, "
                f"not {workers_text!r}"
            )
        loop = (env.get("EVENT_LOOP") or event_loop.DEFAULT).strip().lower()
        if loop not in event_loop.LOOPS:
            raise ConfigError(
                f"EVENT_LOOP must be one of {', '.join(event_loop.LOOPS)}, not {loop!r}"
            )
        return cls(
            token=token,
            db_path=db_path,
            log_level=level,
            dev_guild_id=guild,
            shards=shards,
            metrics_port=int(port_text) if port_text else None,
            metrics_host=host,
            log_format=log_format,
            language=lang,
            practice_workers=int(workers_text),
            event_loop=loop,
        )

    @property
    def has_token(self) -> bool:
        return self.token is not None
