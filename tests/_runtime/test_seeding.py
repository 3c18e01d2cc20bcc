"""Seeds: every seed numpy accepts works at every random entry point, equivalent seeds give
identical results, and the seed written into results and logs repeats the run."""
from __future__ import annotations

import json

import numpy as np
import pytest

import mjfast
from mjfast._runtime.seeding import root_key, seed_to_json

SEEDS = [
    5,
    np.uint32(5),
    [1, 2],
    (1, 2),
    np.array([1, 2], dtype=np.uint64),
    np.random.SeedSequence([1, 2]),
    np.random.SeedSequence(9, spawn_key=(3,)),
    np.random.SeedSequence(9).spawn(2)[1],
]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_every_numpy_seed_works_everywhere(seed):
    """deal(5, seed=SeedSequence([1, 2])) raised an internal TypeError (int() of a list)."""
    d = mjfast.deal(5, seed=seed)
    assert d.hands.shape == (5, 4, 34)
    assert mjfast.deal_stats(200, seed=seed, progress=False).n == 200
    r = mjfast.simulate(4, seed=seed, progress=False)
    json.dumps(r.to_dict())                              # the seed is JSON-ready
    log = mjfast.replay(seed, 1)
    assert mjfast.rerun(log.to_jsonl()).events == log.events
    again = mjfast.replay(log.header["seed"], 1)        # the logged seed repeats the game
    assert again.events == log.events
    assert mjfast.simulate(4, seed=r.seeds[0], progress=False).to_dict() == r.to_dict()
    mjfast.win_by_turn("123m456p789s1123z", draws=4, samples=200, seed=seed, method="monte_carlo", progress=False)
    mjfast.simulate(2, rules="american", seed=seed, progress=False)


def test_equivalent_seeds_give_the_same_stream():
    base = mjfast.deal(20, seed=np.random.SeedSequence([1, 2]))
    for seed in ([1, 2], (1, 2), np.array([1, 2]), {"entropy": [1, 2], "spawn_key": []}):
        assert np.array_equal(mjfast.deal(20, seed=seed).hands, base.hands)
    assert np.array_equal(mjfast.deal(20, seed=np.random.SeedSequence(7)).hands, mjfast.deal(20, seed=7).hands)
    assert not np.array_equal(mjfast.deal(20, seed=[1, 3]).hands, base.hands)
    child = np.random.SeedSequence(9).spawn(2)[1]
    assert root_key(seed_to_json(child)) == root_key(child)


def test_generators_and_bit_generators():
    a = mjfast.deal(10, seed=np.random.default_rng(4))
    b = mjfast.deal(10, seed=np.random.PCG64(4))            # default_rng(PCG64(4)) is that Generator
    assert np.array_equal(a.hands, b.hands)
    assert a.seed is None                                    # a Generator's state moves on


@pytest.mark.parametrize("bad, kind, match", [
    (-1, ValueError, "non-negative"),
    ([1, -2], ValueError, "non-negative"),
    (1.5, TypeError, "seed must be"),
    ("7", TypeError, "seed must be"),
    (True, TypeError, "seed must be"),
    ([], TypeError, "seed must be"),
    ([[1, 2]], TypeError, "seed must be"),
    ([1.5, 2.0], TypeError, "must hold ints"),
    ({"spawn_key": [1]}, ValueError, "entropy"),
    (object(), TypeError, "seed must be"),
])
def test_bad_seeds_are_named(bad, kind, match):
    with pytest.raises(kind, match=match):
        mjfast.deal(3, seed=bad)
