"""Interleaved A/B of two builds of mjfast (two virtual environments), rows alternating.

Usage::

    python bench/ab_builds.py BASE_PYTHON NEW_PYTHON [--rounds 5] [--games 3000] [--what sim,kernels]

Each round runs every row in a fresh interpreter of each build (the order of the two builds
alternating by round) and records CPU time of the calling thread; the table gives the medians
and new / base. ``sim``: built-in four-bot play, turns per second, one thread; ``kernels``: the
hand functions and deals through the public API, ns per hand, one thread.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

import numpy as np

SIM_ROWS = [("classical", "greedy"), ("classical", "defensive"), ("basic", "greedy"), ("mcr", "greedy"),
            ("mcr", "defensive"), ("american", "greedy"), ("american", "random")]

SIM = r'''
import json, sys, time, mjfast
from mjfast import _core
_core.ensure_tables()
rows = json.loads(sys.argv[1]); games = int(sys.argv[2]); out = {}
for rules, pol in rows:
    mjfast.simulate(20, rules=rules, policies=pol, seed=1, threads=1, progress=False)
for rules, pol in rows:
    t = time.thread_time(); r = mjfast.simulate(games, rules=rules, policies=pol, seed=1, threads=1, progress=False)
    out[f"{rules} {pol}, M turns/s"] = r.turns / (time.thread_time() - t) / 1e6
print(json.dumps(out))
'''

KERNELS = r'''
import json, time, numpy as np, mjfast
from mjfast import _core
_core.ensure_tables()
try:
    from mjfast.hands._random import random_hands
except ImportError:                     # builds before the hands/ package
    from mjfast._random_hands import random_hands
h14 = random_hands(1_000_000, 14, seed=1)
out = {}
def t(label, f, n, reps=5):
    f()
    best = []
    for _ in range(reps):
        t0 = time.thread_time(); f(); best.append(time.thread_time() - t0)
    out[label] = float(np.median(best)) / n * 1e9
t("shanten all, ns/hand", lambda: mjfast.shanten(h14, threads=1), len(h14))
t("shanten standard, ns/hand", lambda: mjfast.shanten(h14, form="standard", threads=1), len(h14))
t("is_winning, ns/hand", lambda: mjfast.is_winning(h14, threads=1), len(h14))
t("shanten mcr, ns/hand", lambda: mjfast.shanten(h14, rules="mcr", threads=1), len(h14))
d = mjfast.deal(200_000, seed=1, threads=1)
t("deal classical reused out, ns/hand", lambda: mjfast.deal(200_000, seed=1, threads=1, out=d), 4 * 200_000)
t("deal_stats 3 forms, ns/hand", lambda: mjfast.deal_stats(200_000, seed=1, threads=1, progress=False,
  forms=("standard", "seven_pairs", "thirteen_orphans")), 2 * 200_000)
print(json.dumps(out))
'''


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--what", default="sim,kernels")
    a = ap.parse_args(argv)
    jobs = []
    if "sim" in a.what:
        jobs.append([SIM, json.dumps(SIM_ROWS), str(a.games)])
    if "kernels" in a.what:
        jobs.append([KERNELS])
    res = {"base": [], "new": []}
    for i in range(a.rounds):
        for name in (("base", "new") if i % 2 == 0 else ("new", "base")):
            row = {}
            for job in jobs:
                o = subprocess.run([a.base if name == "base" else a.new, "-c", *job], capture_output=True, text=True,
                                   cwd="/tmp")
                if o.returncode:
                    sys.exit(o.stderr[-3000:])
                row.update(json.loads(o.stdout.strip().splitlines()[-1]))
            res[name].append(row)
    print("| row (one thread) | base | new | new / base |")
    print("| --- | ---: | ---: | ---: |")
    for k in res["base"][0]:
        b = float(np.median([x[k] for x in res["base"]]))
        n = float(np.median([x[k] for x in res["new"]]))
        print(f"| {k} | {b:.3f} | {n:.3f} | {n / b:.3f} |")


if __name__ == "__main__":
    main()
