"""Headline numbers of the hand and deal kernels, measured interleaved so that machine noise hits every row alike.

Each round times every row once (CPU time of the calling thread; every row runs on one thread);
the table gives the median over rounds, the target, and the ratio of xiangting's time
per call (its all-forms shanten of one hand, a per-hand Python loop: it has no batch entry
point) to the row's time per hand: ratios travel between machines where nanoseconds do not.
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

SIZES = sum(1 << s for s in range(1, 15) if s % 3)
FORMS3 = ("standard", "seven_pairs", "thirteen_orphans")


def main(rounds: int = 9) -> None:
    n = 1_000_000
    h14 = make_hands("random14", n)
    out = np.empty(n, np.int8)
    outb = np.empty(n, np.uint8)
    _core.ensure_tables()
    xt = load_xiangting()
    xprep = xt.prepare(h14[:100_000]) if xt else None
    n_deal = 250_000
    deal_buf = mjfast.deal(n_deal, seed=1, threads=1)
    # (row, fn, units, target ns/hand or None)
    best = _core.simd_level()[1]

    def at(level, fn):
        """fn run with the dispatched loops forced to `level` (restored afterwards)."""
        def run():
            previous = _core.set_simd_level(level)
            try:
                fn()
            finally:
                _core.set_simd_level(previous)
        return run

    # (row, fn, units, target ns/hand or None)
    rows = [
        ("kernel shanten standard (the API's loop, validation included)",
         lambda: _core.shanten_counts_checked(h14, 1, SIZES, out, 1), n, 7),
        ("kernel shanten all (the API's loop, validation included)",
         lambda: _core.shanten_counts_checked(h14, 7, SIZES, out, 1), n, 11),
        ("kernel is_winning all (the API's loop, validation included)",
         lambda: _core.winning_counts_checked(h14, 7, SIZES, outb, 1), n, None),
        ("generic row kernel shanten standard (no validation; the reference loop)",
         lambda: _core.shanten_counts_batch(h14, 1, out, 1), n, None),
        ("generic row kernel shanten all (no validation)", lambda: _core.shanten_counts_batch(h14, 7, out, 1), n, None),
        ("generic row kernel is_winning standard (no validation, no filter)",
         lambda: _core.winning_counts_batch(h14, 1, outb, 1), n, None),
        ("API mjfast.shanten(form='standard')", lambda: mjfast.shanten(h14, form="standard", threads=1), n, 9),
        ("API mjfast.shanten (all forms)", lambda: mjfast.shanten(h14, threads=1), n, 13),
        ("API mjfast.is_winning (all forms)", lambda: mjfast.is_winning(h14, threads=1), n, 6),
        ("API mjfast.shanten (all forms), baseline SIMD level",
         at("baseline", lambda: mjfast.shanten(h14, threads=1)), n, None),
        ("API mjfast.is_winning (all forms), baseline SIMD level",
         at("baseline", lambda: mjfast.is_winning(h14, threads=1)), n, None),
        ("deal(out=), per dealt hand", lambda: mjfast.deal(n_deal, seed=1, threads=1, out=deal_buf), 4 * n_deal, 25),
        ("deal_stats 3 forms, per hand", lambda: mjfast.deal_stats(n_deal, seed=1, threads=1, progress=False,
                                                                   forms=FORMS3), 2 * n_deal, 40),
    ]
    if xt:
        rows.append(("xiangting all forms (per-hand calls)", lambda: xt.forms["all"](xprep), len(xprep), None))
    times: dict[str, list[float]] = {r[0]: [] for r in rows}
    for fn in (r[1] for r in rows):
        fn()
    for _ in range(rounds):
        for name, fn, units, _target in rows:
            t = time.thread_time()
            fn()
            times[name].append((time.thread_time() - t) / units * 1e9)
    xt_med = np.median(times[rows[-1][0]]) if xt else None
    print(f"| row | ns/hand (median of {rounds}) | min | target | xiangting per call / row |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, _fn, _units, target in rows:
        ts = times[name]
        ratio = f"{xt_med / np.median(ts):.0f}x" if xt_med else "-"
        tgt = f"<= {target}" if target else ""
        if name.startswith("deal_stats"):
            tgt = ">= 25 M hands/s (<= 40 ns)"
        print(f"| {name} | {np.median(ts):.1f} | {np.min(ts):.1f} | {tgt} | {ratio} |")
    print(f"\nSIMD level: {best} (best of this CPU); xiangting {xt.version if xt else 'not installed'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
