"""Pin the pure-Python oracle (tests/oracles/reference.py) itself.

Literal hands carry the expected answer worked out by hand in a comment; the
small-world tests compare the oracle's shortcuts against literal enumeration
of targets.  Everything random uses a fixed seed.
"""
import functools
import itertools

import numpy as np
import pytest

from oracles import reference as ref

SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def hand(text):
    """'123m456p11z' -> tuple of 34 counts."""
    counts = [0] * 34
    digits = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            for d in digits:
                counts[SUIT_BASE[ch] + d - 1] += 1
            digits = []
    assert not digits, text
    return tuple(counts)


def kind(text):
    """'5m' -> 4."""
    return SUIT_BASE[text[1]] + int(text[0]) - 1


def kinds(*texts):
    return sorted(kind(t) for t in texts)


def plus(h, *texts):
    c = list(h)
    for t in texts:
        c[kind(t)] += 1
    return tuple(c)


def literal_distance(h, targets):
    """min over the given targets (rows) of sum max(T - H, 0)."""
    T = np.asarray(targets, dtype=np.int16)
    return int(np.maximum(T - np.asarray(h, dtype=np.int16), 0).sum(axis=1).min())


# ---------------------------------------------------------------------------
# standard form, literal hands
# ---------------------------------------------------------------------------

def test_standard_literals():
    # 123m 456p 789s 11z 22z (13): one more 1z or 2z makes 4 sets + pair -> tenpai
    h = hand("123m456p789s1122z")
    assert ref.shanten_standard(h) == 0
    assert ref.shanten(h) == 0
    assert ref.waits(h) == kinds("1z", "2z")
    # completing it
    assert ref.shanten(plus(h, "1z")) == -1
    assert ref.is_winning(plus(h, "2z"))
    # nine gates 1112345678999m (13): waits on all nine characters
    assert ref.shanten_standard(hand("1112345678999m")) == 0
    assert ref.waits(hand("1112345678999m")) == list(range(9))
    # 1234567m (7 tiles, k=2): 123 456 +7, 234 567 +1, 123 567 +4 -> waits 1m 4m 7m
    assert ref.shanten(hand("1234567m")) == 0
    assert ref.waits(hand("1234567m")) == kinds("1m", "4m", "7m")
    # 123m456p789s111z22z (14): complete
    assert ref.shanten(hand("123m456p789s11122z")) == -1


def test_four_copies_are_respected():
    # 123m 456p 789s 1111z (13): 1z can be a pung (3) or a pair (2) but not both
    # (5 copies), so at most 12 of the 13 tiles fit a target -> 2 missing -> 1-shanten.
    h = hand("123m456p789s1111z")
    assert ref.shanten_standard(h) == 1
    assert ref.shanten(h) == 1
    assert ref.waits(h) == []
    # a 1z draw is impossible; any other single draw leaves it 0-shanten at best
    assert all(ref.shanten(plus(h, t)) >= 0 for t in ["1m", "2z", "5p", "9s"])


def test_small_hand_sizes():
    # 1 tile: target is a pair, 1 missing -> 0; waits on itself
    assert ref.shanten(hand("5m")) == 0
    assert ref.waits(hand("5m")) == kinds("5m")
    # 2 tiles: a pair is complete; two singles are 1 away
    assert ref.shanten(hand("55m")) == -1
    assert ref.is_winning(hand("55m"))
    assert ref.decompose(hand("55m")) == [(kind("5m"), ())]
    assert ref.shanten(hand("56m")) == 0
    assert not ref.is_winning(hand("56m"))
    # 4 tiles 1112m: 111+22 (needs 2m) or 11+123 (needs 3m) -> 0, waits 2m 3m
    assert ref.shanten(hand("1112m")) == 0
    assert ref.waits(hand("1112m")) == kinds("2m", "3m")
    # 5 tiles 11123m: 11 + 123 complete, the only split (111 + 23 is not a set)
    assert ref.shanten(hand("11123m")) == -1
    assert ref.decompose(hand("11123m")) == [(0, (("chow", 0),))]
    # 5 tiles 1m 9m 1p 9p 1z: every set or pair overlaps at most one held tile
    # (no chow holds two of them) -> overlap 2 of 5 -> 3 missing -> 2-shanten
    assert ref.shanten(hand("19m19p1z")) == 2
    # 4 tiles 1m 3m 5p 7z: 123m + 55p or 77z is 2 away -> 1-shanten
    assert ref.shanten(hand("13m5p7z")) == 1


