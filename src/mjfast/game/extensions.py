"""The statistics a rule family attaches to a :class:`~mjfast.SimResult` (its extensions, see
:class:`~mjfast.game.results.Extension`):

- :class:`FanStats`: Chinese Official fans (``SimResult.fans``, rule sets with fans);
- :class:`AmericanStats`: the American statistics (jokerless wins, dead hands, distances to
  Mahjong before and after the Charleston, second Charlestons, courtesy tiles), which a result
  of American games answers as its own (``r.jokerless_share()``); :class:`AmericanSimResult`
  is the ``isinstance`` check of such results and documents what they answer;
- :class:`LineStats`: a card's per-line statistics (``SimResult.lines``, American card play).

The family records (:class:`mjfast.rules.Family`) say which of them their engines' counters
build (:mod:`mjfast.game.accumulate`).
"""
from __future__ import annotations

import dataclasses
import math
import types
from typing import Any, NoReturn

import numpy as np

from .._display import Display, Displayed, Table, frame, interval, pm
from ..mcr import FANS
from ..rules import AmericanRules
from ..stats import Z95, Estimate, Mean
from .results import N_DIST, Extension, SimResult, rate_text

#: the engine's per-line columns of card play, in order (american_game.CARD_COLUMNS)
LINE_COLUMNS = ("wins", "jokerless", "sum_before", "sum_after", "sq_before", "sq_after", "sq_change")


def _percent(p: float) -> str:
    """A share as a percentage for the tables: "100%", "37.5%", "0%" ("-" without hands)."""
    if p != p:
        return "-"
    return f"{100 * p:.1f}".rstrip("0").rstrip(".") + "%"


@dataclasses.dataclass(eq=False, repr=False)
class FanStats(Extension, Displayed):
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

    key = "fans"

    @classmethod
    def from_sums(cls, sums: dict, rules: Any, hands: int) -> FanStats | None:
        """The fan statistics of a run's summed columns (``mjfast.game.accumulate``); None
        for rules whose wins are not scored with fans."""
        if not rules.uses_fans:
            return None
        return cls(rules.min_fan, sums["fan_sum"], sums["fan_sq"], sums["fan_total"], sums["fan_total_sq"],
                   sums["fan_counts"].copy(), sums["fan_hist"].copy(), sums["false_wins"].copy())

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

    # -- its part of a SimResult -----------------------------------------------------------
    def json_head(self, res: SimResult) -> dict:
        return {"fans": self.to_dict()}

    def table_lines(self, res: SimResult) -> list[str]:
        return [self.table()]

    def more_notes(self, res: SimResult) -> list[str]:
        mf = self.mean_fan()
        freq = [(k, e) for k, e in self.frequency().items() if e.count][:6]
        return [f"fans (min {self.min_fan}): mean fan {pm(mf.mean, Z95 * mf.se)}; most frequent: "
                + ", ".join(f"{k} {e.p:.3g}" for k, e in freq) + " (.fans for all)"]


# -- American -------------------------------------------------------------------------------
# What a result of American games answers besides the common statistics: methods of the
# result (functions of it, lent by AmericanStats and documented on AmericanSimResult).

def jokerless_share(self: SimResult, seat=None, policy=None) -> Estimate:
    """Share of wins whose hand held no joker."""
    j, _ = self._pick("jokerless_wins", seat, policy)
    w, _ = self._pick("wins", seat, policy)
    return Estimate.from_counts(j, w)


def dead_hand_rate(self: SimResult, seat=None, policy=None) -> Estimate:
    """Share of hands in which this player's hand went dead."""
    d, h = self._pick("dead_hands", seat, policy)
    return Estimate.from_counts(d, h)


def wall_game_rate(self: SimResult) -> Estimate:
    """Share of hands ended by an empty wall (the same as :meth:`exhaustive_draw_rate`)."""
    return self.exhaustive_draw_rate()


