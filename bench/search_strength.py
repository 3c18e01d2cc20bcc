"""Strength and speed of the search bot (issue 27): compare(SearchPolicy(...), "greedy") on
wall sets, with the time per decision on one thread.

    PYTHONPATH=src python bench/search_strength.py --rules mcr --games 500 [--worlds 16 --candidates 3 --margin 2.0
                                                                           --max-worlds 64 --belief discards]

Points per game are paired differences (the search bot at each seat against three greedy bots,
and four greedy bots on the same walls: mjfast.compare), with their 95 % interval over wall
sets. ms per decision = (time of the compare - time of compare("greedy", "greedy") on the same
walls) / decisions the search bot was asked (questions with one legal action are not asked),
in wall-clock time and in the process's CPU time (threads=1: the CPU time is the better figure
on a loaded machine, where the wall clock also counts the waits for a core).
"""
from __future__ import annotations

import argparse
import time

import mjfast
from mjfast.search import SearchPolicy


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="mcr")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--candidates", type=int, default=3)
    ap.add_argument("--margin", type=float, default=2.0)
    ap.add_argument("--max-worlds", type=int, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--belief", default=None, help='None (uniform worlds) or "discards"')
    a = ap.parse_args()
    p = SearchPolicy(worlds=a.worlds, candidates=a.candidates, margin=a.margin, threads=a.threads,
                     max_worlds=a.max_worlds, belief=a.belief)
    t0, c0 = time.perf_counter(), time.process_time()
    c = mjfast.compare(p, "greedy", a.games, rules=a.rules, seed=a.seed, progress=False, threads=1)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    mjfast.compare("greedy", "greedy", a.games, rules=a.rules, seed=a.seed, progress=False, threads=1)
    dt0, cpu0 = time.perf_counter() - t0, time.process_time() - c0
    d = c.points_diff
    print(f"{a.rules:<10} worlds={a.worlds:<3} max_worlds={p.max_worlds:<3} candidates={a.candidates} "
          f"margin={a.margin:<4} threads={a.threads} belief={a.belief} "
          f"games={a.games}: points/game {d.mean:+.2f} [{d.mean - 1.96 * d.se:+.2f}, {d.mean + 1.96 * d.se:+.2f}]  "
          f"win rate {c.win_rate_diff.mean:+.4f}  {(dt - dt0) / p.decided * 1e3:.2f} ms/decision "
          f"(CPU {(cpu - cpu0) / p.decided * 1e3:.2f}) "
          f"({p.decided} decisions, {p.searched} searched, {dt:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
