"""The Chinese environments (mjfast.env on the ChineseVec kernel) against independent checks.

- the cn-v0 observation and legal-action mask equal a plain-Python reference
  (tests/oracles/env_encoder.py) built only from what the seat sees, on every decision of
  many random / greedy games;
- driving every seat with the built-in policies' own answers (``expert``) plays exactly the
  games simulate plays (every output column), through the kernel, VecTables and the event log;
- nothing leaks: another seat's concealed tiles and an earlier claimant's hidden answer do
  not change an observation;
- VecTables' API (shapes, seeds, threads, autoreset modes, episodes, duplicate, out=, dtypes,
  extra planes, errors), decisions() and BatchPolicy in simulate / replay.
"""
from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import mjfast
from mjfast import tiles
from mjfast._core import ensure_tables
from mjfast._kernels import chinese_env as ce
from mjfast._kernels import chinese_game as cg
from mjfast._kernels import engine
from mjfast._runtime.seeding import root_key
from mjfast.env import VecTables, decisions
from mjfast.game import chinese as chinese_family
from mjfast.game.log import decode
from oracles.env_encoder import CONTEXTS, encode_cn_v0, legal_actions, privileged_planes

EXT = engine.POLICY_CODES["external"]
ASK = engine.ASK
ST = engine.STATUS
CODES = engine.POLICY_CODES

RULESETS = {
    "classical": ("classical", {}),
    "basic": ("basic", {}),
    "mcr": ("mcr", {}),
    "classical-flowers": ("classical", {"flowers": True}),
}
TABLES = {
    "greedy": ["greedy"] * 4,
    "defensive": ["defensive"] * 4,
    "random": ["random"] * 4,
    "mixed": ["greedy", "random", "defensive", "greedy"],
}


def ruleset(name: str):
    rules, opts = RULESETS[name]
    return mjfast.rules.get(rules, **opts)


def codes_of(table: list, n: int) -> np.ndarray:
    return np.ascontiguousarray(np.tile(np.array([CODES[p] for p in table], np.intc), (n, 1)))


class Vec:
    """A ChineseVec with its step buffers."""

    def __init__(self, kern: dict, n: int, skip_forced: bool = True, derived: bool = False,
                 privileged: bool = False):
        ensure_tables()
        self.core = ce.ChineseVec(kern, n, skip_forced, derived, privileged)
        self.n = n
        c, s = self.core.n_planes, self.core.n_scalars
        self.obs = np.zeros((n, c, 34), np.uint8)
        self.scal = np.zeros((n, s), np.float32)
        self.mask = np.zeros((n, 76), np.uint8)
        self.seat = np.zeros(n, np.int8)
        self.rew = np.zeros((n, 4), np.float32)
        self.status = np.full(n, ST["idle"], np.uint8)

    def start(self, rows, game_index, key, policies=None, stop_at_hand_end=False, walls=None, dice=None):
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        pol = np.full((len(rows), 4), EXT, np.intc) if policies is None else np.ascontiguousarray(policies, np.intc)
        self.core.start(rows, np.ascontiguousarray(game_index, dtype=np.uint64), key.k0, key.k1, pol,
                        stop_at_hand_end, walls, dice)

    def step(self, acts, threads: int = 1):
        self.core.step(np.ascontiguousarray(acts, dtype=np.int64), self.obs, self.scal, self.mask, self.seat,
                       self.rew, self.status, threads)
        assert not (self.status == ST["error"]).any(), "the engine refused a legal action"

    def observe(self, i: int, seat: int):
        o = np.zeros(self.obs.shape[1:], np.uint8)
        s = np.zeros(self.scal.shape[1:], np.float32)
        self.core.observe(i, seat, o, s)
        return o, s

    def expert(self, codes: np.ndarray) -> np.ndarray:
        out = np.empty(self.n, np.int64)
        self.core.expert(np.ascontiguousarray(codes, np.intc), out, 1)
        return out


def legal(mask_row) -> set:
    return {int(a) for a in np.flatnonzero(mask_row)}


# ------------------------------------------------------------------------------------------
# the observation and the mask against the reference encoder

class Coverage:
    def __init__(self):
        self.contexts = set()
        self.actions = set()
        self.melds = set()
        self.terminal = 0
        self.decisions = 0


def check_decision(v: Vec, i: int, cov: Coverage, all_seats: bool) -> None:
    """Table i's step output (observation, scalars, mask) and observe() of every seat equal
    the reference built from the seats' views, the decision context and the question."""
    core = v.core
    s = int(v.seat[i])
    ctx = core.context(i)
    req = core.request(i)
    seat_q, what, tile, options = req
    assert seat_q == s
    # the context names the question
    expected_ctx = {ASK["claim"]: {2}, ASK["ready"]: {3}, ASK["discard"]: {0, 1}, ASK["own_turn"]: {0}}[what]
    assert ctx in expected_ctx, (req, ctx)
    views = [core.view(i, q) for q in range(4)]
    assert all(vw["seat"] == q for q, vw in enumerate(views))
    planes, scal = encode_cn_v0(views[s], ctx, tile)
    assert_array_equal(v.obs[i, :48], planes, err_msg=f"planes of seat {s}, {CONTEXTS[ctx]}, question {req}")
    assert_array_equal(v.scal[i, :28], scal, err_msg=f"scalars of seat {s}, {CONTEXTS[ctx]}")
    if core.n_planes >= 60:                      # privileged planes: the other seats' hands
        assert_array_equal(v.obs[i, -12:], privileged_planes(views, s))
    got = legal(v.mask[i])
    assert got == legal_actions(req, views[s]), f"mask of {req}: {sorted(got)}"
    assert got
    if all_seats:
        for q in range(4):
            o, sc = v.observe(i, q)
            p2, s2 = encode_cn_v0(views[q], ctx if q == s else -1, tile)
            assert_array_equal(o[:48], p2, err_msg=f"observe({i}, {q}) while seat {s} decides")
            assert_array_equal(sc[:28], s2)
            if q == s:
                assert_array_equal(o, v.obs[i])
                assert_array_equal(sc, v.scal[i])
    cov.contexts.add(ctx)
    cov.actions |= got
    for q in range(4):
        cov.melds |= {name for name, _ in views[s]["melds"][q]}
    cov.decisions += 1


def check_terminal(v: Vec, i: int, cov: Coverage) -> None:
    """The observation written at the end of a hand or game: the last actor's, no context,
    an empty mask."""
    s = int(v.seat[i])
    assert v.core.context(i) == -1
    planes, scal = encode_cn_v0(v.core.view(i, s), -1)
    assert_array_equal(v.obs[i, :48], planes)
    assert_array_equal(v.scal[i, :28], scal)
    assert not v.mask[i].any()
    cov.terminal += 1


