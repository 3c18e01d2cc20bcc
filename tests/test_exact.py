"""Exact deal odds (mjfast.exact) against brute force, Monte Carlo and closed forms.

Brute force: in a small tile world (one or two suits) every count vector of the hand size is
listed, weighted by prod C(4, c_i) (its number of physical tile choices) and classified by
shanten; the exact distribution must match fraction for fraction. The full 136-tile world is
checked against 200,000 random deals (fixed seed), closed-form counts (complete seven pairs,
thirteen orphans, honors and knitted; four of a kind by inclusion-exclusion), and the two
algorithms of the module (joint features; thresholds with state reduction) against each other.
"""
from __future__ import annotations

import doctest
import time
from fractions import Fraction
from math import comb

import numpy as np
import pytest

import mjfast
from mjfast import exact
from mjfast.exact import _deal_odds, _merge, _thresholds, exact_deal_odds, exact_deal_odds_table
from mjfast.hands._random import random_hands
from oracles import reference as _reference

SIZES = [n for n in range(1, 15) if n % 3]
OFFSET = {"m": 0, "p": 9, "s": 18, "z": 27}


# ---------------------------------------------------------------------------
# brute force
# ---------------------------------------------------------------------------

def _suit_vectors(width: int) -> np.ndarray:
    """Every vector of ``width`` counts 0..4 (5**width rows)."""
    return np.indices((5,) * width).reshape(width, -1).T.astype(np.uint8)


_SUIT_CACHE: dict = {}


def _suit_by_size(letter: str, size: int) -> np.ndarray:
    width = 7 if letter == "z" else 9
    if width not in _SUIT_CACHE:
        vecs = _suit_vectors(width)
        _SUIT_CACHE[width] = (vecs, vecs.sum(axis=1, dtype=np.int64))
    vecs, sizes = _SUIT_CACHE[width]
    return vecs[sizes == size]


def world_hands(suits: str, size: int):
    """Every (34,) count vector of ``size`` tiles within ``suits`` (one or two suits), in chunks."""
    if len(suits) == 1:
        part = _suit_by_size(suits, size)
        out = np.zeros((len(part), 34), dtype=np.uint8)
        out[:, OFFSET[suits]:OFFSET[suits] + part.shape[1]] = part
        yield out
        return
    a, b = suits
    for sa in range(size + 1):
        pa, pb = _suit_by_size(a, sa), _suit_by_size(b, size - sa)
        if len(pa) == 0 or len(pb) == 0:
            continue
        out = np.zeros((len(pa) * len(pb), 34), dtype=np.uint8)
        out[:, OFFSET[a]:OFFSET[a] + pa.shape[1]] = np.repeat(pa, len(pb), axis=0)
        out[:, OFFSET[b]:OFFSET[b] + pb.shape[1]] = np.tile(pb, (len(pa), 1))
        yield out


_CHOOSE4 = np.array([comb(4, c) for c in range(5)], dtype=np.int64)


def brute_force_cases(suits: str, size: int, cases, shanten_fn=None) -> dict:
    """{(rules, form): {shanten: Fraction}} by listing every count vector of the world once."""
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    total = comb(4 * kinds, size)
    counts = {case: {} for case in cases}
    seen = 0
    for hands in world_hands(suits, size):
        w = np.prod(_CHOOSE4[hands.astype(np.int64)], axis=1)
        for rules, form in cases:
            if shanten_fn is None:
                sh = mjfast.shanten(hands, form=form, rules=rules)
            else:
                sh = shanten_fn(hands, form=form, rules=rules)
            acc = counts[rules, form]
            for v in np.unique(sh).tolist():
                acc[v] = acc.get(v, 0) + int(w[sh == v].sum())
        seen += int(w.sum())
    assert seen == total  # the listing covers every tile subset exactly once
    return {case: {k: Fraction(v, total) for k, v in sorted(c.items())} for case, c in counts.items()}


