"""win_by_turn's method="auto": the cheaper method by an estimate of each one's work, a
budget that hands an expensive exact run over to Monte Carlo, and the same result types
whichever method ran."""
from __future__ import annotations

import copy
import json
import math
import pickle
from fractions import Fraction

import numpy as np
import pytest

import mjfast
from mjfast.analysis import winturn as W
from mjfast.stats import Estimate, Probability

CHEAP3 = "469m12357p469s23z"      # 3-shanten, 95 reachable hands: exact work 16,800 units
COSTLY3 = "2347m25p567s2377z"     # 3-shanten, 740 reachable hands: exact work 106,000 units


@pytest.mark.parametrize("shanten,samples,want", [
    (0, 100_000, "exact"), (1, 100_000, "exact"), (2, 100_000, "exact"), (3, 100_000, "exact"),
    (4, 100_000, "exact"), (5, 100_000, "monte_carlo"), (6, 100_000, "monte_carlo"),
    (3, 1_000, "monte_carlo"), (4, 10_000, "monte_carlo"), (5, 10_000_000, "exact"),
])
def test_auto_chooses_the_cheaper_estimate(shanten, samples, want):
    assert W.choose_method(shanten, 18, samples, "greedy") == want
    assert (W.exact_cost(shanten) <= W.mc_cost(shanten, 18, samples)) == (want == "exact")


def test_auto_rule_details():
    # greedy_swap has no exact method; a hand that cannot reach tenpai in time is exact zeros
    assert W.choose_method(0, 18, 100_000, "greedy_swap") == "monte_carlo"
    assert W.choose_method(8, 5, 100, "greedy") == "exact"
    # Fractions cost more: the exact method is chosen less far out
    assert W.choose_method(4, 18, 100_000, "greedy", "fraction") == "monte_carlo"
    # costs grow with shanten (exact faster), with samples and draws (Monte Carlo)
    assert all(W.exact_cost(s + 1) >= 10 * W.exact_cost(s) for s in range(6))
    assert W.mc_cost(3, 18, 2000) == 2 * W.mc_cost(3, 18, 1000) and W.mc_cost(3, 30, 1000) > W.mc_cost(3, 6, 1000)
    assert "Notes" in mjfast.win_by_turn.__doc__ and "10**(s - 3)" in mjfast.win_by_turn.__doc__


def test_three_shanten_hand_is_exact_by_default():
    """The issue's case: a 3-shanten hand went to Monte Carlo (0.5 s) though exact takes ms."""
    r = mjfast.win_by_turn("1239m1p12477s122z")
    assert r.shanten == 3 and r.method == "exact" and r.samples is None
    ex = mjfast.win_by_turn("1239m1p12477s122z", method="exact")
    assert r.win == ex.win and r.tenpai == ex.tenpai


def test_the_budget_hands_a_costly_exact_run_to_monte_carlo():
    # 8,000 samples at 3-shanten: Monte Carlo costs 48,800 units, more than the typical exact
    # run (40,000), so exact is tried with that budget: enough for CHEAP3, not for COSTLY3
    assert W.choose_method(3, 18, 8000, "greedy") == "exact"
    cheap = mjfast.win_by_turn(CHEAP3, samples=8000, seed=1, progress=False)
    costly = mjfast.win_by_turn(COSTLY3, samples=8000, seed=1, progress=False)
    assert cheap.method == "exact" and costly.method == "monte_carlo"
    assert costly.samples == 8000 and costly.seed == 1 and costly.shanten == 3
    again = mjfast.win_by_turn(COSTLY3, samples=8000, seed=1, progress=False, method="monte_carlo")
    assert costly.win == again.win            # the same run as asking for Monte Carlo: deterministic
    # with more samples the budget covers the exact run
    assert mjfast.win_by_turn(COSTLY3, samples=100_000).method == "exact"


def test_auto_falls_back_on_max_states_and_exact_keeps_the_error():
    r = mjfast.win_by_turn(CHEAP3, max_states=10, samples=2000, seed=1, progress=False)
    assert r.method == "monte_carlo"
    with pytest.raises(MemoryError, match="max_states"):
        mjfast.win_by_turn(CHEAP3, max_states=10, method="exact")


def test_solver_counts_its_work():
    from mjfast.analysis.hand import read_hand
    from mjfast.hands._standard import form_bits

    h = read_hand(CHEAP3)
    s = W.ExactSolver(form_bits("all", "classical"), "greedy", h.unseen, 18)
    s.run(h.concealed.tobytes(), 18, [int(c) for c in h.unseen])
    assert s.work == W.EXACT_HAND_COST * len(s.info_memo) + W.EXACT_STATE_COST["float"] * len(s.memo)
    tight = W.ExactSolver(form_bits("all", "classical"), "greedy", h.unseen, 18, budget=s.work - 1)
    with pytest.raises(W._OverBudget):
        tight.run(h.concealed.tobytes(), 18, [int(c) for c in h.unseen])


