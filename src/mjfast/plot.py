"""Publication plots of deal odds, win-by-turn curves and win rates (matplotlib, optional).

Install the extra with ``pip install "mjfast[plot]"``. matplotlib is imported only when a
plot is drawn. Figures are built with :class:`matplotlib.figure.Figure` (no pyplot state, no
GUI backend needed: they render headless and display in notebooks); every function draws
into ``ax`` when given and returns the Axes (``ax.figure`` is the Figure).

Inputs are the tables of :func:`mjfast.odds_table` or the result objects they come from:

* :func:`shanten_distribution`: ``odds_table("deal")`` or a :class:`~mjfast.DealStats`;
* :func:`win_by_turn`: ``odds_table("win_by_turn")``, a :class:`~mjfast.WinByTurn`, a list of
  them, or a :class:`~mjfast.analysis.winturn.WinByTurnByShanten`; shaded bands are 95% intervals;
* :func:`win_rates`: ``odds_table("win_rate")`` or a :class:`~mjfast.SimResult`; error bars are
  95% intervals;
* :func:`plot_table` picks the right one for a table and can save it to a file.

Legends sit outside the axes, to their right, so they never cover data (a figure of one's own
passed as ``ax`` needs ``layout="constrained"`` or ``savefig(..., bbox_inches="tight")`` to
keep them on the page); the value axes are scaled to the data and its intervals; a group too
small to draw (win-by-turn curves of fewer than ``min_hands`` hands) is named in the legend
and in a :class:`UserWarning`, never dropped silently.
"""
from __future__ import annotations

import math
import numbers
import textwrap
import warnings
from collections.abc import Callable
from typing import Any

from ._runtime.validation import check_flag
from .analysis.odds import DEAL_COLUMNS, OddsTable
from .analysis.winturn import WinByTurn, WinByTurnByShanten
from .deals import DealStats
from .game import SimResult

__all__ = ["plot_table", "shanten_distribution", "win_by_turn", "win_rates"]

#: the message of a missing matplotlib (the command line gives it before any work)
INSTALL_HINT = 'mjfast.plot needs matplotlib; install it with pip install "mjfast[plot]"'


def _figure_axes(ax, figsize=(8.0, 4.2)):
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(INSTALL_HINT) from exc
    if ax is not None:
        from matplotlib.axes import Axes

        if not isinstance(ax, Axes):
            raise TypeError(f"ax must be a matplotlib Axes or None, not {type(ax).__name__}")
        return ax
    fig = Figure(figsize=figsize, layout="constrained")
    return fig.add_subplot()


_check_flag = check_flag


def _legend_outside(ax, notes=()) -> None:
    """The legend to the right of the axes (it cannot cover data), with ``notes`` (text without
    a marker: groups not drawn) as extra entries."""
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    for note in notes:
        handles.append(Line2D([], [], linestyle="none", marker=""))
        labels.append(note)
    if handles:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                  fontsize="small", frameon=False)


def _fit_probability_axis(ax, values) -> None:
    """A linear probability axis from 0 to a little above the highest value (interval ends
    included), never past 1: small curves are not squashed at the bottom of [0, 1]."""
    top = max([v for v in values if v is not None and math.isfinite(v)] + [0.0])
    ax.set_ylim(0.0, min(1.0, top * 1.08) if top > 0 else 1.0)


def _as_table(data, kind: str):
    if isinstance(data, OddsTable):
        if data.kind != kind:
            raise ValueError(f"expected an odds table of kind {kind!r}, got {data.kind!r}")
        return data
    return None


