"""Kill a playing process with SIGKILL at random moments, between a drop's announcement and its
roll, and with a challenge waiting: every acknowledged move is in the file, every stored log
verifies, and play goes on from where it stopped.

``CRASH_ROUNDS`` (default 4) sets how many processes are killed; the soak or CI runs many,
e.g. ``CRASH_ROUNDS=200 pytest tests/bot/test_crash.py``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bot.referee import Referee
from bot.store import SqliteStore
from tests.bot.conftest import checks_out
from tests.bot.crash_player import MODES, TABLE

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = int(os.environ.get("CRASH_ROUNDS") or 4)


def run_until_killed(
    db: str, seed: int, acks_wanted: int, mode: str
) -> tuple[list[tuple[int, int, str]], str | None]:
    """Start the player, let it acknowledge about ``acks_wanted`` moves (or reach the moment
    ``mode`` names), SIGKILL it; the acknowledgements and the moment's line, if any."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.crash_player", db, str(seed), mode],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    acks: list[tuple[int, int, str]] = []
    moment = None
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("ACK "):
                _, game, seq, digest = line.split()
                acks.append((int(game), int(seq), digest))
                if mode == "run" and len(acks) >= acks_wanted:
                    break
            elif mode != "run" and line.startswith(mode.upper()):
                moment = line.strip()
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    assert acks or moment, child.stderr.read() if child.stderr else "no output"
    return acks, moment


async def check_file(db: str, acked: list[tuple[int, int, str]], moment: str | None) -> None:
    """Every acknowledged row is stored; the game's line is whole; the killed moment is kept."""
    store = await SqliteStore.open(db)
    try:
        for game_id, seq, digest in acked:
            stored = {(a.seq, a.hash) for a in await store.all_actions(game_id)}
            assert (seq, digest) in stored
        g = await store.latest_game(TABLE.channel_id)
        assert g is not None and len(await store.actions(g.id)) == g.seq
        if moment and moment.startswith("ANNOUNCED"):
            assert g.status == "active" and g.pending is not None, "the announcement was lost"
        if moment and moment.startswith("CHALLENGED"):
            waiting = await store.open_challenge(TABLE.channel_id)
            assert waiting is not None and str(waiting.id) == moment.split()[1]
    finally:
        await store.close()


async def test_acknowledged_moves_survive_sigkill(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.db")
    rng = random.Random(4)
    acked: list[tuple[int, int, str]] = []
    seen = set()
    for round_ in range(ROUNDS):
        mode = MODES[round_ % len(MODES)]
        acks, moment = run_until_killed(db, round_, rng.randint(3, 30), mode)
        acked += acks
        seen.add(moment.split()[0] if moment else mode)
        await check_file(db, acked, moment)
    assert len({seq for _, seq, _ in acked}) > 3  # the game went on across the kills
    if len(MODES) <= ROUNDS:
        assert seen == {"run", "ANNOUNCED", "CHALLENGED"}
    store = await SqliteStore.open(db)
    try:
        referee = Referee(store, render=False)
        for game_id in {g for g, _, _ in acked}:
            verdict = await referee.verify(TABLE, game_id=game_id)
            assert checks_out(verdict), verdict.text
    finally:
        await store.close()
