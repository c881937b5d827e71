"""Log lines for people or for machines: ``LOG_FORMAT=json`` writes one JSON object a line.

Several bot processes write to one log collector, so each JSON line carries the time, level,
logger, message, the process's shards and whatever fields the call passed in ``extra=``; a
collector can then follow one game or one command across processes without parsing prose.
``python-json-logger`` does the formatting (stdlib ``logging`` stays the API everywhere).
"""

from __future__ import annotations

import logging
import sys
import time
from typing import IO

from pythonjsonlogger.json import JsonFormatter

LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
JSON_FIELDS = ("asctime", "levelname", "name", "message")
RENAMED = {"asctime": "time", "levelname": "level", "name": "logger"}


class _Static(logging.Filter):
    """Adds the same fields (this process's shards) to every record it passes."""

    def __init__(self, fields: dict[str, object]) -> None:
        super().__init__()
        self.fields = fields

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in self.fields.items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


def json_formatter() -> JsonFormatter:
    """One JSON object a line: time (ISO 8601, UTC), level, logger, message, then the extras."""
    formatter = JsonFormatter(
        JSON_FIELDS,
        rename_fields=RENAMED,
        datefmt="%Y-%m-%dT%H:%M:%S%z",
        json_ensure_ascii=False,
    )
    formatter.converter = time.gmtime
    return formatter


def configure(
    level: str = "INFO",
    fmt: str = "text",
    *,
    fields: dict[str, object] | None = None,
    stream: IO[str] | None = None,
) -> logging.Handler:
    """Send every log record to ``stream`` (stderr) as text or JSON; returns the handler.

    Replaces handlers an earlier call installed, so calling it twice does not double lines.
    """
    if fmt not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}, not {fmt!r}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(json_formatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    if fields:
        handler.addFilter(_Static(dict(fields)))
    handler.set_name("referee")
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "referee"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, str(level).upper(), logging.INFO))
    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))
    return handler
