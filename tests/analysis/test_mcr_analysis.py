"""Chinese Official (MCR) fans in the hand analysis: analyze(rules="mcr"), waits(min_fan=),
the CLI's fan columns and the "mcr_ready" odds table, each against mcr.fan on literal hands
or a slow direct count."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import mjfast
from mjfast import cli, mcr, tiles
from mjfast.analysis.hand import WaitFan
from mjfast.analysis.odds import odds_table

# 13-tile hands (counting 3 per set) of every form, with called sets and concealed kongs
HANDS_13 = [
    "12345678m [999p] 11z",          # only 9m makes the Pure Straight
    "123m456p789s1122z",             # winds: Mixed Straight + a wind pung
    "11m99p [234p] [555s] (7777z)",  # 5 on a discard, 8 self-drawn (the pung stays concealed)
    "2458m369s147p [555z]",          # knitted straight with a called set
    "1122m3344p5566s7z",             # seven pairs
    "19m19p19s1234567z",             # thirteen orphans, 13 waits
    "147m258p369s1234z",             # honors and knitted tiles
    "1112345678999m",                # nine gates
    "12m456p789s111z55z",            # edge wait
    "123m [789s] [456p] (2222z) 5p",
]
WINDS = [("E", "E"), ("S", "E"), ("N", "S")]


def _counts_and_melds(hand: str):
    p = tiles.parse_tiles(hand)
    return p.concealed.astype(np.int64), p.melds


def _fan(counts, melds, w, **kw) -> int:
    return mcr.fan(np.asarray(counts, np.int64), melds=melds, win_tile=w, **kw).total


# -- analyze ---------------------------------------------------------------------------------

@pytest.mark.parametrize("hand", HANDS_13)
@pytest.mark.parametrize("seat,prevalent", WINDS)
def test_analyze_13_tiles_scores_every_wait_as_mcr_fan(hand, seat, prevalent):
    a = mjfast.analyze(hand, rules="mcr", seat_wind=seat, prevalent_wind=prevalent)
    assert (a.min_fan, a.seat_wind, a.prevalent_wind) == (8, seat, prevalent)
    assert a.waits == mjfast.waits(hand, rules="mcr") and a.waits
    assert [f.wait for f in a.fans] == a.waits
    counts, melds = _counts_and_melds(hand)
    for f in a.fans:
        d = _fan(counts, melds, f.wait, seat_wind=seat, prevalent_wind=prevalent)
        s = _fan(counts, melds, f.wait, self_drawn=True, seat_wind=seat, prevalent_wind=prevalent)
        assert (f.fan_discard, f.fan_self_drawn) == (d, s) and d > 0 and s > 0
        assert (f.valid_discard, f.valid_self_drawn) == (d >= 8, s >= 8)
        assert f.unseen == a.effective.get(f.wait, 0)


def test_analyze_literal_values():
    a = mjfast.analyze("12345678m [999p] 11z", rules="mcr")
    assert [(f.wait, f.fan_discard, f.fan_self_drawn, f.valid_discard) for f in a.fans] == [
        ("3m", 3, 4, False), ("6m", 3, 4, False), ("9m", 18, 19, True)]
    b = mjfast.analyze("11m99p [234p] [555s] (7777z)", rules="mcr")
    assert [(f.fan_discard, f.valid_discard, f.fan_self_drawn, f.valid_self_drawn) for f in b.fans] == [
        (5, False, 8, True)] * 2
    c = mjfast.analyze("123m456p789s1122z", rules="mcr")
    assert [(f.wait, f.fan_discard, f.fan_self_drawn) for f in c.fans] == [("1z", 14, 16), ("2z", 11, 13)]
    # seat wind S: 2z is the seat wind (2) instead of a pung of honors (1); 1z keeps the prevalent wind only
    d = mjfast.analyze("123m456p789s1122z", rules="mcr", seat_wind="S")
    assert [(f.wait, f.fan_discard) for f in d.fans] == [("1z", 12), ("2z", 12)]
    e = mjfast.analyze("123m456p789s1122z", rules="mcr", min_fan=12)
    assert [(f.wait, f.valid_discard, f.valid_self_drawn) for f in e.fans] == [("1z", True, True), ("2z", False, True)]
    assert mjfast.analyze("123m456p789s1122z", rules="mcr", seat_wind=1).seat_wind == "S"


def test_analyze_14_tiles_scores_the_waits_of_every_discard():
    hand = "12345678m [999p] 11z5z"
    a = mjfast.analyze(hand, rules="mcr", seat_wind="W")
    counts, melds = _counts_and_melds(hand)
    assert a.fans is None and a.min_fan == 8
    scored = 0
    for o in a.discards:
        assert [f.wait for f in o.fans] == o.waits
        rest = counts.copy()
        rest[tiles.tile_index(o.discard)] -= 1
        for f in o.fans:
            assert f.fan_discard == _fan(rest, melds, f.wait, seat_wind="W")
            assert f.fan_self_drawn == _fan(rest, melds, f.wait, seat_wind="W", self_drawn=True)
            scored += 1
    assert scored == 3
    # the order of the discards is that of the effective tiles, fans or not
    assert [o.discard for o in a.discards] == [o.discard for o in mjfast.analyze(hand).discards]
    best = a.best
    assert best.discard == "5z" and [(f.wait, f.valid_discard) for f in best.fans] == [
        ("3m", False), ("6m", False), ("9m", True)]


@pytest.mark.parametrize("hand", ["147m258p369s12345z", "1122m3344p5566s77z", "123m456p789s11223z",
                                  "11m99p [234p] [555s] (7777z) 3z"])
def test_analyze_14_tiles_of_every_form(hand):
    a = mjfast.analyze(hand, rules="mcr")
    counts, melds = _counts_and_melds(hand)
    for o in a.discards:
        if o.shanten != 0:
            assert o.fans == [] and o.waits == []
        rest = counts.copy()
        rest[tiles.tile_index(o.discard)] -= 1
        for f in o.fans:
            assert (f.fan_discard, f.fan_self_drawn) == (_fan(rest, melds, f.wait),
                                                         _fan(rest, melds, f.wait, self_drawn=True))


def test_last_tile_counts_when_three_copies_are_shown():
    hand = "12m456p789s111z55z"                           # edge wait on 3m
    plain = mjfast.analyze(hand, rules="mcr").fans[0]
    last = mjfast.analyze(hand, rules="mcr", visible="333m").fans[0]
    counts, melds = _counts_and_melds(hand)
    assert plain.fan_discard == _fan(counts, melds, "3m") == 21
    assert last.fan_discard == _fan(counts, melds, "3m", fourth_tile=True) == 25 and last.unseen == 1
    assert mcr.fan(hand, win_tile="3m", fourth_tile=True).count("Last Tile") == 1
    # two visible copies plus the one discarded from the 14-tile hand are three shown
    a = mjfast.analyze(hand + "3m", rules="mcr", visible="33m")
    o = next(o for o in a.discards if o.discard == "3m")
    assert [(f.wait, f.unseen, f.fan_discard) for f in o.fans] == [("3m", 1, 25)]


def test_hands_that_are_not_13_or_14_tiles_are_not_scored():
    a = mjfast.analyze("123m456p789s1z", rules="mcr")
    assert a.waits == ["1z"] and a.fans is None and a.min_fan == 8
    assert "not scored" in a.table()
    b = mjfast.analyze("123m4p5p", rules="mcr")
    assert all(o.fans is None for o in b.discards)
    assert "fans" not in b.to_dict()["discards"][0] and b.to_dict()["fans"] is None


def test_not_ready_hands_have_no_fans():
    a = mjfast.analyze("13m469p258s1357z4z", rules="mcr")
    assert a.shanten > 0 and a.fans == [] and "no wait yet" in a.table()


def test_output_formats_under_mcr():
    a = mjfast.analyze("12345678m [999p] 11z5z", rules="mcr")
    d = json.loads(a.to_json())
    assert (d["min_fan"], d["seat_wind"], d["prevalent_wind"], d["fans"]) == (8, "E", "E", None)
    assert d["discards"][0]["fans"] == [f.to_dict() for f in a.discards[0].fans]
    assert d["discards"][0]["fans"][2] == {"wait": "9m", "unseen": 4, "fan_discard": 18, "fan_self_drawn": 19,
                                           "valid_discard": True, "valid_self_drawn": True}
    text = a.table()
    assert "fans      min_fan 8 (flowers never count), seat wind E, prevalent wind E" in text
    assert "  5z       9m         4         18*         19*" in text
    assert "  5z       3m         3          3           4" in text
    assert str(a) == text
    b = mjfast.analyze("12345678m [999p] 11z", rules="mcr")
    assert "  9m         4         18*         19*" in b.table()
    assert isinstance(b.fans[0], WaitFan) and mjfast.WaitFan is WaitFan


@pytest.mark.parametrize("rules", ["classical", "basic", None])
def test_other_rule_sets_are_unchanged(rules):
    for hand in ("123m456p789s11223z", "123m456p789s1122z", "12345678m [999p] 11z5z"):
        a = mjfast.analyze(hand, rules=rules)
        d = a.to_dict()
        assert set(d) == {"hand", "rules", "tiles", "concealed", "melds", "visible", "shanten", "shanten_by_form",
                          "complete", "decompositions", "waits", "effective", "effective_count", "discards"}
        assert all(set(o) == {"discard", "shanten", "tiles", "count", "waits"} for o in d["discards"])
        assert "fans" not in a.table() and "fans" not in repr(a) and "min_fan" not in repr(a)
        assert a.fans is None and a.min_fan is None and all(o.fans is None for o in a.discards)
        assert "fans" not in repr(a.best) if a.best else True


def test_analyze_mcr_options_are_errors_for_other_rules():
    for rules in ("classical", "basic", None):
        for option, value in (("min_fan", 8), ("seat_wind", "S"), ("prevalent_wind", "E")):
            with pytest.raises(ValueError, match=f"{option} is an option of rules='mcr' only"):
                mjfast.analyze("123m456p789s1122z", rules=rules, **{option: value})
    with pytest.raises(ValueError, match="american"):
        mjfast.analyze("123m456p789s1122z", rules="american", min_fan=8)
    with pytest.raises(ValueError, match="seat_wind"):
        mjfast.analyze("123m456p789s1122z", rules="mcr", seat_wind="X")
    with pytest.raises(ValueError, match="prevalent_wind"):
        mjfast.analyze("123m456p789s1122z", rules="mcr", prevalent_wind=4)
    with pytest.raises(TypeError, match="min_fan"):
        mjfast.analyze("123m456p789s1122z", rules="mcr", min_fan=8.0)
    with pytest.raises(ValueError, match="min_fan"):
        mjfast.analyze("123m456p789s1122z", rules="mcr", min_fan=-1)


def test_analyze_accepts_the_mcr_rule_set_object():
    a = mjfast.analyze("12345678m [999p] 11z", rules=mjfast.rules.get("mcr"))
    assert a.rules == "mcr" and [f.fan_discard for f in a.fans] == [3, 3, 18]


# -- waits(min_fan=) ---------------------------------------------------------------------------

@pytest.mark.parametrize("hand", HANDS_13)
def test_waits_min_fan_keeps_the_valid_wins(hand):
    all_waits = mjfast.waits(hand, rules="mcr")
    assert mjfast.waits(hand, rules="mcr") == all_waits        # no min_fan: unchanged
    counts, melds = _counts_and_melds(hand)
    for seat, prevalent in WINDS:
        for drawn in (False, True):
            totals = {w: _fan(counts, melds, w, self_drawn=drawn, seat_wind=seat, prevalent_wind=prevalent)
                      for w in all_waits}
            for min_fan in (0, 1, 6, 8, 12, 16, 24, 88, 1000):
                got = mjfast.waits(hand, rules="mcr", min_fan=min_fan, self_drawn=drawn, seat_wind=seat,
                                   prevalent_wind=prevalent)
                assert got == [w for w in all_waits if totals[w] >= min_fan], (hand, seat, drawn, min_fan)


def test_waits_min_fan_literal():
    assert mjfast.waits("12345678m [999p] 11z", rules="mcr", min_fan=8) == ["9m"]
    assert mjfast.waits("11m99p [234p] [555s] (7777z)", rules="mcr", min_fan=8) == []
    assert mjfast.waits("11m99p [234p] [555s] (7777z)", rules="mcr", min_fan=8, self_drawn=True) == ["1m", "9p"]
    assert mjfast.waits("123m456p789s1122z", rules="mcr", min_fan=13) == ["1z"]
    assert mjfast.waits("123m456p789s1122z", rules="mcr", min_fan=13, seat_wind="S") == []
    assert mjfast.waits("123m456p789s1122z", rules="mcr", min_fan=13, prevalent_wind="S") == []
    assert mjfast.waits("123m456p789s1122z", rules="mcr", min_fan=13, prevalent_wind="S", seat_wind="S") == ["2z"]
    assert mjfast.waits(mjfast.parse_hand("12345678m999p11z"), rules="mcr", min_fan=8) == ["9m"]   # counts
    assert mjfast.waits("123m456p789s1112z", rules="mcr", min_fan=8, form="standard") == \
        [w for w in mjfast.waits("123m456p789s1112z", rules="mcr", form="standard")
         if mcr.fan("123m456p789s1112z", win_tile=w).total >= 8]


def test_waits_min_fan_errors():
    for rules in ("classical", "basic", None, "american"):
        for option, value in (("min_fan", 8), ("self_drawn", True), ("seat_wind", "E"), ("prevalent_wind", "S")):
            with pytest.raises(ValueError, match=f"{option} is an option of rules='mcr' only"):
                mjfast.waits("123m456p789s1122z", rules=rules, **{option: value})
    for option, value in (("self_drawn", True), ("seat_wind", "S"), ("prevalent_wind", "S")):
        with pytest.raises(ValueError, match=f"{option} only changes which waits reach min_fan"):
            mjfast.waits("123m456p789s1122z", rules="mcr", **{option: value})
    with pytest.raises(ValueError, match="13 tiles"):
        mjfast.waits("123m4p", rules="mcr", min_fan=8)
    with pytest.raises(ValueError, match="13 tiles"):
        mjfast.waits(mjfast.parse_hand("12345678m11z"), rules="mcr", min_fan=8)   # counts: no sets known
    with pytest.raises(TypeError, match="min_fan"):
        mjfast.waits("123m456p789s1122z", rules="mcr", min_fan="8")
    with pytest.raises(TypeError, match="self_drawn"):
        mjfast.waits("123m456p789s1122z", rules="mcr", min_fan=8, self_drawn=1)
    with pytest.raises(ValueError, match="seat_wind"):
        mjfast.waits("123m456p789s1122z", rules="mcr", min_fan=8, seat_wind="X")
    # the default behaviour of every rule set is unchanged
    assert mjfast.waits("123m456p789s1122z") == ["1z", "2z"]
    assert mjfast.waits("1111m 2222p 333s 44z", rules="american") == ["3s", "j"]


# -- the command line --------------------------------------------------------------------------

def test_cli_analyze_fan_columns(capsys):
    assert cli.main(["analyze", "12345678m", "[999p]", "11z", "--rules", "mcr"]) == 0
    out = capsys.readouterr().out
    assert "fans      min_fan 8 (flowers never count), seat wind E, prevalent wind E; * = reaches min_fan" in out
    assert "  wait  unseen  on discard  self-drawn" in out
    assert "  9m         4         18*         19*" in out and "  3m         3          3           4" in out
    assert cli.main(["analyze", "123m456p789s11223z", "--rules", "mcr", "--seat-wind", "S", "--min-fan", "13"]) == 0
    out = capsys.readouterr().out
    assert "seat wind S" in out and "min_fan 13" in out
    assert "  3z       1z         2         12          14*" in out
    assert cli.main(["analyze", "123m456p789s1122z", "--rules", "mcr", "--prevalent-wind", "S", "--format",
                     "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["prevalent_wind"] == "S" and [f["wait"] for f in data["fans"]] == ["1z", "2z"]
    assert [f["fan_discard"] for f in data["fans"]] == [
        mcr.fan("123m456p789s1122z", win_tile=w, prevalent_wind="S").total for w in ("1z", "2z")]
    # other rule sets: the same output as before, and the fan options are errors naming them
    assert cli.main(["analyze", "123m456p789s11223z"]) == 0
    assert "fans" not in capsys.readouterr().out
    assert cli.main(["analyze", "123m456p789s1122z", "--min-fan", "8"]) == 2
    assert "--min-fan does not apply to --rules classical" in capsys.readouterr().err
    assert cli.main(["analyze", "123m456p789s1122z", "--rules", "none", "--seat-wind", "S"]) == 2
    assert "--seat-wind does not apply to --rules none" in capsys.readouterr().err


# -- the mcr_ready odds table -------------------------------------------------------------------

EVENTS = ("ready", "ready_min_fan", "ready_min_fan_self_drawn", "min_fan_given_ready")


def _by(t):
    return {(r["seat"], r["event"]): r for r in t.rows}


def test_mcr_ready_rows_are_consistent():
    t = odds_table("mcr_ready", samples=200_000, seed=11, progress=False)
    assert t.kind == "mcr_ready" and len(t) == 8 and t.meta["samples"] == 200_000 and t.meta["min_fan"] == 8
    assert t.meta["seed"] == 11
    rows = _by(t)
    for seat, n_tiles in (("dealer", 14), ("non_dealer", 13)):
        ready, r8, r8s, cond = (rows[seat, e] for e in EVENTS)
        assert all(r["tiles"] == n_tiles and r["rules"] == "mcr" and r["min_fan"] == 8 for r in (ready, r8, r8s, cond))
        assert ready["n"] == r8["n"] == r8s["n"] == 200_000 and cond["n"] == ready["count"]
        assert r8["count"] <= ready["count"] and r8s["count"] <= ready["count"] and cond["count"] == r8["count"]
        assert ready["count"] > 0
        for r in (ready, r8, r8s, cond):
            assert r["p"] == r["count"] / r["n"] and r["low"] <= r["p"] <= r["high"]
            assert math.isclose(r["se"], math.sqrt(r["p"] * (1 - r["p"]) / r["n"]))
            assert r["method"] == "monte_carlo"
    # "ready" is the deal statistics' complete + tenpai (dealer) and tenpai (South) of the same deals
    st = mjfast.deal_stats(200_000, rules="mcr", seed=11, progress=False)
    assert rows["dealer", "ready"]["count"] == st.complete("dealer").count + st.tenpai("dealer").count
    assert rows["non_dealer", "ready"]["count"] == st.tenpai("non_dealer").count


def test_mcr_ready_is_reproducible_whatever_the_threads():
    a = odds_table("mcr_ready", samples=60_000, seed=5, threads=1, progress=False)
    b = odds_table("mcr_ready", samples=60_000, seed=5, threads=2, progress=False)
    c = odds_table("mcr_ready", samples=60_000, seed=5, progress=False)
    assert a.rows == b.rows == c.rows
    d = odds_table("mcr_ready", samples=60_000, seed=6, threads=1, progress=False)
    assert a.rows != d.rows
    e = odds_table("mcr_ready", samples=60_000, seed=np.random.SeedSequence(5), progress=False)
    assert e.rows == a.rows


def test_mcr_ready_min_fan_bounds():
    t0 = _by(odds_table("mcr_ready", samples=50_000, seed=2, min_fan=0, progress=False))
    tbig = _by(odds_table("mcr_ready", samples=50_000, seed=2, min_fan=1000, progress=False))
    for seat in ("dealer", "non_dealer"):
        assert t0[seat, "ready_min_fan"]["count"] == t0[seat, "ready"]["count"]          # every win scores > 0
        assert t0[seat, "ready_min_fan_self_drawn"]["count"] == t0[seat, "ready"]["count"]
        assert tbig[seat, "ready_min_fan"]["count"] == tbig[seat, "ready_min_fan_self_drawn"]["count"] == 0
        assert tbig[seat, "ready"]["count"] == t0[seat, "ready"]["count"] and tbig[seat, "ready"]["min_fan"] == 1000


def _slow_count(n: int, seed: int, min_fan: int = 8) -> dict:
    """The same counts, hand by hand: every discard (dealer) and every tile scored by mcr.fan."""
    d = mjfast.deal(n, rules="mcr", seed=seed)
    out = {}
    for seat, index, wind in (("dealer", 0, "E"), ("non_dealer", 1, "S")):
        hands = d.hands[:, index]
        ready = np.flatnonzero(mjfast.shanten(hands, rules="mcr") <= 0)
        counts = [0, 0, 0]
        for i in ready:
            h = hands[i].astype(np.int64)
            rests = []
            if index == 0:
                for k in np.flatnonzero(h):
                    r = h.copy()
                    r[k] -= 1
                    rests.append(r)
            else:
                rests.append(h)
            win = best_d = best_s = 0
            for r in rests:
                for t in range(34):
                    if r[t] == 4:
                        continue
                    fd = mcr.fan(r, win_tile=t, seat_wind=wind)
                    if fd.is_win:
                        win = 1
                        best_d = max(best_d, fd.total_without_flowers)
                        best_s = max(best_s, mcr.fan(r, win_tile=t, seat_wind=wind, self_drawn=True).total)
            counts[0] += win
            counts[1] += win and best_d >= min_fan
            counts[2] += win and best_s >= min_fan
        out[seat] = counts
    return out


def test_mcr_ready_against_a_slow_direct_count():
    n, seed = 100_000, 7
    t = _by(odds_table("mcr_ready", samples=n, seed=seed, threads=2, progress=False))
    slow = _slow_count(n, seed)
    for seat in ("dealer", "non_dealer"):
        assert [t[seat, e]["count"] for e in EVENTS[:3]] == slow[seat], seat
    assert slow["dealer"][1] > 0             # the sample holds valid ready hands
    # and a rate against the slow count of another, smaller sample: within a few standard errors
    small = _slow_count(30_000, 8)
    for seat in ("dealer", "non_dealer"):
        p = t[seat, "ready_min_fan"]["p"]
        se = math.sqrt(max(p * (1 - p), 1e-9) / 30_000)
        assert abs(small[seat][1] / 30_000 - p) <= 5 * se + 2 / 30_000


def test_mcr_ready_errors():
    with pytest.raises(ValueError, match="rules must be 'mcr'"):
        odds_table("mcr_ready", rules="classical", samples=10)
    with pytest.raises(ValueError, match="Monte Carlo only"):
        odds_table("mcr_ready", method="exact", samples=10)
    with pytest.raises(ValueError, match="min_fan is an option of kind 'mcr_ready' only"):
        odds_table("deal", min_fan=8)
    with pytest.raises(TypeError, match="min_fan"):
        odds_table("mcr_ready", min_fan=8.5, samples=10)
    with pytest.raises(ValueError, match="samples"):
        odds_table("mcr_ready", samples=0)
    with pytest.raises(ValueError, match="unknown kind"):
        odds_table("mcr-ready")
    with pytest.raises(ValueError, match="no plot for odds tables of kind 'mcr_ready'"):
        mjfast.plot.plot_table(odds_table("mcr_ready", samples=10, seed=1, progress=False))
    # the default rules of the other kinds are still "classical"
    assert set(odds_table("deal").column("rules")) == {"classical"}


def test_mcr_ready_exports_and_cli(capsys, tmp_path):
    t = odds_table("mcr_ready", samples=20_000, seed=3, progress=False)
    assert t.to_csv().splitlines()[0] == "rules,seat,tiles,min_fan,event,p,se,low,high,one_in,count,n,method"
    json.loads(t.to_json()), t.to_markdown(), str(t)
    assert cli.main(["odds-table", "mcr-ready", "-n", "20000", "--seed", "3", "--format", "json",
                     "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "mcr_ready" and data["meta"]["seed"] == 3
    assert [(r["seat"], r["event"], r["count"]) for r in data["rows"]] == [(r["seat"], r["event"], r["count"])
                                                                          for r in t.rows]
    out = tmp_path / "m.csv"
    assert cli.main(["odds-table", "mcr_ready", "-n", "20000", "--seed", "3", "--min-fan", "6", "--format", "csv",
                     "--output", str(out), "--no-progress"]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 9 and all(",6," in line for line in lines[1:])
    assert cli.main(["odds-table", "mcr-ready", "--rules", "classical", "-n", "10", "--seed", "1"]) == 2
    assert "needs --rules mcr" in capsys.readouterr().err
    assert cli.main(["odds-table", "deal", "--min-fan", "8"]) == 2
    assert "--min-fan does not apply to odds-table deal" in capsys.readouterr().err
