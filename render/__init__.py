"""Board images for every game: pure functions of (state, last action, theme, size).

>>> import engine, render
>>> game = engine.get_game("atmalof")
>>> before = game.new("standard")
>>> action = game.parse(before, "drop row 4")
>>> after = game.apply(before, action, roll=6)
>>> png = render.board_png("atmalof", after, last=render.Last(before, action, 6))

``last`` is what the referee knows after applying an action: ``Last(before, action, roll)``
(the state before it, the action object, the die's roll or None). Pass a tuple of them to
show a whole turn (a Morris move and the removal that followed). A bare action is accepted but
draws no overlay (it lacks the state before it and the roll). ``outcome`` overrides the
engine's result for ends the referee decides (resignation, timeout...).

Everything is cached underneath (backgrounds per game, board size, theme and image size;
sprites per theme and size), so a move draws only the pieces and overlays; ``board_png`` maps
onto the palette only what the move drew, and keeps cards and pieces on their cells mapped
(render/canvas.py). The module keeps no other state. Errors: ``RenderError`` (a ValueError)
for an unknown game or theme, a size out of bounds, or a state of another game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from functools import lru_cache
from importlib import import_module
from typing import Any

from PIL import Image

import engine
from engine.core import EngineError, Outcome, Termination
from render import replay as _replay
from render.board import (
    BoardRenderer,
    Told,
    end_reason,
    ended_status,
    one_after_another,
    told_reason,
    who,
)
from render.canvas import Canvas, Mapped, canvas_on, map_boxes, mapped
from render.frame import (
    Card,
    Status,
    bands,
    draw_card,
    draw_footer,
    draw_header,
    move_label,
    same_form,
)
from render.model import MAX_SIZE, MIN_SIZE, Last, Layout, RenderError, check_size
from render.paint import printable
from render.palette import build_palette
from render.png import encode_framed
from render.samples import random_game
from render.theme import THEME_NAMES, THEMES, Theme, get_theme
from translations import Words, words
from translations.titles import game_title

MAX_ALT_TEXT = 1000  # Discord's file description limit is 1024
LABEL_STYLES = ("grid", "letters")


def renderer(game_name: str) -> BoardRenderer:
    """The renderer for a game name ("atmalof", "morris", "abalone")."""
    try:
        key = engine.get_game(game_name).name
    except EngineError as exc:
        raise RenderError(str(exc)) from None
    return import_module(f"render.{key}").RENDERER


def _lasts(last: Any) -> tuple[Last, ...]:
    """The ``Last`` values to draw. Anything else (a bare action without the state before it)
    carries too little to place the overlays, so it is left out rather than losing the image.
    """
    if last is None:
        return ()
    if isinstance(last, Last):
        return (last,)
    if isinstance(last, (tuple, list)):
        return tuple(item for item in last if isinstance(item, Last))
    return ()


def _words(given: Words | None) -> Words:
    """The words to draw with: the caller's language, English when none is given."""
    return words("en") if given is None else given


def _names(players: Sequence[str] | None, side_names: tuple[str, str]) -> tuple[str, str]:
    if players is None:
        return side_names
    if len(players) != 2:
        raise RenderError("players must be two names, side 0 first")
    clean = [printable(str(p))[:64] for p in players]
    return (clean[0] or side_names[0], clean[1] or side_names[1])


def _prepare(game_name: str, state: Any, theme: Any, size: Any) -> tuple[BoardRenderer, Any, int]:
    r = renderer(game_name)
    try:
        r.check(state)
    except TypeError as exc:
        raise RenderError(str(exc)) from None
    return r, get_theme(theme), check_size(size)


def layout(game_name: str, state: Any, size: int = 800) -> Layout:
    """Pixel centre of every cell (keys: Atmalof (row, col), Morris "d7", Abalone "e5")."""
    r, _, size = _prepare(game_name, state, "dark", size)
    return r.layout(state, size)


def board_image(
    game_name: str,
    state: Any,
    last: Last | Sequence[Last] | None = None,
    *,
    theme: str | Theme = "dark",
    size: int = 800,
    players: Sequence[str] | None = None,
    outcome: Outcome | None = None,
    labels: str = "grid",
    moves: int | None = None,
    words: Words | None = None,
    voided: bool = False,
    told: Told | None = None,
) -> Image.Image:
    """The board as a ``size`` x ``size`` RGB image (see ``board_png``)."""
    scene = _Scene(
        game_name, state, last, theme, size, players, outcome, labels, moves, words, voided, told
    )
    img = scene.background.copy()
    scene.r.draw(img, state, scene.lasts, scene.theme, scene.layout, scene.outcome)
    draw_header(img, scene.theme, scene.size, scene.cards)
    scene.footer(img)
    return img


