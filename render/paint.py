"""Drawing primitives shared by the games: fonts, cached piece sprites, antialiased overlays.

Pillow draws shapes without antialiasing, so everything round or slanted is drawn at
``SUPERSAMPLE`` times the size on a small transparent layer and reduced (a box filter that
averages premultiplied alpha) before it is pasted. Sprites never change for a theme and size,
so they are cached; only the overlays of one move are drawn per image.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from render.model import Label, Point
from render.theme import RGB, PieceStyle

SUPERSAMPLE = 4


@dataclass(frozen=True, slots=True)
class Sprite:
    """A cached picture split into its colours and its alpha, ready for ``Image.paste``.

    Pasting an RGBA image onto an RGB one makes Pillow convert it on every call; keeping the
    two parts apart does that once.
    """

    rgb: Image.Image
    mask: Image.Image

    @classmethod
    def of(cls, rgba: Image.Image) -> Sprite:
        return cls(rgba.convert("RGB"), rgba.getchannel("A"))

    @property
    def size(self) -> tuple[int, int]:
        return self.rgb.size

    def faded(self, fraction: float) -> Sprite:
        """The same sprite, ``fraction`` as opaque (a ghost)."""
        return Sprite(self.rgb, self.mask.point(lambda a: round(a * fraction)))


Painter = Callable[
    [ImageDraw.ImageDraw, Callable[[float, float], tuple[float, float]], float], None
]


FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=2)
def _font_bytes(bold: bool) -> bytes:
    """The shipped font file (render/fonts, package data), read once through importlib.resources
    so that it is found in a wheel installed anywhere, not only next to the source tree."""
    return resources.files("render").joinpath("fonts", FONT_FILES[bold]).read_bytes()


@lru_cache(maxsize=96)
def font(px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans shipped in render/fonts (Bitstream Vera licence) at ``px`` pixels.

    Never a system path and never Pillow's built-in font (it has no accented letters): the
    image looks the same on every machine that has the project.
    """
    return ImageFont.truetype(io.BytesIO(_font_bytes(bold)), max(6, int(px)))


MIN_PX = 13  # the smallest text drawn: its capitals are 9 px high (DejaVu's are 0.73 em)


def text_px(size: float, fraction: float, minimum: int = MIN_PX) -> int:
    """A font size that scales with the image (``fraction`` of ``size``) but never drops below
    ``minimum`` pixels, so that a small image (a 400 px board, a shrunken replay) stays legible.
    """
    return max(minimum, round(size * fraction))


def label(text: str, centre: Point, px: int, bold: bool = True) -> Label:
    """A coordinate label drawn centred on ``centre``, with the box its glyphs cover."""
    left, top, right, bottom = (round(v) for v in font(px, bold).getbbox(text, anchor="mm"))
    x, y = round(centre[0]), round(centre[1])
    return Label(text, centre, px, (x + left, y + top, x + right, y + bottom))


def draw_labels(img: Image.Image, labels: Iterable[Label], fill: RGB) -> None:
    for item in labels:
        draw_text(img, item.centre, item.text, item.px, fill, "mm", bold=True)


@lru_cache(maxsize=1024)
def has_glyph(char: str) -> bool:
    """True when the font draws ``char`` (not the empty box of a missing glyph)."""
    if char.isspace():
        return True
    f = font(32)
    try:
        return (
            f.getmask(char).getbbox() != f.getmask("\U0010fffd").getbbox() or char == "\U0010fffd"
        )
    except (OSError, ValueError):
        return False


def printable(text: str) -> str:
    """``text`` without characters the font cannot draw (emoji, CJK in DejaVu Sans)."""
    return " ".join("".join(ch for ch in text if has_glyph(ch)).split())


@lru_cache(maxsize=4096)
def text_width(text: str, px: int, bold: bool = False) -> float:
    """The advance of ``text``: of a line, the sum of its words' and spaces' (each measured once,
    see ``_text_mask``)."""
    words = text.split(" ")
    if len(words) > 1 and all(words):
        return _word_width(" ", px, bold) * (len(words) - 1) + sum(
            _word_width(word, px, bold) for word in words
        )
    return _word_width(text, px, bold)


@lru_cache(maxsize=4096)
def _word_width(text: str, px: int, bold: bool) -> float:
    return font(px, bold).getlength(text)


def fit_text(
    text: str, max_width: float, px: int, min_px: int, bold: bool = False
) -> tuple[str, int]:
    """Shrink the font down to ``min_px`` to fit, then cut the text with an ellipsis."""
    size = px
    while size > min_px and text_width(text, size, bold) > max_width:
        size -= 1
    if text_width(text, size, bold) <= max_width:
        return text, size
    cut = text
    while cut and text_width(cut + "…", size, bold) > max_width:
        cut = cut[:-1]
    return (cut.rstrip() + "…") if cut else "", size


