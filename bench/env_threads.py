"""VecTables' step throughput by thread setting, on a quiet and on a busy machine.

    PYTHONPATH=src python bench/env_threads.py [rounds] [seconds-per-row] [n_tables ...]

For each table count (default 1024), rows ``threads=1``, ``threads=2`` and the default
(``threads=None``) are timed in two conditions: "quiet" (nothing of ours besides the run) and
"busy" (one extra process spinning on a core, ``python -c "while 1: pass"``, started and killed
by this script). Rows are interleaved round by round (each round runs every row of both
conditions, in a shuffled order), and each row reports the median over the rounds of the
table-steps per second of ``VecTables.step`` alone (the random-legal action picking is not
timed), and the ratio to ``threads=1`` in the same condition. The machine may be shared:
compare the ratios, not the absolute figures, between runs.
"""
from __future__ import annotations

import contextlib
import random
import signal
import subprocess
import sys
import time

import numpy as np

from mjfast.env import VecTables


@contextlib.contextmanager
def busy_core():
    """One extra process spinning on a core while the block runs."""
    p = subprocess.Popen([sys.executable, "-c", "while 1: pass"], start_new_session=True)
    try:
        time.sleep(0.3)                 # let it start spinning
        yield
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=10)


def row(n: int, threads):
    env = VecTables(n, rules="classical", seed=1, threads=threads)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)

    def pick(mask):
        r = rng.integers(1, 256, size=mask.shape, dtype=np.uint8)
        r *= mask
        return r.argmax(1)

    def run(seconds: float) -> float:
        nonlocal obs
        steps, spent = 0, 0.0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            a = pick(obs["action_mask"])
            t1 = time.perf_counter()
            obs, *_ = env.step(a)
            spent += time.perf_counter() - t1
            steps += 1
        return steps * n / spent
    return run


def main(rounds: int, seconds: float, sizes: list) -> None:
    settings = {"threads=1": 1, "threads=2": 2, "default (threads=None)": None}
    rows = {(n, name): row(n, t) for n in sizes for name, t in settings.items()}
    res: dict = {(cond, key): [] for cond in ("quiet", "busy") for key in rows}
    for run in rows.values():
        run(0.2)                        # warm up
    order = list(rows)
    for _ in range(rounds):
        for cond in ("quiet", "busy"):
            random.shuffle(order)
            ctx = busy_core() if cond == "busy" else contextlib.nullcontext()
            with ctx:
                for key in order:
                    res[(cond, key)].append(rows[key](seconds))
    print(f"VecTables.step, classical, random-legal actions: table-steps/s, median of {rounds} interleaved rounds "
          f"of {seconds:g} s per row\n")
    print("| tables | setting | quiet | vs threads=1 | busy (one core spinning) | vs threads=1 |")
    print("| ---: | --- | ---: | ---: | ---: | ---: |")
    for n in sizes:
        base = {c: float(np.median(res[(c, (n, "threads=1"))])) for c in ("quiet", "busy")}
        for name in settings:
            q = float(np.median(res[("quiet", (n, name))]))
            b = float(np.median(res[("busy", (n, name))]))
            print(f"| {n} | {name} | {q / 1e3:,.0f} k | {q / base['quiet']:.2f} | {b / 1e3:,.0f} k | "
                  f"{b / base['busy']:.2f} |")


if __name__ == "__main__":
    a = sys.argv[1:]
    main(int(a[0]) if a else 5, float(a[1]) if len(a) > 1 else 1.0, [int(x) for x in a[2:]] or [1024])
