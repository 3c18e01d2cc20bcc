"""How simulated Chinese Official (MCR) play compares with people's: :func:`calibration`.

The published figures are those of people's games on Botzone (530,458 hands released with
ccr-cheng/botzone-mahjong-environment: 12,140 exhaustive draws, 132,994 self-drawn wins and
385,324 wins on a discard; docs/botzone.md). Given Botzone logs (:func:`mjfast.botzone.read_logs`),
the comparison also covers each fan's share of wins and the distribution of the hand fan.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import rules as _rules
from .._display import Display, Displayed, Table, interval
from ..game import simulate
from ..mcr import FANS, FLOWER_COLUMN
from ..stats import Estimate, Mean

#: people's games on Botzone (ccr-cheng/botzone-mahjong-environment, README): the counts
PUBLISHED: dict[str, Any] = {
    "hands": 530_458, "exhaustive_draws": 12_140, "self_drawn_wins": 132_994, "discard_wins": 385_324,
    "source": "Botzone human games (ccr-cheng/botzone-mahjong-environment): 530,458 hands"}
#: hand fan bins of the distribution (the last: this many fan or more)
FAN_BINS = 99


def _published() -> dict:
    p = PUBLISHED
    wins = p["self_drawn_wins"] + p["discard_wins"]
    return {"exhaustive_draw_rate": Estimate.from_counts(p["exhaustive_draws"], p["hands"]),
            "self_drawn_share": Estimate.from_counts(p["self_drawn_wins"], wins),
            "discard_win_share": Estimate.from_counts(p["discard_wins"], wins)}


def _as_dict(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, Estimate):
        return {"value": v.p, "count": v.count, "n": v.n, "se": v.se, "ci95": [v.low, v.high]}
    if isinstance(v, Mean):
        return {"value": v.mean, "n": v.n, "se": v.se, "ci95": [v.low, v.high]}
    return v


def _value(v: Any) -> float:
    return v.p if isinstance(v, Estimate) else v.mean


@dataclasses.dataclass(frozen=True)
class LogFigures:
    """What a set of Botzone logs shows: hands, draws, wins by how, fans (see :func:`calibration`)."""

    hands: int
    exhaustive_draws: int
    self_drawn_wins: int
    discard_wins: int
    fan_counts: np.ndarray      # (len(mcr.FANS),) wins in which each fan counts
    fan_hist: np.ndarray        # (FAN_BINS + 1,) wins by hand fan (flowers not counted)

    @property
    def wins(self) -> int:
        return self.self_drawn_wins + self.discard_wins


def log_figures(hands: Iterable) -> LogFigures:
    """Count the outcomes of Botzone hands (:class:`mjfast.botzone.Hand` records; hands that
    ended in a penalty are left out, as the published data leaves them out)."""
    from ..botzone._hand import DRAW
    from ..botzone._logs import FAN_INDEX

    n = draws = selfd = disc = 0
    counts = np.zeros(len(FANS), np.int64)
    hist = np.zeros(FAN_BINS + 1, np.int64)
    for h in hands:
        if h.result == "huang":
            n += 1
            draws += 1
        elif h.result == "hu" and h.winner is not None:
            n += 1
            acts = h.actions
            before = acts[-2] if len(acts) >= 2 else None
            if before is not None and before.kind == DRAW and before.player == h.winner:
                selfd += 1
            else:
                disc += 1
            fan = 0
            for name, c in h.fans:
                i = FAN_INDEX.get(name)
                if i is None:
                    continue
                counts[i] += 1
                if i != FLOWER_COLUMN:
                    fan += FANS[i][2] * c
            hist[min(fan, FAN_BINS)] += 1
    return LogFigures(n, draws, selfd, disc, counts, hist)


def _hist_mean(hist: np.ndarray) -> Mean:
    n = int(hist.sum())
    if n == 0:
        return Mean(math.nan, math.nan, 0)
    x = np.arange(len(hist), dtype=np.float64)
    m = float((hist * x).sum() / n)
    var = float((hist * (x - m) ** 2).sum() / (n - 1)) if n > 1 else math.nan
    return Mean(m, math.sqrt(var / n) if n > 1 else math.nan, n)


def total_variation(a: np.ndarray, b: np.ndarray) -> float:
    """Total-variation distance between two histograms over the same bins (half the L1
    distance of their normalised forms; nan if either is empty)."""
    sa, sb = float(np.sum(a)), float(np.sum(b))
    if sa == 0 or sb == 0:
        return math.nan
    return 0.5 * float(np.abs(np.asarray(a) / sa - np.asarray(b) / sb).sum())


@dataclasses.dataclass(frozen=True, repr=False)
class Calibration(Displayed):
    """Simulated figures beside people's (see :func:`calibration`).

    Attributes
    ----------
    rules, policies, seed, hands
        What was simulated (``seed`` as given; ``hands`` as played).
    rows : dict
        Figure name -> {"simulated": Estimate or Mean, "published": Estimate or None,
        "logs": Estimate or Mean or None}.
    fan_shares : list of dict or None
        With logs: per fan, its share of wins simulated and in the logs (Estimates).
    fan_tv : float or None
        With logs: total-variation distance between the simulated and logged hand-fan
        distributions (flowers not counted; goal <= 0.10).
    sim_hist, log_hist : ndarray or None
        The hand-fan distributions (wins by fan 0 .. 99, the last bin 99 or more).
    """

    rules: str
    policies: Any
    seed: Any
    hands: int
    rows: dict
    fan_shares: list | None = None
    fan_tv: float | None = None
    sim_hist: np.ndarray | None = None
    log_hist: np.ndarray | None = None
    log_hands: int | None = None

    def to_dict(self) -> dict:
        """The figures as JSON-ready data (values, n, se and 95% intervals)."""
        out: dict = {"rules": self.rules, "policies": self.policies, "seed": self.seed, "hands": self.hands,
                     "published_source": PUBLISHED["source"],
                     "figures": {k: {c: _as_dict(v) for c, v in r.items()} for k, r in self.rows.items()}}
        if self.fan_shares is not None:
            out["log_hands"] = self.log_hands
            out["fan_shares"] = [{"fan": f["fan"], "simulated": _as_dict(f["simulated"]), "logs": _as_dict(f["logs"])}
                                 for f in self.fan_shares]
            out["fan_total_variation"] = self.fan_tv
        return out

    def table(self) -> str:
        """The comparison as a Markdown table."""
        logs = self.fan_shares is not None
        head = "| figure | simulated | 95% interval | people (published) | 95% interval |"
        head += " logs | 95% interval |" if logs else ""
        lines = [head, "|" + " --- |" * (7 if logs else 5)]
        for name, r in self.rows.items():
            cells = [name]
            for col in ("simulated", "published") + (("logs",) if logs else ()):
                v = r.get(col)
                cells += ["", ""] if v is None else [f"{_value(v):.4g}", interval(v.low, v.high)]
            lines.append("| " + " | ".join(cells) + " |")
        if logs:
            lines.append("")
            lines.append(f"hand-fan distribution, total-variation distance simulated vs logs: {self.fan_tv:.4f}")
        return "\n".join(lines)

    def _display(self) -> Display:
        logs = self.fan_shares is not None
        cols = ["figure", "simulated", "95% interval", "people", "95% interval"] + (
            ["logs", "95% interval"] if logs else [])
        rows = []
        for name, r in self.rows.items():
            row: list = [name]
            for col in ("simulated", "published") + (("logs",) if logs else ()):
                v = r.get(col)
                row += [None, None] if v is None else [_value(v), interval(v.low, v.high)]
            rows.append(row)
        tables = [Table(cols, rows)]
        notes = [f"people: {PUBLISHED['source']}"]
        if self.fan_shares is not None:
            shares = [(f["fan"], f["simulated"].p, f["logs"].p) for f in self.fan_shares[:12]]
            tables.append(Table(("fan", "share of wins, simulated", "share of wins, logs"), shares,
                                title="most frequent fans in the logs"))
            notes.append(f"hand-fan distribution: total-variation distance {self.fan_tv:.4f} (goal <= 0.10)")
        return Display(f"Calibration: rules={self.rules}, policies={self.policies}, {self.hands:,} hands, "
                       f"seed={self.seed}", tables, notes)

    def plot(self, ax=None):
        """Simulated figures beside people's with 95% intervals (needs matplotlib: the ``plot``
        extra); returns the axes."""
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:   # pragma: no cover - depends on the environment
            raise ImportError("Calibration.plot() needs matplotlib (pip install 'mjfast[plot]')") from e
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3))
        names = [k for k, r in self.rows.items() if isinstance(r["simulated"], Estimate)]
        cols = ("simulated", "published") + (("logs",) if self.fan_shares is not None else ())
        width = 0.8 / len(cols)
        for j, col in enumerate(cols):
            xs, ys, lo, hi = [], [], [], []
            for i, name in enumerate(names):
                v = self.rows[name].get(col)
                if v is None:
                    continue
                xs.append(i + (j - (len(cols) - 1) / 2) * width)
                ys.append(v.p)
                lo.append(v.p - v.low)
                hi.append(v.high - v.p)
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=col)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, fontsize=8)
        ax.set_ylabel("share")
        ax.legend(fontsize=8)
        return ax


def _check(rules, policies, hands, logs) -> None:
    import numbers

    if isinstance(hands, bool) or not isinstance(hands, numbers.Integral) or hands < 1:
        raise ValueError(f"hands must be a positive integer, got {hands!r}")
    if logs is not None and isinstance(logs, (bytes, bytearray)):
        raise TypeError("logs must be a path, a file object or an iterable of mjfast.botzone.Hand records")


def calibration(rules="mcr", policies="humanlike", hands: int = 20_000, seed=None, logs=None, *,
                threads: int | None = None, progress: bool = False, **rule_options) -> Calibration:
    """Simulated MCR figures beside people's, with standard errors and 95% intervals.

    Simulates ``hands`` hands (rounded up to whole games) with :func:`mjfast.simulate` and
    reports the exhaustive draw rate, the self-drawn and discard shares of wins, the mean hand
    fan of wins and the mean turns per hand, beside the published figures of people's play on
    Botzone (530,458 hands: 2.29 % exhaustive draws, 25.7 % of wins self-drawn).

    Parameters
    ----------
    rules : str or RuleSet
        A Chinese rule set with fan scoring (default ``"mcr"``).
    policies : str, Policy or list of 4
        As for :func:`mjfast.simulate` (default ``"humanlike"``).
    hands : int
        Hands to simulate (at least; whole games are played).
    seed : int or None
        As for :func:`mjfast.simulate`.
    logs : path, file object or iterable of mjfast.botzone.Hand, optional
        Botzone logs (read with :func:`mjfast.botzone.read_logs` unless already records): adds
        their figures, each fan's share of wins, and the total-variation distance between the
        simulated and logged distributions of the hand fan.
    threads, progress, **rule_options
        Passed to :func:`mjfast.simulate`.

    Returns
    -------
    Calibration
        With ``repr``, ``table()``, ``to_dict()``, ``plot()`` and a notebook view.

    Examples
    --------
    >>> import mjfast
    >>> c = mjfast.calibration(hands=400, seed=1)
    >>> c.rows["exhaustive draw rate"]["simulated"].n
    400
    >>> round(c.rows["self-drawn share of wins"]["published"].p, 3)
    0.257
    """

    _check(rules, policies, hands, logs)
    rs = _rules.get(rules, **rule_options) if isinstance(rules, str) else rules
    if getattr(rs, "family", None) != "chinese" or not getattr(rs, "min_fan", 0):
        raise ValueError(f"calibration needs a Chinese rule set with fan scoring (mcr), got {rules!r}")
    games = -(-int(hands) // rs.hands_per_game)
    res = simulate(games, rules=rs, policies=policies, seed=seed, threads=threads, progress=progress)
    pub = _published()
    fans = res.fans
    assert fans is not None            # (fan scoring: checked above)
    rows = {
        "exhaustive draw rate": {"simulated": res.exhaustive_draw_rate(), "published": pub["exhaustive_draw_rate"]},
        "self-drawn share of wins": {"simulated": Estimate.from_counts(int(res.self_draw_wins.sum()),
                                                                       int(res.wins.sum())),
                                     "published": pub["self_drawn_share"]},
        "discard-win share of wins": {"simulated": Estimate.from_counts(int(res.wins.sum() - res.self_draw_wins.sum()),
                                                                        int(res.wins.sum())),
                                      "published": pub["discard_win_share"]},
        "mean hand fan of wins": {"simulated": fans.mean_fan(), "published": None},
        "mean turns per hand": {"simulated": res.mean_turns(), "published": None},
    }
    name = rules if isinstance(rules, str) else getattr(rs, "name", "custom")
    pols = policies if isinstance(policies, str) else [p if isinstance(p, str) else getattr(p, "name", "python")
                                                       for p in policies]
    if logs is None:
        return Calibration(name, pols, seed, int(res.hands), rows)
    records = logs
    if not isinstance(logs, (list, tuple)) and (isinstance(logs, (str, bytes)) or hasattr(logs, "read")
                                                or hasattr(logs, "__fspath__")):
        from ..botzone import read_logs
        records = read_logs(logs, progress=progress)
    lf = log_figures(records)
    rows["exhaustive draw rate"]["logs"] = Estimate.from_counts(lf.exhaustive_draws, lf.hands)
    rows["self-drawn share of wins"]["logs"] = Estimate.from_counts(lf.self_drawn_wins, lf.wins)
    rows["discard-win share of wins"]["logs"] = Estimate.from_counts(lf.discard_wins, lf.wins)
    rows["mean hand fan of wins"]["logs"] = _hist_mean(lf.fan_hist)
    rows["mean turns per hand"]["logs"] = None

    order = np.argsort(-lf.fan_counts, kind="stable")
    shares = [{"fan": FANS[i][0], "simulated": Estimate.from_counts(int(fans.counts[i]), fans.wins),
               "logs": Estimate.from_counts(int(lf.fan_counts[i]), lf.wins)} for i in order.tolist()]
    sim_hist = np.zeros(FAN_BINS + 1, np.int64)
    h = np.asarray(fans.hist, np.int64)
    sim_hist[:min(len(h), FAN_BINS)] = h[:FAN_BINS]
    sim_hist[FAN_BINS] += int(h[FAN_BINS:].sum())
    return Calibration(name, pols, seed, int(res.hands), rows, shares, total_variation(sim_hist, lf.fan_hist),
                       sim_hist, lf.fan_hist, lf.hands)


__all__ = ["PUBLISHED", "Calibration", "LogFigures", "calibration", "log_figures", "total_variation"]