def second_charleston_rate(self: SimResult) -> Estimate:
    """Share of hands in which the second Charleston was danced."""
    return Estimate.from_counts(self.stats["american"].second_charlestons, self.hands)


def distance_distribution(self: SimResult, when: str = "after", seat: int | None = None) -> list:
    """Share of hands at each distance 0..14 (``when`` "before" or "after" the Charleston),
    for player ``seat`` or all players pooled; a list of 15 Estimates."""
    h = _hist(self, when, seat)
    n = int(h.sum())
    return [Estimate.from_counts(int(c), n) for c in h]


def mean_distance(self: SimResult, when: str = "after", seat: int | None = None) -> Mean:
    """Mean distance to Mahjong before or after the Charleston (hands are independent)."""
    h = _hist(self, when, seat).astype(np.float64)
    n = int(h.sum())
    d = np.arange(N_DIST)
    if n == 0:
        return Mean(math.nan, math.nan, 0)
    m = float((h * d).sum() / n)
    var = float((h * (d - m) ** 2).sum() / (n - 1)) if n > 1 else math.nan
    return Mean(m, math.sqrt(var / n) if n > 1 else math.nan, n)


def _hist(res: SimResult, when, seat):
    if when not in ("before", "after"):
        raise ValueError(f"when must be 'before' or 'after', got {when!r}")
    st = res.stats["american"]
    h = st.distance_before if when == "before" else st.distance_after
    if seat is None:
        return h.sum(axis=0)
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0-3, got {seat!r}")
    return h[seat]


