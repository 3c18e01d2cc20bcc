"""Headline numbers, measured interleaved so that machine noise hits every row alike.

Each round times every row once (CPU time of the calling thread for one-thread rows, wall time
for two threads); the table shows the median over rounds and the ratio to mjfast's kernel.
Usage: PYTHONPATH=src python bench/headline.py [rounds]
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mjfast  # noqa: E402
from _competitors import load_xiangting  # noqa: E402
from _hands import make_hands  # noqa: E402
from mjfast import _core  # noqa: E402


def main(rounds: int = 9) -> None:
    n = 1_000_000
    h14 = make_hands("random14", n)
    out = np.empty(n, np.int8)
    outb = np.empty(n, np.uint8)
    _core.ensure_tables()
    xt = load_xiangting()
    xprep = xt.prepare(h14[:200_000]) if xt else None
    rows = {
        "mjfast kernel shanten standard t1": (lambda: _core.shanten_counts_batch(h14, 1, out, 1), n, True),
        "mjfast kernel shanten all t1": (lambda: _core.shanten_counts_batch(h14, 7, out, 1), n, True),
        "mjfast kernel is_winning standard t1": (lambda: _core.winning_counts_batch(h14, 1, outb, 1), n, True),
        "mjfast kernel is_winning all t1": (lambda: _core.winning_counts_batch(h14, 7, outb, 1), n, True),
        "mjfast kernel shanten standard t2": (lambda: _core.shanten_counts_batch(h14, 1, out, 2), n, False),
        "mjfast kernel shanten all t2": (lambda: _core.shanten_counts_batch(h14, 7, out, 2), n, False),
        "mjfast.shanten (API) all t1": (lambda: mjfast.shanten(h14, threads=1), n, True),
    }
    if xt:
        rows["xiangting all t1 (per-hand loop)"] = (lambda: xt.forms["all"](xprep), 200_000, True)
    times = {k: [] for k in rows}
    for _ in range(rounds):
        for name, (fn, m, cpu) in rows.items():
            clock = time.thread_time if cpu else time.perf_counter
            t = clock()
            fn()
            times[name].append((clock() - t) / m * 1e9)
    base = np.median(times["mjfast kernel shanten all t1"])
    print(f"| row | ns/hand (median of {rounds}) | min | vs mjfast kernel all t1 |")
    print("| --- | ---: | ---: | ---: |")
    for name, ts in times.items():
        print(f"| {name} | {np.median(ts):.1f} | {np.min(ts):.1f} | {np.median(ts) / base:.2f}x |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
