"""Results of simulated games: per-seat and per-policy statistics with their uncertainty
(:class:`SimResult`, with the statistics its rule family attaches: :class:`Extension`), and
paired comparisons (:class:`Comparison`, :class:`PassEffect`). The extensions are in
:mod:`.extensions`, the accumulator that builds results in :mod:`.accumulate`.

Results use composition, not inheritance (as ``sklearn._loss`` does): one SimResult class,
whose ``to_dict``, ``table``, repr and ``+`` are written once and append what each extension
adds; a result of American games is a SimResult whose ``stats["american"]`` answers the
American statistics."""
from __future__ import annotations

import dataclasses
import math
import types
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from .._display import Display, Displayed, Table, frame, interval, pm
from .._runtime.seeding import seed_to_json
from ..rules import RuleSet
from ..stats import Z95, Estimate, Mean
from .policy import policy_name as _policy_name

#: claim kinds of the Chinese family, in the engine's meld order (SimResult.claims columns)
CLAIM_KINDS = ("chow", "pung", "kong", "concealed_kong", "added_kong")
#: American claims: calls for a set of four and joker exchanges
AMERICAN_CLAIMS = ("quad", "joker_exchange")
N_DIST = 15                      # American distances 0..14


class Extension:
    """Statistics a rule family attaches to a :class:`SimResult` (``SimResult.stats[key]``):
    :class:`~mjfast.game.extensions.FanStats`, :class:`~mjfast.game.extensions.AmericanStats`,
    :class:`~mjfast.game.extensions.LineStats`. The family's record names which its results
    carry (:attr:`mjfast.rules.Family.extensions`); the accumulator builds them
    (``from_sums``).

    Results are composed, not subclassed: :class:`SimResult` writes ``to_dict``, ``table``,
    ``repr``/HTML, ``to_pandas`` and ``+`` once, and asks each extension for its part through
    the hooks below (each defaults to "nothing to add"). An extension merges with ``+``.
    """

    #: the name of the statistics in ``SimResult.stats`` (and of their JSON key, if any)
    key: ClassVar[str] = ""
    #: the result's name in its repr and HTML (None: "SimResult")
    title: ClassVar[str | None] = None
    #: (label, rate method) of the displayed columns, replacing the common ones (None: keep)
    columns: ClassVar[tuple | None] = None
    #: fields of the extension that the result answers as its own attributes
    lends: ClassVar[tuple[str, ...]] = ()
    #: functions of the result (its first argument) that it answers as its own methods
    methods: ClassVar[dict[str, Callable[..., Any]]] = {}

    @classmethod
    def from_sums(cls, sums: dict, rules: Any, hands: int) -> Extension | None:
        """The statistics of a run's summed counters (None: the rule set has none)."""
        raise NotImplementedError

    def __add__(self, other):  # pragma: no cover - every extension merges
        return NotImplemented

    # -- its part of a result's JSON -----------------------------------------------------
    def json_head(self, res: SimResult) -> dict:
        """Keys before the common ones of ``to_dict``."""
        return {}

    def json_tail(self, res: SimResult) -> dict:
        """Keys after the common ones of ``to_dict``."""
        return {}

    def seat_json(self, res: SimResult, seat: int) -> dict:
        """Keys added to one seat's JSON."""
        return {}

    def policy_counts(self, res: SimResult, counts: dict) -> dict:
        """Counters added to one policy's JSON (after ``points``)."""
        return {}

    # -- its part of the tables ----------------------------------------------------------
    def summary(self, res: SimResult) -> list[str] | None:
        """Lines of ``table()`` under the rows, replacing the common ones (None: keep them)."""
        return None

    def table_lines(self, res: SimResult) -> list[str]:
        """Lines appended to ``table()``."""
        return []

    def notes(self, res: SimResult) -> list[str] | None:
        """Notes of the repr and HTML, replacing the common ones (None: keep them)."""
        return None

    def more_notes(self, res: SimResult) -> list[str]:
        """Notes appended to the repr and HTML."""
        return []

    def display_tables(self, res: SimResult) -> list[Table]:
        """Tables appended to the repr and HTML."""
        return []

    def points_start(self, res: SimResult) -> int | None:
        """Every player's points at the start of a game, which the tables subtract (None: 0)."""
        return None

    # -- its part of the rows (to_pandas) ------------------------------------------------
    def rates(self, res: SimResult) -> tuple:
        """(name, method) of rates added to each row."""
        return ()

    def row_counts(self, res: SimResult, seat: int | None, policy: str | None) -> dict:
        """Counters added to a row (a seat or a policy)."""
        return {}

    def row_extra(self, res: SimResult, seat: int | None, policy: str | None) -> dict:
        """Columns added to a row after the means."""
        return {}

    def attrs(self, res: SimResult) -> dict:
        """Entries added to ``DataFrame.attrs``."""
        return {}