@dataclasses.dataclass(eq=False)
class AmericanStats(Extension):
    """The American statistics of simulated games (``SimResult.stats["american"]``).

    Per player: ``jokerless_wins`` and ``dead_hands`` (4,); ``distance_before`` and
    ``distance_after`` (4, 15): histograms of the distance to Mahjong of each player's hand
    right after the deal and after the whole Charleston (courtesy pass included); per run:
    ``second_charlestons`` (hands in which it was danced) and ``courtesy_tiles`` (tiles
    exchanged). The result answers them as its own, with the rates built on them (see
    :class:`AmericanSimResult`).
    """

    jokerless_wins: np.ndarray
    dead_hands: np.ndarray
    distance_before: np.ndarray
    distance_after: np.ndarray
    second_charlestons: int
    courtesy_tiles: int

    key = "american"
    title = "AmericanSimResult"
    columns = (("win rate", "win_rate"), ("self-draw share", "self_draw_share"),
               ("jokerless share", "jokerless_share"), ("dead-hand rate", "dead_hand_rate"))
    lends = ("jokerless_wins", "dead_hands", "distance_before", "distance_after", "second_charlestons",
             "courtesy_tiles")
    methods = {f.__name__: f for f in (jokerless_share, dead_hand_rate, wall_game_rate, second_charleston_rate,
                                       distance_distribution, mean_distance)}

    @classmethod
    def from_sums(cls, sums: dict, rules: Any, hands: int) -> AmericanStats:
        """The American statistics of a run's summed columns (``mjfast.game.accumulate``)."""
        return cls(sums["jokerless_wins"], sums["dead_hands"], sums["distance_before"], sums["distance_after"],
                   sums["second_charlestons"], sums["courtesy_tiles"])

    def __add__(self, other: AmericanStats) -> AmericanStats:
        if not isinstance(other, AmericanStats):
            return NotImplemented
        return AmericanStats(self.jokerless_wins + other.jokerless_wins, self.dead_hands + other.dead_hands,
                             self.distance_before + other.distance_before, self.distance_after + other.distance_after,
                             self.second_charlestons + other.second_charlestons,
                             self.courtesy_tiles + other.courtesy_tiles)

    def points_start(self, res: SimResult) -> int:
        rules = res.rules
        assert isinstance(rules, AmericanRules)          # the American family's statistics
        return rules.start_points

    def json_tail(self, res: SimResult) -> dict:
        return {
            "wall_games": res.exhaustive_draws, "wall_game_rate": wall_game_rate(res).to_dict(),
            "jokerless_wins": int(self.jokerless_wins.sum()), "dead_hands": int(self.dead_hands.sum()),
            "second_charlestons": self.second_charlestons, "courtesy_tiles": self.courtesy_tiles,
            "distance_before": self.distance_before.sum(axis=0).tolist(),
            "distance_after": self.distance_after.sum(axis=0).tolist(),
            "mean_distance_before": mean_distance(res, "before").to_dict(),
            "mean_distance_after": mean_distance(res, "after").to_dict(),
        }

    def seat_json(self, res: SimResult, seat: int) -> dict:
        s = seat
        return {
            "jokerless_wins": int(self.jokerless_wins[s]),
            "jokerless_share": jokerless_share(res, s).to_dict(),
            "dead_hands": int(self.dead_hands[s]), "dead_hand_rate": dead_hand_rate(res, s).to_dict(),
            "distance_before": self.distance_before[s].tolist(),
            "distance_after": self.distance_after[s].tolist(),
            "mean_distance_before": mean_distance(res, "before", s).to_dict(),
            "mean_distance_after": mean_distance(res, "after", s).to_dict(),
        }

    def policy_counts(self, res: SimResult, counts: dict) -> dict:
        return {"jokerless_wins": int(counts["jokerless_wins"]), "dead_hands": int(counts["dead_hands"])}

    def summary(self, res: SimResult) -> list[str]:
        start = res.points_start()
        mt = res.mean_turns()
        b, a = mean_distance(res, "before"), mean_distance(res, "after")
        lines = [f"mean points: won or lost per game (each player starts at {start:,})",
                 f"wall games {rate_text(wall_game_rate(res))}   mean turns per hand {mt.mean:.2f} ± {Z95 * mt.se:.2f}",
                 f"distance to Mahjong: before the Charleston {b.mean:.3f} ± {Z95 * b.se:.3f}, "
                 f"after {a.mean:.3f} ± {Z95 * a.se:.3f}; second Charleston danced in "
                 f"{_percent(second_charleston_rate(res).p)} of hands, courtesy tiles per hand "
                 f"{self.courtesy_tiles / max(res.hands, 1):.3f}"]
        for when in ("before", "after"):
            h = self.distance_before if when == "before" else self.distance_after
            tot = h.sum(axis=0)
            lines.append(f"distance {when:<6}: " + " ".join(f"{d}:{tot[d] / max(tot.sum(), 1):.3f}"
                                                             for d in range(N_DIST) if tot[d]))
        c = res.claims.sum(axis=0)
        lines.append(f"per hand: calls {c[0] / max(res.hands, 1):.3f}, joker exchanges {c[1] / max(res.hands, 1):.3f}")
        return lines

    def notes(self, res: SimResult) -> list[str]:
        wg, mt = wall_game_rate(res), res.mean_turns()
        b, a = mean_distance(res, "before"), mean_distance(res, "after")
        c = res.claims.sum(axis=0) / max(res.hands, 1)
        return [f"mean points: won or lost per game (each player starts at {res.points_start():,})",
                f"wall games {wg.p:.4g} {interval(wg.low, wg.high)}, mean turns per hand {pm(mt.mean, Z95 * mt.se)}",
                f"distance to Mahjong: before the Charleston {pm(b.mean, Z95 * b.se)}, after {pm(a.mean, Z95 * a.se)}; "
                f"second Charleston danced in {_percent(second_charleston_rate(res).p)} of hands",
                f"per hand: calls {c[0]:.3g}, joker exchanges {c[1]:.3g}, courtesy tiles "
                f"{self.courtesy_tiles / max(res.hands, 1):.3g}"]

    def rates(self, res: SimResult) -> tuple:
        return (("jokerless_share", types.MethodType(jokerless_share, res)),
                ("dead_hand_rate", types.MethodType(dead_hand_rate, res)))

    def row_counts(self, res: SimResult, seat: int | None, policy: str | None) -> dict:
        src = res.by_policy[policy] if policy is not None else None
        return {name: int(src[name]) if src is not None else int(getattr(self, name)[seat])
                for name in ("jokerless_wins", "dead_hands")}

    def row_extra(self, res: SimResult, seat: int | None, policy: str | None) -> dict:
        out = {}
        for when in ("before", "after"):     # per player only (policies pool players' hands differently)
            m = mean_distance(res, when, seat) if seat is not None else Mean(math.nan, math.nan, 0)
            out[f"mean_distance_{when}"], out[f"mean_distance_{when}_se"] = m.mean, m.se
        return out

    def attrs(self, res: SimResult) -> dict:
        return {"second_charlestons": self.second_charlestons, "courtesy_tiles": self.courtesy_tiles}


