"""Pin the oracle (tests/oracles/reference.py) on two rule changes, from the definitions alone.

1. MCR knitted straight with one called set: at 10/11 concealed tiles the form's targets are
   the knitted 9 (147 / 258 / 369 of the three suits, six assignments) + one pair (11 tiles);
   at 13/14 they stay knitted 9 + one set + one pair.  The closed special forms (seven pairs,
   thirteen orphans, honors and knitted) stay 13/14-tile forms.
2. ``called=``: the copies held in the hand's own called sets and kongs.  A target may use at
   most ``4 - called_i`` copies of kind i; waits skip kinds with concealed + called == 4; the
   unseen copies of an effective tile are 4 - concealed - called - visible.

Only the oracle is used here (no kernel comparisons).  Literal hands carry the expected answer
worked out by hand in a comment; everything random uses a fixed seed.
"""
import importlib.util
import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import _proc
from oracles import reference as ref

SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
MCR_FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
RULES = (None, "classical", "basic", "mcr")
#: the oracle as it was before these two changes (same file at this commit)
OLD_COMMIT = "116da3d6de972eacccf435a7f26362c469eeec74"


def _counts(text):
    counts = [0] * 34
    digits = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch.isspace():
            continue
        else:
            for d in digits:
                counts[SUIT_BASE[ch] + d - 1] += 1
            digits = []
    assert not digits, text
    return counts


def parse(text):
    """'123m456p789s1z [111z] (2222m)' -> (concealed counts, called counts) as tuples.

    Tiles inside [...] (a called set) or (...) (a concealed kong) go to ``called``."""
    outside, called = "", []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "[(":
            j = text.index("]" if ch == "[" else ")", i)
            called.append(text[i + 1:j])
            i = j + 1
        else:
            outside += ch
            i += 1
    concealed = _counts(outside)
    c = [0] * 34
    for group in called:
        for k, v in enumerate(_counts(group)):
            c[k] += v
    return tuple(concealed), tuple(c)


def hand(text):
    return parse(text)[0]


def kind(text):
    """'5m' -> 4."""
    return SUIT_BASE[text[1]] + int(text[0]) - 1


def kinds(*texts):
    return sorted(kind(t) for t in texts)


def name(t):
    return f"{t % 9 + 1}{'mpsz'[t // 9]}"


def plus(h, *texts):
    c = list(h)
    for t in texts:
        c[kind(t)] += 1
    return tuple(c)


NO_CALLED = (0,) * 34


# ---------------------------------------------------------------------------
# 1. knitted straight at 10 / 11 concealed tiles
# ---------------------------------------------------------------------------

def test_knitted_straight_eleven_tiles_complete():
    # 2458m 369s 147p + 4m (11): 258m 369s 147p is the knitted 9 (m=258, s=369, p=147), the
    # two 4m left are the pair -> knitted 9 + pair, complete.
    h = hand("24458m369s147p")
    assert sum(h) == 11
    assert ref.is_winning(h, rules="mcr")
    assert ref.is_winning(h, form="knitted_straight")
    assert ref.is_winning(h, form="knitted_straight", rules="mcr")
    assert ref.shanten(h, rules="mcr") == -1
    assert ref.shanten(h, form="knitted_straight") == -1
    assert ref.shanten_knitted_straight(h) == -1
    # not standard: 3 sets + pair; the s and p tiles are three apart, so no set holds two of
    # them; the m tiles 2 4 4 5 8 fit at most 234m + 456m (four of them) in two groups, or
    # 234 + 456 + 8xx (five) in three -> overlap 6 of 11 -> 5 missing -> 4-shanten.  Without
    # MCR the knitted straight is not a form of "all".
    assert not ref.is_winning(h)
    assert not ref.is_winning(h, rules="classical")
    assert ref.shanten(h) == 4
    assert ref.shanten(h, rules="basic") == 4
    assert ref.shanten_standard(h) == 4


def test_knitted_straight_ten_tile_waits():
    # 2458m 369s 147p (10): m holds 2 5 8 (of 147 only 4, of 369 none), s holds 3 6 9, p holds
    # 1 4 7, so m=258 s=369 p=147 is the only assignment with all nine knitted kinds held, and
    # every other one misses at least 3.  The hand has no pair, so a complete 11-tile hand is
    # those nine plus a pair made from the one tile left over, 4m -> tenpai, waits on 4m only.
    h = hand("2458m369s147p")
    assert ref.shanten(h, rules="mcr") == 0
    assert ref.shanten(h, form="knitted_straight") == 0
    assert ref.waits(h, rules="mcr") == kinds("4m")
    assert ref.waits(h, form="knitted_straight") == kinds("4m")
    # standard: 4 groups; m 2 4 5 8 give at most 4 tiles in 3 groups (234, 5xx, 8xx), the
    # s and p tiles one per group -> overlap 5 of 11 -> 6 missing -> 5-shanten; no waits
    assert ref.shanten(h) == 5
    assert ref.waits(h) == []
    assert ref.waits(h, rules="classical") == []
    # tenpai: the effective tiles are the waits, 3 unseen 4m
    assert ref.effective_tiles(h, rules="mcr") == {kind("4m"): 3}


