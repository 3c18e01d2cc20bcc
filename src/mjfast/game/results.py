"""Results of simulated games: per-seat and per-policy statistics with their uncertainty
(SimResult, and AmericanSimResult with the American statistics), paired comparisons
(Comparison, PassEffect), and the one accumulator that builds them from the engine's
per-game output columns, chunk by chunk, exactly."""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from .._runtime.display import Display, Displayed, Table, frame, interval, pm
from .._runtime.seeding import seed_to_json
from ..rules import RuleSet
from ..stats import Z95, Estimate, Mean, exact_square_sums
from .policy import policy_name as _policy_name

#: claim kinds of the Chinese family, in the engine's meld order (SimResult.claims columns)
CLAIM_KINDS = ("chow", "pung", "kong", "concealed_kong", "added_kong")
#: American claims: calls for a set of four and joker exchanges
AMERICAN_CLAIMS = ("quad", "joker_exchange")
N_DIST = 15                      # American distances 0..14


def _percent(p: float) -> str:
    """A share as a percentage for the tables: "100%", "37.5%", "0%" ("-" without hands)."""
    if p != p:
        return "-"
    return f"{100 * p:.1f}".rstrip("0").rstrip(".") + "%"


@dataclasses.dataclass(eq=False, repr=False)
class FanStats(Displayed):
    """Chinese Official fan statistics of simulated wins (``SimResult.fans`` under
    ``rules="mcr"``; None for rule sets without fans). Merge with ``a + b``.

    The *hand fan* of a win is its fan total without flowers (what ``min_fan`` applies to);
    the *paid fan* includes one per flower (what the payment 8 + fan uses).

    Examples
    --------
    >>> import mjfast
    >>> r = mjfast.simulate(50, rules="mcr", seed=1, progress=False)
    >>> f = r.fans
    >>> f.wins == int(r.wins.sum()) and f.mean_fan().mean >= 8
    True
    >>> f.frequency()["Concealed Hand"].n == f.wins
    True
    """

    min_fan: int
    fan_sum: int                 # sum over wins of the hand fan
    fan_sq: int                  # ... of its square
    paid_sum: int                # sum over wins of the paid fan (flowers counted)
    paid_sq: int
    counts: np.ndarray           # (82,) wins in which each fan (mjfast.mcr.FANS order) counts
    hist: np.ndarray             # (100,) wins by hand fan 0..98, the last bin 99 or more
    false_wins: np.ndarray       # (4,) false wins declared by each player (Python policies)

    @property
    def wins(self) -> int:
        """Wins scored with fans (every one a valid win: at least min_fan)."""
        return int(self.hist.sum())

    def _mean(self, s: int, sq: int) -> Mean:
        n = self.wins
        m = s / n if n else math.nan
        var = (sq - n * m * m) / (n - 1) if n > 1 else math.nan
        return Mean(m, math.sqrt(max(var, 0) / n) if n > 1 else math.nan, n)

    def mean_fan(self) -> Mean:
        """Mean hand fan per win (flowers not counted), with its standard error and 95% interval."""
        return self._mean(self.fan_sum, self.fan_sq)

    def mean_paid_fan(self) -> Mean:
        """Mean fan paid per win (flowers counted)."""
        return self._mean(self.paid_sum, self.paid_sq)

    def _attrs(self) -> dict:
        return {"min_fan": self.min_fan, "wins": self.wins, "mean_fan": self.mean_fan().to_dict(),
                "mean_paid_fan": self.mean_paid_fan().to_dict(), "false_wins": [int(x) for x in self.false_wins]}

    def _records(self) -> list:
        from ..mcr import FANS
        out = []
        for i in np.argsort(-self.counts, kind="stable").tolist():
            e = Estimate.from_counts(int(self.counts[i]), self.wins)
            out.append({"fan": FANS[i][0], "chinese": FANS[i][1], "value": int(FANS[i][2]), "count": e.count,
                        "wins": e.n, "p": e.p, "se": e.se, "low": e.low, "high": e.high})
        return out

    def to_pandas(self):
        """One row per fan of :data:`mjfast.mcr.FANS`, most frequent first: ``fan``,
        ``chinese``, ``value``, ``count`` (wins in which it counts), ``wins``, and the share
        ``p`` with its ``se`` and 95% interval ``low``/``high``. ``df.attrs`` holds min_fan,
        wins, the mean fans and the false wins (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> f = mjfast.simulate(30, rules="mcr", seed=1, progress=False).fans
        >>> df = f.to_pandas()   # doctest: +SKIP
        >>> len(df), str(df["count"].dtype)   # doctest: +SKIP
        (82, 'int64')
        """
        cols = ("fan", "chinese", "value", "count", "wins", "p", "se", "low", "high")
        return frame(cols, self._records(), what="FanStats.to_pandas()", attrs=self._attrs())

    def _display(self) -> Display:
        mf, mp = self.mean_fan(), self.mean_paid_fan()
        rows = [(r["fan"], r["value"], r["count"], r["p"], interval(r["low"], r["high"]))
                for r in self._records() if r["count"]]
        top = 12
        notes = [f"... {len(rows) - top} more fans: .frequency() or .to_pandas()"] if len(rows) > top else []
        return Display(f"FanStats: {self.wins:,} wins (min_fan {self.min_fan}), mean fan {pm(mf.mean, Z95 * mf.se)} "
                       f"(with flowers {pm(mp.mean, Z95 * mp.se)}), false wins {int(self.false_wins.sum())}",
                       [Table(("fan", "value", "wins", "share", "95% interval"), rows[:top])], notes)

    def frequency(self) -> dict:
        """Fan name -> :class:`~mjfast.stats.Estimate` of the share of wins in which it counts
        (every fan of :data:`mjfast.mcr.FANS`, most frequent first)."""
        from ..mcr import FANS
        order = np.argsort(-self.counts, kind="stable")
        return {FANS[i][0]: Estimate.from_counts(int(self.counts[i]), self.wins) for i in order}

    def histogram(self) -> dict:
        """Hand fan -> wins (the key 99 holds 99 or more)."""
        return {int(k): int(self.hist[k]) for k in np.flatnonzero(self.hist)}

    def __eq__(self, other) -> bool:
        if not isinstance(other, FanStats):
            return NotImplemented
        return (self.min_fan, self.fan_sum, self.fan_sq, self.paid_sum, self.paid_sq) == (
            other.min_fan, other.fan_sum, other.fan_sq, other.paid_sum, other.paid_sq) and all(
            np.array_equal(a, b) for a, b in ((self.counts, other.counts), (self.hist, other.hist),
                                              (self.false_wins, other.false_wins)))

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: FanStats) -> FanStats:
        if not isinstance(other, FanStats):
            return NotImplemented
        return FanStats(self.min_fan, self.fan_sum + other.fan_sum, self.fan_sq + other.fan_sq,
                        self.paid_sum + other.paid_sum, self.paid_sq + other.paid_sq, self.counts + other.counts,
                        self.hist + other.hist, self.false_wins + other.false_wins)

    def to_dict(self) -> dict:
        """JSON: wins, mean_fan and mean_paid_fan (with se and interval), false_wins per
        player, frequency (fan name -> estimate, fans that occurred) and histogram."""
        return {
            "min_fan": self.min_fan, "wins": self.wins,
            "mean_fan": self.mean_fan().to_dict(), "mean_paid_fan": self.mean_paid_fan().to_dict(),
            "false_wins": [int(x) for x in self.false_wins],
            "frequency": {k: e.to_dict() for k, e in self.frequency().items() if e.count},
            "histogram": {str(k): v for k, v in self.histogram().items()},
        }

    def table(self, top: int = 12) -> str:
        """Readable summary: mean fan, false wins and the most frequent fans."""
        mf, mp = self.mean_fan(), self.mean_paid_fan()
        lines = [f"fans (min {self.min_fan}): {self.wins:,} wins, mean fan {mf.mean:.2f} ± {Z95 * mf.se:.2f} "
                 f"(with flowers {mp.mean:.2f} ± {Z95 * mp.se:.2f}), false wins {int(self.false_wins.sum())}"]
        freq = [(k, e) for k, e in self.frequency().items() if e.count][:top]
        lines.append("most frequent fans: " + ", ".join(f"{k} {e.p:.3f}" for k, e in freq))
        return "\n".join(lines)


