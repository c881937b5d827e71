"""``import bot`` gives the stable service contract and imports nothing heavy by itself."""

from __future__ import annotations

import subprocess
import sys

import bot
from bot.clock import ManualClock
from bot.referee import Referee
from bot.referee.replies import Actor, Where


def test_the_contract_names_are_the_referees_own() -> None:
    assert bot.Referee is Referee and bot.Where is Where and bot.Actor is Actor
    assert bot.ManualClock is ManualClock


def test_import_bot_imports_neither_discord_nor_the_store() -> None:
    probe = "import sys, bot; print('discord' in sys.modules, 'bot.store' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "False"]
    probe = "import sys, bot; bot.RefereeBot; print('discord' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["True"]
