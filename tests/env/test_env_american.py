"""The American environments (am-v0): encoder and masks against the plain-Python reference,
greedy and random parity with simulate, VecTables / decisions / BatchPolicy on American rules."""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import _core
from mjfast import rules as R
from mjfast._kernels import american_env as ae
from mjfast._kernels import american_game as ag
from mjfast._kernels import engine
from mjfast._runtime.seeding import root_key
from mjfast.env import VecTables, decisions
from oracles.env_encoder_american import CONTEXTS, encode_am_v0, legal_actions

EXT = engine.POLICY_CODES["external"]
ST = engine.STATUS
OPTION_SETS = [{}, {"blind_pass": True, "courtesy": True}, {"second_charleston": "policy", "courtesy": True},
               {"jokers": 10, "blind_pass": True}]


def _buffers(core, n):
    return (np.zeros((n, core.n_planes, 36), np.uint8), np.zeros((n, core.n_scalars), np.float32),
            np.zeros((n, ae.ACTIONS), np.uint8), np.zeros(n, np.int8), np.zeros((n, 4), np.float32),
            np.zeros(n, np.uint8))


def _table(rules, n, seed, codes=None, stop=False, derived=False, privileged=False):
    _core.ensure_tables()
    r = R.get("american", **rules)
    key = root_key(seed)
    core = ae.AmericanVec(r.kernel(), n, True, derived, privileged)
    rows = np.arange(n, dtype=np.int64)
    core.start(rows, rows.astype(np.uint64), key.k0, key.k1, np.full((n, 4), EXT, np.intc), stop)
    if codes is not None:
        core.set_teacher(np.full((n, 4), codes, np.intc))
    return r, key, core


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_encoder_and_mask_match_the_reference(opts):
    n = 12
    r, _, core = _table(opts, n, seed=11)
    obs, sc, mask, seat, rew, st = _buffers(core, n)
    rng = np.random.default_rng(3)
    acts = np.full(n, -1, np.int64)
    checked = 0
    contexts = set()
    for _ in range(1500):
        core.step(acts, obs, sc, mask, seat, rew, st, 1)
        assert rew.sum() == 0
        for i in range(n):
            if st[i] != ST["decide"]:
                acts[i] = -2
                continue
            req = core.request(i)
            view = core.view(i, req[0])
            ps = core.pass_state(i)
            ctx = CONTEXTS[core.context(i)]
            contexts.add(ctx)
            assert set(np.flatnonzero(mask[i])) == legal_actions(req, view, ps)
            ref_o, ref_s = encode_am_v0(view, ctx, req, ps, r.blind_pass)
            np.testing.assert_array_equal(obs[i], ref_o)
            np.testing.assert_array_equal(sc[i], ref_s)
            # any other seat's observation of the same moment (no decision context)
            other = (req[0] + 1 + i % 3) % 4           # never the acting seat
            o2 = np.zeros((core.n_planes, 36), np.uint8)
            s2 = np.zeros(core.n_scalars, np.float32)
            core.observe(i, other, o2, s2)
            ref_o2, ref_s2 = encode_am_v0(core.view(i, other), None, req, ps, r.blind_pass)
            np.testing.assert_array_equal(o2, ref_o2)
            np.testing.assert_array_equal(s2, ref_s2)
            acts[i] = rng.choice(np.flatnonzero(mask[i]))
            checked += 1
        if (st == ST["game_end"]).all():
            break
    assert checked > 1000
    assert {"own_turn", "call", "pass_tile"} <= contexts


@pytest.mark.parametrize("opts,policy", [
    pytest.param(o, p, id=f"{','.join(o) or 'default'}-{p}",
                 marks=[pytest.mark.slow] if (not o and p == "random") else [])  # (default-random: ~10 s)
    for o in OPTION_SETS for p in ("greedy", "random")])
def test_expert_play_reproduces_simulate(policy, opts):
    n = 60
    code = engine.POLICY_CODES[policy]
    r, key, core = _table(opts, n, seed=5, codes=code)
    obs, sc, mask, seat, rew, st = _buffers(core, n)
    acts = np.full(n, -1, np.int64)
    codes = np.full((n, 4), code, np.intc)
    while True:
        core.step(acts, obs, sc, mask, seat, rew, st, 2)
        if (st == ST["game_end"]).all():
            break
        core.expert(codes, acts, 2)
        d = st == ST["decide"]
        assert mask[np.flatnonzero(d), acts[d]].all()
        acts[~d] = -2
    out = np.zeros((n, ag.OUT_WIDTH), np.int32)
    ag.simulate_batch(r.kernel(), np.arange(n, dtype=np.uint64), key.k0, key.k1, codes, out, 2)
    np.testing.assert_array_equal(core.out, out)


