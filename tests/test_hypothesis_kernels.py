"""Property tests: the fast kernels equal the reference on hypothesis-generated hands."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjfast
from oracles import reference as ref

SIZES = [1, 2, 4, 5, 7, 8, 10, 11, 13, 14]


@st.composite
def hands(draw, sizes=SIZES, kinds=range(34)):
    size = draw(st.sampled_from(sizes))
    kinds = list(kinds)
    picks = draw(st.lists(st.sampled_from(kinds), min_size=size, max_size=size))
    counts = np.zeros(34, dtype=np.uint8)
    for k in picks:  # a fifth copy moves on to the next listed kind with room
        j = kinds.index(k)
        while counts[kinds[j]] == 4:
            j = (j + 1) % len(kinds)
        counts[kinds[j]] += 1
    return counts


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(hands(), st.sampled_from([None, "classical", "mcr"]))
def test_shanten_equals_reference(h, rules):
    assert mjfast.shanten(h, rules=rules) == ref.shanten(h, rules=rules)
    assert mjfast.shanten(mjfast.pack(h), rules=rules) == ref.shanten(h, rules=rules)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(hands(sizes=[13, 14], kinds=[0, 1, 2, 3, 4, 8, 9, 12, 15, 17, 18, 21, 24, 26, 27, 28, 33]),
       st.sampled_from(["seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"]),
       st.sampled_from([None, "mcr"]))
def test_special_forms_equal_reference(h, form, rules):
    assert mjfast.shanten(h, form=form, rules=rules) == ref.shanten(h, form=form, rules=rules)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(hands(sizes=[2, 5, 8, 11, 14], kinds=range(0, 12)), st.sampled_from([None, "classical", "mcr"]))
def test_winning_equals_reference(h, rules):
    assert mjfast.is_winning(h, rules=rules) == ref.is_winning(h, rules=rules)
    assert mjfast.is_winning(mjfast.pack(h), rules=rules) == ref.is_winning(h, rules=rules)
