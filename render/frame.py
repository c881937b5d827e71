"""The frame around every board: player cards on top, a status bar at the bottom.

Every image is a square ``size`` x ``size``. The top band holds a card per player (piece, name,
side, pieces in hand or captured, a "to move" / "wins" tag); the bottom band holds the move
number and one short line: the last action, or the result when the game is over. Text sizes are
fractions of ``size`` chosen so that an 800 px board shown at 400 px (Discord on a phone) stays
readable, with a floor in pixels (``text_px``) so that a board drawn small (a replay) does too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from render.canvas import mark
from render.paint import (
    Sprite,
    die_sprite,
    disc_sprite,
    draw_text,
    fit_text,
    paste_centred,
    text_px,
    text_width,
)
from render.theme import RGB, PieceStyle, Theme
from translations import Words

HEADER = 0.125  # of size
FOOTER = 0.08
MIN_HEADER = 54  # pixels: two lines of legible text
MIN_FOOTER = 36
PAD = 0.014
# Text sizes, as fractions of the image size (the floor is render.paint.MIN_PX or as given).
NAME = 0.038
TAG = 0.026
DETAIL = 0.031
DETAIL_MIN = 0.027  # the hand line shrinks this far before a shorter form is taken
STATUS = 0.034
STATUS_TWO_LINES = 0.028


@dataclass(frozen=True, slots=True)
class Hand:
    """What a player card shows under the name: a line of text, then small pieces and slots."""

    text: str
    tokens: int = 0
    token_style: PieceStyle | None = None
    slots: int = 0  # empty places drawn after the tokens (Abalone's six)
    shorter: tuple[str, ...] = ()  # shorter texts, tried in order when ``text`` does not fit
    side_last: bool = False  # when short of space, leave the side's name out before the text


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
    return max(MIN_HEADER, round(size * HEADER)), max(MIN_FOOTER, round(size * FOOTER))


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


def _card_size(size: int) -> tuple[int, int, int]:
    """Padding, width and height of a player card."""
    top, _ = bands(size)
    pad = round(size * PAD)
    return pad, (size - 3 * pad) // 2, top - 2 * pad


def draw_header(img: Image.Image, theme: Theme, size: int, cards: tuple[Card, Card]) -> None:
    for side, card in enumerate(cards):
        draw_card(img, theme, size, side, card)


def draw_card(img: Image.Image, theme: Theme, size: int, side: int, card: Card) -> None:
    """One player's card in the top band (side 0 on the left)."""
    pad, w, h = _card_size(size)
    x0 = pad + side * (w + pad)
    sprite = _card_sprite(theme, w, h, card.active)
    img.paste(sprite.rgb, (x0, pad), sprite.mask)
    _draw_card(img, theme, size, card, x0, pad, w, h)


@dataclass(frozen=True, slots=True)
class CardText:
    """What a card's two lines say and how large, at one image size (offsets from the card)."""

    name: str
    name_px: int
    detail: str
    detail_px: int
    tag_px: int
    tag_width: float  # 0 when the tag is left out for the name's sake
    text_x: int  # where both lines start
    token_r: int


def _text_box(size: int) -> tuple[int, int, int]:
    """A card's inset, where its text starts and where it ends (offsets from the card)."""
    _, w, h = _card_size(size)
    inset = round(h * 0.16)
    icon_r = round(h * 0.26)
    return inset, 2 * inset + 2 * icon_r, w - inset


def _detail_room(size: int, hand: Hand) -> tuple[float, int]:
    """The width the hand line may take beside its tokens and slots, and the tokens' radius."""
    _, tx, right = _text_box(size)
    token_r = max(4, round(size * 0.0125))
    return right - tx - (hand.tokens + hand.slots) * (2 * token_r + 3), token_r


