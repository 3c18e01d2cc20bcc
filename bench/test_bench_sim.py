"""Game simulation throughput: greedy four-bot play (turns/s, hands/s), built-in vs Python policies.

``pytest bench/test_bench_sim.py --benchmark-only``. A turn = a draw or claim, a decision and a
discard. extra_info records games_per_s, hands_per_s and turns_per_s from the median round.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

import mjfast  # noqa: E402

N_GAMES = 4000


def _record(benchmark, res):
    stats = getattr(benchmark, "stats", None)
    if stats is None:
        return
    med = stats.stats.median
    benchmark.extra_info.update(games_per_s=round(res.games / med), hands_per_s=round(res.hands / med),
                                turns_per_s=round(res.turns / med), ns_per_turn=round(med / res.turns * 1e9, 1))


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("policy", ["greedy", "defensive", "random"])
@pytest.mark.parametrize("rules", ["classical", "basic", "mcr"])
def test_simulate(benchmark, rules, policy, threads):
    mjfast.simulate(10, rules=rules, progress=False)
    benchmark.group = f"simulate {rules}"
    benchmark.extra_info.update(rules=rules, policy=policy, threads=threads)
    res = benchmark.pedantic(lambda: mjfast.simulate(N_GAMES, rules=rules, policies=policy, seed=1,
                                                     threads=threads, progress=False),
                             rounds=5, iterations=1, warmup_rounds=1)
    _record(benchmark, res)
    assert res.games == N_GAMES


@pytest.mark.parametrize("policy", ["greedy", "defensive", "greedy_blind"])
def test_simulate_mcr_fans(benchmark, policy):
    """Chinese Official four-bot play with fan scoring (the target: 0.5 M turns/s per
    thread with the fan-aware bots); greedy_blind is the fan-blind baseline."""
    mjfast.simulate(10, rules="mcr", progress=False)
    benchmark.group = "simulate mcr fans"
    benchmark.extra_info.update(rules="mcr", policy=policy, threads=1)
    res = benchmark.pedantic(lambda: mjfast.simulate(N_GAMES // 2, rules="mcr", policies=policy, seed=1, threads=1,
                                                     progress=False),
                             rounds=5, iterations=1, warmup_rounds=1)
    _record(benchmark, res)
    assert res.fans is not None


class _FirstTile(mjfast.Policy):
    """A trivial Python bot: discards its lowest tile (measures the Python-callback cost)."""

    name = "python-first-tile"

    def discard(self, view):
        for k in range(34):
            if view.hand[k]:
                return k


def test_simulate_python_policy(benchmark):
    benchmark.group = "simulate classical"
    benchmark.extra_info.update(rules="classical", policy="python + 3 greedy", threads=1)
    res = benchmark.pedantic(lambda: mjfast.simulate(200, policies=[_FirstTile(), "greedy", "greedy", "greedy"],
                                                     seed=1, progress=False),
                             rounds=3, iterations=1, warmup_rounds=1)
    _record(benchmark, res)
    assert res.games == 200
