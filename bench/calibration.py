"""MCR play beside people's: mjfast.calibration for the humanlike and greedy policies, and the
CPU-time turns per second of each on one thread (interleaved rounds, median and best).

Targets (issue 28 item 5): exhaustive draws <= 4 %, self-drawn share of wins 25.7 +- 3 points,
>= 1 M turns/s per thread. Results: bench/calibration.md.
Usage: PYTHONPATH=src python bench/calibration.py [hands] [rounds] [games per timing round]
"""
from __future__ import annotations

import sys
import time

import numpy as np

import mjfast
from mjfast import _core

POLICIES = ("humanlike", "greedy")


def main(hands: int = 20_000, rounds: int = 5, games: int = 400) -> None:
    _core.ensure_tables()
    for pol in POLICIES:
        c = mjfast.calibration(rules="mcr", policies=pol, hands=hands, seed=1, threads=1)
        print(f"### {pol}, rules=mcr, {c.hands:,} hands, seed 1\n")
        print(c.table())
        print()
    rates: dict = {p: [] for p in POLICIES}
    for p in POLICIES:
        mjfast.simulate(20, rules="mcr", policies=p, seed=1, threads=1, progress=False)
    for _ in range(rounds):
        for p in POLICIES:
            t = time.thread_time()
            r = mjfast.simulate(games, rules="mcr", policies=p, seed=2, threads=1, progress=False)
            rates[p].append(r.turns / (time.thread_time() - t))
    print(f"| policy (mcr, 1 thread, CPU time) | turns/s, median of {rounds} | best | ratio to greedy (medians) |")
    print("| --- | ---: | ---: | ---: |")
    g = float(np.median(rates["greedy"]))
    for p in POLICIES:
        m = float(np.median(rates[p]))
        print(f"| {p} | {m / 1e6:.2f} M | {max(rates[p]) / 1e6:.2f} M | {m / g:.2f} |")


if __name__ == "__main__":
    a = [int(x) for x in sys.argv[1:]]
    main(*a)
