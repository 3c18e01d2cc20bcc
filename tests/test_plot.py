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
    with pytest.warns(UserWarning, match=r"not drawn, fewer than 100 hands \(min_hands\)"):   # the rare start shantens
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


# ---------------------------------------------------------------- legends, axes, groups

def _extent(artist):
    return artist.get_window_extent(artist.figure.canvas.get_renderer())


def _draw(fig):
    """Lay the figure out and render it with Agg (the figures are built without pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.canvas.draw()


def _legend_clear_of_data(ax):
    """The legend lies outside the axes (so it cannot cover data) and inside the figure."""
    fig = ax.figure
    _draw(fig)
    leg = ax.get_legend()
    assert leg is not None
    lb, ab, fb = _extent(leg), _extent(ax), fig.bbox
    assert not lb.overlaps(ab), (lb, ab)
    assert lb.x0 >= ab.x1
    assert lb.x0 >= fb.x0 - 1 and lb.x1 <= fb.x1 + 1 and lb.y0 >= fb.y0 - 1 and lb.y1 <= fb.y1 + 1, (lb, fb)


def _data_y(ax):
    ys = []
    for line in ax.lines:
        ys += [float(y) for y in line.get_ydata()]
    for patch in ax.patches:
        ys.append(patch.get_height())
    for coll in ax.collections:
        for path in coll.get_paths():
            ys += [float(v) for v in path.vertices[:, 1]]
    return ys


def _fits(ax, squash_ok=False):
    lo, hi = ax.get_ylim()
    ys = _data_y(ax)
    assert ys and all(lo - 1e-12 <= y <= hi + 1e-12 for y in ys), (lo, hi, min(ys), max(ys))
    if ax.get_yscale() == "linear":
        assert lo == 0 and hi <= 1
        assert max(ys) >= 0.8 * hi, (max(ys), hi)            # the data fills the axis, not a corner of [0, 1]
    else:
        positive = [y for y in ys if y > 0]
        assert lo <= min(positive) and hi >= max(positive) and hi / max(positive) <= 2.01
    xs = [x for line in ax.lines for x in line.get_xdata()] + [p.get_x() + p.get_width() / 2 for p in ax.patches]
    xlo, xhi = ax.get_xlim()
    assert all(xlo <= x <= xhi for x in xs)


def test_legends_outside_and_axes_fit():
    deal = plot.shanten_distribution(mjfast.odds_table("deal", rules=["classical", "basic"]))
    _legend_clear_of_data(deal)
    _fits(deal)
    lin = plot.shanten_distribution(mjfast.deal_stats(20_000, rules="mcr", seed=1, progress=False), log=False)
    _legend_clear_of_data(lin)
    _fits(lin)
    # small probabilities: the axis is scaled to them (it used to be fixed at [0, 1])
    curves = plot.win_by_turn(mjfast.odds_table("win_by_turn", hands=["123m456p789s1123z", "123m456p789s1122z"],
                                                draws=4))
    _legend_clear_of_data(curves)
    _fits(curves)
    assert curves.get_ylim()[1] < 0.2
    mc = mjfast.win_by_turn("12m456p789s11z34p5z", draws=6, method="monte_carlo", samples=3000, seed=1, progress=False)
    banded = plot.win_by_turn(mc)
    _fits(banded)                                            # the 95% band is inside the axis too
    rates = plot.win_rates(mjfast.odds_table("win_rate", rules=["classical", "basic"], games=60, seed=2,
                                             progress=False))
    _legend_clear_of_data(rates)
    _fits(rates)
    assert rates.get_ylim()[1] < 0.6


def test_small_groups_are_named_not_dropped():
    rnd = mjfast.win_by_turn_random(3000, draws=6, seed=5, progress=False)
    small = {s: n for s, n in rnd.shanten_counts.items() if n < 100}
    assert small                                              # some start shantens are rare
    with pytest.warns(UserWarning) as rec:
        ax = plot.win_by_turn(rnd)
    text = str(rec[0].message)
    for s, n in small.items():
        assert f"start shanten {s} ({n:,} hand" in text
    legend = " ".join(t.get_text() for t in ax.get_legend().get_texts())
    assert "not drawn (fewer than 100 hands)" in legend
    assert len(ax.lines) == len(rnd.shanten_counts) - len(small)
    _legend_clear_of_data(ax)
    with pytest.raises(ValueError, match="every group has fewer than min_hands=10000"):
        with pytest.warns(UserWarning):
            plot.win_by_turn(rnd, min_hands=10_000)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")                          # min_hands=1: everything drawn, no warning
        assert len(plot.win_by_turn(rnd, min_hands=1).lines) == len(rnd.shanten_counts)


def test_every_rule_set_drawn_or_named():
    both = mjfast.odds_table("deal", rules=["classical", "mcr"], method="monte_carlo", samples=20_000, seed=1,
                             progress=False)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ax = plot.shanten_distribution(both)                  # classical's one form is its "all"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert sum(lab.startswith("classical") for lab in labels) == 2 and sum(lab.startswith("mcr") for lab in labels) == 2
    with pytest.warns(UserWarning, match="no form 'seven_pairs' in the table for classical dealer, classical non-dealer"):
        ax = plot.shanten_distribution(both, form="seven_pairs")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("not drawn" in lab and "classical" in lab for lab in labels)
    assert sum(lab.startswith("mcr") for lab in labels) == 2


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_cli_plot_writes_the_legend_into_the_file(tmp_path):
    import json
    import os

    import _proc

    out = tmp_path / "rates.png"
    env = dict(os.environ, MPLBACKEND="Agg")
    r = _proc.run([sys.executable, "-m", "mjfast", "odds-table", "win-rate", "--rules", "classical,basic", "-n", "40",
                   "--seed", "1", "--plot", str(out), "--format", "json"], capture_output=True, text=True, env=env,
                  timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["kind"] == "win_rate" and out.read_bytes()[:8] == PNG
    bad = _proc.run([sys.executable, "-m", "mjfast", "odds-table", "mcr-fans", "--plot", str(out)],
                    capture_output=True, text=True, env=env, timeout=300)
    assert bad.returncode == 2 and "--plot does not apply to odds-table mcr-fans" in bad.stderr
    small = _proc.run([sys.executable, "-m", "mjfast", "odds-table", "win-by-turn", "-n", "3000", "--draws", "3",
                       "--seed", "1", "--plot", str(out)], capture_output=True, text=True, env=env, timeout=300)
    assert small.returncode == 0, small.stderr
    notes = [ln for ln in small.stderr.splitlines() if ln.startswith("mjfast: note: ")]
    assert len(notes) == 1 and "not drawn, fewer than 100 hands: start shanten" in notes[0], small.stderr
    assert notes[0].endswith("a larger -n draws them") and "Warning" not in small.stderr
