"""CPU-time medians of dealing and deal statistics on one thread (the per-thread targets).

The machine's wall clock is noisy (other virtual machines share the cores), so this script
times each row with the CPU time of the calling thread (one thread) or wall time (two threads),
interleaving the rows round by round so that slow phases hit every row alike.
Usage: PYTHONPATH=src python bench/deals_timing.py [rounds]
"""
from __future__ import annotations

import sys
import time

import numpy as np

import mjfast
from mjfast import _core

FORMS3 = ("standard", "seven_pairs", "thirteen_orphans")


def main(rounds: int = 9) -> None:
    n_deal, n_stats = 300_000, 1_000_000
    _core.ensure_tables()
    buf = mjfast.deal(n_deal, seed=1, threads=1)
    rows = {
        "deal, classical, fresh arrays (ns/hand)": (lambda: mjfast.deal(n_deal, seed=1, threads=1), 4 * n_deal, 1),
        "deal, classical, out= reused (ns/hand)": (lambda: mjfast.deal(n_deal, seed=1, threads=1, out=buf), 4 * n_deal, 1),
        "deal_stats standard (M hands/s)": (lambda: mjfast.deal_stats(n_stats, seed=1, threads=1, progress=False), 2 * n_stats, 1),
        "deal_stats 3 forms (M hands/s)": (lambda: mjfast.deal_stats(n_stats, seed=1, threads=1, progress=False, forms=FORMS3), 2 * n_stats, 1),
        "deal, classical, 2 threads, wall (ns/hand)": (lambda: mjfast.deal(n_deal, seed=1, threads=2, out=buf), 4 * n_deal, 2),
        "deal_stats 3 forms, 2 threads, wall (M hands/s)": (lambda: mjfast.deal_stats(n_stats, seed=1, threads=2, progress=False, forms=FORMS3), 2 * n_stats, 2),
    }
    for fn, _, _ in rows.values():
        fn()
    times = {k: [] for k in rows}
    for _ in range(rounds):
        for name, (fn, units, threads) in rows.items():
            clock = time.thread_time if threads == 1 else time.perf_counter
            t = clock()
            fn()
            times[name].append((clock() - t) / units)
    print(f"| row | median of {rounds} | best |")
    print("| --- | ---: | ---: |")
    for name, ts in times.items():
        med, best = np.median(ts), np.min(ts)
        if "M hands/s" in name:
            print(f"| {name} | {1e-6 / med:.1f} | {1e-6 / best:.1f} |")
        else:
            print(f"| {name} | {med * 1e9:.1f} | {best * 1e9:.1f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
