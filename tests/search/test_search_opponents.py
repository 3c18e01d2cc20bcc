"""VecTables(opponents=...) with BatchPolicy opponents and "search" (issue 27): the environment
asks them inside step, the learners see only their own questions."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.env import VecTables
from mjfast.search import SearchPolicy


class GreedyByStates(mjfast.BatchPolicy):
    """Answers as the built-in greedy policy, from the tables' states (an external seat)."""

    name = "greedy-by-states"
    wants_states = True

    def act(self, observation, action_mask, seat, states=None, **_):
        return SearchPolicy()._teacher(states)


def _play(opponents, rules, steps=60, **kw):
    env = VecTables(6, rules=rules, learners=(0, 2), opponents=opponents, seed=9, **kw)
    obs, info = env.reset()
    seats, rewards, masks = [], [], []
    for _ in range(steps):
        seats.append(info["seat"].copy())
        masks.append(obs["action_mask"].copy())
        a = env.expert_actions("greedy")
        obs, rew, term, trunc, info = env.step(a)
        rewards.append(rew.copy())
    return np.array(seats), np.array(rewards), np.array(masks)


@pytest.mark.parametrize("rules", ["classical", "american"])
def test_a_batch_opponent_playing_greedy_equals_the_builtin(rules):
    a = _play("greedy", rules)
    b = _play(["greedy", GreedyByStates(), "greedy", GreedyByStates()], rules)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_duplicate_tables_rotate_the_batch_opponent():
    a = _play("greedy", "classical", duplicate=True)
    b = _play(GreedyByStates(), "classical", duplicate=True)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_search_opponents_learners_see_only_their_questions():
    env = VecTables(3, rules="mcr", learners=(1,), opponents="search", seed=2)
    assert repr(env).startswith("VecTables(3")
    obs, info = env.reset()
    ended = 0
    for _ in range(80):
        assert (info["seat"] == 1).all()
        obs, rew, term, trunc, info = env.step(env.expert_actions("greedy"))
        assert (rew.sum(axis=1) == 0).all()
        ended += int(term.sum())
    assert ended > 0
    with pytest.raises(ValueError, match="'search'"):
        VecTables(1, learners=(0,), opponents="serch")


def test_decisions_labelled_by_search():
    from mjfast.env import decisions

    d = decisions(1, rules="classical", policies=["search", "greedy", "greedy", "greedy"], seed=3, progress=False,
                  threads=1)
    g = decisions(1, rules="classical", policies="greedy", seed=3, progress=False, threads=1)
    assert len(d) > 0 and bool(d.action_mask[range(len(d)), d.action].all())
    # the same game from the first decision on; seat 0's labels are the search bot's
    assert d.observation[0].tobytes() == g.observation[0].tobytes()
    d2 = decisions(1, rules="classical", policies=["search", "greedy", "greedy", "greedy"], seed=3, progress=False,
                   threads=2)
    np.testing.assert_array_equal(d.action, d2.action)
    with pytest.raises(ValueError, match="'search'"):
        decisions(1, policies="serch", progress=False)
