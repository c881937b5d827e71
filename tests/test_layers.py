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


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, by its full dotted name (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_discord_is_imported_only_by_the_discord_front_end() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path.is_relative_to(ROOT / "bot" / "discord_ui"):
            continue
        roots = {name.split(".")[0] for name in imported_modules(path)}
        assert "discord" not in roots, f"{path.relative_to(ROOT)} imports discord"


@pytest.mark.parametrize("lower", ["referee", "store", "ladder", "errors.py", "texts.py"])
def test_the_referee_and_what_it_stands_on_never_import_a_front_end(lower: str) -> None:
    target = ROOT / "bot" / lower
    files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
    assert files
    for path in files:
        fronts = {
            m for m in imported_modules(path) if m.startswith(("bot.discord_ui", "bot.console"))
        }
        assert not fronts, f"{path.relative_to(ROOT)} imports the front end {sorted(fronts)}"


LONG = 400  # lines: a module past it says why in its docstring ("Why it is long: ...")


def test_every_long_module_of_the_bot_says_why_it_is_long() -> None:
    """Issue 14's bar: small modules named for what they hold; where one runs past about 400
    lines, its docstring gives the reason, so the next engineer knows it was chosen."""
    unexplained = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") <= LONG:
            continue
        docstring = ast.get_docstring(ast.parse(text)) or ""
        if "Why it is long:" not in docstring:
            unexplained.append(str(path.relative_to(ROOT)))
    assert unexplained == []