def play_checked(rules, n: int, steps: int, seed: int, skip_forced: bool, privileged: bool = True,
                 every: int = 3) -> Coverage:
    """n tables (all seats external) play mixed random-legal and greedy moves for `steps`
    steps, stopping at each hand's end; every decision is checked against the reference
    (observe() of all four seats at one decision in `every`)."""
    v = Vec(rules.kernel(), n, skip_forced=skip_forced, privileged=privileged)
    key = root_key(seed)
    v.start(np.arange(n), np.arange(n), key, stop_at_hand_end=True)
    rng = np.random.default_rng(seed)
    greedy = codes_of(["greedy"] * 4, n)
    acts = np.full(n, -1, np.int64)
    cov = Coverage()
    next_game = n
    for step in range(steps):
        v.step(acts)
        expert = v.expert(greedy)
        for i in range(n):
            st = int(v.status[i])
            if st == ST["decide"]:
                check_decision(v, i, cov, all_seats=(step + i) % every == 0)
                acts[i] = expert[i] if rng.random() < 0.5 else rng.choice(np.flatnonzero(v.mask[i]))
                assert v.mask[i, acts[i]]
            elif st == ST["hand_end"]:
                check_terminal(v, i, cov)
                acts[i] = -1
            else:
                assert st == ST["game_end"]
                check_terminal(v, i, cov)
                v.start([i], [next_game], key, stop_at_hand_end=True)
                next_game += 1
                acts[i] = -1
    return cov


@pytest.mark.parametrize("skip_forced", [True, False], ids=["skip_forced", "all_questions"])
@pytest.mark.parametrize("name", list(RULESETS))
def test_observation_and_mask_match_the_reference(name, skip_forced):
    r = ruleset(name)
    cov = play_checked(r, n=12, steps=160, seed=20250101 + len(name), skip_forced=skip_forced)
    assert cov.decisions > 1000 and cov.terminal > 0
    # the games went through every kind of decision
    assert {0, 1, 2} <= cov.contexts
    assert (3 in cov.contexts) == (name == "basic")          # only basic asks for a ready declaration
    assert set(range(34)) | {37, 73, 74} <= cov.actions       # (legal somewhere: discards, pung, win, pass)
    assert cov.actions & {34, 35, 36}                           # some chow
    assert {"chow", "pung"} <= cov.melds


@pytest.mark.slow
@pytest.mark.parametrize("skip_forced", [True, False], ids=["skip_forced", "all_questions"])
@pytest.mark.parametrize("name", list(RULESETS))
def test_observation_and_mask_match_the_reference_slow(name, skip_forced):
    r = ruleset(name)
    cov = play_checked(r, n=32, steps=800, seed=777 + len(name), skip_forced=skip_forced, every=1)
    assert {"chow", "pung", "kong", "concealed_kong"} <= cov.melds
    assert set(range(34, 39)) | {73, 74} <= cov.actions
    assert cov.actions & set(range(39, 73))


def concealed_kongs(view) -> np.ndarray:
    """34 counts: the concealed kongs declared of each kind (any seat)."""
    c = np.zeros(34, np.int64)
    for melds in view["melds"]:
        for name, first in melds:
            if name == "concealed_kong":
                c[first] += 1
    return c


def test_derived_planes_agree_with_the_hand_functions():
    """Classical (standard forms only): the derived scalar is the own shanten; on one's own turn
    plane 0 is the shanten after each discard plus one, plane 1 the unseen copies of the kinds
    that lower the best shanten after each best discard; in a claim window plane 2 marks the
    kinds that complete the hand."""
    r = ruleset("classical")
    n = 8
    v = Vec(r.kernel(), n, derived=True)
    key = root_key(5)
    v.start(np.arange(n), np.arange(n), key)
    greedy = codes_of(["greedy"] * 4, n)
    rng = np.random.default_rng(5)
    assert v.core.n_planes == 51 and v.core.n_scalars == 29
    acts = np.full(n, -1, np.int64)
    seen = {"claim": 0, "own": 0, "effective": 0}
    for _ in range(120):
        v.step(acts)
        acts = v.expert(greedy)
        for i in np.flatnonzero(v.status == ST["decide"]):
            s = int(v.seat[i])
            ctx = v.core.context(i)
            view = v.core.view(i, s)
            hand = np.asarray(view["hand"], np.int64)
            assert v.scal[i, 28] == mjfast.shanten(hand, rules="classical")
            assert_array_equal(v.obs[i, :48], encode_cn_v0(view, ctx, v.core.request(i)[2])[0])
            d = v.obs[i, 48:51].astype(np.int64)
            if ctx == 2:
                seen["claim"] += 1
                plus = hand[None, :] + np.eye(34, dtype=np.int64)
                win = mjfast.is_winning(plus, rules="classical") & (hand < 4)
                assert_array_equal(d[2], win)
                assert not d[0].any() and not d[1].any()
            elif ctx in (0, 1):
                seen["own"] += 1
                held = np.flatnonzero(hand)
                after = {int(k): int(mjfast.shanten(hand - np.eye(34, dtype=np.int64)[k], rules="classical"))
                         for k in held}
                best = min(after.values())
                assert_array_equal(d[0], [after[k] + 1 if k in after else 0 for k in range(34)])
                assert not d[2].any()
                if concealed_kongs(view).any():     # (see the report: kongs' copies count as unseen)
                    continue
                unseen = np.maximum(0, 4 - hand - np.asarray(view["visible"], np.int64))
                for k in held:
                    if after[k] != best:
                        assert d[1, k] == 0
                        continue
                    rest = hand - np.eye(34, dtype=np.int64)[k]
                    draws = rest[None, :] + np.eye(34, dtype=np.int64)
                    lower = (mjfast.shanten(draws, rules="classical") < best) & (rest < 4)
                    assert d[1, k] == unseen[lower].sum()
                    seen["effective"] += 1
            if rng.random() < 0.4:
                acts[i] = rng.choice(np.flatnonzero(v.mask[i]))
        acts[v.status != ST["decide"]] = -2
    assert all(seen.values())


def test_derived_effective_tiles_leave_out_concealed_kongs():
    """docs/environments.md: plane 49 counts *unseen* tiles, and unseen = 4 - own - visible -
    declared concealed kongs (planes 42-45): a kind locked in a concealed kong cannot be drawn."""
    r = ruleset("classical")
    n = 64
    v = Vec(r.kernel(), n, derived=True)
    v.start(np.arange(n), np.arange(n), root_key(3))
    greedy = codes_of(["greedy"] * 4, n)
    acts = np.full(n, -1, np.int64)
    checked = 0
    for _ in range(300):
        v.step(acts)
        acts = v.expert(greedy)
        acts[v.status != ST["decide"]] = -2
        for i in np.flatnonzero(v.status == ST["decide"]):
            view = v.core.view(i, int(v.seat[i]))
            kongs = concealed_kongs(view)
            if v.core.context(i) not in (0, 1) or not kongs.any():
                continue
            hand = np.asarray(view["hand"], np.int64)
            unseen = np.maximum(0, 4 - hand - np.asarray(view["visible"], np.int64) - 4 * kongs)
            assert_array_equal(v.obs[i, 42:46].sum(axis=0), unseen)          # the observation's own unseen
            for k in np.flatnonzero(v.obs[i, 49]):
                best = int(v.obs[i, 48, k]) - 1
                rest = hand - np.eye(34, dtype=np.int64)[k]
                draws = rest[None, :] + np.eye(34, dtype=np.int64)
                lower = (mjfast.shanten(draws, rules="classical") < best) & (rest < 4)
                assert v.obs[i, 49, k] == unseen[lower].sum()
                checked += 1
    assert checked > 0