def brute_force(suits: str, size: int, form: str, rules, shanten_fn=None) -> dict:
    """{shanten: Fraction} by listing every count vector of the world."""
    return brute_force_cases(suits, size, [(rules, form)], shanten_fn)[rules, form]


# ---------------------------------------------------------------------------
# small worlds: exact agreement
# ---------------------------------------------------------------------------

def standard_odds(suits: str, size: int) -> dict:
    return exact_deal_odds("classical", size, "standard", suits=suits)["shanten"]


@pytest.mark.parametrize("size", SIZES)
def test_one_suit_standard_matches_brute_force(size):
    assert standard_odds("m", size) == brute_force("m", size, "standard", None)


@pytest.mark.parametrize("size", SIZES)
def test_honors_standard_matches_brute_force(size):
    assert standard_odds("z", size) == brute_force("z", size, "standard", None)


@pytest.mark.parametrize("size", [1, 2, 4, 5, 7])
def test_small_sizes_match_the_pure_python_oracle(size):
    """Independent of the Cython kernel: the oracle's own shanten, on the character world."""
    assert standard_odds("m", size) == brute_force("m", size, "standard", None, shanten_fn=_reference.shanten_many)


@pytest.mark.parametrize("suits,size", [("mz", s) for s in (1, 2, 4, 5, 7, 8)] + [("mp", s) for s in (2, 4, 5, 7)])
def test_two_suits_standard_matches_brute_force(suits, size):
    assert standard_odds(suits, size) == brute_force(suits, size, "standard", None)


@pytest.mark.slow
@pytest.mark.parametrize("suits,size", [("mz", 10), ("mz", 11), ("mp", 8), ("mp", 10)])
def test_two_suits_standard_larger_sizes(suits, size):
    assert standard_odds(suits, size) == brute_force(suits, size, "standard", None)


SPECIAL_CASES = [
    (None, "seven_pairs"), (None, "thirteen_orphans"), (None, "all"), ("classical", "all"),
    ("mcr", "seven_pairs"), ("mcr", "thirteen_orphans"), ("mcr", "honors_knitted"), ("mcr", "knitted_straight"),
    ("mcr", "all"),
]


@pytest.mark.parametrize("suits", ["m", "z"])
@pytest.mark.parametrize("size", [13, 14])
@pytest.mark.parametrize("rules,form", SPECIAL_CASES)
def test_special_forms_one_suit_match_brute_force(suits, size, rules, form):
    assert exact_deal_odds(rules, size, form, suits=suits)["shanten"] == brute_force(suits, size, form, rules)


@pytest.mark.slow
@pytest.mark.parametrize("suits,size", [("mz", 13), ("mz", 14), ("mp", 13)])
def test_special_forms_two_suits_match_brute_force(suits, size):
    """Tens of millions of count vectors each (the knitted forms need two number suits)."""
    expected = brute_force_cases(suits, size, SPECIAL_CASES)
    for rules, form in SPECIAL_CASES:
        assert exact_deal_odds(rules, size, form, suits=suits)["shanten"] == expected[rules, form], (rules, form)


# ---------------------------------------------------------------------------
# the full 136-tile world
# ---------------------------------------------------------------------------

FULL_CASES = [("classical", 14, "standard"), ("classical", 13, "standard"), (None, 14, "all"), (None, 13, "all"),
              (None, 14, "seven_pairs"), (None, 14, "thirteen_orphans")]


@pytest.mark.parametrize("rules,tiles,form", FULL_CASES)
def test_distribution_is_exact_and_sums_to_one(rules, tiles, form):
    r = exact_deal_odds(rules, tiles, form)
    assert (r["rules"], r["tiles"], r["form"], r["suits"]) == (rules, tiles, form, "mpsz")
    assert all(isinstance(p, Fraction) and p > 0 for p in r["shanten"].values())
    assert sum(r["shanten"].values()) == 1
    assert r["complete"] == r["shanten"].get(-1, 0)
    assert r["tenpai"] == r["shanten"][0]
    # every probability is a whole number of tile subsets over C(136, tiles)
    assert all((p * comb(136, tiles)).denominator == 1 for p in r["shanten"].values())


