"""Board pictures for replies: the PNG (via render/, in a worker thread) and a text board.

render/ is optional at import time (another engineer writes it): without it the referee still
answers, with the engine's position text as the board. A renderer passed to the Referee is a
callable ``(game_name, state, last_action, theme) -> bytes``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import engine

log = logging.getLogger(__name__)

Renderer = Callable[[str, Any, Any, str | None], bytes]


def _render_module() -> Any:
    try:
        import render
    except ImportError:  # pragma: no cover - render/ always ships with the bot
        return None
    return render


def default_renderer() -> Renderer | None:
    """``render.board_png`` adapted to the Renderer shape, or None when render has none yet."""
    module = _render_module()
    board_png = getattr(module, "board_png", None)
    if board_png is None:
        return None

    def draw(game_name: str, state: Any, last: Any, theme: str | None) -> bytes:
        kwargs: dict[str, Any] = {"last": last}
        if theme:
            kwargs["theme"] = theme
        return board_png(game_name, state, **kwargs)

    return draw


def text_board(game_name: str, state: Any) -> str:
    """The board as text: ``render.text_board`` when it exists, else the position string."""
    module = _render_module()
    fn = getattr(module, "text_board", None)
    if fn is not None:
        try:
            return fn(game_name, state)
        except Exception:  # a drawing bug must not lose the move
            log.exception("text_board failed for %s", game_name)
    return engine.get_game(game_name).to_text(state)


def alt_text(game_name: str, state: Any, last: Any) -> str:
    """A screen-reader description: ``render.alt_text`` when it exists, else the position."""
    module = _render_module()
    fn = getattr(module, "alt_text", None)
    if fn is not None:
        try:
            return str(fn(game_name, state, last))[:1000]
        except Exception:
            log.exception("alt_text failed for %s", game_name)
    game = engine.get_game(game_name)
    return f"{game.title} board: {game.to_text(state)}"[:1000]


async def png(renderer: Renderer | None, game_name: str, state: Any, last: Any, theme: str | None):
    """The PNG bytes, drawn in a worker thread so the event loop keeps serving; None on failure."""
    if renderer is None:
        return None
    try:
        return await asyncio.to_thread(renderer, game_name, state, last, theme)
    except Exception:  # the move stands even if the picture fails
        log.exception("rendering %s failed", game_name)
        return None
