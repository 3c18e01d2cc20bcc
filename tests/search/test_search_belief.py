"""Weighted worlds (issue 27, "a hook for weights"): sample_worlds(weights=...) draws the other
seats' hands by the weights exactly as documented (chi-square against an exact enumeration of
the weighted draw, tests/oracles/worlds.py), the weights shift the frequencies the way they
should, the seat's view is still kept, the built-in belief "discards" reads what the seats did,
SearchPolicy(belief=...) is reproducible whatever the thread count, and bad weights are refused."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from test_search_worlds import am_kind, chi2_critical, cn_kind, observe_all, saved

import mjfast
from mjfast._kernels import worlds as kw
from mjfast.search import SearchPolicy, belief, sample_worlds
from mjfast.search._states import new_core
from oracles.worlds import chi_square, exact_outcomes, exact_outcomes_weighted

# seat 1's and seat 2's relative likelihoods by kind (others 1); 34: American flowers, 35 jokers
WEIGHTS = {1: {0: 6, 1: 1, 35: 3}, 2: {0: 1, 1: 4, 35: 1}}


def weight(h: int, k: int) -> Fraction:
    """The oracle's weights: hand h of the enumeration is seat h + 1."""
    return Fraction(WEIGHTS.get(h + 1, {}).get(k, 1))


def kernel_weights() -> np.ndarray:
    w = np.ones((4, 48), np.float32)
    for s, d in WEIGHTS.items():
        for k, v in d.items():
            w[s, k] = v
    return w


def position(family: str):
    """The position of test_search_worlds: seat 0 views; seats 1 and 2 hold one tile each; three
    hidden wall positions. Unseen ids: 0, 3 (kind 0), 4, 6 (kind 1) and a bonus id (Chinese: a
    flower, never held) or a joker (American: held like any tile)."""
    chinese = family == "chinese"
    extra = 136 if chinese else 144
    wall = np.array([0, 4, 1, 5, 2, 137, 3, 6, extra, 7], np.uint8)
    hands = np.zeros((4, 48), np.uint8)
    hands[0, 2] = 1
    hands[1, 0] = 1
    hands[2, 1] = 1
    return chinese, extra, wall, hands


def outcomes(walls, out) -> Counter:
    """Outcome counts keyed as the oracle's: (kinds of seat 1, 2, 3 sorted, wall 6..8 ids)."""
    rows = np.ascontiguousarray(np.concatenate([out[:, 1:4, :].reshape(len(out), -1), walls[:, 6:9]], axis=1))
    observed: Counter = Counter()
    for raw, c in Counter(r.tobytes() for r in rows).items():
        row = np.frombuffer(raw, np.uint8)
        h = row[:-3].reshape(3, 48)
        parts = [tuple(k for k in range(48) for _ in range(int(h[s, k]))) for s in range(3)]
        parts.append(tuple(int(t) for t in row[-3:]))
        observed[tuple(parts)] += int(c)
    return observed


def test_weighted_oracle_with_equal_weights_is_the_uniform_one():
    ids = [0, 4, 3, 6, 136]
    bonus = (lambda t: t >= 136)
    assert exact_outcomes_weighted(ids, [1, 1, 0], [3], cn_kind, lambda h, k: Fraction(1), bonus) == \
        exact_outcomes(ids, [1, 1, 0], [3], cn_kind, bonus)


@pytest.mark.parametrize("family", ["chinese", "american"])
def test_weighted_redraw_matches_exact_enumeration(family):
    chinese, extra, wall, hands = position(family)
    kind = cn_kind if chinese else am_kind
    trials = 60000
    walls, out = kw.redraw_trials(wall, 6, 8, hands, 0, chinese, chinese, 11, 12, trials, kernel_weights())
    assert_array_equal(np.sort(walls, axis=1), np.broadcast_to(np.sort(wall), walls.shape))   # a permutation
    assert_array_equal(out[:, 0], np.broadcast_to(hands[0], (trials, 48)))   # the viewer's hand kept
    observed = outcomes(walls, out)
    bonus = (lambda t: t >= 136) if chinese else (lambda t: False)
    exact = exact_outcomes_weighted([0, 4, 3, 6, extra], [1, 1, 0], [3], kind, weight, bonus)
    stat, df = chi_square(observed, exact)
    assert len(exact) > 10
    assert stat < chi2_critical(df), (stat, df)
    # the weights shift the frequencies the way they should, and the uniform sampler fails this
    # test: seat 1 (kind 0 weighs 6) holds kind 0 far more often than uniformly (2 of 4 held ids)
    p1 = sum(v for k, v in exact.items() if k[0] == (0,))
    held = 4 if chinese else 5
    assert p1 > Fraction(2, held) + Fraction(1, 5)
    assert abs(sum(c for k, c in observed.items() if k[0] == (0,)) / trials - float(p1)) < 0.01
    uw, uo = kw.redraw_trials(wall, 6, 8, hands, 0, chinese, chinese, 11, 12, trials)
    assert chi_square(outcomes(uw, uo), exact)[0] > chi2_critical(df)


