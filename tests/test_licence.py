"""The project says under which licence its code is, and keeps Atmalof's rules under theirs."""

import tomllib
from importlib.metadata import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_code_is_mit_and_the_atmalof_rules_stay_cc_by_sa() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Richard Sandes Forsyth" in text
    assert "CC BY-SA 3.0" in text


def test_the_installed_package_carries_the_licence_expression() -> None:
    assert metadata("board-referee")["License-Expression"] == "MIT"