def test_known_values_and_orderings():
    std14 = exact_deal_odds("classical", 14, "standard")
    std13 = exact_deal_odds("classical", 13, "standard")
    all14 = exact_deal_odds(None, 14, "all")
    # a 13-tile hand is never complete; a 14-tile one rarely is (a few in a million)
    assert -1 not in std13["shanten"] and std13["complete"] == 0
    assert 0 < std14["complete"] < Fraction(1, 100_000)
    # the standard form alone can be 8-shanten (e.g. thirteen orphans + 1), "all" never worse than 6
    assert max(std14["shanten"]) == 8 and max(std13["shanten"]) == 8 and max(all14["shanten"]) == 6
    # more forms can only lower the shanten: P(shanten <= s) grows, for every s
    for s in range(-1, 9):
        def cdf(r):
            return sum(p for k, p in r["shanten"].items() if k <= s)
        assert cdf(all14) >= cdf(std14)
        assert cdf(all14) >= cdf(exact_deal_odds(None, 14, "seven_pairs"))
    # complete hands of "all": standard, seven pairs or thirteen orphans, counted once each
    p_sp = exact_deal_odds(None, 14, "seven_pairs")["complete"]
    p_to = exact_deal_odds(None, 14, "thirteen_orphans")["complete"]
    # a hand that is both seven pairs and standard exists (e.g. 112233m x2 ...), so <=, and > max
    assert max(std14["complete"], p_sp, p_to) < all14["complete"] <= std14["complete"] + p_sp + p_to


def test_thirteen_orphans_complete_count():
    """Complete thirteen orphans: 13 kinds once + one of them twice: 13 * 6 * 4**12 subsets."""
    r = exact_deal_odds(None, 14, "thirteen_orphans")
    assert r["complete"] == Fraction(13 * 6 * 4 ** 12, comb(136, 14))


def test_seven_pairs_complete_count():
    """Seven different pairs: C(34, 7) * 6**7; MCR adds four-of-a-kinds counted as two pairs."""
    assert exact_deal_odds(None, 14, "seven_pairs")["complete"] == Fraction(comb(34, 7) * 6 ** 7, comb(136, 14))
    mcr = sum(comb(34, q) * comb(34 - q, 7 - 2 * q) * 6 ** (7 - 2 * q) for q in range(4))
    assert exact_deal_odds("mcr", 14, "seven_pairs")["complete"] == Fraction(mcr, comb(136, 14))


def test_honors_knitted_complete_count():
    """14 different kinds among the 16 candidates (7 honors + 9 knitted kinds) of one of the 6
    knitted patterns, one copy each (4 ways). Two patterns differ in at least two suits, so
    their candidate sets share at most 7 + 3 < 14 kinds: no hand is counted twice."""
    expected = 6 * comb(16, 14) * 4 ** 14
    assert exact_deal_odds("mcr", 14, "honors_knitted")["complete"] == Fraction(expected, comb(136, 14))


