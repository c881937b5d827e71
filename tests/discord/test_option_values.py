"""Hostile option values in every option of every command: numbers past what a float holds
(10**400 made ``math.isfinite`` raise OverflowError inside the interaction check, so the task died
unanswered), NaN and infinities, huge numbers written as text. Every one gets an answer: a
private reason for any option that is not text, and never the generic apology or an error log.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands

from bot.discord_ui.tree import UNEXPECTED
from tests.discord.conftest import ALICE, BOB
from tests.discord.harness import Harness, Role, Upload
from tests.discord.play import start_game

HOSTILE = (
    10**400,
    -(10**400),
    10**4000,  # still a number Python's JSON parser gives back (under 4300 digits)
    2**1024,
    float("nan"),
    float("inf"),
    float("-inf"),
    1e308,
    "1" + "0" * 400,
    "1e999",
    "nan",
    "-inf",
)


def plain(param: app_commands.Parameter) -> Any:
    """A fitting value for the options a case does not vary."""
    if param.choices:
        return param.choices[0].value
    kind = param.type
    if kind is AppCommandOptionType.user:
        return BOB
    if kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
        return param.min_value if param.min_value is not None else 1
    if kind is AppCommandOptionType.boolean:
        return False
    if kind is AppCommandOptionType.attachment:
        return Upload("record.json", b"{}")
    if kind is AppCommandOptionType.role:
        return Role(700_000_000_000_000_301)
    return "a1"


def cases(h: Harness) -> list[tuple[str, app_commands.Parameter]]:
    found = []
    for command in h.bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                found.append((command.qualified_name, param))
    return sorted(found, key=lambda c: (c[0], c[1].name))


async def test_every_option_answers_any_number(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await start_game(harness, ALICE, BOB, "atmalof")
    harness.bot.cooldowns = None  # hundreds of commands from one person on purpose
    caplog.set_level(logging.INFO)
    tried = set()
    for path, param in cases(harness):
        others = {p.name: plain(p) for p in harness.command(path).parameters if p.required}
        for value in HOSTILE:
            exchange = await harness.slash(ALICE, path, **{**others, param.name: value})
            what = f"/{path} {param.name}={str(value)[:20]}"
            assert exchange.messages, f"{what}: no answer"
            assert UNEXPECTED not in exchange.text, what
            if param.type is not AppCommandOptionType.string:
                assert exchange.all_ephemeral and param.display_name in exchange.text, what
            tried.add(param.type)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:3]
    assert {AppCommandOptionType.integer, AppCommandOptionType.string} <= tried


async def test_a_bug_in_the_interaction_check_is_still_answered(
    harness: Harness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the check trips on next (a fault injected here), the person gets the apology and
    the log one line with the context, instead of a task dying unanswered."""

    def broken(interaction: Any) -> None:
        raise ZeroDivisionError("a bug nobody has found yet")

    monkeypatch.setattr("bot.discord_ui.tree.check_options", broken)
    exchange = await harness.slash(ALICE, "board")
    assert exchange.all_ephemeral and exchange.text == UNEXPECTED
    (logged,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "unexpected error" in logged.getMessage() and "'command': 'board'" in logged.getMessage()
    assert logged.exc_info and logged.exc_info[0] is ZeroDivisionError
