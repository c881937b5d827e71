"""Dice, chain and record speed: a roll, a row hash, and verifying a whole recorded game."""

from __future__ import annotations

import random

from bench.timing import per_call
from engine import chain, dice
from engine.record import Record, Recorder, log_row, verify

SEED = bytes(range(32)).hex()


def _recorded_game() -> Record:
    rec = Recorder("atmalof", game_id="bench", seed=SEED)
    rng = random.Random(5)
    while rec.game.result(rec.state) is None and len(rec.states) < 400:
        rec.play(rng.choice(rec.game.legal(rec.state)))
    return rec.finish()


def main() -> None:
    roll = per_call(lambda: dice.roll(SEED, "bench", 17, "drop row 4", 6))
    print(f"dice.roll (6 faces): median {roll * 1e6:.2f} us per call")
    row = log_row(17, 0, "123456789012345678", "drop row 4", 5, "2025-01-01T12:00:00.000Z")
    link = per_call(lambda: chain.link(chain.GENESIS, row))
    print(f"chain.link of one log row: median {link * 1e6:.2f} us per call")
    record = _recorded_game()
    text = record.to_json()
    check = per_call(lambda: verify(Record.from_json(text)), repeat=5)
    n = len(record.actions)
    print(
        f"parse + verify a {n}-action Atmalof record: median {check * 1e3:.2f} ms "
        f"({check / n * 1e6:.1f} us per action)"
    )
