"""Environment throughput, rows interleaved round by round; medians and best.

    PYTHONPATH=src python bench/env_timing.py [rounds] [seconds-per-row]

Rows (each a fixed amount of wall time per round; one-thread rows also report CPU time of the
calling thread, which is the whole process for them):

- VecTables self-play, 4 learner seats, a vectorised random-legal numpy policy, observation
  (48x34 planes + scalars) and mask written: decisions/s on 1 and 2 threads (N = 4096 tables),
  and the stepping alone (policy time excluded).
- VecTables, one learner seat + 3 greedy bots: learner decisions/s.
- simulate() with four BatchPolicy random-legal bots: turns/s on 1 thread.
- simulate() with four per-decision Python Policy bots (lowest tile): turns/s.
- decisions() from greedy bots: labelled decisions/s on 1 thread.
- MahjongAEC, one table, Python loop: steps/s.
- riichienv (if installed): RiichiEnv self-play with random legal actions in a Python loop,
  decisions/s, without and with its observation encoding (``encode()``) and mask (``mask()``).
"""
from __future__ import annotations

import sys
import time

import numpy as np

import mjfast
from mjfast.env import MahjongAEC, VecTables, decisions


def random_legal(rng):
    def act(mask):
        r = rng.integers(1, 256, size=mask.shape, dtype=np.uint8)
        r *= mask
        return r.argmax(1)
    return act


class RandomLegal(mjfast.BatchPolicy):
    name = "random-legal"

    def __init__(self, seed):
        self.pick = random_legal(np.random.default_rng(seed))

    def act(self, observation, action_mask, seat):
        return self.pick(action_mask)


class FirstTile(mjfast.Policy):
    name = "first-tile"

    def discard(self, view):
        return view.drawn or int(np.flatnonzero(view.hand)[0])


def vec_row(n, threads, learners=(0, 1, 2, 3), rules="classical"):
    env = VecTables(n, rules=rules, learners=learners, seed=1, threads=threads)
    obs, _ = env.reset()
    pick = random_legal(np.random.default_rng(0))

    def run(seconds):
        nonlocal obs
        steps = 0
        t_step = 0.0
        t0, c0 = time.perf_counter(), time.thread_time()
        while time.perf_counter() - t0 < seconds:
            a = pick(obs["action_mask"])
            t1 = time.perf_counter()
            obs, *_ = env.step(a)
            t_step += time.perf_counter() - t1
            steps += 1
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        return {"per_s": steps * n / wall, "per_cpu_s": steps * n / cpu, "step_only_per_s": steps * n / t_step}
    return run


def simulate_row(policies, games, threads=1):
    def run(seconds):
        done = 0
        turns = 0
        t0, c0 = time.perf_counter(), time.thread_time()
        while time.perf_counter() - t0 < seconds:
            res = mjfast.simulate(games, policies=policies, seed=done, threads=threads, progress=False)
            turns += res.turns
            done += 1
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        return {"per_s": turns / wall, "per_cpu_s": turns / cpu}
    return run


def decisions_row(games):
    def run(seconds):
        n = 0
        t0, c0 = time.perf_counter(), time.thread_time()
        seed = 0
        while time.perf_counter() - t0 < seconds:
            n += len(decisions(games, policies="greedy", seed=seed, threads=1, progress=False))
            seed += 1
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        return {"per_s": n / wall, "per_cpu_s": n / cpu}
    return run


def aec_row():
    env = MahjongAEC("classical")
    env.reset(seed=1)

    def run(seconds):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
                n += 1
            env.reset()
        return {"per_s": n / (time.perf_counter() - t0)}
    return run


def riichienv_row(encode: bool):
    try:
        from riichienv import RiichiEnv
    except ImportError:
        return None
    import random
    rnd = random.Random(0)
    env = RiichiEnv()

    def run(seconds):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            obs = env.reset()
            while not env.done():
                acts = {}
                for pid, o in obs.items():
                    if encode:
                        o.encode()
                        o.mask()
                    acts[pid] = rnd.choice(o.legal_actions())
                n += len(acts)
                obs = env.step(acts)
        return {"per_s": n / (time.perf_counter() - t0)}
    return run


def main(rounds: int = 5, seconds: float = 2.0) -> None:
    rows = {
        "VecTables self-play, random-legal, 1 thread (decisions/s)": vec_row(4096, 1),
        "VecTables self-play, random-legal, 2 threads (decisions/s)": vec_row(4096, 2),
        "VecTables 1 learner + 3 greedy, 1 thread (learner decisions/s)": vec_row(4096, 1, (0,)),
        "VecTables self-play American, 1 thread (decisions/s)": vec_row(4096, 1, rules="american"),
        "simulate, 4 BatchPolicy random-legal, 1 thread (turns/s)": simulate_row([RandomLegal(i) for i in range(4)],
                                                                                   2000),
        "simulate, 4 Python Policy bots (turns/s)": simulate_row([FirstTile()] * 4, 100),
        "decisions(), greedy teacher, 1 thread (decisions/s)": decisions_row(500),
        "MahjongAEC, one table, Python loop (steps/s)": aec_row(),
    }
    for encode in (False, True):
        r = riichienv_row(encode)
        if r is not None:
            rows[f"riichienv, random legal, Python loop{' + encode() + mask()' if encode else ''} (decisions/s)"] = r
    results: dict = {k: [] for k in rows}
    for run in rows.values():               # warm up
        run(0.2)
    for _ in range(rounds):
        for name, run in rows.items():
            results[name].append(run(seconds))
    print(f"| row ({rounds} rounds of {seconds:g} s, interleaved) | median | best | CPU-time median | step only |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, rs in results.items():
        per = sorted(r["per_s"] for r in rs)
        cpu = sorted(r.get("per_cpu_s", float("nan")) for r in rs)
        step = sorted(r.get("step_only_per_s", float("nan")) for r in rs)
        med = np.median(per)
        print(f"| {name} | {med / 1e6:.3f} M | {per[-1] / 1e6:.3f} M | {np.median(cpu) / 1e6:.3f} M | "
              f"{np.median(step) / 1e6:.3f} M |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, float(sys.argv[2]) if len(sys.argv) > 2 else 2.0)
