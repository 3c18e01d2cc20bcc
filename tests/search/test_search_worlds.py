"""Worlds (issue 27): the redraw is uniform over consistent assignments (chi-square against an
exact enumeration, tests/oracles/worlds.py), the viewing seat's observation is the same in every
world, tiles are conserved, worlds differ, and bad input is refused before any work."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import mjfast
from mjfast._kernels import worlds as kw
from mjfast.env import VecTables
from mjfast.search import TableStates, sample_worlds
from mjfast.search._common import AM_CHARLESTON, phases
from mjfast.search._states import new_core
from oracles.worlds import chi_square, exact_outcomes


def chi2_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at p = 0.001 (Wilson-Hilferty)."""
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def cn_kind(t: int) -> int:
    return t >> 2 if t < 136 else 34 + (t - 136)


def am_kind(t: int) -> int:
    return t >> 2 if t < 136 else (34 if t < 144 else 35)


@pytest.mark.parametrize("family", ["chinese", "american"])
def test_redraw_matches_exact_enumeration(family):
    """Seat 0 views; seat 1 holds one tile of kind 0, seat 2 one of kind 1, seat 3 none; three
    hidden wall positions hold 3, 6 and a bonus tile (Chinese: a flower, never held) or a
    joker (American: held like any tile). 60,000 redraws against the exact probabilities."""
    chinese = family == "chinese"
    extra = 136 if chinese else 144
    kind = cn_kind if chinese else am_kind
    wall = np.array([0, 4, 1, 5, 2, 137, 3, 6, extra, 7], np.uint8)
    hands = np.zeros((4, 48), np.uint8)
    hands[0, 2] = 1
    hands[1, 0] = 1
    hands[2, 1] = 1
    trials = 60000
    walls, out = kw.redraw_trials(wall, 6, 8, hands, 0, chinese, chinese, 11, 12, trials)
    observed: Counter = Counter()
    for j in range(trials):
        parts = []
        for s in (1, 2, 3):
            parts.append(tuple(k for k in range(48) for _ in range(out[j, s, k])))
        parts.append(tuple(int(t) for t in walls[j, 6:9]))
        observed[tuple(parts)] += 1
        assert sorted(walls[j].tolist()) == sorted(wall.tolist())       # still a permutation of the ids
    assert_array_equal(out[:, 0], np.broadcast_to(hands[0], (trials, 48)))   # the viewer's hand kept
    exact = exact_outcomes([0, 4, 3, 6, extra], [1, 1, 0], [3], kind, (lambda t: t >= 136) if chinese else
                           (lambda t: False))
    stat, df = chi_square(observed, exact)
    assert len(exact) > 10
    assert stat < chi2_critical(df), (stat, df)


def test_chi_square_detects_a_biased_sampler():
    """The test above has power: a sampler that never puts id 3 first in the wall fails it."""
    exact = exact_outcomes([0, 4, 3, 6, 136], [1, 1, 0], [3], cn_kind, lambda t: t >= 136)
    rng = np.random.default_rng(0)
    keys = [k for k in exact if k[3][0] != 3]
    probs = np.array([float(exact[k]) for k in keys])
    draws = rng.choice(len(keys), size=60000, p=probs / probs.sum())
    stat, df = chi_square(Counter(keys[i] for i in draws), exact)
    assert stat > chi2_critical(df)


CASES = [("classical", {}), ("basic", {}), ("mcr", {}), ("mcr-botzone", {}), ("american", {}),
         ("american", {"card": "toy"})]


def saved(rules: str, kw_: dict, n: int = 6, steps: int = 60, seed: int = 3) -> TableStates:
    opts = {"card": mjfast.card.toy_card()} if kw_.get("card") else {}
    env = VecTables(n, rules=rules, seed=seed, **opts)
    obs, _ = env.reset()
    for _ in range(steps):
        obs, *_ = env.step(env.expert_actions("greedy"))
    states = env.save()
    keep = ~np.isin(phases(states), AM_CHARLESTON) if rules == "american" else np.ones(n, bool)
    assert keep.sum() >= 2
    return states[keep]


def observe_all(states: TableStates, seats: np.ndarray):
    core = new_core(states.rules, len(states))
    rec = core.state_layout()["record"]
    core.load_states(np.arange(len(states), dtype=np.int64), np.ascontiguousarray(states.data[:, :rec]))
    obs = np.zeros((len(states), core.n_planes, core.kinds), np.uint8)
    sc = np.zeros((len(states), core.n_scalars), np.float32)
    for i in range(len(states)):
        core.observe(i, int(seats[i]), obs[i], sc[i])
    views = [[core.view(i, s) for s in range(4)] for i in range(len(states))]
    return obs, sc, views