def rate_text(e: Estimate) -> str:
    """An estimate as the tables write it: share and 95% interval."""
    return f"{e.p:6.4f} [{e.low:6.4f}, {e.high:6.4f}]"


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
    #: the statistics the rule family attaches (:class:`Extension` by key, in the family's order)
    stats: dict = dataclasses.field(default_factory=dict)
    #: the columns of ``claims`` (the family's claim kinds)
    claim_kinds: tuple = CLAIM_KINDS

    # -- the extensions --------------------------------------------------------------------
    @property
    def fans(self):
        """Chinese Official fan statistics (:class:`~mjfast.game.extensions.FanStats`) of rule
        sets scored with fans, else None."""
        return self.stats.get("fans")

    @property
    def lines(self):
        """Per-line statistics of American card play
        (:class:`~mjfast.game.extensions.LineStats`), else None."""
        return self.stats.get("lines")

    def __getattr__(self, name: str) -> Any:
        # what an extension lends its result (the American statistics: r.jokerless_share(), ...)
        stats = self.__dict__.get("stats") if not name.startswith("__") else None
        for ext in (stats or {}).values():
            if name in ext.lends:
                return getattr(ext, name)
            fn = ext.methods.get(name)
            if fn is not None:
                return types.MethodType(fn, self)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self):
        lent = [n for ext in self.stats.values() for n in (*ext.lends, *ext.methods)]
        return sorted(set(super().__dir__()) | set(lent))

    def _title(self) -> str:
        return next((e.title for e in self.stats.values() if e.title), type(self).__name__)

    @property
    def _claim_kinds(self) -> tuple:
        return self.claim_kinds

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
        """Mean claims per hand by kind (Chinese: chow, pung, kong, concealed_kong,
        added_kong; American: calls for a set of four "quad" and joker exchanges)."""
        if policy is not None:
            c, h = self.by_policy[policy]["claims"], self.by_policy[policy]["hands"]
        else:
            c, h = self.claims[seat], self.hands
        return {k: (float(c[i]) / h if h else math.nan) for i, k in enumerate(self.claim_kinds)}

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
        hist = [merge_hist(a, b) for a, b in zip(self.points_hist, other.points_hist)]
        byp = {}
        for name in dict.fromkeys([*self.by_policy, *other.by_policy]):   # self's order, then other's new names
            a, b = self.by_policy.get(name), other.by_policy.get(name)
            byp[name] = b if a is None else a if b is None else {k: a[k] + b[k] for k in a}
        out = SimResult(self.rules, self.games + other.games, self.hands + other.hands, self.policies,
                        self.duplicate, self.seeds + other.seeds, self.wins + other.wins,
                        self.self_draw_wins + other.self_draw_wins, self.deal_ins + other.deal_ins,
                        self.claims + other.claims, self.points + other.points, self.points_sq + other.points_sq,
                        hist, self.exhaustive_draws + other.exhaustive_draws, self.turns + other.turns,
                        self.turns_sq_per_game + other.turns_sq_per_game, byp,
                        {k: e + other.stats[k] for k, e in self.stats.items() if k in other.stats}, self.claim_kinds)
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
                "claims": {k: int(self.claims[s, i]) for i, k in enumerate(self.claim_kinds)},
            })
            for e in self.stats.values():
                seats[-1].update(e.seat_json(self, s))
        pols: dict[str, dict[str, Any]] = {}
        for name, c in self.by_policy.items():
            pols[name] = {
                "hands": int(c["hands"]), "games": int(c["games"]), "wins": int(c["wins"]),
                "self_draw_wins": int(c["self_draw_wins"]), "deal_ins": int(c["deal_ins"]),
                "points": int(c["points"]),
            }
            for e in self.stats.values():
                pols[name].update(e.policy_counts(self, c))
            pols[name] |= {
                "win_rate": self.win_rate(policy=name).to_dict(),
                "deal_in_rate": self.deal_in_rate(policy=name).to_dict(),
                "mean_points": self.mean_points(policy=name).to_dict(),
                "claims": {k: int(c["claims"][i]) for i, k in enumerate(self.claim_kinds)},
            }
        mt = self.mean_turns()
        out: dict = {}
        for e in self.stats.values():
            out |= e.json_head(self)
        out |= {
            "rules": self.rules.name, "options": self.rules.to_dict(), "games": self.games, "hands": self.hands,
            "seed": seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(s) for s in self.seeds],
            "duplicate": self.duplicate,
            "seats": seats, "policies": pols,
            "exhaustive_draws": self.exhaustive_draws,
            "exhaustive_draw_rate": self.exhaustive_draw_rate().to_dict(),
            "mean_turns": mt.mean, "mean_turns_se": mt.se,
        }
        for e in self.stats.values():
            out |= e.json_tail(self)
        return out

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
        out: tuple = (("win_rate", self.win_rate), ("self_draw_share", self.self_draw_share),
                      ("deal_in_rate", self.deal_in_rate))
        for e in self.stats.values():
            out += e.rates(self)
        return out

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
        out.update({f"claims_{k}": int(claims[i]) for i, k in enumerate(self.claim_kinds)})
        for e in self.stats.values():
            out.update(e.row_counts(self, seat, policy))
        return out

    def _extra_columns(self, seat, policy) -> dict:
        """Columns the extensions add to each row (American statistics)."""
        out: dict = {}
        for e in self.stats.values():
            out.update(e.row_extra(self, seat, policy))
        return out

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
        out = {"rules": self.rules.name, "options": self.rules.to_dict(), "games": self.games, "hands": self.hands,
               "seed": seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(s) for s in self.seeds],
               "duplicate": self.duplicate, "exhaustive_draws": self.exhaustive_draws,
               "mean_turns": mt.mean, "mean_turns_se": mt.se}
        for e in self.stats.values():
            out |= e.attrs(self)
        return out

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
        return frame(tuple(rows[0]) if rows else ("policy",), rows, what=f"{self._title()}.to_pandas()",
                     attrs=self._attrs(), dtypes={"policy": "text"})

    def _summary_notes(self) -> list:
        for e in self.stats.values():
            own = e.notes(self)
            if own is not None:
                notes = own
                break
        else:
            notes = self._common_notes()
        for e in self.stats.values():
            notes += e.more_notes(self)
        return notes

    def _common_notes(self) -> list:
        ed, mt = self.exhaustive_draw_rate(), self.mean_turns()
        claims = self.claims.sum(axis=0) / max(self.hands, 1)
        notes = [f"exhaustive draws {ed.p:.4g} {interval(ed.low, ed.high)}, mean turns per hand "
                 f"{pm(mt.mean, Z95 * mt.se)}",
                 "claims per hand: " + ", ".join(f"{k} {claims[i]:.3g}" for i, k in enumerate(self.claim_kinds))]
        return notes

    def _display_columns(self) -> tuple:
        return next((e.columns for e in self.stats.values() if e.columns is not None),
                    (("win rate", "win_rate"), ("self-draw share", "self_draw_share"),
                     ("deal-in rate", "deal_in_rate")))

    def points_start(self) -> int:
        """The points each player starts a game with: 0, or what the rule set names (American:
        650). The tables subtract it from :meth:`mean_points`, so that they show points won or
        lost per game in every rule set.

        Examples
        --------
        >>> import mjfast
        >>> mjfast.simulate(4, seed=1, progress=False).points_start()
        0
        """
        return next((p for p in (e.points_start(self) for e in self.stats.values()) if p is not None), 0)

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
            row += [r["mean_points"] - self.points_start(), r["mean_points_se"] * Z95]
            rows.append(row)
        title = (f"{self._title()}: rules={self.rules.name}, {self.games:,} games, {self.hands:,} hands, "
                 f"seed={self._seed_text()}" + (" (duplicate)" if self.duplicate else ""))
        tables = [Table(head, rows)]
        for e in self.stats.values():
            tables += e.display_tables(self)
        return Display(title, tables, self._summary_notes())

    def table(self) -> str:
        """Readable win-rate table with 95% intervals."""
        cols = self._display_columns()
        start = self.points_start()
        lines = [f"mjfast simulate: rules={self.rules.name} games={self.games:,} hands={self.hands:,} "
                 f"seed={seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(x) for x in self.seeds]}"
                 + ("  (duplicate)" if self.duplicate else "")]
        lines.append(f"{'':<14}" + "".join(f"{label:>26}" for label, _ in cols) + f"{'mean points':>22}")
        rows: list[tuple[str, dict[str, Any]]] = [
            (f"seat {s} {'' if self.duplicate else _policy_name(self.policies[s])}", dict(seat=s)) for s in range(4)]
        if len(self.by_policy) > 1 or self.duplicate:
            rows += [(f"policy {name}", dict(policy=name)) for name in sorted(self.by_policy)]
        rates = dict(self._rates())
        for label, kw in rows:
            mp = self.mean_points(**kw)
            lines.append(f"{label:<14}" + "".join(f"{rate_text(rates[name](**kw)):>26}" for _, name in cols)
                         + f"{mp.mean - start:>12.2f} ± {Z95 * mp.se:<7.2f}")
        for e in self.stats.values():
            own = e.summary(self)
            if own is not None:
                lines += own
                break
        else:
            ed, mt = self.exhaustive_draw_rate(), self.mean_turns()
            lines.append(f"exhaustive draws {rate_text(ed)}   mean turns per hand {mt.mean:.2f} ± {Z95 * mt.se:.2f}")
            claims = self.claims.sum(axis=0)
            lines.append("claims per hand: " + ", ".join(f"{k} {claims[i] / max(self.hands, 1):.3f}"
                                                         for i, k in enumerate(self.claim_kinds)))
        for e in self.stats.values():
            lines += e.table_lines(self)
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
    on: SimResult              # the American runs with the pass, and without it
    off: SimResult

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
    """Two histograms {value: count} added."""
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out