# ------------------------------------------------------------------------------------------
# parity with the built-in games

def play_expert(v: Vec, codes: np.ndarray, threads: int = 1) -> np.ndarray:
    """Drive every table with the built-in policies' answers (codes) to the end of its game;
    returns the summed score changes (n, 4)."""
    total = np.zeros((v.n, 4), np.int64)
    acts = np.full(v.n, -1, np.int64)
    for _ in range(100000):
        v.step(acts, threads)
        total += v.rew.astype(np.int64)
        done = v.status == ST["game_end"]
        if done.all():
            return total
        acts = v.expert(codes)
        dec = v.status == ST["decide"]
        assert (acts[dec] >= 0).all() and v.mask[np.flatnonzero(dec), acts[dec]].all()
        assert (acts[~dec] == -1).all()
        acts[v.status == ST["hand_end"]] = -1
        acts[done] = -2
    raise AssertionError("the games did not end")


@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("name", list(RULESETS))
def test_expert_play_reproduces_simulate_batch(name, table):
    """Every seat external, answered with expert(codes) and forced questions with the same
    teacher: the output rows (every column) are simulate_batch's for the same game indices."""
    r = ruleset(name)
    kern = r.kernel()
    n = 24
    key = root_key(31337)
    gi = np.arange(500, 500 + n, dtype=np.uint64)
    codes = codes_of(TABLES[table], n)
    ref = np.zeros((n, cg.OUT_WIDTH), np.int32)
    cg.simulate_batch(kern, gi, key.k0, key.k1, codes, ref, 1)
    threads = 2 if table == "mixed" and name == "mcr" else 1     # (the kernel's prange on two threads)
    for skip_forced, stop in ((True, False), (False, True)):
        v = Vec(kern, n, skip_forced=skip_forced)
        v.core.set_teacher(codes)
        v.start(np.arange(n), gi, key, stop_at_hand_end=stop)
        total = play_expert(v, codes, threads)
        assert_array_equal(v.core.out, ref)
        assert_array_equal(total, ref[:, :4])        # the rewards sum to the final scores
    assert ref[:, 16].sum() == 4 * n                # (every game played its hands)


@pytest.mark.parametrize("name", list(RULESETS))
def test_vectables_with_greedy_expert_plays_simulates_games(name):
    r = ruleset(name)
    n = 8
    env = VecTables(n, rules=r, learners=(0, 1, 2, 3), episode="hand", seed=99, threads=1)
    obs, info = env.reset()
    gid = info["game_id"].copy()
    acc: dict = {}
    finished = set()
    for _ in range(3000):
        a = env.expert_actions("greedy")
        assert obs["action_mask"][np.arange(n), a].all()
        obs, rew, term, trunc, info = env.step(a)
        assert not trunc.any()
        for t in range(n):
            acc.setdefault(int(gid[t]), np.zeros(4, np.int64))
            acc[int(gid[t])] += rew[t].astype(np.int64)
        finished |= {int(g) for g in gid[info["game_id"] != gid]}
        gid = info["game_id"].copy()
        if len(finished) >= n + 2:
            break
    assert len(finished) >= n
    games = np.array(sorted(finished), np.uint64)
    # table t's g-th game is game index (t << 32) | g
    assert set((games >> np.uint64(32)).tolist()) == set(range(n))
    key = root_key(99)
    ref = np.zeros((len(games), cg.OUT_WIDTH), np.int32)
    cg.simulate_batch(r.kernel(), games, key.k0, key.k1, codes_of(TABLES["greedy"], len(games)), ref, 1)
    for j, g in enumerate(games):
        assert_array_equal(acc[int(g)], ref[j, :4], err_msg=f"game {int(g):#x}")


def test_vectables_game_episodes_end_with_simulates_counters():
    """episode="game", autoreset disabled: each table idles at its game's end with the
    kernel's counters equal to simulate_batch's row."""
    r = ruleset("mcr")
    n = 6
    env = VecTables(n, rules=r, episode="game", autoreset="disabled", seed=7, threads=1)
    obs, info = env.reset()
    total = np.zeros((n, 4), np.int64)
    ended = np.zeros(n, bool)
    for _ in range(3000):
        obs, rew, term, _, info = env.step(env.expert_actions("greedy"))
        total += rew.astype(np.int64)
        assert not (term & ended).any()             # a finished table reports its end once
        ended |= term
        if ended.all():
            break
    assert ended.all()
    key = root_key(7)
    ref = np.zeros((n, cg.OUT_WIDTH), np.int32)
    cg.simulate_batch(r.kernel(), info["game_id"], key.k0, key.k1, codes_of(TABLES["greedy"], n), ref, 1)
    assert_array_equal(env.core.out, ref)
    assert_array_equal(total, ref[:, :4])


@pytest.mark.parametrize("table", ["greedy", "random"])
@pytest.mark.parametrize("name", list(RULESETS))
def test_event_log_matches_the_engine_table_and_replay(name, table):
    r = ruleset(name)
    kern = r.kernel()
    seed, cap = 2024, 65536
    key = root_key(seed)
    codes = codes_of(TABLES[table], 1)
    for g in (0, 3):
        v = Vec(kern, 1)
        v.core.set_log(0, cap)
        v.core.set_teacher(codes)
        v.start([0], [g], key)
        play_expert(v, codes)
        ev = v.core.events(0)
        assert v.core.n_events(0) == len(ev) > 100
        t = cg.ChineseTable(kern, cap)
        t.start(g, key.k0, key.k1, codes[0])
        assert t.advance() == engine.ADVANCE["done"]
        assert_array_equal(ev, t.events())
        log = mjfast.replay(seed, g, rules=r, policies=TABLES[table])
        assert decode(ev, chinese_family.event_fields) == log.events
        assert v.core.out[0, :4].tolist() == log.header["scores"]


# ------------------------------------------------------------------------------------------
# no leaks

def swapped_walls(kern: dict, key, g: int, a_seat: int, b_seat: int, rng):
    """Game g's walls and dice, and a copy where one tile dealt to a_seat and one dealt to
    b_seat (hand 0, dealer 0: the dealer takes wall[0:14], then 13 tiles each) trade places:
    ordinary tiles of different kinds, so only those two seats' concealed tiles differ."""
    t = cg.ChineseTable(kern, 0)
    t.start(g, key.k0, key.k1, np.full(4, CODES["greedy"], np.intc))
    walls, dice = t.hand_walls()
    walls = np.array(walls, np.uint8)
    dice = np.array(dice, np.int32)
    span = {0: range(0, 14), 1: range(14, 27), 2: range(27, 40), 3: range(40, 53)}
    for _ in range(1000):
        p, q = rng.choice(list(span[a_seat])), rng.choice(list(span[b_seat]))
        w = walls[0]
        if w[p] < 136 and w[q] < 136 and w[p] >> 2 != w[q] >> 2:
            other = walls.copy()
            other[0, p], other[0, q] = w[q], w[p]
            return walls, other, dice
    raise AssertionError("no two ordinary tiles of different kinds")


