"""The ``referee-verify`` command: installed as a console script, quiet when its reader leaves
(issue 12.26)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from engine.record import Recorder

ROOT = Path(__file__).resolve().parents[2]


def _record_file(tmp_path: Path) -> Path:
    rec = Recorder("atmalof", game_id="cli", seed=bytes(range(32)).hex())
    rec.play("drop row 4")
    path = tmp_path / "game.json"
    path.write_text(rec.finish().to_json(), encoding="utf-8")
    return path


def test_pyproject_installs_the_console_script() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["referee-verify"] == "engine.verify:run"


def test_the_console_script_works_outside_the_repository(tmp_path: Path) -> None:
    path = _record_file(tmp_path)
    script = Path(sys.executable).parent / "referee-verify"
    done = subprocess.run(
        [str(script), path.name], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game.json: OK: atmalof standard, 1 action, ")


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path: Path) -> None:
    """``referee-verify *.json | head -1``: the rest of the output meets a closed pipe."""
    path = _record_file(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine.verify", *[str(path)] * 400],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    errors = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert b": OK: " in first
    assert errors == ""