class _Scene:
    """What one board image is drawn from, checked: the renderer, theme, size, overlays, names,
    outcome, cards."""

    def __init__(
        self,
        game_name: str,
        state: Any,
        last: Last | Sequence[Last] | None,
        theme: str | Theme,
        size: int,
        players: Sequence[str] | None,
        outcome: Outcome | None,
        labels: str,
        moves: int | None,
        given_words: Words | None = None,
        voided: bool = False,
        told: Told | None = None,
    ) -> None:
        self.r, self.theme, self.size = _prepare(game_name, state, theme, size)
        self.w = _words(given_words)
        if labels not in LABEL_STYLES:
            raise RenderError(f"labels must be one of {', '.join(LABEL_STYLES)}, not {labels!r}")
        self.state = state
        self.lasts = _lasts(last)
        self.names = _names(players, self.r.sides(self.w))
        game = engine.get_game(self.r.game)
        self.outcome = game.result(state) if outcome is None else outcome
        self.moves = game.turns(state) if moves is None else moves
        self.owed = game.pending_removal(state)  # a mill's turn, its removal still to come
        self.voided = voided
        self.told = told
        self.layout = self.r.layout(state, self.size)
        self.background = self.r.background(state, self.theme, self.size, labels)
        cards = _cards(self.r, state, self.theme, self.names, self.outcome, self.w)
        self.cards = same_form(self.size, cards)

    def footer(self, img: Image.Image, fill: bool = True) -> None:
        draw_footer(
            img,
            self.theme,
            self.size,
            self.label(),
            self._status(),
            fill,
        )

    def label(self) -> str:
        """The footer's move number, said with the status line beside it (while a mill's
        removal is owed, the mill's own: the removal is part of that turn)."""
        after = bool(self.lasts) or self.owed
        return move_label(self.moves, self.outcome is not None, self.w, after=after)

    def _status(self) -> Status:
        """The renderer's status line; at an end the caller told more of (a moderator's void,
        abort or award with their name), the shared result line with the caller's reason: the
        footer fits it, cut with "…" where too long."""
        outcome = self.outcome
        if outcome is not None:
            reason = told_reason(outcome, self.w, self.told, self.voided)
            if reason is not None:
                sides = self.r.sides(self.w)
                return ended_status(outcome, self.names, sides, self.w, reason)
        return self.r.status(self.state, self.lasts, self.names, self.outcome, self.w)


def _cards(
    r: BoardRenderer,
    state: Any,
    th: Any,
    names: tuple[str, str],
    outcome: Outcome | None,
    w: Words,
) -> tuple[Card, Card]:
    """Both players' cards: name, side, hand line (with shorter forms) and tag. The two cards'
    forms go form by form (``same_form`` picks one form for both): the side's name first, and
    each card has as many forms as the other."""
    hands, tags = [], []
    for side in (0, 1):
        if outcome is not None:
            won = outcome.winner == side
            tag = w.t("tag.draw") if outcome.winner is None else (w.t("tag.wins") if won else None)
        else:
            tag = r.turn_tag(state, w) if state.to_move == side else None
        hands.append(r.hand(state, side, th, outcome, w))
        tags.append(tag)
    depth = max(1 + len(hand.shorter) for hand in hands)
    sides = r.sides(w)
    cards = []
    for side, hand in enumerate(hands):
        texts = (hand.text, *hand.shorter)
        texts += (texts[-1],) * (depth - len(texts))  # the same facts at every form
        named = texts
        if names[side] != sides[side]:
            named = tuple(f"{sides[side]} · {text}" if text else sides[side] for text in texts)
        if hand.side_last:  # a short text loses the side's name before its words
            forms = tuple(form for pair in zip(named, texts, strict=True) for form in pair)
        else:
            forms = (*named, *texts)
        hand = dataclasses.replace(hand, text=forms[0], shorter=forms[1:])
        card = Card(names[side], th.pieces(r.game)[side], hand, tags[side], tags[side] is not None)
        cards.append(card)
    return cards[0], cards[1]


