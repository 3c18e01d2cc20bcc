"""Estimates with their uncertainty: counts, standard errors and Wilson intervals."""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Estimate:
    """A proportion estimated from ``count`` successes in ``n`` trials.

    Attributes
    ----------
    count, n : int
        Successes and trials.
    p : float
        count / n (nan when n = 0).
    se : float
        Standard error sqrt(p (1 - p) / n).
    low, high : float
        95% Wilson score interval (good coverage even for rare events and p = 0).

    Examples
    --------
    >>> e = Estimate.from_counts(25, 1000)
    >>> round(e.p, 3), round(e.se, 4), round(e.low, 4), round(e.high, 4)
    (0.025, 0.0049, 0.017, 0.0366)
    >>> e.one_in
    40.0
    """

    count: int
    n: int
    p: float
    se: float
    low: float
    high: float

    @classmethod
    def from_counts(cls, count: int, n: int, z: float = Z95) -> "Estimate":
        count, n = int(count), int(n)
        if n <= 0:
            return cls(count, n, math.nan, math.nan, math.nan, math.nan)
        p = count / n
        se = math.sqrt(p * (1 - p) / n)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        low = 0.0 if count == 0 else max(0.0, centre - half)    # exact ends: no rounding residue
        high = 1.0 if count == n else min(1.0, centre + half)
        return cls(count, n, p, se, low, high)

    @property
    def one_in(self) -> float:
        """1 / p: "one deal in N" (inf when p = 0)."""
        return math.inf if self.p == 0 else 1.0 / self.p

    def to_dict(self) -> dict:
        return {"count": self.count, "n": self.n, "p": self.p, "se": self.se, "ci95": [self.low, self.high]}