def test_knitted_straight_ten_tile_literals():
    # 147m 258p 369s 1z (10): knitted 9 complete + 1z single -> pair wait on 1z
    h = hand("147m258p369s1z")
    assert ref.shanten_knitted_straight(h) == 0
    assert ref.waits(h, rules="mcr") == kinds("1z")
    # 14m 258p 369s 55z (10): knitted 9 missing 7m, pair 55z held -> waits 7m
    h = hand("14m258p369s55z")
    assert ref.shanten_knitted_straight(h) == 0
    assert ref.waits(h, rules="mcr") == kinds("7m")
    # 111m 47m 25p 369s (10): knitted 9 (m=147) missing 8p; the two extra 1m make the pair
    # on a knitted kind (T_1m = 1 + 2 = 3 = H_1m) -> waits 8p only (a 4th 1m would need a pung,
    # and an 11-tile target has no set)
    h = hand("11147m25p369s")
    assert ref.shanten_knitted_straight(h) == 0
    assert ref.waits(h, rules="mcr") == kinds("8p")
    # 147m 258p 369s + 4m + 1z (11): knitted 9 + two singles -> one tile from knitted 9 + pair
    h = hand("147m258p369s4m1z")
    assert ref.shanten(h, form="knitted_straight") == 0
    assert not ref.is_winning(h, rules="mcr")
    # 2458m 36s 147p + 1z (10): knitted 9 missing 9s, 4m and 1z singles -> 2 missing -> 1
    h = hand("2458m36s147p1z")
    assert ref.shanten_knitted_straight(h) == 1
    # 147m 258p 369s 11z (11): complete; also under "all" with MCR, not without
    h = hand("147m258p369s11z")
    assert ref.is_winning(h, rules="mcr") and not ref.is_winning(h)
    # 13/14 tiles keep the set: 147m 258p 369s 1122z (13) is tenpai on 1z/2z (111z or 222z)
    assert ref.waits(hand("147m258p369s1122z"), rules="mcr") == kinds("1z", "2z")
    # no set in an 11-tile target: 47m 258p 369s 111z (11) has the knitted 9 but 1m and a
    # 1z pung; a target is knitted 9 + pair, so the best uses 11z (the third 1z is left over)
    # and misses 1m -> 1 missing -> 0-shanten, not complete
    h = hand("47m258p369s111z")
    assert sum(h) == 11
    assert ref.shanten_knitted_straight(h) == 0
    assert not ref.is_winning(h, rules="mcr")


@pytest.mark.parametrize("n", [1, 2, 4, 5, 7, 8])
def test_knitted_straight_bad_sizes_raise(n):
    h = [0] * 34
    order = [0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 27, 28, 28, 29]
    for i in order[:n]:
        h[i] += 1
    assert sum(h) == n
    for call in (lambda: ref.shanten(h, form="knitted_straight"),
                 lambda: ref.shanten_knitted_straight(h),
                 lambda: ref.is_winning(h, form="knitted_straight"),
                 lambda: ref.shanten_many(np.array([h]), form="knitted_straight")):
        with pytest.raises(ValueError, match="knitted_straight"):
            call()
    if n % 3 == 1:
        with pytest.raises(ValueError, match="knitted_straight"):
            ref.waits(h, form="knitted_straight")
    # "all" with MCR at these sizes is the standard form alone
    assert ref.shanten(h, rules="mcr") == ref.shanten_standard(h)


@pytest.mark.parametrize("n", [10, 11])
def test_closed_special_forms_still_need_13_or_14(n):
    h = [0] * 34
    for i in [0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 27][:n]:
        h[i] += 1
    for form in ("seven_pairs", "thirteen_orphans", "honors_knitted"):
        with pytest.raises(ValueError, match=form):
            ref.shanten(h, form=form, rules="mcr")
        with pytest.raises(ValueError, match=form):
            ref.is_winning(h, form=form, rules="mcr")
        with pytest.raises(ValueError, match=form):
            ref.shanten_many(np.array([h]), form=form, rules="mcr")
    with pytest.raises(ValueError):
        ref.shanten_seven_pairs(h)
    with pytest.raises(ValueError):
        ref.shanten_thirteen_orphans(h)
    with pytest.raises(ValueError):
        ref.shanten_honors_knitted(h)
    # the knitted straight itself is accepted at 10 and 11
    assert ref.shanten_knitted_straight(h) >= -1


# ---------------------------------------------------------------------------
# 1 + 2. knitted straight next to a called set
# ---------------------------------------------------------------------------

def test_knitted_straight_with_called_chow():
    # 147m 258p 369s 1z [123m]: the chow holds one copy each of 1m 2m 3m, so 1m has 3 left,
    # enough for the knit's one -> knitted 9 + 1z: tenpai on 1z (3 unseen)
    h, c = parse("147m258p369s1z [123m]")
    assert ref.shanten(h, rules="mcr", called=c) == 0
    assert ref.waits(h, rules="mcr", called=c) == kinds("1z")
    assert ref.effective_tiles(h, rules="mcr", called=c) == {kind("1z"): 3}
    # completed: 147m 258p 369s 11z + [123m] is a win
    h, c = parse("147m258p369s11z [123m]")
    assert ref.is_winning(h, rules="mcr", called=c)
    assert ref.shanten(h, rules="mcr", called=c) == -1
    # 1m as the pair next to the chow: 1147m 258p 369s [123m]: 1m has 2 concealed + 1 called,
    # the target knit + pair 1m needs T_1m = 3 <= 4 - 1 -> tenpai on the last 1m
    # (4 - 2 - 1 = 1 unseen); no other tile pairs up (a knitted kind would need 3 copies)
    h, c = parse("1147m258p369s [123m]")
    assert ref.shanten(h, rules="mcr", called=c) == 0
    assert ref.waits(h, rules="mcr", called=c) == kinds("1m")
    assert ref.effective_tiles(h, rules="mcr", called=c) == {kind("1m"): 1}
    # 11147m 25p 369s [123m]: T_1m = 3 = 4 - 1 still fits (binding exactly) -> waits 8p
    h, c = parse("11147m25p369s [123m]")
    assert ref.waits(h, rules="mcr", called=c) == kinds("8p")


