"""`make mutate` stays runnable and apart from `make test`: its modules and test files exist
(a rename would otherwise only show up as a mutmut error minutes in), and `make test` never
runs it."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]


def test_every_module_and_test_file_named_for_mutation_exists() -> None:
    for path in CONFIG["only_mutate"] + CONFIG["pytest_add_cli_args_test_selection"]:
        assert (ROOT / path).is_file(), path
    for path in CONFIG["only_mutate"]:
        assert any(path.startswith(source) for source in CONFIG["source_paths"]), path


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_test_does_not_mutate_and_make_mutate_does() -> None:
    def planned(target: str) -> str:
        return subprocess.run(
            ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
        ).stdout

    assert "mutmut" not in planned("test")
    assert "mutmut run" in planned("mutate")
