"""American cards in the environments: every entry point that takes ``card=`` plays
the card (it crashed with SIGSEGV at the first reset: the tables never had the card scratch the
engine uses, and their output rows had no room for the card's per-line columns)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import _proc
import mjfast
from mjfast import _core
from mjfast import rules as R
from mjfast._kernels import american_env as ae
from mjfast._kernels import american_game as ag
from mjfast._kernels import engine
from mjfast._runtime.seeding import root_key
from mjfast.env import VecTables, decisions

EXT = engine.POLICY_CODES["external"]
ST = engine.STATUS
LARGE = Path(__file__).resolve().parents[1] / "data" / "cards" / "invented-large.json"


def _child(code: str) -> None:
    """Run ``code`` in a fresh interpreter (a crash fails the test, not pytest)."""
    env = dict(os.environ)
    here = str(Path(mjfast.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240, env=env)
    what = f"killed by signal {-out.returncode}" if out.returncode < 0 else f"exit status {out.returncode}"
    assert out.returncode == 0 and out.stdout.strip().endswith("done"), f"{what}:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}"


PLAY = """
import numpy as np, mjfast
card = {card}
rng = np.random.default_rng(0)
"""


@pytest.mark.parametrize("card", ["mjfast.card.toy_card()", f"mjfast.load_card({str(LARGE)!r})"],
                         ids=["toy", "large"])
def test_vectables_with_a_card_plays(card):
    _child(PLAY.format(card=card) + """
from mjfast.env import VecTables
env = VecTables(1, rules="american", card=card, seed=1)
env.reset()
env = VecTables(6, rules="american", card=card, seed=1, derived=True, privileged=True)
obs, info = env.reset()
ends = 0
for _ in range(1500):
    a = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
    obs, rew, term, trunc, info = env.step(a)
    assert rew.sum() == 0
    ends += int(term.sum())
assert ends > 0
print("done")
""")


def test_aec_with_a_card_plays():
    _child(PLAY.format(card="mjfast.card.toy_card()") + """
from mjfast.env import MahjongAEC
env = MahjongAEC(rules="american", card=card)
env.reset(seed=1)
for _ in range(3):
    total = 0.0
    for agent in env.agent_iter(5000):
        obs, reward, term, trunc, info = env.last()
        total += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert total == 0
    env.reset()
print("done")
""")


def test_decisions_with_a_card_plays():
    _child(PLAY.format(card="mjfast.card.toy_card()") + """