@pytest.mark.parametrize("swapped", [(1, 3), (0, 2)], ids=["seats13", "seats02"])
@pytest.mark.parametrize("name", list(RULESETS))
def test_other_seats_concealed_tiles_do_not_change_an_observation(name, swapped):
    """Two tables play the same game, but two seats were dealt one tile differently. While
    both tables take the same actions, the other two seats observe exactly the same (the
    privileged planes and the two seats' own observations do differ)."""
    r = ruleset(name)
    kern = r.kernel()
    key = root_key(12)
    rng = np.random.default_rng(12)
    x, y = swapped
    observers = [q for q in range(4) if q not in swapped]
    compared = 0
    for g in range(6):
        wa, wb, dice = swapped_walls(kern, key, g, x, y, rng)
        va = Vec(kern, 1, privileged=True)
        vb = Vec(kern, 1, privileged=True)
        va.start([0], [g], key, walls=wa, dice=dice)
        vb.start([0], [g], key, walls=wb, dice=dice)
        act = -1
        first = True
        while True:
            va.step([act])
            vb.step([act])
            if va.status[0] != vb.status[0] or va.status[0] != ST["decide"] or va.seat[0] != vb.seat[0]:
                break
            # (a swapped seat may have a claim in one table only: then the tables part)
            if va.core.context(0) != vb.core.context(0) or va.core.request(0)[1:3] != vb.core.request(0)[1:3]:
                break
            for q in observers:
                oa, sa = va.observe(0, q)
                ob, sb = vb.observe(0, q)
                assert_array_equal(oa[:48], ob[:48], err_msg=f"game {g}, seat {q}")
                assert_array_equal(sa, sb)
                compared += 1
            if first:   # the difference is real
                for q in swapped:
                    assert not np.array_equal(va.observe(0, q)[0][:4], vb.observe(0, q)[0][:4])
                for q in observers:
                    assert not np.array_equal(va.observe(0, q)[0][48:], vb.observe(0, q)[0][48:])
                first = False
            if int(va.seat[0]) in observers:
                assert_array_equal(va.mask, vb.mask)
            both = sorted(legal(va.mask[0]) & legal(vb.mask[0]))
            if not both:
                break
            act = int(rng.choice(both))
        assert not first
    assert compared > 50


def test_a_view_shows_the_drawn_tile_to_its_drawer_only():
    v = Vec(ruleset("classical").kernel(), 1)
    v.start([0], [0], root_key(1))
    act = -1
    for _ in range(40):
        v.step([act])
        s = int(v.seat[0])
        for q in range(4):
            if q != s:
                assert v.core.view(0, q)["drawn"] == -1, f"seat {q} sees seat {s}'s drawn tile"
        act = int(np.flatnonzero(v.mask[0])[0])


@pytest.mark.parametrize("name", list(RULESETS))
def test_an_earlier_claimants_answer_stays_hidden(name):
    """Pairs of tables play the same game with the same actions until a claim window; there
    the two tables' first asked seat answers differently. When the window is still open (a
    later seat is asked), every seat's observation and the later seat's mask are the same in
    both tables."""
    r = ruleset(name)
    m = 24                              # pairs (i, i + m)
    v = Vec(r.kernel(), 2 * m)
    key = root_key(77)
    rng = np.random.default_rng(77)
    greedy = codes_of(["greedy"] * 4, 2 * m)
    next_game = 0

    def restart(i):
        nonlocal next_game
        v.start([i, i + m], [next_game, next_game], key)
        next_game += 1

    for i in range(m):
        restart(i)
    acts = np.full(2 * m, -1, np.int64)
    diverged = np.zeros(m, bool)
    compared = 0
    for _ in range(400):
        v.step(acts)
        expert = v.expert(greedy)
        for i in range(m):
            j = i + m
            if diverged[i]:
                diverged[i] = False
                if v.status[i] == v.status[j] == ST["decide"] and v.core.context(i) == v.core.context(j) == 2 \
                        and v.seat[i] == v.seat[j] and v.core.request(i) == v.core.request(j):
                    for q in range(4):
                        oi, si = v.observe(i, q)
                        oj, sj = v.observe(j, q)
                        assert_array_equal(oi, oj, err_msg=f"seat {q} sees another seat's claim answer")
                        assert_array_equal(si, sj)
                    assert_array_equal(v.obs[i], v.obs[j])
                    assert_array_equal(v.mask[i], v.mask[j])
                    compared += 1
                restart(i)
                acts[i] = acts[j] = -1
                continue
            st = int(v.status[i])
            assert v.status[j] == st and v.seat[i] == v.seat[j]
            if st != ST["decide"]:
                if st == ST["game_end"]:
                    restart(i)
                acts[i] = acts[j] = -1
                continue
            assert_array_equal(v.obs[i], v.obs[j])
            options = np.flatnonzero(v.mask[i])
            if v.core.context(i) == 2 and len(options) >= 2:
                a, b = rng.choice(options, 2, replace=False)
                acts[i], acts[j] = a, b
                diverged[i] = True
            else:
                acts[i] = acts[j] = expert[i] if rng.random() < 0.5 else rng.choice(options)
    assert compared >= 10


# ------------------------------------------------------------------------------------------
# VecTables

def random_actions(obs: dict, rngs: list) -> np.ndarray:
    """A random legal action per table, table t drawing from its own generator rngs[t]."""
    return np.array([rng.choice(np.flatnonzero(m)) for m, rng in zip(obs["action_mask"], rngs)], np.int64)


def test_vectables_shapes_dtypes_and_zero_sum():
    n = 6
    env = VecTables(n, rules="classical", learners=(0, 2), seed=3)
    obs, info = env.reset()
    assert set(obs) == {"observation", "scalars", "action_mask"}
    assert obs["observation"].shape == (n, 48, 34) and obs["observation"].dtype == np.uint8
    assert obs["scalars"].shape == (n, 28) and obs["scalars"].dtype == np.float32
    assert obs["action_mask"].shape == (n, 76) and obs["action_mask"].dtype == np.bool_
    assert info["seat"].shape == (n,) and info["seat"].dtype == np.int8
    assert info["game_id"].dtype == np.uint64 and info["hand_number"].shape == (n,)
    assert env.observation_shape == (48, 34) and env.scalars_shape == (28,) and env.n_actions == 76
    rngs = [np.random.default_rng(t) for t in range(n)]
    moved = 0
    for _ in range(300):
        assert set(info["seat"].tolist()) <= {0, 2}         # only learners are asked
        assert obs["action_mask"].any(axis=1).all()
        # the acting seat's context is set, and its seat wind is its place after the dealer
        assert (obs["scalars"][:, 23:27].sum(axis=1) == 1).all()
        dealer = info["hand_number"] % 4                  # (the deal passes after every hand)
        wind = 27 + (info["seat"].astype(np.int64) - dealer) % 4
        assert (obs["observation"][np.arange(n), 46, wind] == 1).all()
        assert (obs["observation"][:, 46].sum(axis=1) == 1).all()
        assert_array_equal(obs["scalars"][np.arange(n), 2 + (dealer - info["seat"]) % 4], 1)
        obs, rew, term, trunc, info = env.step(random_actions(obs, rngs))
        assert rew.shape == (n, 4) and rew.dtype == np.float32
        assert term.shape == trunc.shape == (n,) and term.dtype == trunc.dtype == np.bool_
        assert_array_equal(rew.sum(axis=1), 0)
        moved += int(np.abs(rew).sum() > 0)
    assert moved > 0


