"""The examples in the modules' docstrings run (``doctest``): they are the first code a reader
of the engine, the renderer and the catalogs copies, and one of them (engine.ai's) once called
a parameter that did not exist while nothing ran it."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["engine", "engine.ai", "render", "translations"])
def test_the_modules_examples_run(name: str) -> None:
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert results.attempted > 0  # the module still shows an example
    assert results.failed == 0