def card_text(size: int, card: Card) -> CardText:
    """The card's texts fitted to its width: the name shrinks then is cut; the hand line takes
    the first of its texts that fits (``Hand.shorter``) before it is cut."""
    inset, tx, right = _text_box(size)
    tag_px = text_px(size, TAG, 12)
    tag_w = text_width(card.tag, tag_px, True) + tag_px * 0.9 if card.tag else 0.0
    name_px, name_min = text_px(size, NAME, 15), text_px(size, NAME * 0.8, 14)
    if tag_w and text_width(card.name, name_min, True) > right - tag_w - inset / 2 - tx:
        tag_w = 0.0  # a small card keeps the name; its accent outline still marks the turn
    right_name = right - tag_w - inset / 2 if tag_w else right
    name, name_px = fit_text(card.name, right_name - tx, name_px, name_min, True)
    hand = card.hand
    room, token_r = _detail_room(size, hand)
    detail, detail_px = _fit_first(
        (hand.text, *hand.shorter), room, text_px(size, DETAIL), text_px(size, DETAIL_MIN)
    )
    return CardText(name, name_px, detail, detail_px, tag_px, tag_w, tx, token_r)


def same_form(size: int, cards: tuple[Card, Card]) -> tuple[Card, Card]:
    """Both cards with the same form of their hand line: the first that fits on both cards
    (each card's forms say the same facts, form by form; a card with fewer keeps its last),
    else the last, cut. Fitted apart, one card said more than the other on the same picture
    ("Kék · kézben: 22 · táblán: 0" beside "Piros · kézben: 21"), or named the same count
    with another word ("lelökve" beside "kint")."""
    forms = [(card.hand.text, *card.hand.shorter) for card in cards]
    least = text_px(size, DETAIL_MIN)
    rooms = [_detail_room(size, card.hand)[0] for card in cards]
    chosen: list[str] = []
    for level in range(max(len(f) for f in forms)):
        chosen = [f[min(level, len(f) - 1)] for f in forms]
        if all(text_width(t, least) <= room for t, room in zip(chosen, rooms, strict=True)):
            break
    first, second = (
        replace(card, hand=replace(card.hand, text=text, shorter=()))
        for card, text in zip(cards, chosen, strict=True)
    )
    return first, second


def _draw_card(
    img: Image.Image, theme: Theme, size: int, card: Card, x0: int, y0: int, w: int, h: int
) -> None:
    inset = round(h * 0.16)
    icon_r = round(h * 0.26)
    icon = disc_sprite(card.style, icon_r, False)
    paste_centred(img, icon, (x0 + inset + icon_r, y0 + h / 2))
    text = card_text(size, card)
    tx = x0 + text.text_x
    right = x0 + w - inset
    line1 = y0 + h * 0.34
    line2 = y0 + h * 0.74
    if card.tag and text.tag_width:
        tag_h = text.tag_px * 1.45
        box = (right - text.tag_width, line1 - tag_h / 2, right, line1 + tag_h / 2)
        mark(img, (box[0], box[1], box[2] + 1, box[3] + 1))
        ImageDraw.Draw(img).rounded_rectangle(box, radius=tag_h / 2, fill=theme.accent)
        dark = (20, 20, 20) if sum(theme.accent) > 380 else (255, 255, 255)
        draw_text(img, ((box[0] + box[2]) / 2, line1), card.tag, text.tag_px, dark, "mm", bold=True)
    draw_text(img, (tx, line1), text.name, text.name_px, theme.text, "lm", bold=True)
    draw_text(img, (tx, line2), text.detail, text.detail_px, theme.muted, "lm")
    hand = card.hand
    token_r = text.token_r
    x = tx + text_width(text.detail, text.detail_px) + token_r + text.detail_px * 0.4
    if hand.token_style is not None:
        token = disc_sprite(hand.token_style, token_r, False)
        for _ in range(hand.tokens):
            paste_centred(img, token, (x, line2))
            x += 2 * token_r + 3
    hole = _slot_sprite(theme, token_r)
    for _ in range(hand.slots):
        paste_centred(img, hole, (x, line2))
        x += 2 * token_r + 3


def _fit_first(texts: tuple[str, ...], width: float, px: int, min_px: int) -> tuple[str, int]:
    """The first of ``texts`` that fits ``width`` (shrinking to ``min_px``), else the last cut."""
    for text in texts:
        if text_width(text, min_px) <= width:
            return fit_text(text, width, px, min_px)
    return fit_text(texts[-1], width, px, min_px)


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