def run_actions(env: VecTables, steps: int, choose, seed=None, reset=True) -> list:
    """Step env with choose(obs, env) for `steps` steps; returns the (obs, rew, term, info)
    copies of every step (the first: reset's)."""
    obs, info = env.reset(seed=seed) if reset else (None, None)
    out = [({k: x.copy() for k, x in obs.items()}, None, None, {k: x.copy() for k, x in info.items()})]
    for _ in range(steps):
        obs, rew, term, _, info = env.step(choose(obs, env))
        out.append(({k: x.copy() for k, x in obs.items()}, rew.copy(), term.copy(),
                    {k: (x.copy() if isinstance(x, np.ndarray) else x) for k, x in info.items()}))
    return out


def assert_same_runs(a: list, b: list, rows=slice(None)):
    assert len(a) == len(b)
    for (oa, ra, ta, ia), (ob, rb, tb, ib) in zip(a, b):
        for k in oa:
            assert_array_equal(oa[k][rows], ob[k][rows], err_msg=k)
        if ra is not None:
            assert_array_equal(ra[rows], rb[rows])
            assert_array_equal(ta[rows], tb[rows])
        for k in ("seat", "game_id", "hand_number"):
            assert_array_equal(ia[k][rows], ib[k][rows], err_msg=k)


def test_vectables_same_seed_same_games_whatever_the_threads():
    n = 128                                    # (VecTables steps on min(threads, n // 64) threads)
    choose = lambda obs, env: env.expert_actions("greedy")  # noqa: E731
    runs = [run_actions(VecTables(n, rules="mcr", seed=5, threads=t, episode="hand"), 60, choose) for t in (1, 2)]
    assert_same_runs(*runs)
    assert any(r[2].any() for r in runs[0][1:])     # episodes ended on the way


def test_vectables_tables_games_do_not_depend_on_the_number_of_tables():
    """Table t's games depend on (seed, t, g) only: 4 tables = the first 4 of 8."""
    def choose_for(n):
        rngs = [np.random.default_rng(1000 + t) for t in range(n)]
        return lambda obs, env: random_actions(obs, rngs)
    a = run_actions(VecTables(4, rules="basic", seed=8, threads=1), 400, choose_for(4))
    b = run_actions(VecTables(8, rules="basic", seed=8, threads=1), 400, choose_for(8))
    assert_same_runs(a, b, rows=slice(0, 4))
    assert sum(int(r[2].sum()) for r in a[1:]) > 4          # across episode boundaries
    # a different seed plays different games
    c = run_actions(VecTables(4, rules="basic", seed=9, threads=1), 1, choose_for(4))
    assert not np.array_equal(a[0][0]["observation"], c[0][0]["observation"])


def test_vectables_reset_seed_rekeys():
    env = VecTables(4, seed=1)
    first = env.reset()[0]["observation"].copy()
    env.reset(seed=2)
    other = env.reset(seed=1)[0]["observation"].copy()
    assert_array_equal(first, other)
    assert not np.array_equal(first, env.reset(seed=2)[0]["observation"])


def trajectories(mode: str, n: int, steps: int, episode: str = "hand", rules: str = "classical") -> list:
    """Per table, the sequence of ("dec", obs row) decision observations and ("end", obs row)
    terminal observations of a greedy run under autoreset `mode`, as one list per table."""
    env = VecTables(n, rules=rules, seed=21, threads=1, autoreset=mode, episode=episode)
    obs, info = env.reset()
    seqs: list = [[("dec", obs["observation"][t].copy(), obs["scalars"][t].copy())] for t in range(n)]
    idle = np.zeros(n, bool)
    for _ in range(steps):
        a = env.expert_actions("greedy")
        a[idle] = 9999                              # ignored: a table between episodes
        obs, rew, term, trunc, info = env.step(a)
        assert_array_equal(rew.sum(axis=1), 0)
        for t in range(n):
            if mode == "same_step":
                if term[t]:
                    assert info["_final_obs"][t]
                    fin = info["final_obs"]
                    assert not fin["action_mask"][t].any()          # a terminal observation
                    assert not fin["scalars"][t, 23:27].any()       # (no decision context)
                    seqs[t].append(("end", fin["observation"][t].copy(), fin["scalars"][t].copy()))
                seqs[t].append(("dec", obs["observation"][t].copy(), obs["scalars"][t].copy()))
                assert obs["action_mask"][t].any()
            elif mode == "next_step":
                if term[t]:
                    assert not obs["action_mask"][t].any()
                    seqs[t].append(("end", obs["observation"][t].copy(), obs["scalars"][t].copy()))
                else:
                    assert obs["action_mask"][t].any()
                    seqs[t].append(("dec", obs["observation"][t].copy(), obs["scalars"][t].copy()))
            elif idle[t]:                                              # disabled, idle table
                assert not term[t] and not rew[t].any()
            elif term[t]:
                seqs[t].append(("end", obs["observation"][t].copy(), obs["scalars"][t].copy()))
            else:
                seqs[t].append(("dec", obs["observation"][t].copy(), obs["scalars"][t].copy()))
        if mode == "next_step":
            idle = term.copy()
        elif mode == "disabled":
            idle |= term
            if idle.sum() >= n // 2:                    # restart the finished tables only
                before = obs["observation"].copy()
                obs, info = env.reset(options={"reset_mask": idle.copy()})
                assert_array_equal(obs["observation"][~idle], before[~idle])
                for t in np.flatnonzero(idle):
                    seqs[t].append(("dec", obs["observation"][t].copy(), obs["scalars"][t].copy()))
                idle[:] = False
    return seqs


def assert_prefix_equal(a: list, b: list) -> int:
    m = min(len(a), len(b))
    for (ka, oa, sa), (kb, ob, sb) in zip(a[:m], b[:m]):
        assert ka == kb
        assert_array_equal(oa, ob)
        assert_array_equal(sa, sb)
    return m


def test_vectables_autoreset_modes_play_the_same_episodes():
    """same_step (final_obs in info), next_step (the terminal observation returned; the next
    step ignores the table's action and starts the next episode) and disabled (idle until
    reset(options={"reset_mask": ...})) show each table the same observations in the same
    order."""
    n = 6
    same = trajectories("same_step", n, 300)
    nxt = trajectories("next_step", n, 300)
    dis = trajectories("disabled", n, 300)
    for t in range(n):
        for other in (nxt[t], dis[t]):
            m = assert_prefix_equal(same[t], other)
            assert sum(k == "end" for k, _, _ in same[t][:m]) >= 1      # across an episode's end


