"""Table states (issue 27): VecTables.save / load round trips bit for bit for every rule set,
TableStates as a value (pickle, slice, concat), and the refusals (other rules, corruption,
policies, rows)."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import mjfast
from mjfast.env import VecTables
from mjfast.search import TableStates

CASES = [("classical", {}), ("basic", {}), ("mcr", {}), ("american", {}), ("american-card", {})]


def make(rules: str, n: int, seed, **kw) -> VecTables:
    if rules == "american-card":
        return VecTables(n, rules="american", card=mjfast.card.toy_card(), seed=seed, **kw)
    return VecTables(n, rules=rules, seed=seed, **kw)


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.random(mask.shape) * mask
    return np.argmax(noise, axis=1)


def play(env: VecTables, obs: dict, steps: int, seed: int, logs: bool = False) -> list:
    """Step with random legal actions (a fixed stream); the trace of everything returned."""
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        a = random_actions(obs["action_mask"], rng)
        obs, rew, term, trunc, info = env.step(a)
        trace.append((obs["observation"].copy(), obs["scalars"].copy(), obs["action_mask"].copy(), rew.copy(),
                      term.copy(), info["seat"].copy(), info["game_id"].copy(), info["hand_number"].copy()))
    if logs:
        trace.append([env.core.events(i) for i in range(env.n_tables)])
    return trace


def assert_same_trace(a: list, b: list) -> None:
    assert len(a) == len(b)
    for step, (x, y) in enumerate(zip(a, b)):
        for u, v in zip(x, y):
            assert_array_equal(u, v, err_msg=f"step {step}")


@pytest.mark.parametrize("rules,kw", CASES)
@pytest.mark.parametrize("learners,opponents", [((0, 1, 2, 3), "greedy"), ((2,), "greedy"), ((1, 3), "random")])
def test_loaded_tables_continue_bit_for_bit(rules, kw, learners, opponents):
    """Save mid-game, play on; load the state into another environment (same seed, other
    position) and play the same actions: every observation, mask, reward, termination, seat,
    game id, hand number and event matches over 300 steps (hands and games end on the way)."""
    n = 6
    a = make(rules, n, 11, learners=learners, opponents=opponents, episode="hand")
    obs, _ = a.reset()
    play(a, obs, 40, seed=1)
    obs_a = a._obs_dict(fresh=True)
    saved = a.save()
    for i in range(n):
        a.core.set_log(i, 4000)
    trace_a = play(a, a._obs_dict(fresh=True), 300, seed=2, logs=True)

    b = make(rules, n, 11, learners=learners, opponents=opponents, episode="hand")
    obs_b, _ = b.reset()
    play(b, obs_b, 7, seed=3)                       # somewhere else
    obs_l, info_l = b.load(saved)
    assert_array_equal(obs_l["observation"], obs_a["observation"])
    assert_array_equal(obs_l["action_mask"], obs_a["action_mask"])
    for i in range(n):
        b.core.set_log(i, 4000)
    trace_b = play(b, obs_l, 300, seed=2, logs=True)
    assert sum(int(t[4].sum()) for t in trace_a[:-1]) >= n          # hands ended on the way
    assert_same_trace(trace_a[:-1], trace_b[:-1])
    for ea, eb in zip(trace_a[-1], trace_b[-1]):
        assert ea.shape[0] > 0
        assert_array_equal(ea, eb)


def test_load_rows_and_game_episodes():
    """Load two states into chosen rows of a game-episode environment: only those rows change,
    and they continue as the saved tables did (greedy teacher actions) to the end of the game."""
    a = make("mcr", 4, 5, episode="game")
    obs, _ = a.reset()
    play(a, obs, 25, seed=4)
    saved = a.save(rows=[3, 1])
    gid = a.game_id[[3, 1]].copy()
    b = make("mcr", 4, 6, episode="game")
    obs_b, _ = b.reset()
    before = b.save()
    obs_l, info = b.load(saved, rows=[0, 2])
    assert_array_equal(info["game_id"][[0, 2]], gid)
    after = b.save()
    assert after[1] == before[1] and after[3] == before[3]
    assert_array_equal(after[[0, 2]].data, saved.data)
    steps = 0
    while (a.game_id[[3, 1]] == gid).all() and steps < 400:
        oa, ra, ta, _, ia = a.step(a.expert_actions("greedy"))
        ob, rb, tb, _, ib = b.step(b.expert_actions("greedy"))
        if (ia["game_id"][[3, 1]] != gid).any():
            break
        assert_array_equal(oa["observation"][[3, 1]], ob["observation"][[0, 2]])
        assert_array_equal(ra[[3, 1]], rb[[0, 2]])
        steps += 1
    assert steps > 20


def test_states_value():
    env = make("american-card", 3, 2)
    obs, _ = env.reset()
    play(env, obs, 30, seed=0)
    s = env.save()
    assert len(s) == 3 and s.nbytes == 3 * (s.record_bytes + 8)
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.header == s.header
    assert TableStates.concat([s[:1], s[1:]]) == s
    assert s[-1] == s[2] and len(s[np.array([True, False, True])]) == 2
    assert "american" in repr(s)
    with pytest.raises(ValueError, match="empty"):
        TableStates.concat([])
    other = make("american", 1, 2)
    other.reset()
    with pytest.raises(ValueError, match="card"):
        TableStates.concat([s, other.save()])


@pytest.mark.parametrize("rules,other", [("classical", "mcr"), ("mcr", "american"), ("american", "american-card")])
def test_load_refuses_other_rules(rules, other):
    a = make(rules, 2, 1)
    a.reset()
    b = make(other, 2, 1)
    b.reset()
    before = b.save()
    with pytest.raises(ValueError, match="do not fit"):
        b.load(a.save())
    assert b.save() == before


def test_load_refuses_other_options():
    a = VecTables(2, rules="mcr", seed=1)
    a.reset()
    b = VecTables(2, rules="mcr", min_fan=1, seed=1)
    b.reset()
    with pytest.raises(ValueError, match="rule options"):
        b.load(a.save())


def test_load_refuses_corruption_and_writes_nothing():
    a = make("classical", 3, 1)
    obs, _ = a.reset()
    play(a, obs, 10, seed=1)
    s = a.save()
    before = a.save()
    bad = TableStates(s.header, s.rules, s.data.copy(), s.checksum)
    bad.data[2, 100] ^= 1
    with pytest.raises(ValueError, match="record 2 is corrupted"):
        a.load(bad)
    # a record with a consistent checksum but impossible contents (the wall)
    forged_data = s.data.copy()
    wall_at = a.core.state_layout()["table"] + 16      # the wall follows the header and two pointers
    forged_data[1, wall_at:wall_at + 4] = 7
    forged = TableStates(s.header, s.rules, forged_data)
    with pytest.raises(ValueError, match="record 1 is not a valid table state"):
        a.load(forged)
    hdr = dict(s.header, format=99)
    with pytest.raises(ValueError, match="format version"):
        a.load(TableStates(hdr, s.rules, s.data))
    hdr = dict(s.header, encoding="cn-v9")
    with pytest.raises(ValueError, match="encoding"):
        a.load(TableStates(hdr, s.rules, s.data))
    assert a.save() == before


def test_load_bad_input():
    a = make("classical", 3, 1)
    a.reset()
    s = a.save()
    with pytest.raises(TypeError, match="TableStates"):
        a.load(s.data)
    with pytest.raises(ValueError, match="one row per state"):
        a.load(s, rows=[0, 1])
    with pytest.raises(ValueError, match="distinct"):
        a.load(s, rows=[0, 1, 1])
    with pytest.raises(ValueError, match="tables 0 .. 2"):
        a.save(rows=[5])
    b = VecTables(3, rules="classical", learners=(0,), seed=1)
    b.reset()
    with pytest.raises(ValueError, match="policy codes"):
        b.load(s)
    with pytest.raises(RuntimeError, match="reset"):
        VecTables(1).save()
