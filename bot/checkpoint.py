"""A game's position as text the store keeps beside the game, so a restart restores it instead
of replaying the whole log (issue 17: 21 to 57 ms at ply 1,000 before the first command).

An engine's ``to_text`` leaves out what only the draw rules read: Morris's and Abalone's
repetition history. The checkpoint carries it too, and is only kept when reading it back gives
the very same state (history included): a state it cannot carry is simply not checkpointed, and
the game replays as before. The referee trusts a checkpoint only when the move it was taken
after is still the live row of the log with the same hash (``Context.state``); verifying a
record never uses it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import engine

EVERY = 16  # plies between checkpoints: a restart replays at most EVERY - 1 moves


def encode(game: str, state: Any) -> str | None:
    """The checkpoint text of ``state``, or None when reading it back would not give it."""
    rules = engine.get_game(game)
    history = getattr(state, "history", ())
    raw = any(isinstance(h, bytes) for h in history)
    kept: list[Any] = [h.hex() if isinstance(h, bytes) else h for h in history]
    data = {"position": rules.to_text(state), "history": kept, "bytes": raw}
    text = json.dumps(data, separators=(",", ":"))
    try:
        back = decode(game, text)
    except Exception:
        return None
    same = back == state and tuple(getattr(back, "history", ())) == tuple(history)
    return text if same else None


def decode(game: str, text: str) -> Any:
    """The state a checkpoint holds; raises on anything malformed."""
    data = json.loads(text)
    state = engine.get_game(game).from_text(data["position"])
    history = data["history"]
    if not hasattr(state, "history"):
        if history:
            raise ValueError("a history for a game that keeps none")
        return state
    if data.get("bytes"):  # Abalone's and Atmalof's keys are bytes, Morris's are numbers
        return dataclasses.replace(state, history=tuple(bytes.fromhex(h) for h in history))
    return dataclasses.replace(state, history=tuple(int(h) for h in history))


def due(seq: int) -> bool:
    """Whether the move that brings the log to ``seq`` carries a checkpoint."""
    return seq % EVERY == 0