def test_zero_weight_kinds_are_never_held():
    s = saved("mcr", {}, n=4)
    w = np.ones((4, 34))
    w[:, :9] = 0                                     # no characters in any opponent's hand
    worlds = sample_worlds(s, 6, seed=3, weights=w)
    seats = s._book(new_core(s.rules, 1).state_layout())[:, 1]
    _, _, views = observe_all(worlds, np.repeat(seats, 6))
    _, _, v0 = observe_all(s, seats)
    for j, v in enumerate(views):
        seat = int(seats[j // 6])
        for q in range(4):
            if q != seat:
                assert v[q]["hand"][:9].sum() == 0
                assert v[q]["hand"].sum() == v0[j // 6][q]["hand"].sum()


@pytest.mark.parametrize("rules", ["mcr", "american"])
def test_weighted_worlds_keep_the_view(rules):
    s = saved(rules, {}, n=12 if rules == "american" else 6, steps=160 if rules == "american" else 60)
    n = 8
    w = sample_worlds(s, n, seed=5, weights="discards")
    seats = s._book(new_core(s.rules, 1).state_layout())[:, 1]
    o0, sc0, _ = observe_all(s, seats)
    o1, sc1, _ = observe_all(w, np.repeat(seats, n))
    assert_array_equal(o1, np.repeat(o0, n, axis=0))
    assert_array_equal(sc1, np.repeat(sc0, n, axis=0))
    core = new_core(s.rules, 1)
    assert not core.check_states(np.ascontiguousarray(w.data[:, :core.state_layout()["record"]])).any()
    assert w == sample_worlds(s, n, seed=5, weights=belief(s))          # the name is the function's weights
    assert w != sample_worlds(s, n, seed=5)
    assert sample_worlds(s, n, seed=5, weights=None) == sample_worlds(s, n, seed=5)


def test_belief_discards_reads_discards_and_claims():
    s = saved("mcr", {}, n=4, steps=80)
    b = belief(s)
    assert b.shape == (len(s), 4, 34) and b.dtype == np.float32
    lay = new_core(s.rules, 1).state_layout()
    core = new_core(s.rules, len(s))
    core.load_states(np.arange(len(s), dtype=np.int64), np.ascontiguousarray(s.data[:, :lay["record"]]))
    checked = 0
    for t in range(len(s)):
        for q in range(4):
            for k in set(int(x) for x in core.view(t, q)["discards"][q]):
                assert b[t, q, k] <= np.float32(0.3 * 1.5) + 1e-6   # discarded: 0.3 (x1.5 in a claimed suit)
                checked += 1
    assert checked > 10
    assert (b > 1).any() or (b == 1).any()


def test_bad_weights_are_refused():
    s = saved("classical", {}, n=2)
    with pytest.raises(ValueError, match="shape"):
        sample_worlds(s, 2, seed=1, weights=np.ones((4, 48)))
    with pytest.raises(ValueError, match="finite"):
        sample_worlds(s, 2, seed=1, weights=-np.ones((4, 34)))
    with pytest.raises(ValueError, match="finite"):
        sample_worlds(s, 2, seed=1, weights=np.full((4, 34), np.nan))
    with pytest.raises(TypeError, match="numbers"):
        sample_worlds(s, 2, seed=1, weights=np.ones((4, 34), bool))
    with pytest.raises(ValueError, match="discards"):
        sample_worlds(s, 2, seed=1, weights="psychic")
    with pytest.raises(ValueError, match="no tile"):
        sample_worlds(s, 2, seed=1, weights=np.zeros((4, 34)))
    with pytest.raises(ValueError, match="belief"):
        SearchPolicy(belief="psychic")
    with pytest.raises(ValueError, match="kind"):
        belief(s, "psychic")


def test_search_with_belief_does_not_depend_on_threads():
    kw_ = dict(worlds=3, candidates=0, margin=0.0, seed=5, belief="discards")
    a = mjfast.compare(SearchPolicy(threads=1, **kw_), "greedy", 1, rules="classical", seed=2, progress=False, threads=1)
    b = mjfast.compare(SearchPolicy(threads=2, **kw_), "greedy", 1, rules="classical", seed=2, progress=False, threads=2)
    assert a.points_diff == b.points_diff and a.win_rate_diff == b.win_rate_diff
