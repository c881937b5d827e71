"""The boards an Abalone game has passed through since its last push-off, shared along the game.

Copying the whole history into every new state made each move slower than the one before (a
game with the move limit off slowed from 3.5 to 22.7 us a move by ply 3,000). Here the states
of one line of play share a single append-only list of boards and an index of where each board
stood: a move appends one board (O(1)), and counting earlier occurrences of a board with the
same side to move is a binary search (O(log n)).

A ``History`` is immutable to its holder: it is the first ``n`` boards of its line. Appending
to a history that is not the line's tip (a state played from twice, as a search does) copies
the prefix into a new line first, so no state ever sees a board added after it.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from typing import overload


class _Line:
    """The boards of one line of play, and for each (board, parity of its index) the indexes
    where it stood, ascending."""

    __slots__ = ("boards", "lock", "seen")

    def __init__(self, boards: Iterable[bytes] = ()) -> None:
        self.boards: list[bytes] = []
        self.seen: dict[tuple[bytes, int], list[int]] = {}
        self.lock = threading.Lock()
        for board in boards:
            self.append(board)

    def append(self, board: bytes) -> None:
        index = len(self.boards)
        self.boards.append(board)
        self.seen.setdefault((board, index & 1), []).append(index)


class History:
    """The first ``len(self)`` boards of a line, oldest first; compares equal to the tuple of
    those boards (so ``state.history == ()`` reads as before)."""

    __slots__ = ("_line", "_n")

    def __init__(self, boards: Iterable[bytes] = ()) -> None:
        self._line = _Line(boards)
        self._n = len(self._line.boards)

    @classmethod
    def _view(cls, line: _Line, n: int) -> History:
        view = cls.__new__(cls)
        view._line, view._n = line, n
        return view

    def plus(self, board: bytes) -> History:
        """This history with ``board`` after it; shares the line when this is its tip."""
        line = self._line
        with line.lock:
            if len(line.boards) == self._n:
                line.append(board)
                return History._view(line, self._n + 1)
        fork = _Line(line.boards[: self._n])
        fork.append(board)
        return History._view(fork, self._n + 1)

    def same_side_count(self, board: bytes) -> int:
        """How often ``board`` stood in this history with the same side to move as a position
        right after it: the entries at -2, -4, ... (``history[-2::-2].count(board)``)."""
        indexes = self._line.seen.get((board, self._n & 1))
        return 0 if indexes is None else bisect_left(indexes, self._n)

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._line.boards[: self._n])

    @overload
    def __getitem__(self, index: int) -> bytes: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[bytes, ...]: ...
    def __getitem__(self, index: int | slice) -> bytes | tuple[bytes, ...]:
        return tuple(self)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __reduce__(self) -> tuple[type[History], tuple[tuple[bytes, ...]]]:
        """A copy holds just its boards (a worker process gets a state by pickle; a lock
        cannot travel)."""
        return (History, (tuple(self),))

    __hash__ = None  # type: ignore[assignment]  # a state's history is left out of its hash

    def __repr__(self) -> str:
        return f"History({len(self)} boards)"