@pytest.mark.parametrize("bad_size", [0, 3, 6, 9, 12, 15])
def test_bad_sizes_raise(bad_size):
    counts = [0] * 34
    for i in range(bad_size):
        counts[i % 34] += 1
    with pytest.raises(ValueError):
        ref.shanten(counts)
    with pytest.raises(ValueError):
        ref.is_winning(counts)
    with pytest.raises(ValueError):
        ref.shanten_many(np.array([counts]))


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        ref.shanten([5] + [0] * 33)  # five copies
    with pytest.raises(ValueError):
        ref.shanten([1] * 33)  # 33 kinds
    h = hand("123m456p789s1122z")
    with pytest.raises(ValueError, match="nonsense"):
        ref.shanten(h, form="nonsense")
    with pytest.raises(ValueError):
        ref.shanten(h, rules="nonsense")
    with pytest.raises(ValueError):
        ref.shanten_many(np.array([h]), rules="nonsense")
    # special forms exist only at 13/14 tiles; the message names the form
    for form in ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"):
        with pytest.raises(ValueError, match=form):
            ref.shanten(hand("123m456p11z"), form=form)
        with pytest.raises(ValueError, match=form):
            ref.shanten_many(np.array([hand("123m456p11z")]), form=form)
    with pytest.raises(ValueError):
        ref.shanten_seven_pairs(hand("1122m"))
    with pytest.raises(ValueError):
        ref.waits(hand("11123m"))  # 3k+2: no waits


def test_accepts_tuple_list_and_numpy():
    h = hand("123m456p789s1122z")
    for form in (h, list(h), np.array(h, dtype=np.uint8), np.array(h, dtype=np.int64)):
        assert ref.shanten(form) == 0
    assert ref.shanten_many([h, h]).tolist() == [0, 0]
    assert ref.shanten_many(np.array([h], dtype=np.uint8)).dtype == np.int8
    assert ref.shanten_many(np.zeros((0, 34), dtype=np.uint8)).shape == (0,)


# ---------------------------------------------------------------------------
# seven pairs
# ---------------------------------------------------------------------------

def test_seven_pairs_literals():
    # 11223344556677m: seven pairs, and also 123 123 456 456 77
    h = hand("11223344556677m")
    assert ref.shanten_seven_pairs(h) == -1
    assert ref.is_winning(h, form="seven_pairs")
    assert ref.shanten_standard(h) == -1
    # 1199m1199p1199s1z (13): six pairs + 1z -> seven pairs tenpai on 1z only;
    # standard: four pungs on held pairs + a held pair overlap 10 -> 4 missing -> 3
    h = hand("1199m1199p1199s1z")
    assert ref.shanten_seven_pairs(h) == 0
    assert ref.shanten_standard(h) == 3
    assert ref.shanten(h) == 0
    assert ref.waits(h) == kinds("1z")
    assert ref.shanten(h, rules="classical") == 3


def test_seven_pairs_four_of_a_kind():
    # 1111m 22p 33p 44s 55s 66s (14):
    #  default seven pairs: only six different kinds hold a pair -> overlap 12 -> 1-shanten
    #  kong_as_two_pairs: 1111m counts as two pairs -> complete
    #  standard: 111m 456s 456s 22p + 3p needed for 333p -> 0
    h = hand("1111m2233p445566s")
    assert ref.shanten_seven_pairs(h) == 1
    assert ref.shanten_seven_pairs(h, kong_as_two_pairs=True) == -1
    assert ref.shanten_standard(h) == 0
    assert ref.shanten(h) == 0
    assert ref.shanten(h, rules="mcr") == -1
    assert ref.shanten(h, form="seven_pairs") == 1
    assert ref.shanten(h, form="seven_pairs", rules="mcr") == -1
    assert not ref.is_winning(h)
    assert not ref.is_winning(h, form="seven_pairs")
    assert ref.is_winning(h, rules="mcr")
    assert ref.is_winning(h, form="seven_pairs", rules="mcr")
    # 1111m 22p 33p 44s 55s 6s (13):
    #  default: pairs 1m 2p 3p 4s 5s + 6s single -> top-7 of min(2,H) = 2*5+1 = 11 -> 2
    #  kong: 1111m (4) + 4 pairs (8) + 6s (1) = 13 -> tenpai on 6s only
    h = hand("1111m22p33p44s55s6s")
    assert ref.shanten_seven_pairs(h) == 2
    assert ref.shanten_seven_pairs(h, kong_as_two_pairs=True) == 0
    assert ref.waits(h, form="seven_pairs", rules="mcr") == kinds("6s")
    assert ref.waits(h, rules="mcr") == kinds("6s")
    assert ref.waits(h) == []
    # 1111 2222 3333 44m (14): default seven pairs has only 4 kinds -> overlap 8 -> 5;
    # kong variant: 4+4+4+2 -> complete; standard: 123x4 + 44 -> complete
    h = hand("11112222333344m")
    assert ref.shanten_seven_pairs(h) == 5
    assert ref.shanten_seven_pairs(h, kong_as_two_pairs=True) == -1
    assert ref.shanten(h) == -1


