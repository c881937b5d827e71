"""A fast PNG writer for RGB images.

Pillow's PNG encoder tries every row filter on every row, which costs ~25 ms for an 800 x 800
board; our images are large flat areas, where no filter plus a fast zlib level is about as
small (bench/render.py: 60-105 KB per board) and takes ~5 ms. The output is a standard PNG.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 3  # zlib level, measured (bench/render.py): 3 is ~5% slower than 1 for 6-10% fewer
# bytes, while 6 is 2.5x slower for another 12-15% fewer.


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(img: Image.Image, level: int = LEVEL) -> bytes:
    """``img`` (RGB) as PNG bytes: 8-bit truecolour, filter type 0 on every row."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    width, height = img.size
    raw = img.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + raw[i : i + stride] for i in range(0, len(raw), stride))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows, level)),
            _chunk(b"IEND", b""),
        )
    )
