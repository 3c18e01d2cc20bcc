"""American beginner hand: batch shanten / is_winning on dealt American hands.

``pytest bench/test_bench_american.py --benchmark-only``. The hands are the dealer's (14
tiles) and South's (13 tiles) hands of ``--bench-hands`` deals (default 1,000,000) from the
152-tile American set (seed 1), as (N, 43) uint8 counts and packed (N, 5) uint32 rows. Each
benchmark records ``extra_info["ns_per_hand"]`` and ``["hands_per_s"]``.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

import mjfast  # noqa: E402
from _timing import record_rate  # noqa: E402
from mjfast._kernels import american_batch as _american_batch  # noqa: E402
from oracles import reference as _reference

_CHUNK = 250_000


@pytest.fixture(scope="session")
def american_hands(bench_sizes):
    """{(tiles, layout): array}: the dealer's 14-tile and South's 13-tile American hands."""
    n = bench_sizes["mjfast"]
    parts = {14: [], 13: []}
    for start in range(0, n, _CHUNK):
        d = mjfast.deal(min(_CHUNK, n - start), rules="american", seed=1, start=start)
        for seat, tiles in ((0, 14), (1, 13)):
            parts[tiles].append(np.concatenate([d.hands[:, seat], d.bonus[:, seat], d.jokers[:, seat, None]],
                                               axis=1))
    out = {}
    for tiles, p in parts.items():
        counts = np.ascontiguousarray(np.concatenate(p))
        out[(tiles, "counts")] = counts
        out[(tiles, "packed")] = mjfast.pack(counts)
    return out


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("layout", ["counts", "packed"])
@pytest.mark.parametrize("tiles", [14, 13])
def test_american_api_shanten(benchmark, american_hands, tiles, layout, threads):
    hands = american_hands[(tiles, layout)]
    benchmark.group = f"american shanten ({tiles} tiles)"
    benchmark.extra_info.update(library="mjfast.shanten", rules="american", layout=layout, threads=threads)
    out = benchmark.pedantic(lambda: mjfast.shanten(hands, rules="american", threads=threads),
                             rounds=15, iterations=1, warmup_rounds=1)
    record_rate(benchmark, len(hands))
    assert out.shape == (len(hands),) and out.min() >= (-1 if tiles == 14 else 0)


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("layout", ["counts", "packed"])
def test_american_api_is_winning(benchmark, american_hands, layout, threads):
    hands = american_hands[(14, layout)]
    benchmark.group = "american is_winning (14 tiles)"
    benchmark.extra_info.update(library="mjfast.is_winning", rules="american", layout=layout, threads=threads)
    out = benchmark.pedantic(lambda: mjfast.is_winning(hands, rules="american", threads=threads),
                             rounds=15, iterations=1, warmup_rounds=1)
    record_rate(benchmark, len(hands))
    assert out.shape == (len(hands),)


@pytest.mark.parametrize("threads", [1, 2], ids=lambda t: f"t{t}")
@pytest.mark.parametrize("layout", ["counts", "packed"])
@pytest.mark.parametrize("what", ["shanten", "is_winning"])
def test_american_kernel(benchmark, american_hands, what, layout, threads):
    """The raw kernels: no validation, output preallocated."""
    hands = american_hands[(14, layout)]
    if what == "shanten":
        out = np.empty(len(hands), np.int8)
        kernel = _american_batch.shanten_counts_batch if layout == "counts" else _american_batch.shanten_packed_batch
    else:
        out = np.empty(len(hands), np.uint8)
        kernel = _american_batch.winning_counts_batch if layout == "counts" else _american_batch.winning_packed_batch
    benchmark.group = f"american kernel {what} (14 tiles)"
    benchmark.extra_info.update(library=f"_american_batch {what}", layout=layout, threads=threads)
    benchmark.pedantic(kernel, args=(hands, out, threads), rounds=15, iterations=1, warmup_rounds=1)
    record_rate(benchmark, len(hands))


def test_american_reference_baseline(benchmark, american_hands):
    """The pure-Python reference on 2,000 hands, its profile cache emptied before each round."""
    hands = american_hands[(14, "counts")][:2000]

    def run():
        _reference._american_profile_distance.cache_clear()
        return [_reference.american_distance(h) for h in hands]

    benchmark.group = "american shanten (14 tiles)"
    benchmark.extra_info.update(library="tests/oracles/reference.py", rules="american", layout="counts", threads=1)
    out = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    record_rate(benchmark, len(hands))
    assert len(out) == len(hands)
