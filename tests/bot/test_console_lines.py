"""The console reads its input so that the table sweeps while nobody types: a flag that falls
is announced then, not at the next command (bot.console.lines, bot.console.table)."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.config import Config
from bot.console import table as console_table
from bot.console.lines import FdLines, StreamLines, lines_of


def test_lines_of_a_pipe_wait_for_a_whole_line_and_keep_the_rest() -> None:
    r, w = os.pipe()
    lines = FdLines(r)
    try:
        assert lines.get(0.01) is None  # nothing typed yet: the caller may sweep
        os.write(w, b"alice: board\nbob: dr")
        assert lines.get(0.01) == "alice: board\n"
        assert lines.get(0.01) is None  # half a line is not a line
        os.write(w, "op row 4\nzoë: ".encode()[:-3])  # "ë" split across two writes
        assert lines.get(0.01) == "bob: drop row 4\n"
        os.write(w, "zoë: ".encode()[-3:] + b"\xff\n")
        assert lines.get(0.01) == "zoë: \ufffd\n"  # a byte that does not decode: replaced
        os.write(w, b"quit")
        os.close(w)
        w = -1
        assert lines.get(0.01) == "quit"  # the end of input ends the last line
        assert lines.get(0.01) == ""  # and then says so, every time
        assert lines.get(0.01) == ""
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)


def test_a_stream_without_a_descriptor_is_read_line_by_line() -> None:
    lines = lines_of(io.StringIO("a\nb"))
    assert isinstance(lines, StreamLines)
    assert [lines.get(0.01), lines.get(0.01), lines.get(0.01)] == ["a\n", "b", ""]


def test_a_flag_that_falls_while_nobody_types_is_announced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(console_table, "IDLE_SWEEP", 0.05)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    clock = ManualClock()
    r, w = os.pipe()
    out = io.StringIO()
    config = Config.from_env({"REFEREE_DB": str(tmp_path / "f.db")})
    with os.fdopen(r, encoding="utf-8") as stream:
        done: list[int] = []
        run = threading.Thread(
            target=lambda: done.append(console_table.run_console(config, stream, out, clock=clock))
        )
        run.start()
        try:
            os.write(w, b"alice: challenge bob morris clock 1+0 first me\nbob: accept\n")
            wait_for(out, "alice (White) to move")
            clock.advance(61)  # alice thinks past her minute and types nothing
            wait_for(out, "ran out of time")
        finally:
            os.close(w)  # the end of input: the table closes
            run.join(timeout=30)
    assert done == [0]
    text = out.getvalue()
    fell = "Game over: bob (Black) wins (alice (White) ran out of time)."
    assert text.count(fell) == 1, text  # said once, by the sweep: nobody typed after it
    assert text.rstrip().endswith("bye")


def wait_for(out: io.StringIO, words: str, seconds: float = 20.0) -> None:
    """Until the console has said ``words`` (it runs in another thread)."""
    end = time.monotonic() + seconds
    while words not in out.getvalue():
        assert time.monotonic() < end, out.getvalue()[-2000:]
        time.sleep(0.02)
