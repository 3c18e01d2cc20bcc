"""CPU-time medians of the American kernels and API on dealt American hands (Markdown rows).

``PYTHONPATH=src python bench/american_timing.py [n]``: the dealer's (14) and South's (13)
hands of ``n`` deals (default 1,000,000, seed 1) from the 152-tile set. Single-thread rows use
this thread's CPU time (``time.thread_time``), which other jobs on the machine barely disturb;
two-thread rows need wall time and suffer on a loaded machine.
"""
from __future__ import annotations

import sys
import time

import numpy as np

import mjfast
from mjfast._kernels import american_batch as A


def _rows(d, seat):
    return np.ascontiguousarray(np.concatenate([d.hands[:, seat], d.bonus[:, seat], d.jokers[:, seat, None]], axis=1))


def main(n: int = 1_000_000) -> None:
    d = mjfast.deal(n, rules="american", seed=1)
    c, c13 = _rows(d, 0), _rows(d, 1)
    del d
    p = mjfast.pack(c)
    out, o8 = np.empty(n, np.int8), np.empty(n, np.uint8)
    sizes = (1 << 13) | (1 << 14)

    def timing(f, cpu=True, reps=11):
        clock = time.thread_time if cpu else time.perf_counter
        f()
        ts = []
        for _ in range(reps):
            t0 = clock()
            f()
            ts.append(clock() - t0)
        return np.median(ts) / n * 1e9, min(ts) / n * 1e9

    rows = [
        ("kernel shanten, counts (N, 43)", 1, lambda: A.shanten_counts_batch(c, out, 1)),
        ("kernel shanten, packed (N, 5)", 1, lambda: A.shanten_packed_batch(p, out, 1)),
        ("kernel is_winning, counts", 1, lambda: A.winning_counts_batch(c, o8, 1)),
        ("kernel is_winning, packed", 1, lambda: A.winning_packed_batch(p, o8, 1)),
        ("validation, counts", 1, lambda: A.check_counts_batch(c, sizes)),
        ("validation, packed", 1, lambda: A.check_packed_batch(p, sizes)),
        ("mjfast.shanten, counts, 14 tiles", 1, lambda: mjfast.shanten(c, rules="american", threads=1)),
        ("mjfast.shanten, counts, 13 tiles", 1, lambda: mjfast.shanten(c13, rules="american", threads=1)),
        ("mjfast.shanten, packed, 14 tiles", 1, lambda: mjfast.shanten(p, rules="american", threads=1)),
        ("mjfast.is_winning, counts", 1, lambda: mjfast.is_winning(c, rules="american", threads=1)),
        ("mjfast.is_winning, packed", 1, lambda: mjfast.is_winning(p, rules="american", threads=1)),
        ("kernel shanten, counts (wall time)", 2, lambda: A.shanten_counts_batch(c, out, 2)),
        ("mjfast.shanten, counts (wall time)", 2, lambda: mjfast.shanten(c, rules="american", threads=2)),
    ]
    print("| what | threads | ns/hand (median) | ns/hand (min) |")
    print("| --- | ---: | ---: | ---: |")
    for name, threads, f in rows:
        med, mn = timing(f, cpu=threads == 1)
        print(f"| {name} | {threads} | {med:.1f} | {mn:.1f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
