"""Property-based robustness of the whole public API (``mjfast.__all__``).

Arbitrary notation strings, objects of the wrong type, counts and sizes that cannot occur,
n of 0, negative or enormous, unknown rule names and options: every call returns a correct
answer or raises ValueError/TypeError whose message names the problem. Cases that reach the
compiled kernels with arbitrary arrays (dtype, shape, order, contiguity, values) live in
tests/_fuzz_risky.py and run in a subprocess, so that a crash fails a test instead of killing
the suite.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import _proc
import mjfast
from mjfast import wall
from oracles import reference as _reference

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
NOTATION = st.text(alphabet="0123456789mpszfjMPSZ ,[]()-_+'\t\n", max_size=40)
TEXT = st.one_of(NOTATION, st.text(max_size=30))
ODD = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=8),
                st.binary(max_size=8), st.lists(st.integers(-5, 5), max_size=5), st.just(object()),
                st.just(np.float64(1.0)), st.just(np.array([1, 2])), st.dictionaries(st.text(max_size=3), st.integers()))
RULES = st.one_of(st.sampled_from(["classical", "basic", "mcr", "american", None, "", "Classical", "riichi"]), ODD)
FORMS = st.one_of(st.sampled_from(["all", "standard", "seven_pairs", "thirteen_orphans", "honors_knitted",
                                   "knitted_straight", "beginner", "kokushi"]), ODD)


def check(fn, *args, **kw):
    """("ok", value) or ("error", exc); anything but ValueError/TypeError with a message fails."""
    try:
        res = fn(*args, **kw)
        event(f"{fn.__name__}: ok")
        return "ok", res
    except (ValueError, TypeError) as exc:
        event(f"{fn.__name__}: error")
        msg = str(exc).strip()
        assert msg and len(msg) > 10, f"{fn.__name__}: unhelpful message {msg!r}"
        # numpy's own errors leaking out do not name the argument at fault
        assert "truth value of an array" not in msg and "invalid literal" not in msg, f"{fn.__name__}: {msg}"
        return "error", exc


# ------------------------------------------------------------------------------------------
# the kernel-facing cases, in a subprocess

@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_kernel_facing_fuzz_in_subprocess():
    env = dict(os.environ)
    root = Path(__file__).resolve().parents[1]
    here = str(Path(mjfast.__file__).resolve().parents[1])  # the subprocess imports this same mjfast
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    out = _proc.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore::DeprecationWarning",
                     str(root / "tests" / "_fuzz_risky.py")], capture_output=True, text=True, timeout=900,
                    cwd=root, env=env)
    assert out.returncode == 0, (f"kernel fuzz subprocess exited with {out.returncode} "
                                 f"({'crashed by a signal' if out.returncode < 0 else 'failures'}):\n"
                                 f"{out.stdout[-6000:]}\n{out.stderr[-3000:]}")
    assert " passed" in out.stdout


# ------------------------------------------------------------------------------------------
# text

@given(TEXT)
@FUZZ
def test_notation_any_text(text):
    kind, counts = check(mjfast.parse_hand, text)
    if kind == "ok":
        assert counts.shape == (34,) and counts.max(initial=0) <= 4 and counts.sum() <= 14
        assert np.array_equal(mjfast.parse_hand(mjfast.format_hand(counts)), counts)
    kind, parsed = check(mjfast.parse_tiles, text)
    if kind == "ok":
        assert np.array_equal(mjfast.parse_tiles(mjfast.format_tiles(parsed)).concealed, parsed.concealed)
    kind, s = check(mjfast.shanten, text)
    if kind == "ok":
        assert s == _reference.shanten(mjfast.parse_tiles(text).concealed)
    kind, w = check(mjfast.is_winning, text)
    if kind == "ok":
        assert w == _reference.is_winning(mjfast.parse_tiles(text).concealed)
    for fn in (mjfast.waits, mjfast.effective_tiles, mjfast.decompose):
        check(fn, text)
    check(mjfast.effective_tiles, "123m456p789s1122z", text)


@given(ODD, FORMS, RULES)
@FUZZ
def test_hand_functions_odd_arguments(obj, form, rules):
    for fn in (mjfast.shanten, mjfast.is_winning, mjfast.waits, mjfast.effective_tiles, mjfast.decompose,
               mjfast.parse_hand, mjfast.parse_tiles, mjfast.format_hand, mjfast.format_tiles, mjfast.pack,
               mjfast.unpack):
        check(fn, obj)
    for fn in (mjfast.shanten, mjfast.is_winning, mjfast.waits, mjfast.effective_tiles):
        kind, res = check(fn, "123m456p789s1122z", form=form, rules=rules)
        if kind == "ok" and fn is mjfast.shanten:
            counts = mjfast.parse_hand("123m456p789s1122z")
            if isinstance(rules, str) and rules == "american":
                assert res == _reference.american_shanten(np.concatenate([counts, np.zeros(9, counts.dtype)]))
            else:
                assert res == _reference.shanten(counts, form=form, rules=rules)
    check(mjfast.shanten, "123m456p789s1122z", threads=obj)
    check(mjfast.parse_hand, "123m", max_tiles=obj)
    check(mjfast.parse_tiles, "123m j", max_jokers=obj)


# ------------------------------------------------------------------------------------------
# random entry points

SMALL_N = st.one_of(st.integers(-3, 40), st.sampled_from([2**62, 2**63, 2**64, 10**30, -2**63]), ODD)
SEED = st.one_of(st.integers(-5, 2**130), st.just(np.random.SeedSequence(3)),
                 st.builds(lambda s: np.random.default_rng(s), st.integers(0, 9)), ODD)


@given(SMALL_N, RULES, SEED, st.one_of(st.none(), st.booleans(), ODD), st.one_of(st.none(), st.integers(-2, 20), ODD),
       st.one_of(st.integers(0, 5), ODD), st.one_of(st.booleans(), ODD))
@FUZZ
def test_deal_any_arguments(n, rules, seed, flowers, jokers, start, ids):
    kind, d = check(mjfast.deal, n, rules=rules, seed=seed, flowers=flowers, jokers=jokers, start=start, ids=ids,
                    threads=1)
    if kind == "ok":
        assert len(d) == n
        total = d.hands.sum(axis=2) + (d.jokers if rules == "american" else 0) + \
            (d.bonus.sum(axis=2) if rules == "american" else 0)
        if n:
            assert total[:, 0].tolist() == [14] * n and (total[:, 1:] == 13).all()


@given(st.one_of(st.integers(-2, 40), ODD), st.one_of(RULES, ODD), SEED,
       st.one_of(st.sampled_from(["humanlike", "greedy", "random", "nobody"]), ODD))
@FUZZ
def test_calibration_any_arguments(hands, rules, seed, policies):
    kind, c = check(mjfast.calibration, rules=rules, policies=policies, hands=hands, seed=seed, threads=1)
    if kind == "ok":
        assert c.to_dict()["figures"]["exhaustive draw rate"]["simulated"]["n"] >= hands


@given(SMALL_N, RULES, SEED, st.one_of(st.none(), st.booleans(), ODD), st.one_of(st.none(), st.integers(-2, 20)),
       st.one_of(st.none(), st.lists(FORMS, max_size=3), ODD), st.one_of(st.integers(-2, 50), ODD),
       st.one_of(st.sampled_from(["local", "dask", "threads"]), ODD))
@FUZZ
def test_deal_stats_any_arguments(n, rules, seed, flowers, jokers, forms, chunk, backend):
    if isinstance(backend, str) and backend == "dask":
        backend = "local"  # the Dask backend has its own tests (tests/_runtime/test_dask.py)
    kind, st_ = check(mjfast.deal_stats, n, rules=rules, seed=seed, flowers=flowers, jokers=jokers, forms=forms,
                      chunk_size=chunk, progress=False, threads=1, backend=backend)
    if kind == "ok":
        assert st_.n == n
        for seat in ("dealer", "non_dealer"):
            for counts in st_.shanten[seat].values():
                assert counts.sum() == n and (counts >= 0).all()


def test_deal_stats_enormous_n():
    for n in (2**62, 2**64, 10**30):
        with pytest.raises(ValueError, match="too large"):
            mjfast.deal_stats(n)
    with pytest.raises(ValueError, match="GiB"):
        mjfast.deal(10**12)
    with pytest.raises(ValueError, match="between 0 and 2\\*\\*40"):
        mjfast.simulate(2**40)


OPTION_NAMES = st.sampled_from(["flowers", "special_forms", "dead_wall", "ready_declaration", "base_points",
                                "payment", "rounds", "chow", "kong", "jokers", "colour", "seed2"])
OPTION_VALUES = st.one_of(st.booleans(), st.integers(-3, 50), st.sampled_from(["dice", "each", "discarder", "x"]),
                          st.lists(FORMS, max_size=2).map(tuple), ODD)
POLICIES = st.one_of(st.sampled_from(["greedy", "random", "defensive", "human"]),
                     st.lists(st.sampled_from(["greedy", "random", "defensive", "nope"]), min_size=0, max_size=5), ODD)


@given(st.one_of(st.integers(-2, 6), ODD), RULES, POLICIES, st.dictionaries(OPTION_NAMES, OPTION_VALUES, max_size=3),
       st.one_of(st.booleans(), ODD), st.one_of(st.integers(-1, 5), ODD))
@FUZZ
def test_simulate_any_arguments(games, rules, policies, options, duplicate, chunk):
    kind, rules_obj = check(mjfast.rules.get, rules, **options)
    kind, res = check(mjfast.simulate, games, rules=rules, policies=policies, seed=1, threads=1,
                      duplicate=duplicate, progress=False, chunk_size=chunk, **options)
    if kind == "ok":
        assert res.games == games * (4 if duplicate else 1)
        assert int(res.points.sum()) == 0 and int(res.wins.sum()) + res.exhaustive_draws == res.hands
    if isinstance(games, int) and 0 <= games <= 3:
        check(mjfast.compare, policies if isinstance(policies, str) else "greedy", "random", games, rules=rules,
              seed=1, threads=1, progress=False, **options)
    check(mjfast.replay, 1, games, rules=rules, policies=policies, **options)


@given(st.one_of(TEXT, st.sampled_from(['0', '[1]', '{"type": "header"}', '{"type": "header", "seed": 1}',
                                         '{"type": "header", "seed": 1, "game_index": 0, "rules": "x", "options": 3, '
                                         '"policies": []}']), ODD))
@FUZZ
def test_rerun_any_text(text):
    kind, _ = check(mjfast.rerun, text)
    assert kind == "error"


@given(RULES, st.one_of(st.integers(-3, 20), st.just(10**12), ODD), FORMS, st.one_of(st.sampled_from(["mpsz", "m", "z", "mm", "", "x"]), ODD))
@FUZZ
def test_exact_odds_any_arguments(rules, tiles, form, suits):
    def eq(a, b):
        return type(a) is type(b) and a == b

    assume(not (eq(rules, "mcr") and (eq(tiles, 13) or eq(tiles, 14))))  # valid, seconds each: test_exact.py
    assume(not ((eq(tiles, 13) or eq(tiles, 14)) and eq(suits, "mpsz") and eq(form, "all")))
    kind, res = check(mjfast.exact_deal_odds, rules, tiles, form, suits=suits)
    if kind == "ok":
        assert sum(res["shanten"].values()) == 1
    if not (isinstance(tiles, int) and tiles >= 13 and eq(suits, "mpsz")):
        kind, res = check(mjfast.exact_deal_odds_table, rules, tiles, suits=suits)
        if kind == "ok":
            assert all(sum(r["shanten"].values()) == 1 for r in res.values())


@given(ODD, st.one_of(st.integers(-3, 200), ODD))
@FUZZ
def test_wall_scalars(obj, n):
    for fn in (wall.stacks_per_wall, wall.next_wall):
        check(fn, obj)
        check(fn, n)
    check(wall.deal_positions, n, obj)
    check(wall.deal_positions, obj, (3, 4))
    check(wall.tile_kind, n, n_tiles=obj)


# ------------------------------------------------------------------------------------------
# hand analysis and win-by-turn odds
#
# Each argument is valid 5 times in 6 (``mostly``), so that calls with every argument valid,
# which are checked against references, are common too.


def mostly(valid, bad):
    return st.integers(0, 5).flatmap(lambda i: bad if i == 0 else valid)


def long_but_valid(n, limit=2**40, lo=50):
    """A count ODD may draw that is valid and would make a legitimately long run."""
    return isinstance(n, (int, np.integer)) and not isinstance(n, bool) and lo < n < limit


COUNT = mostly(st.integers(1, 2000), st.one_of(st.integers(-2, 0), st.sampled_from([2**62, 2**63, 2**64, 10**30,
                                                                                     -2**63]), ODD))
DRAWS = mostly(st.integers(1, 6), st.one_of(st.sampled_from([-1, 0, 200, 2**62]), ODD))
WT_RULES = mostly(st.sampled_from(["classical", "basic", "mcr", None]), st.one_of(st.sampled_from(["american", "x"]), ODD))
# near-tenpai hands (exact stays fast), 3k+2 hands, sets, and text that is mostly not a hand
WT_HANDS = mostly(st.sampled_from(["123m456p789s1122z", "123m456p789s11223z", "13m456p78s11z34p56z",
                                      "123m456p789s11222z", "1112345678999m", "123m456p1z [555z]", "11m [123p] (4444s) 2z",
                                      "19m19p19s1234567z", "1m", "11223344556677z", "1345m [222z]"]),
                 st.one_of(st.sampled_from(["12m", "123m f1", "123m j", "1m1m1m1m1m"]), NOTATION, ODD))
VISIBLE = mostly(st.one_of(st.none(), st.sampled_from(["", "1z", "1z1z1z", "2z2z2z", "3z4z", "9s"]),
                           st.just(np.ones(34, np.int64))),
                 st.one_of(st.sampled_from(["5z5z5z5z", "f1 j"]), NOTATION, ODD, st.just(np.zeros(34, float)),
                           st.just(-np.ones(34, np.int64))))


@given(WT_HANDS, VISIBLE, WT_RULES)
@FUZZ
def test_analyze_any_arguments(hand, visible, rules):
    kind, a = check(mjfast.analyze, hand, visible=visible, rules=rules)
    if kind != "ok":
        return
    parsed = mjfast.parse_tiles(hand)
    conc = parsed.concealed
    assert a.concealed == conc.sum() and a.tiles == conc.sum() + 3 * len(parsed.melds)
    forms = tuple(a.shanten_by_form)
    assert a.shanten == min(a.shanten_by_form.values())
    for f, s in a.shanten_by_form.items():
        assert s == _reference.shanten(conc, form=f, rules=rules)
    if conc.sum() % 3 == 1:
        form = "all" if len(forms) > 1 else "standard"   # hands under 13 tiles: the standard form only
        assert a.waits == (mjfast.waits(conc, form=form, rules=rules) if a.shanten == 0 else [])
        assert a.effective_count == sum(a.effective.values())
        assert all(v > 0 for v in a.effective.values())
    else:
        assert a.complete == (a.shanten == -1)
        assert sorted(o.discard for o in a.discards) == sorted(mjfast.tiles.tile_name(k) for k in np.flatnonzero(conc))
        order = [(o.shanten, -o.count, int(mjfast.parse_hand(o.discard).argmax())) for o in a.discards]
        assert order == sorted(order)   # best first: lowest shanten, most unseen effective tiles, tile order
        for o in a.discards[:3]:
            rest = conc.copy()
            rest[mjfast.parse_hand(o.discard).argmax()] -= 1
            assert o.shanten == _reference.shanten(rest, form="all" if len(forms) > 1 else "standard", rules=rules)
            assert o.count == sum(o.tiles.values())
    str(a), a.to_json()


def _nondecreasing_in_unit(seq):
    ps = [float(v) for v in seq]
    return all(0 <= p <= 1 + 1e-12 for p in ps) and all(x <= y + 1e-12 for x, y in zip(ps, ps[1:]))


def _curves_ok(res):
    """P(won by t) and P(tenpai by t): in [0, 1], non-decreasing in t, tenpai >= win."""
    win, ten = res.win_p, res.tenpai_p
    assert len(win) == len(ten) == res.draws
    assert _nondecreasing_in_unit(win) and _nondecreasing_in_unit(ten)
    assert (ten >= win - 1e-12).all()


@given(WT_HANDS, DRAWS, VISIBLE, WT_RULES,
       mostly(st.sampled_from(["greedy", "first", "greedy_swap"]), st.one_of(st.just("x"), ODD)),
       mostly(st.sampled_from(["auto", "exact", "monte_carlo"]), st.one_of(st.just("mc"), ODD)), COUNT,
       mostly(st.sampled_from(["float", "fraction"]), st.one_of(st.just("x"), ODD)),
       mostly(st.integers(1, 10**6), st.one_of(st.integers(-1, 0), st.just(2**62), ODD)), SEED)
@FUZZ
def test_win_by_turn_any_arguments(hand, draws, visible, rules, policy, method, samples, exact, max_states, seed):
    assume(not long_but_valid(samples, 2**62, 2000))
    try:
        kind, res = check(mjfast.win_by_turn, hand, draws=draws, visible=visible, rules=rules, policy=policy,
                          method=method, samples=samples, exact=exact, max_states=max_states, seed=seed,
                          threads=1, progress=False)
    except MemoryError as exc:          # the documented bound of the exact method's memo
        assert "max_states" in str(exc) and max_states < 10**6
        return
    if kind == "ok":
        _curves_ok(res)
        if res.method == "monte_carlo":
            assert res.samples == samples and all(e.n == samples for e in res.win)
        res.table(), res.to_json()
        if res.method == "exact" and res.shanten == 0 and policy in ("greedy", "first"):
            # tenpai from the start: P(win within t) = 1 - C(N - w, t) / C(N, t), w live winning tiles
            a = mjfast.analyze(res.start, visible=visible, rules=rules)
            w, n = a.effective_count, res.unseen
            surv = 1.0
            for t in range(res.draws):
                surv *= (n - w - t) / (n - t)
                assert abs(float(res.win[t]) - (1 - surv)) < 1e-9


@given(COUNT, DRAWS, WT_RULES, mostly(st.sampled_from(["greedy", "first", "greedy_swap"]), st.one_of(st.just("x"), ODD)),
       mostly(st.one_of(st.none(), st.integers(0, 9)), SEED),
       mostly(st.sampled_from([1, 4, 7, 10, 13]), st.one_of(st.sampled_from([14, 0, 2]), ODD)))
@FUZZ
def test_win_by_turn_random_any_arguments(samples, draws, rules, policy, seed, hand_tiles):
    assume(not long_but_valid(samples, 2**62, 2000))
    kind, res = check(mjfast.win_by_turn_random, samples, draws=draws, rules=rules, policy=policy, seed=seed,
                      threads=1, progress=False, hand_tiles=hand_tiles)
    if kind == "ok":
        assert sum(res.shanten_counts.values()) == res.samples == samples
        for s in res.win:
            assert _nondecreasing_in_unit([e.p for e in res.win[s]])
            assert all(t.count >= w.count for w, t in zip(res.win[s], res.tenpai[s]))
            assert all(e.n == res.shanten_counts[s] for e in res.win[s])


@given(mostly(st.sampled_from(["deal", "win_by_turn", "win_rate"]), st.one_of(st.just("x"), ODD)),
       mostly(st.sampled_from(["classical", "basic", ("classical", "basic")]),
              st.one_of(st.sampled_from(["american", None, "x", ()]), ODD)),
       mostly(st.sampled_from([None, "exact", "monte_carlo", "auto"]), ODD),
       mostly(st.sampled_from([None, "123m456p789s1122z", ("123m456p789s1122z", "13m456p78s11z34p56z")]),
              st.one_of(st.just(("123m456p789s1122z", "x")), ODD)),
       DRAWS, mostly(COUNT, st.none()), mostly(st.integers(0, 5), st.one_of(st.just(-1), st.just(2**62), ODD)),
       mostly(st.sampled_from(["greedy", "random", ["greedy", "random", "defensive", "greedy"]]), POLICIES),
       mostly(st.sampled_from(["seat", "policy"]), ODD), mostly(st.just(False), ODD))
@FUZZ
def test_odds_table_any_arguments(kind, rules, method, hands, draws, samples, games, policies, by, as_frame):
    def eq(a, b):
        return type(a) is type(b) and a == b

    # long but valid: exact American is refused; default-size Monte Carlo runs are skipped
    assume(not (samples is None and (eq(kind, "win_by_turn") and (hands is None or eq(method, "monte_carlo"))
                                     or eq(kind, "deal") and eq(method, "monte_carlo"))))
    assume(not eq(as_frame, True))  # pandas is optional: tests/analysis/test_odds_table.py
    assume(not long_but_valid(games) and not long_but_valid(samples, 2**62, 2000))
    kind_, t = check(mjfast.odds_table, kind, rules=rules, method=method, hands=hands, draws=draws, samples=samples,
                     games=games, policies=policies, by=by, seed=1, threads=1, progress=False, as_frame=as_frame)
    if kind_ == "ok":
        assert all(set(r) == set(t.columns) for r in t.rows)
        if t.kind in ("deal", "win_by_turn"):
            ps = t.column("p" if t.kind == "deal" else "win")
            assert all(0 <= p <= 1 for p in ps)
        t.to_csv(), t.to_json(), t.to_markdown(), str(t)


AM_OPTION_NAMES = st.sampled_from(["jokers", "second_charleston", "courtesy", "blind_pass", "base_points",
                                   "start_points", "rounds", "hands_per_game", "flowers", "x"])
AM_OPTION_VALUES = st.one_of(st.booleans(), st.integers(-3, 20), st.sampled_from(["policy", "x", 2**62]), ODD)


@given(mostly(st.integers(0, 3), st.one_of(st.integers(-2, -1), st.sampled_from([2**62, 2**64]), ODD)),
       mostly(st.one_of(st.sampled_from(["second_charleston", "courtesy", "blind_pass", (), ("courtesy", "courtesy")]),
                        st.lists(st.sampled_from(["second_charleston", "courtesy", "blind_pass"]), max_size=3)),
              st.one_of(st.just(["x"]), ODD)),
       mostly(st.sampled_from(["greedy", "random"]), POLICIES),
       mostly(st.dictionaries(st.sampled_from(["jokers", "courtesy", "blind_pass", "second_charleston"]),
                              st.one_of(st.booleans(), st.integers(0, 10)), max_size=2),
              st.dictionaries(AM_OPTION_NAMES, AM_OPTION_VALUES, max_size=2)))
@FUZZ
def test_charleston_effect_any_arguments(games, options, policies, rule_options):
    assume(not long_but_valid(games))
    assume(not (isinstance(rule_options.get("rounds"), int) and rule_options["rounds"] > 2))
    assume(not (isinstance(rule_options.get("hands_per_game"), int) and rule_options["hands_per_game"] > 8))
    kind, eff = check(mjfast.charleston_effect, games, options=options, policies=policies, seed=1, threads=1,
                      progress=False, **rule_options)
    if kind == "ok":
        for e in eff.values():
            assert e.games == games and e.on.games == e.off.games == games
            assert e.distance_after.n == games


@given(mostly(st.integers(0, 4), st.one_of(st.integers(-2, -1), ODD)),
       mostly(st.sampled_from(["greedy", "random", ["greedy", "random", "greedy", "random"]]), POLICIES),
       mostly(st.dictionaries(st.sampled_from(["jokers", "courtesy", "blind_pass", "second_charleston", "rounds"]),
                              st.one_of(st.booleans(), st.integers(0, 10), st.just("policy")), max_size=2),
              st.dictionaries(AM_OPTION_NAMES, AM_OPTION_VALUES, max_size=3)),
       mostly(st.booleans(), ODD))
@FUZZ
def test_american_games_any_options(games, policies, options, duplicate):
    assume(not long_but_valid(games))
    assume(not (isinstance(options.get("rounds"), int) and options["rounds"] > 2))
    assume(not (isinstance(options.get("hands_per_game"), int) and options["hands_per_game"] > 8))
    kind, r = check(mjfast.rules.get, "american", **options)
    kind, res = check(mjfast.simulate, games, rules="american", policies=policies, seed=1, threads=1,
                      duplicate=duplicate, progress=False, **options)
    if kind == "ok":
        assert res.games == games * (4 if duplicate else 1)
        assert int(res.points.sum()) == res.games * 4 * r.start_points
    if isinstance(games, int) and 0 <= games <= 3:
        check(mjfast.compare, policies if isinstance(policies, str) else "greedy", "random", games,
              rules="american", seed=1, threads=1, progress=False, **options)
    kind, log = check(mjfast.replay, 1, games, rules="american", policies=policies, **options)
    if kind == "ok":
        assert sum(e["delta"] for e in log.events if e["type"] == "score") == 0
        assert mjfast.rerun(log.to_jsonl(), policies=policies if not isinstance(policies, str) else None).events \
            == log.events


# ------------------------------------------------------------------------------------------
# American hands

@st.composite
def american_text(draw):
    """13 or 14 tiles of the American set (standard kinds, f1..f8, jokers) as text."""
    kinds = draw(st.lists(st.integers(0, 5), min_size=4, max_size=4, unique=True))  # few kinds: near-complete hands
    names = [mjfast.tiles.tile_name(k * 5) for k in kinds]
    pool = [n for n in names for _ in range(4)] + [f"f{i}" for i in range(1, 9)] + ["j"] * 6
    size = draw(st.sampled_from([13, 14, 13, 14, 12]))
    picked = draw(st.permutations(pool))[:size]
    return " ".join(picked)


AM_TEXT = mostly(american_text(), st.one_of(st.text(alphabet="0123456789mpszfj ", max_size=30), ODD))


def _am_counts(text):
    p = mjfast.parse_tiles(text, max_jokers=16, max_tiles=None)
    c = np.zeros(43, np.int64)
    c[:34], c[34:42], c[42] = p.concealed, p.bonus, p.jokers
    return c


@given(AM_TEXT, mostly(st.one_of(st.none(), st.integers(6, 16)), st.one_of(st.integers(-1, 5), st.just(17), ODD)),
       mostly(st.sampled_from(["all", "beginner"]), st.one_of(st.just("x"), ODD)),
       mostly(st.sampled_from([None, "", "f5", "1m 1m", "j"]), st.one_of(AM_TEXT, ODD)))
@FUZZ
def test_american_hand_functions_any_text(text, jokers, form, visible):
    kind, s = check(mjfast.shanten, text, rules="american", form=form)
    if kind == "ok":
        assert s == _reference.american_shanten(_am_counts(text))
    kind, w = check(mjfast.is_winning, text, rules="american", form=form)
    if kind == "ok":
        assert w == _reference.american_is_winning(_am_counts(text))
    kind, w = check(mjfast.waits, text, rules="american", form=form, jokers=jokers)
    if kind == "ok":
        nj = 8 if jokers is None else jokers
        assert w == [mjfast.tiles.tile_name(k) for k in _reference.american_waits(_am_counts(text), nj)]
    kind, e = check(mjfast.effective_tiles, text, visible, rules="american", form=form, jokers=jokers)
    if kind == "ok" and _am_counts(text).sum() == 13:
        nj = 8 if jokers is None else jokers
        vis = _am_counts(visible) if visible else None
        want = _reference.american_effective_tiles(_am_counts(text), vis, nj)
        assert set(e.tiles) == {mjfast.tiles.tile_name(k) for k in want}
    check(mjfast.waits, "123m456p789s1122z", jokers=jokers)  # jokers is an American-only option


@given(mostly(st.sampled_from([13, 14]), st.one_of(st.integers(-1, 15), ODD)),
       mostly(st.sampled_from(["all", "beginner"]), st.one_of(st.just("standard"), ODD)),
       mostly(st.sampled_from(["mpsz", "m", "mz", "z"]), st.one_of(st.sampled_from(["", "x", "mm"]), ODD)),
       mostly(st.one_of(st.none(), st.integers(0, 16)), st.one_of(st.integers(-2, -1), st.just(17), ODD)))
@FUZZ
def test_exact_american_odds_any_arguments(tiles, form, suits, jokers):
    kind, res = check(mjfast.exact_deal_odds, "american", tiles, form, suits=suits, jokers=jokers)
    if kind == "ok":
        assert sum(res["shanten"].values()) == 1 and sum(res["jokers"].values()) == 1
        assert sum(res["bonus_tiles"].values()) == 1
    if not (isinstance(tiles, int) and tiles > 14):
        check(mjfast.exact_deal_odds_table, "american", tiles, suits=suits, jokers=jokers)
    check(mjfast.exact_deal_odds, "classical", 13, jokers=jokers)


# ------------------------------------------------------------------------------------------
# global options

@given(mostly(st.sampled_from(["auto", "always", "never", True, False, None]), st.one_of(st.just("sometimes"), ODD)))
@FUZZ
def test_options_any_value(value):
    before = mjfast.get_options()
    kind, ctx = check(mjfast.set_options, progress=value)
    if kind == "ok":
        with ctx:
            assert mjfast.get_options()["progress"] in ("auto", "always", "never")
        assert mjfast.get_options() == before          # the with block restored the setting
    else:
        assert mjfast.get_options() == before          # a refused value changes nothing


# ------------------------------------------------------------------------------------------
# plots (matplotlib Agg, figures are never shown)

@pytest.fixture(scope="module")
def plot_inputs():
    pytest.importorskip("matplotlib")
    wbt = mjfast.win_by_turn("123m456p789s1122z", draws=3, method="exact")
    return {
        "deal": mjfast.odds_table("deal", rules="classical"),
        "wbt": mjfast.odds_table("win_by_turn", hands="123m456p789s1122z", draws=3),
        "rate": mjfast.odds_table("win_rate", games=4, seed=1, progress=False),
        "wbt_result": wbt,
        "wbt_random": mjfast.win_by_turn_random(300, draws=3, seed=1, progress=False),
        "sim": mjfast.simulate(4, seed=1, progress=False),
        "stats": mjfast.deal_stats(500, seed=1, progress=False),
    }


PLOT_DATA = mostly(st.sampled_from(["deal", "wbt", "rate", "wbt_result", "wbt_random", "sim", "stats", "list"]), ODD)


@given(PLOT_DATA, mostly(st.sampled_from([None, "all", "standard"]), st.one_of(st.just("x"), ODD)),
       mostly(st.sampled_from(["win", "tenpai"]), st.one_of(st.just("x"), ODD)), mostly(st.booleans(), ODD),
       mostly(st.integers(-1, 500), ODD), mostly(st.none(), ODD))
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_plots_any_arguments(plot_inputs, name, form, which, flag, min_hands, ax):
    data = plot_inputs.get(name, name) if isinstance(name, str) else name
    if isinstance(name, str) and name == "list":
        data = [plot_inputs["wbt_result"], plot_inputs["wbt_result"]]
    for fn, kw in ((mjfast.plot.shanten_distribution, dict(form=form, log=flag)),
                   (mjfast.plot.win_by_turn, dict(which=which, bands=flag, min_hands=min_hands)),
                   (mjfast.plot.win_rates, {})):
        kind, axes = check(fn, data, ax=ax, **kw)
        if kind == "ok":
            assert axes.figure is not None
    kind, fig = check(mjfast.plot.plot_table, data)
    if kind == "ok":
        assert fig.axes


PATTERN = st.text(alphabet="0123456789abcdXYKDNEWSZRGF|+= ", max_size=30)
LINE = st.fixed_dictionaries({"id": st.one_of(st.text(max_size=4), ODD), "pattern": st.one_of(PATTERN, ODD),
                              "points": st.one_of(st.integers(-5, 60), ODD)},
                             optional={"concealed": st.one_of(st.booleans(), ODD),
                                       "vars": st.one_of(st.dictionaries(st.sampled_from(["X", "Y", "Q"]),
                                                                         st.lists(st.integers(-2, 12), max_size=4)),
                                                         ODD),
                                       "jokerless_bonus": st.one_of(st.booleans(), ODD)})


@given(st.one_of(st.fixed_dictionaries({"format": st.one_of(st.just("mjfast-card/1"), ODD),
                                        "lines": st.one_of(st.lists(LINE, max_size=3), ODD)}), ODD, TEXT))
@FUZZ
def test_load_card_any_card(data):
    """Any mapping, object or path text: a Card or a ValueError/TypeError naming the problem."""
    kind, res = check(mjfast.load_card, data)
    if kind == "ok":
        assert len(res.variations) > 0 or any(line.structural for line in res.lines)
        d = res.distance("1111m 4444p 7777s 44z")
        assert d.shape == (len(res.lines),)


def test_all_public_functions_fuzzed():
    """Every public function of mjfast.__all__ is exercised by this file or _fuzz_risky.py."""
    here = Path(__file__).read_text() + (Path(__file__).parent / "_fuzz_risky.py").read_text()
    funcs = [name for name in mjfast.__all__ if callable(getattr(mjfast, name)) and not isinstance(getattr(mjfast, name), type)]
    missing = [f for f in funcs if f"mjfast.{f}" not in here and f not in ("show_config",)]
    assert not missing, missing
