"""MCR fan calculation: mjfast (raw kernel, ``mcr.fan_batch``, ``mcr.fan``) against PyMahjongGB 1.4.0,
on the same hands.

Run with ``pytest bench --benchmark-only -k mcr`` (``--bench-mcr-hands 5000`` for a quick run). The
hand sets (``_mcr.MCR_SETS``: concealed, melded, seven_pairs, knitted) are wins made by the seeded
generators of the fan tests. Every row runs on one thread and stores ``extra_info["ns_per_hand"]``
from its median round; a group is one hand set, so the summary table at the end compares the rows
per hand. The reference rows check that PyMahjongGB's totals equal mjfast's on every hand.

Rows per set:

- ``kernel``: ``mjfast._kernels.mcr_fan.fan_batch`` on prebuilt row arrays, outputs allocated once;
- ``api_batch``: ``mjfast.mcr.fan_batch`` (validation, new output arrays, the kernel);
- ``api_call``: ``mjfast.mcr.fan`` once per hand (counts array and set tuples prebuilt);
- ``pymahjonggb``: ``MahjongGB.MahjongFanCalculator`` once per hand, arguments prebuilt as tuples
  (skipped when PyMahjongGB is not installed: ``pip install pymahjonggb==1.4.0``).
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pytest_benchmark", reason="pip install -e '.[bench]' (pytest-benchmark)")

from _mcr import (  # noqa: E402
    MCR_SETS,
    api_batch_runner,
    api_call_runner,
    kernel_runner,
    load_mahjonggb,
    reference_runner,
    reference_totals,
)
from _timing import record_rate  # noqa: E402

SETS = tuple(MCR_SETS)
ROUNDS = {"kernel": 25, "api_batch": 15, "api_call": 5, "pymahjonggb": 5}


def _run(benchmark, fn, n_hands, rounds):
    result = benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
    record_rate(benchmark, n_hands)
    return result


def _setup(benchmark, mcr_hand_sets, set_name, row, **info):
    hs = mcr_hand_sets[set_name]
    benchmark.group = f"mcr fan {set_name}"
    benchmark.extra_info.update(row=row, threads=1, hand_set=set_name, **info)
    return hs


@pytest.mark.parametrize("set_name", SETS)
def test_mcr_kernel(benchmark, mcr_hand_sets, set_name):
    hs = _setup(benchmark, mcr_hand_sets, set_name, "kernel", library="mjfast", api="_kernels.mcr_fan.fan_batch")
    total = _run(benchmark, kernel_runner(hs), len(hs), ROUNDS["kernel"])
    assert (total > 0).all()


@pytest.mark.parametrize("set_name", SETS)
def test_mcr_api_batch(benchmark, mcr_hand_sets, set_name):
    hs = _setup(benchmark, mcr_hand_sets, set_name, "api_batch", library="mjfast", api="mjfast.mcr.fan_batch")
    total = _run(benchmark, api_batch_runner(hs), len(hs), ROUNDS["api_batch"])
    np.testing.assert_array_equal(total, kernel_runner(hs)())


@pytest.mark.parametrize("set_name", SETS)
def test_mcr_api_call(benchmark, mcr_hand_sets, set_name):
    hs = _setup(benchmark, mcr_hand_sets, set_name, "api_call", library="mjfast", api="mjfast.mcr.fan per call")
    total = _run(benchmark, api_call_runner(hs), len(hs), ROUNDS["api_call"])
    np.testing.assert_array_equal(total, kernel_runner(hs)())


@pytest.mark.parametrize("set_name", SETS)
def test_mcr_pymahjonggb_call(benchmark, mcr_hand_sets, set_name):
    ref = load_mahjonggb()
    if ref is None:
        pytest.skip("PyMahjongGB is not installed (pip install pymahjonggb==1.4.0)")
    calculator, version = ref
    hs = _setup(benchmark, mcr_hand_sets, set_name, "pymahjonggb", library=f"pymahjonggb {version}",
                api="MahjongGB.MahjongFanCalculator per call (tuples prebuilt)")
    _run(benchmark, reference_runner(hs, calculator), len(hs), ROUNDS["pymahjonggb"])
    disagreements = int((reference_totals(hs, calculator) != kernel_runner(hs)()).sum())
    benchmark.extra_info["disagreements_with_mjfast"] = disagreements
    assert disagreements == 0
