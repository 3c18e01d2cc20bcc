"""Rollouts (issue 27): a rollout with built-in policies equals continuing the saved tables with
the same policies; results do not depend on the thread count; bad input is refused."""
from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import mjfast
from mjfast.env import VecTables
from mjfast.search import rollout, sample_worlds

CASES = [("classical", {}), ("basic", {}), ("mcr", {}), ("american", {}), ("american", {"card": True})]


def env_of(rules, kw, **more):
    opts = {"card": mjfast.card.toy_card()} if kw.get("card") else {}
    return VecTables(8, rules=rules, seed=7, **opts, **more)


@pytest.mark.parametrize("rules,kw", CASES)
@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_rollout_equals_continuing(rules, kw, policy):
    """Save mid-hand; continue the environment (every seat answered as the built-in policy
    would, autoreset off) to the end of the hand; the rollout of the saved states gives the
    same score changes, wins, deal-ins and turns."""
    env = env_of(rules, kw, episode="hand", autoreset="disabled", opponents=policy)
    obs, _ = env.reset()
    for _ in range(25):
        obs, *_ = env.step(env.expert_actions(policy))
    states = env.save()
    out0 = env.core.out.copy()
    total = np.zeros((8, 4), np.float32)
    done = env._status != 0
    for _ in range(2000):
        if done.all():
            break
        obs, rew, term, _, _ = env.step(env.expert_actions(policy))
        total += rew
        done |= term
    assert done.all()
    r = rollout(states, policy, seed=None)
    out1 = env.core.out
    assert_array_equal(r.score, total.astype(np.int32))
    assert_array_equal(r.wins, out1[:, 4:8] - out0[:, 4:8])
    assert_array_equal(r.deal_ins, out1[:, 12:16] - out0[:, 12:16])
    assert_array_equal(r.turns, out1[:, 17] - out0[:, 17])
    assert (r.hands <= 1).all()


def test_rollout_threads_and_seed():
    env = env_of("mcr", {})
    env.reset()
    w = sample_worlds(env.save(), 64, seed=3)
    one = rollout(w, "greedy", seed=1, threads=1)
    two = rollout(w, "greedy", seed=1, threads=2)
    for f in ("score", "wins", "deal_ins", "turns", "hands"):
        assert_array_equal(getattr(one, f), getattr(two, f))
    other = rollout(w, "greedy", seed=2, threads=2)
    assert len(other) == len(w)
    g = rollout(w[:8], "greedy", seed=None, until="game")
    assert (g.hands >= 1).all() and (g.score.sum(axis=1) == 0).all()


def test_rollout_bad_input():
    env = env_of("classical", {})
    env.reset()
    s = env.save()
    with pytest.raises(ValueError, match="until"):
        rollout(s, seed=None, until="round")
    with pytest.raises(ValueError, match="not a built-in policy"):
        rollout(s, "clever", seed=None)
    with pytest.raises(ValueError, match="list of 4"):
        rollout(s, ["greedy"] * 3, seed=None)
    with pytest.raises(TypeError, match="TableStates"):
        rollout([1, 2], seed=None)
    with pytest.raises(ValueError, match="empty"):
        rollout(s[:0], seed=None)