def test_vectables_hand_and_game_episodes_play_the_same_games():
    n = 4
    hand = trajectories("same_step", n, 400, episode="hand")
    game = trajectories("same_step", n, 400, episode="game")
    for t in range(n):
        h = [x for x in hand[t] if x[0] == "dec"]
        g = [x for x in game[t] if x[0] == "dec"]
        m = assert_prefix_equal(h, g)
        assert m == min(len(h), len(g))
        # a game episode ends once per game, a hand episode once per hand
        ends_g = sum(k == "end" for k, _, _ in game[t])
        ends_h = sum(k == "end" for k, _, _ in hand[t])
        assert ends_h >= 4 * ends_g and ends_g >= 1


def test_vectables_episode_ends_follow_hands_and_games():
    n = 4
    for episode in ("hand", "game"):
        env = VecTables(n, rules="classical", seed=4, threads=1, episode=episode)
        obs, info = env.reset()
        gid, hand = info["game_id"].copy(), info["hand_number"].copy()
        assert (hand == 0).all()
        ends = 0
        for _ in range(600):
            obs, rew, term, _, info = env.step(env.expert_actions("greedy"))
            new_game = info["game_id"] != gid
            new_hand = info["hand_number"] != hand
            if episode == "game":
                assert_array_equal(term, new_game)
            else:
                assert_array_equal(term, new_hand | new_game)
            assert (info["hand_number"][new_game] == 0).all()
            assert (info["hand_number"][new_hand & ~new_game] == hand[new_hand & ~new_game] + 1).all()
            # the next game of a table is its game number + 1
            assert (info["game_id"][new_game] == gid[new_game] + np.uint64(1)).all()
            ends += int(term.sum())
            gid, hand = info["game_id"].copy(), info["hand_number"].copy()
        assert ends > 0


