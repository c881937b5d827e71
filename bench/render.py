"""Board image speed and size: each goal of issue 17 next to its measured value.

Goals: a board at 800 px drawn and encoded in at most 2 ms (median), at most 100 KB. Positions
are 40 different mid-game positions per game (seeded random play) with the last action's
overlays and two names, drawn after a warm-up so the cached backgrounds and sprites are in place,
as in a running bot. "before" is the previous pipeline measured in the same run: the same
drawing, then an RGB PNG deflated by zlib at level 3 (render/png.py before issue 17). Then each
step alone, the encoders compared on the same palette image, and what a second thread gives.
"""

from __future__ import annotations

import statistics
import struct
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from typing import Any

from PIL import Image

import render
from bench.timing import percentile
from render.gallery import random_game
from render.palette import to_palette
from render.png import encode_png
from render.theme import get_theme

GAMES = ("atmalof", "morris", "abalone")
NAMES = ("Alice", "Bob")
GOAL_MS = 2.0
GOAL_KB = 100


def positions(game: str) -> list[tuple[Any, Any]]:
    return random_game(game, seed=5, plies=80)[20:60]


def _times_ms(fn: Callable[[Any], object], items: list[Any], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        for item in items:
            start = time.perf_counter()
            fn(item)
            times.append((time.perf_counter() - start) * 1000)
    return times


def png_before(img: Image.Image) -> bytes:
    """The previous encoder: RGB, filter 0, zlib level 3."""
    width, height = img.size
    raw = img.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[i : i + stride] for i in range(0, len(raw), stride))

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"IDAT", zlib.compress(rows, 3)),
            chunk(b"IEND", b""),
        )
    )


def pillow_png(img: Image.Image, level: int) -> bytes:
    buf = BytesIO()
    img.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def _game(game: str) -> None:
    items = positions(game)
    theme = get_theme("dark")

    def png(item: Any) -> bytes:
        return render.board_png(game, item[0], item[1], players=NAMES)

    def draw(item: Any) -> Image.Image:
        return render.board_image(game, item[0], item[1], players=NAMES)

    for item in items:  # warm-up: backgrounds, sprites, the palette
        png(item)
    total = _times_ms(png, items, 5)
    sizes = [len(png(item)) / 1024 for item in items]
    before = _times_ms(lambda item: png_before(draw(item)), items, 2)
    before_kb = statistics.median(len(png_before(draw(item))) / 1024 for item in items)
    drawn = [draw(item) for item in items]
    paletted = [to_palette(img, game, theme) for img in drawn]
    t_draw = statistics.median(_times_ms(draw, items, 2))
    t_map = statistics.median(_times_ms(lambda img: to_palette(img, game, theme), drawn, 2))
    t_encode = statistics.median(_times_ms(encode_png, paletted, 3))
    t_rgb = statistics.median(_times_ms(encode_png, drawn, 2))
    rgb_kb = statistics.median(len(encode_png(img)) / 1024 for img in drawn)
    t_pillow = statistics.median(_times_ms(lambda img: pillow_png(img, 1), paletted, 1))
    pillow_kb = statistics.median(len(pillow_png(img, 1)) / 1024 for img in paletted)
    t_zlib = statistics.median(_times_ms(lambda img: zlib.compress(img.tobytes(), 1), paletted, 2))
    median = statistics.median(total)
    kb = statistics.median(sizes)
    print(
        f"{game:8s} board_png 800px: median {median:5.2f} ms (goal <= {GOAL_MS} ms: "
        f"{'met' if median <= GOAL_MS else 'NOT met'}), p99 {percentile(total, 99):5.2f} ms; "
        f"median {kb:4.0f} KB, max {max(sizes):4.0f} KB (goal <= "
        f"{GOAL_KB} KB: {'met' if max(sizes) <= GOAL_KB else 'NOT met'}); before "
        f"{statistics.median(before):5.2f} ms {before_kb:4.0f} KB: time x"
        f"{median / statistics.median(before):.2f}, bytes x{kb / before_kb:.2f}"
    )
    print(
        f"{'':8s} steps (median ms): draw {t_draw:.2f}, palette map {t_map:.2f}, PNG of the "
        f"palette image {t_encode:.2f} (ISA-L); same image: zlib level 1 deflate alone "
        f"{t_zlib:.2f}, Pillow's PNG encoder (level 1) {t_pillow:.2f} ms {pillow_kb:.0f} KB; "
        f"RGB through ISA-L {t_rgb:.2f} ms {rgb_kb:.0f} KB"
    )


def _threads() -> None:
    """Boards per second on one thread and on two: Pillow and ISA-L release the GIL."""
    work = [(game, s, last) for game in GAMES for s, last in positions(game)]

    def one(item: tuple[str, Any, Any]) -> bytes:
        return render.board_png(item[0], item[1], item[2], players=NAMES)

    for item in work:
        one(item)
    rates = {}
    for workers in (1, 2):
        with ThreadPoolExecutor(workers) as pool:
            start = time.perf_counter()
            for _ in range(3):
                list(pool.map(one, work))
            rates[workers] = 3 * len(work) / (time.perf_counter() - start)
    print(
        f"threads: {rates[1]:.0f} boards/s on 1 thread, {rates[2]:.0f} boards/s on 2 "
        f"(x{rates[2] / rates[1]:.2f}; the machine has 2 cores, shared)"
    )


def main() -> None:
    for game in GAMES:
        _game(game)
    _threads()
    frames = random_game("morris", seed=2, plies=60)
    start = time.perf_counter()
    gif = render.replay_gif(frames)
    print(
        f"replay_gif morris {len(frames)} frames 480px: {(time.perf_counter() - start) * 1000:.0f}"
        f" ms (1 run), {len(gif) // 1024} KB"
    )


if __name__ == "__main__":
    main()
