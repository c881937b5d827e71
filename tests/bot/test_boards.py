"""Board pictures in replies: render/ receives ``render.Last`` values (a Morris removal sent as
its own command shows the whole turn), a drawing failure never loses the move, and the text
board of a finished game says the result."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

import engine
import render
from bot.clock import ManualClock
from bot.referee import Referee, boards
from bot.referee.boards import BoardView, draw_png
from bot.store import Store
from tests.bot.conftest import ALICE, BOB, HERE, play, start

MILL = [(ALICE, "place a7"), (BOB, "place a1"), (ALICE, "place d7"), (BOB, "place d1")]


class Recorder:
    """A renderer that keeps every view it was asked to draw and draws it with render/."""

    def __init__(self) -> None:
        self.views: list[BoardView] = []

    def __call__(self, view: BoardView) -> bytes:
        self.views.append(view)
        return draw_png(view)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def drawing(store: Store, clock: ManualClock, recorder: Recorder) -> Referee:
    return Referee(store, clock, render=recorder)


async def test_an_atmalof_drop_is_drawn_with_its_roll(drawing: Referee, recorder) -> None:
    await start(drawing)
    reply = await play(drawing, HERE, ALICE, "drop row 4")
    last = recorder.views[-1].last
    assert isinstance(last, render.Last) and last.roll is not None and 1 <= last.roll <= 6
    assert reply.image is not None and reply.image.startswith(b"\x89PNG")
    assert f"and rolled {last.roll}: a piece landed on" in reply.alt_text


async def test_a_removal_sent_on_its_own_shows_the_move_and_the_removal(
    drawing: Referee, recorder
) -> None:
    await start(drawing, "morris")
    for actor, text in MILL:
        assert (await play(drawing, HERE, actor, text)).ok
    await play(drawing, HERE, ALICE, "place g7")
    assert isinstance(recorder.views[-1].last, render.Last)  # the mill alone so far
    done = await play(drawing, HERE, ALICE, "remove a1")
    made, removed = recorder.views[-1].last
    assert (made.roll, removed.roll) == (None, None)
    assert made.before.ply + 1 == removed.before.ply
    assert done.alt_text.count("Last: ") == 1  # one turn: said once, as the status line does
    assert "Last: White placed g7 and removed a1." in done.alt_text


async def test_a_removal_after_the_opponents_move_is_not_joined_to_it(
    drawing: Referee, recorder
) -> None:
    await start(drawing, "morris")
    for actor, text in MILL:
        await play(drawing, HERE, actor, text)
    await play(drawing, HERE, ALICE, "place g7 x a1")  # one command: one Last
    assert isinstance(recorder.views[-1].last, render.Last)


async def test_a_drawing_failure_never_loses_the_move(store: Store, clock: ManualClock) -> None:
    def broken(view: BoardView) -> bytes:
        raise RuntimeError("the painter tripped")

    referee = Referee(store, clock, render=broken)
    await start(referee, "morris")
    reply = await play(referee, HERE, ALICE, "place a7")
    assert reply.ok and reply.image is None and "bob (Black) to move." in reply.text
    assert [a.action for a in await store.actions(reply.game_id)] == ["place a7"]


@pytest.mark.parametrize(
    ("game", "move", "status"),
    [
        ("atmalof", "drop row 4", "; game over: bob (Blue) wins (alice (Red) resigned)"),
        ("morris", "place a7", "; game over: bob (Black) wins (alice (White) resigned)"),
        ("abalone", "push a1 c3 ne", "; game over: bob (White) wins (alice (Black) resigned)"),
    ],
)
async def test_the_text_board_of_a_finished_game_says_the_result(
    referee: Referee, game: str, move: str, status: str
) -> None:
    await start(referee, game)
    assert (await play(referee, HERE, ALICE, move)).ok
    ended = await referee.resign(HERE, ALICE)
    last_line = ended.board_text.splitlines()[-1]
    assert last_line.endswith(status) and "to move" not in last_line
    assert "in hand" in last_line or "Marbles lost" in last_line  # the counts stay


async def test_an_aborted_game_has_no_result_rather_than_a_draw(referee: Referee) -> None:
    await start(referee, "morris")
    ended = await referee.abort(HERE, ALICE)
    assert "Game over: no result (aborted by alice before both moved)." in ended.text
    assert ended.board_text.splitlines()[-1].endswith(
        "; game over: no result (aborted by alice before both moved)"
    )


async def test_boards_are_drawn_in_the_bounded_pool_off_the_event_loop() -> None:
    """Many moves at once: every board is drawn on one of the pool's threads, never the event
    loop's, and no more than RENDER_THREADS at a time (the rest wait for a drawing thread)."""
    lock = threading.Lock()
    names: list[str] = []
    drawing = peak = 0

    def slow(view: BoardView) -> bytes:
        nonlocal drawing, peak
        with lock:
            drawing += 1
            peak = max(peak, drawing)
            names.append(threading.current_thread().name)
        time.sleep(0.05)  # long enough for the others to pile up
        with lock:
            drawing -= 1
        return draw_png(view)

    view = BoardView("morris", engine.get_game("morris").new())
    previous = boards.use_render_pool(None)  # the bot's own pool, made on first use
    try:
        images = await asyncio.gather(*(boards.png(slow, view) for _ in range(8)))
    finally:
        pool = boards.use_render_pool(previous)
        if pool is not None:
            pool.shutdown(wait=False)
    assert all(image and image.startswith(b"\x89PNG") for image in images)
    assert peak == boards.RENDER_THREADS
    assert threading.main_thread().name not in names
    assert all(name.startswith("board") for name in names)


async def test_a_board_reply_carries_its_position_and_words_it_only_when_asked(
    drawing: Referee, monkeypatch
) -> None:
    """The alt text (Discord) and the text board (console) are made from the reply's board
    when a front end reads them: a front end that shows one never pays for the other."""
    await start(drawing)
    made: list[str] = []
    for name in ("alt_text", "text_board"):
        real = getattr(boards, name)

        def counted(view: BoardView, real=real, name=name) -> str:
            made.append(name)
            return real(view)

        monkeypatch.setattr(boards, name, counted)
    reply = await play(drawing, HERE, ALICE, "drop row 4")
    assert made == [] and reply.board is not None and reply.image is not None
    assert "Red" in reply.alt_text and made == ["alt_text"]
    assert reply.board_text == render.text_board("atmalof", reply.board.state)
    assert made == ["alt_text", "text_board"]
    made.clear()  # each front end makes its own words once a reply
    from bot.console.format import reply_lines
    from bot.discord_ui.format import board_file

    attached = board_file(reply)
    assert attached is not None and "Red" in (attached.description or "")
    assert made == ["alt_text"]
    shown = reply_lines(reply)
    assert made == ["alt_text", "text_board"]
    assert render.text_board("atmalof", reply.board.state) in shown


def test_a_picture_that_is_no_board_keeps_its_own_words() -> None:
    from bot.referee.replies import Reply

    chart = Reply(text="ladder", image=b"\x89PNG", image_alt="the ladder's top ten")
    assert chart.alt_text == "the ladder's top ten" and chart.board_text is None
    assert Reply(text="no picture", image_alt="unused").alt_text == ""
