"""Invariants of the game engine over many games: an independent referee (tests/_referee.py)
replays every event of real games from the header's walls and dice, plus statistical and
reproducibility invariants of simulate() / replay() / rerun().
"""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import _referee
import mjfast
from _referee import RefereeError, check_log
from mjfast import tiles
from mjfast.game import CLAIM_KINDS

TABLES = {
    "greedy": "greedy",
    "random": "random",
    "defensive": "defensive",
    "mixed": ["greedy", "random", "defensive", "greedy"],
}
RULESETS = {
    "classical": ("classical", {}),
    "basic": ("basic", {}),
    "classical-flowers-2rounds": ("classical", {"flowers": True, "rounds": 2}),
    "classical-special-discarder": ("classical", {"special_forms": ("seven_pairs", "thirteen_orphans"),
                                                  "payment": "discarder", "dead_wall": 6}),
    "mcr": ("mcr", {}),
    "mcr-deadwall": ("mcr", {"dead_wall": 16}),
    "classical-refill-drawn-kong": ("classical", {"refill_dead_wall": True, "added_kong": "drawn", "flowers": True}),
    "mcr-deadwall-refill": ("mcr", {"dead_wall": 16, "refill_dead_wall": True}),
    # Chinese Official before fan scoring (flat base_points, any complete hand), and flat
    # payments with the fan minimum
    "mcr-flat": ("mcr", {"scoring": "basic", "min_fan": 0, "payment": "discarder"}),
    "mcr-flat-min8": ("mcr", {"scoring": "basic", "min_fan": 8, "base_points": 7}),
}
FAST_GAMES = 50
SLOW_GAMES = 200


def _referee_games(rules, opts, table, games, seed):
    total = _referee.Stats()
    for g in range(games):
        log = mjfast.replay(seed, g, rules=rules, policies=table, **opts)
        try:
            total += check_log(log, check_ready=(rules == "basic"))
        except RefereeError as exc:
            raise AssertionError(f"replay({seed}, {g}, rules={rules!r}, policies={table!r}, **{opts}): {exc}") from None
    return total


def _check_stats(st, table, games, rounds=1, rules=None, opts=None):
    assert st.hands == 4 * rounds * games
    assert st.wins + st.exhaustive == st.hands             # every hand ends once
    assert st.wins == st.self_drawn + st.discard_wins
    assert st.false_wins == 0                              # built-in policies never declare a false win
    opts = opts or {}
    if rules == "mcr" and (opts.get("scoring", "fan") == "fan" or opts.get("min_fan", 8) > 0):
        assert st.fan_wins == st.wins                      # every win's fans checked against the oracle
        assert st.rob_chances == st.robbed_kongs           # built-in players rob whenever they validly can
        if opts.get("scoring", "fan") != "fan":
            assert st.robbed_kongs == 0
    else:
        assert st.fan_wins == 0 and st.kinds["fan"] == 0 and st.robbed_kongs == 0
    assert st.kinds["discard"] > 0 and st.kinds["draw"] > 0
    if table == "random":
        assert st.kinds["chow"] == st.kinds["pung"] == st.kinds["kong"] == 0   # random players never claim
    else:
        assert st.wins > 0 and st.kinds["chow"] + st.kinds["pung"] > 0


def _fast_cases() -> list:
    """Every rule set with every table, except that the MCR variants of the plain preset (its
    dead-wall, flat-payment and minimum-fan options) play the mixed table only here: their other
    tables, with more games, are the slow twin below (run by .ci/run)."""
    out = []
    for ruleset in RULESETS:
        for table in TABLES:
            slow = ruleset.startswith("mcr-") and table != "mixed"
            out.append(pytest.param(ruleset, table, id=f"{ruleset}-{table}",
                                    marks=[pytest.mark.slow] if slow else []))
    return out


