"""How much could search gain over greedy, decision by decision? (issue 27)

    PYTHONPATH=src python bench/search_gain.py RULES WORLDS STATES [CANDIDATES]
    e.g. PYTHONPATH=src python bench/search_gain.py mcr 96 400 3

Decision states of greedy self-play (5 % of the questions with two or more legal actions, 64
tables, seed 11; American: after the Charleston) are evaluated with mjfast.search.evaluate in
WORLDS worlds (every legal action, or the SearchPolicy's CANDIDATES plus greedy's choice). The
worlds are split in two halves: the action a chooser picks on one half (greedy's choice unless a
candidate beats it by `margin` standard errors of the paired difference) is scored on the other
half, against greedy's choice; the mean over both splits and all states is an unbiased estimate
of the points per decision gained by switching with WORLDS/2 worlds, grouped by the question (and
for discards the seat's shanten after its best discard, American its distance).
"""
from __future__ import annotations

import sys
import time

import numpy as np

from mjfast.env import VecTables
from mjfast.search import SearchPolicy, evaluate
from mjfast.search._common import AM_CHARLESTON, phases


def main() -> None:
    rules, W, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    cands = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    env = VecTables(64, rules=rules, seed=11, derived=True)
    obs, _ = env.reset()
    sp = SearchPolicy(candidates=cands or 3)
    rng = np.random.default_rng(0)
    collected: list = []
    steps = 0
    tiles, plane = (36, 28) if rules == "american" else (34, 48)
    while len(collected) < N and steps < 5000:
        st = env.save()
        a = sp._teacher(st)
        for i in np.flatnonzero(rng.random(64) < 0.05):
            m = obs["action_mask"][i].astype(bool)
            if m.sum() < 2 or (rules == "american" and phases(st[int(i)])[0] in AM_CHARLESTON):
                continue
            sh = int(obs["observation"][i, plane][m[:tiles]].min()) if m[:tiles].any() else -1
            c = sp._candidates(obs["observation"][i:i + 1], m[None]) if cands else m[None].copy()
            c[0, a[i]] = True
            collected.append((st[int(i)], int(a[i]), sh, c))
        obs, *_ = env.step(a)
        steps += 1
    res: dict = {}
    t0 = time.time()
    H = W // 2
    for s, g, sh, c in collected[:N]:
        v = evaluate(s, worlds=W, seed=5, threads=1, candidates=c)
        if all(n.startswith(("discard", "tile")) for n in v.name):
            d = sh - 1                # the plane holds shanten (American: distance) plus one
            kind = f"discard, {'shanten' if tiles == 34 else 'distance'} {d if d < 2 else '2+'}"
        else:
            kind = "+".join(sorted(set(n.split()[0] for n in v.name)))
        x = v.samples
        base = int(np.flatnonzero(v.action == g)[0])
        row = []
        for margin in (0.0, 1.0, 2.0):
            gains = []
            for A, B in ((slice(0, H), slice(H, W)), (slice(H, W), slice(0, H))):
                d = x[:, A] - x[base, A]
                gain = d.mean(1) - margin * d.std(1, ddof=1) / np.sqrt(H)
                j = int(np.argmax(gain))
                if gain[j] <= 0:
                    j = base
                gains.append(x[j, B].mean() - x[base, B].mean())
            row.append(np.mean(gains))
        res.setdefault(kind, []).append(row)
    print(f"{rules} worlds={W} (choose on {H}, score on {H}) states={len(collected[:N])} candidates={cands or 'all'} "
          f"{time.time() - t0:.0f} s; points per decision gained by switching, ± 95 %")
    every = []
    for k, rows in sorted(res.items()):
        a = np.array(rows)
        every.append(a)
        print(f"  {k:<24} n={len(a):4d} " + "  ".join(
            f"margin {m}: {a[:, i].mean():+.3f} ±{1.96 * a[:, i].std() / np.sqrt(len(a)):.3f}"
            for i, m in enumerate((0, 1, 2))))
    a = np.concatenate(every)
    print(f"  {'all':<24} n={len(a):4d} " + "  ".join(
        f"margin {m}: {a[:, i].mean():+.3f} ±{1.96 * a[:, i].std() / np.sqrt(len(a)):.3f}"
        for i, m in enumerate((0, 1, 2))))


if __name__ == "__main__":
    main()
