"""Chinese Official fan statistics of simulated play: SimResult.fans (FanStats), the
mcr_fans odds table, the CLI's MCR options, and that the old flat scoring stays available."""
from __future__ import annotations

import json
import sys

import numpy as np
import pytest

import _proc
import mjfast
from mjfast.game.extensions import FanStats
from mjfast.mcr import FANS


@pytest.fixture(scope="module")
def res():
    return mjfast.simulate(300, rules="mcr", seed=5, progress=False)


def test_fan_stats_count_every_win_of_the_run(res):
    f = res.fans
    assert isinstance(f, FanStats) and f.min_fan == 8
    assert f.wins == int(res.wins.sum()) > 0
    assert not f.hist[:8].any()                       # every win reaches the minimum
    assert int(f.false_wins.sum()) == 0               # built-in policies never declare a false win
    # the per-fan counts and the histogram are consistent with the event logs of the same games
    counts = np.zeros(len(FANS), np.int64)
    totals = []
    for g in range(20):
        log = mjfast.replay(5, g, rules="mcr")
        fans = [e for e in log.events if e["type"] == "fan"]
        wins = [e for e in log.events if e["type"] == "win"]
        for w in wins:
            mine = [e for e in fans if e["hand"] == w["hand"]]
            totals.append(sum(e["count"] * e["value"] for e in mine if e["fan"] != "Flower Tiles"))
            for e in mine:
                counts[[x[0] for x in FANS].index(e["fan"])] += 1
    sub = mjfast.simulate(20, rules="mcr", seed=5, progress=False).fans
    assert np.array_equal(sub.counts, counts)
    assert sub.fan_sum == sum(totals) and sub.fan_sq == sum(t * t for t in totals)
    m = sub.mean_fan()
    assert m.n == len(totals) and m.mean == pytest.approx(np.mean(totals))
    assert m.se == pytest.approx(np.std(totals, ddof=1) / np.sqrt(len(totals)))


def test_fan_stats_merge_json_and_table(res):
    d = res.to_dict()["fans"]
    assert d["wins"] == res.fans.wins and d["min_fan"] == 8
    assert set(d) == {"min_fan", "wins", "mean_fan", "mean_paid_fan", "false_wins", "frequency", "histogram"}
    assert sum(d["histogram"].values()) == d["wins"]
    assert d["mean_paid_fan"]["mean"] >= d["mean_fan"]["mean"]
    json.dumps(d)
    two = res + res
    assert two.fans.wins == 2 * res.fans.wins and two.fans.fan_sq == 2 * res.fans.fan_sq
    assert "fans (min 8)" in res.table()
    freq = res.fans.frequency()
    assert len(freq) == len(FANS) and all(e.n == res.fans.wins for e in freq.values())
    # no fan statistics for rules without fans, and the old JSON unchanged there
    for rules, opts in (("classical", {}), ("mcr", {"scoring": "basic", "min_fan": 0})):
        r = mjfast.simulate(20, rules=rules, seed=1, progress=False, **opts)
        assert r.fans is None and "fans" not in r.to_dict()


def test_fan_stats_do_not_depend_on_threads_or_chunks():
    a = mjfast.simulate(120, rules="mcr", seed=9, threads=1, progress=False)
    b = mjfast.simulate(120, rules="mcr", seed=9, threads=2, chunk_size=7, progress=False)
    assert a.to_dict() == b.to_dict()


def test_payments_follow_the_competition(res):
    # zero-sum games; a valid win moves at least 8 + 8 + 8 + 8 points (fan >= 8)
    assert int(res.points.sum()) == 0
    log = mjfast.replay(5, 0, rules="mcr")
    for w in (e for e in log.events if e["type"] == "win"):
        fan = sum(e["count"] * e["value"] for e in log.events if e["type"] == "fan" and e["hand"] == w["hand"])
        deltas = {e["seat"]: e["delta"] for e in log.events if e["type"] == "score" and e["hand"] == w["hand"]}
        if w["self_drawn"]:
            want = {s: -(8 + fan) for s in range(4) if s != w["seat"]}
        else:
            want = {s: -(8 + fan) if s == w["discarder"] else -8 for s in range(4) if s != w["seat"]}
        want[w["seat"]] = -sum(want.values())
        assert deltas == want


def test_mcr_fans_odds_table():
    t = mjfast.odds_table("mcr_fans", games=150, seed=4, progress=False)
    r = mjfast.simulate(150, rules="mcr", seed=4, progress=False)
    rows = {(x["statistic"], x["fan"]): x for x in t.rows}
    assert rows[("hands", "valid win")]["count"] == int(r.wins.sum())
    assert rows[("hands", "exhaustive draw")]["count"] == r.exhaustive_draws
    assert rows[("fan", "Seven Pairs")]["count"] == int(r.fans.counts[[f[0] for f in FANS].index("Seven Pairs")])
    assert rows[("fan", "Seven Pairs")]["value"] == 24 and rows[("fan", "Seven Pairs")]["chinese"] == "七对"
    assert sum(x["count"] for x in t.rows if x["statistic"] == "hand_fan") == r.fans.wins
    with pytest.raises(ValueError, match="mcr_fans tables need a rule set with fans"):
        mjfast.odds_table("mcr_fans", rules="classical", games=2, seed=1, progress=False)


TIMING = ("seconds", "games_per_second", "turns_per_second", "hands_per_second")


def test_cli_mcr_options_and_fan_statistics():
    run = [sys.executable, "-m", "mjfast", "simulate", "--rules", "mcr", "--games", "40", "--seed", "1",
           "--no-progress"]
    out = _proc.run(run + ["--format", "json"], capture_output=True, text=True, check=True, timeout=300).stdout
    d = json.loads(out)
    assert d["options"]["min_fan"] == 8 and d["fans"]["wins"] > 0
    out = _proc.run(run + ["--min-fan", "0", "--scoring", "basic", "--format", "json"], capture_output=True,
                    text=True, check=True, timeout=300).stdout
    d = json.loads(out)
    assert "fans" not in d and d["options"]["scoring"] == "basic"
    again = json.loads(_proc.run(run + ["--min-fan", "0", "--scoring", "basic", "--format", "json",
                                        "--threads", "1"], capture_output=True, text=True, timeout=300).stdout)
    assert {k: v for k, v in d.items() if k not in TIMING} == {k: v for k, v in again.items()
                                                                     if k not in TIMING}
    out = _proc.run(run + ["--no-flowers", "--format", "json"], capture_output=True, text=True, check=True,
                    timeout=300).stdout
    assert json.loads(out)["options"]["tiles"] == 136
    bad = _proc.run([sys.executable, "-m", "mjfast", "simulate", "--rules", "classical", "--min-fan", "8",
                     "--games", "2", "--seed", "1"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "--min-fan does not apply to --rules classical" in bad.stderr
    table = _proc.run(run, capture_output=True, text=True, check=True, timeout=300).stdout
    assert "fans (min 8)" in table and "most frequent fans" in table


def test_fan_aware_policies_beat_the_fan_blind_baseline():
    """The fan-aware greedy wins clearly more hands than greedy_blind (paired, same walls),
    and four fan-aware bots end at least half of all hands in a valid win."""
    c = mjfast.compare("greedy", "greedy_blind", 300, rules="mcr", seed=2, progress=False)
    assert c.win_rate_diff.low > 0.02
    r = mjfast.simulate(300, rules="mcr", policies="greedy", seed=3, progress=False)
    assert r.wins.sum() / r.hands > 0.5
    d = mjfast.simulate(300, rules="mcr", policies="defensive", seed=3, progress=False)
    assert d.wins.sum() / d.hands > 0.5
