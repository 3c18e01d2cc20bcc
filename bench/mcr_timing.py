"""MCR fan calculation on one thread: mjfast's kernel, ``mcr.fan_batch`` and ``mcr.fan`` against
PyMahjongGB 1.4.0's ``MahjongFanCalculator``, on the same hands, rows interleaved round by round.

The machine's wall clock is noisy (other virtual machines share the cores, whole phases run ~30 %
slower), so every row is timed with the CPU time of the calling thread and the rows take turns in
each round, so that a slow phase hits them all alike. The table gives the median and the best
round in ns per hand, and how many times faster than PyMahjongGB per call each row is (medians).
The hand sets are those of test_bench_mcr.py (``_mcr.MCR_SETS``, all wins); before timing, the
totals of every row are checked against PyMahjongGB's on every hand.

Usage: PYTHONPATH=src python bench/mcr_timing.py [rounds] [hands-per-set]
"""
from __future__ import annotations

import sys
import time

import numpy as np

from _mcr import (
    MCR_SETS,
    api_batch_runner,
    api_call_runner,
    kernel_runner,
    load_mahjonggb,
    make_mcr_hands,
    reference_runner,
    reference_totals,
)

ROWS = ("mjfast kernel fan_batch", "mjfast.mcr.fan_batch", "mjfast.mcr.fan() per call", "PyMahjongGB per call")


def main(rounds: int = 7, n: int = 20_000) -> None:
    ref = load_mahjonggb()
    runs: dict[tuple[str, str], object] = {}
    for name in MCR_SETS:
        hs = make_mcr_hands(name, n)
        kernel = kernel_runner(hs)
        runs[name, ROWS[0]] = kernel
        runs[name, ROWS[1]] = api_batch_runner(hs)
        runs[name, ROWS[2]] = api_call_runner(hs)
        totals = kernel().copy()
        for row in ROWS[1:3]:
            assert np.array_equal(runs[name, row](), totals), (name, row)
        if ref is not None:
            assert np.array_equal(reference_totals(hs, ref[0]), totals), name
            runs[name, ROWS[3]] = reference_runner(hs, ref[0])
    ns: dict[tuple[str, str], list[float]] = {key: [] for key in runs}
    for run in runs.values():                       # warm-up
        run()
    for _ in range(rounds):
        for key, run in runs.items():
            t = time.thread_time()
            run()
            ns[key].append((time.thread_time() - t) / n * 1e9)

    note = f"PyMahjongGB {ref[1]}" if ref else "PyMahjongGB not installed (pip install pymahjonggb==1.4.0)"
    print(f"{n:,} hands per set, {rounds} rounds interleaved, one thread, CPU time; {note}")
    print()
    print("| hand set | row | ns/hand, median | best | x faster than PyMahjongGB per call |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name in MCR_SETS:
        base = np.median(ns[name, ROWS[3]]) if (name, ROWS[3]) in ns else None
        for row in ROWS:
            if (name, row) not in ns:
                continue
            med = np.median(ns[name, row])
            ratio = f"{base / med:.1f}x" if base else "-"
            print(f"| {name} | {row} | {med:,.0f} | {min(ns[name, row]):,.0f} | {ratio} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7, int(sys.argv[2]) if len(sys.argv) > 2 else 20_000)