def test_knitted_straight_with_called_pung():
    # 47m 258p 369s 55z [111m]: the pung holds three 1m, one left: the knit (m=147) may take
    # it (T_1m = 1 <= 4 - 3) -> tenpai on 1m with 1 unseen copy (4 - 0 concealed - 3 called)
    h, c = parse("47m258p369s55z [111m]")
    assert ref.shanten(h, rules="mcr", called=c) == 0
    assert ref.shanten(h, form="knitted_straight", called=c) == 0
    assert ref.waits(h, rules="mcr", called=c) == kinds("1m")
    assert ref.effective_tiles(h, rules="mcr", called=c) == {kind("1m"): 1}
    # without the called set all four 1m are unseen
    assert ref.effective_tiles(h, rules="mcr") == {kind("1m"): 4}
    # seen elsewhere too: the last 1m visible -> nothing left to draw
    visible = [0] * 34
    visible[kind("1m")] = 1
    assert ref.effective_tiles(h, visible=visible, rules="mcr", called=c) == {}
    # completed with an honor pung called: 147m 258p 369s 44z [777z]
    h, c = parse("147m258p369s44z [777z]")
    assert ref.is_winning(h, rules="mcr", called=c)
    assert ref.shanten(h, rules="mcr", called=c) == -1


def test_knitted_straight_kong_of_knitted_kind():
    # 47m 258p 369s 55z [1111m]: the kong holds all four 1m, so every assignment with 147 in
    # characters (m=147, p=258, s=369 and m=147, p=369, s=258) has no target.  Best other
    # assignment: m=258 p=147 s=369 holds 369s (3) or m=369 p=258 s=147 holds 258p (3), + 55z
    # pair (2) -> overlap 5 of 11 -> 6 missing -> 5-shanten.
    # Standard (1m not usable either): no set holds two of the held tiles (4m 7m, 2p 5p 8p,
    # 3s 6s 9s are three apart) except 555z, so pair 55z + 3 sets of one each, or 555z + a
    # pair and 2 sets of one each -> overlap 5 -> 5-shanten.
    h, c = parse("47m258p369s55z [1111m]")
    assert ref.shanten(h, form="knitted_straight", called=c) == 5
    assert ref.shanten_knitted_straight(h, called=c) == 5
    assert ref.shanten(h, rules="mcr", called=c) == 5
    assert ref.waits(h, rules="mcr", called=c) == []
    # a concealed kong holds the copies the same way
    h2, c2 = parse("47m258p369s55z (1111m)")
    assert (h2, c2) == (h, c)
    # without the kong it is tenpai on 1m
    assert ref.shanten(h, rules="mcr") == 0
    assert ref.waits(h, rules="mcr") == kinds("1m")
    # a kong of a kind the assignment does not use is harmless: 147m 258p 369s 5z [2222m]
    # (m=147 takes 1m 4m 7m, not 2m) -> still tenpai on 5z
    h, c = parse("147m258p369s5z [2222m]")
    assert ref.shanten(h, rules="mcr", called=c) == 0
    assert ref.waits(h, rules="mcr", called=c) == kinds("5z")


def test_called_set_exhausts_the_pair_kind():
    # 147m 258p 369s 1z [111z]: all four 1z are held (1 concealed + 3 called), so 1z cannot be
    # the pair (T_1z = 2 > 4 - 3) nor be drawn; knitted 9 + a pair of any other kind overlaps
    # 9 -> 2 missing -> 1-shanten, no waits
    h, c = parse("147m258p369s1z [111z]")
    assert ref.shanten(h, rules="mcr", called=c) == 1
    assert ref.shanten_knitted_straight(h, called=c) == 1
    assert ref.waits(h, rules="mcr", called=c) == []
    # any draw t other than 1z gives knitted 9 + t, one tile from knitted 9 + tt (T_t <= 3,
    # within every other kind's limit of 4) -> 0-shanten; unseen = 4 - concealed
    eff = ref.effective_tiles(h, rules="mcr", called=c)
    assert eff == {t: 4 - h[t] for t in range(34) if t != kind("1z")}
    # without the called pung: tenpai on 1z
    assert ref.shanten(h, rules="mcr") == 0
    assert ref.waits(h, rules="mcr") == kinds("1z")
    assert ref.effective_tiles(h, rules="mcr") == {kind("1z"): 3}


