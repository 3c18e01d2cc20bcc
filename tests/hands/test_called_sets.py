"""Hands given with their called sets: the called tiles count against the four copies of a kind,
and the Chinese Official knitted straight with one called set. The public hand
functions on text with called sets are compared with the oracle's ``called=`` keyword."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjfast
from mjfast import tiles
from oracles import reference as REF


def _meld_text(kind: str, k: int) -> str:
    name = tiles.tile_name(k)
    if kind == "chow":
        return "[" + "".join(str(int(name[0]) + i) for i in range(3)) + name[1] + "]"
    if kind == "pung":
        return "[" + name[0] * 3 + name[1] + "]"
    if kind == "kong":
        return "[" + name[0] * 4 + name[1] + "]"
    return "(" + name[0] * 4 + name[1] + ")"


@st.composite
def hands_with_calls(draw, tenpai_size=None):
    """(text, concealed counts, called counts): 1-4 called sets, then concealed tiles of the
    remaining 3k+1 / 3k+2 size drawn near the called kinds (so the copy limit often binds)."""
    n_melds = draw(st.integers(1, 4))
    counts = np.zeros(34, int)
    called = np.zeros(34, int)
    parts = []
    for _ in range(n_melds):
        kind = draw(st.sampled_from(["chow", "pung", "kong", "concealed_kong"]))
        if kind == "chow":
            k = draw(st.sampled_from([9 * s + r for s in range(3) for r in range(7)]))
            need = [k, k + 1, k + 2]
        else:
            k = draw(st.integers(0, 33))
            need = [k] * (3 if kind == "pung" else 4)
        trial = called.copy()
        for x in need:
            trial[x] += 1
        if trial.max() > 4:
            continue
        called = trial
        parts.append(_meld_text(kind, k))
    n_sets = len(parts)
    size = 14 - 3 * n_sets - draw(st.integers(0, 1)) if tenpai_size is None else 13 - 3 * n_sets
    near = sorted({x for x in np.flatnonzero(called) for x in (x - 1, x, x + 1) if 0 <= x < 34})
    for _ in range(size):
        pool = [x for x in range(34) if counts[x] + called[x] < 4]
        prefer = [x for x in near if x in pool]
        k = draw(st.sampled_from(prefer if prefer and draw(st.booleans()) else pool))
        counts[k] += 1
    text = tiles.format_hand(counts.astype(np.uint8)) + " " + " ".join(parts)
    return text, counts, called


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(h=hands_with_calls(), rules=st.sampled_from([None, "classical", "mcr"]))
def test_shanten_counts_called_tiles(h, rules):
    text, counts, called = h
    assert mjfast.shanten(text, rules=rules) == REF.shanten(counts, "all", rules, called=called)
    assert mjfast.shanten(text, form="standard") == REF.shanten(counts, "standard", None, called=called)


@SETTINGS
@given(h=hands_with_calls(tenpai_size=True), rules=st.sampled_from([None, "mcr"]),
       visible=st.lists(st.integers(0, 33), max_size=6))
@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_waits_and_effective_tiles_count_called_tiles(h, rules, visible):
    text, counts, called = h
    want = [tiles.tile_name(k) for k in REF.waits(counts, "all", rules, called=called)]
    assert mjfast.waits(text, rules=rules) == want
    vis = np.zeros(34, int)
    for k in visible:
        if counts[k] + called[k] + vis[k] < 4:
            vis[k] += 1
    imp = mjfast.effective_tiles(text, vis.astype(np.uint8), rules=rules)
    ref = REF.effective_tiles(counts, vis, "all", rules, called=called)
    assert {tiles.tile_index(t): c for t, c in imp.tiles.items()} == {int(k): c for k, c in ref.items()}
    a = mjfast.analyze(text, visible=vis.astype(np.uint8), rules=rules or "classical")
    assert a.shanten == mjfast.shanten(text, rules=rules or "classical")


def test_literal_cases_of_the_issue():
    assert mjfast.shanten("123m456p789s1z [111z]") == 1                 # was 0: tenpai on a fifth 1z
    assert mjfast.waits("123m456p789s1z [111z]") == []
    imp = mjfast.effective_tiles("13m456p789s11z (2222m)")
    assert "2m" not in imp.tiles                                          # was 4 unseen 2m
    assert imp.shanten == mjfast.analyze("13m456p789s11z (2222m)").shanten == 1
    with pytest.raises(ValueError, match="only 4 exist"):
        mjfast.parse_tiles("1z [111z] (1111z)")
    with pytest.raises(ValueError, match="only 4 exist"):
        mjfast.effective_tiles("123m456p789s1z [111z]", visible="1z")
    # knitted straight with a called set (Chinese Official)
    assert mjfast.is_winning("24458m369s147p [456s]", rules="mcr")
    assert not mjfast.is_winning("24458m369s147p [456s]", rules="classical")
    assert mjfast.waits("2458m369s147p", rules="mcr") == ["4m"]
    assert mjfast.waits("2458m369s147p [444m]", rules="mcr") == []        # no 4m left for the pair
    assert mjfast.shanten("2458m369s147p", form="knitted_straight") == 0
    with pytest.raises(ValueError, match="allowed sizes here: 10, 11, 13, 14"):
        mjfast.shanten("2458m369s14p", form="knitted_straight")


@pytest.mark.parametrize("size", [10, 11])
def test_knitted_straight_at_10_and_11_tiles_matches_the_oracle(size):
    rng = np.random.default_rng(size)
    rows = []
    perms = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for i in range(400):
        c = np.zeros(34, np.uint8)
        a, b, d = perms[i % 3]
        knit = [0 * 9 + a + 3 * j for j in range(3)] + [9 + b + 3 * j for j in range(3)] + [18 + d + 3 * j for j in range(3)]
        for k in rng.choice(knit, rng.integers(5, 10), replace=False):
            c[k] += 1
        while c.sum() < size:
            k = rng.integers(0, 34)
            if c[k] < 4:
                c[k] += 1
        while c.sum() > size:
            k = rng.choice(np.flatnonzero(c))
            c[k] -= 1
        rows.append(c)
    rows = np.array(rows)
    for form in ("all", "knitted_straight"):
        got = mjfast.shanten(rows, form=form, rules="mcr")
        want = np.array([REF.shanten(r, form, "mcr") for r in rows])
        assert np.array_equal(got, want)
        assert np.array_equal(mjfast.is_winning(rows, form=form, rules="mcr"), want == -1)
    assert (got < mjfast.shanten(rows, form="standard")).sum() > 50      # the form matters here