@pytest.mark.parametrize("tiles", [13, 14])
@pytest.mark.parametrize("suits", ["mpsz", "m", "mz"])
def test_four_of_a_kind_inclusion_exclusion(tiles, suits):
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    n = 4 * kinds
    # P(some kind 4 times) = sum_j (-1)^(j+1) C(kinds, j) C(n - 4j, tiles - 4j) / C(n, tiles)
    expected = sum((-1) ** (j + 1) * comb(kinds, j) * comb(n - 4 * j, tiles - 4 * j)
                   for j in range(1, tiles // 4 + 1))
    r = exact_deal_odds("classical", tiles, "standard", suits=suits)
    assert r["four_of_a_kind"] == Fraction(expected, comb(n, tiles))
    if suits == "mpsz" and tiles == 14:  # the same for every form
        assert exact_deal_odds(None, tiles, "all")["four_of_a_kind"] == r["four_of_a_kind"]
        assert 0.0024 < float(r["four_of_a_kind"]) < 0.0026


MC_N = 200_000


@pytest.fixture(scope="module")
def mc_hands():
    return {14: random_hands(MC_N, 14, seed=20240), 13: random_hands(MC_N, 13, seed=20241)}


MC_CASES = [("classical", 14, "standard"), (None, 14, "all"), (None, 13, "all"), ("classical", 13, "all"),
            ("mcr", 14, "seven_pairs"), ("mcr", 14, "honors_knitted"), ("mcr", 14, "knitted_straight"),
            ("mcr", 13, "knitted_straight"), ("mcr", 14, "all"),
            pytest.param("mcr", 13, "all", marks=pytest.mark.slow)]


@pytest.mark.parametrize("rules,tiles,form", MC_CASES)
def test_monte_carlo_agrees(mc_hands, rules, tiles, form):
    """Every shanten bucket of 200,000 random deals lies within 4 standard errors of n * p."""
    exact_p = exact_deal_odds(rules, tiles, form)["shanten"]
    sh = mjfast.shanten(mc_hands[tiles], form=form, rules=rules)
    vals, cnt = np.unique(sh, return_counts=True)
    observed = dict(zip(vals.tolist(), cnt.tolist()))
    assert set(observed) <= set(exact_p)  # nothing seen that the exact answer calls impossible
    for s, p in exact_p.items():
        p = float(p)
        sd = (MC_N * p * (1 - p)) ** 0.5
        assert abs(observed.get(s, 0) - MC_N * p) <= 4 * sd + 1e-9, (s, observed.get(s, 0), MC_N * p)


@pytest.mark.parametrize("forms,rules,tiles,suits", [
    (("standard", "seven_pairs", "thirteen_orphans"), None, 14, "mz"),
    (("standard", "seven_pairs", "thirteen_orphans"), "mcr", 13, "ps"),
    (("honors_knitted", "knitted_straight"), "mcr", 14, "mpz"),
    (("standard", "knitted_straight"), "mcr", 13, "mp"),
    pytest.param(("standard", "knitted_straight"), "mcr", 13, "mpsz", marks=pytest.mark.slow),
    pytest.param(("standard", "seven_pairs", "thirteen_orphans"), None, 14, "mpsz", marks=pytest.mark.slow),
])
def test_threshold_method_matches_direct_method(forms, rules, tiles, suits):
    """The two algorithms (joint features; thresholds with state reduction) agree exactly."""
    direct = _merge.distance_counts(forms, rules, tiles, suits)
    bound = max(d for d, _ in direct)
    assert _thresholds._distance_counts_by_threshold(forms, rules, tiles, suits, bound) == direct
    assert sum(n for _, n in direct) == comb(4 * sum(7 if ch == "z" else 9 for ch in suits), tiles)


def test_mcr_all_is_the_minimum_of_the_five_forms():
    """P(shanten <= s) under MCR "all" is at least that of every single form, and MCR "all"
    is never worse than None "all" (its forms include those, with a looser seven pairs)."""
    r_all = exact_deal_odds("mcr", 14, "all")["shanten"]
    assert sum(r_all.values()) == 1
    others = [exact_deal_odds("mcr", 14, f)["shanten"] for f in mjfast.rules.FORMS]
    others.append(exact_deal_odds(None, 14, "all")["shanten"])
    for s in range(-1, 14):
        cdf = sum(p for k, p in r_all.items() if k <= s)
        assert all(cdf >= sum(p for k, p in o.items() if k <= s) for o in others)
    # complete: a union of five forms, so between the largest one and the sum of all
    completes = [o.get(-1, 0) for o in others[:5]]
    assert max(completes) < r_all[-1] <= sum(completes)


# ---------------------------------------------------------------------------
# API
# ---------------------------------------------------------------------------

def test_table_forms_per_rules():
    t = exact_deal_odds_table("classical", 14)
    assert list(t) == ["standard", "all"] and t["all"]["shanten"] == t["standard"]["shanten"]
    assert exact_deal_odds_table("basic", 13)["all"]["shanten"] == exact_deal_odds("classical", 13)["shanten"]
    t_none = exact_deal_odds_table(None, 13)
    assert list(t_none) == ["standard", "seven_pairs", "thirteen_orphans", "all"]
    for form, r in t_none.items():
        assert r["form"] == form and r["rules"] is None and r["tiles"] == 13


def test_mcr_table_lists_the_five_forms():
    assert exact.TABLE_FORMS["mcr"][:5] == mjfast.rules.FORMS


def test_default_arguments_and_suits_order():
    r = exact_deal_odds()
    assert (r["rules"], r["tiles"], r["form"]) == ("classical", 14, "all")
    assert exact_deal_odds(tiles=5, suits="zm")["shanten"] == exact_deal_odds(tiles=5, suits="mz")["shanten"]
    assert exact_deal_odds(tiles=5, suits="zm")["suits"] == "mz"


def test_all_below_thirteen_tiles_is_the_standard_form():
    """As in mjfast.shanten, the special forms are skipped for hands that are not 13/14 tiles."""
    for rules in (None, "mcr"):
        assert exact_deal_odds(rules, 8, "all")["shanten"] == exact_deal_odds(rules, 8, "standard")["shanten"]


def test_results_are_cached():
    exact_deal_odds(None, 14, "all")
    t = time.perf_counter()
    for _ in range(100):
        exact_deal_odds(None, 14, "all")
    assert time.perf_counter() - t < 0.5
    a, b = exact_deal_odds(None, 14, "all"), exact_deal_odds(None, 14, "all")
    assert a == b and a is not b  # a fresh dict each call: callers may modify it
    a["shanten"].clear()
    assert exact_deal_odds(None, 14, "all")["shanten"]


@pytest.mark.parametrize("kwargs,exc,text", [
    (dict(rules="riichi"), ValueError, "unknown rules"),
    (dict(rules=3), TypeError, "rules"),
    (dict(form="kokushi"), ValueError, "unknown form"),
    (dict(form=None), TypeError, "form"),
    (dict(tiles=12), ValueError, r"3k\+1"),
    (dict(tiles=15), ValueError, r"3k\+1"),
    (dict(tiles=0), ValueError, r"3k\+1"),
    (dict(tiles=13.0), TypeError, "tiles"),
    (dict(tiles=True), TypeError, "tiles"),
    (dict(rules=None, tiles=11, form="seven_pairs"), ValueError, "13 or 14"),
    (dict(rules="mcr", tiles=8, form="knitted_straight"), ValueError, "13 or 14"),
    (dict(suits="mq"), ValueError, "suits"),
    (dict(suits="mm"), ValueError, "suits"),
    (dict(suits=""), ValueError, "suits"),
    (dict(suits=None), TypeError, "suits"),
])
def test_validation(kwargs, exc, text):
    with pytest.raises(exc, match=text):
        exact_deal_odds(**kwargs)


def test_table_validation():
    with pytest.raises(ValueError, match="unknown rules"):
        exact_deal_odds_table("riichi")
    with pytest.raises(ValueError, match="13 or 14"):
        exact_deal_odds_table(None, 11)


def test_docstring_examples():
    """The face's examples and the public functions' (defined in mjfast.exact._deal_odds)."""
    results = [doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
               for mod in (exact, _deal_odds)]
    assert sum(r.failed for r in results) == 0 and sum(r.attempted for r in results) > 3