@dataclasses.dataclass(eq=False, repr=False)
class SimResult(Displayed):
    """Statistics of simulated games (see :func:`simulate`). Merge runs with ``a + b``.

    Counters per player index 0..3 (arrays of shape (4,)) and per policy name; every rate is
    an :class:`~mjfast.stats.Estimate` (count, n, p, se, 95% Wilson interval), every mean a
    :class:`Mean` (mean, se, 95% interval, n).
    """

    rules: RuleSet
    games: int
    hands: int
    policies: tuple          # per seat, for non-duplicate runs; per rotation 0 in duplicate runs
    duplicate: bool
    seeds: tuple
    wins: np.ndarray
    self_draw_wins: np.ndarray
    deal_ins: np.ndarray
    claims: np.ndarray       # (4, 5)
    points: np.ndarray       # sum of final game points per player
    points_sq: np.ndarray
    points_hist: list        # per player {points: games}
    exhaustive_draws: int
    turns: int
    turns_sq_per_game: int   # sum over games of (turns in the game) squared
    by_policy: dict          # name -> dict of counters (seats pooled)
    #: Chinese Official fan statistics (rules with fans), else None; set after construction
    fans: FanStats | None = dataclasses.field(default=None, init=False, repr=False)

    _claim_kinds: ClassVar[tuple[str, ...]] = CLAIM_KINDS   # the columns of ``claims`` (not a field)

    # -- derived ---------------------------------------------------------------------------
    @property
    def discard_wins(self) -> np.ndarray:
        return self.wins - self.self_draw_wins

    def win_rate(self, seat: int | None = None, policy: str | None = None) -> Estimate:
        """Share of hands won (by player `seat`, or by all players using `policy`)."""
        w, h = self._pick("wins", seat, policy)
        return Estimate.from_counts(w, h)

    def self_draw_share(self, seat=None, policy=None) -> Estimate:
        """Share of wins that were self-drawn."""
        s, _ = self._pick("self_draw_wins", seat, policy)
        w, _ = self._pick("wins", seat, policy)
        return Estimate.from_counts(s, w)

    def discard_win_share(self, seat=None, policy=None) -> Estimate:
        s, _ = self._pick("self_draw_wins", seat, policy)
        w, _ = self._pick("wins", seat, policy)
        return Estimate.from_counts(w - s, w)

    def deal_in_rate(self, seat=None, policy=None) -> Estimate:
        """Share of hands in which this player discarded the winning tile."""
        d, h = self._pick("deal_ins", seat, policy)
        return Estimate.from_counts(d, h)

    def exhaustive_draw_rate(self) -> Estimate:
        return Estimate.from_counts(self.exhaustive_draws, self.hands)

    def mean_turns(self) -> Mean:
        """Mean hand length in turns (a turn = a draw or claim, then a discard)."""
        per_hand = self.hands / self.games if self.games else 1
        m = self.turns / self.hands if self.hands else math.nan
        var_game = self.turns_sq_per_game / self.games - (self.turns / self.games) ** 2 if self.games > 1 else math.nan
        se = math.sqrt(max(var_game, 0) / (self.games - 1)) / per_hand if self.games > 1 else math.nan
        return Mean(m, se, self.hands)

    def mean_points(self, seat=None, policy=None) -> Mean:
        """Mean final points per game."""
        if policy is not None:
            c = self.by_policy[policy]
            s, sq, n = c["points"], c["points_sq"], c["games"]
        else:
            s, sq, n = self.points[seat], self.points_sq[seat], self.games
        m = float(s / n) if n else math.nan
        var = (sq - n * m * m) / (n - 1) if n > 1 else math.nan
        return Mean(m, math.sqrt(max(var, 0) / n) if n > 1 else math.nan, n)

    def claims_per_hand(self, seat=None, policy=None) -> dict:
        """Mean claims per hand by kind (chow, pung, kong, concealed_kong, added_kong)."""
        if policy is not None:
            c, h = self.by_policy[policy]["claims"], self.by_policy[policy]["hands"]
        else:
            c, h = self.claims[seat], self.hands
        return {k: (float(c[i]) / h if h else math.nan) for i, k in enumerate(CLAIM_KINDS)}

    def _pick(self, field: str, seat, policy):
        if (seat is None) == (policy is None):
            raise ValueError("give exactly one of seat (0-3) or policy (a name)")
        if policy is not None:
            if policy not in self.by_policy:
                raise ValueError(f"no policy {policy!r} in this result; have {sorted(self.by_policy)}")
            c = self.by_policy[policy]
            return int(c[field]), int(c["hands"])
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0-3, got {seat!r}")
        return int(getattr(self, field)[seat]), self.hands

    # -- merging -----------------------------------------------------------------------------
    def __add__(self, other: SimResult) -> SimResult:
        if not isinstance(other, SimResult):
            return NotImplemented
        if (self.rules, self.policies, self.duplicate) != (other.rules, other.policies, other.duplicate):
            raise ValueError("cannot merge results of different rules, policies or duplicate settings")
        hist = [_merge_hist(a, b) for a, b in zip(self.points_hist, other.points_hist)]
        byp = {}
        for name in dict.fromkeys([*self.by_policy, *other.by_policy]):   # self's order, then other's new names
            a, b = self.by_policy.get(name), other.by_policy.get(name)
            byp[name] = b if a is None else a if b is None else {k: a[k] + b[k] for k in a}
        out = SimResult(self.rules, self.games + other.games, self.hands + other.hands, self.policies,
                        self.duplicate, self.seeds + other.seeds, self.wins + other.wins,
                        self.self_draw_wins + other.self_draw_wins, self.deal_ins + other.deal_ins,
                        self.claims + other.claims, self.points + other.points, self.points_sq + other.points_sq,
                        hist, self.exhaustive_draws + other.exhaustive_draws, self.turns + other.turns,
                        self.turns_sq_per_game + other.turns_sq_per_game, byp)
        if self.fans is not None and other.fans is not None:
            out.fans = self.fans + other.fans
        return out

    # -- output --------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The stable JSON schema (see the README)."""
        seats = []
        for s in range(4):
            seats.append({
                "seat": s,
                "policy": _policy_name(self.policies[s]) if not self.duplicate else None,
                "wins": int(self.wins[s]), "self_draw_wins": int(self.self_draw_wins[s]),
                "discard_wins": int(self.discard_wins[s]), "deal_ins": int(self.deal_ins[s]),
                "points": int(self.points[s]),
                "win_rate": self.win_rate(s).to_dict(), "deal_in_rate": self.deal_in_rate(s).to_dict(),
                "self_draw_share": self.self_draw_share(s).to_dict(),
                "mean_points": self.mean_points(s).to_dict(),
                "points_distribution": {str(k): v for k, v in sorted(self.points_hist[s].items())},
                "claims": {k: int(self.claims[s, i]) for i, k in enumerate(CLAIM_KINDS)},
            })
        pols = {}
        for name, c in self.by_policy.items():
            pols[name] = {
                "hands": int(c["hands"]), "games": int(c["games"]), "wins": int(c["wins"]),
                "self_draw_wins": int(c["self_draw_wins"]), "deal_ins": int(c["deal_ins"]),
                "points": int(c["points"]),
                "win_rate": self.win_rate(policy=name).to_dict(),
                "deal_in_rate": self.deal_in_rate(policy=name).to_dict(),
                "mean_points": self.mean_points(policy=name).to_dict(),
                "claims": {k: int(c["claims"][i]) for i, k in enumerate(CLAIM_KINDS)},
            }
        mt = self.mean_turns()
        extra = {} if self.fans is None else {"fans": self.fans.to_dict()}
        return extra | {
            "rules": self.rules.name, "options": self.rules.to_dict(), "games": self.games, "hands": self.hands,
            "seed": seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(s) for s in self.seeds],
            "duplicate": self.duplicate,
            "seats": seats, "policies": pols,
            "exhaustive_draws": self.exhaustive_draws,
            "exhaustive_draw_rate": self.exhaustive_draw_rate().to_dict(),
            "mean_turns": mt.mean, "mean_turns_se": mt.se,
        }

    # -- notebooks: repr, HTML, pandas ------------------------------------------------------
    def _seed_text(self) -> str:
        return str(seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(x) for x in self.seeds])

    def _groups(self, by: str) -> list:
        """(seat, policy, keyword) per row of a per-seat or per-policy table."""
        if by == "seat":
            return [(s, None if self.duplicate else _policy_name(self.policies[s]), {"seat": s}) for s in range(4)]
        if by == "policy":
            return [(None, name, {"policy": name}) for name in sorted(self.by_policy)]
        raise ValueError(f"by must be 'seat' or 'policy', got {by!r}")

    def _rates(self) -> tuple:
        """(name, method) of the rates of this result's table rows."""
        return (("win_rate", self.win_rate), ("self_draw_share", self.self_draw_share),
                ("deal_in_rate", self.deal_in_rate))

    def _counts(self, seat, policy) -> dict:
        """Integer counters of one row (a seat or a policy)."""
        if policy is not None:
            c = self.by_policy[policy]
            claims = c["claims"]
            out = {"hands": int(c["hands"]), "games": int(c["games"]), "wins": int(c["wins"]),
                   "self_draw_wins": int(c["self_draw_wins"]), "discard_wins": int(c["wins"] - c["self_draw_wins"]),
                   "deal_ins": int(c["deal_ins"]), "points": int(c["points"])}
        else:
            claims = self.claims[seat]
            out = {"hands": self.hands, "games": self.games, "wins": int(self.wins[seat]),
                   "self_draw_wins": int(self.self_draw_wins[seat]), "discard_wins": int(self.discard_wins[seat]),
                   "deal_ins": int(self.deal_ins[seat]), "points": int(self.points[seat])}
        out.update({f"claims_{k}": int(claims[i]) for i, k in enumerate(self._claim_kinds)})
        return out

    def _extra_columns(self, seat, policy) -> dict:
        """Columns a subclass adds to each row (American statistics)."""
        return {}

    def _records(self, by: str) -> list:
        rows = []
        for seat, pol, kw in self._groups(by):
            r: dict[str, Any] = ({"seat": seat} if by == "seat" else {}) | {"policy": pol}
            r.update(self._counts(seat, kw.get("policy")))
            for name, fn in self._rates():
                e = fn(**kw)
                r.update({name: e.p, f"{name}_se": e.se, f"{name}_low": e.low, f"{name}_high": e.high})
            m = self.mean_points(**kw)
            r.update({"mean_points": m.mean, "mean_points_se": m.se, "mean_points_low": m.low,
                      "mean_points_high": m.high})
            r.update(self._extra_columns(seat, kw.get("policy")))
            rows.append(r)
        return rows

    def _attrs(self) -> dict:
        mt = self.mean_turns()
        return {"rules": self.rules.name, "options": self.rules.to_dict(), "games": self.games, "hands": self.hands,
                "seed": seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(s) for s in self.seeds],
                "duplicate": self.duplicate, "exhaustive_draws": self.exhaustive_draws,
                "mean_turns": mt.mean, "mean_turns_se": mt.se}

    def to_pandas(self, by: str = "seat"):
        """The per-seat (or per-policy) statistics as a tidy DataFrame (needs pandas).

        Parameters
        ----------
        by : {"seat", "policy"}
            One row per seat 0-3 with its policy (None in duplicate runs, whose policies
            rotate), or one row per policy with its seats pooled (no ``seat`` column).

        Returns
        -------
        pandas.DataFrame
            Counts (``hands``, ``games``, ``wins``, ``self_draw_wins``, ``discard_wins``,
            ``deal_ins``, ``points``, ``claims_<kind>``) as int64; each rate (``win_rate``,
            ``self_draw_share``, ``deal_in_rate``; American results add ``jokerless_share``
            and ``dead_hand_rate``) and ``mean_points`` with ``_se``, ``_low`` and ``_high``
            (95% interval) as float64. ``df.attrs`` holds rules, options, games, hands,
            seed, duplicate, exhaustive draws and mean turns.

        Examples
        --------
        >>> import mjfast
        >>> r = mjfast.simulate(100, seed=1, progress=False)
        >>> df = r.to_pandas()   # doctest: +SKIP
        >>> df[["seat", "policy", "wins", "win_rate"]].shape, str(df["wins"].dtype)   # doctest: +SKIP
        ((4, 4), 'int64')
        """
        rows = self._records(by)
        return frame(tuple(rows[0]) if rows else ("policy",), rows, what=f"{type(self).__name__}.to_pandas()",
                     attrs=self._attrs(), dtypes={"policy": "text"})

    def _summary_notes(self) -> list:
        ed, mt = self.exhaustive_draw_rate(), self.mean_turns()
        claims = self.claims.sum(axis=0) / max(self.hands, 1)
        notes = [f"exhaustive draws {ed.p:.4g} {interval(ed.low, ed.high)}, mean turns per hand "
                 f"{pm(mt.mean, Z95 * mt.se)}",
                 "claims per hand: " + ", ".join(f"{k} {claims[i]:.3g}" for i, k in enumerate(self._claim_kinds))]
        if self.fans is not None:
            f = self.fans
            mf = f.mean_fan()
            freq = [(k, e) for k, e in f.frequency().items() if e.count][:6]
            notes.append(f"fans (min {f.min_fan}): mean fan {pm(mf.mean, Z95 * mf.se)}; most frequent: "
                         + ", ".join(f"{k} {e.p:.3g}" for k, e in freq) + " (.fans for all)")
        return notes

    def _display_columns(self) -> tuple:
        return (("win rate", "win_rate"), ("self-draw share", "self_draw_share"), ("deal-in rate", "deal_in_rate"))

    def _points_start(self) -> int:
        """What the tables subtract from :meth:`mean_points` so that they show points won or lost
        per game (net) in every rule set: 0 here (scores start at 0), the American start points
        (650) there."""
        return 0

    def _display(self) -> Display:
        cols = self._display_columns()
        head = ["", "policy"] + [x for label, _ in cols for x in (label, "95% interval")] + ["mean points", "± 95%"]
        groups = [("seat", g) for g in self._groups("seat")]
        if len(self.by_policy) > 1 or self.duplicate:
            groups += [("policy", g) for g in self._groups("policy")]
        rows = []
        by_row = {("seat", r["seat"]): r for r in self._records("seat")}
        if len(groups) > 4:
            by_row.update({("policy", r["policy"]): r for r in self._records("policy")})
        for kind, (seat, pol, _kw) in groups:
            r = by_row[(kind, seat if kind == "seat" else pol)]
            row: list = [f"seat {seat}" if kind == "seat" else "all seats", pol]
            for _label, name in cols:
                row += [r[name], interval(r[f"{name}_low"], r[f"{name}_high"])]
            row += [r["mean_points"] - self._points_start(), r["mean_points_se"] * Z95]
            rows.append(row)
        title = (f"{type(self).__name__}: rules={self.rules.name}, {self.games:,} games, {self.hands:,} hands, "
                 f"seed={self._seed_text()}" + (" (duplicate)" if self.duplicate else ""))
        return Display(title, [Table(head, rows)], self._summary_notes())

    def table(self) -> str:
        """Readable win-rate table with 95% intervals."""
        def fmt(e: Estimate) -> str:
            return f"{e.p:6.4f} [{e.low:6.4f}, {e.high:6.4f}]"

        lines = [f"mjfast simulate: rules={self.rules.name} games={self.games:,} hands={self.hands:,} "
                 f"seed={seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(x) for x in self.seeds]}"
                 + ("  (duplicate)" if self.duplicate else "")]
        lines.append(f"{'':<14}{'win rate':>26}{'self-draw share':>26}{'deal-in rate':>26}{'mean points':>22}")
        rows: list[tuple[str, dict[str, Any]]] = [
            (f"seat {s} {'' if self.duplicate else _policy_name(self.policies[s])}", dict(seat=s)) for s in range(4)]
        if len(self.by_policy) > 1 or self.duplicate:
            rows += [(f"policy {name}", dict(policy=name)) for name in sorted(self.by_policy)]
        for label, kw in rows:
            mp = self.mean_points(**kw)
            lines.append(f"{label:<14}{fmt(self.win_rate(**kw)):>26}{fmt(self.self_draw_share(**kw)):>26}"
                         f"{fmt(self.deal_in_rate(**kw)):>26}{mp.mean:>12.2f} ± {Z95 * mp.se:<7.2f}")
        ed, mt = self.exhaustive_draw_rate(), self.mean_turns()
        lines.append(f"exhaustive draws {fmt(ed)}   mean turns per hand {mt.mean:.2f} ± {Z95 * mt.se:.2f}")
        claims = self.claims.sum(axis=0)
        lines.append("claims per hand: "
                     + ", ".join(f"{k} {claims[i] / max(self.hands, 1):.3f}" for i, k in enumerate(CLAIM_KINDS)))
        if self.fans is not None:
            lines.append(self.fans.table())
        return "\n".join(lines)


