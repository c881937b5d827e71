"""The animated replay of a record: one drawing for /replay, /import and the console.

Pillow work that can take longer than an interaction may wait, so callers run it in a worker
thread. Its words (the last frame's result) are said in the language given.
"""

from __future__ import annotations

import render
import translations
from bot.referee.records import record_ending
from engine.record import Record

MAX_GIF_BYTES = 8 * 1024 * 1024
"""The largest replay the bot sends (Discord's own limit may be lower: the front end's min)."""


def replay_gif(
    record: Record,
    theme: str | None = None,
    max_bytes: int = MAX_GIF_BYTES,
    lang: str | None = None,
) -> bytes:
    """The record's replay as a GIF of at most ``max_bytes`` (frames are dropped to fit), in
    ``theme`` and ``lang`` (None: the dark theme, English); the last frame of a game a
    moderator voided, aborted or awarded names them (a void is not said as an abort)."""
    ended = record_ending(record)
    words = translations.words(lang or "en")
    told = None
    if record.result is not None:
        names = (record.players[0].name, record.players[1].name)
        told = ended.told(record.result.termination, names)
    return render.replay_gif(
        record,
        theme=theme or "dark",
        max_bytes=max_bytes,
        words=words,
        voided=ended.voided is not None,
        told=told,
    )
