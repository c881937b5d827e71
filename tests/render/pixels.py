"""Reading an image back: the colour nearest to a pixel among named candidates."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from PIL import Image

RGB = tuple[int, int, int]


def pixel(img: Image.Image, xy: tuple[float, float]) -> RGB:
    return img.getpixel((round(xy[0]), round(xy[1])))[:3]


def nearest(colour: RGB, candidates: Mapping[Hashable, RGB]) -> Hashable:
    """The key of the candidate colour closest to ``colour`` (squared RGB distance)."""
    return min(
        candidates,
        key=lambda k: sum((a - b) ** 2 for a, b in zip(colour, candidates[k], strict=True)),
    )


def close(colour: RGB, target: RGB, tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))