@dataclasses.dataclass(eq=False, repr=False)
class AmericanSimResult(SimResult):
    """:class:`~mjfast.SimResult` of American games, with the American statistics.

    ``claims`` holds per player (calls for a set of four, joker exchanges);
    ``distance_before``/``distance_after`` are (4, 15) histograms of the distance to Mahjong of
    each player's hand right after the deal and after the whole Charleston (courtesy pass
    included); ``exhaustive_draws`` counts wall games.
    """

    # Always arrays in the results mjfast builds (the accumulator fills them). The None defaults
    # only keep the constructor's signature (these fields follow SimResult's); typing them
    # Optional would make every reader narrow a value that is never None.
    jokerless_wins: np.ndarray = None   # type: ignore[assignment]
    dead_hands: np.ndarray = None       # type: ignore[assignment]
    distance_before: np.ndarray = None  # type: ignore[assignment]
    distance_after: np.ndarray = None   # type: ignore[assignment]
    second_charlestons: int = 0
    courtesy_tiles: int = 0
    #: card play: per-line statistics (mjfast.card LineStats), else None; set after construction
    lines: Any = dataclasses.field(default=None, init=False, repr=False)

    _claim_kinds: ClassVar[tuple[str, ...]] = AMERICAN_CLAIMS

    def _rates(self) -> tuple:
        return super()._rates() + (("jokerless_share", self.jokerless_share), ("dead_hand_rate", self.dead_hand_rate))

    def _counts(self, seat, policy) -> dict:
        out = super()._counts(seat, policy)
        src = self.by_policy[policy] if policy is not None else None
        for name in ("jokerless_wins", "dead_hands"):
            out[name] = int(src[name]) if src is not None else int(getattr(self, name)[seat])
        return out

    def _extra_columns(self, seat, policy) -> dict:
        out = {}
        for when in ("before", "after"):     # per player only (policies pool players' hands differently)
            m = self.mean_distance(when, seat) if seat is not None else Mean(math.nan, math.nan, 0)
            out[f"mean_distance_{when}"], out[f"mean_distance_{when}_se"] = m.mean, m.se
        return out

    def _attrs(self) -> dict:
        return super()._attrs() | {"second_charlestons": self.second_charlestons, "courtesy_tiles": self.courtesy_tiles}

    def _display_columns(self) -> tuple:
        return (("win rate", "win_rate"), ("self-draw share", "self_draw_share"),
                ("jokerless share", "jokerless_share"), ("dead-hand rate", "dead_hand_rate"))

    def _points_start(self) -> int:
        return int(getattr(self.rules, "start_points", 0))

    def _display(self) -> Display:
        d = super()._display()
        if self.lines is not None:
            d.tables.extend(self.lines._display().tables)
        return d

    def _summary_notes(self) -> list:
        wg, mt = self.wall_game_rate(), self.mean_turns()
        b, a = self.mean_distance("before"), self.mean_distance("after")
        c = self.claims.sum(axis=0) / max(self.hands, 1)
        return [f"mean points: won or lost per game (each player starts at {self._points_start():,})",
                f"wall games {wg.p:.4g} {interval(wg.low, wg.high)}, mean turns per hand {pm(mt.mean, Z95 * mt.se)}",
                f"distance to Mahjong: before the Charleston {pm(b.mean, Z95 * b.se)}, after {pm(a.mean, Z95 * a.se)}; "
                f"second Charleston danced in {_percent(self.second_charleston_rate().p)} of hands",
                f"per hand: calls {c[0]:.3g}, joker exchanges {c[1]:.3g}, courtesy tiles "
                f"{self.courtesy_tiles / max(self.hands, 1):.3g}"]

    def jokerless_share(self, seat=None, policy=None) -> Estimate:
        """Share of wins whose hand held no joker."""
        j, _ = self._pick("jokerless_wins", seat, policy)
        w, _ = self._pick("wins", seat, policy)
        return Estimate.from_counts(j, w)

    def dead_hand_rate(self, seat=None, policy=None) -> Estimate:
        """Share of hands in which this player's hand went dead."""
        d, h = self._pick("dead_hands", seat, policy)
        return Estimate.from_counts(d, h)

    def wall_game_rate(self) -> Estimate:
        """Share of hands ended by an empty wall (the same as :meth:`exhaustive_draw_rate`)."""
        return self.exhaustive_draw_rate()

    def second_charleston_rate(self) -> Estimate:
        return Estimate.from_counts(self.second_charlestons, self.hands)

    def distance_distribution(self, when: str = "after", seat: int | None = None) -> list:
        """Share of hands at each distance 0..14 (``when`` "before" or "after" the Charleston),
        for player ``seat`` or all players pooled; a list of 15 Estimates."""
        h = self._hist(when, seat)
        n = int(h.sum())
        return [Estimate.from_counts(int(c), n) for c in h]

    def mean_distance(self, when: str = "after", seat: int | None = None) -> Mean:
        """Mean distance to Mahjong before or after the Charleston (hands are independent)."""
        h = self._hist(when, seat).astype(np.float64)
        n = int(h.sum())
        d = np.arange(N_DIST)
        if n == 0:
            return Mean(math.nan, math.nan, 0)
        m = float((h * d).sum() / n)
        var = float((h * (d - m) ** 2).sum() / (n - 1)) if n > 1 else math.nan
        return Mean(m, math.sqrt(var / n) if n > 1 else math.nan, n)

    def _hist(self, when, seat):
        if when not in ("before", "after"):
            raise ValueError(f"when must be 'before' or 'after', got {when!r}")
        h = self.distance_before if when == "before" else self.distance_after
        if seat is None:
            return h.sum(axis=0)
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0-3, got {seat!r}")
        return h[seat]

    def claims_per_hand(self, seat=None, policy=None) -> dict:
        """Mean calls for a set of four ("quad") and joker exchanges per hand."""
        if policy is not None:
            c, h = self.by_policy[policy]["claims"], self.by_policy[policy]["hands"]
        else:
            c, h = self.claims[seat], self.hands
        return {k: (float(c[i]) / h if h else math.nan) for i, k in enumerate(("quad", "joker_exchange"))}

    def __add__(self, other):
        if not isinstance(other, AmericanSimResult):
            return NotImplemented
        base = SimResult.__add__(self, other)
        out = AmericanSimResult(**{f.name: getattr(base, f.name) for f in dataclasses.fields(SimResult) if f.init},
                                 jokerless_wins=self.jokerless_wins + other.jokerless_wins,
                                 dead_hands=self.dead_hands + other.dead_hands,
                                 distance_before=self.distance_before + other.distance_before,
                                 distance_after=self.distance_after + other.distance_after,
                                 second_charlestons=self.second_charlestons + other.second_charlestons,
                                 courtesy_tiles=self.courtesy_tiles + other.courtesy_tiles)
        if self.lines is not None and other.lines is not None:
            out.lines = self.lines + other.lines
        return out

    def to_dict(self) -> dict:
        """The JSON schema of the other rule sets plus the American keys (see the README)."""
        seats = []
        for s in range(4):
            seats.append({
                "seat": s,
                "policy": _policy_name(self.policies[s]) if not self.duplicate else None,
                "wins": int(self.wins[s]), "self_draw_wins": int(self.self_draw_wins[s]),
                "discard_wins": int(self.discard_wins[s]), "deal_ins": int(self.deal_ins[s]),
                "points": int(self.points[s]),
                "win_rate": self.win_rate(s).to_dict(), "deal_in_rate": self.deal_in_rate(s).to_dict(),
                "self_draw_share": self.self_draw_share(s).to_dict(),
                "mean_points": self.mean_points(s).to_dict(),
                "points_distribution": {str(k): v for k, v in sorted(self.points_hist[s].items())},
                "claims": {"quad": int(self.claims[s, 0]), "joker_exchange": int(self.claims[s, 1])},
                "jokerless_wins": int(self.jokerless_wins[s]),
                "jokerless_share": self.jokerless_share(s).to_dict(),
                "dead_hands": int(self.dead_hands[s]), "dead_hand_rate": self.dead_hand_rate(s).to_dict(),
                "distance_before": self.distance_before[s].tolist(),
                "distance_after": self.distance_after[s].tolist(),
                "mean_distance_before": self.mean_distance("before", s).to_dict(),
                "mean_distance_after": self.mean_distance("after", s).to_dict(),
            })
        pols = {}
        for name, c in self.by_policy.items():
            pols[name] = {
                "hands": int(c["hands"]), "games": int(c["games"]), "wins": int(c["wins"]),
                "self_draw_wins": int(c["self_draw_wins"]), "deal_ins": int(c["deal_ins"]),
                "points": int(c["points"]), "jokerless_wins": int(c["jokerless_wins"]),
                "dead_hands": int(c["dead_hands"]),
                "win_rate": self.win_rate(policy=name).to_dict(),
                "deal_in_rate": self.deal_in_rate(policy=name).to_dict(),
                "mean_points": self.mean_points(policy=name).to_dict(),
                "claims": {"quad": int(c["claims"][0]), "joker_exchange": int(c["claims"][1])},
            }
        mt = self.mean_turns()
        return {
            "rules": self.rules.name, "options": self.rules.to_dict(), "games": self.games, "hands": self.hands,
            "seed": seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(s) for s in self.seeds],
            "duplicate": self.duplicate,
            "seats": seats, "policies": pols,
            "exhaustive_draws": self.exhaustive_draws,
            "exhaustive_draw_rate": self.exhaustive_draw_rate().to_dict(),
            "mean_turns": mt.mean, "mean_turns_se": mt.se,
            "wall_games": self.exhaustive_draws, "wall_game_rate": self.wall_game_rate().to_dict(),
            "jokerless_wins": int(self.jokerless_wins.sum()), "dead_hands": int(self.dead_hands.sum()),
            "second_charlestons": self.second_charlestons, "courtesy_tiles": self.courtesy_tiles,
            "distance_before": self.distance_before.sum(axis=0).tolist(),
            "distance_after": self.distance_after.sum(axis=0).tolist(),
            "mean_distance_before": self.mean_distance("before").to_dict(),
            "mean_distance_after": self.mean_distance("after").to_dict(),
        } | ({} if self.lines is None else {"lines": self.lines.to_dict()})

    def table(self) -> str:
        """Readable table with 95% intervals."""
        def fmt(e: Estimate) -> str:
            return f"{e.p:6.4f} [{e.low:6.4f}, {e.high:6.4f}]"

        lines = [f"mjfast simulate: rules=american games={self.games:,} hands={self.hands:,} "
                 f"seed={seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(x) for x in self.seeds]}"
                 + ("  (duplicate)" if self.duplicate else "")]
        lines.append(f"{'':<14}{'win rate':>26}{'self-draw share':>26}{'jokerless share':>26}"
                     f"{'dead-hand rate':>26}{'mean points':>22}")
        start = self._points_start()
        rows: list[tuple[str, dict[str, Any]]] = [
            (f"seat {s} {'' if self.duplicate else _policy_name(self.policies[s])}", dict(seat=s)) for s in range(4)]
        if len(self.by_policy) > 1 or self.duplicate:
            rows += [(f"policy {name}", dict(policy=name)) for name in sorted(self.by_policy)]
        for label, kw in rows:
            mp = self.mean_points(**kw)
            lines.append(f"{label:<14}{fmt(self.win_rate(**kw)):>26}{fmt(self.self_draw_share(**kw)):>26}"
                         f"{fmt(self.jokerless_share(**kw)):>26}{fmt(self.dead_hand_rate(**kw)):>26}"
                         f"{mp.mean - start:>12.2f} ± {Z95 * mp.se:<7.2f}")
        lines.append(f"mean points: won or lost per game (each player starts at {start:,})")
        mt = self.mean_turns()
        lines.append(f"wall games {fmt(self.wall_game_rate())}   mean turns per hand {mt.mean:.2f} ± {Z95 * mt.se:.2f}")
        b, a = self.mean_distance("before"), self.mean_distance("after")
        lines.append(f"distance to Mahjong: before the Charleston {b.mean:.3f} ± {Z95 * b.se:.3f}, "
                     f"after {a.mean:.3f} ± {Z95 * a.se:.3f}; second Charleston danced in "
                     f"{_percent(self.second_charleston_rate().p)} of hands, courtesy tiles per hand "
                     f"{self.courtesy_tiles / max(self.hands, 1):.3f}")
        for when in ("before", "after"):
            h = self.distance_before if when == "before" else self.distance_after
            tot = h.sum(axis=0)
            lines.append(f"distance {when:<6}: " + " ".join(f"{d}:{tot[d] / max(tot.sum(), 1):.3f}"
                                                             for d in range(N_DIST) if tot[d]))
        c = self.claims.sum(axis=0)
        lines.append(f"per hand: calls {c[0] / max(self.hands, 1):.3f}, joker exchanges {c[1] / max(self.hands, 1):.3f}")
        if self.lines is not None:
            lines.append(self.lines.table())
        return "\n".join(lines)