# ---------------------------------------------------------------------------
# 2. called sets and the four-copy limit, standard form
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [None, "classical", "mcr"])
def test_called_pung_holds_the_last_copies(rules):
    # 123m 456p 789s 1z [111z]: three sets + 1z waiting for its pair, but the fourth 1z is the
    # one in hand: T_1z <= 4 - 3 = 1, and no set or pair uses one copy of an honor, so 1z is
    # dead: at most the 9 suited tiles fit -> 2 missing -> 1-shanten (e.g. 123m456p789s + 55z)
    h, c = parse("123m456p789s1z [111z]")
    assert ref.shanten(h, rules=rules, called=c) == 1
    assert ref.shanten_standard(h, called=c) == 1
    assert ref.waits(h, rules=rules, called=c) == []
    # without called sets: tenpai on 1z
    assert ref.shanten(h, rules=rules) == 0
    assert ref.waits(h, rules=rules) == kinds("1z")


@pytest.mark.parametrize("rules", [None, "classical", "mcr"])
def test_concealed_kong_blocks_the_chow(rules):
    # 13m 456p 789s 11z (2222m): 123m needs a 2m, all four are in the kong.  Four groups for 10
    # tiles of which 1m and 3m can only share a group through 123m; without it they need two
    # groups, plus 456p, 789s and 11z -> five groups for four slots: at most 9 tiles fit
    # (e.g. 111m 456p 789s 11z) -> 2 missing -> 1-shanten, no waits
    h, c = parse("13m456p789s11z (2222m)")
    assert ref.shanten(h, rules=rules, called=c) == 1
    assert ref.waits(h, rules=rules, called=c) == []
    assert ref.shanten(h, rules=rules) == 0
    assert ref.waits(h, rules=rules) == kinds("2m")


def test_called_copies_reduce_unseen_counts():
    # 123m 456p 78s 11z (10): waits 6s (678s) and 9s (789s)
    h = hand("123m456p78s11z")
    assert ref.waits(h) == kinds("6s", "9s")
    assert ref.effective_tiles(h) == {kind("6s"): 4, kind("9s"): 4}
    # [999s]: 9s has one copy left, still enough for 789s -> same waits, 1 unseen 9s
    c = parse("123m456p78s11z [999s]")[1]
    assert ref.waits(h, called=c) == kinds("6s", "9s")
    assert ref.effective_tiles(h, called=c) == {kind("6s"): 4, kind("9s"): 1}
    # (9999s): no 9s left -> 6s only
    c = parse("123m456p78s11z (9999s)")[1]
    assert ref.shanten(h, called=c) == 0
    assert ref.waits(h, called=c) == kinds("6s")
    assert ref.effective_tiles(h, called=c) == {kind("6s"): 4}
    # the 3k+2 form passes the called copies on: 123m456p78s11z + 5z (11), discarding the
    # 5z (now visible) gives back the 10-tile hand above: {6s: 4}
    h11 = plus(h, "5z")
    table = ref.effective_tiles(h11, called=c)
    assert sorted(table) == [t for t in range(34) if h11[t]]
    lst = list(h11)
    lst[kind("5z")] -= 1
    visible = [0] * 34
    visible[kind("5z")] = 1
    assert table[kind("5z")] == ref.effective_tiles(lst, visible=visible, called=c) == {kind("6s"): 4}


def test_is_winning_ignores_called_but_checks_it():
    # a complete concealed shape is complete whatever was called (its tiles exist)
    for text in ("123m456p789s11z [555z]", "147m258p369s11z [123m]", "24458m369s147p [999s]"):
        h, c = parse(text)
        for rules in (None, "mcr"):
            assert ref.is_winning(h, rules=rules, called=c) == ref.is_winning(h, rules=rules), text
    # ... but the four-copy check applies: 11z concealed + [111z] called = five 1z
    h, c = parse("123m456p789s11z [111z]")
    with pytest.raises(ValueError):
        ref.is_winning(h, called=c)


def test_called_validation():
    h, c = parse("147m258p369s1m [111m]")  # 1m: 2 concealed + 3 called = 5
    for call in (lambda: ref.shanten(h, rules="mcr", called=c),
                 lambda: ref.shanten_standard(h, called=c),
                 lambda: ref.shanten_knitted_straight(h, called=c),
                 lambda: ref.is_winning(h, called=c),
                 lambda: ref.waits(h, called=c),
                 lambda: ref.effective_tiles(h, called=c),
                 lambda: ref.shanten_many(np.array([h]), called=c),
                 lambda: ref.shanten_many(np.array([h]), called=np.array([c]))):
        with pytest.raises(ValueError):
            call()
    h = hand("123m456p789s1z")
    with pytest.raises(ValueError):
        ref.shanten(h, called=[0] * 33)             # 33 counts
    with pytest.raises(ValueError):
        ref.shanten(h, called=[-1] + [0] * 33)      # negative
    with pytest.raises(ValueError):
        ref.shanten(h, called=[5] + [0] * 33)       # five copies of 1m
    with pytest.raises(ValueError):
        ref.shanten_many(np.array([h, h]), called=np.zeros((3, 34), int))  # wrong row count
    # visible + concealed + called above 4
    c = parse("[999s]")[1]
    visible = [0] * 34
    visible[kind("9s")] = 2
    with pytest.raises(ValueError):
        ref.effective_tiles(h, visible=visible, called=c)


