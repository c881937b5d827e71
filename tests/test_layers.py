"""The layers stay apart: engine/ is pure, render/ never reaches into bot/."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "engine": {"discord", "PIL", "asyncio", "sqlite3", "aiosqlite", "render", "bot", "socket"},
    "render": {"discord", "asyncio", "sqlite3", "aiosqlite", "bot"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            roots.add("__import__")
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_what_its_layer_allows(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    for path in files:
        bad = imported_roots(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_the_check_itself_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import asyncio\nfrom PIL import Image\nimport discord.ext\n")
    assert imported_roots(sample) >= {"asyncio", "PIL", "discord"}
