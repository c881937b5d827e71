"""Kill a playing process with SIGKILL at random moments: every acknowledged move is in the
file, and the game goes on from where it stopped."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bot.store import Store
from tests.bot.crash_player import TABLE

ROOT = Path(__file__).resolve().parents[2]


def run_until_killed(db: str, seed: int, acks_wanted: int) -> list[tuple[int, int, str]]:
    """Start the player, let it acknowledge about ``acks_wanted`` moves, SIGKILL it."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.crash_player", db, str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acks: list[tuple[int, int, str]] = []
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("ACK "):
                _, game, seq, digest = line.split()
                acks.append((int(game), int(seq), digest))
                if len(acks) >= acks_wanted:
                    break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    assert acks, child.stderr.read() if child.stderr else "no output"
    return acks


async def test_acknowledged_moves_survive_sigkill(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.db")
    rng = random.Random(4)
    acked: list[tuple[int, int, str]] = []
    for round_ in range(4):
        acked += run_until_killed(db, round_, rng.randint(3, 30))
        store = await Store.open(db)
        try:
            for game_id, seq, digest in acked:
                stored = {(a.seq, a.hash) for a in await store.all_actions(game_id)}
                assert (seq, digest) in stored
            g = await store.latest_game(TABLE.channel_id)
            assert g is not None and len(await store.actions(g.id)) == g.seq
        finally:
            await store.close()
    assert len({seq for _, seq, _ in acked}) > 3  # the game went on across the kills