@lru_cache(maxsize=2048)
def _text_mask(text: str, px: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The glyphs of ``text`` as a mask, and where its corner lies from the anchor point.

    A line of words, anchored on the left at a height the font's metrics set (not its glyphs'),
    is put together from its words' masks, each rendered once: a board's status line is new at
    every move, yet made of the same few words ("White", "placed", "d6"), and FreeType took
    ~0.3 ms to render one (issue 17). Nothing kerns across a space, so only a word's start may
    differ from the whole line's, by under a pixel.
    """
    words = text.split(" ")
    if len(words) > 1 and all(words) and anchor[0] == "l" and anchor[1] in "ams":
        return _line_mask(words, px, bold, anchor)
    return _rendered(text, px, bold, anchor)


@lru_cache(maxsize=4096)
def _rendered(text: str, px: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(px, bold)
    left, top, right, bottom = (round(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def _line_mask(words: list[str], px: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    space = _word_width(" ", px, bold)
    x = 0.0
    placed = []
    for word in words:
        mask, left, top = _rendered(word, px, bold, anchor)
        placed.append((mask, round(x) + left, top))
        x += _word_width(word, px, bold) + space
    x0 = min(left for _, left, _ in placed)
    y0 = min(top for _, _, top in placed)
    x1 = max(left + mask.width for mask, left, _ in placed)
    y1 = max(top + mask.height for mask, _, top in placed)
    line = Image.new("L", (x1 - x0, y1 - y0), 0)
    for mask, left, top in placed:
        line.paste(255, (left - x0, top - y0), mask)  # glyphs reaching over a space add up
    return line, x0, y0


def draw_text(
    img: Image.Image,
    xy: Point,
    text: str,
    px: int,
    fill: RGB,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    """Text in the project's font at ``px`` pixels, anchored like ``ImageDraw.text``.

    The rendered glyphs are cached per text and size, so redrawing a name costs one paste.
    """
    if not text:
        return
    mask, left, top = _text_mask(text, int(px), bold, anchor)
    img.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


@lru_cache(maxsize=256)
def disc_sprite(style: PieceStyle, radius: int, shadow: bool = True) -> Sprite:
    """A round piece (or marble) of ``radius`` pixels as an RGBA image centred on its middle.

    The fill colour stays flat in the middle (the tests read it there); the outline, the
    optional ring mark and the optional highlight sit away from the centre.
    """
    s = SUPERSAMPLE
    pad = max(2, radius // 5)
    side = 2 * (radius + pad) + 1
    big = side * s
    c = big / 2
    r = radius * s
    layer = Image.new("RGBA", (big, big), (*style.edge, 0))
    if shadow:
        shade = Image.new("L", (big, big), 0)
        off = r * 0.1
        ImageDraw.Draw(shade).ellipse(
            (c - r + off, c - r + off * 1.4, c + r + off, c + r + off * 1.4), fill=110
        )
        shade = shade.filter(ImageFilter.GaussianBlur(r * 0.08))
        layer.paste((0, 0, 0, 255), (0, 0), shade)
    d = ImageDraw.Draw(layer)
    edge = max(s, round(r * 0.09))
    d.ellipse((c - r, c - r, c + r, c + r), fill=(*style.edge, 255))
    inner = r - edge
    d.ellipse((c - inner, c - inner, c + inner, c + inner), fill=(*style.fill, 255))
    if style.shine:
        _shine(layer, c, inner, style.fill)
    if style.mark is not None:
        ring = inner * 0.62
        w = max(s, round(r * 0.11))
        d = ImageDraw.Draw(layer)
        d.ellipse((c - ring, c - ring, c + ring, c + ring), outline=(*style.mark, 255), width=w)
    return Sprite.of(layer.reduce(s))


def _shine(layer: Image.Image, c: float, r: float, fill: RGB) -> None:
    """A marble's depth: darker towards the lower right, a soft highlight at the upper left."""
    big = layer.size[0]
    dark = Image.new("L", (big, big), 0)
    dd = ImageDraw.Draw(dark)
    dd.ellipse((c - r, c - r, c + r, c + r), fill=90)
    dd.ellipse((c - r * 1.15, c - r * 1.15, c + r * 0.75, c + r * 0.75), fill=0)
    dark = dark.filter(ImageFilter.GaussianBlur(r * 0.12))
    circle = Image.new("L", (big, big), 0)
    ImageDraw.Draw(circle).ellipse((c - r, c - r, c + r, c + r), fill=255)
    dark = Image.composite(dark, Image.new("L", (big, big), 0), circle)
    layer.paste((0, 0, 0, 255), (0, 0), dark)
    light = Image.new("L", (big, big), 0)
    hx, hy, hr = c - r * 0.42, c - r * 0.45, r * 0.26
    bright = 200 if sum(fill) < 200 else 255
    ImageDraw.Draw(light).ellipse((hx - hr, hy - hr, hx + hr, hy + hr * 0.8), fill=bright)
    light = light.filter(ImageFilter.GaussianBlur(r * 0.09))
    layer.paste((255, 255, 255, 255), (0, 0), light)