@dataclasses.dataclass(frozen=True, repr=False)
class Comparison(Displayed):
    """Paired difference of two policies on the same walls (see :func:`compare`).

    ``repr`` (and Jupyter) show the differences with their 95% intervals; ``to_pandas()`` gives
    them as rows, ``to_dict()`` as JSON; ``a`` and ``b`` are the two tables' own results.
    """

    policy_a: str
    policy_b: str
    wall_sets: int
    points_diff: Mean        # mean points per game of A minus B in the same seat, same walls
    win_rate_diff: Mean      # share of hands won, A minus B
    a: SimResult
    b: SimResult

    def to_dict(self) -> dict:
        return {"policy_a": self.policy_a, "policy_b": self.policy_b, "wall_sets": self.wall_sets,
                "points_diff": self.points_diff.to_dict(), "win_rate_diff": self.win_rate_diff.to_dict()}

    def _records(self) -> list:
        return [{"statistic": name, "mean": m.mean, "se": m.se, "low": m.low, "high": m.high, "n": m.n}
                for name, m in (("points_diff", self.points_diff), ("win_rate_diff", self.win_rate_diff))]

    def to_pandas(self):
        """The paired differences A - B as rows ``statistic`` (points_diff: points per game;
        win_rate_diff: share of hands won), ``mean``, ``se``, ``low``, ``high`` (95%
        interval), ``n`` (wall sets); ``df.attrs`` names the policies (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> c = mjfast.compare("greedy", "random", 20, seed=3, progress=False)
        >>> c.to_pandas()["statistic"].tolist()   # doctest: +SKIP
        ['points_diff', 'win_rate_diff']
        """
        return frame(("statistic", "mean", "se", "low", "high", "n"), self._records(), what="Comparison.to_pandas()",
                     attrs={"policy_a": self.policy_a, "policy_b": self.policy_b, "wall_sets": self.wall_sets})

    def _display(self) -> Display:
        labels = {"points_diff": "points per game", "win_rate_diff": "share of hands won"}
        rows = [(labels[r["statistic"]], r["mean"], r["se"], interval(r["low"], r["high"])) for r in self._records()]
        return Display(f"Comparison: {self.policy_a} - {self.policy_b}, paired on {self.wall_sets:,} wall sets "
                       f"(rules={self.a.rules.name})",
                       [Table(("difference A - B", "mean", "se", "95% interval"), rows)],
                       ["each table's own statistics: .a (A in one seat), .b (four copies of B)"])


