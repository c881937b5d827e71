"""LOG_FORMAT=json: every log line is one JSON object a collector can read without parsing prose."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot import logs


@pytest.fixture
def root() -> Iterator[logging.Logger]:
    """The root logger as it was before the test (configure() changes it)."""
    logger = logging.getLogger()
    handlers, level = list(logger.handlers), logger.level
    yield logger
    logger.handlers[:] = handlers
    logger.setLevel(level)


def test_json_lines_carry_time_level_logger_message_and_fields(root: logging.Logger) -> None:
    out = io.StringIO()
    logs.configure("INFO", "json", fields={"shards": "4-7"}, stream=out)
    log = logging.getLogger("bot.test")
    log.info("move %s stored", "d7", extra={"game": 12, "version": 3, "who": "Ærón"})
    log.debug("not shown at INFO")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("sweep failed")
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["message"] == "move d7 stored"
    assert (first["level"], first["logger"], first["shards"]) == ("INFO", "bot.test", "4-7")
    assert (first["game"], first["version"], first["who"]) == (12, 3, "Ærón")
    assert first["time"].endswith("+0000") and first["time"][10] == "T"
    assert second["level"] == "ERROR" and "RuntimeError: boom" in second["exc_info"]


def test_configuring_twice_does_not_double_lines(root: logging.Logger) -> None:
    out = io.StringIO()
    logs.configure("INFO", "json", stream=io.StringIO())
    logs.configure("INFO", "json", stream=out)
    logging.getLogger("bot.test").warning("once")
    assert [json.loads(line)["message"] for line in out.getvalue().splitlines()] == ["once"]


def test_text_lines_stay_for_people(root: logging.Logger) -> None:
    out = io.StringIO()
    logs.configure("INFO", "text", stream=out)
    logging.getLogger("bot.test").info("hello")
    (line,) = out.getvalue().splitlines()
    assert line.endswith(" INFO bot.test hello")
    with pytest.raises(ValueError, match="log format"):
        logs.configure("INFO", "yaml")