def paste_centred(img: Image.Image, sprite: Sprite, xy: Point) -> None:
    """Paste a sprite (odd width and height) so that its middle pixel lands on ``xy``."""
    w, h = sprite.size
    img.paste(sprite.rgb, (round(xy[0]) - w // 2, round(xy[1]) - h // 2), sprite.mask)


def antialiased(
    img: Image.Image,
    box: tuple[float, float, float, float],
    painter: Painter,
    scale: int = 0,
) -> None:
    """Run ``painter(draw, to_layer, scale)`` on a supersampled layer over ``box`` and paste it.

    ``to_layer(x, y)`` maps image pixels to layer pixels; ``scale`` multiplies widths.
    """
    x0 = max(0, math.floor(box[0]))
    y0 = max(0, math.floor(box[1]))
    x1 = min(img.width, math.ceil(box[2]))
    y1 = min(img.height, math.ceil(box[3]))
    if x1 <= x0 or y1 <= y0:
        return
    if not scale:
        scale = 4 if (x1 - x0) * (y1 - y0) < 90_000 else 2
    layer = Image.new("RGBA", ((x1 - x0) * scale, (y1 - y0) * scale), (0, 0, 0, 0))

    def to_layer(x: float, y: float) -> tuple[float, float]:
        return ((x - x0) * scale, (y - y0) * scale)

    painter(ImageDraw.Draw(layer), to_layer, scale)
    small = layer.reduce(scale)
    img.paste(small, (x0, y0), small)


def bounds(points: Iterable[Point], margin: float) -> tuple[float, float, float, float]:
    xs, ys = zip(*points, strict=True)
    return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


def arrow_polygon(a: Point, b: Point, width: float, head: float) -> list[Point]:
    """The outline of an arrow from ``a`` to ``b`` (tip at ``b``) as a polygon."""
    ax, ay = a
    bx, by = b
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    head = min(head, length * 0.7)
    hw = width / 2
    bw = head * 0.62
    cx, cy = bx - ux * head, by - uy * head
    return [
        (ax + nx * hw, ay + ny * hw),
        (cx + nx * hw, cy + ny * hw),
        (cx + nx * bw, cy + ny * bw),
        (bx, by),
        (cx - nx * bw, cy - ny * bw),
        (cx - nx * hw, cy - ny * hw),
        (ax - nx * hw, ay - ny * hw),
    ]


def _q(v: float) -> float:
    """A coordinate to 1/8 pixel: the same shape at the same sub-pixel offset is one sprite."""
    return round(v * 8) / 8


def _paint_polygon(d: ImageDraw.ImageDraw, s: int, params: tuple) -> None:
    poly, fill, outline, border = params
    pts = [(x * s, y * s) for x, y in poly]
    d.polygon(pts, fill=(*fill, 255), outline=(*outline, 255), width=round(border * s))


def _paint_segment(d: ImageDraw.ImageDraw, s: int, params: tuple) -> None:
    (ax, ay), (bx, by), fill, width, outline, alpha, border = params
    pa, pb = (ax * s, ay * s), (bx * s, by * s)
    if outline:
        _round_line(d, pa, pb, (width + 2 * border) * s, (*outline, alpha))
    _round_line(d, pa, pb, width * s, (*fill, alpha))


def _paint_ring(d: ImageDraw.ImageDraw, s: int, params: tuple) -> None:
    (x, y), radius, colour, width, dashed = params
    cx, cy = x * s, y * s
    r = (radius + width / 2) * s  # the stroke is centred on the radius
    if not dashed:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(*colour, 255), width=round(width * s))
        return
    for k in range(12):
        start = k * 30
        d.arc(
            (cx - r, cy - r, cx + r, cy + r),
            start,
            start + 18,
            fill=(*colour, 255),
            width=round(width * s),
        )


PAINTERS: dict[str, Callable[[ImageDraw.ImageDraw, int, tuple], None]] = {
    "polygon": _paint_polygon,
    "segment": _paint_segment,
    "ring": _paint_ring,
}


@lru_cache(maxsize=1024)
def _shape(kind: str, params: tuple, w: int, h: int) -> Sprite:
    """An antialiased shape on a w x h transparent layer, its coordinates relative to the
    layer's corner. Kept: an arrow or ring of the same size and sub-pixel offset is drawn once
    (a dashed ring's twelve arcs cost ~0.3 ms)."""
    scale = 4 if w * h < 90_000 else 2
    layer = Image.new("RGBA", (w * scale, h * scale), (0, 0, 0, 0))
    PAINTERS[kind](ImageDraw.Draw(layer), scale, params)
    return Sprite.of(layer.reduce(scale))


def _stamp(
    img: Image.Image, box: tuple[float, float, float, float], kind: str, params: Callable
) -> None:
    """Paste the shape ``params(x0, y0)`` describes relative to the box's corner (x0, y0)."""
    x0, y0 = math.floor(box[0]), math.floor(box[1])
    w, h = math.ceil(box[2]) - x0, math.ceil(box[3]) - y0
    if w <= 0 or h <= 0 or x0 >= img.width or y0 >= img.height or x0 + w <= 0 or y0 + h <= 0:
        return
    sprite = _shape(kind, params(x0, y0), w, h)
    img.paste(sprite.rgb, (x0, y0), sprite.mask)


def draw_arrows(
    img: Image.Image,
    arrows: Iterable[tuple[Point, Point]],
    fill: RGB,
    outline: RGB,
    width: float,
    head: float,
) -> None:
    """Arrows with a dark (or light) outline so they read on any square or piece."""
    border = max(1.5, width * 0.22)
    for a, b in arrows:
        poly = arrow_polygon(a, b, width, head)
        _stamp(
            img,
            bounds(poly, border + 2),
            "polygon",
            lambda x0, y0, poly=poly: (
                tuple((_q(x - x0), _q(y - y0)) for x, y in poly),
                fill,
                outline,
                border,
            ),
        )


def draw_segment(
    img: Image.Image,
    a: Point,
    b: Point,
    fill: RGB,
    width: float,
    outline: RGB | None = None,
    alpha: int = 255,
) -> None:
    """A thick straight line with round ends (a strike-through, a highlighted mill)."""
    border = max(1.5, width * 0.2) if outline else 0
    _stamp(
        img,
        bounds((a, b), width / 2 + border + 2),
        "segment",
        lambda x0, y0: (
            (_q(a[0] - x0), _q(a[1] - y0)),
            (_q(b[0] - x0), _q(b[1] - y0)),
            fill,
            width,
            outline,
            alpha,
            border,
        ),
    )


def _round_line(d: ImageDraw.ImageDraw, a: Point, b: Point, w: float, colour: tuple) -> None:
    d.line([a, b], fill=colour, width=round(w))
    r = w / 2
    for x, y in (a, b):
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def draw_ring(
    img: Image.Image, centre: Point, radius: float, colour: RGB, width: float, dashed: bool = False
) -> None:
    """A circle outline around a cell (the last move, a ghost, a removable man)."""
    x, y = centre
    reach = radius + width + 2
    _stamp(
        img,
        (x - reach, y - reach, x + reach, y + reach),
        "ring",
        lambda x0, y0: ((_q(x - x0), _q(y - y0)), radius, colour, width, dashed),
    )


def draw_box(
    img: Image.Image,
    box: tuple[float, float, float, float],
    colour: RGB,
    width: float,
    radius: float = 0,
    fill: RGB | None = None,
) -> None:
    """A (rounded) rectangle outline, antialiased."""

    def paint(d: ImageDraw.ImageDraw, t: Callable, s: float) -> None:
        x0, y0 = t(box[0], box[1])
        x1, y1 = t(box[2], box[3])
        d.rounded_rectangle(
            (x0, y0, x1, y1),
            radius=radius * s,
            fill=(*fill, 255) if fill else None,
            outline=(*colour, 255),
            width=round(width * s),
        )

    m = width + 2
    antialiased(img, (box[0] - m, box[1] - m, box[2] + m, box[3] + m), paint)


PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@lru_cache(maxsize=128)
def die_sprite(
    value: int, side: int, face: RGB = (250, 250, 248), pip: RGB = (20, 20, 24)
) -> Sprite:
    """A die showing ``value``: pips for 1..6, the number for larger dice (d8, d12)."""
    s = SUPERSAMPLE
    big = side * s
    layer = Image.new("RGBA", (big, big), (*pip, 0))
    d = ImageDraw.Draw(layer)
    d.rounded_rectangle(
        (s, s, big - s - 1, big - s - 1),
        radius=big * 0.18,
        fill=(*face, 255),
        outline=(*pip, 255),
        width=max(s, round(big * 0.05)),
    )
    if value in PIPS:
        r = big * 0.085
        for fx, fy in PIPS[value]:
            x, y = fx * big, fy * big
            d.ellipse((x - r, y - r, x + r, y + r), fill=(*pip, 255))
    else:
        d.text(
            (big / 2, big / 2),
            str(value),
            font=font(round(big * 0.6), True),
            fill=(*pip, 255),
            anchor="mm",
        )
    return Sprite.of(layer.reduce(s))
