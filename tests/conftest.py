"""Shared helpers for the test suite: seeded random hands, complete hands, near-complete hands;
the slow tier's per-test time limit."""
from __future__ import annotations

import numpy as np
import pytest

SIZES = [1, 2, 4, 5, 7, 8, 10, 11, 13, 14]
RULES = [None, "classical", "mcr"]
FORMS = ["standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"]


def random_hands(n: int, size: int, seed: int, suits: str = "mpsz") -> np.ndarray:
    from mjfast.hands._random import random_hands as gen

    return gen(n, size, seed=seed, suits=suits)


def _sets():
    """All sets as lists of kinds: 21 chows + 34 pungs."""
    out = [[k] * 3 for k in range(34)]
    out += [[9 * s + r, 9 * s + r + 1, 9 * s + r + 2] for s in range(3) for r in range(7)]
    return out


SETS = _sets()


def complete_hands(n: int, size: int, seed: int) -> np.ndarray:
    """``n`` random complete standard hands of ``size`` (3k+2) tiles, four-copy valid."""
    rng = np.random.default_rng(seed)
    k = size // 3
    out = np.zeros((n, 34), dtype=np.uint8)
    i = 0
    while i < n:
        c = np.zeros(34, dtype=np.int64)
        c[rng.integers(34)] += 2
        for _ in range(k):
            for t in SETS[rng.integers(len(SETS))]:
                c[t] += 1
        if c.max() <= 4:
            out[i] = c
            i += 1
    return out


def perturb(hands: np.ndarray, seed: int, swaps: int = 1) -> np.ndarray:
    """Replace ``swaps`` random tiles of each hand with random other kinds (four-copy valid)."""
    rng = np.random.default_rng(seed)
    out = hands.astype(np.int64).copy()
    for row in out:
        for _ in range(swaps):
            held = np.flatnonzero(row)
            row[held[rng.integers(len(held))]] -= 1
            free = np.flatnonzero(row < 4)
            row[free[rng.integers(len(free))]] += 1
    return out.astype(np.uint8)


@pytest.fixture(scope="session")
def ref():
    from oracles import reference as _reference

    return _reference


# pytest-timeout's default limit (pyproject: 300 s) is for the default tier; a slow test gets
# this one unless it names its own with @pytest.mark.timeout(seconds).
SLOW_TIER_TIMEOUT = 1800


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(SLOW_TIER_TIMEOUT))


def pytest_addoption(parser, pluginmanager):
    if not pluginmanager.hasplugin("timeout"):  # pyproject's settings for it, read without warnings
        parser.addini("timeout", "per-test time limit (pytest-timeout, not installed)")
        parser.addini("timeout_method", "how pytest-timeout ends a test (not installed)")


def pytest_report_header(config):
    if not config.pluginmanager.hasplugin("timeout"):
        return "pytest-timeout is not installed: no per-test time limit (pip install -e \".[test]\")"
    return None
