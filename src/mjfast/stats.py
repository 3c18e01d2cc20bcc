"""Estimates with their uncertainty: counts, standard errors and Wilson intervals."""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def _g(x: float) -> str:
    """A float in a repr: 6 significant digits (the exact value stays in the attribute)."""
    return format(x, ".6g")


@dataclass(frozen=True, repr=False)
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

    def __repr__(self) -> str:
        return (f"Estimate(count={self.count}, n={self.n}, p={_g(self.p)}, se={_g(self.se)}, "
                f"low={_g(self.low)}, high={_g(self.high)})")


@dataclass(frozen=True, repr=False)
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

    def __repr__(self) -> str:
        return f"Mean(mean={_g(self.mean)}, se={_g(self.se)}, n={self.n})"

    @classmethod
    def of_sample(cls, x) -> Mean:
        """The mean of a sample with its standard error (nan below 2 values)."""
        n = len(x)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        return cls(float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan, n)


class Probability(float):
    """A probability that is both a float (its value) and an estimate (its uncertainty).

    What :func:`mjfast.win_by_turn` reports per draw, whichever method ran: an exact value
    (``is_exact`` True, ``se`` 0, ``low == high == p``, ``count`` and ``n`` None) or a Monte Carlo
    :class:`Estimate` (``count`` successes in ``n`` samples, its standard error and 95% Wilson
    interval). Either way it computes as a float (``round(p, 4)``, ``1 - p``, ``np.array``)
    and reads as an Estimate (``p.p``, ``p.se``, ``p.low``, ``p.high``, ``p.to_dict()``).
    Two Monte Carlo values are equal when their value, se, count and n are.

    Examples
    --------
    >>> e = Probability.exact(0.25)
    >>> e, e.p, e.se, (e.low, e.high), e.is_exact, round(1 - e, 2)
    (0.25, 0.25, 0.0, (0.25, 0.25), True, 0.75)
    >>> m = Probability.from_estimate(Estimate.from_counts(25, 1000))
    >>> m
    Probability(p=0.025, se=0.0049371, low=0.0169901, high=0.0366453, count=25, n=1000)
    >>> float(m), m.count, m.is_exact, m.to_dict()["ci95"] == [m.low, m.high]
    (0.025, 25, False, True)
    """

    __slots__ = ("se", "low", "high", "count", "n")
    se: float
    low: float
    high: float
    count: int | None
    n: int | None

    def __new__(cls, p: float, se: float = 0.0, low: float | None = None, high: float | None = None,
                count: int | None = None, n: int | None = None) -> Probability:
        self = super().__new__(cls, p)
        v = float(self)
        for name, val in (("se", float(se)), ("low", v if low is None else float(low)),
                          ("high", v if high is None else float(high)), ("count", count), ("n", n)):
            object.__setattr__(self, name, val)
        return self

    @classmethod
    def exact(cls, p) -> Probability:
        """An exact probability (a float or a Fraction, stored as a float)."""
        return cls(float(p))

    @classmethod
    def from_estimate(cls, e: Estimate) -> Probability:
        """The value of a Monte Carlo :class:`Estimate`, with its count, n, se and interval."""
        return cls(e.p, e.se, e.low, e.high, e.count, e.n)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self):
        return (type(self), (float(self), self.se, self.low, self.high, self.count, self.n))

    @property
    def p(self) -> float:
        """The value as a plain float."""
        return float(self)

    @property
    def is_exact(self) -> bool:
        """True for an exact value (no sampling error)."""
        return self.n is None

    @property
    def one_in(self) -> float:
        """1 / p (inf when p = 0)."""
        return math.inf if float(self) == 0 else 1.0 / float(self)

    def to_dict(self) -> dict:
        """As :meth:`Estimate.to_dict` (count and n None for an exact value)."""
        return {"count": self.count, "n": self.n, "p": float(self), "se": self.se, "ci95": [self.low, self.high]}

    def __eq__(self, other):
        if isinstance(other, Probability):
            return (float(self), self.se, self.count, self.n) == (float(other), other.se, other.count, other.n)
        return float.__eq__(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = float.__hash__

    def __repr__(self) -> str:
        if self.is_exact:
            return float.__repr__(self)
        return (f"Probability(p={_g(float(self))}, se={_g(self.se)}, low={_g(self.low)}, high={_g(self.high)}, "
                f"count={self.count}, n={self.n})")


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