def player_cards(
    game_name: str,
    state: Any,
    *,
    players: Sequence[str] | None = None,
    outcome: Outcome | None = None,
    words: Words | None = None,
    size: int | None = None,
) -> tuple[Card, Card]:
    """The two player cards ``board_image`` draws (for checking what they say): with every
    form of their hand lines, or with ``size`` the one form drawn at that size."""
    r, th, _ = _prepare(game_name, state, "dark", size or 800)
    w = _words(words)
    if outcome is None:
        outcome = engine.get_game(r.game).result(state)
    cards = _cards(r, state, th, _names(players, r.sides(w)), outcome, w)
    return cards if size is None else same_form(size, cards)


def board_png(
    game_name: str,
    state: Any,
    last: Last | Sequence[Last] | None = None,
    *,
    theme: str | Theme = "dark",
    size: int = 800,
    players: Sequence[str] | None = None,
    outcome: Outcome | None = None,
    labels: str = "grid",
    moves: int | None = None,
    words: Words | None = None,
    voided: bool = False,
    told: Told | None = None,
) -> bytes:
    """The board as PNG bytes: ``size`` x ``size`` pixels, themed, with the last action marked.

    The PNG is a palette image (render/palette.py): every colour is the drawn image's or a
    near one, in a third of the bytes.

    ``players`` are the names of side 0 and side 1 (default: the side names); ``labels`` is
    "grid" or, for Morris, "letters" (the seed's A..X point names). ``moves``: the count the
    footer shows, when the caller counts otherwise than the game's ``turns(state)`` (what the
    history numbers: a Morris mill with its removal is one turn, split or joined; the engine's
    ply counts two).
    ``words``: the language of every word drawn (``translations.words("hu")``; English if None).
    ``voided``: an aborted ``outcome`` that a moderator voided (said so in the footer).
    ``told``: how the caller says the game ended when it knows more than ``outcome`` (a
    catalog key and its parameters: ``("end.awarded_by", {"name": "Mo", "why": "..."})``),
    said in the footer in place of the outcome's own reason.
    """
    scene = _Scene(
        game_name, state, last, theme, size, players, outcome, labels, moves, words, voided, told
    )
    base = mapped(scene.background, palette_for(scene.r.game, scene.theme))
    with canvas_on(scene.background) as canvas:
        cards = _draw_on_canvas(scene, base, canvas)
        out = _map_canvas(canvas, cards, base)
    return encode_framed(out, base.framed_palette)


Tile = tuple[tuple[int, int, int, int], Image.Image]


def _draw_on_canvas(scene: _Scene, base: Mapped, canvas: Canvas) -> list[Tile]:
    """The board drawn on a Canvas of its background (render/canvas.py); the cards kept
    mapped."""
    canvas.defer = True  # pieces on their cells come from kept tiles
    scene.r.draw(canvas, scene.state, scene.lasts, scene.theme, scene.layout, scene.outcome)
    canvas.defer = False
    top, bottom = bands(scene.size)
    # A card drawn on the background alone is kept mapped: the same card (a side's count and
    # turn) is pasted next time. Not when the board drew into the top band under it.
    clear = all(box[1] >= top for box in canvas.all_boxes())
    cards = []
    for side, card in enumerate(scene.cards):
        tile = base.tile((side, card)) if clear else None
        if tile is None:
            start = len(canvas.boxes)
            draw_card(canvas, scene.theme, scene.size, side, card)
            if clear:
                drawn = canvas.boxes[start:]
                box = (
                    min(b[0] for b in drawn),
                    min(b[1] for b in drawn),
                    max(b[2] for b in drawn),
                    max(b[3] for b in drawn),
                )
                canvas.keep_out(start)
                tile = base.keep((side, card), canvas, box)
        if tile is not None:
            cards.append(tile)
    # The footer's panel needs no filling where the background already has it, untouched.
    band = (0, scene.size - bottom, scene.size, scene.size)
    filled = base.uniform(band, scene.theme.panel) and all(
        b[3] <= band[1] for b in canvas.all_boxes()
    )
    scene.footer(canvas, fill=not filled)
    return cards