def shanten_distribution(data: Any, *, ax=None, form: str | None = None, log: bool = True):
    """Bar chart of the shanten distribution of dealt hands, per rule set and seat.

    Parameters
    ----------
    data : OddsTable of kind "deal", or DealStats
    ax : matplotlib Axes, optional
    form : str, optional
        Which form's distribution ("all" by default when present, else the only form).
    log : bool, default True
        Logarithmic probability axis (complete hands are rare).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import mjfast, mjfast.plot
    >>> ax = mjfast.plot.shanten_distribution(mjfast.odds_table("deal"))   # doctest: +SKIP
    >>> ax.figure.savefig("deal_odds.png")                                  # doctest: +SKIP
    """
    if form is not None and not isinstance(form, str):
        raise TypeError(f"form must be a str or None, not {type(form).__name__}")
    _check_flag("log", log)
    table = _as_table(data, "deal")
    if table is None:
        if not isinstance(data, DealStats):
            raise TypeError(f"cannot plot a {type(data).__name__} as a shanten distribution; "
                            "give an odds_table('deal') or a DealStats")

        rows = []
        for seat, n_tiles in (("dealer", 14), ("non_dealer", 13)):
            f = form or "all"
            for s, e in data.shanten_estimates(seat, f).items():
                rows.append({"rules": data.rules, "seat": seat, "tiles": n_tiles, "form": f, "shanten": int(s),
                             "p": e.p, "se": e.se, "low": e.low, "high": e.high, "one_in": e.one_in,
                             "count": e.count, "n": e.n, "exact": None, "method": "monte_carlo"})
        table = OddsTable("deal", DEAL_COLUMNS, rows)
    forms = list(dict.fromkeys(table.column("form")))
    f = form or "all"
    rows, missing = [], []
    for group in dict.fromkeys((r["rules"], r["seat"]) for r in table.rows):
        g_rows = [r for r in table.rows if (r["rules"], r["seat"]) == group]
        g_forms = list(dict.fromkeys(r["form"] for r in g_rows))
        # "all" of a rule set with one form (classical, basic) is that form
        g_form = g_forms[0] if f == "all" and "all" not in g_forms and len(g_forms) == 1 else f
        of_form = [r for r in g_rows if r["form"] == g_form]
        if of_form:
            rows += of_form
        else:
            missing.append(group)
    if not rows:
        raise ValueError(f"no rows of form {f!r}; forms in the table: {forms}")
    notes = []
    if missing:         # never silently: a rule set without that form is named
        listed = ", ".join(f"{rules} {seat.replace('_', '-')}" for rules, seat in missing)
        warnings.warn(f"shanten_distribution: not drawn, no form {f!r} in the table for {listed}",
                      UserWarning, stacklevel=2)
        notes.append(textwrap.fill(f"not drawn (no form {f}): {listed}", 34))
    ax = _figure_axes(ax)
    groups = list(dict.fromkeys((r["rules"], r["seat"]) for r in rows))
    shantens = sorted({r["shanten"] for r in rows})
    width = 0.8 / len(groups)
    for gi, (rules, seat) in enumerate(groups):
        sel = {r["shanten"]: r for r in rows if (r["rules"], r["seat"]) == (rules, seat)}
        xs = [i + (gi - (len(groups) - 1) / 2) * width for i, s in enumerate(shantens) if s in sel]
        ps = [sel[s]["p"] for s in shantens if s in sel]
        lo = [sel[s]["p"] - sel[s]["low"] for s in shantens if s in sel]
        hi = [sel[s]["high"] - sel[s]["p"] for s in shantens if s in sel]
        label = f"{rules}, {seat.replace('_', '-')} ({sel[next(iter(sel))]['tiles']} tiles)"
        ax.bar(xs, ps, width=width, label=label, yerr=[lo, hi] if any(lo) or any(hi) else None, capsize=2)
    ax.set_xticks(range(len(shantens)), [("complete" if s == -1 else str(s)) for s in shantens])
    ax.set_xlim(-0.6, len(shantens) - 0.4)
    ax.set_xlabel("shanten of the dealt hand")
    ax.set_ylabel("probability")
    positive = [v for r in rows for v in (r["p"], r["low"], r["high"]) if v is not None and v > 0]
    if log:
        ax.set_yscale("log")
        # from a factor 2 below the smallest probability (or interval end) to 2x the largest
        ax.set_ylim(min(positive) / 2, min(1.0, max(positive) * 2))
    else:
        _fit_probability_axis(ax, positive)
    ax.set_title(f"Shanten of dealt hands (form: {f})")
    _legend_outside(ax, notes)
    return ax


