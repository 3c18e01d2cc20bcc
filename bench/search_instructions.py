"""Instructions per turn of a rollout against mjfast.simulate (issue 27), under callgrind: the
clock-free comparison of the search's engine loop with the game loop (classical, greedy bots).

    PYTHONPATH=src python bench/search_instructions.py [--tables 200] [--rules mcr] [--functions 12]

Re-runs itself under ``valgrind --tool=callgrind`` twice, collecting only inside the kernel's
``def`` entry point: ``ChineseVec.rollout`` (whole hands from each table's first decision) and
``chinese_game.simulate_batch`` (whole games); each run prints its turns and the instructions
are divided by them. ``--functions N``: also the N functions of the rollout with the most
instructions (inclusive, callgrind_annotate), per turn: where a rollout turn goes.
"""
from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
import tempfile

SYMS = {"rollout": "__pyx_pw_6mjfast_8_kernels_11chinese_env_10ChineseVec_13rollout",
        "simulate": "__pyx_pw_6mjfast_8_kernels_12chinese_game_3simulate_batch"}


def inner(which: str, tables: int, rules: str) -> None:
    import mjfast
    from mjfast.env import VecTables
    from mjfast.search import rollout

    if which == "rollout":
        env = VecTables(tables, rules=rules, seed=1)
        env.reset()
        r = rollout(env.save(), "greedy", seed=None, threads=1)
        print(int(r.turns.sum()))
    else:
        d = mjfast.simulate(tables // 4, rules=rules, seed=1, threads=1, progress=False).to_dict()
        print(int(round(d["mean_turns"] * d["hands"])))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--inner", default="")
    ap.add_argument("--rules", default="classical", help="a Chinese rule set (classical, mcr, basic)")
    ap.add_argument("--functions", type=int, default=0)
    a = ap.parse_args()
    if a.inner:
        inner(a.inner, a.tables, a.rules)
        return
    out = {}
    for which, sym in SYMS.items():
        with tempfile.TemporaryDirectory() as tmp:
            cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", f"--toggle-collect={sym}",
                   f"--callgrind-out-file={tmp}/cg.out", sys.executable, __file__, "--inner", which,
                   "--tables", str(a.tables), "--rules", a.rules]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, env=os.environ)
            turns = int(p.stdout.strip().splitlines()[-1])
            ir = 0
            for f in glob.glob(f"{tmp}/cg.out*"):
                for line in open(f):
                    if line.startswith("summary:") or line.startswith("totals:"):
                        ir = max(ir, int(line.split()[1]))
            out[which] = (ir, turns)
            print(f"  {which:<9} {ir:>14,} instructions  {turns:>8,} turns  {ir / turns:8.0f} per turn", flush=True)
            if which == "rollout" and a.functions:
                top(glob.glob(f"{tmp}/cg.out*"), turns, a.functions)
    r, s = out["rollout"], out["simulate"]
    if not s[0]:
        print("  (simulate: no instructions collected in its classical entry point for these rules)")
        return
    print(f"  rollout / simulate per turn: {(r[0] / r[1]) / (s[0] / s[1]):.3f}")


def top(files: list, turns: int, n: int) -> None:
    """The n kernel functions with the most inclusive instructions, per turn."""
    p = subprocess.run(["callgrind_annotate", "--inclusive=yes", *files], capture_output=True, text=True,
                       timeout=600)
    rows = []
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0][0].isdigit() and "__pyx_f_6mjfast" in line:
            name = parts[2].split(":", 1)[-1].replace("__pyx_f_6mjfast_8_kernels_", "")
            rows.append((int(parts[0].replace(",", "")), name))
    for ir, name in rows[:n]:
        print(f"    {ir / turns:8.0f} per turn  {name}")


if __name__ == "__main__":
    main()
