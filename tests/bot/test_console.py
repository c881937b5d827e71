"""The console table driven by scripted input, end to end; and the entry point's choices."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.console import play

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """\
alice: help
alice: challenge bob morris first me
bob: accept
alice: place a7
bob: place a1
carol: place d7
alice: place d7
bob: place d1
alice: place g7
alice: remove a1
bob: resign
alice: verify
quit
"""


async def test_a_whole_console_game_from_scripted_input(tmp_path: Path) -> None:
    out = io.StringIO()
    status = await play(str(tmp_path / "c.db"), io.StringIO(SCRIPT), out, tmp_path / "img")
    text = out.getvalue()
    assert status == 0 and text.rstrip().endswith("bye")
    assert "alice challenges bob to Nine Men's Morris" in text
    assert "[private] (refused) you are not playing in this game" in text  # carol
    assert "Mill! alice (White) removes one of Black's men" in text
    assert "Game over: alice (White) wins (Black resigned)." in text
    assert "Verified: morris standard, 6 actions" in text
    assert "(board image: " in text and any((tmp_path / "img").glob("*.png"))


async def test_end_of_input_closes_the_table(tmp_path: Path) -> None:
    out = io.StringIO()
    assert await play(str(tmp_path / "c.db"), io.StringIO(""), out, None, render=False) == 0
    assert "bye" in out.getvalue()


def test_python_m_bot_without_a_token_opens_the_console_and_exits_on_eof(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(REFEREE_DB=str(tmp_path / "m.db"), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        input="alice: challenge bob atmalof\nbob: accept\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "DISCORD_TOKEN is not set" in done.stdout and "Dice commitment" in done.stdout


def test_config_from_env_defaults_and_errors() -> None:
    config = Config.from_env({})
    assert (config.token, config.db_path, config.log_level) == (None, "data/referee.db", "INFO")
    config = Config.from_env(
        {"DISCORD_TOKEN": "secret", "REFEREE_DB": "/x.db", "DEV_GUILD_ID": "42"}
    )
    assert config.has_token and config.dev_guild_id == 42 and "secret" not in repr(config)
    for bad in ({"LOG_LEVEL": "LOUD"}, {"DEV_GUILD_ID": "guild"}):
        with pytest.raises(ConfigError):
            Config.from_env(bad)
