"""The four-copy limit for hands given with their called sets.

A hand written with called sets (``[456p]``, ``[111z]``) or declared kongs (``(2222m)``) holds
those tiles too: a complete hand can use at most ``4 - called[k]`` copies of kind k in its
concealed part. The batch kernels see only concealed counts (four copies of every kind
available), which is exact for hands whose called sets are unknown. For a hand whose called
sets are known, this module computes the exact distances with per-kind caps: the per-suit
dynamic programme of the table generator (:func:`mjfast._tablegen.capped_suit_distances`),
combined over the suits, and the knitted straight per assignment of its rank classes to the
suits. One hand at a time (the hand functions take called sets only as text).

Only the forms that exist beside called sets are computed here: the standard form and, for
10 or 11 concealed tiles, the Chinese Official knitted straight with one called set (the
other special forms need a closed hand of 13/14 tiles).
"""
from __future__ import annotations

import itertools

import numpy as np

from .. import _core
from .._kernels.tablegen import capped_suit_distances

_STANDARD = _core.FORM_BITS["standard"]
_KNITTED_STRAIGHT = _core.FORM_BITS["knitted_straight"]
_SUITS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
# the knitted straight: rank classes 1-4-7, 2-5-8, 3-6-9 assigned to the suits m, p, s
_KNIT_KINDS = tuple(tuple(9 * s + r for s, c in enumerate(perm) for r in range(c, 9, 3))
                    for perm in itertools.permutations(range(3)))
_NONE = 99


def _standard_distance(h: np.ndarray, cap: np.ndarray, sets: int) -> int:
    """Tiles missing for ``sets`` sets + 1 pair, kind k used at most cap[k] times."""
    d = [capped_suit_distances(np.ascontiguousarray(h[a:b], np.uint8), np.ascontiguousarray(cap[a:b], np.uint8), num)
         for a, b, num in _SUITS]
    best = _NONE
    for split in itertools.product(range(sets + 1), repeat=3):
        rest = sets - sum(split)
        if rest < 0:
            continue
        m = split + (rest,)
        for pair in range(4):
            best = min(best, sum(d[s][2 * m[s] + (s == pair)] for s in range(4)))
    return best


def _knitted_straight_distance(h: np.ndarray, cap: np.ndarray, sets: int) -> int:
    """Tiles missing for the knitted nine + ``sets`` sets + a pair (caps as above). Each held
    knitted kind gives one copy to the knitted part (never worse than keeping it for the rest:
    the knitted slot needs exactly that tile)."""
    best = _NONE
    for kinds in _KNIT_KINDS:
        k = list(kinds)
        if (cap[k] < 1).any():
            continue
        held = h[k] > 0
        rest, rest_cap = h.copy(), cap.copy()
        rest[k] -= held
        rest_cap[k] -= 1
        best = min(best, 9 - int(held.sum()) + _standard_distance(rest, rest_cap, sets))
    return best


def shanten_rows(rows: np.ndarray, bits: int, called: np.ndarray) -> np.ndarray:
    """Shanten of each row of concealed counts (N, 34) beside the called tiles ``called`` (34
    counts; rows + called <= 4 per kind), for the forms in ``bits`` that exist beside called
    sets (the standard form; the knitted straight at 10/11 tiles)."""
    cap = (4 - called.astype(np.int64)).astype(np.uint8)
    out = np.empty(len(rows), np.int8)
    for i, row in enumerate(np.asarray(rows, dtype=np.uint8)):
        n = int(row.sum())
        best = _NONE
        if bits & _STANDARD:
            best = _standard_distance(row, cap, n // 3)
        if (bits & _KNITTED_STRAIGHT) and n // 3 == 3:
            best = min(best, _knitted_straight_distance(row, cap, 0))
        out[i] = min(best, _NONE) - 1
    return out
