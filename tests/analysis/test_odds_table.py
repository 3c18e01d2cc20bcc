"""odds_table: the numbers of the underlying functions, as tidy rows; exports; the CLI."""
from __future__ import annotations

import csv
import io
import json
import math
import sys
from fractions import Fraction

import pytest

import mjfast
from mjfast import cli
from mjfast.analysis.odds import OddsTable, odds_table


def test_deal_exact_rows_are_the_exact_odds():
    t = odds_table("deal", rules=["classical", "basic"])
    assert t.kind == "deal" and set(t.column("rules")) == {"classical", "basic"}
    for rules in ("classical", "basic"):
        for seat, n_tiles in (("dealer", 14), ("non_dealer", 13)):
            rows = t.select(rules=rules, seat=seat).rows
            exact = mjfast.exact_deal_odds(rules=rules, tiles=n_tiles, form="standard")["shanten"]
            assert {r["shanten"]: Fraction(r["exact"]) for r in rows} == dict(exact)
            assert sum(Fraction(r["exact"]) for r in rows) == 1
            assert all(r["tiles"] == n_tiles and r["se"] == 0 and r["low"] == r["p"] == r["high"] for r in rows)
            assert all(math.isclose(r["one_in"], 1 / r["p"]) for r in rows)


def test_deal_monte_carlo_matches_exact():
    mc = odds_table("deal", method="monte_carlo", samples=100_000, seed=3, progress=False)
    ex = odds_table("deal")
    st = mjfast.deal_stats(100_000, seed=3, progress=False)
    for seat in ("dealer", "non_dealer"):
        rows = mc.select(seat=seat).rows
        assert sum(r["count"] for r in rows) == 100_000 and all(r["n"] == 100_000 for r in rows)
        assert {r["shanten"]: r["count"] for r in rows} == {s: e.count for s, e in st.shanten_estimates(seat, "standard").items()}
        exact = {r["shanten"]: r["p"] for r in ex.select(seat=seat).rows}
        for r in rows:
            p = exact[r["shanten"]]
            assert abs(r["p"] - p) <= 4.5 * math.sqrt(p * (1 - p) / r["n"]) + 1e-12


def test_win_by_turn_rows():
    hands = ["123m456p789s1122z", "12m456p789s11z34p5z"]
    t = odds_table("win_by_turn", hands=hands, draws=6, rules=["classical", None])
    assert len(t) == 2 * 2 * 6
    for rules in ("classical", None):
        for h in hands:
            rows = t.select(rules=rules, hand=h).rows
            direct = mjfast.win_by_turn(h, draws=6, rules=rules)
            assert [r["win"] for r in rows] == list(direct.win_p) and [r["t"] for r in rows] == list(range(1, 7))
            assert all(r["method"] == "exact" and r["start_shanten"] == direct.shanten for r in rows)
    mc = odds_table("win_by_turn", hands="12m456p789s11z34p5z", method="monte_carlo", samples=5000, seed=1,
                    draws=4, progress=False)
    direct = mjfast.win_by_turn("12m456p789s11z34p5z", method="monte_carlo", samples=5000, seed=1, draws=4,
                                progress=False)
    assert mc.column("win") == [e.p for e in direct.win] and mc.column("hands") == [5000] * 4


def test_win_by_turn_random_rows():
    a = odds_table("win_by_turn", samples=10_000, draws=8, seed=5, progress=False)
    b = odds_table("win_by_turn", samples=10_000, draws=8, seed=5, progress=False, threads=1)
    assert a.rows == b.rows
    groups = {r["start_shanten"]: r["hands"] for r in a.rows}
    assert sum(groups.values()) == 10_000
    assert len(a) == 8 * len(groups)
    for r in a.rows:
        assert r["win_low"] <= r["win"] <= r["win_high"] and r["win"] <= r["tenpai"]
    with pytest.raises(ValueError, match="Monte Carlo only"):
        odds_table("win_by_turn", method="exact")


def test_win_rate_rows_are_the_simulation():
    t = odds_table("win_rate", games=300, seed=4, policies=["greedy", "random", "greedy", "defensive"], progress=False)
    res = mjfast.simulate(300, seed=4, policies=["greedy", "random", "greedy", "defensive"], progress=False)
    assert t.column("policy") == ["greedy", "random", "greedy", "defensive"]
    for r in t.rows:
        e = res.win_rate(r["seat"])
        assert (r["wins"], r["hands"], r["win_rate"], r["win_rate_low"]) == (int(res.wins[r["seat"]]), e.n, e.p, e.low)
        assert r["mean_points"] == res.mean_points(r["seat"]).mean
    assert sum(r["mean_points"] for r in t.rows) == pytest.approx(0, abs=1e-9)