def draw_footer(
    img: Image.Image, theme: Theme, size: int, move_label: str, status: Status, fill: bool = True
) -> None:
    """The bottom band. ``fill=False`` when the band is already the panel colour (the
    background's, nothing drawn over it): only the texts, the line and the die change it."""
    _top, bottom = bands(size)
    pad = round(size * PAD)
    y0 = size - bottom
    mid = y0 + bottom / 2
    if fill:
        mark(img, (0, y0, size, size))
        ImageDraw.Draw(img).rectangle((0, y0, size, size), fill=theme.panel)
    px = text_px(size, STATUS, 14)
    draw_text(img, (pad * 1.5, mid), move_label, px, theme.muted, "lm", bold=True)
    rule_x, die_x, x = _footer_xs(size, move_label, status)
    rule = (rule_x, y0 + bottom * 0.22, rule_x, size - bottom * 0.22)
    stroke = max(1, size // 400)
    mark(
        img, (rule_x - stroke - 1, rule[1] - stroke - 1, rule_x + stroke + 2, rule[3] + stroke + 2)
    )
    ImageDraw.Draw(img).line(rule, fill=theme.muted, width=stroke)
    if status.die is not None:
        side = round(bottom * 0.62) | 1
        paste_centred(img, die_sprite(status.die[0], side), (die_x + side / 2, mid))
    bold = status.tone != "text"
    ink = _ink(theme, status.tone)
    lines = status_lines(status.text, size - x - pad * 1.5, size, bold)
    if len(lines) == 1:
        text, px = lines[0]
        draw_text(img, (x, mid), text, px, ink, "lm", bold=bold)
        return
    gap = min(lines[0][1] * 0.62, bottom * 0.25)
    for (text, px), y in zip(lines, (mid - gap, mid + gap), strict=True):
        draw_text(img, (x, y), text, px, ink, "lm", bold=bold)


def status_lines(text: str, width: float, size: int, bold: bool) -> list[tuple[str, int]]:
    """The status line as drawn in ``width`` pixels (each line's text and pixel size): one line,
    shrunk as far as legible, else two split at " · " (``_split``), each cut with an ellipsis
    if it still does not fit. ``footer_status`` gives them for a whole image."""
    px_one = text_px(size, STATUS, 14)
    px_min = text_px(size, STATUS * 0.85)
    if text_width(text, px_min, bold) <= width:
        return [fit_text(text, width, px_one, px_min, bold)]
    px = text_px(size, STATUS_TWO_LINES)
    return [fit_text(line, width, px, px, bold) for line in _split(text)]


def footer_status(size: int, move_label: str, status: Status) -> list[str]:
    """The status line's texts as ``draw_footer`` draws them beside ``move_label``: a caption
    cut with "…" has not fitted (what tests of every language's captions look for)."""
    pad = round(size * PAD)
    x = _footer_xs(size, move_label, status)[2]
    lines = status_lines(status.text, size - x - pad * 1.5, size, status.tone != "text")
    return [text for text, _px in lines]


def _footer_xs(size: int, move_label: str, status: Status) -> tuple[float, float, float]:
    """Where the footer's rule, its die (if the status shows one) and its status text start."""
    pad = round(size * PAD)
    rule = pad * 2.5 + text_width(move_label, text_px(size, STATUS, 14), True)
    die = rule + pad * 1.2
    if status.die is None:
        return rule, die, die
    return rule, die, die + (round(bands(size)[1] * 0.62) | 1) + pad * 0.8


def _split(text: str) -> tuple[str, str]:
    """Two lines: at the " · " nearest the middle, else at the space nearest it."""
    for sep in (" · ", " "):
        cuts = [m for m in range(len(text)) if text.startswith(sep, m)]
        if cuts:
            cut = min(cuts, key=lambda m: abs(m - len(text) / 2))
            return text[:cut], text[cut + len(sep) :]
    return text, ""


def move_label(ply: int, over: bool, w: Words, *, after: bool = False) -> str:
    """ "13 moves" at the end; while the game runs, the number of the move the status line
    beside it says: the one just made when it tells that move (``after``; the history
    numbers it so too), else the one about to be made ("Move 1" on an empty board)."""
    if over:
        return w.t("move.total", n=ply)
    return w.t("move.current", n=ply if after and ply else ply + 1)