# ---------------------------------------------------------------------------
# thirteen orphans
# ---------------------------------------------------------------------------

def test_thirteen_orphans():
    # one of each orphan (13): 13-sided wait
    h = hand("19m19p19s1234567z")
    assert ref.shanten_thirteen_orphans(h) == 0
    assert ref.shanten(h) == 0
    assert ref.waits(h) == ORPHANS
    assert len(ref.waits(h)) == 13
    # standard: no set contains two held kinds -> each of 5 groups overlaps <= 1 -> 9 missing
    assert ref.shanten(h, rules="classical") == 8
    assert ref.waits(h, rules="classical") == []
    # complete with 7z doubled
    h = hand("19m19p19s12345677z")
    assert ref.shanten_thirteen_orphans(h) == -1
    assert ref.is_winning(h)
    assert ref.is_winning(h, form="thirteen_orphans")
    assert not ref.is_winning(h, rules="classical")
    # 1m 5m 9m 1p 9p 1s 9s 1-6z (13): 12 distinct orphans, no pair -> 2 missing -> 1
    assert ref.shanten_thirteen_orphans(hand("159m19p19s123456z")) == 1
    # all 13 orphans + 5m (14): 1 missing (any orphan's second copy) -> 0
    h = hand("159m19p19s1234567z")
    assert ref.shanten_thirteen_orphans(h) == 0
    assert ref.shanten(h) == 0
    assert not ref.is_winning(h)


# ---------------------------------------------------------------------------
# honors and knitted tiles, knitted straight (MCR)
# ---------------------------------------------------------------------------

def test_honors_knitted():
    # 147m 25p 369s + 1-6z: 14 different kinds of the (m,p,s)=(147,258,369) set -> complete
    h = hand("147m25p369s123456z")
    assert ref.shanten_honors_knitted(h) == -1
    assert ref.is_winning(h, form="honors_knitted")
    assert ref.is_winning(h, rules="mcr")
    assert not ref.is_winning(h)  # not an "all" form without MCR
    assert ref.shanten(h, rules="mcr") == -1
    # another permutation: 258m 369p 147s + 5 honors
    assert ref.shanten_honors_knitted(hand("258m369p147s12345z")) == -1
    # 147m258p369s1234z (13 different candidates): tenpai on 5z 6z 7z
    h = hand("147m258p369s1234z")
    assert ref.shanten_honors_knitted(h) == 0
    assert ref.waits(h, rules="mcr") == kinds("5z", "6z", "7z")
    assert ref.waits(h, form="honors_knitted") == kinds("5z", "6z", "7z")
    assert ref.waits(h) == []
    # a doubled 1m (14 tiles, 13 different candidates) -> 1 missing -> 0
    assert ref.shanten_honors_knitted(hand("1147m258p369s1234z")) == 0
    assert not ref.is_winning(hand("1147m258p369s1234z"), rules="mcr")
    # 1p is not a candidate when p carries 258 -> 13 candidates held -> 0
    assert ref.shanten_honors_knitted(plus(hand("147m258p369s1234z"), "1p")) == 0
    # 147m 147p 369s 12345z: m and p both 147, only one can be the 147 suit:
    # 3 + 3 + 5 = 11 candidates -> 3 missing -> 2
    assert ref.shanten_honors_knitted(hand("147m147p369s12345z")) == 2


