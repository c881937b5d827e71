"""The practice workers end with the bot's process, also when it is killed (SIGKILL): a worker
holds both ends of its task pipe, so it used to wait for tasks for ever, with its forkserver."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import os, sys, time
from bot.referee.thinker import Thinker
if __name__ == "__main__":
    pool = Thinker()._executor()
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for its reaper: it has ended
        return stat.read().split(") ")[1][0] != "Z"


def test_a_killed_bot_leaves_no_worker_behind(tmp_path: Path) -> None:
    script = tmp_path / "bot_process.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env)
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        assert worker != bot.pid and alive(worker)
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        for _ in range(200):  # it goes as soon as it sees its parent gone
            if not alive(worker):
                break
            time.sleep(0.05)
        assert not alive(worker), "the worker outlived the bot's process"
    finally:
        bot.kill()
