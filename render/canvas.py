"""Mapping onto the palette only what a move drew, so that a board PNG costs ~1-2 ms (issue 17).

Mapping a whole 800 px RGB image onto the palette costs ~1 ms (a few ns a pixel), yet a move
changes little of it. Pillow maps each pixel on its own (nearest entry of a fixed palette), so
mapping a rectangle gives the very pixels that mapping the whole image would. So the board is
drawn on a ``Canvas`` (an RGB copy of the cached background, one per thread and background,
put back after each board) that keeps the box of everything pasted or drawn on it; the
background is mapped once per background and palette (``Mapped``), a piece pasted on its cell
and a player's card are kept mapped as tiles, and only the other boxes (overlays, texts, where
pieces overlap) are mapped, into a copy of the mapped background. That copy is a pixel wider:
its first column holds each PNG row's filter byte, so the PNG writer takes its bytes as they
are (render/png.py). tests/render/test_mapped_png.py checks that the result is the whole image
mapped, pixel for pixel.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import cast

from PIL import Image
from PIL.ImageFile import ImageFile

Box = tuple[int, int, int, int]


Part = tuple[Box, Image.Image, Image.Image]  # a sprite pasted at a box, with its mask
GRID = 64  # pixels: boxes are looked up by the grid cells they cover


class Canvas(Image.Image):
    """An RGB image (a copy of ``base``) that keeps the box of every paste into it.

    Shapes drawn with ``ImageDraw`` pass through no paste: their drawer calls ``mark`` first.
    While ``defer`` is set, a sprite pasted whole is a tile (``tiles``): outside every other
    box, its box is the background with that sprite, which ``Mapped.sprite_tile`` keeps mapped
    (a piece on its cell); where boxes overlap, the canvas is mapped over the tiles. A tile on
    untouched background is pasted only when something overlaps it, in its turn.

    Tiles pasted before anything else (the pieces a board draws first) stay off the canvas even
    where they overlap one another (Abalone's marbles touch their neighbours): in the box of
    such an early tile the image is the background with the early sprites that reach into it,
    in their order, which ``Mapped.composite_tile`` keeps mapped (``neighbourhood``). One is
    put on the canvas, composed, only when a later drawing reaches it.
    """

    def __init__(self, base: Image.Image) -> None:
        super().__init__()
        base.load()
        self.im = base.im.copy()
        self._mode = base.mode
        self._size = base.size
        self.base = base
        self.boxes: list[Box] = []  # mapped from the canvas at the end, over the tiles
        self._drawn: list[Box] = []  # tiles pasted on the canvas
        self.overlaps: list[Box] = []  # of two tiles: mapped from the canvas like boxes
        self.tiles: list[tuple[Box, Image.Image, Image.Image]] = []
        self.defer = False
        self._pending: dict[int, int] = {}  # tiles not pasted yet: key -> index in tiles
        self._grid: dict[tuple[int, int], list[tuple[Box, int]]] = {}
        self.early = 0  # tiles[:early] were pasted before any other drawing (see the class)
        self._only_tiles = True  # nothing but tiles drawn so far
        self._near: list[list[int]] = []  # per early tile: the early tiles overlapping it
        self._ids: list[tuple[Box, int, int]] = []  # per early tile: its box and sprite's ids

    def paste(self, im, box=None, mask=None) -> None:  # type: ignore[override]
        if isinstance(box, Image.Image):  # paste(im, mask)
            box, mask = None, box
        if box is None or len(box) == 2:
            x, y = box or (0, 0)
            source = im if isinstance(im, Image.Image) else mask
            w, h = source.size if source is not None else self.size
            box = (x, y, x + w, y + h)
        fast = mask is not None and mask.mode == "L" and _ready(im, self.mode)
        clipped = self._clip(box)
        if clipped is not None:
            tile = fast and self.defer and clipped == box and not isinstance(im, tuple)
            if tile and self._only_tiles:  # an early tile: kept off the canvas for now
                self._early_tile(clipped, im, mask)
                return
            if not tile:
                self._only_tiles = False
            over = self._claim(clipped, mask if tile else None)
            if tile:
                self.tiles.append((clipped, im, mask))
                key = len(self.tiles)
                self._register(clipped, key)
                if not over:
                    self._pending[key] = key - 1
                    return
                self._drawn.append(clipped)
            else:
                self._register(clipped, 0)
                self.boxes.append(clipped)
        if fast:
            # A sprite or a text's glyphs (most of a board's pastes): straight to Pillow's C
            # paste, without Image.paste's checks (~5 us each).
            self.im.paste(im.im if isinstance(im, Image.Image) else im, box, mask.im)
        else:
            super().paste(im, box, mask)

    def mark(self, box: Sequence[float]) -> None:
        """Note that ``box`` (left, top, right, bottom; right and bottom excluded) is about to
        change (call it before drawing: a tile under it is pasted first)."""
        clipped = self._clip(box)
        if clipped is not None:
            self._only_tiles = False
            self._claim(clipped, None)
            self._register(clipped, 0)
            self.boxes.append(clipped)

    def keep_out(self, start: int) -> None:
        """Leave the boxes from ``start`` on unmapped (a kept tile covers them), yet restored."""
        self._drawn += self.boxes[start:]
        del self.boxes[start:]

    def restore(self) -> None:
        """Back to the background alone (every box drawn on is copied back from it)."""
        source = self.base.im
        for box in (*self.boxes, *self._drawn):  # overlaps lie inside drawn tiles
            self.im.paste(source.crop(box), box)
        self.boxes, self.overlaps, self.tiles, self._drawn = [], [], [], []
        self._pending, self._grid = {}, {}
        self.defer = False
        self.early, self._only_tiles, self._near, self._ids = 0, True, [], []

    def all_boxes(self) -> list[Box]:
        """Every box drawn or kept as a tile."""
        return self.boxes + [tile[0] for tile in self.tiles]

    def _clip(self, box: Sequence[float]) -> Box | None:
        x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
        x1, y1 = min(self.width, -int(-box[2] // 1)), min(self.height, -int(-box[3] // 1))
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        return [
            (cx, cy)
            for cy in range(box[1] // GRID, (box[3] - 1) // GRID + 1)
            for cx in range(box[0] // GRID, (box[2] - 1) // GRID + 1)
        ]

    def _claim(self, box: Box, mask: Image.Image | None) -> bool:
        """Paste the pending tiles ``box`` overlaps; True when it overlaps anything. ``mask``
        set: the box is a tile's; its overlap with another tile's box is mapped from the
        canvas (a box of its own)."""
        over = False
        x0, y0, x1, y1 = box
        for cell in self._cells(box):
            for (a0, b0, a1, b1), key in self._grid.get(cell, ()):
                if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1:
                    over = True
                    index = self._pending.pop(key, None)
                    if index is not None:
                        drawn, sprite, alpha = self.tiles[index]
                        if key <= self.early:  # composed: early neighbours may reach in
                            parts, _ = self.neighbourhood(index)
                            self.im.paste(compose(self.base, drawn, parts), drawn)
                        else:
                            self.im.paste(sprite.im, drawn, alpha.im)
                        self._drawn.append(drawn)
                    if mask is not None and key:
                        self.overlaps.append((max(a0, x0), max(b0, y0), min(a1, x1), min(b1, y1)))
        return over

    def _early_tile(self, box: Box, im: Image.Image, mask: Image.Image) -> None:
        """Keep a tile pasted while only tiles were: note which earlier ones it overlaps (the
        grid holds nothing else yet)."""
        x0, y0, x1, y1 = box
        index = len(self.tiles)
        found = {
            key - 1
            for cell in self._cells(box)
            for (a0, b0, a1, b1), key in self._grid.get(cell, ())
            if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1
        }
        near = self._near
        for other in found:
            near[other].append(index)  # ascending: later tiles come later
        near.append([*sorted(found), index])
        self._ids.append((box, id(im), id(mask)))
        self.tiles.append((box, im, mask))
        self.early = key = index + 1
        self._register(box, key)
        self._pending[key] = index

    def neighbourhood(self, index: int) -> tuple[tuple[Part, ...], Hashable]:
        """The early tiles whose boxes overlap early tile ``index``'s, itself included, in the
        order they were pasted (what its box shows before any later drawing), and a key for
        them (their boxes and their sprites' ids)."""
        near = self._near[index]
        tiles, ids = self.tiles, self._ids
        return tuple([tiles[j] for j in near]), tuple([ids[j] for j in near])

    def _register(self, box: Box, key: int) -> None:
        for cell in self._cells(box):
            self._grid.setdefault(cell, []).append((box, key))


_LOCAL = threading.local()
KEPT_CANVASES = 3  # per thread: one per game at a theme and size (a bot draws the three games in
# turn; with two kept, a third of its boards copied a whole background first); 2.5 MB at 800 px


@contextmanager
def canvas_on(background: Image.Image) -> Iterator[Canvas]:
    """A Canvas on ``background`` for this thread, kept and put back to the background
    afterwards: copying only the boxes drawn on costs less than copying the whole background
    (~0.2-0.3 ms at 800 px) for every board."""
    kept: OrderedDict[int, Canvas] = _LOCAL.__dict__.setdefault("canvases", OrderedDict())
    canvas = kept.pop(id(background), None)
    if canvas is None or canvas.base is not background:
        canvas = Canvas(background)
    try:
        yield canvas
    finally:
        canvas.restore()
        kept[id(background)] = canvas  # taken out while in use: never two users at once
        while len(kept) > KEPT_CANVASES:
            kept.popitem(last=False)


def compose(background: Image.Image, box: Box, parts: Sequence[Part]):
    """The core image of ``box`` of ``background`` with every part's sprite pasted in turn at
    its own box (clipped to ``box``)."""
    x0, y0, x1, y1 = box
    region = background.im.crop((x0, y0, x1, y1))
    for (a0, b0, a1, b1), rgb, mask in parts:
        region.paste(rgb.im, (a0 - x0, b0 - y0, a1 - x0, b1 - y0), mask.im)
    return region


def _ready(im: object, mode: str) -> bool:
    """True for a colour tuple, or an image of ``mode`` made in memory (a sprite, not a file
    Pillow reads when first used)."""
    if isinstance(im, tuple):
        return True
    return isinstance(im, Image.Image) and not isinstance(im, ImageFile) and im.mode == mode


def mark(img: Image.Image, box: Sequence[float]) -> None:
    """Note a box about to be drawn with ``ImageDraw`` on ``img`` when it is a ``Canvas``."""
    if isinstance(img, Canvas):
        img.mark(box)


def map_boxes(canvas: Image.Image, boxes: Sequence[Box], palette: Image.Image, out: Image.Image):
    """Map each box of ``canvas`` onto ``palette`` (loaded) into the framed ``out`` (x + 1)."""
    src, dst, pal = canvas.im, out.im, palette.im
    for x0, y0, x1, y1 in boxes:
        dst.paste(src.crop((x0, y0, x1, y1)).convert("P", 0, pal), (x0 + 1, y0, x1 + 1, y1))


@dataclass
class Mapped:
    """A background mapped onto a palette, framed (a zero column first), with the cards and
    other parts drawn on it kept as mapped tiles by what they show."""

    background: Image.Image
    palette: Image.Image
    framed: Image.Image
    framed_palette: list[int]  # the palette's colours, r, g, b, ... (the PNG's PLTE)
    tiles: OrderedDict[Hashable, tuple] = field(default_factory=OrderedDict)

    uniform_boxes: dict[tuple[Box, tuple[int, ...]], bool] = field(default_factory=dict)

    def uniform(self, box: Box, colour: tuple[int, ...]) -> bool:
        """True when ``box`` of the background is ``colour`` throughout (found once)."""
        key = (box, colour)
        found = self.uniform_boxes.get(key)
        if found is None:
            bands = cast(tuple[tuple[int, int], ...], self.background.crop(box).getextrema())
            found = all(low == high == c for (low, high), c in zip(bands, colour, strict=True))
            self.uniform_boxes[key] = found
        return found

    def sprite_tile(self, box: Box, rgb: Image.Image, mask: Image.Image) -> Image.Image:
        """The background with a sprite pasted at ``box``, mapped (kept: a piece on a cell)."""
        key = ("sprite", id(rgb), id(mask), box)
        with _LOCK:
            found = self.tiles.get(key)
            # The entry holds the sprite, so its ids cannot be another image's meanwhile.
            if found is not None and found[2] is rgb and found[3] is mask:
                self.tiles.move_to_end(key)
                return found[1]
        region = self.background.im.crop(box)
        region.paste(rgb.im, (0, 0, *rgb.size), mask.im)
        tile = Image.new("P", rgb.size)
        tile.im.paste(region.convert("P", 0, self.palette.im), (0, 0, *rgb.size))
        with _LOCK:
            self.tiles[key] = (box, tile, rgb, mask)
            while len(self.tiles) > MAX_TILES:
                self.tiles.popitem(last=False)
        return tile

    def composite_tile(self, box: Box, parts: tuple[Part, ...], ids: Hashable) -> Image.Image:
        """``box`` of the background with every part's sprite pasted over it in turn, mapped
        (kept: a marble with its neighbours reaching into its box); ``ids`` names the parts
        (``Canvas.neighbourhood``)."""
        if len(parts) == 1:
            return self.sprite_tile(*parts[0])
        key = ("composite", box, ids)
        with _LOCK:
            found = self.tiles.get(key)
            # The entry holds the sprites, so their ids cannot be other images' meanwhile (a
            # tuple compares its items by identity first: the same sprites compare at once).
            if found is not None and found[2] == parts:
                self.tiles.move_to_end(key)
                return found[1]
        size = (box[2] - box[0], box[3] - box[1])
        tile = Image.new("P", size)
        mapped = compose(self.background, box, parts).convert("P", 0, self.palette.im)
        tile.im.paste(mapped, (0, 0, *size))
        with _LOCK:
            self.tiles[key] = (box, tile, parts)
            while len(self.tiles) > MAX_TILES:
                self.tiles.popitem(last=False)
        return tile

    def tile(self, key: Hashable) -> tuple[Box, Image.Image] | None:
        with _LOCK:
            found = self.tiles.get(key)
            if found is not None:
                self.tiles.move_to_end(key)
                return found[0], found[1]
            return None

    def keep(self, key: Hashable, canvas: Image.Image, box: Box) -> tuple[Box, Image.Image]:
        """Map ``box`` of ``canvas`` and keep it under ``key``."""
        out = Image.new("P", (box[2] - box[0], box[3] - box[1]))
        out.im.paste(canvas.im.crop(box).convert("P", 0, self.palette.im), (0, 0, *out.size))
        with _LOCK:
            self.tiles[key] = (box, out)
            while len(self.tiles) > MAX_TILES:
                self.tiles.popitem(last=False)
        return box, out


MAX_TILES = 1024  # per background: a game's cards take a few dozen (side, count, turn), its
# pieces on their cells a few hundred
MAX_BACKGROUNDS = 32
_LOCK = threading.Lock()
_MAPPED: OrderedDict[int, Mapped] = OrderedDict()


def mapped(background: Image.Image, palette: Image.Image) -> Mapped:
    """The cached background (an image the renderers keep) mapped onto ``palette``."""
    with _LOCK:
        found = _MAPPED.get(id(background))
        # The entry holds the image itself, so its id cannot be another image's meanwhile.
        if found is not None and found.background is background and found.palette is palette:
            _MAPPED.move_to_end(id(background))
            return found
    w, h = background.size
    colours = palette.getpalette() or [0, 0, 0]
    framed = Image.new("P", (w + 1, h), 0)
    framed.putpalette(colours)
    map_boxes(background, [(0, 0, w, h)], palette, framed)
    entry = Mapped(background, palette, framed, colours)
    with _LOCK:
        _MAPPED[id(background)] = entry
        while len(_MAPPED) > MAX_BACKGROUNDS:
            _MAPPED.popitem(last=False)
    return entry