@dataclasses.dataclass(frozen=True, repr=False)
class PassEffect(Displayed):
    """Paired effect of one optional pass: the same games played with it (``on``) and without.

    Every difference is ``on - off`` per game on identical walls and policy streams, then the
    mean and standard error over games (:class:`~mjfast.stats.Mean`).
    """

    option: str
    games: int
    distance_after: Mean       # mean distance to Mahjong after the Charleston (all players)
    win_rate: Mean             # share of hands won (by anyone)
    wall_game_rate: Mean       # share of hands ending with an empty wall
    mean_turns: Mean           # turns per hand
    points: tuple              # per player: final points
    on: AmericanSimResult
    off: AmericanSimResult

    def to_dict(self) -> dict:
        return {"option": self.option, "games": self.games, "distance_after": self.distance_after.to_dict(),
                "win_rate": self.win_rate.to_dict(), "wall_game_rate": self.wall_game_rate.to_dict(),
                "mean_turns": self.mean_turns.to_dict(), "points": [m.to_dict() for m in self.points]}

    def _records(self) -> list:
        stats: list[tuple[str, int | None, Mean]] = [
            (name, None, getattr(self, name)) for name in ("distance_after", "win_rate", "wall_game_rate", "mean_turns")]
        stats += [("points", s, m) for s, m in enumerate(self.points)]
        return [{"statistic": name, "seat": seat, "mean": m.mean, "se": m.se, "low": m.low, "high": m.high, "n": m.n}
                for name, seat, m in stats]

    def to_pandas(self):
        """The paired effects (on - off) as rows ``statistic``, ``seat`` (the player, for
        ``points``; missing otherwise), ``mean``, ``se``, ``low``, ``high`` (95% interval),
        ``n`` (games) (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> eff = mjfast.charleston_effect(20, options="courtesy", seed=2, progress=False)["courtesy"]
        >>> eff.to_pandas()["statistic"].tolist()[:2]   # doctest: +SKIP
        ['distance_after', 'win_rate']
        """
        return frame(("statistic", "seat", "mean", "se", "low", "high", "n"), self._records(),
                     what="PassEffect.to_pandas()", attrs={"option": self.option, "games": self.games},
                     dtypes={"seat": "Int64"})

    def _display(self) -> Display:
        rows = [(r["statistic"] + ("" if r["seat"] is None else f" (player {r['seat']})"), r["mean"], r["se"],
                 interval(r["low"], r["high"])) for r in self._records()]
        return Display(f"PassEffect: {self.option} on - off, paired over {self.games:,} games",
                       [Table(("effect per game", "mean", "se", "95% interval"), rows)],
                       ["each run's own statistics: .on, .off"])




