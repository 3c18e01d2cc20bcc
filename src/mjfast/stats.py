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
    def from_counts(cls, count: int, n: int, z: float = Z95) -> Estimate:
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


@dataclass(frozen=True)
class Mean:
    """A mean with its standard error and 95% normal interval.

    Examples
    --------
    >>> m = Mean(2.0, 0.5, 100)
    >>> round(m.low, 3), round(m.high, 3)
    (1.02, 2.98)
    """

    mean: float
    se: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - Z95 * self.se

    @property
    def high(self) -> float:
        return self.mean + Z95 * self.se

    def to_dict(self) -> dict:
        return {"mean": self.mean, "se": self.se, "n": self.n, "ci95": [self.low, self.high]}

    @classmethod
    def of_sample(cls, x) -> Mean:
        """The mean of a sample with its standard error (nan below 2 values)."""
        n = len(x)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        return cls(float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan, n)


def exact_square_sums(values, weights=None) -> list[int]:
    """Exact column sums of squares of int32-range integers, as Python ints.

    ``values`` is an (m, k) integer array with ``|v| < 2**31``; each square then fits in 62
    bits, but a sum of many of them can pass int64's range (a game's points squared, summed
    over millions of games). The squares are split at bit 31 and each half summed in int64
    (no overflow below 2**32 rows), then joined as Python ints: exact whatever the run's size,
    and the same in any chunking or merge order. ``weights`` (m, k) of 0/1 masks rows per
    column; the result is then one total over all columns.

    Examples
    --------
    >>> import numpy as np
    >>> exact_square_sums(np.array([[2**30, 3], [-(2**30), 4]]))
    [2305843009213693952, 25]
    """
    import numpy as np

    sq = np.asarray(values, dtype=np.int64) ** 2
    if weights is not None:
        sq = sq * np.asarray(weights, dtype=np.int64)
    hi = (sq >> 31).sum(axis=0)
    lo = (sq & ((1 << 31) - 1)).sum(axis=0)
    if weights is not None:
        return [(int(hi.sum()) << 31) + int(lo.sum())]
    return [(int(h) << 31) + int(low) for h, low in zip(hi.tolist(), lo.tolist())]