def test_win_rate_by_policy_pools_the_seats():
    pols = ["greedy", "random", "greedy", "defensive"]
    t = odds_table("win_rate", games=200, seed=6, policies=pols, by="policy", progress=False)
    res = mjfast.simulate(200, seed=6, policies=pols, progress=False)
    assert t.column("policy") == ["defensive", "greedy", "random"] and t.column("seat") == [None] * 3
    g = t.select(policy="greedy").rows[0]
    assert g["hands"] == 2 * res.hands and g["wins"] == int(res.wins[0] + res.wins[2])
    assert g["self_draw_wins"] == int(res.self_draw_wins[0] + res.self_draw_wins[2])
    with pytest.raises(ValueError, match="unknown by"):
        odds_table("win_rate", games=10, by="table")


def test_exports_round_trip(tmp_path):
    t = odds_table("win_by_turn", hands="123m456p789s1122z", draws=3)
    rows = list(csv.DictReader(io.StringIO(t.to_csv())))
    assert len(rows) == 3 and [float(r["win"]) for r in rows] == t.column("win")
    assert rows[0]["hands"] == ""            # None -> empty cell
    data = json.loads(t.to_json())
    assert data["kind"] == "win_by_turn" and data["columns"] == list(t.columns) and data["rows"][2]["t"] == 3
    md = t.to_markdown()
    lines = md.strip().splitlines()
    assert len(lines) == 2 + 3 and lines[0].startswith("| rules |") and set(lines[1]) <= set("|-:")
    assert "odds table: win_by_turn" in str(t)
    p = tmp_path / "t.csv"
    t.to_csv(p)
    assert p.read_text() == t.to_csv()
    d = odds_table("deal")
    assert json.loads(d.to_json())["rows"][0]["one_in"] > 1   # finite floats stay numbers
    assert t.to_records() == t.rows and t.to_records() is not t.rows


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    t = odds_table("deal")
    df = t.to_pandas()
    assert isinstance(df, pd.DataFrame) and list(df.columns) == list(t.columns) and len(df) == len(t)
    assert df["p"].dtype.kind == "f" and df.groupby("seat")["p"].sum().round(12).tolist() == [1.0, 1.0]


def test_as_frame():
    pd = pytest.importorskip("pandas")
    df = odds_table("win_by_turn", hands="123m456p789s1122z", draws=3, as_frame=True)
    assert isinstance(df, pd.DataFrame) and df["t"].tolist() == [1, 2, 3]
    assert df.attrs["draws"] == 3


def test_to_pandas_without_pandas(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r'mjfast\[pandas\]'):
        odds_table("deal").to_pandas()


def test_exact_american_deal_odds_table():
    """Every odds-table kind works where the numbers exist: exact American deal odds are
    exact_deal_odds("american") row for row."""
    import mjfast
    t = odds_table("deal", rules="american")
    assert {r["method"] for r in t.rows} == {"exact"} and {r["form"] for r in t.rows} == {"beginner"}
    for seat, tiles in (("dealer", 14), ("non_dealer", 13)):
        want = mjfast.exact_deal_odds("american", tiles=tiles, form="beginner")["shanten"]
        got = {r["shanten"]: r["exact"] for r in t.rows if r["seat"] == seat}
        assert got == {int(s): f"{p.numerator}/{p.denominator}" for s, p in want.items()}


def test_errors():
    with pytest.raises(ValueError, match="unknown kind"):
        odds_table("odds")
    with pytest.raises(ValueError, match="unknown method"):
        odds_table("deal", method="magic")
    with pytest.raises(KeyError, match="no column"):
        odds_table("deal").column("nope")
    assert isinstance(odds_table("deal").select(seat="nobody"), OddsTable)


def test_cli_odds_table(capsys, tmp_path):
    assert cli.main(["odds-table", "deal", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {r["seat"] for r in rows} == {"dealer", "non_dealer"}
    assert cli.main(["odds-table", "win-by-turn", "--hand", "123m456p789s1122z", "--draws", "3", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["t"] for r in data["rows"]] == [1, 2, 3]
    assert cli.main(["odds-table", "win-rate", "--games", "50", "--seed", "1", "--format", "markdown",
                     "--no-progress", "--output", str(tmp_path / "w.md")]) == 0
    assert (tmp_path / "w.md").read_text().startswith("| rules | seat |")
    assert cli.main(["odds-table", "win-by-turn", "-n", "2000", "--draws", "4", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "start_shanten" in captured.out and "--seed" in captured.err     # fresh seed announced
    assert cli.main(["odds-table", "deal", "--rules", "american", "--format", "json"]) == 0
    assert {r["method"] for r in json.loads(capsys.readouterr().out)["rows"]} == {"exact"}
    assert cli.main(["odds-table", "win-rate", "--games", "40", "--seed", "2", "--by", "policy",
                     "--policies", "greedy,random,greedy,random", "--format", "csv", "--no-progress"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["policy"] for r in rows] == ["greedy", "random"] and rows[0]["seat"] == ""
    with pytest.raises(SystemExit):
        cli.main(["odds-table", "deal", "-n", "0"])


def test_cli_odds_table_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "deal.png"
    assert cli.main(["odds-table", "deal", "--plot", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