@pytest.mark.parametrize("rules,kw_", CASES)
def test_worlds_keep_the_view_and_conserve_tiles(rules, kw_):
    s = saved(rules, kw_, n=12 if rules == "american" else 6, steps=160 if rules == "american" else 60)
    n = 16
    w = sample_worlds(s, n, seed=5)
    assert len(w) == len(s) * n
    seats = s._book(new_core(s.rules, 1).state_layout())[:, 1]
    o0, sc0, v0 = observe_all(s, seats)
    o1, sc1, v1 = observe_all(w, np.repeat(seats, n))
    assert_array_equal(o1, np.repeat(o0, n, axis=0))           # the seat's observation: identical
    assert_array_equal(sc1, np.repeat(sc0, n, axis=0))
    differs = 0
    for t in range(len(s)):
        seat = int(seats[t])
        own = v0[t][seat]["hand"]
        total0 = sum(v0[t][q]["hand"].astype(int) for q in range(4) if q != seat)
        for k in range(n):
            vw = v1[t * n + k]
            assert_array_equal(vw[seat]["hand"], own)
            total = sum(vw[q]["hand"].astype(int) for q in range(4) if q != seat)
            # the other seats' tiles plus the hidden wall: the same multiset in every world
            # (checked through the unseen counts: the view's hands and the wall left)
            assert [int(vw[q]["hand"].sum()) for q in range(4)] == [int(v0[t][q]["hand"].sum()) for q in range(4)]
            assert vw[seat]["wall_left"] == v0[t][seat]["wall_left"]
            differs += int(not np.array_equal(total, total0) or any(
                not np.array_equal(vw[q]["hand"], v0[t][q]["hand"]) for q in range(4)))
    assert differs > len(s) * n // 2
    # every world is a valid state (walls are permutations, counts in range)
    core = new_core(s.rules, 1)
    assert not core.check_states(np.ascontiguousarray(w.data[:, :core.state_layout()["record"]])).any()


def test_conservation_of_hidden_tiles_chinese():
    """Per kind, the other seats' tiles plus the hidden wall's are the same in every world."""
    s = saved("mcr", {}, n=3)
    w = sample_worlds(s, 8, seed=1)
    lay = new_core(s.rules, 1).state_layout()
    wall_at = lay["table"] + 16
    seats = s._book(lay)[:, 1]

    def hidden(states: TableStates, i: int, seat: int) -> np.ndarray:
        g = states.data[i]
        front, back = (int(x) for x in g[wall_at + 192:wall_at + 204].view(np.int32)[[1, 2]])
        c = np.bincount([cn_kind(int(t)) for t in g[wall_at + front:wall_at + back + 1]], minlength=42)[:34]
        core = new_core(states.rules, 1)
        core.load_states(np.zeros(1, np.int64), np.ascontiguousarray(states.data[i:i + 1, :lay["record"]]))
        return c + sum(core.view(0, q)["hand"].astype(int) for q in range(4) if q != seat)

    for t in range(len(s)):
        base = hidden(s, t, int(seats[t]))
        for k in range(8):
            assert_array_equal(hidden(w, t * 8 + k, int(seats[t])), base)


def test_worlds_reproducible_and_rekeyed():
    s = saved("classical", {}, n=2)
    a = sample_worlds(s, 4, seed=9)
    assert a == sample_worlds(s, 4, seed=9)
    assert a != sample_worlds(s, 4, seed=10)
    keys = {bytes(a.data[i, 8:24]) for i in range(len(a))}
    assert len(keys) == len(a)                      # every world has its own streams


def test_worlds_bad_input():
    s = saved("classical", {}, n=2)
    with pytest.raises(ValueError, match="at least 1"):
        sample_worlds(s, 0, seed=1)
    with pytest.raises(TypeError, match="int"):
        sample_worlds(s, 2.5, seed=1)
    with pytest.raises(TypeError, match="TableStates"):
        sample_worlds(s.data, 2, seed=1)
    with pytest.raises(ValueError, match="empty"):
        sample_worlds(s[:0], 2, seed=1)
    with pytest.raises(ValueError, match="seats are 0-3"):
        sample_worlds(s, 2, seed=1, seat=4)
    with pytest.raises(ValueError, match="would need"):
        sample_worlds(s, 10**12, seed=1)
    env = VecTables(1, rules="classical", seed=1, autoreset="disabled", episode="hand")
    env.reset()
    while not env.step(env.expert_actions("greedy"))[2][0]:
        pass
    done = env.save()
    with pytest.raises(ValueError, match="no decision"):
        sample_worlds(done, 2, seed=1)
    am = VecTables(1, rules="american", seed=1)
    am.reset()
    with pytest.raises(ValueError, match="Charleston"):
        sample_worlds(am.save(), 2, seed=1)


def test_mcr_botzone_worlds_keep_each_private_wall_and_what_was_drawn():
    # mcr-botzone: the hidden tiles are four stretches (seat q: [34 q, 34 q + tiles left in its
    # own wall)); a world redraws them among themselves and the other seats' concealed tiles,
    # and keeps each wall's length (a drawn position may change id: the record's history of
    # who drew which copy is not part of any seat's view)
    s = saved("mcr-botzone", {}, n=4, steps=50)
    n = 12
    w = sample_worlds(s, n, seed=2)
    lay = new_core(s.rules, 1).state_layout()
    wall_at = lay["table"] + 16
    seats = s._book(lay)[:, 1]
    _, _, v0 = observe_all(s, seats)
    _, _, v1 = observe_all(w, np.repeat(seats, n))
    moved = 0
    for t in range(len(s)):
        seat = int(seats[t])
        left = v0[t][seat]["walls_left"]
        wall0 = s.data[t, wall_at:wall_at + 136]
        hidden = np.zeros(136, bool)
        for q in range(4):
            hidden[34 * q:34 * q + left[q]] = True
        for k in range(n):
            wall1 = w.data[t * n + k, wall_at:wall_at + 136]
            assert v1[t * n + k][seat]["walls_left"] == left
            assert sorted(wall1.tolist()) == sorted(wall0.tolist())
            # the tiles left in each wall: the hidden stretches hold the same number of tiles
            changed = np.nonzero(wall1 != wall0)[0]
            moved += int(hidden[changed].any())
    assert moved > len(s) * n // 2
