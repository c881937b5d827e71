"""The console's input, read so that the table can sweep while a player thinks.

A flag that falls, a roll left hanging or a challenge that expires is announced by the
sweeper. At the console it used to run only after a typed line, so a player waiting on their
clock learnt of the fall from their next command. ``FdLines`` waits for a line with a timeout
(``select`` on the file descriptor, on the main thread: Ctrl-C still leaves at once, and no
thread is left blocked in ``readline``), and the table sweeps on each timeout.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
from typing import Protocol, TextIO


class Lines(Protocol):
    def get(self, timeout: float) -> str | None:
        """The next line with its newline, "" at the end of input, None if none came within
        ``timeout`` seconds."""
        ...


class FdLines:
    """Lines of a POSIX file descriptor (a terminal, a pipe, a FIFO), decoded like the stream
    it belongs to, bytes that do not decode read as replacement characters."""

    def __init__(self, fd: int, encoding: str = "utf-8") -> None:
        self.fd = fd
        self.decoder = codecs.getincrementaldecoder(encoding)("replace")
        self.text = ""
        self.ended = False

    def get(self, timeout: float) -> str | None:
        while "\n" not in self.text and not self.ended:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            self.ended = not chunk
            self.text += self.decoder.decode(chunk, final=self.ended)
        line, newline, self.text = self.text.partition("\n")
        return line + newline


class StreamLines:
    """Any other stream (Windows' console, a StringIO): a blocking ``readline``, never a
    timeout, so the table sweeps only after each line there."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def get(self, timeout: float) -> str | None:
        return self.stream.readline()


def lines_of(stream: TextIO) -> Lines:
    """``FdLines`` where ``select`` works on the stream's descriptor, else ``StreamLines``."""
    if os.name != "posix":
        return StreamLines(stream)
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.StringIO and the like
        return StreamLines(stream)
    return FdLines(fd, getattr(stream, "encoding", None) or "utf-8")


def silence(out: TextIO) -> None:
    """Point a closed pipe (``... | head`` gone) at /dev/null, so the interpreter's last flush
    stays quiet instead of printing a BrokenPipeError."""
    with contextlib.suppress(OSError, ValueError):  # a test's StringIO: nothing to flush
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
