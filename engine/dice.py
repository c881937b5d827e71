"""Provably fair dice: a secret seed, its public SHA-256 commitment, and rolls anyone can recompute.

Roll ``n`` of a game is drawn from HMAC-SHA256(key=seed, msg="<game id>|<n>|<announcement>").
The digest's bytes are read in order and each byte ``b`` is accepted only when
``b < 256 - 256 % faces`` (rejection sampling), so every face is exactly equally likely; if a
digest runs out of acceptable bytes the next block is HMAC(seed, msg + "|<block>").
The seed stays secret until the game ends; revealing it lets anyone check every roll.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from engine.core import EngineError

SEED_BYTES = 32
MAX_FACES = 256


def new_seed() -> str:
    """A fresh secret seed as 64 hex digits (from the OS's cryptographic source)."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The public SHA-256 commitment to a seed, shown at the start of a game."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def check_commitment(seed: str, committed: str) -> bool:
    """True when the revealed seed is the one committed to at the start."""
    return hmac.compare_digest(commitment(seed), committed.lower())


def roll_message(game_id: str, number: int, announcement: str) -> bytes:
    """The exact bytes that are HMAC'd for a roll; documented so others can recompute it."""
    return f"{game_id}|{number}|{announcement}".encode()


def roll(seed: str, game_id: str, number: int, announcement: str, faces: int) -> int:
    """Roll ``number`` (1-based) of game ``game_id`` after ``announcement``: a face 1..faces."""
    if not 2 <= faces <= MAX_FACES:
        raise EngineError(f"a die needs 2 to {MAX_FACES} faces, not {faces}")
    key = _seed_bytes(seed)
    message = roll_message(game_id, number, announcement)
    limit = 256 - 256 % faces
    block = 0
    while True:
        msg = message if block == 0 else message + f"|{block}".encode()
        for byte in hmac.new(key, msg, hashlib.sha256).digest():
            if byte < limit:
                return byte % faces + 1
        block += 1


def _seed_bytes(seed: str) -> bytes:
    try:
        raw = bytes.fromhex(seed)
    except (ValueError, TypeError):
        raise EngineError("a dice seed is written as hex digits") from None
    if len(raw) < 16:
        raise EngineError("a dice seed needs at least 16 bytes")
    return raw
