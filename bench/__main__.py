"""Run every benchmark module in bench/ (or the ones named: `python -m bench render referee`)."""

from __future__ import annotations

import importlib
import os
import pkgutil
import platform
import sys
import time
from pathlib import Path

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
    for name in names:
        print(f"\n## {name}")
        started = time.perf_counter()
        try:
            importlib.import_module(f"bench.{name}").main()
        except Exception as exc:  # a broken benchmark must not hide the others
            failed += 1
            print(f"FAILED: {type(exc).__name__}: {exc}")
        print(f"({time.perf_counter() - started:.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
