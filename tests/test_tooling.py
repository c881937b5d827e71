"""The development tools are pinned, so `make lint` / `make test` judge a fresh clone as here."""

import re
import shutil
import subprocess
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_pinned_exactly_and_installed_at_that_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (ruff,) = [r for r in project["optional-dependencies"]["test"] if r.startswith("ruff")]
    pinned = re.fullmatch(r"ruff==(\d+\.\d+\.\d+)", ruff)
    assert pinned, f"ruff must be pinned to one version, not {ruff!r}"
    assert version("ruff") == pinned[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@pytest.mark.parametrize("target", ["test", "lint"])
def test_make_checks_the_format_of_the_whole_tree(target: str) -> None:
    planned = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", target],  # -W: plan as if the install were due
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.splitlines()
    assert ".venv/bin/ruff format --check ." in planned
    assert ".venv/bin/ruff check ." in planned


def test_the_lock_pins_every_dependency_with_hashes() -> None:
    lock = (ROOT / "requirements.lock").read_text()
    pins = re.findall(r"^([a-z0-9_.-]+)==([^ ;\\]+)", lock, flags=re.MULTILINE)
    names = {name for name, _ in pins}
    assert {"discord-py", "pillow", "aiosqlite", "glicko2", "aiohttp", "setuptools"} <= names
    blocks = re.split(r"\n(?=[a-z])", lock.split("\n", 2)[2])
    assert all("--hash=sha256:" in block for block in blocks if block.strip()), "a pin without hash"
