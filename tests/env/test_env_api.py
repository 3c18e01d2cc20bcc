"""The environments against the Gymnasium and PettingZoo API checkers (skipped without the
optional packages: ``pip install mjfast[env]``)."""
from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_equal

gymnasium = pytest.importorskip("gymnasium")

import mjfast  # noqa: E402
import mjfast.env  # noqa: E402  (registers the ids)
from mjfast.env import VecTables  # noqa: E402

RULES = ["classical", "basic", "mcr", "american"]
IDS = {"classical": "mjfast/Classical-v0", "basic": "mjfast/Basic-v0", "mcr": "mjfast/MCR-v0",
       "american": "mjfast/American-v0"}


# ------------------------------------------------------------------------------------------
# PettingZoo

@pytest.fixture(scope="module")
def pz_test():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    return api_test, seed_test


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_factories_and_parallel_api(rules, pz_test):
    """PettingZoo's conventions (failed before: no env() / raw_env() / parallel_env(), no
    render_mode="human", no parallel API): its own API, parallel API, seed and render tests."""
    from pettingzoo.test import parallel_api_test, render_test
    from pettingzoo.utils import wrappers

    from mjfast.env import MahjongAEC, MahjongParallel, aec

    api_test, _ = pz_test
    e = aec.env(rules=rules)
    assert isinstance(e, wrappers.OrderEnforcingWrapper) and isinstance(e.unwrapped, MahjongAEC)
    api_test(e, num_cycles=200, verbose_progress=False)
    assert isinstance(aec.raw_env(rules=rules), MahjongAEC)
    p = aec.parallel_env(rules=rules)
    assert isinstance(p, MahjongParallel)
    parallel_api_test(p, num_cycles=1000)
    render_test(lambda render_mode=None: aec.raw_env(rules=rules, render_mode=render_mode))


def test_render_human_prints_and_returns_none(pz_test, capsys):
    from mjfast.env import MahjongAEC

    env = MahjongAEC(rules="classical", render_mode="human")
    env.reset(seed=1)
    assert "player_0 to act" in capsys.readouterr().out
    assert env.render() is None and "legal:" in capsys.readouterr().out
    a = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(a)
    assert "to act" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        MahjongAEC(rules="classical", render_mode="rgb_array")


@pytest.mark.parametrize("rules", ["classical", "american"])
def test_parallel_env_plays_the_aec_game(rules, pz_test):
    """MahjongParallel seeded s plays what MahjongAEC seeded s plays: the acting agent's
    observation and every reward, step by step; other agents' actions are ignored."""
    from mjfast.env import MahjongAEC, MahjongParallel

    par, ref = MahjongParallel(rules=rules), MahjongAEC(rules=rules)
    obs, infos = par.reset(seed=3)
    ref.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(2000):
        actor = par.agent_selection
        assert actor == ref.agent_selection and infos[actor]["acting"]
        assert sum(info["acting"] for info in infos.values()) == 1
        o = ref.observe(actor)
        for k in o:
            assert_array_equal(obs[actor][k], o[k])
        a = int(rng.choice(np.flatnonzero(o["action_mask"])))
        junk = {ag: 999 for ag in par.agents if ag != actor}
        obs, rew, term, trunc, infos = par.step({actor: a, **junk})
        ref.step(a)
        assert rew == {ag: ref.rewards[ag] for ag in rew} and sum(rew.values()) == 0
        if all(term.values()):
            assert not par.agents
            for _ in list(ref.agents):
                ref.step(None)
            obs, infos = par.reset()
            ref.reset()
    with pytest.raises(ValueError, match="acting now"):
        par.step({})


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_test(rules, pz_test):
    from mjfast.env import MahjongAEC

    api_test, _ = pz_test
    api_test(MahjongAEC(rules=rules), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_seed_test(rules, pz_test):
    from mjfast.env import MahjongAEC

    _, seed_test = pz_test
    seed_test(lambda: MahjongAEC(rules=rules), num_cycles=200)


@pytest.mark.parametrize("rules", RULES)
def test_aec_plays_vectables_games(rules, pz_test):
    """A MahjongAEC seeded s plays game 0 of seed s as VecTables' table 0 does: the acting
    agent's observation, mask and the rewards are the same, step by step, across hands."""
    from mjfast.env import MahjongAEC

    aec = MahjongAEC(rules=rules)
    vec = VecTables(1, rules=rules, seed=5, threads=1)
    aec.reset(seed=5)
    obs, info = vec.reset()
    rng = np.random.default_rng(5)
    hands = 0
    for _ in range(400):
        agent = aec.agent_selection
        seat = int(info["seat"][0])
        assert agent == f"player_{seat}"
        o = aec.observe(agent)
        assert_array_equal(o["observation"], obs["observation"][0])
        assert_array_equal(o["scalars"], obs["scalars"][0])
        assert_array_equal(o["action_mask"].astype(bool), obs["action_mask"][0])
        for other in aec.agents:                     # only the acting agent has a mask
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        a = int(rng.choice(np.flatnonzero(obs["action_mask"][0])))
        aec.step(a)
        obs, rew, term, _, info = vec.step([a])
        assert [aec.rewards[f"player_{s}"] for s in range(4)] == rew[0].tolist()
        assert sum(aec.rewards.values()) == 0
        if term[0]:
            hands += 1
            assert all(aec.terminations.values())
            for _ in list(aec.agents):             # the agents see the end, then leave
                aec.step(None)
            assert not aec.agents
            aec.reset()                            # the game's next hand
    assert hands >= 2


def test_aec_illegal_action_names_the_agent(pz_test):
    from mjfast.env import MahjongAEC

    env = MahjongAEC(rules="classical")
    env.reset(seed=1)
    agent = env.agent_selection
    bad = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(mjfast.IllegalActionError, match=f"{agent}.*action {bad}"):
        env.step(bad)
    with pytest.raises(ValueError):
        MahjongAEC(rules="classical", episode="round")


# ------------------------------------------------------------------------------------------
# Gymnasium

@pytest.mark.parametrize("kw", [{}, {"derived": True, "privileged": True, "dtype": "float32"}], ids=["default", "options"])
@pytest.mark.parametrize("env_id", list(IDS.values()))
def test_gymnasium_env_checker_passes_on_every_id(env_id, kw):
    """Failed before on every id: the checker steps sampled (mostly illegal) actions, which
    raised; the scalars' space was unbounded (the checker warned)."""
    import warnings

    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, **kw)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=True)
    assert not [str(w.message) for w in caught]


