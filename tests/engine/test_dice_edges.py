"""The dice's input checks at their exact edges (what mutation testing left unchecked): the
shortest seed accepted, a face count that is not an int, a stream with no usable byte."""

from __future__ import annotations

import pytest

from engine import EngineError, dice


def test_the_shortest_seed_is_accepted_and_one_byte_less_is_not() -> None:
    shortest = "ab" * dice.MIN_SEED_BYTES
    assert dice.MIN_SEED_BYTES == 16
    assert 1 <= dice.roll(shortest, "g", 1, "drop row 1", 6) <= 6
    with pytest.raises(EngineError, match="a dice seed needs at least 16 bytes"):
        dice.roll("ab" * (dice.MIN_SEED_BYTES - 1), "g", 1, "drop row 1", 6)


def test_a_new_seed_is_32_random_bytes() -> None:
    seeds = {dice.new_seed() for _ in range(4)}
    assert len(seeds) == 4
    assert all(len(s) == 2 * dice.SEED_BYTES == 64 and bytes.fromhex(s) for s in seeds)


@pytest.mark.parametrize("faces", ["6", 6.0, None, True, 1, 257])
def test_faces_must_be_a_whole_number_from_2_to_256(faces: object) -> None:
    with pytest.raises(EngineError, match=f"a die needs 2 to 256 faces, not {faces!r}"):
        dice.pick_face(iter([0]), faces)  # type: ignore[arg-type]


def test_a_stream_with_no_usable_byte_is_an_engine_error() -> None:
    with pytest.raises(EngineError) as raised:
        dice.pick_face(iter([252, 253, 254, 255]), 6)
    assert str(raised.value) == "the byte stream ran out before an acceptable byte"
