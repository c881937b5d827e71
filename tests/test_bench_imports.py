"""Every benchmark module still imports: `make bench` is not part of `make test`, so a rename in
the code it measures (the palette's, once) would otherwise be found only when someone runs it."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import bench

MODULES = sorted(m.name for m in pkgutil.iter_modules([str(Path(bench.__file__).parent)]))


def test_there_are_benchmarks() -> None:
    assert {"discord", "render", "growth"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_a_benchmark_module_imports(name: str) -> None:
    assert importlib.import_module(f"bench.{name}") is not None
