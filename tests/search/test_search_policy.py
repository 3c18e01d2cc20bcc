"""SearchPolicy (issue 27): plays where a BatchPolicy plays and by the name "search", decides
legally for many tables at once, is reproducible whatever the thread count, keeps the rollout
policy's choice without evidence, and refuses bad options."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.search import SearchPolicy
from mjfast.search._policy import switch_to


@pytest.mark.parametrize("rules", ["classical", "mcr", "american"])
def test_search_policy_plays_and_is_reproducible(rules):
    # American: the Charleston is answered by the rollout policy (worlds are sampled after it)
    a = mjfast.simulate(3, rules=rules, policies=[SearchPolicy(worlds=2), "greedy", "greedy", "greedy"], seed=4,
                        progress=False, threads=1)
    b = mjfast.simulate(3, rules=rules, policies=[SearchPolicy(worlds=2), "greedy", "greedy", "greedy"], seed=4,
                        progress=False, threads=2)
    assert a.games == 3
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("rules", ["classical", pytest.param("american", marks=pytest.mark.slow)])
def test_search_results_do_not_depend_on_rollout_threads(rules):
    kw = dict(worlds=3, candidates=0, margin=0.0, seed=5)
    a = mjfast.compare(SearchPolicy(threads=1, **kw), "greedy", 2, rules=rules, seed=2, progress=False, threads=1)
    b = mjfast.compare(SearchPolicy(threads=2, **kw), "greedy", 2, rules=rules, seed=2, progress=False, threads=2)
    assert a.points_diff == b.points_diff and a.win_rate_diff == b.win_rate_diff


def test_adaptive_worlds_look_again_and_stay_reproducible():
    a = SearchPolicy(worlds=2, max_worlds=8, margin=2.0, threads=1)
    b = SearchPolicy(worlds=2, max_worlds=8, margin=2.0, threads=2)
    ra = mjfast.simulate(2, rules="classical", policies=[a, "greedy", "greedy", "greedy"], seed=6, progress=False,
                         threads=1)
    rb = mjfast.simulate(2, rules="classical", policies=[b, "greedy", "greedy", "greedy"], seed=6, progress=False,
                         threads=2)
    assert a.extra > 0 and a.extra == b.extra              # promising candidates got more worlds
    assert [s["points"] for s in ra.to_dict()["seats"]] == [s["points"] for s in rb.to_dict()["seats"]]
    with pytest.raises(ValueError, match="max_worlds"):
        SearchPolicy(worlds=8, max_worlds=4)


def test_search_by_name_in_simulate_compare_replay_rerun():
    res = mjfast.simulate(1, rules="mcr", policies=["search", "greedy", "greedy", "greedy"], seed=3, progress=False)
    assert isinstance(res.policies[0], SearchPolicy) and res.policies[1] == "greedy"
    one = SearchPolicy()
    ref = mjfast.simulate(1, rules="mcr", policies=[one, "greedy", "greedy", "greedy"], seed=3, progress=False)
    assert [s["points"] for s in res.to_dict()["seats"]] == [s["points"] for s in ref.to_dict()["seats"]]
    c = mjfast.compare("search", "greedy", 1, rules="classical", seed=1, progress=False)
    assert c.policy_a == "search"
    log = mjfast.replay(1, 0, rules="classical", policies=["greedy", "search", "greedy", "greedy"])
    assert log.header["policies"] == ["greedy", "search", "greedy", "greedy"]
    again = mjfast.rerun(log)          # the header's "search" plays the same game (decisions: f(seed, state))
    assert again.events == log.events
    with pytest.raises(ValueError, match="'search'"):
        mjfast.simulate(1, policies=["serch", "greedy", "greedy", "greedy"], progress=False)


def test_one_search_bot_for_the_seats_named_search():
    from mjfast.game.policy import resolve_policies
    pols = resolve_policies(["search", "greedy", "search", "greedy"], ("greedy", "random"))
    assert isinstance(pols[0], SearchPolicy) and pols[0] is pols[2]


def test_policies_that_are_no_names_are_refused_by_type():
    # an array (or any object with an elementwise ==) is neither a name nor a policy: a TypeError
    # naming its type, not numpy's "truth value of an array" from looking for "search" among them
    from mjfast.game.policy import resolve_policies
    for bad in (np.array([1, 2]), [np.array([1, 2])] * 4, np.array(["greedy"] * 4)):
        with pytest.raises(TypeError, match="ndarray"):
            resolve_policies(bad, ("greedy", "random"))


def test_switch_needs_more_than_one_lucky_world():
    # one world of 16 where the candidate wins a hand: a t-test reads t = 1 (the old rule
    # switched on such noise); the sign test keeps the rollout policy's choice
    lucky = np.zeros((2, 16))
    lucky[1, 3] = 120.0
    assert switch_to(lucky, 1.0) == -1
    # a constant difference in two worlds has a zero standard error: not evidence either
    assert switch_to(np.array([[0.0, 0.0], [3.0, 3.0]]), 2.0) == -1
    # better in 12 worlds of 16, worse in none: switch; the best mean among qualified ones
    clear = np.zeros((3, 16))
    clear[1, :12] = 5.0
    clear[2, :12] = 8.0
    clear[2, 12] = -1.0
    assert switch_to(clear, 2.0) == 2
    assert switch_to(-clear, 2.0) == -1


def test_search_policy_bad_options():
    with pytest.raises(ValueError):
        SearchPolicy(worlds=0)
    with pytest.raises(TypeError):
        SearchPolicy(worlds=2.5)
    with pytest.raises(ValueError, match="margin"):
        SearchPolicy(margin=-1)
    with pytest.raises(TypeError, match="margin"):
        SearchPolicy(margin="2")
    with pytest.raises(ValueError, match="built-in"):
        SearchPolicy(rollout_policy="search")
    with pytest.raises(TypeError, match="states"):
        SearchPolicy().act(np.zeros((1, 48, 34)), np.ones((1, 76), bool), np.zeros(1))


def test_cli_policies_accept_search():
    from mjfast.cli._common import parse_policies as _policies
    assert _policies("search,greedy,greedy,greedy") == ["search", "greedy", "greedy", "greedy"]
    assert _policies("search", "american") == "search"
    with pytest.raises(ValueError, match="search"):
        _policies("serch")