def _curves(hand, **kw):
    return (mjfast.win_by_turn(hand, draws=6, method="exact", **kw),
            mjfast.win_by_turn(hand, draws=6, method="monte_carlo", samples=4000, seed=2, progress=False, **kw))


@pytest.mark.parametrize("hand", ["123m456p789s1122z", "12m456p789s11z34p5z", "123m456p789s11222z"])
def test_same_types_whichever_method_ran(hand):
    ex, mc = _curves(hand)
    assert type(ex) is type(mc) is mjfast.WinByTurn
    for r in (ex, mc):
        assert all(type(v) is Probability for v in r.win + r.tenpai)
        v = r.win[-1]
        assert isinstance(v, float) and v.low <= v.p <= v.high and v.se >= 0 and v.to_dict()["p"] == float(v)
        assert r.win_p.dtype == np.float64 and r.tenpai_p.shape == (6,)
        assert [list(x) for x in r.rows()][0] == ["t", "win", "win_se", "win_low", "win_high", "tenpai", "tenpai_se",
                                                  "tenpai_low", "tenpai_high"]
    assert all(v.is_exact and v.se == 0 and v.low == v.high == v.p and v.n is None for v in ex.win)
    assert all(not v.is_exact and v.n == 4000 for v in mc.win)
    # code written for one works on the other: float arithmetic and estimate attributes
    for r in (ex, mc):
        assert 0 <= round(1 - r.win[-1], 3) <= 1 and r.win[-1].high - r.win[-1].low >= 0


def test_same_types_in_pandas_and_json():
    pd = pytest.importorskip("pandas")
    ex, mc = _curves("12m456p789s11z34p5z")
    a, b = ex.to_pandas(), mc.to_pandas()
    assert isinstance(a, pd.DataFrame) and list(a.columns) == list(b.columns)
    assert a.dtypes.to_dict() == b.dtypes.to_dict() and str(a["t"].dtype) == "int64" and str(a["win"].dtype) == "float64"
    assert a.attrs["method"] == "exact" and b.attrs["method"] == "monte_carlo" and b.attrs["samples"] == 4000
    for r in (ex, mc):
        json.dumps(r.to_dict())
    # the JSON schema is unchanged: exact curves are floats, Monte Carlo ones estimate dicts
    assert isinstance(ex.to_dict()["win"][0], float)
    assert set(mc.to_dict()["win"][0]) == {"count", "n", "p", "se", "ci95"}


def test_fraction_values_stay_fractions():
    r = mjfast.win_by_turn("123m456p789s1122z", draws=3, method="exact", exact="fraction")
    assert all(type(v) is Fraction for v in r.win) and r.rows()[0]["win_se"] == 0.0
    assert r.to_dict()["win_exact"][0] == "4/123"
    done = mjfast.win_by_turn("123m456p789s11222z", draws=2, exact="fraction")
    assert done.win == (Fraction(1), Fraction(1))


def test_complete_hand_is_won_at_once_with_either_method():
    ex = mjfast.win_by_turn("123m456p789s11222z", draws=3)
    mc = mjfast.win_by_turn("123m456p789s11222z", draws=3, method="monte_carlo", samples=100)
    assert ex.method == "exact" and mc.method == "monte_carlo"
    assert type(ex.win[0]) is type(mc.win[0]) is Probability and float(ex.win[0]) == float(mc.win[0]) == 1.0


def test_probability_behaves_as_a_float_and_an_estimate():
    e = Probability.from_estimate(Estimate.from_counts(30, 1000))
    x = Probability.exact(Fraction(1, 4))
    assert float(e) == 0.03 and e.p == 0.03 and (e.count, e.n) == (30, 1000) and not e.is_exact
    assert x == 0.25 and x.is_exact and x.se == 0.0 and (x.low, x.high) == (0.25, 0.25) and x.count is None
    assert e.to_dict() == Estimate.from_counts(30, 1000).to_dict()
    assert math.isclose(e + x, 0.28) and type(e + x) is float and round(x, 1) == 0.2
    assert x.one_in == 4.0 and Probability.exact(0).one_in == math.inf
    # equality: value, se, count and n for two Probabilities; the value against a float
    same = Probability.from_estimate(Estimate.from_counts(30, 1000))
    other_n = Probability.from_estimate(Estimate.from_counts(60, 2000))
    assert e == same and e != other_n and hash(e) == hash(0.03) and e == 0.03
    for y in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        assert y == e and y.se == e.se and y.n == 1000
    with pytest.raises(AttributeError):
        e.se = 0.0
    assert repr(x) == "0.25" and repr(e).startswith("Probability(p=0.03, se=0.00539")
    assert np.array([e, x]).dtype == np.float64
