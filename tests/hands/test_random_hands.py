"""hands._random.random_hands: the compiled dealer -- uniform, reproducible,
independent of threads, checked arguments."""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mjfast.hands._random import random_hands


def test_shape_sizes_and_suits():
    for size in (0, 1, 13, 14):
        h = random_hands(500, size, seed=size)
        assert h.shape == (500, 34) and h.dtype == np.uint8 and (h.sum(axis=1) == size).all() and h.max() <= 4
    flush = random_hands(2000, 14, seed=1, suits="p")
    assert (flush[:, 9:18].sum(axis=1) == 14).all()
    h = random_hands(2000, 36, seed=1, suits="m")        # the whole flush wall
    assert (h[:, :9] == 4).all()
    assert random_hands(0, 14, seed=1).shape == (0, 34)


def test_reproducible_and_independent_of_threads():
    a = random_hands(50_000, 14, seed=7, threads=1)
    b = random_hands(50_000, 14, seed=7, threads=2)
    c = random_hands(50_000, 14, seed=np.random.SeedSequence(7))
    assert np.array_equal(a, b) and np.array_equal(a, c)
    assert np.array_equal(random_hands(10, 14, seed=7), a[:10])      # hand i depends on (seed, i) only
    assert not np.array_equal(a, random_hands(50_000, 14, seed=8))
    g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
    assert np.array_equal(random_hands(100, 5, seed=g1), random_hands(100, 5, seed=g2))


def test_two_tiles_are_exactly_uniform():
    """Two tiles from the 28 honors: every pair of kinds with its exact probability (chi-square,
    99.99 % quantile of 27 degrees of freedom)."""
    n = 200_000
    h = random_hands(n, 2, seed=11, suits="z")[:, 27:]
    observed = {}
    for row in h:
        key = tuple(np.repeat(np.arange(7), row))
        observed[key] = observed.get(key, 0) + 1
    pairs = math.comb(28, 2)
    expected = {(a, a): n * math.comb(4, 2) / pairs for a in range(7)}
    expected.update({(a, b): n * 16 / pairs for a, b in itertools.combinations(range(7), 2)})
    assert set(observed) == set(expected)
    chi2 = sum((observed[k] - e) ** 2 / e for k, e in expected.items())
    assert chi2 < 66.0, chi2


def test_counts_per_kind_match_the_hypergeometric_law():
    """Copies of one kind in 14 tiles from 136: the exact hypergeometric probabilities."""
    n = 200_000
    h = random_hands(n, 14, seed=12)
    for kind in (0, 13, 33):
        got = np.bincount(h[:, kind], minlength=5)
        p = np.array([math.comb(4, k) * math.comb(132, 14 - k) / math.comb(136, 14) for k in range(5)])
        exp = n * p
        keep = exp > 5
        chi2 = float((((got - exp) ** 2) / exp)[keep].sum())
        assert chi2 < 25.0, (kind, got, exp)


@pytest.mark.parametrize("args,err", [
    ((-1, 14), ValueError), ((2.5, 14), TypeError), ((5, 137), ValueError), ((5, 37, "m"), ValueError),
    ((5, 14, "x"), ValueError), ((5, 14, "mm"), ValueError), ((5, 14, ""), ValueError), ((5, -2), ValueError),
])
def test_bad_arguments(args, err):
    kw = {"suits": args[2]} if len(args) > 2 else {}
    with pytest.raises(err):
        random_hands(args[0], args[1], seed=1, **kw)