def test_called_on_other_forms_is_a_copy_limit():
    # The closed forms get the same per-kind limit (the oracle does not judge whether a called
    # set fits a 13-tile hand).  1199m1199p1199s1z (13) is tenpai on 1z for seven pairs;
    # with three 1z elsewhere in "called", 1z has one copy left, not enough for a pair:
    # any other single pair kind has 0 held -> 12 of 14 -> 1-shanten.
    h = hand("1199m1199p1199s1z")
    c = [0] * 34
    c[kind("1z")] = 3
    assert ref.shanten_seven_pairs(h) == 0
    assert ref.shanten_seven_pairs(h, called=c) == 1
    # thirteen orphans 19m19p19s1234567z (13): with 3 called 7z a pair on 7z is impossible but
    # any other orphan can be doubled -> still tenpai, waits every orphan but 7z
    h = hand("19m19p19s1234567z")
    c = [0] * 34
    c[kind("7z")] = 3
    assert ref.shanten_thirteen_orphans(h, called=c) == 0
    assert ref.waits(h, called=c) == [t for t in ref.ORPHANS if t != kind("7z")]
    # with all four 9m gone (kong 9999m, 9m not concealed) thirteen orphans has no target
    h = hand("1m19p19s1234567z11z")  # 1m 1p 9p 1s 9s 1234567z + 11z = 14 tiles
    c = [0] * 34
    c[kind("9m")] = 4
    with pytest.raises(ValueError, match="no complete hand"):
        ref.shanten_thirteen_orphans(h, called=c)
    with pytest.raises(ValueError, match="no complete hand"):
        ref.shanten(h, form="thirteen_orphans", called=c)
    # ... but "all" skips the form without targets: min(standard, seven pairs)
    assert ref.shanten(h, called=c) == min(ref.shanten(h, form="standard", called=c),
                                           ref.shanten(h, form="seven_pairs", called=c))
    # honors and knitted: 147m258p369s1234z (13) is tenpai on 5z 6z 7z.  With all four
    # copies of 5z 6z 7z elsewhere, every assignment keeps 9 knitted + 4 honor candidates,
    # 13 < 14: no target at all (and no waits)
    h = hand("147m258p369s1234z")
    c = [0] * 34
    for t in ("5z", "6z", "7z"):
        c[kind(t)] = 4
    with pytest.raises(ValueError, match="no complete hand"):
        ref.shanten_honors_knitted(h, called=c)
    assert ref.waits(h, form="honors_knitted", called=c) == []


# ---------------------------------------------------------------------------
# literal target lists with limits (independent of the oracle's shortcuts)
# ---------------------------------------------------------------------------

def _knit(perm):
    return [9 * perm[0] + r for r in (0, 3, 6)] + [9 * perm[1] + r for r in (1, 4, 7)] \
        + [9 * perm[2] + r for r in (2, 5, 8)]


def _all_sets():
    out = []
    for i in range(34):
        v = [0] * 34
        v[i] = 3
        out.append(v)
    for s in range(3):
        for r in range(7):
            v = [0] * 34
            for j in range(3):
                v[9 * s + r + j] = 1
            out.append(v)
    return np.array(out, dtype=np.int16)


def _literal_knitted_targets(with_set):
    rows = []
    sets = _all_sets() if with_set else np.zeros((1, 34), np.int16)
    for perm in itertools.permutations(range(3)):
        base = np.zeros(34, np.int16)
        base[_knit(perm)] = 1
        for s in sets:
            for pair in range(34):
                t = base + s
                t[pair] += 2
                rows.append(t)
    return np.array(rows)


def _literal_shanten(h, c, targets):
    """min over targets with T <= 4 - c of sum max(T - H, 0), minus 1 (None: no target)."""
    T = targets[(targets <= 4 - np.asarray(c, np.int16)).all(axis=1)]
    if len(T) == 0:
        return None
    return int(np.maximum(T - np.asarray(h, np.int16), 0).sum(axis=1).min()) - 1


def _random_called(rng, h, n_sets):
    """Copies of n_sets random sets (chow/pung/kong) that fit next to h (four-copy valid)."""
    c = np.zeros(34, np.int64)
    sets = [list(s) for s in _all_sets()]
    kongs = [[4 if j == i else 0 for j in range(34)] for i in range(34)]
    tries = 0
    while n_sets and tries < 1000:
        tries += 1
        s = np.array(kongs[rng.integers(34)] if rng.random() < 0.25 else sets[rng.integers(len(sets))])
        if (np.asarray(h) + c + s).max() <= 4:
            c += s
            n_sets -= 1
    return tuple(int(x) for x in c)


def _near_knitted(rng, n):
    """A random hand of n tiles (10, 11, 13, 14) near a knitted straight."""
    while True:
        perm = list(itertools.permutations(range(3)))[int(rng.integers(6))]
        h = np.zeros(34, np.int64)
        h[_knit(perm)] = 1
        h[int(rng.integers(34))] += 2
        if n >= 13:
            s = _all_sets()[int(rng.integers(55))]
            h += s
        for _ in range(int(rng.integers(0, 4))):
            out = rng.choice(np.flatnonzero(h > 0))
            h[out] -= 1
            h[int(rng.integers(34))] += 1
        while h.sum() > n:
            h[rng.choice(np.flatnonzero(h > 0))] -= 1
        if h.max() <= 4:
            return tuple(int(x) for x in h)


