"""Fast shanten / winning kernels against the pure-Python reference (tests/oracles/reference.py)."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from conftest import FORMS, RULES, SIZES, complete_hands, perturb, random_hands

N_DEFAULT = 3000


# --------------------------------------------------------------------------------------------
# literal hard cases (each worked out by hand)

LITERAL = [
    # hand, form, rules, shanten
    ("123m456p789s1122z", "all", None, 0),
    ("123m456p789s1111z", "standard", None, 1),       # no fifth 1z: not tenpai
    ("123m456p789s1111z", "all", None, 1),
    ("1111m", "standard", None, 1),                   # 4 tiles: 1 set + 1 pair, fifth 1m impossible
    ("1111m2222p", "standard", None, 1),              # 8 tiles would need...
    ("11112222333344m", "standard", None, -1),
    ("1111m2233p445566s", "seven_pairs", None, 1),    # four-of-a-kind is one pair only
    ("1111m2233p445566s", "seven_pairs", "mcr", -1),  # ... but two pairs under MCR
    ("1111m2233p445566s", "all", "mcr", -1),
    ("1122m3344p5566s77z", "seven_pairs", None, -1),
    ("1122m3344p5566s77z", "all", "classical", 3),
    ("19m19p19s1234567z", "thirteen_orphans", None, 0),  # 13-sided wait
    ("19m19p19s12345677z", "thirteen_orphans", None, -1),
    ("19m19p19s12345677z", "all", "classical", 7),  # pair 77z + four sets each missing 2
    ("147m258p369s12345z", "honors_knitted", None, -1),
    ("147m258p369s12345z", "knitted_straight", None, 2),
    ("147m258p369s1234z", "honors_knitted", None, 0),
    ("147m258p369s34m11z", "knitted_straight", None, 0),  # waits 2m 5m
    ("147m258p369s345m11z", "knitted_straight", None, -1),
    ("147m258p369s123z11m", "knitted_straight", None, 1),  # honors cannot chow
    ("147m258p369s111z22z", "knitted_straight", None, -1),
    ("147m258p369s1111z", "knitted_straight", None, 1),  # pung + pair of 1z would need 5 copies
    ("1112345678999m", "standard", None, 0),           # nine gates
    ("1m", "standard", None, 0),
    ("11m", "standard", None, -1),
    ("12m", "standard", None, 0),  # 2 tiles: target is one pair, 1 missing
]


@pytest.mark.parametrize("text,form,rules,expected", LITERAL)
def test_literal_hands(text, form, rules, expected, ref):
    assert mjfast.shanten(text, form=form, rules=rules) == expected
    assert ref.shanten(mjfast.parse_hand(text), form=form, rules=rules) == expected
    assert mjfast.is_winning(text, form=form, rules=rules) == (expected == -1)


def test_thirteen_orphans_thirteen_waits():
    assert len(mjfast.waits("19m19p19s1234567z")) == 13
    assert mjfast.waits("1112345678999m") == [f"{r}m" for r in range(1, 10)]


# --------------------------------------------------------------------------------------------
# random hands, every size and rule set, counts and packed input

@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("rules", RULES)
def test_random_all_forms(size, rules, ref):
    h = random_hands(N_DEFAULT, size, seed=1000 + size)
    expected = ref.shanten_many(h, rules=rules)
    np.testing.assert_array_equal(mjfast.shanten(h, rules=rules), expected)
    np.testing.assert_array_equal(mjfast.shanten(mjfast.pack(h), rules=rules), expected)
    if size % 3 == 2:
        win = mjfast.is_winning(h, rules=rules)
        np.testing.assert_array_equal(win, expected == -1)


@pytest.mark.parametrize("size", [13, 14])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("suits", ["mpsz", "m", "z", "mz"])
def test_random_each_form(size, form, rules, suits, ref):
    h = random_hands(1000, size, seed=hash((size, form, suits)) % 10_000, suits=suits)
    expected = ref.shanten_many(h, form=form, rules=rules)
    np.testing.assert_array_equal(mjfast.shanten(h, form=form, rules=rules), expected)
    np.testing.assert_array_equal(mjfast.shanten(mjfast.pack(h), form=form, rules=rules), expected)


@pytest.mark.parametrize("size", [2, 5, 8, 11, 14])
@pytest.mark.parametrize("rules", RULES)
def test_complete_and_near_complete(size, rules, ref):
    done = complete_hands(1500, size, seed=size)
    near = perturb(done, seed=size + 100)
    both = np.concatenate([done, near])
    expected = ref.shanten_many(both, rules=rules)
    assert (expected[: len(done)] == -1).all()
    got = mjfast.shanten(both, rules=rules)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(mjfast.is_winning(both, rules=rules), expected == -1)
    np.testing.assert_array_equal(mjfast.is_winning(mjfast.pack(both), rules=rules), expected == -1)
    np.testing.assert_array_equal(mjfast.is_winning(both, form="standard"), ref.shanten_many(both, form="standard") == -1)


@pytest.mark.parametrize("size", [1, 4, 7, 10, 13])
def test_near_tenpai_hands(size, ref):
    """Remove one tile from complete hands: dense in tenpai / 1-shanten cases."""
    done = complete_hands(1500, size + 1, seed=50 + size)
    rng = np.random.default_rng(size)
    h = done.astype(np.int64)
    for row in h:
        held = np.flatnonzero(row)
        row[held[rng.integers(len(held))]] -= 1
    h = h.astype(np.uint8)
    for rules in RULES:
        np.testing.assert_array_equal(mjfast.shanten(h, rules=rules), ref.shanten_many(h, rules=rules))


def test_mixed_sizes_in_one_batch(ref):
    h = np.concatenate([random_hands(300, s, seed=s) for s in SIZES])
    np.random.default_rng(0).shuffle(h)
    for rules in RULES:
        np.testing.assert_array_equal(mjfast.shanten(h, rules=rules), ref.shanten_many(h, rules=rules))


# --------------------------------------------------------------------------------------------
# threads and input forms give identical answers

@pytest.mark.parametrize("rules", RULES)
def test_thread_counts_identical(rules):
    h = random_hands(40_000, 14, seed=7)
    one = mjfast.shanten(h, rules=rules, threads=1)
    for threads in (2, 3, -1, None):
        np.testing.assert_array_equal(mjfast.shanten(h, rules=rules, threads=threads), one)
    np.testing.assert_array_equal(mjfast.shanten(mjfast.pack(h), rules=rules, threads=2), one)
    w1 = mjfast.is_winning(h, rules=rules, threads=1)
    np.testing.assert_array_equal(mjfast.is_winning(h, rules=rules, threads=2), w1)


def test_single_hand_types():
    c = mjfast.parse_hand("123m456p789s1122z")
    assert type(mjfast.shanten(c)) is int
    assert type(mjfast.is_winning(c.tolist() + [0] * 0)) is bool
    assert mjfast.shanten(c.astype(np.int64)) == 0
    assert mjfast.shanten(mjfast.pack(c)) == 0
    out = mjfast.shanten(c[None, :])
    assert out.dtype == np.int8 and out.shape == (1,)
    w = mjfast.is_winning(np.zeros((0, 34), np.uint8))
    assert w.dtype == np.bool_ and w.shape == (0,)


def test_called_sets_in_text():
    # concealed part 123m11z + three called sets: 5 concealed tiles, complete
    assert mjfast.shanten("123m11z [456p] [789s] [222z]") == -1
    assert mjfast.is_winning("123m11z [456p] [789s] (2222z)")
    assert mjfast.shanten("13m11z [456p] [789s] [222z]") == 0


# --------------------------------------------------------------------------------------------
# waits, effective tiles, decompositions against the reference

def _tenpai_hands(n, seed):
    done = complete_hands(n, 14, seed=seed)
    rng = np.random.default_rng(seed)
    h = done.astype(np.int64)
    for row in h:
        held = np.flatnonzero(row)
        row[held[rng.integers(len(held))]] -= 1
    return h.astype(np.uint8)


@pytest.mark.parametrize("rules", RULES)
def test_waits_match_reference(rules, ref):
    for h in _tenpai_hands(150, seed=11):
        got = [mjfast.tiles.tile_index(t) for t in mjfast.waits(h, rules=rules)]
        assert got == ref.waits(h, rules=rules)


def test_effective_tiles_match_reference(ref):
    seen_all = random_hands(60, 10, seed=99)
    for i, h in enumerate(np.concatenate([_tenpai_hands(30, seed=3), random_hands(30, 13, seed=4)])):
        visible = np.minimum(seen_all[i], 4 - h).astype(np.uint8) if i % 2 else None
        imp = mjfast.effective_tiles(h, visible)
        exp = ref.effective_tiles(h, visible)
        assert {mjfast.tiles.tile_index(t): c for t, c in imp.tiles.items()} == exp
        assert imp.count == sum(exp.values())
        assert imp.shanten == ref.shanten(h)
    for h in random_hands(20, 14, seed=6):
        imps = mjfast.effective_tiles(h)
        exp = ref.effective_tiles(h)
        assert {mjfast.tiles.tile_index(i.discard) for i in imps} == set(exp)
        for imp in imps:
            d = mjfast.tiles.tile_index(imp.discard)
            assert {mjfast.tiles.tile_index(t): c for t, c in imp.tiles.items()} == exp[d]
        keys = [(i.shanten, -i.count) for i in imps]
        assert keys == sorted(keys)


def test_decompose_matches_reference(ref):
    hands = np.concatenate([complete_hands(200, s, seed=s) for s in (2, 5, 8, 11, 14)])
    for h in hands:
        got = mjfast.decompose(h)
        exp = ref.decompose(h)
        assert len(got) == len(exp) > 0
        for d in got:
            assert mjfast.parse_hand("".join(d)).tolist() == h.tolist()
    assert mjfast.decompose("11112222333344m") and len(mjfast.decompose("11112222333344m")) == len(
        ref.decompose(mjfast.parse_hand("11112222333344m")))
    assert mjfast.decompose("123m456p789s11223z") == []


# --------------------------------------------------------------------------------------------
# slow tier: a million hands per size, exhaustive single-suit and honor vectors

@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_million_random_hands(size, ref):
    h = random_hands(1_000_000, size, seed=2024 + size)
    for rules in RULES:
        exp = ref.shanten_many(h, rules=rules)
        np.testing.assert_array_equal(mjfast.shanten(h, rules=rules), exp)
        if size % 3 == 2:
            np.testing.assert_array_equal(mjfast.is_winning(h, rules=rules), exp == -1)
    np.testing.assert_array_equal(mjfast.shanten(h, form="standard"), ref.shanten_many(h, form="standard"))
    if size >= 13:
        for form in FORMS[1:]:
            for rules in (None, "mcr"):
                np.testing.assert_array_equal(mjfast.shanten(h, form=form, rules=rules),
                                              ref.shanten_many(h, form=form, rules=rules))


def _all_vectors(width: int) -> np.ndarray:
    """Every count vector of `width` kinds with 1..14 tiles, sizes 3k+1 / 3k+2."""
    grids = np.indices((5,) * width).reshape(width, -1).T
    tot = grids.sum(axis=1)
    keep = (tot >= 1) & (tot <= 14) & (tot % 3 != 0)
    return grids[keep].astype(np.uint8)


@pytest.mark.slow
@pytest.mark.parametrize("suit", ["m", "p", "s", "z"])
def test_exhaustive_single_suit(suit, ref):
    width = 7 if suit == "z" else 9
    vecs = _all_vectors(width)
    h = np.zeros((len(vecs), 34), dtype=np.uint8)
    start = 9 * "mpsz".index(suit)
    h[:, start : start + width] = vecs
    for rules in RULES:
        exp = ref.shanten_many(h, rules=rules)
        np.testing.assert_array_equal(mjfast.shanten(h, rules=rules), exp)
        np.testing.assert_array_equal(mjfast.shanten(mjfast.pack(h), rules=rules), exp)
        complete = h.sum(axis=1) % 3 == 2
        np.testing.assert_array_equal(mjfast.is_winning(h[complete], rules=rules), exp[complete] == -1)
    closed = np.isin(h.sum(axis=1), (13, 14))
    for form in FORMS[1:]:
        for rules in (None, "mcr"):
            np.testing.assert_array_equal(mjfast.shanten(h[closed], form=form, rules=rules),
                                          ref.shanten_many(h[closed], form=form, rules=rules))


@pytest.mark.slow
def test_table_generator_matches_brute_force(ref):
    """Every pattern's 10 distances from the DP generator equal the reference's brute force."""
    from mjfast._kernels import tables as _tables

    t = _tables.get_tables()
    for width, cls_name, vec_name, honors in ((9, "suit_class", "suit_vectors", False),
                                              (7, "honor_class", "honor_vectors", True)):
        grids = np.indices((5,) * width).reshape(width, -1).T
        keep = grids.sum(axis=1) <= 14
        codes = (grids * 5 ** np.arange(width)).sum(axis=1)
        vecs = t[vec_name][t[cls_name][codes[keep]]]
        for row, v in zip(grids[keep], vecs):
            assert tuple(v) == ref.suit_distances(tuple(int(x) for x in row), honors=honors)
