"""One-hand analysis and win-by-turn odds.

``pytest bench/test_bench_analysis.py --benchmark-only``. Targets: ``mjfast.analyze`` well under
a millisecond per hand; the exact win-by-turn table of a 1-shanten hand over 18 draws under a
second. ``extra_info["us_per_call"]`` holds the median in microseconds.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

import mjfast  # noqa: E402

HANDS = {
    "13 tiles, 1-shanten": "12m456p789s11z34p5z",
    "14 tiles, 3-shanten": "13m25p469s12344z56z",
    "14 tiles, tenpai": "123m456p789s11223z",
    "11 tiles + called set": "123m45p11z4z [555z]",
}
ONE_SHANTEN = ["12m456p789s11z34p5z", "2346m336789p456s", "13m456p789s11z34p6z"]
TWO_SHANTEN = ["13m456p78s11z34p56z", "566788m68p4s3334z"]


def _us(benchmark):
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["us_per_call"] = round(stats.stats.median * 1e6, 1)


@pytest.mark.parametrize("label", list(HANDS))
def test_analyze_one_hand(benchmark, label):
    hand = HANDS[label]
    mjfast.analyze(hand)  # tables built outside the timing
    benchmark.group = "analyze (one hand)"
    benchmark.extra_info.update(hand=hand)
    res = benchmark.pedantic(lambda: mjfast.analyze(hand, visible="1z9m"), rounds=200, iterations=5, warmup_rounds=5)
    _us(benchmark)
    assert res.shanten >= -1


@pytest.mark.parametrize("hand", ONE_SHANTEN + TWO_SHANTEN)
def test_exact_win_by_turn_18_draws(benchmark, hand):
    mjfast.analyze(hand)
    benchmark.group = "exact win-by-turn, 18 draws"
    benchmark.extra_info.update(hand=hand, shanten=mjfast.shanten(hand, rules="classical"))
    res = benchmark.pedantic(lambda: mjfast.win_by_turn(hand, draws=18, method="exact"), rounds=20, iterations=1,
                             warmup_rounds=1)
    _us(benchmark)
    assert res.method == "exact" and 0 < res.win_p[-1] < 1


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("policy", ["greedy", "greedy_swap"])
def test_monte_carlo_win_by_turn(benchmark, threads, policy):
    hand = ONE_SHANTEN[0]
    benchmark.group = "Monte Carlo win-by-turn, 1-shanten, 18 draws, 100,000 samples"
    benchmark.extra_info.update(hand=hand, threads=threads, policy=policy)
    res = benchmark.pedantic(lambda: mjfast.win_by_turn(hand, draws=18, method="monte_carlo", samples=100_000, seed=1,
                                                        threads=threads, policy=policy, progress=False),
                             rounds=5, iterations=1, warmup_rounds=1)
    _us(benchmark)
    assert res.samples == 100_000