def test_knitted_straight_against_literal_targets_with_called():
    rng = np.random.default_rng(41)
    targets = {False: _literal_knitted_targets(False), True: _literal_knitted_targets(True)}
    checked = set()
    for i in range(240):
        n = (10, 11, 13, 14)[i % 4]
        h = _near_knitted(rng, n)
        c = _random_called(rng, h, 1 if n <= 11 else int(rng.integers(0, 2)))
        expected = _literal_shanten(h, c, targets[n >= 13])
        if expected is None:
            with pytest.raises(ValueError):
                ref.shanten_knitted_straight(h, called=c)
            continue
        assert ref.shanten_knitted_straight(h, called=c) == expected, (h, c)
        assert ref.shanten(h, form="knitted_straight", called=c) == expected
        assert ref.shanten_knitted_straight(h) == _literal_shanten(h, NO_CALLED, targets[n >= 13])
        checked.add(expected)
    assert {-1, 0, 1} <= checked


def _rows(kind_counts_list):
    out = np.zeros((len(kind_counts_list), 34), np.int16)
    for r, pairs in enumerate(kind_counts_list):
        for i, v in pairs:
            out[r, i] += v
    return out


def test_closed_forms_against_literal_targets_with_called():
    """Seven pairs (both variants), thirteen orphans and honors-and-knitted under limits,
    against literal target lists.  Hands come from 8 kinds, called copies sit on those kinds
    only; seven-pairs targets are listed over the 8 kinds plus 7 kinds never held nor called
    (a target uses at most 7 kinds, and every other kind is unheld with limit 4 like these
    spares, so the restricted minimum is the true one).  Scalar and vectorised routes both."""
    rng = np.random.default_rng(67)
    world = [0, 8, 9, 13, 26, 27, 30, 33]
    spares = [2, 4, 11, 15, 20, 22, 31]
    cand = world + spares
    sp = _rows([[(i, 2) for i in ch] for ch in itertools.combinations(cand, 7)])
    spk = []
    for q in range(4):
        for fours in itertools.combinations(cand, q):
            rest = [i for i in cand if i not in fours]
            for twos in itertools.combinations(rest, 7 - 2 * q):
                spk.append([(i, 4) for i in fours] + [(i, 2) for i in twos])
    spk = _rows(spk)
    orph = _rows([[(i, 1) for i in ref.ORPHANS] + [(j, 1)] for j in ref.ORPHANS])
    hk = []
    for perm in itertools.permutations(range(3)):
        for ch in itertools.combinations(_knit(perm) + list(range(27, 34)), 14):
            hk.append([(i, 1) for i in ch])
    hk = _rows(hk)
    hands, calls = [], []
    wall = np.repeat(np.array(world), 4)
    while len(hands) < 80:
        n = 13 + len(hands) % 2
        h = np.zeros(34, np.int64)
        np.add.at(h, rng.choice(wall, n, replace=False), 1)
        c = np.zeros(34, np.int64)
        for t in rng.choice(world, int(rng.integers(1, 5)), replace=False):
            c[t] = 4 - h[t] if rng.random() < 0.5 else rng.integers(0, 5 - h[t])
        hands.append(tuple(int(x) for x in h))
        calls.append(tuple(int(x) for x in c))
    # for the forms listed in full (no spares needed), also take every copy of 0-3 unheld
    # honors and 0-1 unheld suited kind (three honors gone leave every honors-and-knitted
    # assignment 13 candidates)
    calls_any = []
    for h, c in zip(hands, calls):
        c = list(c)
        free_z = [t for t in range(27, 34) if h[t] == 0]
        free_s = [t for t in range(27) if h[t] == 0]
        for t in list(rng.choice(free_z, int(rng.integers(0, 4)), replace=False)) + \
                list(rng.choice(free_s, int(rng.integers(0, 2)), replace=False)):
            c[t] = 4
        calls_any.append(tuple(c))
    cases = [("seven_pairs", None, sp, calls, lambda h, c: ref.shanten_seven_pairs(h, called=c)),
             ("seven_pairs", "mcr", spk, calls,
              lambda h, c: ref.shanten_seven_pairs(h, kong_as_two_pairs=True, called=c)),
             ("thirteen_orphans", None, orph, calls_any,
              lambda h, c: ref.shanten_thirteen_orphans(h, called=c)),
             ("honors_knitted", None, hk, calls_any, lambda h, c: ref.shanten_honors_knitted(h, called=c))]
    differs = {}
    for form, rules, targets, calls, direct in cases:
        expected = [_literal_shanten(h, c, targets) for h, c in zip(hands, calls)]
        for h, c, e in zip(hands, calls, expected):
            if e is None:
                with pytest.raises(ValueError):
                    direct(h, c)
            else:
                assert direct(h, c) == e == ref.shanten(h, form=form, rules=rules, called=c), (form, h, c)
            key = (form, rules)
            differs[key] = differs.get(key, 0) + (e != _literal_shanten(h, NO_CALLED, targets))
        keep = [i for i, e in enumerate(expected) if e is not None]
        got = ref.shanten_many(np.array([hands[i] for i in keep], np.uint8), form=form, rules=rules,
                               called=np.array([calls[i] for i in keep], np.uint8))
        assert got.tolist() == [expected[i] for i in keep], form
    # the limits did change answers (or leave no target) for every form
    assert len(differs) == 4 and min(differs.values()) > 3, differs


