"""Dealing and deal statistics: mjfast vs the plain numpy code a user would write.

``pytest bench/test_bench_deals.py --benchmark-only``. Each benchmark records
``extra_info["ns_per_hand"]`` (per dealt or classified hand) and ``["hands_per_s"]``.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

import mjfast  # noqa: E402
from _numpy_deal import numpy_deal, numpy_dealer_hands  # noqa: E402
from _timing import record_rate  # noqa: E402

N_DEALS = 200_000
N_STATS = 1_000_000


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("rules", ["classical", "mcr", "american"])
def test_deal(benchmark, rules, threads):
    benchmark.group = "deal (4 hands per deal)"
    benchmark.extra_info.update(library="mjfast", rules=rules, threads=threads)
    d = benchmark.pedantic(lambda: mjfast.deal(N_DEALS, rules=rules, seed=1, threads=threads),
                           rounds=7, iterations=1, warmup_rounds=1)
    record_rate(benchmark, 4 * N_DEALS)
    assert d.hands.shape == (N_DEALS, 4, 34)


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
def test_deal_reusing_output(benchmark, threads):
    """deal(..., out=previous): the dealing itself, without fresh pages from the OS."""
    buf = mjfast.deal(N_DEALS, seed=1, threads=threads)
    benchmark.group = "deal (4 hands per deal)"
    benchmark.extra_info.update(library="mjfast", rules="classical", threads=threads, out="reused")
    d = benchmark.pedantic(lambda: mjfast.deal(N_DEALS, seed=1, threads=threads, out=buf),
                           rounds=7, iterations=1, warmup_rounds=1)
    record_rate(benchmark, 4 * N_DEALS)
    assert d.hands is buf.hands


def test_deal_numpy_baseline(benchmark):
    benchmark.group = "deal (4 hands per deal)"
    benchmark.extra_info.update(library="numpy", rules="classical", threads=1)
    out = benchmark.pedantic(lambda: numpy_deal(N_DEALS // 4, seed=1), rounds=5, iterations=1, warmup_rounds=1)
    record_rate(benchmark, N_DEALS)
    assert out.shape == (N_DEALS // 4, 4, 34)


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("forms", ["classical", "all3"])
def test_deal_stats(benchmark, forms, threads):
    """Deal + classify East (14) and South (13): 2 classified hands per deal."""
    kw = {} if forms == "classical" else {"forms": ("standard", "seven_pairs", "thirteen_orphans")}
    mjfast.deal_stats(1000, progress=False, **kw)
    benchmark.group = "deal + shanten classification"
    benchmark.extra_info.update(library="mjfast", forms=forms, threads=threads)
    st = benchmark.pedantic(lambda: mjfast.deal_stats(N_STATS, seed=1, threads=threads, progress=False, **kw),
                            rounds=5, iterations=1, warmup_rounds=1)
    record_rate(benchmark, 2 * N_STATS)
    assert st.n == N_STATS


def test_deal_stats_numpy_baseline(benchmark):
    """numpy dealing + mjfast.shanten on the batch: what a user would do without deal_stats."""
    n = N_STATS // 10
    benchmark.group = "deal + shanten classification"
    benchmark.extra_info.update(library="numpy+mjfast.shanten", forms="all3", threads=1)

    def run():
        hands = numpy_dealer_hands(n, seed=1)
        return np.bincount(mjfast.shanten(hands, threads=1) + 1, minlength=16)

    out = benchmark.pedantic(run, rounds=5, iterations=1, warmup_rounds=1)
    record_rate(benchmark, n)
    assert out.sum() == n