def test_stop_at_hand_end_and_derived_privileged_shapes():
    n = 4
    r, key, core = _table({}, n, seed=2, codes=engine.POLICY_CODES["greedy"], stop=True, derived=True,
                          privileged=True)
    assert core.n_planes == ae.PLANES + ae.DERIVED_PLANES + ae.PRIVILEGED_PLANES
    assert core.n_scalars == ae.SCALARS + 1
    obs, sc, mask, seat, rew, st = _buffers(core, n)
    acts = np.full(n, -1, np.int64)
    hands_ended = np.zeros(n, int)
    codes = np.full((n, 4), engine.POLICY_CODES["greedy"], np.intc)
    for _ in range(5000):
        core.step(acts, obs, sc, mask, seat, rew, st, 1)
        hands_ended += st == ST["hand_end"]
        if (st == ST["game_end"]).all():
            break
        core.expert(codes, acts, 1)
        acts[st == ST["hand_end"]] = -1
        acts[st == ST["game_end"]] = -2
        for i in np.flatnonzero(st == ST["decide"]):
            s = int(seat[i])
            for k, rr in enumerate((1, 2, 3)):   # privileged planes: the other hands
                np.testing.assert_array_equal(obs[i, ae.PLANES + ae.DERIVED_PLANES + k],
                                              np.asarray(core.view(i, (s + rr) % 4)["hand"]))
    assert (hands_ended == 4).all()          # every hand of every game was reported


def test_vectables_american_api():
    env = VecTables(8, rules="american", seed=4, courtesy=True)
    obs, info = env.reset()
    assert obs["observation"].shape == (8, 28, 36) and obs["action_mask"].shape == (8, 83)
    assert env.encoding.name == "am-v0"
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rew, term, trunc, info = env.step(a)
        assert rew.sum() == 0 and not trunc.any()
        ended += int(term.sum())
    assert ended > 0
    with pytest.raises(ValueError, match="am-v0"):
        VecTables(2, rules="american", obs="cn-v0")
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in obs["action_mask"]])
    with pytest.raises(mjfast.IllegalActionError, match="table 0, seat"):
        env.step(bad)


def test_decisions_american():
    d = decisions(6, rules="american", policies="greedy", seed=3, progress=False)
    assert d.encoding == "am-v0" and d.observation.shape[1:] == (28, 36)
    assert d.action_mask[np.arange(len(d)), d.action].all()
    # rewards: the acting seat's score change over its hand, from the game's own log
    for gid in np.unique(d.game_id)[:2]:
        log = mjfast.replay(3, int(gid), rules="american")
        delta = {}
        for e in log.events:
            if e["type"] == "score":
                delta[(e["hand"], e["seat"])] = delta.get((e["hand"], e["seat"]), 0) + e["delta"]
        sel = d.game_id == gid
        for h, s, rwd in zip(d.hand_number[sel], d.seat[sel], d.reward[sel]):
            assert rwd == delta.get((int(h), int(s)), 0)


class _LowestLegal(mjfast.BatchPolicy):
    name = "lowest-legal"

    def act(self, observation, action_mask, seat):
        return action_mask.argmax(axis=1)


def test_batch_policy_american_threads_and_replay():
    pols = [_LowestLegal(), "greedy", "random", "greedy"]
    a = mjfast.simulate(30, rules="american", policies=pols, seed=9, threads=1, progress=False)
    b = mjfast.simulate(30, rules="american", policies=pols, seed=9, threads=2, chunk_size=7, progress=False)
    np.testing.assert_array_equal(a.points, b.points)
    # replay rebuilds game 4 of the run: the same final scores as the batch engine's row
    from mjfast.game.runner import play_games

    key = root_key(9)
    out = play_games(R.get("american"), pols, np.array([4], np.uint64), key.k0, key.k1, 1)
    log = mjfast.replay(9, 4, rules="american", policies=pols)
    assert log.header["scores"] == out[0, engine.OUT_COMMON["score"]:engine.OUT_COMMON["score"] + 4].tolist()


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_decisions_from_american_logs_are_a_subsequence_of_the_played_ones(policy):
    """decisions(log) answers every question with what the log shows; the decisions it keeps
    (the ones the log reveals) are, in order, decisions the game's own players took."""
    played = decisions(3, rules="american", policies=policy, seed=1, progress=False, skip_forced=True)
    logs = [mjfast.replay(1, g, rules="american", policies=policy) for g in range(3)]
    from_logs = decisions([log.to_jsonl() for log in logs])
    assert from_logs.encoding == "am-v0"
    for g in range(3):
        mine = from_logs.game_id == g
        sel = played.game_id == g
        obs_g, act_g, rew_g = played.observation[sel], played.action[sel], played.reward[sel]
        assert 0.9 * sel.sum() <= mine.sum() <= sel.sum()      # most decisions show in a log
        j = 0
        for o, a, r in zip(from_logs.observation[mine], from_logs.action[mine], from_logs.reward[mine]):
            while j < len(act_g) and not (act_g[j] == a and np.array_equal(obs_g[j], o)):
                j += 1
            assert j < len(act_g)
            assert rew_g[j] == r
            j += 1


def test_decisions_refuses_logs_of_two_families():
    logs = [mjfast.replay(1, 0, rules="american"), mjfast.replay(1, 0, rules="classical")]
    with pytest.raises(ValueError, match="one rule family"):
        decisions(logs)