def test_standard_against_full_targets_with_called():
    """For k <= 2, every full-hand standard target literally, filtered by T <= 4 - called:
    checks the per-suit split with limits."""
    sets = _all_sets()
    rng = np.random.default_rng(43)
    for k in range(3):
        rows = []
        for combo in itertools.combinations_with_replacement(range(len(sets)), k):
            base = sets[list(combo)].sum(axis=0) if combo else np.zeros(34, np.int16)
            for pair in range(34):
                t = base.copy()
                t[pair] += 2
                if t.max() <= 4:
                    rows.append(t)
        targets = np.array(rows)
        for n in (3 * k + 1, 3 * k + 2):
            for j in range(25):
                world = list(range(34)) if j % 2 else [0, 1, 2, 3, 27, 28]
                while True:
                    h = np.zeros(34, np.int64)
                    np.add.at(h, rng.choice(world, n), 1)
                    if h.max() <= 4:
                        break
                h = tuple(int(x) for x in h)
                c = _random_called(rng, h, 4 - k)
                assert ref.shanten_standard(h, called=c) == _literal_shanten(h, c, targets), (h, c)


# ---------------------------------------------------------------------------
# properties: called=None is the old behaviour; called copies never help
# ---------------------------------------------------------------------------

def _mixed_hands(rng, count):
    out = []
    for i in range(count):
        n = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)[i % 10]
        if n >= 10 and i % 3 == 0:
            out.append(_near_knitted(rng, n))
            continue
        world = list(range(34)) if i % 2 else [0, 1, 2, 3, 4, 5, 27, 28, 9, 10]
        while True:
            h = np.zeros(34, np.int64)
            np.add.at(h, rng.choice(world, n), 1)
            if h.max() <= 4:
                out.append(tuple(int(x) for x in h))
                break
    return out


def _valid_forms(n):
    forms = ["all", "standard"]
    if n in (10, 11, 13, 14):
        forms.append("knitted_straight")
    if n in (13, 14):
        forms += ["seven_pairs", "thirteen_orphans", "honors_knitted"]
    return forms


def _shanten_or_none(h, form, rules, c):
    try:
        return ref.shanten(h, form=form, rules=rules, called=c)
    except ValueError as e:
        assert "no complete hand" in str(e)
        return None


def test_called_none_equals_no_called_sets():
    """None, an all-zero vector and leaving the keyword out are the same, everywhere."""
    rng = np.random.default_rng(47)
    hands = _mixed_hands(rng, 120)
    zero = np.zeros(34, np.uint8)
    for h in hands:
        n = sum(h)
        for rules in (None, "mcr"):
            for form in _valid_forms(n):
                s = ref.shanten(h, form=form, rules=rules)
                assert ref.shanten(h, form=form, rules=rules, called=None) == s
                assert ref.shanten(h, form=form, rules=rules, called=zero) == s
                assert ref.is_winning(h, form=form, rules=rules, called=zero) == \
                    ref.is_winning(h, form=form, rules=rules)
            if n % 3 == 1:
                assert ref.waits(h, rules=rules, called=zero) == ref.waits(h, rules=rules)
        assert ref.shanten_standard(h, called=zero) == ref.shanten_standard(h)
    arr = np.array(hands, np.uint8)
    for rules in (None, "mcr"):
        base = ref.shanten_many(arr, rules=rules)
        assert ref.shanten_many(arr, rules=rules, called=zero).tolist() == base.tolist()
        assert ref.shanten_many(arr, rules=rules, called=np.zeros_like(arr)).tolist() == base.tolist()
        assert base.tolist() == [ref.shanten(h, rules=rules) for h in hands]


