"""American play throughput: greedy/random four-bot games (turns/s), built-in vs a Python bot.

``pytest bench/test_bench_amgame.py --benchmark-only``; or ``python bench/test_bench_amgame.py``
for a quick table that times one thread in CPU time (``time.thread_time``, which other jobs on
a busy machine barely disturb) and two threads in wall time. A turn = a draw or a call, the
decisions that follow (Mahjong check, joker exchanges) and a discard; the Charleston is
included in the time but not counted as turns.
"""
from __future__ import annotations

import sys

import pytest

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
@pytest.mark.parametrize("policy", ["greedy", "random"])
@pytest.mark.parametrize("options", ["default", "first_charleston_only"])
def test_simulate_american(benchmark, policy, threads, options):
    pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")
    opts = {} if options == "default" else dict(second_charleston=False, courtesy=False)
    mjfast.simulate(10, rules="american", progress=False)
    benchmark.group = "simulate american"
    benchmark.extra_info.update(rules="american", policy=policy, threads=threads, options=options)
    res = benchmark.pedantic(lambda: mjfast.simulate(N_GAMES, rules="american", policies=policy, seed=1,
                                                     threads=threads, progress=False, **opts),
                             rounds=5, iterations=1, warmup_rounds=1)
    _record(benchmark, res)
    assert res.games == N_GAMES


class _FirstTile(mjfast.AmericanPolicy):
    """A trivial Python bot: discards its lowest tile (measures the Python-callback cost)."""

    name = "python-first-tile"

    def discard(self, view):
        for k in range(36):
            if view.hand[k]:
                return k


def test_simulate_american_python_policy(benchmark):
    pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")
    benchmark.group = "simulate american"
    benchmark.extra_info.update(rules="american", policy="python + 3 greedy", threads=1)
    res = benchmark.pedantic(lambda: mjfast.simulate(100, rules="american",
                                                     policies=[_FirstTile(), "greedy", "greedy", "greedy"],
                                                     seed=1, progress=False),
                             rounds=3, iterations=1, warmup_rounds=1)
    _record(benchmark, res)
    assert res.games == 100


def _table(repeats: int = 7) -> None:
    import os
    sys.path.insert(0, os.path.dirname(__file__))
    from _timing import median, repeat_timing

    rows = [("greedy", {}), ("greedy", dict(second_charleston=False, courtesy=False)), ("random", {})]
    print("| policy, options | 1 thread (CPU time): turns/s | hands/s | 2 threads (wall): turns/s |")
    print("| --- | ---: | ---: | ---: |")
    for pol, opts in rows:
        res = mjfast.simulate(N_GAMES, rules="american", policies=pol, seed=1, threads=1, progress=False, **opts)
        t1 = median(repeat_timing(lambda: mjfast.simulate(N_GAMES, rules="american", policies=pol, seed=1,
                                                          threads=1, progress=False, **opts), repeats, cpu=True))
        t2 = median(repeat_timing(lambda: mjfast.simulate(N_GAMES, rules="american", policies=pol, seed=1,
                                                          threads=2, progress=False, **opts), repeats, cpu=False))
        label = pol + (", first Charleston only" if opts else ", default rules")
        print(f"| {label} | {res.turns / t1 / 1e6:.2f} M | {res.hands / t1:,.0f} | {res.turns / t2 / 1e6:.2f} M |")


if __name__ == "__main__":
    _table(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
