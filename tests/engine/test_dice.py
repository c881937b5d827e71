"""The dice: unbiased faces from HMAC-SHA256, rejection sampling, commitments, test vectors."""

from __future__ import annotations

import hashlib
import hmac
import math
import re
from collections import Counter

import pytest

from engine import EngineError, dice

SEED = bytes(range(32)).hex()  # the documented test-vector seed
P_FLOOR = 1e-6  # a fair die fails this with probability 1e-6; fixed seeds make it deterministic


def chi2_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X ~ chi-square(dof): the regularised upper incomplete gamma."""
    s, x = dof / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = s * math.log(x) - x - math.lgamma(s)
    if x < s + 1:  # series for the lower part
        term = total = 1 / s
        n = 0
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / (s + n)
            total += term
        return 1 - math.exp(log_front) * total
    tiny = 1e-300  # Lentz's continued fraction for the upper part
    b = x + 1 - s
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - s)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_p(counts: Counter[int], faces: int) -> float:
    total = sum(counts.values())
    expected = total / faces
    statistic = sum((counts.get(f, 0) - expected) ** 2 / expected for f in range(1, faces + 1))
    return chi2_sf(statistic, faces - 1)


def fixed_seed(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [
        (3.841458820694124, 1, 0.05),
        (11.070497693516351, 5, 0.05),
        (14.067140449340169, 7, 0.05),
        (1.0, 2, math.exp(-0.5)),  # chi-square(2) is exponential: sf(x) = exp(-x/2)
        (40.0, 2, math.exp(-20)),
        (2.0, 5, 0.8491450360846096),
    ],
)
def test_the_chi_square_helper_matches_known_values(statistic: float, dof: int, p: float) -> None:
    assert chi2_sf(statistic, dof) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize(("faces", "rolls"), [(2, 20_000), (6, 30_000), (8, 32_000)])
def test_every_face_is_equally_likely(faces: int, rolls: int) -> None:
    seed = fixed_seed(f"uniformity {faces}")
    counts = Counter(
        dice.roll(seed, "g-uniform", n, f"drop row {n % 7 + 1}", faces) for n in range(1, rolls + 1)
    )
    assert set(counts) == set(range(1, faces + 1))
    assert chi2_p(counts, faces) > P_FLOOR


def test_the_uniformity_check_catches_modulo_bias() -> None:
    """Without rejection a 192-sided die would show faces 1..64 twice as often: the test sees it."""
    faces, seed = 192, fixed_seed("bias")
    key = bytes.fromhex(seed)
    first_bytes = [
        hmac.new(key, dice.roll_message("g", n, "x"), hashlib.sha256).digest()[0]
        for n in range(1, 20_001)
    ]
    naive = Counter(b % faces + 1 for b in first_bytes)
    fair = Counter(dice.roll(seed, "g", n, "x", faces) for n in range(1, 20_001))
    assert chi2_p(naive, faces) < P_FLOOR
    assert chi2_p(fair, faces) > P_FLOOR


def test_a_byte_at_or_above_the_limit_is_skipped() -> None:
    """For six faces bytes 252..255 are rejected and the next byte decides."""
    key = bytes.fromhex(SEED)
    for number in range(1, 5000):
        digest = hmac.new(key, dice.roll_message("demo", number, "drop row 4"), hashlib.sha256)
        raw = digest.digest()
        if raw[0] >= 252:
            break
    else:
        pytest.fail("no digest starting with a rejected byte in 5000 tries")
    accepted = next(b for b in raw if b < 252)
    assert dice.roll(SEED, "demo", number, "drop row 4", 6) == accepted % 6 + 1


def test_only_bytes_below_the_limit_are_used() -> None:
    assert dice.pick_face([252, 253, 254, 255, 9], 6) == 9 % 6 + 1
    assert dice.pick_face([251], 6) == 251 % 6 + 1  # 251 < 252 is kept
    assert dice.pick_face([128, 3], 128) == 128 % 128 + 1  # 256 % 128 == 0: nothing rejected
    assert dice.pick_face([255, 254], 255) == 254 % 255 + 1
    with pytest.raises(EngineError):
        dice.pick_face([255] * 40, 6)


def test_the_stream_extends_with_numbered_blocks() -> None:
    key = bytes.fromhex(SEED)
    message = dice.roll_message("demo", 3, "drop col 2")
    stream = dice.digest_bytes(SEED, "demo", 3, "drop col 2")
    first_96 = bytes(next(stream) for _ in range(96))
    block = [hmac.new(key, message + s, hashlib.sha256).digest() for s in (b"", b"|1", b"|2")]
    assert first_96 == b"".join(block)
    # a stream whose first block is all rejects rolls from the second block
    assert dice.pick_face(list(b"\xff" * 32) + list(block[1]), 6) == next(
        b % 6 + 1 for b in block[1] if b < 252
    )


def test_roll_reads_the_documented_stream() -> None:
    for number in range(1, 200):
        for faces in (2, 6, 8, 129, 256):
            stream = dice.digest_bytes(SEED, "demo", number, "drop row 4")
            assert dice.roll(SEED, "demo", number, "drop row 4", faces) == dice.pick_face(
                stream, faces
            )


@pytest.mark.parametrize(
    ("number", "announcement", "faces", "expected"),
    [
        (1, "drop row 4", 6, 1),
        (2, "drop col 7", 6, 6),
        (3, "drop row 2", 8, 5),
        (1, "drop row 4", 2, 1),
        (0, "coin toss", 2, 1),
    ],
)
def test_the_documented_vectors(number: int, announcement: str, faces: int, expected: int) -> None:
    assert dice.roll(SEED, "demo", number, announcement, faces) == expected


def test_the_documented_message_and_commitment() -> None:
    assert dice.roll_message("demo", 1, "drop row 4") == b"demo|1|drop row 4"
    assert dice.commitment(SEED) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )


def sequence(seed: str = SEED, game_id: str = "demo", start: int = 1, text: str = "drop row 4"):
    return [dice.roll(seed, game_id, n, text, 6) for n in range(start, start + 40)]


@pytest.mark.parametrize(
    "changed",
    [
        {"seed": fixed_seed("another seed")},
        {"game_id": "demo2"},
        {"start": 2},
        {"text": "drop row 5"},
    ],
    ids=["seed", "game id", "roll number", "announcement"],
)
def test_every_input_of_a_roll_changes_the_sequence(changed: dict) -> None:
    assert sequence(**changed) != sequence()


def test_the_same_inputs_give_the_same_rolls() -> None:
    assert sequence() == sequence()


def test_a_commitment_binds_the_seed() -> None:
    other = fixed_seed("other")
    assert dice.check_commitment(SEED, dice.commitment(SEED))
    assert dice.check_commitment(SEED, dice.commitment(SEED).upper())
    assert not dice.check_commitment(other, dice.commitment(SEED))
    assert dice.commitment(SEED) == hashlib.sha256(bytes(range(32))).hexdigest()


def test_new_seeds_are_fresh_32_byte_hex() -> None:
    seeds = {dice.new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: dice.roll(SEED, "g", 1, "x", 1), "2 to 256 faces"),
        (lambda: dice.roll(SEED, "g", 1, "x", 257), "2 to 256 faces"),
        (lambda: dice.roll(SEED, "g", 1, "x", True), "2 to 256 faces"),
        (lambda: dice.roll(SEED, "g", -1, "x", 6), "a whole number from 0"),
        (lambda: dice.roll(SEED, "g", "1", "x", 6), "a whole number from 0"),
        (lambda: dice.roll("zz" * 32, "g", 1, "x", 6), "hex digits"),
        (lambda: dice.roll("ab" * 15, "g", 1, "x", 6), "at least 16 bytes"),
        (lambda: dice.commitment(None), "hex digits"),
    ],
)
def test_bad_dice_inputs_are_refused_clearly(call, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        call()