class _AmericanResults(type):
    """The type of :class:`AmericanSimResult`: ``isinstance`` asks the result's rules."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, SimResult) and "american" in obj.stats

    def __call__(cls, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("AmericanSimResult is not constructed: simulate(rules='american') returns a SimResult "
                        "whose stats['american'] holds the American statistics; isinstance(r, AmericanSimResult) "
                        "tells such results apart")


class AmericanSimResult(SimResult, metaclass=_AmericanResults):
    """A :class:`~mjfast.SimResult` of American games: ``isinstance(r, AmericanSimResult)`` is
    True exactly for the results of American rule sets, which answer the American statistics
    besides the common ones (listed here; they are lent by ``r.stats["american"]``, an
    :class:`AmericanStats`).

    ``claims`` holds per player (calls for a set of four, joker exchanges);
    ``distance_before``/``distance_after`` are (4, 15) histograms of the distance to Mahjong of
    each player's hand right after the deal and after the whole Charleston (courtesy pass
    included); ``exhaustive_draws`` counts wall games; ``lines`` holds a card's per-line
    statistics (card play).

    Results are one class, :class:`~mjfast.SimResult`, with the statistics of their family
    attached (composition): this class is not instantiated, it names that kind of result
    for ``isinstance`` and for its documentation.

    Examples
    --------
    >>> import mjfast
    >>> r = mjfast.simulate(20, rules="american", seed=1, progress=False)
    >>> isinstance(r, mjfast.AmericanSimResult), type(r).__name__
    (True, 'SimResult')
    >>> isinstance(mjfast.simulate(5, seed=1, progress=False), mjfast.AmericanSimResult)
    False
    >>> 0 <= r.jokerless_share(seat=0).p <= 1 and r.mean_distance("after").mean < r.mean_distance("before").mean
    True
    """

    jokerless_share = jokerless_share
    dead_hand_rate = dead_hand_rate
    wall_game_rate = wall_game_rate
    second_charleston_rate = second_charleston_rate
    distance_distribution = distance_distribution
    mean_distance = mean_distance


# -- cards -----------------------------------------------------------------------------------

@dataclasses.dataclass(repr=False)
class LineStats(Extension, Displayed):
    """What happened to each line of the card in simulated games.

    ``wins[l]`` and ``jokerless[l]`` count the hands won with line ``l`` (the line a win is paid
    as: the highest-valued complete line) and those won without a joker; the distances are
    every player's distance to the line right after the deal and after the whole Charleston
    (``n`` = 4 x hands such pairs). Merge with ``a + b``.

    Examples
    --------
    >>> import mjfast
    >>> from mjfast.card import toy_card
    >>> r = mjfast.simulate(40, rules="american", card=toy_card(), seed=1, progress=False)
    >>> st = r.lines
    >>> int(st.wins.sum()) == int(r.wins.sum())
    True
    >>> st.charleston_effect("toy-2").mean < 0          # the Charleston brings hands closer to toy-2
    True
    """
    ids: tuple
    sections: tuple
    points: tuple
    hands: int
    sums: np.ndarray            # (7, L) int64: LINE_COLUMNS x lines

    key = "lines"

    @classmethod
    def from_sums(cls, sums: dict, rules: Any, hands: int) -> LineStats | None:
        """The per-line statistics of a run's summed columns (the tail of the American engine's
        rows with a card, ``mjfast.game.accumulate``); None for play without a card."""
        card = rules.card
        if card is None:
            return None
        tail = sums["tail"] if sums["tail"] is not None else np.zeros(len(LINE_COLUMNS) * len(card.ids), np.int64)
        return cls(card.ids, tuple(ln.section for ln in card.lines), tuple(ln.points for ln in card.lines), hands,
                   tail.reshape(len(LINE_COLUMNS), len(card.ids)).astype(np.int64))

    @property
    def wins(self) -> np.ndarray:
        return self.sums[0]

    @property
    def jokerless(self) -> np.ndarray:
        return self.sums[1]

    @property
    def n(self) -> int:
        """Player-hands behind each distance mean (4 per hand)."""
        return 4 * self.hands

    def _index(self, line) -> int:
        if isinstance(line, (int, np.integer)) and not isinstance(line, bool):
            if not 0 <= int(line) < len(self.ids):
                raise ValueError(f"line index {line} outside 0-{len(self.ids) - 1}")
            return int(line)
        try:
            return self.ids.index(line)
        except ValueError:
            raise ValueError(f"no line {line!r}; the lines are {', '.join(self.ids)}") from None

    def win_rate(self, line) -> Estimate:
        """Share of hands won with this line."""
        return Estimate.from_counts(int(self.wins[self._index(line)]), self.hands)

    def win_share(self, line) -> Estimate:
        """Share of wins that were this line."""
        return Estimate.from_counts(int(self.wins[self._index(line)]), int(self.wins.sum()))

    def jokerless_share(self, line) -> Estimate:
        """Share of this line's wins without a joker."""
        i = self._index(line)
        return Estimate.from_counts(int(self.jokerless[i]), int(self.wins[i]))

    def _mean(self, s: int, sq: int) -> Mean:
        n = self.n
        if n == 0:
            return Mean(math.nan, math.nan, 0)
        m = s / n
        var = (sq - n * m * m) / (n - 1) if n > 1 else math.nan
        return Mean(m, math.sqrt(max(var, 0.0) / n) if n > 1 else math.nan, n)

    def mean_distance(self, line, when: str = "after") -> Mean:
        """Mean distance of a player's hand to the line after the deal (``"before"`` the
        Charleston) or after the Charleston (``"after"``)."""
        if when not in ("before", "after"):
            raise ValueError(f"when must be 'before' or 'after', got {when!r}")
        i = self._index(line)
        r = 2 if when == "before" else 3
        return self._mean(int(self.sums[r, i]), int(self.sums[r + 2, i]))

    def charleston_effect(self, line) -> Mean:
        """Mean change of the distance to the line over the Charleston (after minus before; the
        pairs are the same hands, so the interval is the paired one)."""
        i = self._index(line)
        n = self.n
        if n == 0:
            return Mean(math.nan, math.nan, 0)
        d = int(self.sums[3, i]) - int(self.sums[2, i])
        m = d / n
        var = (int(self.sums[6, i]) - n * m * m) / (n - 1) if n > 1 else math.nan
        return Mean(m, math.sqrt(max(var, 0.0) / n) if n > 1 else math.nan, n)

    def __add__(self, other: LineStats) -> LineStats:
        if not isinstance(other, LineStats) or other.ids != self.ids:
            return NotImplemented
        return LineStats(self.ids, self.sections, self.points, self.hands + other.hands, self.sums + other.sums)

    def rows(self) -> list[dict]:
        """One dict per line: id, section, points, wins, win_rate, win_share, jokerless_share,
        mean distance before/after the Charleston and the Charleston's effect (each with se and
        95% interval)."""
        out = []
        for i, lid in enumerate(self.ids):
            out.append({"id": lid, "section": self.sections[i], "points": int(self.points[i]),
                        "wins": int(self.wins[i]), "jokerless_wins": int(self.jokerless[i]),
                        "win_rate": self.win_rate(i).to_dict(), "win_share": self.win_share(i).to_dict(),
                        "jokerless_share": self.jokerless_share(i).to_dict(),
                        "mean_distance_before": self.mean_distance(i, "before").to_dict(),
                        "mean_distance_after": self.mean_distance(i, "after").to_dict(),
                        "charleston_effect": self.charleston_effect(i).to_dict()})
        return out

    def to_dict(self) -> dict:
        return {"hands": self.hands, "lines": self.rows()}

    _FLAT = ("id", "section", "points", "wins", "jokerless_wins", "win_rate", "win_rate_se", "win_share",
             "win_share_se", "jokerless_share", "jokerless_share_se", "mean_distance_before",
             "mean_distance_before_se", "mean_distance_after", "mean_distance_after_se", "charleston_effect",
             "charleston_effect_se")

    def to_pandas(self):
        """One row per line (estimates as value and ``_se`` columns), indexed by line id; pandas is
        an optional dependency."""
        flat = []
        for r in self.rows():
            row = {k: v for k, v in r.items() if not isinstance(v, dict)}
            for k, v in r.items():
                if isinstance(v, dict):
                    row[k] = v.get("p", v.get("mean"))
                    row[k + "_se"] = v.get("se")
            flat.append(row)
        return frame(self._FLAT, flat, what="LineStats.to_pandas()", attrs={"hands": self.hands}).set_index("id")

    def _display(self) -> Display:
        rows = []
        for i, lid in enumerate(self.ids):
            wr, jl = self.win_rate(i), self.jokerless_share(i)
            b, a, e = self.mean_distance(i, "before"), self.mean_distance(i, "after"), self.charleston_effect(i)
            rows.append((lid, int(self.points[i]), int(self.wins[i]), wr.p, interval(wr.low, wr.high),
                         jl.p if self.wins[i] else None, b.mean, a.mean, pm(e.mean, Z95 * e.se)))
        return Display(f"per line: {self.hands:,} hands",
                       [Table(("line", "points", "wins", "win rate", "95% interval", "jokerless share",
                               "distance after deal", "after Charleston", "Charleston effect ± 95%"), rows)])

    def table(self) -> str:
        """Readable per-line table: wins, win rate, jokerless share, distances and the effect."""
        head = (f"{'line':<12} {'pts':>4} {'wins':>7} {'win rate':>9} {'jokerless':>9} {'dist deal':>10} "
                f"{'dist after':>10} {'effect':>15}")
        lines = [f"per line ({self.hands:,} hands; distances: mean over players after the deal and after "
                 "the Charleston, effect = paired change ± 95%)", head]
        for i, lid in enumerate(self.ids):
            wr, jl = self.win_rate(i), self.jokerless_share(i)
            b, a, e = self.mean_distance(i, "before"), self.mean_distance(i, "after"), self.charleston_effect(i)
            jl_text = f"{jl.p:9.3f}" if self.wins[i] else f"{'-':>9}"
            lines.append(f"{lid:<12} {int(self.points[i]):>4} {int(self.wins[i]):>7} {wr.p:>9.4f} {jl_text} "
                         f"{b.mean:>10.2f} {a.mean:>10.2f} {e.mean:>+8.2f} ± {Z95 * e.se:<5.2f}")
        return "\n".join(lines)

    # -- its part of a SimResult -----------------------------------------------------------
    def json_tail(self, res: SimResult) -> dict:
        return {"lines": self.to_dict()}

    def table_lines(self, res: SimResult) -> list[str]:
        return [self.table()]

    def display_tables(self, res: SimResult) -> list[Table]:
        return self._display().tables