@pytest.mark.parametrize("ruleset,table", _fast_cases())
def test_referee_accepts_every_game(ruleset, table):
    rules, opts = RULESETS[ruleset]
    st = _referee_games(rules, opts, TABLES[table], FAST_GAMES, seed=20240601)
    _check_stats(st, table, FAST_GAMES, opts.get("rounds", 1), rules, opts)
    if opts.get("flowers") or rules == "mcr":
        assert st.kinds["bonus"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("table", list(TABLES))
@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_referee_accepts_every_game_slow(ruleset, table):
    rules, opts = RULESETS[ruleset]
    st = _referee_games(rules, opts, TABLES[table], SLOW_GAMES, seed=99)
    _check_stats(st, table, SLOW_GAMES, opts.get("rounds", 1), rules, opts)
    if table != "random":
        assert st.priority_checks > 0


def test_mcr_default_dead_wall():
    _referee_games("mcr", {}, "random", 12, seed=11)


def test_referee_covers_contested_wins_and_ready():
    """Across these games the referee checked discards that two players could win on, and the
    ready declarations of the basic rules (built-in players declare whenever they are ready)."""
    st = _referee.Stats()
    for g in range(12):
        st += check_log(mjfast.replay(3, g, rules="basic", policies="greedy"), check_ready=True)
    assert st.kinds["ready"] > 0 and st.wins > 0
    contested = _referee.Stats()
    g = 0
    while contested.contested_wins == 0 and g < 150:
        contested += check_log(mjfast.replay(8, g, rules="classical", policies="greedy"))
        g += 1
    assert contested.contested_wins > 0


# ---------------------------------------------------------------------------------------------
# Python players: every legal option, chosen at random (exercises kongs of every kind)

class RandomLegal(mjfast.Policy):
    """Chooses uniformly among the offered options (always taking kongs and wins when told to)."""

    name = "random_legal"

    def __init__(self, seed: int, kong_bias: bool = True):
        self.rng = np.random.default_rng(seed)
        self.kong_bias = kong_bias
        self.asked = {"claim": 0, "own_turn": 0, "declare_ready": 0}

    def discard(self, view):
        held = np.flatnonzero(view.hand)
        return tiles.tile_name(int(self.rng.choice(held)))

    def claim(self, view, tile, options):
        self.asked["claim"] += 1
        if "win" in options:
            return "win"
        if self.kong_bias and "kong" in options:
            return "kong"
        choices = list(options) + [None]
        return choices[self.rng.integers(len(choices))]

    def own_turn(self, view, options):
        self.asked["own_turn"] += 1
        if "win" in options:
            return "win"
        kongs = [o for o in options if "kong" in o]
        if self.kong_bias and kongs:
            return kongs[self.rng.integers(len(kongs))]
        return None

    def declare_ready(self, view):
        self.asked["declare_ready"] += 1
        return bool(self.rng.integers(2))


@pytest.mark.parametrize("rules, opts", [("classical", {}), ("basic", {}), ("classical", {"flowers": True}),
                                         ("mcr", {}), ("mcr", {"scoring": "basic", "min_fan": 0})])
def test_referee_with_python_players_taking_every_kong(rules, opts):
    st = _referee.Stats()
    for g in range(6):
        pols = [RandomLegal(100 * g + s) for s in range(4)]
        log = mjfast.replay(5, g, rules=rules, policies=pols, **opts)
        st += check_log(log, builtin=False)
        # re-running with fresh identical players gives the identical log
        again = mjfast.rerun(log, policies=[RandomLegal(100 * g + s) for s in range(4)])
        assert again.events == log.events
    assert st.kinds["chow"] + st.kinds["pung"] + st.kinds["kong"] > 0
    assert st.hands == 24


def test_python_players_reach_every_kong_kind():
    st = _referee.Stats()
    g = 0
    while g < 60 and not all(st.kinds[k] for k in ("kong", "concealed_kong", "added_kong")):
        pols = ["greedy", RandomLegal(g), "greedy", RandomLegal(g + 1000)]
        st += check_log(mjfast.replay(6, g, rules="classical", policies=pols), builtin=False)
        g += 1
    assert all(st.kinds[k] for k in ("kong", "concealed_kong", "added_kong")), st.kinds


# ---------------------------------------------------------------------------------------------
# the referee itself rejects broken logs (so that its acceptance means something)

def _tamper(log, find, change):
    events = copy.deepcopy(log.events)
    i = next(i for i, e in enumerate(events) if find(i, e, events))
    change(events, i)
    return mjfast.GameLog(copy.deepcopy(log.header), events)


@pytest.fixture(scope="module")
def sample_log():
    for g in range(50):
        log = mjfast.replay(12, g, rules="classical", policies="greedy")
        kinds = {e["type"] for e in log.events}
        if {"chow", "pung", "win"} <= kinds and any(e["type"] == "win" and not e["self_drawn"] for e in log.events):
            return log
    raise AssertionError("no sample game with a chow, a pung and a discard win")   # pragma: no cover


def _other_tile(name):
    return tiles.tile_name((tiles.tile_index(name) + 13) % 34)


@pytest.mark.parametrize("what", [
    "draw_id", "replacement_order", "discard_not_held", "chow_wrong_seat", "pung_not_held", "score_delta",
    "score_total", "skip_win", "drop_event", "header_score", "dice", "dealer", "extra_event", "deal_id",
])
def test_referee_rejects_tampered_logs(sample_log, what):
    log = sample_log
    check_log(log)                                   # the untouched log passes
    T = {
        "draw_id": (lambda i, e, ev: e["type"] == "draw", lambda ev, i: ev[i].update(id=(ev[i]["id"] + 1) % 136)),
        "deal_id": (lambda i, e, ev: e["type"] == "deal", lambda ev, i: ev.insert(i + 1, ev.pop(i + 2))),
        "replacement_order": (lambda i, e, ev: e["type"] == "draw",
                              lambda ev, i: ev[i].update(id=log.header["wall_ids"][ev[i]["hand"]][-1],
                                                         tile=tiles.tile_name(log.header["wall_ids"][ev[i]["hand"]][-1] // 4))),
        "discard_not_held": (lambda i, e, ev: e["type"] == "discard", lambda ev, i: ev[i].update(tile=_other_tile(ev[i]["tile"]))),
        "chow_wrong_seat": (lambda i, e, ev: e["type"] == "chow", lambda ev, i: ev[i].update(seat=(ev[i]["seat"] + 1) % 4)),
        "pung_not_held": (lambda i, e, ev: e["type"] == "pung", lambda ev, i: ev[i].update(tile=_other_tile(ev[i]["tile"]))),
        "score_delta": (lambda i, e, ev: e["type"] == "score", lambda ev, i: ev[i].update(delta=ev[i]["delta"] + 1)),
        "score_total": (lambda i, e, ev: e["type"] == "score", lambda ev, i: ev[i].update(total=ev[i]["total"] + 20)),
        "skip_win": (lambda i, e, ev: e["type"] == "win" and not e["self_drawn"], lambda ev, i: ev[i].update(seat=(ev[i]["discarder"] + 2) % 4)),
        "drop_event": (lambda i, e, ev: e["type"] == "discard" and i > 100, lambda ev, i: ev.pop(i)),
        "header_score": (lambda i, e, ev: True, lambda ev, i: None),
        "dice": (lambda i, e, ev: e["type"] == "hand", lambda ev, i: ev[i].update(dice=[ev[i]["dice"][0] + 1, ev[i]["dice"][1]])),
        "dealer": (lambda i, e, ev: e["type"] == "hand" and e["hand"] == 1, lambda ev, i: ev[i].update(dealer=0, seat=0)),
        "extra_event": (lambda i, e, ev: e["type"] == "discard", lambda ev, i: ev.insert(i + 1, dict(ev[i]))),
    }
    find, change = T[what]
    bad = _tamper(log, find, change)
    if what == "header_score":
        bad.header["scores"] = [s + (20 if k == 0 else -20 if k == 1 else 0) for k, s in enumerate(bad.header["scores"])]
    with pytest.raises(RefereeError):
        check_log(bad)


def test_referee_rejects_a_wrong_claim_priority(sample_log):
    """A discard win moved to a later claimer in turn order is refused (built-in tables)."""
    log = sample_log
    # find a discard win and pretend another seat (that cannot win) won: refused as incomplete
    # or as a priority violation
    bad = _tamper(log, lambda i, e, ev: e["type"] == "win" and not e["self_drawn"],
                  lambda ev, i: ev[i].update(seat=next(s for s in range(4) if s not in (ev[i]["seat"], ev[i]["discarder"]))))
    with pytest.raises(RefereeError, match="must win|incomplete"):
        check_log(bad)


# ---------------------------------------------------------------------------------------------
# statistical and reproducibility invariants

def test_duplicate_play_is_seat_symmetric():
    res = mjfast.simulate(400, policies=["greedy", "random", "random", "random"], duplicate=True, seed=5,
                          progress=False, threads=2)
    assert res.games == 1600 and res.hands == 6400
    p = [res.win_rate(seat=s).p for s in range(4)]
    pooled = res.wins.sum() / (4 * res.hands)
    se = math.sqrt(pooled * (1 - pooled) / res.hands)
    for s in range(4):
        assert abs(p[s] - pooled) < 4 * se, (p, pooled, se)
    # each seat met every policy on the same walls: the greedy player wins far more than random
    assert res.win_rate(policy="greedy").p > 10 * res.win_rate(policy="random").p
    assert res.by_policy["greedy"]["hands"] == res.hands and res.by_policy["random"]["hands"] == 3 * res.hands
    assert int(res.points.sum()) == 0


def test_duplicate_with_identical_players_is_four_copies():
    a = mjfast.simulate(150, seed=3, progress=False)
    b = mjfast.simulate(150, seed=3, progress=False, duplicate=True)
    for f in ("wins", "self_draw_wins", "deal_ins", "claims", "points"):
        assert np.array_equal(getattr(b, f), 4 * getattr(a, f)), f
    assert b.exhaustive_draws == 4 * a.exhaustive_draws and b.turns == 4 * a.turns


@pytest.mark.parametrize("rules, games, opts", [("classical", 300, {}), ("basic", 300, {}), ("mcr", 40, {}),
                                                ("mcr", 40, {"scoring": "basic"})])
def test_points_sum_to_zero(rules, games, opts):
    res = mjfast.simulate(games, rules=rules, policies=["greedy", "defensive", "random", "greedy"], seed=2,
                          progress=False, **opts)
    assert int(res.points.sum()) == 0
    assert sum(v * c for s in range(4) for v, c in res.points_hist[s].items()) == 0
    assert all(sum(h.values()) == games for h in res.points_hist)
    if rules == "mcr" and opts.get("scoring", "fan") == "fan":
        # fan scoring pays 8 + F, no common base (the referee checks every payment)
        assert res.wins.sum() > 0
    else:
        # every point is a multiple of the base
        base = 20
        assert all(v % base == 0 for h in res.points_hist for v in h)
    assert int(res.wins.sum()) + res.exhaustive_draws == res.hands


@pytest.mark.parametrize("rules, opts, policies", [
    ("classical", {}, "greedy"),
    ("basic", {}, ["greedy", "random", "defensive", "greedy"]),
    ("mcr", {}, "defensive"),
    ("classical", {"flowers": True, "payment": "discarder", "rounds": 2}, "random"),
])
def test_rerun_reproduces_the_log(rules, opts, policies):
    for g in (0, 7):
        log = mjfast.replay(31, g, rules=rules, policies=policies, **opts)
        again = mjfast.rerun(log)
        assert again.events == log.events and again.header == log.header
        text = log.to_jsonl()
        assert mjfast.rerun(text).to_jsonl() == text
        assert mjfast.GameLog.from_jsonl(text).events == log.events


def test_same_seed_same_result_for_any_thread_count_and_chunking():
    kw = dict(policies=["greedy", "random", "defensive", "greedy"], seed=9, progress=False)
    a = mjfast.simulate(300, threads=1, **kw)
    b = mjfast.simulate(300, threads=2, **kw)
    c = mjfast.simulate(300, threads=2, chunk_size=7, **kw)
    assert a.to_dict() == b.to_dict() == c.to_dict()
    assert a.points_hist == b.points_hist == c.points_hist
    d = mjfast.simulate(300, rules="basic", threads=1, duplicate=True, **kw)
    e = mjfast.simulate(300, rules="basic", threads=2, duplicate=True, **kw)
    assert d.to_dict() == e.to_dict()


def test_results_merge_by_adding_counts():
    kw = dict(policies=["greedy", "random", "defensive", "greedy"], progress=False)
    a = mjfast.simulate(120, seed=1, **kw)
    b = mjfast.simulate(80, seed=2, **kw)
    c = a + b
    assert (c.games, c.hands) == (200, a.hands + b.hands)
    for f in ("wins", "self_draw_wins", "deal_ins", "claims", "points", "points_sq"):
        assert np.array_equal(getattr(c, f), getattr(a, f) + getattr(b, f)), f
    assert c.exhaustive_draws == a.exhaustive_draws + b.exhaustive_draws
    assert c.turns == a.turns + b.turns
    assert c.seeds == (1, 2)
    for name in ("greedy", "random", "defensive"):
        for k in ("hands", "games", "wins", "self_draw_wins", "deal_ins", "points"):
            assert c.by_policy[name][k] == a.by_policy[name][k] + b.by_policy[name][k]
        assert np.array_equal(c.by_policy[name]["claims"], a.by_policy[name]["claims"] + b.by_policy[name]["claims"])
    for s in range(4):
        for v in set(a.points_hist[s]) | set(b.points_hist[s]):
            assert c.points_hist[s].get(v, 0) == a.points_hist[s].get(v, 0) + b.points_hist[s].get(v, 0)
        assert c.win_rate(seat=s).p == pytest.approx((a.wins[s] + b.wins[s]) / (a.hands + b.hands))
    with pytest.raises(ValueError):
        a + mjfast.simulate(10, rules="basic", seed=1, **kw)


def test_simulate_counts_equal_the_replayed_event_logs():
    """simulate()'s counters are exactly what the events of replay(seed, g) show, game by game."""
    pols = ["greedy", "random", "defensive", "greedy"]
    games = 40
    res = mjfast.simulate(games, rules="classical", policies=pols, seed=17, progress=False)
    wins = np.zeros(4, int)
    self_wins = np.zeros(4, int)
    deal_ins = np.zeros(4, int)
    claims = np.zeros((4, 5), int)
    points = np.zeros(4, int)
    exhaustive = hands = 0
    for g in range(games):
        log = mjfast.replay(17, g, rules="classical", policies=pols)
        check_log(log)
        points += log.header["scores"]
        for e in log.events:
            t = e["type"]
            if t == "win":
                wins[e["seat"]] += 1
                if e["self_drawn"]:
                    self_wins[e["seat"]] += 1
                else:
                    deal_ins[e["discarder"]] += 1
            elif t in CLAIM_KINDS:
                claims[e["seat"], CLAIM_KINDS.index(t)] += 1
            elif t == "exhaustive_draw":
                exhaustive += 1
            elif t == "hand":
                hands += 1
    assert res.hands == hands == 4 * games
    assert np.array_equal(res.wins, wins)
    assert np.array_equal(res.self_draw_wins, self_wins)
    assert np.array_equal(res.deal_ins, deal_ins)
    assert np.array_equal(res.claims, claims)
    assert np.array_equal(res.points, points)
    assert res.exhaustive_draws == exhaustive
    assert wins.sum() > 0 and claims.sum() > 0


def test_game_is_a_function_of_seed_and_index():
    a = mjfast.replay(4, 5, rules="basic")
    b = mjfast.replay(4, 5, rules="basic")
    c = mjfast.replay(4, 6, rules="basic")
    assert a.events == b.events and a.header == b.header
    assert a.header["wall_ids"] != c.header["wall_ids"]
    # the walls of replay() are what play_walls() plays (greedy players use no randomness)
    w = mjfast.play_walls(np.array(a.header["wall_ids"]), np.array(a.header["dice"]), rules="basic",
                              policies="greedy")
    assert w.events == a.events and w.header["scores"] == a.header["scores"]


@pytest.mark.parametrize("rules", ["classical", "basic", "mcr"])
def test_win_checks_trusting_the_greedy_shanten_change_nothing(rules):
    """Win checks skip hands the greedy policy left more than one tile away (wait_sh); with the
    shortcut off every check runs in full, and the results are the same."""
    from mjfast._kernels import chinese_game as _game
    kw = dict(rules=rules, policies=["greedy", "defensive", "random", "greedy"], seed=8, threads=1,
              progress=False)
    fast = mjfast.simulate(150, **kw).to_dict()
    _game._set_wait_shortcut(False)
    try:
        full = mjfast.simulate(150, **kw).to_dict()
    finally:
        _game._set_wait_shortcut(True)
    assert fast == full


# ---------------------------------------------------------------------------------------------
# rerun plays the header, not the seed's game

def _edited(text: str, edit) -> str:
    lines = text.splitlines()
    h = json.loads(lines[0])
    edit(h)
    return "\n".join([json.dumps(h)] + lines[1:]) + "\n"


@pytest.mark.parametrize("rules", ["classical", "mcr", "american"])
def test_rerun_plays_the_headers_walls(rules):
    """A header whose walls were changed was silently replaced by the seed's game."""
    log = mjfast.replay(4, 2, rules=rules)
    text = log.to_jsonl()
    n = len(log.header["wall_ids"][0])
    swap = next(i for i in range(60, n) if log.header["wall_ids"][0][i] // 4 != log.header["wall_ids"][0][59] // 4)

    def move(h):                                  # two live tiles of different kinds trade places
        w = h["wall_ids"][0]
        w[59], w[swap] = w[swap], w[59]
        h.pop("walls", None)                      # tile names are optional; ids are the truth
    edited = _edited(text, move)
    with pytest.raises(ValueError, match="does not match its replay: event"):
        mjfast.rerun(edited)                      # the logged events are not those of the edited walls
    again = mjfast.rerun(edited, verify=False)    # a what-if: play the header, ignore the events
    assert again.header["wall_ids"] == json.loads(edited.splitlines()[0])["wall_ids"]
    assert again.events != log.events             # the edited walls were played
    assert mjfast.rerun(again.to_jsonl()).to_jsonl() == again.to_jsonl()
    if rules != "american":
        play = mjfast.play_walls(again.header["wall_ids"], again.header["dice"], rules=rules)
        assert [e for e in play.events if e["hand"] == 0] == [e for e in again.events if e["hand"] == 0]

    def names_disagree(h):
        h["walls"][0][0], h["walls"][0][-1] = h["walls"][0][-1], h["walls"][0][0]
    if log.header["walls"][0][0] != log.header["walls"][0][-1]:
        with pytest.raises(ValueError, match="'walls'"):
            mjfast.rerun(_edited(text, names_disagree))
    with pytest.raises(ValueError, match="'version'"):
        mjfast.rerun(_edited(text, lambda h: h.update(version=3)))
    with pytest.raises(ValueError, match="wall_ids"):
        mjfast.rerun(_edited(text, lambda h: h["wall_ids"][0].__setitem__(0, h["wall_ids"][0][1])))
    if rules != "american":
        with pytest.raises(ValueError, match="'dice'"):
            mjfast.rerun(_edited(text, lambda h: h.update(dice=[[13, 2]] * len(h["dice"]))))
        other_dice = _edited(text, lambda h: h.update(dice=[[12, 12]] * len(h["dice"])))
        assert mjfast.rerun(other_dice, verify=False).header["dice"] == [[12, 12]] * len(log.header["dice"])


def test_rerun_of_play_walls_logs():
    wall = np.random.default_rng(3).permutation(136)
    log = mjfast.play_walls([wall] * 4, [[3, 9]] * 4, rules="classical", policies=["random"] * 4)
    assert mjfast.rerun(log).to_jsonl() == log.to_jsonl()
    am = mjfast.play_walls([np.random.default_rng(4).permutation(152)], rules="american", policies="random")
    assert mjfast.rerun(am).to_jsonl() == am.to_jsonl()


# ---------------------------------------------------------------------------------------------
# scores never overflow; every allowed scoring option keeps a zero-sum game

def test_base_points_bounded_with_a_clear_error():
    for bad in (0, -5, 10**6 + 1, 2**28, 2**31, 2**70, 1.5, True, "20"):
        for rules in ("classical", "basic", "mcr", "american"):
            with pytest.raises(ValueError, match="base_points must be an int from 1 to 10\\*\\*6"):
                mjfast.simulate(2, rules=rules, base_points=bad, seed=1, progress=False)
    res = mjfast.simulate(200, seed=1, base_points=10**6, progress=False)   # was -158913789952 at 2**28
    assert int(res.points.sum()) == 0
    assert all(sum(v * k for k, v in h.items()) == res.points[s] for s, h in enumerate(res.points_hist))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([1, 7, 20, 999_983, 10**6]) | st.integers(1, 10**6),
       payment=st.sampled_from(["each", "discarder"]), rounds=st.sampled_from([1, 16]),
       rules=st.sampled_from(["classical", "basic", "mcr"]), min_fan=st.sampled_from([0, 8]),
       seed=st.integers(0, 2**32))
def test_scores_sum_to_zero_for_every_allowed_option(base, payment, rounds, rules, min_fan, seed):
    # base_points and payment are flat-scoring options: under mcr with scoring="basic"
    extra = {"scoring": "basic", "min_fan": min_fan} if rules == "mcr" else {}
    res = mjfast.simulate(6, rules=rules, base_points=base, payment=payment, rounds=rounds, seed=seed,
                          policies=["greedy", "random", "defensive", "greedy"], progress=False, threads=1, **extra)
    assert int(res.points.sum()) == 0
    assert res.mean_points(0).se >= 0 or res.games < 2


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(min_fan=st.integers(0, 88), rounds=st.sampled_from([1, 16]), flowers=st.booleans(), seed=st.integers(0, 2**32))
def test_mcr_fan_scores_sum_to_zero_for_every_allowed_option(min_fan, rounds, flowers, seed):
    res = mjfast.simulate(6, rules="mcr", min_fan=min_fan, rounds=rounds, flowers=flowers, seed=seed,
                          policies=["greedy", "random", "defensive", "greedy"], progress=False, threads=1)
    assert int(res.points.sum()) == 0
    assert int(res.wins.sum()) + res.exhaustive_draws == res.hands


def test_flat_scoring_options_need_mcr_flat_scoring():
    with pytest.raises(ValueError, match="base_points applies to scoring='basic'"):
        mjfast.simulate(1, rules="mcr", base_points=7, progress=False)
    with pytest.raises(ValueError, match="payment applies to scoring='basic'"):
        mjfast.simulate(1, rules="mcr", payment="discarder", progress=False)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.integers(1, 10**6), start=st.integers(0, 10**6), rounds=st.sampled_from([1, 16]),
       seed=st.integers(0, 2**32))
def test_american_scores_sum_for_every_allowed_option(base, start, rounds, seed):
    res = mjfast.simulate(3, rules="american", base_points=base, start_points=start, rounds=rounds, seed=seed,
                          progress=False, threads=1)
    assert int(res.points.sum()) == 3 * 4 * start


def test_points_second_moment_is_exact_beyond_int64():
    """The sum of squared game points passed int64 for large base_points over long runs: it is
    now an exact integer, so the standard error of mean points stays right."""
    from mjfast.game import chinese
    from mjfast.game.accumulate import Accumulator
    acc = Accumulator(chinese.COUNTERS)
    rows = np.zeros((4096, mjfast._kernels.chinese_game.OUT_WIDTH), np.int32)
    score = chinese.OUT["score"]
    rows[:, score], rows[:, score + 1] = 2**31 - 1, -(2**31 - 1)
    for _ in range(3):
        acc.add(rows, np.array([["greedy"] * 4] * len(rows)))
    assert acc.points_sq[0] == 3 * 4096 * (2**31 - 1) ** 2 > 2**63
    assert acc.by_policy["greedy"]["points_sq"] == 2 * 3 * 4096 * (2**31 - 1) ** 2


# ---------------------------------------------------------------------------------------------
# two readings of the seeds as options (the dead wall, the added kong)

def test_dead_wall_readings_differ_only_after_replacements():
    """Seed 000 (default): the live wall keeps its end until the dead wall is used up. With
    refill_dead_wall=True each replacement shortens the live wall by one. A hand without a
    replacement plays identically under both; over many games the exhaustive draws differ."""
    same = differ = 0
    for g in range(40):
        flowers = g % 2 == 0
        a = mjfast.replay(8, g, rules="classical", flowers=flowers)
        b = mjfast.replay(8, g, rules="classical", flowers=flowers, refill_dead_wall=True)
        assert a.header["options"]["refill_dead_wall"] is False and b.header["options"]["refill_dead_wall"] is True
        for h in range(4):
            ea = [e for e in a.events if e["hand"] == h]
            eb = [e for e in b.events if e["hand"] == h]
            if not any(e["type"] in ("replacement", "bonus") for e in ea):
                assert ea == eb
                same += 1
            elif ea != eb:
                differ += 1
    assert same > 0 and differ > 0
    x = mjfast.simulate(400, rules="classical", flowers=True, seed=2, progress=False)
    y = mjfast.simulate(400, rules="classical", flowers=True, seed=2, refill_dead_wall=True, progress=False)
    assert x.exhaustive_draws < y.exhaustive_draws     # a fixed live wall lasts longer
    z = mjfast.simulate(200, rules="basic", seed=2, progress=False)   # no dead wall: no difference
    w = mjfast.simulate(200, rules="basic", seed=2, refill_dead_wall=True, progress=False)
    dz, dw = z.to_dict(), w.to_dict()
    dz.pop("options"), dw.pop("options")
    assert dz == dw


def test_added_kong_option():
    res = {}
    for opt in ("any", "drawn"):
        st = _referee.Stats()
        held = 0
        for g in range(60):
            log = mjfast.replay(12, g, rules="classical", added_kong=opt)
            st += check_log(log)
            drawn = None
            for e in log.events:
                if e["type"] in ("draw", "replacement"):
                    drawn = e["tile"]
                elif e["type"] == "added_kong":
                    held += e["tile"] != drawn
                elif e["type"] not in ("bonus",):
                    drawn = None if e["type"] != "concealed_kong" else drawn
        res[opt] = (st.kinds["added_kong"], held)
    assert res["any"][0] > 0 and res["any"][1] > 0        # held copies are added under "any"
    assert res["drawn"][0] > 0 and res["drawn"][1] == 0   # never under "drawn"
    with pytest.raises(ValueError, match="added_kong must be 'any' or 'drawn'"):
        mjfast.simulate(1, added_kong="held", progress=False)
    with pytest.raises(TypeError, match="refill_dead_wall must be True or False"):
        mjfast.simulate(1, refill_dead_wall="yes", progress=False)


def test_mcr_logs_from_before_fans_rerun_without_fans():
    """An "mcr" log of mjfast 0.2 before fans (no scoring/min_fan options in its header)
    re-runs as it was played: flat scoring, any complete hand."""
    log = mjfast.replay(3, 1, rules="mcr", scoring="basic", min_fan=0)
    assert not any(e["type"] == "fan" for e in log.events)
    h = dict(log.header)
    h["options"] = {k: v for k, v in h["options"].items() if k not in ("scoring", "min_fan", "false_win")}
    again = mjfast.rerun(mjfast.GameLog(h, log.events))
    assert again.events == log.events
    fans = mjfast.replay(3, 1, rules="mcr")                     # today's default: with fans
    assert mjfast.rerun(fans).events == fans.events and any(e["type"] == "fan" for e in fans.events)


def test_version_1_logs_rerun_with_the_refilled_dead_wall():
    log = mjfast.replay(3, 4, rules="classical", flowers=True, refill_dead_wall=True)
    h = dict(log.header, version=1)
    h["options"] = {k: v for k, v in h["options"].items() if k not in ("refill_dead_wall", "added_kong")}
    again = mjfast.rerun(mjfast.GameLog(h, log.events))
    assert again.events == log.events