def test_vectables_duplicate_tables_share_walls():
    n = 8
    env = VecTables(n, rules="classical", seed=6, duplicate=True)   # every seat a learner
    obs, info = env.reset()
    gid = info["game_id"]
    for j in range(2):
        grp = slice(4 * j, 4 * j + 4)
        assert len(set(gid[grp].tolist())) == 1
        # all seats external: the four tables of a group are the same table
        for t in range(4 * j + 1, 4 * j + 4):
            assert_array_equal(obs["observation"][t], obs["observation"][4 * j])
    assert gid[0] != gid[4]
    assert not np.array_equal(obs["observation"][0], obs["observation"][4])
    # one learner: it sits at seat t % 4 of table t (its role is 0) on the same walls
    env = VecTables(n, rules="classical", seed=6, duplicate=True, learners=(0,), opponents="greedy")
    obs, info = env.reset()
    for _ in range(50):
        assert_array_equal(info["seat"], np.arange(n) % 4)
        assert (info["role"] == 0).all()
        assert_array_equal(info["game_id"] >> np.uint64(32), np.arange(n) // 4)   # the group's walls
        obs, rew, term, _, info = env.step(env.expert_actions("greedy"))
    # the walls: the dealer's first 14 tiles are the same at the four tables of a group
    log = mjfast.replay(6, int(gid[0]), rules="classical")
    dealt = np.zeros(34, int)
    for e in log.events:
        if e["type"] == "deal" and e["seat"] == 0 and e["hand"] == 0:
            dealt[tiles.tile_index(e["tile"])] += 1
    env = VecTables(n, rules="classical", seed=6, duplicate=True)
    obs, _ = env.reset()
    own = obs["observation"][0, 0:4].sum(axis=0)
    assert_array_equal(own, dealt)


def test_vectables_out_buffers():
    n = 4
    ref_env = VecTables(n, rules="basic", seed=2, threads=1)
    env = VecTables(n, rules="basic", seed=2, threads=1)
    ref_obs, _ = ref_env.reset()
    env.reset()
    buf = {"observation": np.zeros((n, 48, 34), np.uint8), "scalars": np.zeros((n, 28), np.float32),
           "action_mask": np.zeros((n, 76), bool), "rewards": np.zeros((n, 4), np.float32)}
    for _ in range(120):
        a = ref_env.expert_actions("greedy")
        assert_array_equal(a, env.expert_actions("greedy"))
        ref_obs, ref_rew, ref_term, _, _ = ref_env.step(a)
        obs, rew, term, _, _ = env.step(a, out=buf)
        assert obs["observation"] is buf["observation"] and obs["scalars"] is buf["scalars"]
        assert np.shares_memory(obs["action_mask"], buf["action_mask"])
        for k in obs:
            assert_array_equal(obs[k], ref_obs[k])
        assert_array_equal(rew, ref_rew)
        assert_array_equal(term, ref_term)
    with pytest.raises(ValueError):
        env.step(env.expert_actions("greedy"), out={"observation": np.zeros((n, 48, 33), np.uint8)})
    with pytest.raises(ValueError):
        env.step(env.expert_actions("greedy"), out={"scalars": np.zeros((n, 28), np.float64)})
    with pytest.raises(ValueError):
        env.step(env.expert_actions("greedy"), out={"planes": np.zeros((n, 48, 34), np.uint8)})


def test_vectables_out_rewards_buffer_holds_the_rewards():
    n = 4
    env = VecTables(n, rules="classical", seed=2, threads=1)
    env.reset()
    buf = np.zeros((n, 4), np.float32)
    for _ in range(200):
        _, rew, term, _, _ = env.step(env.expert_actions("greedy"), out={"rewards": buf})
        assert_array_equal(buf, rew)


def test_vectables_float32_planes():
    a = VecTables(4, rules="mcr", seed=3, dtype="float32")
    b = VecTables(4, rules="mcr", seed=3)
    oa, _ = a.reset()
    ob, _ = b.reset()
    for _ in range(40):
        assert oa["observation"].dtype == np.float32
        assert_array_equal(oa["observation"], ob["observation"].astype(np.float32))
        act = b.expert_actions("greedy")
        oa = a.step(act)[0]
        ob = b.step(act)[0]
    buf = np.zeros((4, 48, 34), np.float32)
    o = a.step(a.expert_actions("greedy"), out={"observation": buf})[0]
    assert o["observation"] is buf
    assert_array_equal(buf, b.step(b.expert_actions("greedy"))[0]["observation"])


def test_vectables_derived_and_privileged_planes():
    n = 4
    plain = VecTables(n, rules="classical", seed=8)
    po, _ = plain.reset()
    for derived, privileged, planes, scalars in ((True, False, 51, 29), (False, True, 60, 28), (True, True, 63, 29)):
        env = VecTables(n, rules="classical", seed=8, derived=derived, privileged=privileged)
        obs, info = env.reset()
        assert env.observation_shape == (planes, 34) and env.scalars_shape == (scalars,)
        assert obs["observation"].shape == (n, planes, 34) and obs["scalars"].shape == (n, scalars)
        assert_array_equal(obs["observation"][:, :48], po["observation"])
        assert_array_equal(obs["scalars"][:, :28], po["scalars"])
        if privileged:
            for t in range(n):
                s = int(info["seat"][t])
                views = [env.core.view(t, q) for q in range(4)]
                assert_array_equal(obs["observation"][t, -12:], privileged_planes(views, s))


def test_vectables_illegal_actions_raise_and_step_nothing():
    n = 3
    env = VecTables(n, rules="classical", seed=1, threads=1)
    twin = VecTables(n, rules="classical", seed=1, threads=1)
    obs, info = env.reset()
    twin.reset()
    a = env.expert_actions("greedy")
    for t, bad in ((1, int(np.flatnonzero(~obs["action_mask"][1])[0])), (2, 76), (0, -1)):
        acts = a.copy()
        acts[t] = bad
        with pytest.raises(mjfast.IllegalActionError) as exc:
            env.step(acts)
        msg = str(exc.value)
        assert f"table {t}" in msg and f"seat {int(info['seat'][t])}" in msg and f"action {bad}" in msg
    # nothing was stepped: the game goes on as its twin's
    o1 = env.step(a)[0]
    o2 = twin.step(a)[0]
    for k in o1:
        assert_array_equal(o1[k], o2[k])


def test_vectables_bad_arguments():
    with pytest.raises(ValueError):
        VecTables(0)
    for n in (1.5, "4", True, None):
        with pytest.raises(TypeError):
            VecTables(n)
    bad = [dict(rules="no-such-rules"), dict(learners=()), dict(learners=(0, 0)), dict(learners=(4,)),
           dict(opponents="bogus", learners=(0,)), dict(opponents=["greedy"] * 3, learners=(0,)),
           dict(episode="round"), dict(obs="am-v0"), dict(autoreset="sometimes"), dict(dtype="int8")]
    for kw in bad:
        with pytest.raises(ValueError):
            VecTables(2, **kw)
    for kw in (dict(derived="yes"), dict(duplicate=1), dict(learners=object())):
        with pytest.raises(TypeError):
            VecTables(2, **kw)
    env = VecTables(2, seed=1)
    with pytest.raises(RuntimeError):
        env.step([0, 0])
    obs, _ = env.reset()
    with pytest.raises(ValueError):
        env.step([0, 0, 0])
    with pytest.raises(TypeError):
        env.step(np.array([0.5, 1.0]))
    with pytest.raises(ValueError):
        env.reset(options={"bogus": 1})
    with pytest.raises(ValueError):
        env.reset(options={"reset_mask": np.ones(3, bool)})
    with pytest.raises(ValueError):
        env.reset(options={"reset_mask": np.ones(2, int)})
    with pytest.raises(ValueError):
        env.expert_actions("bogus")
    # float action ids that are whole numbers are taken
    a = env.expert_actions("greedy")
    env.step(a.astype(np.float64))


# ------------------------------------------------------------------------------------------
# decisions()

def score_changes(log) -> dict:
    """(hand, seat) -> the seat's score change over the hand, from a replay log."""
    out: dict = {}
    for e in log.events:
        if e["type"] == "score":
            out[(e["hand"], e["seat"])] = out.get((e["hand"], e["seat"]), 0) + e["delta"]
    return out


@pytest.mark.parametrize("name", ["classical", "basic", "mcr"])
def test_decisions_rows_and_rewards(name):
    r = ruleset(name)
    seed, games = 17, 3
    d = decisions(games, rules=r, policies="greedy", seed=seed, progress=False, threads=1)
    m = len(d)
    assert m > 100 and d.encoding == "cn-v0"
    assert d.observation.shape == (m, 48, 34) and d.observation.dtype == np.uint8
    assert d.scalars.shape == (m, 28) and d.scalars.dtype == np.float32
    assert d.action_mask.shape == (m, 76) and d.action_mask.dtype == np.bool_
    assert d.action.dtype == np.int16 and d.seat.dtype == np.int8 and d.reward.dtype == np.float32
    assert d.game_id.dtype == np.uint64 and d.hand_number.dtype == np.int16
    assert d.action_mask[np.arange(m), d.action].all()
    assert (d.action_mask.sum(axis=1) >= 2).all()                 # forced questions are skipped
    assert set(d.game_id.tolist()) == set(range(games))
    assert set(d.arrays()) == {"observation", "scalars", "action_mask", "action", "seat", "reward", "game_id",
                               "hand_number"}
    # the acting seat's context scalar is set; the hand number is the observation's
    assert (d.scalars[:, 23:27].sum(axis=1) == 1).all()
    assert_array_equal(d.scalars[:, 22], d.hand_number)
    for g in range(games):
        log = mjfast.replay(seed, g, rules=r, policies="greedy")
        delta = score_changes(log)
        rows = np.flatnonzero(d.game_id == g)
        for i in rows:
            assert d.reward[i] == delta.get((int(d.hand_number[i]), int(d.seat[i])), 0)
    dg = decisions(games, rules=r, policies="greedy", seed=seed, episode="game", progress=False, threads=1)
    for g in range(games):
        final = mjfast.replay(seed, g, rules=r, policies="greedy").header["scores"]
        rows = dg.game_id == g
        assert_array_equal(dg.action[rows], d.action[d.game_id == g])     # the same decisions
        assert_array_equal(dg.reward[rows], np.array(final)[dg.seat[rows]])


def own_choices(log) -> list:
    """(seat, action id) of every discard, kong and self-drawn win a log shows, in order."""
    shown = []
    for e in log.events:
        if e["type"] == "discard":
            shown.append((e["seat"], tiles.tile_index(e["tile"])))
        elif e["type"] in ("concealed_kong", "added_kong"):
            shown.append((e["seat"], 39 + tiles.tile_index(e["tile"])))
        elif e["type"] == "win" and e["self_drawn"]:
            shown.append((e["seat"], 73))
    return shown


@pytest.mark.parametrize("policies", ["defensive", "random"])
def test_decisions_are_the_logged_games_choices(policies):
    """With every question shown (skip_forced=False), the own-turn decisions are exactly the
    discards, kongs and self-drawn wins of replay's log, in order; the claim decisions' claims
    are the log's claims."""
    seed, games = 23, 3
    d = decisions(games, rules="classical", policies=policies, seed=seed, skip_forced=False, progress=False,
                  threads=1)
    for g in range(games):
        log = mjfast.replay(seed, g, rules="classical", policies=policies)
        rows = d.game_id == g
        own_turn = rows & (d.scalars[:, 23:25].sum(axis=1) == 1)
        assert [(int(s), int(a)) for s, a in zip(d.seat[own_turn], d.action[own_turn])] == own_choices(log)
        # every claim the log shows was that seat's answer in a claim window (an answer may
        # also be outranked by another seat's claim and not show)
        claimed = Counter((e["seat"], e["type"]) for e in log.events if e["type"] in ("chow", "pung", "kong"))
        claim_rows = rows & (d.scalars[:, 25] == 1)
        names = {34: "chow", 35: "chow", 36: "chow", 37: "pung", 38: "kong"}
        taken = Counter((int(s), names[int(a)]) for s, a in zip(d.seat[claim_rows], d.action[claim_rows])
                        if int(a) in names)
        assert not claimed - taken
        if policies == "random":
            assert not taken                                    # random players never claim
        else:
            assert claimed


@pytest.mark.parametrize("name", ["classical", "basic", "mcr"])
def test_decisions_from_a_log_are_a_subsequence_of_the_played_decisions(name):
    r = ruleset(name)
    seed, games = 41, 2
    d = decisions(games, rules=r, policies="greedy", seed=seed, progress=False, threads=1)
    for g in range(games):
        log = mjfast.replay(seed, g, rules=r, policies="greedy")
        dl = decisions(log)
        assert len(dl) > 50 and set(dl.game_id.tolist()) == {0}
        rows = np.flatnonzero(d.game_id == g)
        j = 0
        for i in range(len(dl)):
            while j < len(rows) and not (d.action[rows[j]] == dl.action[i]
                                         and np.array_equal(d.observation[rows[j]], dl.observation[i])):
                j += 1
            assert j < len(rows), f"log decision {i} of game {g} is not among the played decisions"
            k = rows[j]
            assert_array_equal(d.scalars[k], dl.scalars[i])
            assert_array_equal(d.action_mask[k], dl.action_mask[i])
            assert d.seat[k] == dl.seat[i] and d.reward[k] == dl.reward[i]
            j += 1
        # through JSON lines too
        dj = decisions(log.to_jsonl())
        assert_array_equal(dj.action, dl.action)


@pytest.mark.parametrize("policies", ["greedy", "random"])
def test_decisions_do_not_depend_on_n_tables(policies):
    seed, games = 3, 6
    a = decisions(games, rules="classical", policies=policies, seed=seed, n_tables=games, progress=False, threads=1)
    b = decisions(games, rules="classical", policies=policies, seed=seed, n_tables=1, progress=False, threads=1)
    for g in range(games):
        ra, rb = a.game_id == g, b.game_id == g
        assert_array_equal(a.action[ra], b.action[rb], err_msg=f"game {g}")
        assert_array_equal(a.observation[ra], b.observation[rb])


# ------------------------------------------------------------------------------------------
# BatchPolicy in simulate and replay

class LowestLegal(mjfast.BatchPolicy):
    """The lowest legal action id (deterministic)."""

    name = "lowest-legal"

    def __init__(self):
        self.calls = 0

    def act(self, observation, action_mask, seat):
        self.calls += 1
        assert observation.shape[0] == action_mask.shape[0] == seat.shape[0]
        return np.argmax(action_mask, axis=1)


class HighestLegal(mjfast.BatchPolicy):
    name = "highest-legal"

    def act(self, observation, action_mask, seat, scalars=None):
        assert scalars is not None and scalars.shape == (len(seat), 28)
        return action_mask.shape[1] - 1 - np.argmax(action_mask[:, ::-1], axis=1)


class Illegal(mjfast.BatchPolicy):
    def act(self, observation, action_mask, seat):
        return np.argmin(action_mask, axis=1)            # an action the mask forbids


def plain(x):
    """x with numpy arrays (nested in dicts, lists, tuples) as lists, for ==."""
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def sim_fields(res) -> dict:
    """Every counter of a SimResult (all but the rules object and the seeds)."""
    return {f.name: plain(getattr(res, f.name)) for f in dataclasses.fields(res) if f.name not in ("rules", "seeds")}


@pytest.mark.parametrize("name", ["classical", "basic", "mcr"])
def test_batch_policy_results_do_not_depend_on_threads_or_chunks(name):
    r = ruleset(name)
    games = 12
    pols = [LowestLegal(), "greedy", HighestLegal(), "random"]
    runs = [mjfast.simulate(games, rules=r, policies=pols, seed=4, threads=t, chunk_size=c, progress=False)
            for t, c in ((1, 4096), (2, 4096), (1, 5), (2, 1))]
    ref = sim_fields(runs[0])
    for res in runs[1:]:
        assert sim_fields(res) == ref
    assert runs[0].games == games and "lowest-legal" in runs[0].by_policy
    assert pols[0].calls > 0


def test_batch_policy_games_are_the_kernels_games():
    """simulate with a BatchPolicy at every seat = the games a ChineseVec plays with the same
    choice, and replay rebuilds each of them."""
    r = ruleset("classical")
    games, seed = 6, 10
    res = mjfast.simulate(games, rules=r, policies=LowestLegal(), seed=seed, threads=1, progress=False)
    v = Vec(r.kernel(), games)
    key = root_key(seed)
    v.start(np.arange(games), np.arange(games), key)
    acts = np.full(games, -1, np.int64)
    while True:
        v.step(acts)
        if (v.status == ST["game_end"]).all():
            break
        acts = np.where(v.status == ST["decide"], np.argmax(v.mask, axis=1), -2)
    scores = v.core.out[:, :4]
    assert_array_equal(res.points, scores.sum(axis=0))
    assert_array_equal(res.wins, v.core.out[:, 4:8].sum(axis=0))
    for g in range(games):
        log = mjfast.replay(seed, g, rules=r, policies=LowestLegal())
        assert log.header["scores"] == scores[g].tolist()
        assert log.header["policies"] == ["lowest-legal"] * 4
        assert sum(e["delta"] for e in log.events if e["type"] == "score") == 0


@pytest.mark.parametrize("name", ["classical", "mcr"])
def test_replay_with_a_batch_policy_reproduces_simulates_games(name):
    r = ruleset(name)
    seed, games = 13, 5
    pols = [LowestLegal(), "greedy", "defensive", LowestLegal()]
    res = mjfast.simulate(games, rules=r, policies=pols, seed=seed, threads=1, progress=False)
    finals = []
    wins = np.zeros(4, np.int64)
    for g in range(games):
        log = mjfast.replay(seed, g, rules=r, policies=pols)
        finals.append(log.header["scores"])
        for e in log.events:
            if e["type"] == "win":
                wins[e["seat"]] += 1
        # the log re-runs to itself
        assert mjfast.rerun(log, policies=pols).events == log.events
    finals = np.array(finals)
    assert_array_equal(res.points, finals.sum(axis=0))
    assert_array_equal(res.points_sq, (finals.astype(np.int64) ** 2).sum(axis=0))
    assert_array_equal(res.wins, wins)


def test_batch_policy_errors():
    with pytest.raises(mjfast.IllegalActionError) as exc:
        mjfast.simulate(2, policies=[Illegal(), "greedy", "greedy", "greedy"], seed=1, progress=False)
    assert "seat 0" in str(exc.value)

    class Fair(mjfast.Policy):
        def discard(self, view):
            return int(np.flatnonzero(view.hand)[0])

    with pytest.raises(ValueError):
        mjfast.simulate(2, policies=[LowestLegal(), Fair(), "greedy", "greedy"], seed=1, progress=False)
    with pytest.raises(ValueError):
        mjfast.replay(1, 0, policies=[Fair(), LowestLegal(), "greedy", "greedy"])

    class Short(mjfast.BatchPolicy):
        def act(self, observation, action_mask, seat):
            return np.zeros(len(seat) + 1, np.int64)

    with pytest.raises(TypeError):
        mjfast.simulate(2, policies=[Short(), "greedy", "greedy", "greedy"], seed=1, progress=False)