def _map_canvas(canvas: Canvas, cards: list[Tile], base: Mapped) -> Image.Image:
    """The framed palette image: the mapped background, the kept tiles, the boxes mapped."""
    out = base.framed.copy()
    for index, (box, rgb, mask) in enumerate(canvas.tiles):  # under the boxes mapped
        if index < canvas.early:
            tile = base.composite_tile(box, *canvas.neighbourhood(index))
        else:
            tile = base.sprite_tile(box, rgb, mask)
        out.im.paste(tile.im, (box[0] + 1, box[1], box[2] + 1, box[3]))
    map_boxes(canvas, canvas.boxes + canvas.overlaps, base.palette, out)
    for (x0, y0, x1, y1), tile in cards:
        out.im.paste(tile.im, (x0 + 1, y0, x1 + 1, y1))
    return out


def alt_text(
    game_name: str,
    state: Any,
    last: Last | Sequence[Last] | None = None,
    *,
    players: Sequence[str] | None = None,
    outcome: Outcome | None = None,
    moves: int | None = None,
    words: Words | None = None,
    voided: bool = False,
    told: Told | None = None,
) -> str:
    """The position in words for screen readers (Discord's file description), under 1024 chars;
    ``voided`` and ``told`` as for ``board_png``."""
    r, _, _ = _prepare(game_name, state, "dark", 800)
    w = _words(words)
    game = engine.get_game(r.game)
    sides = r.sides(w)
    names = _names(players, sides)
    if outcome is None:
        outcome = game.result(state)
    done = game.turns(state) if moves is None else moves
    title = game_title(w, r.game, state.variant)
    parts = [w.t("alt.head", game=title, n=done)]
    if outcome is not None:
        reason = told_reason(outcome, w, told, voided) or end_reason(
            outcome, names, sides, w, **r.end_params(state)
        )
        if outcome.termination is Termination.ABORTED:
            parts.append(w.t("alt.no_result", reason=reason))
        elif outcome.winner is None:
            parts.append(w.t("alt.draw", reason=reason))
        else:
            parts.append(w.t("alt.win", who=who(names, sides, outcome.winner, w), reason=reason))
    else:
        parts.append(r.turn_said(state, who(names, sides, state.to_move, w), w))
    said = r.said_turns(_lasts(last), w)
    if said:  # one "Last:", the turns after it as the status line joins them
        parts.append(w.t("alt.last", what=one_after_another(said, w)))
    parts.extend(r.describe_position(state, names, w, over=outcome is not None))
    text = " ".join(parts)
    if len(text) > MAX_ALT_TEXT:
        text = text[: MAX_ALT_TEXT - 1].rsplit(" ", 1)[0] + "…"
    return text


def text_board(game_name: str, state: Any, labels: str = "grid", words: Words | None = None) -> str:
    """A compact monospace board for the console and a text-only fallback."""
    r, _, _ = _prepare(game_name, state, "dark", 800)
    return r.text_board(state, labels, _words(words))


def touched_cells(game_name: str, state: Any, last: Last | Sequence[Last] | None) -> set[Hashable]:
    """Layout keys the last action's overlays cover (tinted, ghosted or crossed)."""
    r, _, _ = _prepare(game_name, state, "dark", 800)
    return r.touched(state, _lasts(last))


@lru_cache(maxsize=16)
def palette_for(game: str, theme: Theme) -> Image.Image:
    """The 256-colour palette of ``game``'s boards in ``theme`` (render/palette.py), built once
    per process from a sample board."""
    state, last = random_game(game, seed=1, plies=30)[-1]
    sample = board_image(game, state, last, theme=theme, players=("Alice", "Bob"))
    return build_palette(sample, theme)


def to_palette(img: Image.Image, game: str, theme: Theme) -> Image.Image:
    """``img`` (RGB) mapped onto the game's and theme's palette, each pixel to a near colour."""
    return img.quantize(palette=palette_for(game, theme), dither=Image.Dither.NONE)


def replay_gif(source: Any, game_name: str | None = None, **options: Any) -> bytes:
    """An animated GIF (or WebP) of a whole game, a frame per action; the options (theme,
    size, players, outcome, labels, frame_ms, end_ms, max_bytes, max_frames, format, words,
    voided, told) are ``render.replay.animate``'s."""
    return _replay.animate(board_image, source, game_name, **options)


__all__ = [
    "MAX_SIZE",
    "MIN_SIZE",
    "THEMES",
    "THEME_NAMES",
    "Last",
    "Layout",
    "RenderError",
    "Told",
    "alt_text",
    "board_image",
    "board_png",
    "layout",
    "replay_gif",
    "text_board",
    "touched_cells",
]