def test_knitted_straight():
    # 147m258p369s + 111z + 22z -> complete
    h = hand("147m258p369s11122z")
    assert ref.shanten_knitted_straight(h) == -1
    assert ref.is_winning(h, form="knitted_straight")
    assert ref.is_winning(h, rules="mcr")
    assert not ref.is_winning(h)
    assert ref.shanten(h, rules="mcr") == -1
    # the set may reuse a knitted kind: 147m 456m 258p 369s 77z
    assert ref.shanten_knitted_straight(hand("147456m258p369s77z")) == -1
    # a pung on a knitted kind uses its other three copies: 1111m 47m 258p 369s 22z
    h = hand("111147m258p369s22z")
    assert ref.shanten_knitted_straight(h) == -1
    assert ref.is_winning(h, rules="mcr")
    # other permutation: 369m 147p 258s + 111z + 22z
    assert ref.shanten_knitted_straight(hand("369m147p258s11122z")) == -1
    # 147m258p369s1111z (13): 1z pung + 1z pair would be five 1z, so the best is
    # knitted 9 + 111z = 12 of 14 -> 2 missing -> 1 (0 if copies were unlimited)
    assert ref.shanten_knitted_straight(hand("147m258p369s1111z")) == 1
    # 147m258p369s1122z (13): 111z or 222z one away -> tenpai on 1z 2z
    h = hand("147m258p369s1122z")
    assert ref.shanten_knitted_straight(h) == 0
    assert ref.waits(h, rules="mcr") == kinds("1z", "2z")
    assert ref.waits(h, form="knitted_straight") == kinds("1z", "2z")
    assert ref.waits(h) == []
    # missing the 7m of the knitted part: tenpai on 7m
    h = hand("14m258p369s11122z")
    assert ref.shanten_knitted_straight(h) == 0
    assert ref.waits(h, rules="mcr") == kinds("7m")


# ---------------------------------------------------------------------------
# decompose
# ---------------------------------------------------------------------------

def test_decompose_multiple():
    # 111222333m 789p 11z: three pungs or three 123m chows
    d = ref.decompose(hand("111222333m789p11z"))
    assert d == [
        (27, (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 15))),
        (27, (("chow", 15), ("pung", 0), ("pung", 1), ("pung", 2))),
    ]
    # 11223344m: 11 + 234 234, or 44 + 123 123
    assert ref.decompose(hand("11223344m")) == [
        (0, (("chow", 1), ("chow", 1))),
        (3, (("chow", 0), ("chow", 0))),
    ]
    # 1111 2222 3333 44m: 44 + 123x4; 44 + 111 222 333 123; 11 + 123 123 234 234
    # (pairs 22 or 33 leave no split)
    assert ref.decompose(hand("11112222333344m")) == [
        (0, (("chow", 0), ("chow", 0), ("chow", 1), ("chow", 1))),
        (3, (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 0))),
        (3, (("chow", 0), ("pung", 0), ("pung", 1), ("pung", 2))),
    ]
    # not complete / 3k+1 -> empty
    assert ref.decompose(hand("1111m2233p445566s")) == []
    assert ref.decompose(hand("123m456p789s1122z")) == []


# ---------------------------------------------------------------------------
# effective tiles
# ---------------------------------------------------------------------------

def test_effective_tiles_simple():
    # 1m 3m 5p 7z (k=1, 1-shanten): 2m makes 123m (pair 55p/77z left),
    # 5p or 7z makes the pair (2m left); nothing else helps (e.g. 1m: 113m still 2 away)
    h = hand("13m5p7z")
    assert ref.effective_tiles(h) == {kind("2m"): 4, kind("5p"): 3, kind("7z"): 3}
    visible = [0] * 34
    visible[kind("2m")] = 4  # all 2m seen: no longer drawable
    visible[kind("5p")] = 2
    assert ref.effective_tiles(h, visible=visible) == {kind("5p"): 1, kind("7z"): 3}
    # the 3k+2 form: one entry per held kind, each the 3k+1 answer after that discard
    h5 = plus(h, "9s")
    table = ref.effective_tiles(h5)
    assert sorted(table) == kinds("1m", "3m", "5p", "9s", "7z")
    assert table[kind("9s")] == {kind("2m"): 4, kind("5p"): 3, kind("7z"): 3}
    # tenpai hand: effective tiles are the waits
    h = hand("123m456p789s1122z")
    assert ref.effective_tiles(h) == {kind("1z"): 2, kind("2z"): 2}


# ---------------------------------------------------------------------------
# suit_distances
# ---------------------------------------------------------------------------

