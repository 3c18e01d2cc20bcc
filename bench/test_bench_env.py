"""Environment throughput: VecTables stepping, BatchPolicy simulate, teacher data.

``pytest bench/test_bench_env.py --benchmark-only``. extra_info records decisions_per_s (or
turns_per_s) from the median round. ``python bench/env_timing.py`` gives interleaved medians
with riichienv and the per-decision Policy in the same run (the figures in bench/README.md).
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

import mjfast  # noqa: E402
from mjfast.env import VecTables, decisions  # noqa: E402

N_TABLES = 4096
STEPS = 50


def _record(benchmark, key, count):
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info[key] = round(count / stats.stats.median)


def _random_legal(rng):
    def act(mask):
        r = rng.integers(1, 256, size=mask.shape, dtype=np.uint8)
        r *= mask
        return r.argmax(axis=1)
    return act


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("rules", ["classical", "mcr", "american"])
def test_vectables_self_play(benchmark, rules, threads):
    env = VecTables(N_TABLES, rules=rules, seed=1, threads=threads)
    state = {"obs": env.reset()[0]}
    pick = _random_legal(np.random.default_rng(0))

    def run():
        obs = state["obs"]
        for _ in range(STEPS):
            obs, *_ = env.step(pick(obs["action_mask"]))
        state["obs"] = obs

    benchmark.group = "VecTables self-play, random-legal policy"
    benchmark.extra_info.update(rules=rules, threads=threads, tables=N_TABLES)
    benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    _record(benchmark, "decisions_per_s", N_TABLES * STEPS)


class _RandomLegal(mjfast.BatchPolicy):
    name = "random-legal"

    def __init__(self, seed):
        self.pick = _random_legal(np.random.default_rng(seed))

    def act(self, observation, action_mask, seat):
        return self.pick(action_mask)


def test_simulate_batch_policies(benchmark):
    pols = [_RandomLegal(i) for i in range(4)]
    benchmark.group = "simulate, four BatchPolicy bots"
    res = benchmark.pedantic(lambda: mjfast.simulate(2000, policies=pols, seed=1, threads=1, progress=False),
                             rounds=3, iterations=1, warmup_rounds=1)
    _record(benchmark, "turns_per_s", res.turns)
    assert res.games == 2000


def test_decisions_greedy(benchmark):
    benchmark.group = "decisions(), greedy teacher"
    d = benchmark.pedantic(lambda: decisions(500, policies="greedy", seed=1, threads=1, progress=False),
                           rounds=3, iterations=1, warmup_rounds=1)
    _record(benchmark, "decisions_per_s", len(d))
    assert len(d) > 0
