"""SearchPolicy (issue 27): plays where a BatchPolicy plays, decides legally for many tables at
once, is reproducible, and refuses bad options."""
from __future__ import annotations

import pytest

import mjfast
from mjfast.search import SearchPolicy


@pytest.mark.parametrize("rules", ["classical", "mcr"])
def test_search_policy_plays_and_is_reproducible(rules):
    a = mjfast.simulate(3, rules=rules, policies=[SearchPolicy(worlds=2), "greedy", "greedy", "greedy"], seed=4,
                        progress=False, threads=1)
    b = mjfast.simulate(3, rules=rules, policies=[SearchPolicy(worlds=2), "greedy", "greedy", "greedy"], seed=4,
                        progress=False, threads=2)
    assert a.games == 3
    assert a.to_dict() == b.to_dict()


def test_search_policy_bad_options():
    with pytest.raises(ValueError):
        SearchPolicy(worlds=0)
    with pytest.raises(TypeError):
        SearchPolicy(worlds=2.5)
    import numpy as np
    with pytest.raises(TypeError, match="states"):
        SearchPolicy().act(np.zeros((1, 48, 34)), np.ones((1, 76), bool), np.zeros(1))
