"""The frame around every board: player cards on top, a status bar at the bottom.

Every image is a square ``size`` x ``size``. The top band holds a card per player (piece, name,
side, pieces in hand or captured, a "to move" / "wins" tag); the bottom band holds the move
number and one short line: the last action, or the result when the game is over. Text sizes are
fractions of ``size`` chosen so that a 400 px copy (Discord on a phone) stays readable.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.paint import (
    Sprite,
    die_sprite,
    disc_sprite,
    draw_text,
    fit_text,
    paste_centred,
    text_width,
)
from render.theme import RGB, PieceStyle, Theme

HEADER = 0.125  # of size
FOOTER = 0.08
PAD = 0.014


@dataclass(frozen=True, slots=True)
class Hand:
    """What a player card shows under the name: a line of text, then small pieces and slots."""

    text: str
    tokens: int = 0
    token_style: PieceStyle | None = None
    slots: int = 0  # empty places drawn after the tokens (Abalone's six)


@dataclass(frozen=True, slots=True)
class Status:
    """The status bar's line: text, an optional die (value, faces), and its tone."""

    text: str
    die: tuple[int, int] | None = None
    tone: str = "text"  # "text", "accent" or "warn"


@dataclass(frozen=True, slots=True)
class Card:
    """One player's card: who, which side, what they hold, and the tag (to move, wins, draw)."""

    name: str
    style: PieceStyle
    hand: Hand
    tag: str | None  # "TO MOVE", "WINS", "DRAW", ...
    active: bool  # outlined in the accent colour


def bands(size: int) -> tuple[int, int]:
    """Heights of the top band and the bottom band in pixels."""
    return round(size * HEADER), round(size * FOOTER)


def board_box(size: int) -> tuple[int, int, int, int]:
    """The box left for the board between the two bands."""
    top, bottom = bands(size)
    return (0, top, size, size - bottom)


@lru_cache(maxsize=64)
def _card_sprite(theme: Theme, w: int, h: int, active: bool) -> Sprite:
    s = 4
    layer = Image.new("RGBA", (w * s, h * s), (*theme.accent, 0))
    d = ImageDraw.Draw(layer)
    border = max(2, round(h * 0.045)) * s
    colour = theme.accent if active else theme.panel
    d.rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1),
        radius=h * 0.2 * s,
        fill=(*theme.panel, 255),
        outline=(*colour, 255),
        width=border,
    )
    return Sprite.of(layer.reduce(s))


def _ink(theme: Theme, tone: str) -> RGB:
    return {"accent": theme.accent, "warn": theme.warn}.get(tone, theme.text)


def draw_header(img: Image.Image, theme: Theme, size: int, cards: tuple[Card, Card]) -> None:
    top, _ = bands(size)
    pad = round(size * PAD)
    w = (size - 3 * pad) // 2
    h = top - 2 * pad
    for side, card in enumerate(cards):
        x0 = pad + side * (w + pad)
        sprite = _card_sprite(theme, w, h, card.active)
        img.paste(sprite.rgb, (x0, pad), sprite.mask)
        _draw_card(img, theme, size, card, x0, pad, w, h)


