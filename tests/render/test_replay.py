"""Replays: a frame per action, from a record or from positions, under the byte limit."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

import engine
import render
from engine.record import Recorder
from render import RenderError, replay_gif
from render.gallery import random_game


def frames_in(data: bytes) -> int:
    img = Image.open(io.BytesIO(data))
    return getattr(img, "n_frames", 1)


def test_a_replay_has_a_frame_per_position() -> None:
    frames = random_game("morris", seed=3, plies=12)
    data = replay_gif(frames, size=300)
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF"
    assert img.size == (300, 300)
    assert frames_in(data) == len(frames)


def test_a_replay_from_bare_states_needs_no_game_name() -> None:
    states = [s for s, _ in random_game("abalone", seed=3, plies=5)]
    assert frames_in(replay_gif(states, size=240)) == 6


def test_a_replay_of_a_record_replays_the_engine_with_the_recorded_rolls() -> None:
    rec = Recorder("atmalof", players=(("1", "Alice"), ("2", "Bob")), game_id="g1", seed="ab" * 16)
    for command in ("drop row 4", "drop col 2", "drop row 1", "drop col 6"):
        rec.play(command)
    record = rec.finish()
    data = replay_gif(record, size=240)
    assert frames_in(data) == 5
    first = Image.open(io.BytesIO(data))
    first.seek(4)
    last_frame = first.convert("RGB")
    expected = render.board_image("atmalof", rec.state, size=240, players=("Alice", "Bob"))
    # The final frame shows the recorded final position (palette-reduced, so compare loosely).
    a, b = last_frame.tobytes(), expected.tobytes()
    far = sum(1 for i in range(0, len(a), 3) if abs(a[i] - b[i]) + abs(a[i + 1] - b[i + 1]) > 80)
    assert far < 240 * 240 * 0.05


def test_a_replay_over_the_byte_limit_drops_frames_or_shrinks() -> None:
    frames = random_game("abalone", seed=5, plies=60)
    full = replay_gif(frames, size=400)
    limit = len(full) // 3
    small = replay_gif(frames, size=400, max_bytes=limit)
    assert len(small) <= limit
    img = Image.open(io.BytesIO(small))
    assert frames_in(small) < len(frames) or img.size[0] < 400


def test_a_long_game_is_sampled_to_the_frame_limit() -> None:
    frames = random_game("atmalof", seed=5, plies=40)
    assert frames_in(replay_gif(frames, size=200, max_frames=10)) == 10


def test_webp_replays_are_offered() -> None:
    frames = random_game("morris", seed=3, plies=4)
    data = replay_gif(frames, size=200, format="webp")
    assert Image.open(io.BytesIO(data)).format == "WEBP"


@pytest.mark.parametrize(
    "kwargs,match",
    [({"size": 100}, "size"), ({"format": "bmp"}, "format"), ({"max_bytes": 5}, "max_bytes")],
)
def test_bad_replay_options_are_render_errors(kwargs, match) -> None:
    frames = random_game("morris", seed=3, plies=2)
    with pytest.raises(RenderError, match=match):
        replay_gif(frames, **kwargs)


def test_an_empty_replay_is_a_render_error() -> None:
    with pytest.raises(RenderError, match="at least one"):
        replay_gif([])


def test_a_record_with_an_illegal_action_is_a_render_error() -> None:
    rec = Recorder("morris", game_id="g2", seed="cd" * 16)
    rec.play("place d7")
    record = rec.finish()
    broken = replace(record, actions=(replace(record.actions[0], notation="place z9"),))
    with pytest.raises(RenderError, match='cannot replay this record: action 1: "place z9"'):
        replay_gif(broken)


def _last_frame(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.seek(getattr(img, "n_frames", 1) - 1)
    return img.convert("RGB")


def _far(a: Image.Image, b: Image.Image) -> int:
    """Pixels that differ clearly (a GIF's palette shifts colours a little everywhere)."""
    x, y = a.tobytes(), b.tobytes()
    return sum(1 for i in range(0, len(x), 3) if abs(x[i] - y[i]) + abs(x[i + 1] - y[i + 1]) > 80)


def test_a_voided_games_last_frame_says_void_and_the_others_do_not() -> None:
    """Its outcome says "aborted"; the referee knows the void from the log and says so, on the
    last frame only (every earlier frame is the game still running)."""
    frames = random_game("morris", seed=3, plies=6)
    aborted = engine.Outcome(engine.Termination.ABORTED, None, "voided by moderator m: x")
    state = frames[-1][0]
    void_board = render.board_image("morris", state, frames[-1][1], size=300, outcome=aborted,
                                    voided=True)  # fmt: skip
    abort_board = render.board_image("morris", state, frames[-1][1], size=300, outcome=aborted)
    voided = replay_gif(frames, size=300, outcome=aborted, voided=True)
    plain = replay_gif(frames, size=300, outcome=aborted)
    assert _far(_last_frame(voided), void_board) < _far(_last_frame(voided), abort_board)
    assert _far(_last_frame(plain), abort_board) < _far(_last_frame(plain), void_board)
    first_of = [Image.open(io.BytesIO(d)).convert("RGB") for d in (voided, plain)]
    assert _far(*first_of) == 0  # the same picture (its palette is made from the last frame too)
