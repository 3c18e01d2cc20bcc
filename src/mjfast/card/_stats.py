"""Per-line statistics of simulated American games with a card (``AmericanSimResult.lines``)."""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._display import Display, Displayed, Table, frame, interval, pm
from ..stats import Z95, Estimate, Mean

#: the engine's per-line columns, in order (american_game.CARD_COLUMNS)
COLUMNS = ("wins", "jokerless", "sum_before", "sum_after", "sq_before", "sq_after", "sq_change")


@dataclasses.dataclass(repr=False)
class LineStats(Displayed):
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
    sums: np.ndarray            # (7, L) int64: COLUMNS x lines

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