from mjfast.env import decisions
d = decisions(2, rules="american", card=card, seed=1, progress=False)
assert len(d) > 100 and d.action_mask[np.arange(len(d)), d.action].all()
print("done")
""")


@pytest.fixture(scope="module")
def cards_do_not_crash():
    """The in-process card tests below run only once a child has played a card without a crash
    (a crash there must fail tests, not kill pytest)."""
    _child("import mjfast\nfrom mjfast.env import VecTables\n"
           "VecTables(2, rules='american', card=mjfast.card.toy_card(), seed=1, derived=True).reset()\n"
           "print('done')")


def _card_table(card, n, seed, code):
    _core.ensure_tables()
    r = R.get("american", card=card)
    key = root_key(seed)
    core = ae.AmericanVec(r.kernel(), n, True, True, False)
    rows = np.arange(n, dtype=np.int64)
    core.start(rows, rows.astype(np.uint64), key.k0, key.k1, np.full((n, 4), EXT, np.intc), False)
    core.set_teacher(np.full((n, 4), code, np.intc))
    return r, key, core


@pytest.mark.parametrize("policy,card", [
    ("greedy", "toy"),
    # (the other three take 9-15 s each: the slow tier, run by .ci/run)
    pytest.param("random", "toy", marks=pytest.mark.slow),
    pytest.param("greedy", "large", marks=pytest.mark.slow),
    pytest.param("random", "large", marks=pytest.mark.slow)])
def test_teacher_play_with_a_card_reproduces_simulate(policy, card, cards_do_not_crash):
    """External seats answered by a built-in teacher play simulate's games, card and all: the
    same output rows (per-line columns included). An external seat's call takes the exposure
    greedy would, and its distance after a discard is the one greedy records."""
    c = mjfast.card.toy_card() if card == "toy" else mjfast.load_card(LARGE)
    n = 24 if card == "toy" else 12
    code = engine.POLICY_CODES[policy]
    r, key, core = _card_table(c, n, seed=5, code=code)
    obs = np.zeros((n, core.n_planes, 36), np.uint8)
    sc = np.zeros((n, core.n_scalars), np.float32)
    mask = np.zeros((n, ae.ACTIONS), np.uint8)
    seat, rew, st = np.zeros(n, np.int8), np.zeros((n, 4), np.float32), np.zeros(n, np.uint8)
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
    width = ag.out_width(r.kernel())
    assert core.out.shape == (n, width) and width > ag.OUT_WIDTH
    out = np.zeros((n, width), np.int32)
    ag.simulate_batch(r.kernel(), np.arange(n, dtype=np.uint64), key.k0, key.k1, codes, out, 2)
    np.testing.assert_array_equal(core.out, out)


def test_card_observations_show_exposure_sizes_and_the_card_distance(cards_do_not_crash):
    """am-v0 with a card: an exposure of s tiles (3-6) shows s - jokers natural tiles, so at the
    acting seat's own turn hand + exposures = 14 tiles; the derived distance is the card's."""
    card = mjfast.card.toy_card()
    env = VecTables(16, rules="american", card=card, seed=3, derived=True, opponents="greedy")
    obs, info = env.reset()
    rng = np.random.default_rng(1)
    own = checked_dist = sizes = 0
    ctx = ae.CONTEXTS.index("own_turn") + 26
    for _ in range(2500):
        o, s = obs["observation"], obs["scalars"]
        for t in np.flatnonzero(s[:, ctx] == 1):
            hand = o[t, 0:8].sum(axis=0)                 # thermometer planes: the counts
            nat, jok = o[t, 11], o[t, 15]                # own exposures: natural tiles, jokers
            assert hand.sum() + nat.sum() + jok.sum() == 14
            own += 1
            sizes += int(((nat + jok) == 3).any() or ((nat + jok) == 5).any())
            if nat.sum() + jok.sum() == 0:
                assert s[t, 34] == card.distance(hand.astype(np.int64)).min()
                checked_dist += 1
        a = env.expert_actions("greedy")
        explore = rng.random(16) < 0.2
        a[explore] = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"][explore]]
        obs, *_ = env.step(a)
    assert own > 500 and checked_dist > 300 and sizes > 0


def test_decisions_with_a_card_are_simulates_games(cards_do_not_crash):
    """decisions(card=...) plays the games simulate and replay play with the same seed and
    policies: each decision's reward is its seat's score change over its hand in the replayed
    game's log."""
    card = mjfast.card.toy_card()
    rules = R.get("american", card=card)
    d = decisions(3, rules=rules, policies="greedy", seed=2, progress=False)
    assert sorted(np.unique(d.game_id).tolist()) == [0, 1, 2]
    for gid in range(3):
        log = mjfast.replay(2, gid, rules=rules)
        delta: dict = {}
        for e in log.events:
            if e["type"] == "score":
                delta[(e["hand"], e["seat"])] = delta.get((e["hand"], e["seat"]), 0) + e["delta"]
        sel = d.game_id == gid
        assert sel.sum() > 50
        for h, s, rwd in zip(d.hand_number[sel], d.seat[sel], d.reward[sel]):
            assert rwd == delta.get((int(h), int(s)), 0)


def test_decisions_of_card_logs_are_a_subsequence_of_the_played_ones(cards_do_not_crash):
    """decisions(log) reads the log of a card game (the header carries the card): the decisions
    it keeps (the ones the log reveals) are, in order, decisions the game's own players took."""
    card = mjfast.card.toy_card()
    rules = R.get("american", card=card)
    played = decisions(2, rules=rules, policies="greedy", seed=2, progress=False)
    from_logs = decisions([mjfast.replay(2, g, rules=rules) for g in range(2)])
    for g in range(2):
        mine, sel = from_logs.game_id == g, played.game_id == g
        obs_g, act_g, rew_g = played.observation[sel], played.action[sel], played.reward[sel]
        assert 0.9 * sel.sum() <= mine.sum() <= sel.sum()
        j = 0
        for o, a, r in zip(from_logs.observation[mine], from_logs.action[mine], from_logs.reward[mine]):
            while j < len(act_g) and not (act_g[j] == a and np.array_equal(obs_g[j], o)):
                j += 1
            assert j < len(act_g)
            assert rew_g[j] == r
            j += 1


def test_scalar_bounds_hold_with_a_card(cards_do_not_crash):
    pytest.importorskip("gymnasium")
    from test_env_api import check_scalar_bounds

    check_scalar_bounds(VecTables(32, rules="american", card=mjfast.card.toy_card(), seed=9, derived=True))
