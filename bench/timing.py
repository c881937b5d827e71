"""Small timing helpers shared by the benchmarks: medians and percentiles, never means alone."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def per_call(fn: Callable[[], object], *, repeat: int = 7, number: int = 0) -> float:
    """Median seconds per call of ``fn`` over ``repeat`` batches (auto-sized to ~0.05 s each)."""
    if number <= 0:
        number, elapsed = 1, 0.0
        while True:
            start = time.perf_counter()
            for _ in range(number):
                fn()
            elapsed = time.perf_counter() - start
            if elapsed > 0.05:
                break
            number *= 2
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) of ``values`` by nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[rank]


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} us"


def fmt_time(seconds: float) -> str:
    """Seconds in the unit that reads best: "65.0 us", "2.16 ms", "628 ms", "3.05 s"."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 0.1:
        return f"{seconds * 1e3:.2f} ms"
    if seconds < 10:
        return f"{seconds * 1e3:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"
    return f"{seconds:.1f} s"
