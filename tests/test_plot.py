"""mjfast.plot: every plot renders to a PNG with the non-interactive backend."""
from __future__ import annotations

import sys

import pytest

import mjfast

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from matplotlib.axes import Axes  # noqa: E402

from mjfast import plot  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def _save(ax, path):
    assert isinstance(ax, Axes)
    ax.figure.savefig(path)
    data = path.read_bytes()
    assert data[:8] == PNG and len(data) > 5000
    return data


def test_shanten_distribution(tmp_path):
    ax = plot.shanten_distribution(mjfast.odds_table("deal", rules=["classical", "basic"]))
    _save(ax, tmp_path / "deal.png")
    assert len(ax.patches) > 10 and ax.get_yscale() == "log"
    st = mjfast.deal_stats(20_000, rules="mcr", seed=1, progress=False)
    ax = plot.shanten_distribution(st, log=False)
    _save(ax, tmp_path / "deal_mc.png")
    assert ax.get_yscale() == "linear"
    with pytest.raises(ValueError, match="kind 'deal'"):
        plot.shanten_distribution(mjfast.odds_table("win_by_turn", hands="123m456p789s1122z", draws=2))


def test_win_by_turn_curves(tmp_path):
    exact = mjfast.win_by_turn("12m456p789s11z34p5z", draws=10)
    mc = mjfast.win_by_turn("12m456p789s11z34p5z", draws=10, method="monte_carlo", samples=5000, seed=1, progress=False)
    ax = plot.win_by_turn([exact, mc])
    _save(ax, tmp_path / "curves.png")
    assert len(ax.lines) == 2 and len(ax.collections) == 1      # a band for the Monte Carlo curve only
    rnd = mjfast.win_by_turn_random(20_000, draws=10, seed=2, progress=False)
    ax = plot.win_by_turn(rnd, which="tenpai")
    _save(ax, tmp_path / "random.png")
    assert len(ax.lines) == sum(1 for c in rnd.shanten_counts.values() if c >= 100)
    table = mjfast.odds_table("win_by_turn", samples=10_000, draws=8, seed=3, progress=False)
    _save(plot.win_by_turn(table, min_hands=1), tmp_path / "table.png")
    with pytest.raises(ValueError, match="which"):
        plot.win_by_turn(exact, which="lose")
    with pytest.raises(TypeError):
        plot.win_by_turn(["not a result"])


def test_win_rate_bars(tmp_path):
    res = mjfast.simulate(200, seed=1, policies=["greedy", "random", "greedy", "defensive"], progress=False)
    ax = plot.win_rates(res)
    _save(ax, tmp_path / "rates.png")
    assert len(ax.patches) == 4
    assert "random" in ax.get_xticklabels()[1].get_text()
    table = mjfast.odds_table("win_rate", rules=["classical", "basic"], games=100, seed=2, progress=False)
    ax = plot.win_rates(table)
    _save(ax, tmp_path / "rates2.png")
    assert len(ax.patches) == 8
    pooled = mjfast.odds_table("win_rate", games=100, seed=2, policies=["greedy", "random", "greedy", "random"],
                               by="policy", progress=False)
    ax = plot.win_rates(pooled)
    _save(ax, tmp_path / "rates3.png")
    assert len(ax.patches) == 2 and [t.get_text() for t in ax.get_xticklabels()] == ["greedy", "random"]


def test_plot_table_writes_the_file(tmp_path):
    out = tmp_path / "t.png"
    fig = plot.plot_table(mjfast.odds_table("win_by_turn", hands="123m456p789s1122z", draws=5), out)
    assert out.read_bytes()[:8] == PNG and fig.axes
    with pytest.raises(TypeError):
        plot.plot_table("deal")


def test_missing_matplotlib_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r'mjfast\[plot\]'):
        plot.shanten_distribution(mjfast.odds_table("deal"))
