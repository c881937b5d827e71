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


def ink_height(
    img: Image.Image, box: tuple[float, float, float, float], ink: RGB, grounds: list[RGB]
) -> int:
    """How many pixel rows of ``box`` hold a pixel nearer ``ink`` than every ground colour:
    the height of the text drawn there (its capitals' height for a label such as "E" or "7")."""
    x0, y0, x1, y1 = (round(v) for v in box)
    candidates = {"ink": ink, **{f"g{i}": g for i, g in enumerate(grounds)}}
    rows = 0
    for y in range(max(0, y0), min(img.height, y1)):
        if any(
            nearest(img.getpixel((x, y))[:3], candidates) == "ink"
            for x in range(max(0, x0), min(img.width, x1))
        ):
            rows += 1
    return rows


def labels_unchanged(plain: Image.Image, drawn: Image.Image, layout) -> list[str]:
    """The labels of ``layout`` whose pixels differ between two images (an overlay on them)."""
    out = []
    for item in layout.labels:
        x0, y0, x1, y1 = item.box
        box = (x0 - 1, y0 - 1, x1 + 1, y1 + 1)
        if plain.crop(box).tobytes() != drawn.crop(box).tobytes():
            out.append(item.text)
    return out
