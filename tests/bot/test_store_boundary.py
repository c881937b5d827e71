"""Nothing outside bot/store/ touches a store's private members or writes SQL (issue 14): the
store's public units of work are the only way in, so a PostgreSQL store can stand behind them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STORE = ROOT / "bot" / "store"
PRIVATE = {"_one", "_all", "_read", "_write", "_lock", "_db", "_file", "_lost", "_snapshot"}
SQL = re.compile(
    r"^\s*(SELECT\s.+\sFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM"
    r"|CREATE\s+(TABLE|INDEX|TRIGGER)|DROP\s+TRIGGER|PRAGMA\s|BEGIN\b|SAVEPOINT\s)",
    re.DOTALL,  # the project writes SQL keywords in capitals; prose does not
)


def problems(text: str, name: str) -> list[str]:
    """Private store members used, and string literals that read as SQL, in one module."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Attribute) and node.attr in PRIVATE:
            found.append(f"{name}:{node.lineno} uses .{node.attr}")
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.match(node.value)
        ):
            found.append(f"{name}:{node.lineno} has SQL {node.value[:40]!r}")
    return found


def test_nothing_outside_the_store_touches_its_privates_or_writes_sql() -> None:
    outside = [p for p in sorted((ROOT / "bot").rglob("*.py")) if STORE not in p.parents]
    assert len(outside) > 20, "bot/ has too few modules outside the store: a wrong path?"
    found = [
        line
        for path in outside
        for line in problems(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_sees_a_private_member_and_sql() -> None:
    text = 'rows = await store._all("SELECT id FROM games WHERE guild_id = ?", (1,))\n'
    found = problems(text, "sample.py")
    assert any("uses ._all" in f for f in found) and any("has SQL" in f for f in found)
    assert problems('text = "Select a game from the list"\n', "sample.py") == []
