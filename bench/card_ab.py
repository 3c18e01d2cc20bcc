"""Interleaved A/B of ``card.distance`` between two builds of mjfast (two source trees built in place).

Usage::

    python bench/card_ab.py BASE_SRC NEW_SRC [--rounds 3] [--n 100000] [--reps 5]

``BASE_SRC`` / ``NEW_SRC`` are ``src`` directories of built trees (``PYTHONPATH`` for each run).
Each round runs both builds in fresh interpreters (their order alternating by round): the
dealer's 14 tiles of ``n`` deals (seed 1) against the invented cards of this repository
(tests/data/cards: 958 and 129 variations) and the toy card, ``card.distance(hands, threads=1)``
through the public API, CPU time of the calling thread, median of ``reps``. The table gives the
medians over rounds in µs per hand, per 1,000 variations, and new / base.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np

CARDS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "data", "cards")

RUN = r'''
import json, sys, time, numpy as np, mjfast
from mjfast.card import load_card, toy_card
n, reps, cards = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
d = mjfast.deal(n, rules="american", seed=1, threads=1)
hands = np.ascontiguousarray(np.concatenate([d.hands[:, 0], d.bonus[:, 0], d.jokers[:, 0, None]], axis=1))
out = {}
for name, card in (("invented large", load_card(cards + "/invented-large.json")), ("toy", toy_card()),
                   ("invented small", load_card(cards + "/invented-small.json"))):
    card.distance(hands[:1000], threads=1)
    ts = []
    for _ in range(reps):
        t0 = time.thread_time(); card.distance(hands, threads=1); ts.append(time.thread_time() - t0)
    out[f"{name}, {len(card.variations)} variations"] = [float(np.median(ts)) / n * 1e6, len(card.variations)]
print(json.dumps(out))
'''


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args(argv)
    res: dict[str, list] = {"base": [], "new": []}
    for i in range(a.rounds):
        for name in (("base", "new") if i % 2 == 0 else ("new", "base")):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(a.base if name == "base" else a.new))
            o = subprocess.run([sys.executable, "-c", RUN, str(a.n), str(a.reps), CARDS], capture_output=True,
                               text=True, cwd="/tmp", env=env, timeout=3600)
            if o.returncode:
                sys.exit(o.stderr[-3000:])
            res[name].append(json.loads(o.stdout.strip().splitlines()[-1]))
    print("| card.distance, 1 thread | base µs/hand | new µs/hand | new, µs per 1,000 variations | new / base |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for k in res["base"][0]:
        b = float(np.median([x[k][0] for x in res["base"]]))
        n = float(np.median([x[k][0] for x in res["new"]]))
        v = res["new"][0][k][1]
        print(f"| {k} | {b:.2f} | {n:.2f} | {n / v * 1000:.2f} | {n / b:.2f} |")


if __name__ == "__main__":
    main()
