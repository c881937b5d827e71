"""Configuration from the environment: the Discord token, the database file, logging, a dev guild.

The token is kept out of ``repr`` and logs; ``Config.from_env()`` reads, validates and defaults.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import translations

DEFAULT_DB = Path("data") / "referee.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A setting that cannot be used; the message names the variable."""


@dataclass(frozen=True, slots=True)
class Config:
    """What the bot needs to start. ``token`` None means: no Discord, open the console."""

    token: str | None = field(default=None, repr=False)
    db_path: str = str(DEFAULT_DB)
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    language: str = "en"  # the console's (REFEREE_LANGUAGE, or python -m bot console --lang)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read DISCORD_TOKEN, REFEREE_DB, LOG_LEVEL, DEV_GUILD_ID and REFEREE_LANGUAGE (unset or
        empty: default)."""
        env = os.environ if env is None else env
        token = (env.get("DISCORD_TOKEN") or "").strip() or None
        db_path = (env.get("REFEREE_DB") or "").strip() or str(DEFAULT_DB)
        level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        guild_text = (env.get("DEV_GUILD_ID") or "").strip()
        guild = None
        if guild_text:
            if not guild_text.isdigit():
                raise ConfigError(f"DEV_GUILD_ID must be a server id (digits), not {guild_text!r}")
            guild = int(guild_text)
        try:
            lang = translations.language((env.get("REFEREE_LANGUAGE") or "").strip())
        except translations.UnknownLanguage as exc:
            raise ConfigError(f"REFEREE_LANGUAGE: {exc}") from None
        return cls(token=token, db_path=db_path, log_level=level, dev_guild_id=guild, language=lang)

    @property
    def has_token(self) -> bool:
        return self.token is not None
