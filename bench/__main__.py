"""Run every benchmark module in bench/ (or the ones named: `python -m bench render referee`).

Each part prints its goals (issue 17) next to its measured values; the lines that name a goal
are printed again at the end, all together, under the part that measured them.
"""

from __future__ import annotations

import importlib
import io
import os
import pkgutil
import platform
import re
import sys
import time
from pathlib import Path
from typing import Any

GOAL = re.compile(r"\(goal|goal [<>]")  # a line that puts a value next to its goal
SKIP = {"__main__", "timing", "positions", "soak", "soak_processes"}  # helpers, and the soaks


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = argv or sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name not in SKIP)
    load = (
        "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
        if hasattr(os, "getloadavg")
        else ""
    )
    print(
        f"# {platform.python_implementation()} {platform.python_version()} on "
        f"{platform.machine()}, {platform.processor() or 'cpu'}, {os.cpu_count()} CPUs, {load} "
        f"(other work on a shared machine slows every figure); {time.strftime('%Y-%m-%d %H:%M')}"
    )
    failed = 0
    goals: list[str] = []
    for name in names:
        print(f"\n## {name}")
        started = time.perf_counter()
        out = _Tee(sys.stdout)
        sys.stdout = out
        try:
            importlib.import_module(f"bench.{name}").main()
        except Exception as exc:  # a broken benchmark must not hide the others
            failed += 1
            print(f"FAILED: {type(exc).__name__}: {exc}")
        finally:
            sys.stdout = out.through
        found = [line for line in out.getvalue().splitlines() if GOAL.search(line)]
        goals += [f"{name}:", *found] if found else []
        print(f"({time.perf_counter() - started:.1f} s)")
    if goals and len(names) > 1:
        print("\n## the goals of issue 17 next to their measured values (from the parts above)")
        print("\n".join(goals))
    return 1 if failed else 0


class _Tee(io.StringIO):
    """Prints what it is given and keeps a copy."""

    def __init__(self, through: io.TextIOBase | Any) -> None:
        super().__init__()
        self.through = through

    def write(self, text: str) -> int:
        self.through.write(text)
        return super().write(text)

    def flush(self) -> None:
        self.through.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