def _old_oracle():
    """The oracle before these changes, read from git (skip when the history is not there)."""
    root = Path(ref.__file__).resolve().parents[2]
    try:
        src = _proc.run(["git", "-C", str(root), "show", f"{OLD_COMMIT}:src/mjfast/_reference.py"],
                        capture_output=True, text=True, check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip(f"git history with commit {OLD_COMMIT[:10]} not available")
    spec = importlib.util.spec_from_loader("_reference_before_called", loader=None)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # for the lru_cache / dataclass machinery, if any
    exec(compile(src, f"<{OLD_COMMIT[:10]}:_reference.py>", "exec"), mod.__dict__)
    return mod


def test_called_none_equals_previous_oracle():
    """With called=None every answer is the previous oracle's, except where the knitted
    straight is new: MCR "all" at 10/11 tiles is min(previous, knitted straight) and
    form="knitted_straight" at 10/11 tiles no longer raises."""
    old = _old_oracle()
    rng = np.random.default_rng(53)
    hands = _mixed_hands(rng, 200)
    changed = 0
    for h in hands:
        n = sum(h)
        for rules in RULES:
            for form in ("all",) + MCR_FORMS:
                try:
                    before = old.shanten(h, form=form, rules=rules)
                except ValueError:
                    before = None
                if form == "knitted_straight" and n in (10, 11):
                    assert before is None
                    assert ref.shanten(h, form=form, rules=rules) == ref.shanten_knitted_straight(h)
                    continue
                if before is None:
                    with pytest.raises(ValueError):
                        ref.shanten(h, form=form, rules=rules)
                    continue
                now = ref.shanten(h, form=form, rules=rules)
                if form == "all" and rules == "mcr" and n in (10, 11):
                    assert now == min(before, ref.shanten_knitted_straight(h)), h
                    changed += now != before
                    win = ref.is_winning(h, rules=rules)
                    assert win == (old.is_winning(h, rules=rules) or
                                   ref.is_winning(h, form="knitted_straight"))
                else:
                    assert now == before, (h, form, rules)
                    assert ref.is_winning(h, form=form, rules=rules) == \
                        old.is_winning(h, form=form, rules=rules)
        if n % 3 == 1:
            for rules in (None, "classical"):
                assert ref.waits(h, rules=rules) == old.waits(h, rules=rules)
            if n != 10:
                assert ref.waits(h, rules="mcr") == old.waits(h, rules="mcr")
            if n <= 7:
                assert ref.effective_tiles(h, rules="mcr") == old.effective_tiles(h, rules="mcr")
    assert changed > 5  # near-knitted 10/11-tile hands do change under MCR
    arr = np.array(hands, np.uint8)
    for rules in (None, "classical"):
        assert ref.shanten_many(arr, rules=rules).tolist() == old.shanten_many(arr, rules=rules).tolist()


def test_called_copies_never_lower_the_shanten():
    """Monotonicity: adding copies to ``called`` only removes targets, so the shanten of every
    form cannot go down (a form left without targets counts as +infinity), waits only shrink,
    and is_winning does not change."""
    rng = np.random.default_rng(59)
    hands = _mixed_hands(rng, 300)
    raised = raised_knitted_small = 0
    for idx, h in enumerate(hands):
        n = sum(h)
        k = n // 3
        c1 = _random_called(rng, h, max(4 - k, 1))
        # c2: c1 plus every copy left of one to three kinds the hand holds (where a limit is
        # most likely to bind) and of one random kind (often one a target needs but the hand
        # lacks, e.g. the missing knitted tile)
        c2 = list(c1)
        held = np.flatnonzero(np.asarray(h))
        for t in rng.choice(held, min(len(held), int(rng.integers(1, 4))), replace=False):
            c2[t] = 4 - h[t]
        t = int(rng.integers(34))
        c2[t] = 4 - h[t]
        chain = [None, c1, tuple(c2)]
        rules_list = ("mcr", None) if idx % 2 else ("mcr",)
        for rules in rules_list:
            for form in _valid_forms(n):
                values = [_shanten_or_none(h, form, rules, c) for c in chain]
                big = [99 if v is None else v for v in values]
                assert big[0] <= big[1] <= big[2], (h, chain, form, rules, values)
                raised += big[2] > big[0]
                raised_knitted_small += big[2] > big[0] and form == "knitted_straight" and n <= 11
            w = [ref.is_winning(h, rules=rules, called=c) for c in chain]
            assert w[0] == w[1] == w[2]
            if n % 3 == 1 and idx % 3 == 0:
                ws = [set(ref.waits(h, rules=rules, called=c)) for c in chain]
                assert ws[0] >= ws[1] >= ws[2]
    # not vacuous: the limits did bind (228 and 7 with this seed)
    assert raised > 100 and raised_knitted_small > 0


def test_called_consistency_and_many():
    """is_winning == (shanten == -1), waits by their definition, and the vectorised
    shanten_many (per-suit route) equal to the scalar shanten (literal targets), with called."""
    rng = np.random.default_rng(61)
    hands = _mixed_hands(rng, 300)
    called = [_random_called(rng, h, max(4 - sum(h) // 3, int(rng.integers(0, 2)))) for h in hands]
    for rules in (None, "mcr"):
        scalar = [_shanten_or_none(h, "all", rules, c) for h, c in zip(hands, called)]
        ok = [i for i, v in enumerate(scalar) if v is not None]
        assert len(ok) > 250
        arr = np.array([hands[i] for i in ok], np.uint8)
        carr = np.array([called[i] for i in ok], np.uint8)
        assert ref.shanten_many(arr, rules=rules, called=carr).tolist() == [scalar[i] for i in ok]
        for i in ok[::3]:
            h, c = hands[i], called[i]
            assert ref.is_winning(h, rules=rules, called=c) == (scalar[i] == -1)
            if sum(h) % 3 == 1:
                expected = [t for t in range(34) if h[t] + c[t] < 4 and
                            ref.shanten(plus(h, name(t)), rules=rules, called=c) == -1]
                assert ref.waits(h, rules=rules, called=c) == expected
    # per form, near-knitted hands, MCR
    for form in ("standard", "knitted_straight"):
        sub = [i for i in range(len(hands)) if sum(hands[i]) in (10, 11, 13, 14)]
        vals = [_shanten_or_none(hands[i], form, "mcr", called[i]) for i in sub]
        keep = [i for i, v in zip(sub, vals) if v is not None]
        got = ref.shanten_many(np.array([hands[i] for i in keep], np.uint8), form=form, rules="mcr",
                               called=np.array([called[i] for i in keep], np.uint8))
        assert got.tolist() == [v for v in vals if v is not None]
    # one called vector for every row (broadcast)
    # 47m258p369s55z [1111m] is 5-shanten (see the kong test); 258m147p369s5z [1111m] uses
    # m=258, no 1m, so the knitted 9 + 5z is still tenpai
    h = np.array([hand("47m258p369s55z"), hand("258m147p369s5z")], np.uint8)
    c = np.array(parse("[1111m]")[1])
    assert ref.shanten_many(h, rules="mcr", called=c).tolist() == [5, 0]