def test_gymnasium_single_env_penalty_and_raise():
    env = gymnasium.make("mjfast/Basic-v0").unwrapped       # illegal="penalty" by default
    assert env.illegal == "penalty"
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, rew, term, trunc, _ = env.step(bad)
    assert rew == env.illegal_penalty and not term and not trunc
    for k in obs:                                   # refused: nothing changed
        assert_array_equal(obs2[k], obs[k])
    strict = gymnasium.make("mjfast/Basic-v0", illegal="raise").unwrapped
    obs, _ = strict.reset(seed=3)
    with pytest.raises(mjfast.IllegalActionError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


@pytest.mark.parametrize("rules", RULES)
def test_single_env_mask_is_int8_and_samples_legal_actions(rules):
    """Failed before: the mask was bool, which Discrete.sample(mask=...) refuses."""
    env = gymnasium.make(IDS[rules], illegal="raise")
    obs, _ = env.reset(seed=4)
    env.action_space.seed(4)
    assert env.observation_space["action_mask"].dtype == np.int8
    for _ in range(300):
        assert obs["action_mask"].dtype == np.int8
        a = env.action_space.sample(mask=obs["action_mask"])
        assert obs["action_mask"][a] == 1
        obs, rew, term, trunc, _ = env.step(a)
        if term:
            obs, _ = env.reset()


@pytest.mark.parametrize("rules, kw", [("classical", {}), ("mcr", {"derived": True}), ("basic", {"rounds": 2}),
                                       ("american", {"derived": True})], ids=lambda x: str(x))
def test_scalar_bounds_are_finite_and_hold(rules, kw):
    """Every scalar lies between finite bounds its rules guarantee, over many random games
    (with a card: tests/env/test_env_cards.py)."""
    check_scalar_bounds(VecTables(32, rules=rules, seed=9, **kw))


def check_scalar_bounds(env):
    from mjfast.env.gym import single_spaces

    space = single_spaces(env)[0]["scalars"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    obs, _ = env.reset()
    rng = np.random.default_rng(9)
    hi = np.full(space.shape, -np.inf)
    for _ in range(1500):
        s = obs["scalars"]
        assert (s >= space.low).all() and (s <= space.high).all()
        hi = np.maximum(hi, s.max(axis=0))
        a = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, *_ = env.step(a)
    assert hi[0] > 0 and hi[1] > 0                  # (the run went somewhere)


@pytest.mark.parametrize("rules", list(IDS))
def test_make_vec_observations_stay_in_their_space(rules):
    from mjfast.env.gym import MahjongVectorEnv

    n = 4
    env = gymnasium.make_vec(IDS[rules], num_envs=n)
    assert isinstance(env, MahjongVectorEnv) and env.num_envs == n
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert env.single_action_space == gymnasium.spaces.Discrete(env.tables.n_actions)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    ends = 0
    for _ in range(250):
        assert env.observation_space.contains(obs)
        assert obs["action_mask"].any(axis=1).all()
        a = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        assert env.action_space.contains(a)
        obs, rew, term, trunc, info = env.step(a)
        assert rew.shape == (n,) and rew.dtype == np.float32          # one learner: its reward
        assert (info["seat"] == 0).all()
        ends += int(term.sum())
        if term.any():
            assert env.single_observation_space["observation"].contains(info["final_obs"]["observation"][term][0])
    assert ends > 0
    env.close()


@pytest.mark.parametrize("mode", ["next_step", "disabled"])
def test_make_vec_autoreset_mode_in_metadata(mode):
    env = gymnasium.make_vec("mjfast/MCR-v0", num_envs=2, autoreset=mode)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode(
        {"next_step": "NextStep", "disabled": "Disabled"}[mode])
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)


def test_make_vec_several_learners_get_all_rewards():
    env = gymnasium.make_vec("mjfast/Classical-v0", num_envs=3, learners=(0, 1, 2, 3))
    obs, _ = env.reset(seed=2)
    obs, rew, *_ = env.step(env.tables.expert_actions("greedy"))
    assert rew.shape == (3, 4)
    assert_array_equal(rew.sum(axis=1), 0)


def test_parallel_docstring_examples():
    import doctest

    pytest.importorskip("pettingzoo")
    import mjfast.env.parallel as mod

    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0 and res.attempted > 0