def merge_hist(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


_merge_hist = merge_hist


@dataclasses.dataclass(frozen=True)
class Counters:
    """Where a rule family's engine keeps its per-game counters (named output columns).

    ``out``: every column by name (the common ones of engine.OUT_COMMON and the family's);
    ``claims(o)``: the claims of each game as (m, 4 players, len(claim_kinds)) counts;
    ``per_player``: result field -> column of 4 (American: jokerless wins, dead hands);
    ``scalars``: result field -> column (American: second Charlestons, courtesy tiles);
    ``histograms``: result field -> column of 4 x 15 (American: distance before/after the
    Charleston); ``result``: the result class."""

    out: dict
    claims: Callable[[np.ndarray], np.ndarray]
    claim_kinds: tuple
    per_player: dict = dataclasses.field(default_factory=dict)
    scalars: dict = dataclasses.field(default_factory=dict)
    histograms: dict = dataclasses.field(default_factory=dict)
    result: type[SimResult] = SimResult
    #: Chinese: the fan statistics' columns (name -> first column), FanStats with fan rules
    fan_columns: dict = dataclasses.field(default_factory=dict)
    #: American: the width of a row without a card; the per-line columns of card play follow it
    base_width: int = 0


class Accumulator:
    """Running counters over chunks of per-game engine output (bounded memory); pieces of a
    run merge exactly, in any order (integer sums; second moments as Python ints)."""

    BASE_KEYS = ("hands", "games", "wins", "self_draw_wins", "deal_ins", "points", "points_sq")

    def __init__(self, spec: Counters):
        self.spec = spec
        self.games = 0
        self.hands = 0
        self.wins = np.zeros(4, np.int64)
        self.self_wins = np.zeros(4, np.int64)
        self.deal_ins = np.zeros(4, np.int64)
        self.claims = np.zeros((4, len(spec.claim_kinds)), np.int64)
        self.points = np.zeros(4, np.int64)
        self.points_sq = np.zeros(4, object)   # Python ints: exact however many games
        self.hist: list[dict[int, int]] = [dict() for _ in range(4)]
        self.draws = 0
        self.turns = 0
        self.turns_sq = 0
        self.extra = {k: np.zeros(4, np.int64) for k in spec.per_player}
        self.extra.update({k: 0 for k in spec.scalars})
        self.extra.update({k: np.zeros((4, N_DIST), np.int64) for k in spec.histograms})
        self.by_policy: dict = {}
        self.fan: dict | None = {"sum": 0, "sq": 0, "paid": 0, "paid_sq": 0, "counts": 0, "hist": 0, "false": 0} \
            if spec.fan_columns else None
        self.lines: np.ndarray | None = None          # card play: per-line column sums

    def _new_policy(self) -> dict:
        return ({k: 0 for k in self.BASE_KEYS + tuple(self.spec.per_player)}
                | {"claims": np.zeros(len(self.spec.claim_kinds), np.int64)})

    def add(self, out: np.ndarray, names: np.ndarray) -> None:
        """out: (m, width) engine rows; names: (m, 4) policy name of each player."""
        o = out.astype(np.int64)
        bw = self.spec.base_width
        if bw and o.shape[1] > bw:
            extra = o[:, bw:].sum(axis=0)
            self.lines = extra if self.lines is None else self.lines + extra
        c = self.spec.out
        sc, wi, sd, di = c["score"], c["wins"], c["self_drawn"], c["deal_ins"]
        hands, turns = c["hands"], c["turns"]
        claims = self.spec.claims(o)                       # (m, 4, kinds)
        self.games += len(o)
        self.hands += int(o[:, hands].sum())
        self.wins += o[:, wi:wi + 4].sum(axis=0)
        self.self_wins += o[:, sd:sd + 4].sum(axis=0)
        self.deal_ins += o[:, di:di + 4].sum(axis=0)
        self.claims += claims.sum(axis=0)
        self.points += o[:, sc:sc + 4].sum(axis=0)
        self.points_sq += np.array(exact_square_sums(o[:, sc:sc + 4]), object)
        for s in range(4):
            vals, counts = np.unique(o[:, sc + s], return_counts=True)
            for v, k in zip(vals.tolist(), counts.tolist()):
                self.hist[s][v] = self.hist[s].get(v, 0) + k
        self.draws += int(o[:, c["draws"]].sum())
        self.turns += int(o[:, turns].sum())
        self.turns_sq += int((o[:, turns] ** 2).sum())
        for k, col in self.spec.per_player.items():
            self.extra[k] += o[:, col:col + 4].sum(axis=0)
        for k, col in self.spec.scalars.items():
            self.extra[k] += int(o[:, col].sum())
        for k, col in self.spec.histograms.items():
            self.extra[k] += o[:, col:col + 4 * N_DIST].reshape(-1, 4, N_DIST).sum(axis=0)
        if self.fan is not None:
            fc = self.spec.fan_columns
            for key, col in (("sum", "fan_sum"), ("sq", "fan_sq"), ("paid", "fan_total"), ("paid_sq", "fan_total_sq")):
                self.fan[key] += int(o[:, fc[col]].sum())
            for key, col, width in (("counts", "fan_counts", fc["n_fans"]), ("hist", "fan_hist", fc["n_hist"]),
                                    ("false", "false_wins", 4)):
                self.fan[key] = self.fan[key] + o[:, fc[col]:fc[col] + width].sum(axis=0)
        for name in np.unique(names):
            mask = names == name          # (m, 4)
            p = self.by_policy.setdefault(str(name), self._new_policy())
            p["games"] += int(mask.sum())
            p["hands"] += int((mask * o[:, hands:hands + 1]).sum())
            p["wins"] += int((o[:, wi:wi + 4] * mask).sum())
            p["self_draw_wins"] += int((o[:, sd:sd + 4] * mask).sum())
            p["deal_ins"] += int((o[:, di:di + 4] * mask).sum())
            p["points"] += int((o[:, sc:sc + 4] * mask).sum())
            p["points_sq"] += exact_square_sums(o[:, sc:sc + 4], mask)[0]
            for k, col in self.spec.per_player.items():
                p[k] += int((o[:, col:col + 4] * mask).sum())
            p["claims"] = p["claims"] + (claims * mask[:, :, None]).sum(axis=(0, 1))

    def merge(self, other: Accumulator) -> Accumulator:
        """Add the counters of ``other`` (a disjoint piece of the run) into self; exact."""
        self.games += other.games
        self.hands += other.hands
        self.wins += other.wins
        self.self_wins += other.self_wins
        self.deal_ins += other.deal_ins
        self.claims += other.claims
        self.points += other.points
        self.points_sq += other.points_sq
        self.hist = [merge_hist(a, b) for a, b in zip(self.hist, other.hist)]
        self.draws += other.draws
        self.turns += other.turns
        self.turns_sq += other.turns_sq
        for k in self.extra:
            self.extra[k] = self.extra[k] + other.extra[k]
        if self.fan is not None and other.fan is not None:
            self.fan = {k: self.fan[k] + other.fan[k] for k in self.fan}
        if other.lines is not None:
            self.lines = other.lines.copy() if self.lines is None else self.lines + other.lines
        for name, c in other.by_policy.items():
            mine = self.by_policy.get(name)
            self.by_policy[name] = dict(c) if mine is None else {k: mine[k] + c[k] for k in mine}
        return self

    def result(self, rules, policies, duplicate, seed) -> SimResult:
        res = self.spec.result(rules, self.games, self.hands, tuple(policies), duplicate, (seed,), self.wins,
                               self.self_wins, self.deal_ins, self.claims, self.points, self.points_sq, self.hist,
                               self.draws, self.turns, self.turns_sq, self.by_policy, **self.extra)
        if self.fan is not None and getattr(rules, "uses_fans", False):
            fc, f = self.spec.fan_columns, self.fan
            res.fans = FanStats(rules.min_fan, f["sum"], f["sq"], f["paid"], f["paid_sq"],
                                np.zeros(fc["n_fans"], np.int64) + f["counts"],
                                np.zeros(fc["n_hist"], np.int64) + f["hist"], np.zeros(4, np.int64) + f["false"])
        card = getattr(rules, "card", None)
        if card is not None and isinstance(res, AmericanSimResult):
            from ..card._stats import COLUMNS, LineStats
            sums = (self.lines if self.lines is not None else np.zeros(len(COLUMNS) * len(card.ids), np.int64))
            res.lines = LineStats(card.ids, tuple(ln.section for ln in card.lines),
                                  tuple(ln.points for ln in card.lines), self.hands,
                                  sums.reshape(len(COLUMNS), len(card.ids)).astype(np.int64))
        return res