def test_suit_distances_literals():
    # empty suit: k sets + p pairs all missing -> 3k + 2p
    expected_empty = tuple(3 * k + 2 * p for k in range(5) for p in range(2))
    assert ref.suit_distances([0] * 9) == expected_empty
    assert ref.suit_distances([0] * 7, honors=True) == expected_empty
    # 111222333: up to 3 sets free, a pair needs 2 new tiles only once all 9 are in sets;
    # 4 sets + pair: 5 more tiles at least (14 - 9), e.g. 456 + 44
    assert ref.suit_distances([3, 3, 3, 0, 0, 0, 0, 0, 0]) == (0, 0, 0, 0, 0, 0, 0, 2, 3, 5)
    # nine gates 1112345678999: 111 234 567 999 free, + pair needs one tile
    assert ref.suit_distances([3, 1, 1, 1, 1, 1, 1, 1, 3]) == (0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    # 1 3 5: pair 1, set 1 (2 for 123 or 345), set+pair 2 (135 -> 123 + 55),
    # 2 sets 3 (123 345 needs 2,3,4), 2 sets + pair 5 (8 - 3)
    assert ref.suit_distances([1, 0, 1, 0, 1, 0, 0, 0, 0])[:6] == (0, 1, 1, 2, 3, 5)
    # honors cannot chow: 1z 2z 3z -> one set costs 2, not 0
    assert ref.suit_distances([1, 1, 1, 0, 0, 0, 0], honors=True)[:4] == (0, 1, 2, 3)
    assert ref.suit_distances([1, 1, 1, 0, 0, 0, 0, 0, 0])[:4] == (0, 1, 0, 2)
    # four of a kind: 4444 as pung + pair would be 5 copies -> 1 set + pair costs 2
    # (444 + another pair), not 1
    assert ref.suit_distances([4, 0, 0, 0, 0, 0, 0, 0, 0], honors=False)[3] == 2
    assert ref.suit_distances([4, 0, 0, 0, 0, 0, 0], honors=True)[3] == 2
    with pytest.raises(ValueError):
        ref.suit_distances([0] * 7)  # number suit needs 9
    with pytest.raises(ValueError):
        ref.suit_distances([0] * 9, honors=True)


def _groups(width, honors):
    """(vector, sets, pairs) for every set and pair of one suit."""
    out = []
    for r in range(width):
        v = [0] * width
        v[r] = 3
        out.append((tuple(v), 1, 0))
        v = [0] * width
        v[r] = 2
        out.append((tuple(v), 0, 1))
    if not honors:
        for r in range(width - 2):
            v = [0] * width
            v[r] = v[r + 1] = v[r + 2] = 1
            out.append((tuple(v), 1, 0))
    return out


@functools.cache
def _contained(c, honors):
    """Set of (k, p) (k <= 4, p <= 1) such that the counts c contain k sets and p pairs."""
    result = {(0, 0)}
    for v, gk, gp in _groups(len(c), honors):
        if all(a >= b for a, b in zip(c, v)):
            rest = tuple(a - b for a, b in zip(c, v))
            for k, p in _contained(rest, honors):
                if k + gk <= 4 and p + gp <= 1:
                    result.add((k + gk, p + gp))
    return frozenset(result)


def test_suit_distances_against_additions():
    """Independent route: the distance for (k, p) is the fewest tiles one must ADD
    (keeping counts <= 4) so that the suit contains k sets and p pairs.  Search
    additions of up to 3 tiles; larger distances are only checked to exceed 3."""
    rng = np.random.default_rng(1234)
    for honors in (False, True):
        width = 7 if honors else 9
        for _ in range(25):
            c = [0] * width
            for r in rng.choice(width * 4, size=int(rng.integers(0, 9)), replace=False):
                c[r // 4] += 1
            c = tuple(c)
            best = {}
            for d in range(4):
                for add in itertools.combinations_with_replacement(range(width), d):
                    t = list(c)
                    for r in add:
                        t[r] += 1
                    if max(t) > 4:
                        continue
                    for kp in _contained(tuple(t), honors):
                        best.setdefault(kp, d)
            got = ref.suit_distances(c, honors=honors)
            for k in range(5):
                for p in range(2):
                    if (k, p) in best:
                        assert got[2 * k + p] == best[k, p], (c, k, p)
                    else:
                        assert got[2 * k + p] > 3, (c, k, p)


# ---------------------------------------------------------------------------
# small-world brute force of the special-form shortcuts
# ---------------------------------------------------------------------------

def _small_world_hands(rng, world, count, n=14):
    wall = np.repeat(np.array(world), 4)
    out = []
    for _ in range(count):
        h = [0] * 34
        for t in rng.choice(wall, size=n, replace=False):
            h[t] += 1
        out.append(tuple(h))
    return out


def test_seven_pairs_and_orphans_small_world():
    """Tiles drawn from 8 kinds (so most hands are far from everything); every
    target of the form over those 8 kinds plus 3 kinds never held is listed
    literally.  Kinds outside that candidate set are interchangeable with the
    unheld ones (all overlap 0), so the restricted minimum is the true one."""
    rng = np.random.default_rng(7)
    world = [0, 1, 8, 13, 26, 27, 30, 33]
    candidates = world + [4, 20, 31]
    # seven pairs: 7 different candidate kinds with 2 each
    sp_targets = []
    for chosen in itertools.combinations(candidates, 7):
        T = [0] * 34
        for i in chosen:
            T[i] = 2
        sp_targets.append(T)
    # kong variant: candidate counts in {0, 2, 4} summing to 14
    spk_targets = []
    for vals in itertools.product((0, 2, 4), repeat=len(candidates)):
        if sum(vals) == 14:
            T = [0] * 34
            for i, v in zip(candidates, vals):
                T[i] = v
            spk_targets.append(T)
    # thirteen orphans: all 13 orphans + one extra orphan
    to_targets = []
    for extra in ORPHANS:
        T = [0] * 34
        for i in ORPHANS:
            T[i] = 1
        T[extra] += 1
        to_targets.append(T)
    hands = _small_world_hands(rng, world, 60) + _small_world_hands(rng, world, 60, n=13)
    seen = set()
    for h in hands:
        sp = ref.shanten_seven_pairs(h)
        spk = ref.shanten_seven_pairs(h, kong_as_two_pairs=True)
        assert sp == literal_distance(h, sp_targets) - 1, h
        assert spk == literal_distance(h, spk_targets) - 1, h
        assert ref.shanten_thirteen_orphans(h) == literal_distance(h, to_targets) - 1, h
        assert spk <= sp
        seen.add((sp, spk))
    assert any(a != b for a, b in seen)  # the kong variant made a difference somewhere


def test_honors_knitted_literal():
    """All 6 x C(16, 14) honors-and-knitted targets listed literally."""
    targets = []
    for perm in itertools.permutations(range(3)):
        cand = [9 * perm[0] + r for r in (0, 3, 6)] + [9 * perm[1] + r for r in (1, 4, 7)] \
            + [9 * perm[2] + r for r in (2, 5, 8)] + list(range(27, 34))
        for chosen in itertools.combinations(cand, 14):
            T = [0] * 34
            for i in chosen:
                T[i] = 1
            targets.append(T)
    rng = np.random.default_rng(11)
    world = [0, 3, 6, 10, 13, 16, 20, 23, 26, 2, 27, 30, 33]  # knitted-friendly kinds
    hands = _small_world_hands(rng, world, 40) + _small_world_hands(rng, list(range(34)), 20, n=13)
    values = set()
    for h in hands:
        got = ref.shanten_honors_knitted(h)
        assert got == literal_distance(h, targets) - 1, h
        values.add(got)
    assert len(values) >= 3


def test_standard_against_full_targets():
    """For k <= 2 list every full-hand standard target (all multisets of k sets
    over 34 kinds plus a pair, counts <= 4): checks the per-suit split argument."""
    sets = []
    for i in range(34):
        v = np.zeros(34, np.int8)
        v[i] = 3
        sets.append(v)
    for s in range(3):
        for r in range(7):
            v = np.zeros(34, np.int8)
            v[9 * s + r: 9 * s + r + 3] = 1
            sets.append(v)
    rng = np.random.default_rng(3)
    for k in range(3):
        rows = []
        for combo in itertools.combinations_with_replacement(range(len(sets)), k):
            base = sum((sets[c] for c in combo), np.zeros(34, np.int8))
            for pair in range(34):
                t = base.copy()
                t[pair] += 2
                if t.max() <= 4:
                    rows.append(t)
        targets = np.array(rows)
        for n in (3 * k + 1, 3 * k + 2):
            # half the hands from a narrow world, so that many are close to complete
            hands = _small_world_hands(rng, list(range(34)), 20, n=n) + \
                _small_world_hands(rng, [0, 1, 2, 3, 27, 28], 20, n=n)
            for h in hands:
                expected = int(np.maximum(targets - np.array(h, np.int8), 0).sum(axis=1).min()) - 1
                assert ref.shanten_standard(h) == expected, h


# ---------------------------------------------------------------------------
# cross-consistency: is_winning / decompose / waits / shanten / shanten_many
# ---------------------------------------------------------------------------

def _random_complete(rng, k):
    """A random complete standard hand with k sets (rejection on > 4 copies)."""
    while True:
        h = [0] * 34
        for _ in range(k):
            if rng.random() < 0.5:
                i = int(rng.integers(34))
                h[i] += 3
            else:
                s, r = int(rng.integers(3)), int(rng.integers(7))
                for j in range(3):
                    h[9 * s + r + j] += 1
        h[int(rng.integers(34))] += 2
        if max(h) <= 4:
            return tuple(h)


def _random_special(rng):
    """A random complete special-form hand (seven pairs, kong seven pairs,
    thirteen orphans, honors knitted, knitted straight)."""
    perm = list(itertools.permutations(range(3)))[int(rng.integers(6))]
    knitted = [9 * perm[0] + r for r in (0, 3, 6)] + [9 * perm[1] + r for r in (1, 4, 7)] \
        + [9 * perm[2] + r for r in (2, 5, 8)]
    h = [0] * 34
    which = int(rng.integers(5))
    if which == 0:
        for i in rng.choice(34, 7, replace=False):
            h[i] = 2
    elif which == 1:
        chosen = rng.choice(34, 6, replace=False)
        for i in chosen:
            h[i] = 2
        h[int(chosen[0])] = 4
    elif which == 2:
        for i in ORPHANS:
            h[i] = 1
        h[ORPHANS[int(rng.integers(13))]] += 1
    elif which == 3:
        for i in rng.choice(knitted + list(range(27, 34)), 14, replace=False):
            h[i] = 1
    else:
        while True:
            rest = _random_complete(rng, 1)
            h = [a + (1 if i in knitted else 0) for i, a in enumerate(rest)]
            if max(h) <= 4:
                break
    return tuple(h)


def _perturb(rng, h, swaps):
    h = list(h)
    for _ in range(swaps):
        out = int(rng.choice(np.flatnonzero(np.array(h) > 0)))
        h[out] -= 1
        into = int(rng.choice(np.flatnonzero(np.array(h) < 4)))
        h[into] += 1
    return tuple(h)


def _mixed_hands(rng, count):
    hands = []
    for i in range(count):
        k = int(rng.integers(0, 5))
        base = _random_complete(rng, k) if i % 3 else _random_special(rng)
        h = _perturb(rng, base, int(rng.integers(0, 3)))
        if i % 4 == 0 and sum(h) > 2:  # make a 3k+1 hand now and then
            lst = list(h)
            lst[int(rng.choice(np.flatnonzero(np.array(lst) > 0)))] -= 1
            h = tuple(lst)
        hands.append(h)
    return hands


def test_is_winning_agrees_with_shanten_and_decompose():
    rng = np.random.default_rng(2024)
    hands = _mixed_hands(rng, 400)
    wins = {None: 0, "mcr": 0}
    for h in hands:
        for rules in (None, "classical", "mcr"):
            w = ref.is_winning(h, rules=rules)
            assert w == (ref.shanten(h, rules=rules) == -1), (h, rules)
            if rules in wins:
                wins[rules] += w
        std = ref.is_winning(h, form="standard")
        decs = ref.decompose(h)
        assert std == bool(decs) == (ref.shanten_standard(h) == -1), h
        assert decs == sorted(set(decs))
        for pair, sets in decs:
            c = [0] * 34
            c[pair] += 2
            for name, i in sets:
                if name == "pung":
                    c[i] += 3
                else:
                    assert i < 27 and i % 9 <= 6
                    c[i] += 1
                    c[i + 1] += 1
                    c[i + 2] += 1
            assert tuple(c) == h
            assert len(sets) == sum(h) // 3
        if sum(h) in (13, 14):
            for form in ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"):
                assert ref.is_winning(h, form=form, rules="mcr") == \
                    (ref.shanten(h, form=form, rules="mcr") == -1), (h, form)
    assert wins[None] > 20 and wins["mcr"] > wins[None]


def test_waits_agree_with_shanten():
    rng = np.random.default_rng(99)
    found = 0
    for _ in range(40):
        h = list(_random_complete(rng, int(rng.integers(0, 5))))
        h[int(rng.choice(np.flatnonzero(np.array(h) > 0)))] -= 1
        h = tuple(h)
        for rules in (None, "mcr"):
            w = ref.waits(h, rules=rules)
            expected = [t for t in range(34) if h[t] < 4 and ref.shanten(plus(h, ref_name(t)), rules=rules) == -1]
            assert w == expected
            found += len(w)
            assert w == sorted(ref.effective_tiles(h, rules=rules)) or ref.shanten(h, rules=rules) > 0
    assert found > 40


def ref_name(t):
    return f"{t % 9 + 1}{'mpsz'[t // 9]}"


def test_effective_tiles_definition():
    rng = np.random.default_rng(5)
    for h in _small_world_hands(rng, list(range(34)), 15, n=13):
        base = ref.shanten(h)
        eff = ref.effective_tiles(h)
        for t in range(34):
            better = h[t] < 4 and ref.shanten(plus(h, ref_name(t))) < base
            assert (t in eff) == better
            if better:
                assert eff[t] == 4 - h[t]
        assert eff  # a 13-tile hand always has some improving draw
    h14 = _small_world_hands(rng, list(range(34)), 1, n=14)[0]
    table = ref.effective_tiles(h14)
    assert sorted(table) == [i for i in range(34) if h14[i]]
    d = next(iter(table))
    lst = list(h14)
    lst[d] -= 1
    assert table[d] == ref.effective_tiles(lst)


@pytest.mark.parametrize("rules", [None, "classical", "mcr"])
def test_shanten_many_matches_scalar(rules):
    rng = np.random.default_rng({None: 1, "classical": 2, "mcr": 3}[rules])
    hands = _mixed_hands(rng, 250)
    # plus plain random 13/14-tile hands from the whole wall
    hands += _small_world_hands(rng, list(range(34)), 100, n=14)
    hands += _small_world_hands(rng, list(range(34)), 50, n=13)
    # plus near-special hands, where the MCR forms matter
    hands += [_perturb(rng, _random_special(rng), int(rng.integers(0, 4))) for _ in range(150)]
    arr = np.array(hands, dtype=np.uint8)
    got = ref.shanten_many(arr, rules=rules)
    assert got.dtype == np.int8 and got.shape == (len(hands),)
    expected = [ref.shanten(h, rules=rules) for h in hands]
    assert got.tolist() == expected
    assert min(expected) == -1 and max(expected) >= 4


@pytest.mark.parametrize("form", ["standard", "seven_pairs", "thirteen_orphans",
                                  "honors_knitted", "knitted_straight"])
def test_shanten_many_matches_scalar_per_form(form):
    rng = np.random.default_rng(17)
    hands = [_perturb(rng, _random_special(rng), int(rng.integers(0, 3))) for _ in range(120)]
    hands += _small_world_hands(rng, list(range(34)), 40, n=13)
    arr = np.array(hands, dtype=np.uint8)
    for rules in (None, "mcr"):
        got = ref.shanten_many(arr, form=form, rules=rules).tolist()
        assert got == [ref.shanten(h, form=form, rules=rules) for h in hands]


def _random_wall_hands(rng, count, n=14, chunk=100_000):
    """count hands of n tiles, each drawn without replacement from the 136-tile wall."""
    parts = []
    for start in range(0, count, chunk):
        m = min(chunk, count - start)
        idx = np.argpartition(rng.random((m, 136)), n, axis=1)[:, :n] // 4
        part = np.zeros((m, 34), np.uint8)
        np.add.at(part, (np.repeat(np.arange(m), n), idx.ravel()), 1)
        parts.append(part)
    return np.concatenate(parts)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [None, "mcr"])
def test_shanten_many_million(rules):
    """A million random 14-tile hands (runs in a few seconds); a sample of
    rows is checked against the scalar function."""
    rng = np.random.default_rng(2025)
    arr = _random_wall_hands(rng, 1_000_000)
    got = ref.shanten_many(arr, rules=rules)
    assert got.shape == (1_000_000,) and got.min() >= -1 and got.max() <= 6
    for i in rng.choice(len(arr), 500, replace=False):
        assert got[i] == ref.shanten(arr[i], rules=rules)
