"""The hash chain over a game's action log: each row's hash covers the previous row's hash.

Editing, reordering or deleting any row changes every hash after it, so a record checked against
the hash shown on a board message proves the log was not altered. Pure and deterministic: the
store computes it when it appends, ``engine.record`` recomputes it when it verifies.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64
SHORT = 10  # characters of a hash shown on a board message


def link(prev_hash: str, row: dict[str, Any]) -> str:
    """The hash of one log row given the previous row's hash (``GENESIS`` for the first).

    ``row`` holds the row's content, e.g. seq, actor, action, roll and time; keys are sorted
    and the JSON is compact, so the same content always gives the same hash.
    """
    body = json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{prev_hash}\n{body}".encode()).hexdigest()


def short(hash_hex: str) -> str:
    """The prefix shown to players ("#3fa9c01b2e")."""
    return hash_hex[:SHORT]