def win_by_turn(data: Any, *, ax=None, which: str = "win", bands: bool = True, min_hands: int = 100):
    """Curves of P(won by draw t) (or P(tenpai by t)) with 95% interval bands.

    Parameters
    ----------
    data : OddsTable of kind "win_by_turn", WinByTurn, list of WinByTurn, or WinByTurnByShanten
        One curve per hand / starting shanten / rule set.
    ax : matplotlib Axes, optional
    which : {"win", "tenpai"}
    bands : bool, default True
        Shade the 95% intervals (exact curves have none).
    min_hands : int, default 100
        Curves of random hands grouped by starting shanten: groups with fewer hands are not
        drawn (their bands would cover the plot); the legend names them and a UserWarning
        says so.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import mjfast, mjfast.plot
    >>> r = mjfast.win_by_turn("12m456p789s11z34p5z")                  # doctest: +SKIP
    >>> mjfast.plot.win_by_turn(r).figure.savefig("curve.png")         # doctest: +SKIP
    """
    if not isinstance(which, str) or which not in ("win", "tenpai"):
        raise ValueError(f"which must be 'win' or 'tenpai', not {which!r}")
    _check_flag("bands", bands)
    if isinstance(min_hands, bool) or not isinstance(min_hands, numbers.Integral):
        raise TypeError(f"min_hands must be an int, not {type(min_hands).__name__}")
    table = _as_table(data, "win_by_turn")
    curves = []   # (label, ts, p, low, high)
    small = []    # (label, hands) of the groups too small to draw
    if table is not None:
        keys = list(dict.fromkeys((r["rules"], r["hand"], r["start_shanten"]) for r in table.rows))
        many_rules = len({k[0] for k in keys}) > 1
        for rules, hand, s in keys:
            rs = [r for r in table.rows if (r["rules"], r["hand"], r["start_shanten"]) == (rules, hand, s)]
            label = (hand if hand else f"start shanten {s}") + (f" ({rules})" if many_rules else "")
            if hand is None and rs and rs[0]["hands"] is not None:
                if rs[0]["hands"] < min_hands:
                    small.append((label, rs[0]["hands"]))
                    continue
                label += f", {rs[0]['hands']:,} hands"
            curves.append((label, [r["t"] for r in rs], [r[which] for r in rs], [r[f"{which}_low"] for r in rs],
                           [r[f"{which}_high"] for r in rs]))
    else:
        items = data if isinstance(data, (list, tuple)) else [data]
        for item in items:
            if isinstance(item, WinByTurn):
                rows = item.rows()
                curves.append((f"{item.hand} ({item.method})", [r["t"] for r in rows], [r[which] for r in rows],
                               [r[f"{which}_low"] for r in rows], [r[f"{which}_high"] for r in rows]))
            elif isinstance(item, WinByTurnByShanten):
                for s in sorted(item.win):
                    if item.shanten_counts[s] < min_hands:
                        small.append((f"start shanten {s}", item.shanten_counts[s]))
                        continue
                    est = (item.win if which == "win" else item.tenpai)[s]
                    curves.append((f"start shanten {s}", list(range(1, item.draws + 1)), [e.p for e in est],
                                   [e.low for e in est], [e.high for e in est]))
            else:
                raise TypeError(f"cannot plot a {type(item).__name__} as win-by-turn curves")
    notes = []
    if small:
        listed = ", ".join(f"{label} ({n:,} hand{'s' if n != 1 else ''})" for label, n in small)
        warnings.warn(f"win_by_turn plot: not drawn, fewer than {min_hands:,} hands (min_hands): {listed}; "
                      "pass a smaller min_hands to draw them", UserWarning, stacklevel=2)
        notes.append(textwrap.fill(f"not drawn (fewer than {min_hands:,} hands): {listed}", 34))
    if not curves:
        raise ValueError("nothing to plot" + (f": every group has fewer than min_hands={min_hands} hands"
                                              if small else ""))
    ax = _figure_axes(ax)
    for label, ts, p, lo, hi in curves:
        line, = ax.plot(ts, p, marker="o", markersize=3, label=label)
        if bands and any(h > low for low, h in zip(lo, hi)):
            ax.fill_between(ts, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ts_all = [t for _, ts, _, _, _ in curves for t in ts]
    ax.set_xlim(min(ts_all) - 0.3, max(ts_all) + 0.3)
    ax.set_xlabel("draw t")
    ax.set_ylabel("P(won by t)" if which == "win" else "P(tenpai by t)")
    _fit_probability_axis(ax, [v for _, _, p, _, hi in curves for v in list(p) + (list(hi) if bands else [])])
    ax.grid(alpha=0.3)
    ax.set_title("Win by turn" if which == "win" else "Tenpai by turn")
    _legend_outside(ax, notes)
    return ax


def win_rates(data: Any, *, ax=None):
    """Bars of the win rate per seat (and policy) with 95% interval error bars.

    Parameters
    ----------
    data : OddsTable of kind "win_rate", or SimResult
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import mjfast, mjfast.plot
    >>> t = mjfast.odds_table("win_rate", games=500, seed=1)           # doctest: +SKIP
    >>> mjfast.plot.win_rates(t).figure.savefig("win_rates.png")       # doctest: +SKIP
    """
    table = _as_table(data, "win_rate")
    if table is None:
        if not isinstance(data, SimResult):
            raise TypeError(f"cannot plot a {type(data).__name__} as win rates")
        rows: list[dict[str, Any]] = []
        for seat in range(4):
            e = data.win_rate(seat)
            pol = data.policies[seat] if not data.duplicate else "rotated"
            rows.append({"rules": data.rules.name if hasattr(data.rules, "name") else str(data.rules), "seat": seat,
                         "policy": pol if isinstance(pol, str) else getattr(pol, "name", type(pol).__name__),
                         "win_rate": e.p, "win_rate_low": e.low, "win_rate_high": e.high, "hands": e.n})
    else:
        rows = table.rows
    ax = _figure_axes(ax)
    by_policy = any(r["seat"] is None for r in rows)        # odds_table(..., by="policy")
    slots = list(dict.fromkeys(r["policy"] for r in rows)) if by_policy else list(range(4))
    slot = (lambda r: slots.index(r["policy"])) if by_policy else (lambda r: r["seat"])
    rules_list = list(dict.fromkeys(r["rules"] for r in rows))
    width = 0.8 / len(rules_list)
    for gi, rules in enumerate(rules_list):
        rs = [r for r in rows if r["rules"] == rules]
        xs = [slot(r) + (gi - (len(rules_list) - 1) / 2) * width for r in rs]
        ps = [r["win_rate"] for r in rs]
        err = [[r["win_rate"] - r["win_rate_low"] for r in rs], [r["win_rate_high"] - r["win_rate"] for r in rs]]
        ax.bar(xs, ps, width=width, yerr=err, capsize=4, label=str(rules))
    if by_policy:
        ax.set_xticks(range(len(slots)), slots)
    else:
        names: dict[int, list[str]] = {}
        for r in rows:
            names.setdefault(r["seat"], []).append(r["policy"])
        ax.set_xticks(range(4), [f"seat {s}\n" + "/".join(dict.fromkeys(names.get(s, []))) for s in range(4)])
    ax.set_ylabel("win rate per hand")
    ax.set_xlim(-0.6, len(slots) - 0.4)
    _fit_probability_axis(ax, [r["win_rate_high"] for r in rows] + [r["win_rate"] for r in rows])
    ax.set_title(f"Win rate per {'policy' if by_policy else 'seat'} (95% intervals)")
    if len(rules_list) > 1:
        _legend_outside(ax)
    return ax


def plot_table(table: Any, path=None, **kwargs):
    """Draw an odds table with the plot for its kind; save it to ``path`` if given.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import mjfast, mjfast.plot
    >>> fig = mjfast.plot.plot_table(mjfast.odds_table("deal"), "deal.png")   # doctest: +SKIP
    """
    if not isinstance(table, OddsTable):
        raise TypeError(f"plot_table needs an OddsTable, not {type(table).__name__}")
    draws: dict[str, Callable[..., Any]] = {"deal": shanten_distribution, "win_by_turn": win_by_turn,
                                            "win_rate": win_rates}
    if table.kind not in draws:
        raise ValueError(f"no plot for odds tables of kind {table.kind!r} yet; plots exist for {tuple(draws)}")
    ax = draws[table.kind](table, **kwargs)
    if path is not None:
        ax.figure.savefig(path, dpi=150, bbox_inches="tight")     # the legend beside the axes included
    return ax.figure
