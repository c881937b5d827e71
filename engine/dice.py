"""Provably fair dice: a secret seed, its public SHA-256 commitment, and rolls anyone can recompute.

Roll ``n`` of a game is drawn from HMAC-SHA256(key=seed, msg="<game id>|<n>|<announcement>").
The digest's bytes are read in order and each byte ``b`` is accepted only when
``b < 256 - 256 % faces`` (rejection sampling), so every face is exactly equally likely; if a
digest runs out of acceptable bytes the next block is HMAC(seed, msg + "|<block>").
The seed stays secret until the game ends; revealing it lets anyone check every roll.

The commitment proves the seed was fixed before the game, not that nobody picked it: an operator
could try seeds until one favours a friend. So games since record version 3 mix into every roll
(the coin toss too) a public value fixed only after the commitment was published and not chosen
by the operator: ``mix(accept, words)``, over the id Discord gave the accepting interaction and
each player's own words. The message is then "<mix>|<game id>|<n>|<announcement>".
docs/record-format.md spells the scheme out with test vectors.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Iterator, Mapping

from engine.core import EngineError

SEED_BYTES = 32
MIN_SEED_BYTES = 16
MAX_FACES = 256
MAX_WORDS = 200  # characters of a player's dice words


def new_seed() -> str:
    """A fresh secret seed as 64 hex digits (from the OS's cryptographic source)."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The public SHA-256 commitment to a seed, shown at the start of a game."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def check_commitment(seed: str, committed: str) -> bool:
    """True when the revealed seed is the one committed to at the start."""
    return hmac.compare_digest(commitment(seed), committed.lower())


def mix(accept: str, words: Mapping[str, str]) -> str:
    """The public value mixed into every roll: SHA-256 (hex) of the compact JSON, keys sorted,
    of ``{"accept": <accept id>, "words": {<player id>: <their words>, ...}}``.

    ``accept`` is the id of the accepting request (Discord's interaction id), ``words`` what
    each player added ("" for none). Both are fixed after the commitment was published.
    """
    if not isinstance(accept, str) or not accept:
        raise EngineError("the accept id is text")
    if not isinstance(words, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in words.items()
    ):
        raise EngineError("dice words are text for each player id")
    body = json.dumps(
        {"accept": accept, "words": dict(words)},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(body.encode()).hexdigest()


def roll_message(game_id: str, number: int, announcement: str, mixed: str | None = None) -> bytes:
    """The exact bytes that are HMAC'd for a roll; documented so others can recompute it."""
    prefix = "" if mixed is None else f"{mixed}|"
    return f"{prefix}{game_id}|{number}|{announcement}".encode()


def roll(
    seed: str,
    game_id: str,
    number: int,
    announcement: str,
    faces: int,
    mixed: str | None = None,
) -> int:
    """Roll ``number`` of game ``game_id`` after ``announcement``: a face 1..faces.

    Actions' rolls count from 1; the referee's coin toss before the first move is number 0.
    ``mixed`` is ``mix(...)`` of a version 3 game (None: the older scheme without it).
    """
    _check_faces(faces)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise EngineError(f"a roll number is a whole number from 0, not {number!r}")
    return pick_face(digest_bytes(seed, game_id, number, announcement, mixed), faces)


def digest_bytes(
    seed: str, game_id: str, number: int, announcement: str, mixed: str | None = None
) -> Iterator[int]:
    """The endless byte stream a roll reads: block 0 is HMAC(seed, msg), block k HMAC(msg|k).

    Rolls rarely read past the first byte; the later blocks only make the scheme total.
    """
    key = _seed_bytes(seed)
    message = roll_message(game_id, number, announcement, mixed)
    block = 0
    while True:
        msg = message if block == 0 else message + f"|{block}".encode()
        yield from hmac.new(key, msg, hashlib.sha256).digest()
        block += 1


def pick_face(stream: Iterable[int], faces: int) -> int:
    """The first byte below ``256 - 256 % faces``, reduced to 1..faces (unbiased)."""
    _check_faces(faces)
    limit = 256 - 256 % faces
    for byte in stream:
        if byte < limit:
            return byte % faces + 1
    raise EngineError("the byte stream ran out before an acceptable byte")


def _check_faces(faces: int) -> None:
    if isinstance(faces, bool) or not isinstance(faces, int) or not 2 <= faces <= MAX_FACES:
        raise EngineError(f"a die needs 2 to {MAX_FACES} faces, not {faces!r}")


def _seed_bytes(seed: str) -> bytes:
    try:
        raw = bytes.fromhex(seed)
    except (ValueError, TypeError):
        raise EngineError("a dice seed is written as hex digits", "seed_not_hex") from None
    if len(raw) < MIN_SEED_BYTES:
        english = f"a dice seed needs at least {MIN_SEED_BYTES} bytes"
        raise EngineError(english, "seed_too_short", least=MIN_SEED_BYTES)
    return raw
