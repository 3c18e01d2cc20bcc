"""Fixtures for the mjfast benchmark suite (run on purpose: ``pytest bench --benchmark-only``).

The hand sets are generated once per session with fixed seeds (see ``_hands.HAND_SETS``):
``--bench-hands`` hands each (default 1,000,000) of uniform 14-tile hands, uniform 13-tile
hands and one-suit 14-tile hands, each also in the packed (N, 4) uint32 layout.
Competitors run on the first ``--bench-competitor-hands`` of the same hands (default 200,000)
and the pure-Python ``mahjong`` package on the first ``--bench-mahjong-hands`` (default 2,000).
The MCR fan sets (``_mcr.MCR_SETS``) hold ``--bench-mcr-hands`` hands each (default 20,000).
"""
from __future__ import annotations

import os
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
for _path in (_HERE, os.path.join(os.path.dirname(_HERE), "tests")):   # bench helpers; tests/oracles
    if _path not in sys.path:
        sys.path.insert(0, _path)
try:  # an installed mjfast wins; otherwise use the in-place build in ../src
    import mjfast  # noqa: F401
except ImportError:  # pragma: no cover - depends on how the package was set up
    sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "src"))
    import mjfast  # noqa: F401

from _hands import HAND_SETS, make_hands, make_packed  # noqa: E402


def pytest_addoption(parser):
    group = parser.getgroup("mjfast-bench")
    group.addoption("--bench-hands", type=int, default=1_000_000,
                    help="hands per set for the mjfast benchmarks (default 1,000,000)")
    group.addoption("--bench-competitor-hands", type=int, default=200_000,
                    help="hands per set for xiangting (default 200,000)")
    group.addoption("--bench-mahjong-hands", type=int, default=2_000,
                    help="hands per set for the pure-Python mahjong package (default 2,000)")
    group.addoption("--bench-mcr-hands", type=int, default=20_000,
                    help="hands per MCR fan set, for mjfast and PyMahjongGB alike (default 20,000)")


class HandSet:
    """One fixed-seed hand set: counts (N, 34) uint8 and packed (N, 4) uint32."""

    def __init__(self, name: str, n: int):
        self.name = name
        self.counts = make_hands(name, n)
        self.packed = make_packed(self.counts)

    def __len__(self) -> int:
        return len(self.counts)

    def data(self, layout: str):
        return self.counts if layout == "counts" else self.packed


@pytest.fixture(scope="session")
def bench_sizes(request):
    opt = request.config.getoption
    return {
        "mjfast": opt("--bench-hands"),
        "competitor": opt("--bench-competitor-hands"),
        "mahjong": opt("--bench-mahjong-hands"),
        "mcr": opt("--bench-mcr-hands"),
    }


@pytest.fixture(scope="session")
def core():
    """``mjfast._core`` with its lookup tables built (so no benchmark pays for them)."""
    from mjfast import _core

    _core.ensure_tables()
    return _core


@pytest.fixture(scope="session")
def hand_sets(bench_sizes, core):
    """Lazily built dict name -> HandSet (a set is generated the first time it is asked for)."""

    class _Lazy(dict):
        def __missing__(self, name):
            if name not in HAND_SETS:
                raise KeyError(name)
            self[name] = HandSet(name, bench_sizes["mjfast"])
            return self[name]

    return _Lazy()


@pytest.fixture(scope="session")
def hands_random14(hand_sets):
    return hand_sets["random14"]


@pytest.fixture(scope="session")
def hands_random13(hand_sets):
    return hand_sets["random13"]


@pytest.fixture(scope="session")
def hands_flush14(hand_sets):
    return hand_sets["flush14"]


@pytest.fixture(scope="session")
def mcr_hand_sets(bench_sizes):
    """Lazily built dict name -> _mcr.McrHands (the MCR fan sets of _mcr.MCR_SETS)."""
    from _mcr import MCR_SETS, make_mcr_hands

    class _Lazy(dict):
        def __missing__(self, name):
            if name not in MCR_SETS:
                raise KeyError(name)
            self[name] = make_mcr_hands(name, bench_sizes["mcr"])
            return self[name]

    return _Lazy()


@pytest.fixture(scope="session")
def competitor_inputs():
    """Lazily built dict (competitor name, hand set name, n) -> prepared per-hand inputs."""
    return {}



@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Print ns/hand per benchmark (the raw pytest-benchmark tables are per *call*, and the
    competitors run on fewer hands than mjfast, so only this table compares libraries)."""
    session = getattr(config, "_benchmarksession", None)
    benchmarks = [b for b in getattr(session, "benchmarks", []) or [] if getattr(b, "extra_info", None)]
    rows = [b for b in benchmarks if "ns_per_hand" in b.extra_info]
    if not rows:
        return
    tr = terminalreporter
    tr.write_sep("-", "mjfast bench: ns per hand (median round; lower is better)")
    by_group = {}
    for b in rows:
        by_group.setdefault(b.group or "", []).append(b)
    for group in sorted(by_group):
        tr.write_line(f"{group}:")
        members = sorted(by_group[group], key=lambda b: b.extra_info["ns_per_hand"])
        best = members[0].extra_info["ns_per_hand"] or 1e-9
        for b in members:
            info = b.extra_info
            tr.write_line(f"  {b.name:<58} {info['ns_per_hand']:>12,.1f} ns/hand  "
                          f"{info['n_hands']:>9,} hands  x{info['ns_per_hand'] / best:,.2f}")
