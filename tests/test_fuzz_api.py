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
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mjfast
from mjfast import _reference, wall

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
        return "ok", fn(*args, **kw)
    except (ValueError, TypeError) as exc:
        msg = str(exc).strip()
        assert msg and len(msg) > 10, f"{fn.__name__}: unhelpful message {msg!r}"
        # numpy's own errors leaking out do not name the argument at fault
        assert "truth value of an array" not in msg and "invalid literal" not in msg, f"{fn.__name__}: {msg}"
        return "error", exc


# ------------------------------------------------------------------------------------------
# the kernel-facing cases, in a subprocess

def test_kernel_facing_fuzz_in_subprocess():
    env = dict(os.environ)
    root = Path(__file__).resolve().parents[1]
    here = str(Path(mjfast.__file__).resolve().parents[1])  # the subprocess imports this same mjfast
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore::DeprecationWarning",
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
            assert res == _reference.shanten(mjfast.parse_hand("123m456p789s1122z"), form=form, rules=rules)
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


@given(SMALL_N, RULES, SEED, st.one_of(st.none(), st.booleans(), ODD), st.one_of(st.none(), st.integers(-2, 20)),
       st.one_of(st.none(), st.lists(FORMS, max_size=3), ODD), st.one_of(st.integers(-2, 50), ODD),
       st.one_of(st.sampled_from(["local", "dask", "threads"]), ODD))
@FUZZ
def test_deal_stats_any_arguments(n, rules, seed, flowers, jokers, forms, chunk, backend):
    if isinstance(backend, str) and backend == "dask":
        backend = "local"  # the Dask backend has its own tests (tests/test_dask.py)
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
    kind, rules_obj = check(mjfast.game_rules, rules, **options)
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


def test_all_public_functions_fuzzed():
    """Every public function of mjfast.__all__ is exercised by this file or _fuzz_risky.py."""
    here = Path(__file__).read_text() + (Path(__file__).parent / "_fuzz_risky.py").read_text()
    funcs = [name for name in mjfast.__all__ if callable(getattr(mjfast, name)) and not isinstance(getattr(mjfast, name), type)]
    missing = [f for f in funcs if f"mjfast.{f}" not in here and f not in ("show_config",)]
    assert not missing, missing
