"""Shanten / winning-check throughput: mjfast (public API and raw kernels) vs competitors.

Run with ``pytest bench --benchmark-only`` (add ``-k kernel`` or ``-k xiangting`` etc. to pick
a subset, ``--bench-hands 100000`` for a quick run). Every benchmark stores
``extra_info["ns_per_hand"]`` and ``extra_info["hands_per_s"]`` computed from its median round;
``--benchmark-json out.json`` keeps them.

Groups (``benchmark.group``) are "<hand set> <what>/<form>", so each printed table compares
the variants that did the same work.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

import mjfast  # noqa: E402
from _competitors import load_mahjong, load_xiangting  # noqa: E402
from _timing import record_rate  # noqa: E402

ROUNDS = 15
FORM_BITS = {"standard": 1, "all": 7}  # all = standard | seven pairs | thirteen orphans

SETS = ("random14", "random13", "flush14")
SETS_14 = ("random14", "flush14")  # is_winning on 13-tile hands is always False: not timed
FORMS = ("standard", "all")
LAYOUTS = ("counts", "packed")
THREADS = (1, 2)


def _run(benchmark, fn, n_hands, rounds=ROUNDS):
    result = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
    record_rate(benchmark, n_hands)
    return result


def _check_shanten(out, n):
    assert out.shape == (n,) and out.dtype == np.int8
    assert -1 <= int(out.min()) and int(out.max()) <= 8


# ---------------------------------------------------------------------------------------------
# mjfast public batch API (validation + kernel)

@pytest.mark.parametrize("threads", THREADS, ids=lambda t: f"t{t}")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("set_name", SETS)
def test_api_shanten(benchmark, hand_sets, set_name, form, layout, threads):
    hs = hand_sets[set_name]
    data = hs.data(layout)
    benchmark.group = f"{set_name} shanten/{form}"
    benchmark.extra_info.update(library="mjfast", api="mjfast.shanten", form=form, layout=layout,
                                threads=threads, hand_set=set_name)
    out = _run(benchmark, lambda: mjfast.shanten(data, form=form, threads=threads), len(hs))
    _check_shanten(out, len(hs))


@pytest.mark.parametrize("threads", THREADS, ids=lambda t: f"t{t}")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("set_name", SETS_14)
def test_api_is_winning(benchmark, hand_sets, set_name, form, layout, threads):
    hs = hand_sets[set_name]
    data = hs.data(layout)
    benchmark.group = f"{set_name} is_winning/{form}"
    benchmark.extra_info.update(library="mjfast", api="mjfast.is_winning", form=form, layout=layout,
                                threads=threads, hand_set=set_name)
    out = _run(benchmark, lambda: mjfast.is_winning(data, form=form, threads=threads), len(hs))
    assert out.shape == (len(hs),) and out.dtype == np.bool_


# ---------------------------------------------------------------------------------------------
# mjfast raw kernels (no validation, output preallocated)

@pytest.mark.parametrize("threads", THREADS, ids=lambda t: f"t{t}")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("set_name", SETS)
def test_kernel_shanten(benchmark, core, hand_sets, set_name, form, layout, threads):
    hs = hand_sets[set_name]
    data = hs.data(layout)
    kernel = core.shanten_counts_batch if layout == "counts" else core.shanten_packed_batch
    bits = FORM_BITS[form]
    out = np.empty(len(hs), dtype=np.int8)
    benchmark.group = f"{set_name} shanten/{form}"
    benchmark.extra_info.update(library="mjfast", api=f"_core.{kernel.__name__}", form=form,
                                layout=layout, threads=threads, hand_set=set_name)
    _run(benchmark, lambda: kernel(data, bits, out, threads), len(hs))
    _check_shanten(out, len(hs))


@pytest.mark.parametrize("threads", THREADS, ids=lambda t: f"t{t}")
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("set_name", SETS_14)
def test_kernel_is_winning(benchmark, core, hand_sets, set_name, form, layout, threads):
    hs = hand_sets[set_name]
    data = hs.data(layout)
    kernel = core.winning_counts_batch if layout == "counts" else core.winning_packed_batch
    bits = FORM_BITS[form]
    out = np.empty(len(hs), dtype=np.uint8)
    benchmark.group = f"{set_name} is_winning/{form}"
    benchmark.extra_info.update(library="mjfast", api=f"_core.{kernel.__name__}", form=form,
                                layout=layout, threads=threads, hand_set=set_name)
    _run(benchmark, lambda: kernel(data, bits, out, threads), len(hs))
    assert int(out.max()) <= 1


# ---------------------------------------------------------------------------------------------
# Competitors, on the first hands of the same sets

def _prepared(competitor_inputs, comp, hs, n):
    key = (comp.name, hs.name, n)
    if key not in competitor_inputs:
        competitor_inputs[key] = comp.prepare(hs.counts[:n])
    return competitor_inputs[key]


def _competitor_bench(benchmark, hand_sets, competitor_inputs, comp, set_name, form, n, rounds):
    hs = hand_sets[set_name]
    n = min(n, len(hs))
    prepared = _prepared(competitor_inputs, comp, hs, n)
    run = comp.forms[form]
    benchmark.group = f"{set_name} shanten/{form}"
    benchmark.extra_info.update(library=f"{comp.name} {comp.version}", api=comp.input_note, form=form,
                                layout="per-hand", threads=1, hand_set=set_name)
    out = _run(benchmark, lambda: run(prepared), n, rounds=rounds)
    ours = mjfast.shanten(hs.counts[:n], form=form, threads=1)
    mismatches = int((out != ours).sum())
    benchmark.extra_info["disagreements_with_mjfast"] = mismatches


@pytest.mark.parametrize("set_name", SETS)
def test_xiangting_shanten_all(benchmark, hand_sets, competitor_inputs, bench_sizes, set_name):
    comp = load_xiangting()
    if comp is None:
        pytest.skip("xiangting is not installed (pip install -e '.[bench]')")
    _competitor_bench(benchmark, hand_sets, competitor_inputs, comp, set_name, "all",
                      bench_sizes["competitor"], ROUNDS)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("set_name", SETS)
def test_mahjong_shanten(benchmark, hand_sets, competitor_inputs, bench_sizes, set_name, form):
    comp = load_mahjong()
    if comp is None:
        pytest.skip("mahjong is not installed (pip install -e '.[bench]')")
    _competitor_bench(benchmark, hand_sets, competitor_inputs, comp, set_name, form,
                      bench_sizes["mahjong"], 5)
