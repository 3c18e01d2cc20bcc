"""CPU-time turns per second of built-in four-bot play on one thread (the per-thread target).

A turn is a draw or a claim, a decision and a discard. The machine's wall clock is noisy (other
virtual machines share the cores, and whole phases run ~30 % slower), so each row is timed with
the CPU time of the calling thread, and the rows are interleaved round by round so that slow
phases hit every row alike. The table gives the median and the best round; the best round is
the closest to what the code does on an unloaded core.
Usage: PYTHONPATH=src python bench/sim_timing.py [rounds] [games]
"""
from __future__ import annotations

import sys
import time

import numpy as np

import mjfast
from mjfast import _core

ROWS = [("classical", "greedy"), ("classical", "defensive"), ("basic", "greedy"), ("basic", "defensive"),
        ("mcr", "greedy"), ("mcr", "defensive"), ("mcr", "greedy_blind"), ("mcr-flat", "greedy")]
#: rows' rule sets: "mcr-flat" is mcr before fan scoring (scoring="basic", min_fan=0)
RULES = {"mcr-flat": mjfast.rules.get("mcr", scoring="basic", min_fan=0)}


def main(rounds: int = 7, games: int = 500) -> None:
    _core.ensure_tables()
    for rules, policy in ROWS:                      # warm-up (tables, code paths)
        mjfast.simulate(20, rules=RULES.get(rules, rules), policies=policy, seed=1, threads=1, progress=False)
    rates = {row: [] for row in ROWS}
    hands = {}
    for _ in range(rounds):
        for rules, policy in ROWS:
            t = time.thread_time()
            res = mjfast.simulate(games, rules=RULES.get(rules, rules), policies=policy, seed=1, threads=1,
                                  progress=False)
            dt = time.thread_time() - t
            rates[(rules, policy)].append((res.turns / dt, res.hands / dt))
            hands[(rules, policy)] = res.turns / res.hands
    print(f"| rules, policy | turns/s, median of {rounds} | best | hands/s (median) | turns per hand |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for row, rs in rates.items():
        turns = np.array([r[0] for r in rs])
        per_hand = np.array([r[1] for r in rs])
        print(f"| {row[0]}, {row[1]} | {np.median(turns) / 1e6:.2f} M | {turns.max() / 1e6:.2f} M "
              f"| {np.median(per_hand):,.0f} | {hands[row]:.0f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7, int(sys.argv[2]) if len(sys.argv) > 2 else 500)
