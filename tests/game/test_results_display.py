"""Results in notebooks: a rounded summary table as repr, an HTML table for
Jupyter, to_pandas() with typed columns (pandas optional) and JSON-ready to_dict(), for every
result type."""
from __future__ import annotations

import doctest
import html.parser
import json
import math
import re
import sys

import pytest

import mjfast
from mjfast import _display as D
from mjfast import mcr
from mjfast.stats import Estimate, Mean

_FLOAT = re.compile(r"\d[\d,]*\.\d+(?:e[-+]?\d+)?")


def _long_floats(text: str) -> list:
    """Floats printed with more than 6 significant digits (17-digit reprs and the like)."""
    out = []
    for m in _FLOAT.findall(text):
        digits = m.split("e")[0].replace(",", "").replace(".", "").lstrip("0")
        if len(digits) > 6:
            out.append(m)
    return out


@pytest.fixture(scope="module")
def results():
    sim_mcr = mjfast.simulate(20, rules="mcr", seed=1, progress=False,
                              policies=["greedy", "random", "greedy", "defensive"])
    return {
        "SimResult": mjfast.simulate(40, seed=1, progress=False),
        "SimResult duplicate": mjfast.simulate(10, seed=1, progress=False, duplicate=True),
        "SimResult mcr": sim_mcr,
        "FanStats": sim_mcr.fans,
        "AmericanSimResult": mjfast.simulate(12, rules="american", seed=1, progress=False),
        "Comparison": mjfast.compare("greedy", "random", 8, seed=3, progress=False),
        "PassEffect": mjfast.charleston_effect(8, options="courtesy", seed=2, progress=False)["courtesy"],
        "Deals": mjfast.deal(9, seed=1),
        "Deals american": mjfast.deal(3, rules="american", seed=1, ids=True),
        "DealStats": mjfast.deal_stats(3000, seed=1, progress=False),
        "DealStats mcr": mjfast.deal_stats(3000, rules="mcr", seed=1, progress=False),
        "DealStats american": mjfast.deal_stats(3000, rules="american", seed=1, progress=False),
        "WinByTurn exact": mjfast.win_by_turn("12m456p789s11z34p5z", draws=6),
        "WinByTurn monte_carlo": mjfast.win_by_turn("12m456p789s11z34p5z", draws=6, method="monte_carlo",
                                                    samples=3000, seed=1, progress=False),
        "WinByTurnByShanten": mjfast.win_by_turn_random(2000, draws=5, seed=1, progress=False),
        "HandAnalysis 14": mjfast.analyze("123m456p789s11223z", visible="3z"),
        "HandAnalysis 13": mjfast.analyze("123m456p1z [555z]", visible="1z"),
        "HandAnalysis mcr 13": mjfast.analyze("12345678m [999p] 11z", rules="mcr"),
        "HandAnalysis mcr 14": mjfast.analyze("12345678m [999p] 11z5z", rules="mcr"),
        "OddsTable deal": mjfast.odds_table("deal"),
        "OddsTable win_rate": mjfast.odds_table("win_rate", games=10, seed=1, progress=False, by="policy"),
        "FanResult": mcr.fan("123456789m11z [555z]", win_tile="9m"),
        "FanResult not a win": mcr.fan("123456789m12z [555z]", win_tile="9m"),
    }


NAMES = ["SimResult", "SimResult duplicate", "SimResult mcr", "FanStats", "AmericanSimResult", "Comparison", "PassEffect",
         "Deals", "Deals american", "DealStats", "DealStats mcr", "DealStats american", "WinByTurn exact",
         "WinByTurn monte_carlo", "WinByTurnByShanten", "HandAnalysis 14", "HandAnalysis 13", "HandAnalysis mcr 13",
         "HandAnalysis mcr 14", "OddsTable deal", "OddsTable win_rate", "FanResult", "FanResult not a win"]


@pytest.mark.parametrize("name", NAMES)
def test_repr_is_a_rounded_summary_table(results, name):
    obj = results[name]
    text = repr(obj)
    # results are one SimResult class; those of American games keep the title "AmericanSimResult"
    title = "AmericanSimResult" if name == "AmericanSimResult" else type(obj).__name__
    assert text.startswith(title + ":"), text[:80]
    assert not _long_floats(text), _long_floats(text)
    if name != "FanResult not a win":
        assert len(text.splitlines()) >= 3
    assert str(obj)           # str() keeps its own (CLI) table where a class has one


class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.open: list = []
        self.seen: set = set()

    def handle_starttag(self, tag, attrs):
        if tag != "br":
            self.open.append(tag)
        self.seen.add(tag)

    def handle_endtag(self, tag):
        assert self.open and self.open.pop() == tag, tag


