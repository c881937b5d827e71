"""Board pictures for replies: the PNG (via render/, in a worker thread) and a text board.

render/ is optional at import time (another engineer writes it): without it the referee still
answers, with the engine's position text as the board. A renderer passed to the Referee is a
callable ``(BoardView) -> bytes``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engine
from engine import Outcome

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything a board picture needs: the game, the position, the last action as
    ``(state before, action, roll)`` or None, the theme, the players' names, the outcome."""

    game: str
    state: Any
    last: tuple[Any, Any, int | None] | None = None
    theme: str | None = None
    players: tuple[str, str] | None = None
    outcome: Outcome | None = None


Renderer = Callable[[BoardView], bytes]


def _render_module() -> Any:
    try:
        import render
    except ImportError:  # pragma: no cover - render/ always ships with the bot
        return None
    return render


def _kwargs(module: Any, view: BoardView) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    if view.last is not None and hasattr(module, "Last"):
        kwargs["last"] = module.Last(*view.last)
    if view.players is not None:
        kwargs["players"] = list(view.players)
    if view.outcome is not None:
        kwargs["outcome"] = view.outcome
    return kwargs


def default_renderer() -> Renderer | None:
    """``render.board_png`` as a Renderer, or None when render/ has none."""
    module = _render_module()
    if getattr(module, "board_png", None) is None:
        return None

    def draw(view: BoardView) -> bytes:
        kwargs = _kwargs(module, view)
        if view.theme:
            kwargs["theme"] = view.theme
        return module.board_png(view.game, view.state, **kwargs)

    return draw


def text_board(view: BoardView) -> str:
    """The board as text: ``render.text_board`` when it exists, else the position string."""
    fn = getattr(_render_module(), "text_board", None)
    if fn is not None:
        try:
            return fn(view.game, view.state)
        except Exception:  # a drawing bug must not lose the move
            log.exception("text_board failed for %s", view.game)
    return engine.get_game(view.game).to_text(view.state)


def alt_text(view: BoardView) -> str:
    """A screen-reader description: ``render.alt_text`` when it exists, else the position."""
    module = _render_module()
    fn = getattr(module, "alt_text", None)
    if fn is not None:
        try:
            return str(fn(view.game, view.state, **_kwargs(module, view)))[:1000]
        except Exception:
            log.exception("alt_text failed for %s", view.game)
    game = engine.get_game(view.game)
    return f"{game.title} board: {game.to_text(view.state)}"[:1000]


async def png(renderer: Renderer | None, view: BoardView) -> bytes | None:
    """The PNG bytes, drawn in a worker thread so the event loop keeps serving; None on failure."""
    if renderer is None:
        return None
    try:
        return await asyncio.to_thread(renderer, view)
    except Exception:  # the move stands even if the picture fails
        log.exception("rendering %s failed", view.game)
        return None
