"""Action values (issue 27): every legal action, common random numbers, thread independence,
the result table, bad input."""
from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from mjfast.env import VecTables
from mjfast.search import evaluate, rollout, sample_worlds


def states_of(rules="mcr", n=3, seed=3):
    env = VecTables(n, rules=rules, seed=seed)
    obs, _ = env.reset()
    return env, obs, env.save()


def test_every_legal_action_and_crn():
    env, obs, s = states_of()
    v = evaluate(s, worlds=12, seed=4, threads=1)
    for t in range(len(s)):
        assert sorted(v.action[v.table == t].tolist()) == np.flatnonzero(obs["action_mask"][t]).tolist()
    # the samples of action a in world k are the rollout of world k after a (same worlds, same streams)
    w = sample_worlds(s, 12, seed=4)
    env2 = VecTables(len(w), rules="mcr", seed=3)
    env2.reset()
    i = 0
    t, a = int(v.table[i]), int(v.action[i])
    sub = w[t * 12:(t + 1) * 12]
    env2 = VecTables(12, rules="mcr", seed=3, episode="hand", autoreset="disabled")
    env2.reset()
    env2.load(sub)
    _, rew, term, _, _ = env2.step(np.full(12, a))
    total = rew.copy()
    while not term.all():
        _, rew, t2, _, _ = env2.step(env2.expert_actions("greedy"))
        total += rew
        term |= t2
    seat = int(v.seat[i])
    assert_array_equal(v.samples[i], total[:, seat])
    assert abs(v.points[i] - total[:, seat].astype(np.float64).mean()) < 1e-9


def test_threads_do_not_change_results():
    _, _, s = states_of("classical", n=2)
    a = evaluate(s, worlds=8, seed=2, threads=1)
    b = evaluate(s, worlds=8, seed=2, threads=2)
    assert_array_equal(a.samples, b.samples)
    assert a.to_dict() == b.to_dict()


def test_result_table():
    _, _, s = states_of("american", n=8)
    from mjfast.search._common import AM_CHARLESTON, phases
    assert np.isin(phases(s), AM_CHARLESTON).all()
    with pytest.raises(ValueError, match="Charleston"):
        evaluate(s, worlds=2, seed=1)
    _, _, s = states_of("classical", n=1)
    v = evaluate(s, worlds=4, seed=1)
    assert "P(win)" in repr(v) and "<table" in v._repr_html_()
    df = v.to_pandas()
    assert list(df.columns)[:4] == ["table", "seat", "action", "name"] and len(df) == len(v)
    assert 0 <= v.p_win.min() and v.p_win.max() <= 1


def test_evaluate_bad_input():
    _, _, s = states_of("classical", n=1)
    with pytest.raises(ValueError, match="at least 1"):
        evaluate(s, worlds=0, seed=1)
    with pytest.raises(ValueError, match="rollouts"):
        evaluate(s, worlds=10**9, seed=1)
    with pytest.raises(TypeError, match="TableStates"):
        evaluate("x", seed=1)
    with pytest.raises(ValueError, match="not a built-in"):
        evaluate(s, worlds=2, policies="search", seed=1)
    r = rollout(s, seed=None)
    assert len(r) == 1
