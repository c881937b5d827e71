"""The animated replay of a record: one drawing for /replay, /import and the console.

Pillow work that can take longer than an interaction may wait, so callers run it in a worker
thread. Its words (the last frame's result) are said in the language given.
"""

from __future__ import annotations

import render
import translations
from bot.referee.records import record_void_reason
from engine.record import Record

MAX_GIF_BYTES = 8 * 1024 * 1024
"""The largest replay the bot sends (Discord's own limit may be lower: the front end's min)."""


def replay_gif(
    record: Record, theme: str, max_bytes: int = MAX_GIF_BYTES, lang: str = "en"
) -> bytes:
    """The record's replay as a GIF of at most ``max_bytes`` (frames are dropped to fit); a
    voided game's last frame says so rather than "aborted"."""
    voided = record_void_reason(record) is not None
    words = translations.words(lang)
    return render.replay_gif(record, theme=theme, max_bytes=max_bytes, words=words, voided=voided)
