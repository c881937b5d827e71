"""Animated replays: one frame per action, kept under an upload limit.

``replay_gif`` takes a game record (``engine.record.Record``) or the positions themselves: a
list of states, or of ``(state, last)`` pairs where ``last`` is a ``Last`` (or None). Frames
share one palette (so the GIF stores only what changed between frames). When the result is
larger than ``max_bytes`` (Discord's 8 MB floor by default) it drops every other middle frame,
then shrinks the image, until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

import engine
from engine.core import Outcome
from render.board import Told
from render.model import MIN_SIZE, Last, RenderError, check_size
from translations import Words

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
MAX_FRAMES = 400  # a longer game is sampled evenly (the first and last frames always kept)
FORMATS = ("gif", "webp")

Frame = tuple[Any, tuple[Last, ...]]


def _game_of(state: Any) -> str:
    """The game a state belongs to, from its module (engine.atmalof -> "atmalof")."""
    try:
        return engine.game_of(state)
    except engine.OptionError:
        raise RenderError(f"cannot tell which game a {type(state).__name__} belongs to") from None


def frames_of_record(record: Any) -> tuple[str, list[Frame], tuple[str, str], Outcome | None]:
    """Replay a record through the engine: (game name, frames, player names, result)."""
    from engine.record import RecordError, replay_steps, start

    try:
        game, state = start(record)
        frames: list[Frame] = [(state, ())]
        for before, action, roll, after in replay_steps(game, state, record):
            frames.append((after, (Last(before, action, roll),)))
    except RecordError as exc:
        raise RenderError(f"cannot replay this record: {exc}") from None
    names = (record.players[0].name, record.players[1].name)
    return record.game, frames, names, record.result


def _frames(source: Sequence[Any]) -> list[Frame]:
    frames: list[Frame] = []
    for item in source:
        if isinstance(item, tuple) and len(item) == 2 and (item[1] is None or _is_last(item[1])):
            state, last = item
            lasts = () if last is None else ((last,) if isinstance(last, Last) else tuple(last))
            frames.append((state, lasts))
        else:
            frames.append((item, ()))
    return frames


def _is_last(value: Any) -> bool:
    if isinstance(value, Last):
        return True
    return isinstance(value, tuple) and all(isinstance(v, Last) for v in value)


def _sample(frames: list[Frame], limit: int) -> list[Frame]:
    if len(frames) <= limit:
        return frames
    step = (len(frames) - 1) / (limit - 1)
    return [frames[round(i * step)] for i in range(limit)]


def animate(
    draw: Callable[..., Image.Image],
    source: Any,
    game_name: str | None = None,
    *,
    theme: str = "dark",
    size: int = 480,
    players: Sequence[str] | None = None,
    outcome: Outcome | None = None,
    labels: str = "grid",
    frame_ms: int = 900,
    end_ms: int = 4000,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_frames: int = MAX_FRAMES,
    format: str = "gif",
    words: Words | None = None,
    voided: bool = False,
    told: Told | None = None,
) -> bytes:
    """An animated GIF (or WebP) of a whole game, a frame per action, at most ``max_bytes``.

    ``draw`` is ``render.board_image`` (passed in, so this module need not import the
    package that exports it); ``words``: the language of the frames' cards and status lines
    (English if None); ``voided``: a moderator voided the game (its outcome says "aborted"),
    and the last frame says so; ``told``: how the game ended as the caller says it (who
    voided, aborted or awarded it: ``render.board_png``'s), on the last frame.
    """
    size = check_size(size)
    if format not in FORMATS:
        raise RenderError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    if not isinstance(max_bytes, int) or max_bytes < 10_000:
        raise RenderError("max_bytes must be at least 10000")
    if hasattr(source, "actions") and hasattr(source, "players"):
        name, frames, names, result = frames_of_record(source)
        players = players or names
        outcome = outcome or result
    else:
        frames = _frames(list(source))
        if not frames:
            raise RenderError("a replay needs at least one position")
        name = game_name or _game_of(frames[0][0])
    frames = _sample(frames, max(2, max_frames))
    attempt_size = size
    while True:
        images = []
        for i, (state, lasts) in enumerate(frames):
            final = outcome if i == len(frames) - 1 else None
            images.append(
                draw(
                    name,
                    state,
                    lasts,
                    theme=theme,
                    size=attempt_size,
                    players=players,
                    outcome=final,
                    labels=labels,
                    words=words,
                    voided=voided and final is not None,
                    told=told if final is not None else None,
                )
            )
        data = _encode(images, frame_ms, end_ms, format)
        if len(data) <= max_bytes:
            return data
        if len(frames) > 24:
            frames = [*frames[:-1:2], frames[-1]]
        elif attempt_size > MIN_SIZE:
            attempt_size = max(MIN_SIZE, int(attempt_size * 0.8))
        else:
            raise RenderError(f"the replay does not fit in {max_bytes} bytes")


def _encode(images: list[Image.Image], frame_ms: int, end_ms: int, format: str) -> bytes:
    durations = [frame_ms] * len(images)
    durations[-1] = end_ms
    buf = io.BytesIO()
    if format == "webp":
        images[0].save(
            buf,
            "WEBP",
            save_all=True,
            append_images=images[1:],
            duration=durations,
            loop=0,
            quality=80,
            method=4,
        )
        return buf.getvalue()
    picks = [images[0], images[len(images) // 2], images[-1]]
    sample = Image.new("RGB", (images[0].width, images[0].height * len(picks)))
    for k, im in enumerate(picks):
        sample.paste(im, (0, k * im.height))
    palette = sample.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    frames = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    frames[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()
