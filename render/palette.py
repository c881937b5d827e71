"""One 256-colour palette per game and theme, so a board PNG holds a byte per pixel, not three.

A board has a few dozen flat colours (the theme's) and the antialiased edges between them. The
palette starts with every colour the theme names, exactly, then adds the colours an octree picks
from a sample board of that game and theme (drawn once per process): flat areas keep their
exact colour and edges land on a near one, so a player sees the same board. Mapping an image
onto a fixed palette costs ~1 ms at 800 px; building a palette per image would cost ~12 ms.
"""

from __future__ import annotations

from dataclasses import fields

from PIL import Image

from render.board import mix
from render.theme import RGB, PieceStyle, Theme

FIXED: tuple[RGB, ...] = ((20, 20, 20), (255, 255, 255), (250, 250, 248), (20, 20, 24))
"""Colours the renderers use beside the theme's: outlines, badges, the die's face and pips."""


NEAR = 10  # octree colours closer than this (largest channel difference) to a theme colour go


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def theme_colours(theme: Theme) -> list[RGB]:
    """Every colour the theme names (pieces included), with the tints drawn over squares."""
    out: list[RGB] = list(FIXED)
    for f in fields(theme):
        value = getattr(theme, f.name)
        if isinstance(value, tuple) and value and isinstance(value[0], PieceStyle):
            for style in value:
                out += [c for c in (style.fill, style.edge, style.mark) if c is not None]
        elif isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], int):
            out.append(value)
    for base in (theme.square, theme.shade):  # Atmalof's landing and origin tints
        out += [mix(base, theme.accent, 0.55), mix(base, theme.accent, 0.3)]
        out.append(mix(base, theme.warn, 0.55))
    return list(dict.fromkeys(out))


def build_palette(sample: Image.Image, theme: Theme) -> Image.Image:
    """A 1 x 1 "P" image carrying the palette for boards like ``sample`` drawn in ``theme``
    (``render.palette_for`` draws the sample once per game and theme and keeps the result)."""
    exact = theme_colours(theme)
    picked = sample.quantize(
        256 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    values = (picked.getpalette() or [])[: 3 * (256 - len(exact))]
    edges = [tuple(values[i : i + 3]) for i in range(0, len(values), 3)]
    # Pillow maps a pixel to a palette entry through a cache of nearby colours: an octree colour
    # right next to a theme colour could take the theme colour's pixels, so none is kept there.
    edges = [c for c in edges if min(_distance(c, e) for e in exact) > NEAR]
    flat = [v for colour in (*exact, *edges) for v in colour]
    out = Image.new("P", (1, 1))
    out.putpalette(flat + [0] * (768 - len(flat)))
    out.load()  # the palette goes into the image here, once, not in each thread that maps
    return out
