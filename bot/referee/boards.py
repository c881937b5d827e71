"""Board pictures for replies: the PNG (via render/, in a bounded pool of threads) and a text board.

A renderer passed to the Referee is a callable ``(BoardView) -> bytes``; the default draws with
``render.board_png``. A drawing failure never loses the move: the reply goes out without the
picture (or with the engine's position string as its text board).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import engine
import render
import translations
from bot import texts
from bot.ending import NOT_TOLD, Ending
from bot.i18n import msg, say
from engine import Outcome
from render import Last

log = logging.getLogger(__name__)

# One action, or a whole turn (a Morris move, then the removal its mill earned).
LastShown = Last | tuple[Last, ...]


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything a board picture needs: the game, the position, the last action (or turn) as
    ``render.Last`` values, the theme, the players' names, the outcome and how it ended as the
    log tells it (``ended``: who voided, aborted or awarded it, and why). Its "Move N" is the
    position's own count (``Game.turns``), the number the history gives the same move."""

    game: str
    state: Any
    last: LastShown | None = None
    theme: str | None = None
    players: tuple[str, str] | None = None
    outcome: Outcome | None = None
    lang: str | None = None  # the words drawn: the server's language (None: English)
    ended: Ending = NOT_TOLD


Renderer = Callable[[BoardView], bytes]

# Threads that draw boards. Two: the host's second core. Parts of Pillow's work and ISA-L's
# deflate release the GIL, so a drawing thread can run while the event loop answers the next
# interaction; the bound keeps a burst from starting a drawing per move at once. A bound, not a
# measured optimum: on a loaded 2-core machine bench/discord.py found no mode clearly better.
RENDER_THREADS = 2
_pool: Executor | None = None


def render_pool() -> Executor:
    """The pool boards are drawn in, made on first use: a burst of moves queues here for a
    drawing thread instead of taking every thread asyncio's default executor has."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="board")
    return _pool


def use_render_pool(executor: Executor | None) -> Executor | None:
    """Draw boards in ``executor`` from now on (None: a new default pool on next use); returns
    the pool used until now, for the benchmark's comparisons and the caller to shut down."""
    global _pool
    previous, _pool = _pool, executor
    return previous


def _words(view: BoardView) -> dict[str, Any]:
    return {} if view.lang is None else {"words": translations.words(view.lang)}


def _kwargs(view: BoardView) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    if view.last is not None:
        kwargs["last"] = view.last
    if view.players is not None:
        kwargs["players"] = list(view.players)
    if view.outcome is not None:
        kwargs["outcome"] = view.outcome
        sides = engine.get_game(view.game).side_names
        told = view.ended.told(view.outcome.termination, view.players or sides)
        if told is not None:
            kwargs["told"] = told
    return kwargs | _words(view)


def draw_png(view: BoardView) -> bytes:
    """The default Renderer: ``render.board_png`` with the view's theme, names and last turn."""
    kwargs = _kwargs(view)
    if view.theme:
        kwargs["theme"] = view.theme
    return render.board_png(view.game, view.state, **kwargs)


def default_renderer() -> Renderer:
    """The Renderer the Referee uses unless told otherwise."""
    return draw_png


def text_board(view: BoardView) -> str:
    """The board as text, its status line saying the result once the game is over."""
    try:
        board = render.text_board(view.game, view.state, **_words(view))
    except Exception:  # a drawing bug must not lose the move
        log.exception("text_board failed for %s", view.game)
        return engine.get_game(view.game).to_text(view.state)
    if view.outcome is None:
        return board
    head, _, status = board.rpartition("\n")
    counts = status.rpartition(";")[0]  # "Red 3 in hand, Blue 2 in hand; Blue to move"
    sides = engine.get_game(view.game).side_names
    line = getattr(view.state, "line", None)  # Atmalof's: "five in a row"
    said = texts.outcome_msg(
        view.game,
        view.players or sides,
        sides,
        view.outcome,
        {"line": line} if line else None,
        ended=view.ended,
    )
    over = say(msg("board.text_over", outcome=said), view.lang or "en")
    return f"{head}\n{counts}; {over}" if counts else f"{head}\n{over}".lstrip("\n")


def alt_text(view: BoardView) -> str:
    """A screen-reader description of the position, the last turn and the result."""
    try:
        return str(render.alt_text(view.game, view.state, **_kwargs(view)))[:1000]
    except Exception:  # the move stands even if the description fails
        log.exception("alt_text failed for %s", view.game)
    game = engine.get_game(view.game)
    return f"{game.title} board: {game.to_text(view.state)}"[:1000]


async def png(renderer: Renderer | None, view: BoardView) -> bytes | None:
    """The PNG bytes, drawn in the render pool so the event loop keeps serving; None on failure."""
    if renderer is None:
        return None
    try:
        return await asyncio.get_running_loop().run_in_executor(render_pool(), renderer, view)
    except Exception:  # the move stands even if the picture fails
        log.exception("rendering %s failed", view.game)
        return None