@pytest.mark.parametrize("name", NAMES)
def test_html_for_jupyter(results, name):
    obj = results[name]
    out = obj._repr_html_()
    tags = _Tags()
    tags.feed(out)
    assert not tags.open                                       # well nested, every tag closed
    assert ("table" in tags.seen) == (name != "FanResult not a win")
    assert not _long_floats(out), _long_floats(out)
    assert type(obj).__name__ in out


def _plain(x) -> bool:
    """Only what JSON holds: dicts with str keys, lists, str, int, float, bool, None."""
    if isinstance(x, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in x.items())
    if isinstance(x, list):
        return all(_plain(v) for v in x)
    return x is None or type(x) in (str, int, float, bool)


@pytest.mark.parametrize("name", NAMES)
def test_to_dict_is_json(results, name):
    d = results[name].to_dict()
    assert isinstance(d, dict) and _plain(d)
    back = json.loads(json.dumps(d))
    assert set(back) == set(d)


def test_to_dict_of_the_new_ones(results):
    d = results["Deals"].to_dict()
    assert d["n"] == 9 and d["seed"] == 1 and len(d["hands"]) == 9 and d["ids"] is None
    assert sum(d["hands"][0][0]) == 14 and results["Deals american"].to_dict()["ids"] is not None
    w = results["WinByTurnByShanten"].to_dict()
    assert sum(w["shanten_counts"].values()) == 2000 and all(len(v) == 5 for v in w["win"].values())
    t = results["OddsTable deal"].to_dict()
    assert t["kind"] == "deal" and t == json.loads(results["OddsTable deal"].to_json())


# -- pandas --------------------------------------------------------------------------------

EXPECT = {   # a few columns and their dtypes per result
    "SimResult": {"seat": "int64", "policy": "str", "wins": "int64", "win_rate": "float64", "claims_chow": "int64"},
    "SimResult duplicate": {"seat": "int64", "policy": "str", "mean_points": "float64"},
    "SimResult mcr": {"wins": "int64", "deal_in_rate_high": "float64"},
    "FanStats": {"fan": "str", "chinese": "str", "value": "int64", "count": "int64", "p": "float64"},
    "AmericanSimResult": {"claims_quad": "int64", "jokerless_share": "float64", "mean_distance_after": "float64"},
    "Comparison": {"statistic": "str", "mean": "float64", "n": "int64"},
    "PassEffect": {"statistic": "str", "seat": "Int64", "mean": "float64"},
    "Deals": {"deal": "int64", "seat": "int64", "tiles": "int64", "1m": "uint8", "7z": "uint8", "f1": "uint8",
              "jokers": "uint8"},
    "Deals american": {"tiles": "int64", "f8": "uint8"},
    "DealStats": {"seat": "str", "shanten": "int64", "count": "int64", "p": "float64", "one_in": "float64"},
    "DealStats mcr": {"form": "str", "count": "int64"},
    "DealStats american": {"shanten": "int64"},
    "WinByTurn exact": {"t": "int64", "win": "float64", "win_se": "float64"},
    "WinByTurn monte_carlo": {"t": "int64", "win_low": "float64"},
    "WinByTurnByShanten": {"start_shanten": "int64", "hands": "int64", "tenpai": "float64"},
    "HandAnalysis 14": {"discard": "str", "shanten": "int64", "tile": "str", "unseen": "int64", "wait": "bool"},
    "HandAnalysis 13": {"discard": "str", "unseen": "int64"},
    "HandAnalysis mcr 13": {"fan_discard": "Int64", "valid_self_drawn": "boolean"},
    "HandAnalysis mcr 14": {"fan_self_drawn": "Int64", "valid_discard": "boolean"},
    "OddsTable deal": {"shanten": "int64", "p": "float64", "count": "Int64", "exact": "str"},
    "OddsTable win_rate": {"seat": "Int64", "wins": "int64", "win_rate": "float64"},
    "FanResult": {"fan": "str", "value": "int64", "fans": "int64"},
    "FanResult not a win": {"fan": "str", "value": "int64"},
}


def _dtype_name(dt, pd) -> str:
    if pd.api.types.is_string_dtype(dt) and dt is not object and str(dt) != "object":
        return "str"
    return str(dt)


@pytest.mark.parametrize("name", NAMES)
def test_to_pandas_types_its_columns(results, name):
    pd = pytest.importorskip("pandas")
    obj = results[name]
    df = obj.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert (len(df) == 0) == (name == "FanResult not a win")
    assert not [c for c in df.columns if df[c].dtype == object], df.dtypes
    for col, want in EXPECT[name].items():
        assert _dtype_name(df[col].dtype, pd) == want, (col, df[col].dtype)
    json.dumps(df.attrs)
    if name.startswith("SimResult") or name.startswith("American"):
        assert df.attrs["games"] == obj.games and len(df) == 4