def _draw_card(
    img: Image.Image, theme: Theme, size: int, card: Card, x0: int, y0: int, w: int, h: int
) -> None:
    inset = round(h * 0.16)
    icon_r = round(h * 0.26)
    icon = disc_sprite(card.style, icon_r, False)
    paste_centred(img, icon, (x0 + inset + icon_r, y0 + h / 2))
    tx = x0 + 2 * inset + 2 * icon_r
    right = x0 + w - inset
    name_px = round(size * 0.036)
    line1 = y0 + h * 0.34
    line2 = y0 + h * 0.74
    if card.tag:
        tag_px = round(size * 0.024)
        tag_w = text_width(card.tag, tag_px, True) + tag_px * 0.9
        tag_h = tag_px * 1.45
        box = (right - tag_w, line1 - tag_h / 2, right, line1 + tag_h / 2)
        ImageDraw.Draw(img).rounded_rectangle(box, radius=tag_h / 2, fill=theme.accent)
        dark = (20, 20, 20) if sum(theme.accent) > 380 else (255, 255, 255)
        draw_text(img, ((box[0] + box[2]) / 2, line1), card.tag, tag_px, dark, "mm", bold=True)
        right_name = box[0] - inset / 2
    else:
        right_name = right
    name, px = fit_text(card.name, right_name - tx, name_px, round(size * 0.026), True)
    draw_text(img, (tx, line1), name, px, theme.text, "lm", bold=True)
    detail_px = round(size * 0.027)
    hand = card.hand
    token_r = round(size * 0.0125)
    space = (hand.tokens + hand.slots) * (2 * token_r + 3)
    text, px = fit_text(hand.text, right - tx - space, detail_px, round(size * 0.022))
    draw_text(img, (tx, line2), text, px, theme.muted, "lm")
    x = tx + text_width(text, px) + token_r + px * 0.4
    if hand.token_style is not None:
        token = disc_sprite(hand.token_style, token_r, False)
        for _ in range(hand.tokens):
            paste_centred(img, token, (x, line2))
            x += 2 * token_r + 3
    hole = _slot_sprite(theme, token_r)
    for _ in range(hand.slots):
        paste_centred(img, hole, (x, line2))
        x += 2 * token_r + 3


@lru_cache(maxsize=32)
def _slot_sprite(theme: Theme, r: int) -> Sprite:
    """An empty place: a small dot, so that it never looks like a light piece."""
    s = 4
    side = 2 * r + 3
    layer = Image.new("RGBA", (side * s, side * s), (*theme.muted, 0))
    c = side * s / 2
    rr = r * s * 0.38
    ImageDraw.Draw(layer).ellipse((c - rr, c - rr, c + rr, c + rr), fill=(*theme.muted, 200))
    return Sprite.of(layer.reduce(s))


def draw_footer(img: Image.Image, theme: Theme, size: int, move_label: str, status: Status) -> None:
    _top, bottom = bands(size)
    pad = round(size * PAD)
    y0 = size - bottom
    mid = y0 + bottom / 2
    ImageDraw.Draw(img).rectangle((0, y0, size, size), fill=theme.panel)
    px = round(size * 0.032)
    draw_text(img, (pad * 1.5, mid), move_label, px, theme.muted, "lm", bold=True)
    x = pad * 2.5 + text_width(move_label, px, True)
    ImageDraw.Draw(img).line(
        (x, y0 + bottom * 0.22, x, size - bottom * 0.22),
        fill=theme.muted,
        width=max(1, size // 400),
    )
    x += pad * 1.2
    if status.die is not None:
        side = round(bottom * 0.62) | 1
        paste_centred(img, die_sprite(status.die[0], side), (x + side / 2, mid))
        x += side + pad * 0.8
    bold = status.tone != "text"
    ink = _ink(theme, status.tone)
    width = size - x - pad * 1.5
    px_one = round(size * 0.032)
    if text_width(status.text, round(size * 0.027), bold) <= width:
        text, px = fit_text(status.text, width, px_one, round(size * 0.027), bold)
        draw_text(img, (x, mid), text, px, ink, "lm", bold=bold)
        return
    px = round(size * 0.025)
    first, second = _split(status.text)
    gap = px * 0.62
    for line, y in ((first, mid - gap), (second, mid + gap)):
        text, _ = fit_text(line, width, px, px, bold)
        draw_text(img, (x, y), text, px, ink, "lm", bold=bold)


def _split(text: str) -> tuple[str, str]:
    """Two lines: at the " · " nearest the middle, else at the space nearest it."""
    for sep in (" · ", " "):
        cuts = [m for m in range(len(text)) if text.startswith(sep, m)]
        if cuts:
            cut = min(cuts, key=lambda m: abs(m - len(text) / 2))
            return text[:cut], text[cut + len(sep) :]
    return text, ""


def move_label(ply: int, over: bool) -> str:
    """ "Move 13" while the game runs (the action about to be made); "13 moves" at the end."""
    if over:
        return f"{ply} move" if ply == 1 else f"{ply} moves"
    return f"Move {ply + 1}"
