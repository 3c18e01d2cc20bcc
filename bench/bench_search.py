"""Look-ahead speed (issue 27): rollout turns per second per thread, and evaluate's cost.

    PYTHONPATH=src python bench/bench_search.py [--tables 4000] [--repeat 5] [--threads 1]

Rollouts start from each table's first decision of a fresh hand (the whole hand is played)
with greedy bots at every seat; the figure is turns played / wall time, the median of the
repeats, on the given number of threads (the engine's own loop: loading the states is counted),
beside mjfast.simulate's turns/s with the same bots in the same run (tables/4 games of 4 hands).
"""
from __future__ import annotations

import argparse
import statistics
import time

import mjfast
from mjfast.env import VecTables
from mjfast.search import evaluate, rollout


def rollout_rate(rules: str, tables: int, repeat: int, threads: int, **opts) -> tuple[float, float]:
    env = VecTables(tables, rules=rules, seed=1, **opts)
    env.reset()
    states = env.save()
    rates, per_roll = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = rollout(states, "greedy", seed=None, threads=threads)
        dt = time.perf_counter() - t0
        rates.append(float(r.turns.sum()) / dt)
        per_roll.append(dt / tables)
    return statistics.median(rates), statistics.median(per_roll)


def simulate_rate(rules: str, games: int, repeat: int, threads: int, **opts) -> float:
    """Turns/s of mjfast.simulate with greedy bots (the same engine playing whole games)."""
    rates = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = mjfast.simulate(games, rules=rules, seed=1, threads=threads, progress=False, **opts)
        dt = time.perf_counter() - t0
        d = r.to_dict()
        rates.append(d["mean_turns"] * d["hands"] / dt)
    return statistics.median(rates)


def evaluate_cost(rules: str, tables: int, worlds: int, threads: int) -> float:
    env = VecTables(tables, rules=rules, seed=2)
    env.reset()
    states = env.save()
    t0 = time.perf_counter()
    evaluate(states, worlds=worlds, seed=1, threads=threads)
    return (time.perf_counter() - t0) / tables


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    print(f"rollouts of a whole hand, greedy bots, {a.tables} tables, {a.threads} thread(s), median of {a.repeat}")
    cases = [("classical", {}), ("mcr", {}), ("american", {}), ("american+toy card", {"card": mjfast.card.toy_card()})]
    for name, opts in cases:
        rules = name.split("+")[0]
        rate, per = rollout_rate(rules, a.tables, a.repeat, a.threads, **opts)
        sim = simulate_rate(rules, a.tables // 4, a.repeat, a.threads, **opts)
        print(f"  {name:<20} rollout {rate / 1e6:6.2f} M turns/s   {per * 1e6:7.1f} us per rollout   "
              f"simulate {sim / 1e6:6.2f} M turns/s   (rollout/simulate {rate / sim:.2f})")
    for rules in ("classical", "mcr"):
        for w in (8, 32):
            per = evaluate_cost(rules, 200, w, a.threads)
            print(f"  evaluate {rules:<10} worlds={w:<3} {per * 1e3:7.2f} ms per decision")


if __name__ == "__main__":
    main()
