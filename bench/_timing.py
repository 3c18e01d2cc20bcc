"""Small timing helpers shared by the pytest benchmarks and report.py."""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def record_rate(benchmark, n_hands: int) -> None:
    """Store ns/hand and hands/s (from the median round) in a pytest-benchmark's extra_info."""
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # --benchmark-disable: the function ran once, untimed
        return
    median = stats.stats.median
    benchmark.extra_info["n_hands"] = n_hands
    benchmark.extra_info["ns_per_hand"] = round(median / n_hands * 1e9, 3)
    benchmark.extra_info["hands_per_s"] = round(n_hands / median) if median > 0 else None


def repeat_timing(fn: Callable[[], object], repeats: int, *, cpu: bool, warmup: int = 1) -> list[float]:
    """Seconds per call of ``fn`` for ``repeats`` calls after ``warmup`` untimed ones.

    ``cpu=True`` measures this thread's CPU time (``time.thread_time``): right for code that
    runs entirely in the calling thread, and much less sensitive to other jobs on a busy
    machine than wall time. ``cpu=False`` measures wall time (``time.perf_counter``), needed
    when the work is spread over several threads.
    """
    clock = time.thread_time if cpu else time.perf_counter
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        out.append(clock() - t0)
    return out


def median(values: list[float]) -> float:
    return statistics.median(values)