def test_to_pandas_contents(results):
    pytest.importorskip("pandas")
    sim = results["SimResult"]
    df = sim.to_pandas()
    assert df["wins"].tolist() == sim.wins.tolist() and df["win_rate"].tolist() == [sim.win_rate(s).p for s in range(4)]
    by = results["SimResult mcr"].to_pandas(by="policy")
    assert "seat" not in by.columns and sorted(by["policy"]) == ["defensive", "greedy", "random"]
    with pytest.raises(ValueError, match="by must be"):
        sim.to_pandas(by="table")
    st = results["DealStats"]
    ds = st.to_pandas()
    assert ds.groupby(["seat", "form"])["count"].sum().tolist() == [3000, 3000, 3000, 3000]
    assert ds.attrs["n"] == 3000 and ds.attrs["seed"] == 1
    deals = results["Deals"]
    dd = deals.to_pandas(text=True)
    assert dd.shape == (36, 47) and dd["tiles"].tolist()[:4] == [14, 13, 13, 13]
    assert dd["hand"][5] == deals.hand_text(1, 1) and dd.attrs["rules"] == "classical"
    am = results["Deals american"].to_pandas()
    assert set(am["tiles"]) == {13, 14}                          # flowers and jokers count in the American hand
    wb = results["WinByTurn exact"].to_pandas()
    assert wb["win"].tolist() == results["WinByTurn exact"].win_p.tolist() and wb.attrs["method"] == "exact"
    ha = results["HandAnalysis 14"].to_pandas()
    assert ha[ha["discard"] == "3z"][["tile", "unseen", "wait"]].to_dict("list") == {
        "tile": ["1z", "2z"], "unseen": [2, 2], "wait": [True, True]}
    hm = results["HandAnalysis mcr 13"].to_pandas()
    assert hm["fan_discard"].tolist() == [3, 3, 18] and hm["discard"].isna().all()
    fr = results["FanResult"].to_pandas()
    assert int(fr["fans"].sum()) == results["FanResult"].total
    fs = results["FanStats"].to_pandas()
    assert len(fs) == len(mcr.FANS) and fs["count"].is_monotonic_decreasing
    od = results["OddsTable deal"].to_pandas()
    assert od["count"].isna().all() and od.groupby("seat")["p"].sum().round(12).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("name", NAMES)
def test_to_pandas_without_pandas_says_how_to_install(results, name, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r'pip install "mjfast\[pandas\]"'):
        results[name].to_pandas()


def test_pandas_is_an_optional_extra():
    import pathlib

    tomllib = pytest.importorskip("tomllib")      # Python 3.11+
    meta = tomllib.loads((pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    assert not any(d.startswith("pandas") for d in meta["dependencies"])
    assert any(d.startswith("pandas") for d in meta["optional-dependencies"]["pandas"])


# -- the shared helper ---------------------------------------------------------------------

def test_fmt_rounds_to_four_significant_digits():
    assert [D.fmt(x) for x in (0.1 + 0.2, 2 / 3, 1234.5678, 12.3456, 1e-5 / 3, 0.0, -0.25)] == [
        "0.3", "0.6667", "1,235", "12.35", "3.333e-06", "0", "-0.25"]
    assert [D.fmt(x) for x in (None, True, 1234567, math.nan, math.inf, "text")] == [
        "", "yes", "1,234,567", "nan", "inf", "text"]


def test_long_tables_are_clipped_and_wide_characters_aligned():
    rows = [(i, i / 7) for i in range(100)]
    text = D.render_text(D.Display("t", [D.Table(("i", "x"), rows)]))
    lines = text.splitlines()
    assert len(lines) == 2 + D.MAX_ROWS + 1 and any("..." in ln for ln in lines) and lines[-1].split()[0] == "99"
    html_text = D.render_html(D.Display("t", [D.Table(("i", "x"), rows)]))
    assert html_text.count("<tr>") == D.MAX_ROWS + 2 and "&hellip;" in html_text
    wide = D.render_text(D.Display("", [D.Table(("fan", "n"), [("清龙", 1), ("a", 22)])]))
    a, b = wide.splitlines()[1:]
    assert D.text_width(a) == D.text_width(b)
    assert "&lt;b&gt;" in D.render_html(D.Display("<b>", []))   # escaped


def test_estimate_and_mean_reprs_are_rounded():
    e = Estimate.from_counts(1, 3)
    assert repr(e) == "Estimate(count=1, n=3, p=0.333333, se=0.272166, low=0.0614919, high=0.79234)"
    assert repr(Mean(2 / 3, 0.1, 10)) == "Mean(mean=0.666667, se=0.1, n=10)"


def test_ipython_pretty_printing_is_the_table(results):
    class P:
        def text(self, s):
            self.out = s

    p = P()
    results["Comparison"]._repr_pretty_(p, False)
    assert p.out == repr(results["Comparison"])


@pytest.mark.parametrize("name", ["mjfast._display", "mjfast._runtime.validation", "mjfast.game.results",
                                  "mjfast.stats"])
def test_docstring_examples(name):
    mod = __import__(name, fromlist=["_"])
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0 and res.attempted > 0
