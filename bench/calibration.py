"""MCR play beside people's: mjfast.calibration for the humanlike and greedy policies, and the
CPU-time turns per second of each on one thread (interleaved rounds, median and best).

Targets (issue 28 item 5): exhaustive draws <= 4 %, self-drawn share of wins 25.7 +- 3 points,
>= 1 M turns/s per thread. Results: bench/calibration.md.
Usage: PYTHONPATH=src python bench/calibration.py [hands] [rounds] [games per timing round] [rules ...]
(rules: mcr and mcr-botzone by default; seed 1, and seed 11 for a second look.)
"""
from __future__ import annotations

import sys
import time

import numpy as np

import mjfast
from mjfast import _core

POLICIES = ("humanlike", "greedy")


def main(hands: int = 20_000, rounds: int = 5, games: int = 400,
         rules: tuple[str, ...] = ("mcr", "mcr-botzone"), seeds: tuple[int, ...] = (1, 11)) -> None:
    _core.ensure_tables()
    for rs in rules:
        for pol in POLICIES:
            c = mjfast.calibration(rules=rs, policies=pol, hands=hands, seed=seeds[0], threads=1)
            print(f"### {pol}, rules={rs}, {c.hands:,} hands, seed {seeds[0]}\n")
            print(c.table())
            print()
    print("| rules | policy | seed | exhaustive draws | self-drawn share |")
    print("| --- | --- | ---: | ---: | ---: |")
    for rs in rules:
        for pol in POLICIES:
            for seed in seeds:
                c = mjfast.calibration(rules=rs, policies=pol, hands=hands, seed=seed, threads=1)
                d = c.rows["exhaustive draw rate"]["simulated"]
                s = c.rows["self-drawn share of wins"]["simulated"]
                print(f"| {rs} | {pol} | {seed} | {d.p:.2%} [{d.low:.2%}, {d.high:.2%}] "
                      f"| {s.p:.1%} [{s.low:.1%}, {s.high:.1%}] |")
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
    a = [int(x) for x in sys.argv[1:4]] + [20_000, 5, 400][len(sys.argv[1:4]):]
    main(a[0], a[1], a[2], rules=tuple(sys.argv[4:]) or ("mcr", "mcr-botzone"))
