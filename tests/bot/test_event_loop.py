"""The event loop (bot.event_loop): uvloop unless EVENT_LOOP says asyncio, for the bot, the
console and this suite alike."""

from __future__ import annotations

import asyncio
import io

import pytest

from bot import event_loop
from bot.config import Config, ConfigError
from bot.console.table import run_console


async def test_the_suite_runs_on_the_bots_own_loop() -> None:
    assert event_loop.kind(asyncio.get_running_loop()) == "uvloop"


@pytest.mark.both_loops
async def test_a_both_loops_test_meets_each_loop_once(request: pytest.FixtureRequest) -> None:
    expected = "asyncio" if "[asyncio]" in request.node.name else "uvloop"
    assert event_loop.kind(asyncio.get_running_loop()) == expected


@pytest.mark.parametrize("name", event_loop.LOOPS)
def test_run_and_runner_make_the_loop_asked_for(name: str) -> None:
    async def which() -> str:
        return event_loop.kind(asyncio.get_running_loop())

    assert event_loop.run(which(), name) == name
    with event_loop.runner(name) as runner:
        assert runner.run(which()) == name == runner.run(which())


def test_an_unknown_loop_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="uvloop, asyncio, not 'trio'"):
        event_loop.factory("trio")


@pytest.mark.parametrize(
    ("text", "loop"),
    [(None, "uvloop"), ("", "uvloop"), ("asyncio", "asyncio"), (" UVLOOP ", "uvloop")],
)
def test_the_config_reads_event_loop(text: str | None, loop: str) -> None:
    env = {} if text is None else {"EVENT_LOOP": text}
    assert Config.from_env(env).event_loop == loop


@pytest.mark.parametrize("text", ["trio", "uv", "1"])
def test_the_config_refuses_another_loop_naming_the_variable(text: str) -> None:
    with pytest.raises(
        ConfigError, match=f"EVENT_LOOP must be one of uvloop, asyncio, not {text!r}"
    ):
        Config.from_env({"EVENT_LOOP": text})


@pytest.mark.parametrize("name", event_loop.LOOPS)
def test_the_console_plays_on_either_loop(name: str, tmp_path) -> None:
    out = io.StringIO()
    config = Config(db_path=str(tmp_path / "t.db"), event_loop=name)
    said = ["alice: challenge bob morris first me", "bob: accept", "alice: place d7", "quit"]
    lines = io.StringIO("\n".join(said) + "\n")
    assert run_console(config, lines, out) == 0
    text = out.getvalue()
    assert "alice (White) places d7." in text  # the move landed (not only echoed)
    assert "○ White 8 in hand, ● Black 9 in hand; ● Black to move" in text
    assert "Traceback" not in text
