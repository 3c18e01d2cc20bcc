"""The features of :mod:`mjfast.exact`: each suit's count patterns, reduced to what each winning form
needs (one component class per form), and the packing of small vectors into int64 keys.
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np

from .._kernels.tables import get_tables

SUIT_LETTERS = "mpsz"
MAX_TILES = 14
_ORPHAN_RANKS = (0, 8)
# bit masks of the pattern sets U (patterns 0 = 147, 1 = 258, 2 = 369) by size |U|
_MASKS_BY_SIZE = ((0,), (1, 2, 4), (3, 5, 6), (7,))
_SLOT = {m: j for masks in _MASKS_BY_SIZE for j, m in enumerate(masks)}
_CHOOSE4 = np.array([comb(4, c) for c in range(5)], dtype=np.int64)
# entries are 4 bits; 15 never caps anything (no distance exceeds 14)
NO_CAP = 15
# ---------------------------------------------------------------------------
# suit patterns
# ---------------------------------------------------------------------------

@functools.cache
def patterns(width: int):
    """Every count pattern of ``width`` kinds with at most 14 tiles.

    Returns (counts (M, width) int8, size (M,), weight (M,) = prod C(4, c), base-5 code (M,)).
    """
    counts = np.zeros((1, 0), dtype=np.int8)
    for _ in range(width):
        n = len(counts)
        counts = np.concatenate([np.repeat(counts, 5, axis=0),
                                 np.tile(np.arange(5, dtype=np.int8), n)[:, None]], axis=1)
        counts = counts[counts.sum(axis=1) <= MAX_TILES]
    c64 = counts.astype(np.int64)
    size = c64.sum(axis=1)
    weight = np.prod(_CHOOSE4[c64], axis=1)
    code = c64 @ (5 ** np.arange(width, dtype=np.int64))
    for arr in (counts, size, weight, code):
        arr.setflags(write=False)
    return counts, size, weight, code


@functools.cache
def _class_vectors():
    t = get_tables()
    return (t["suit_class"], t["suit_vectors"].astype(np.int64),
            t["honor_class"], t["honor_vectors"].astype(np.int64))


def _distance_vectors(code: np.ndarray, honors: bool, width: int = 10) -> np.ndarray:
    """(M, width) distance vectors (entry 2k + p, the first ``width`` of 10) of the patterns
    with these base-5 codes."""
    suit_class, suit_vec, honor_class, honor_vec = _class_vectors()
    if honors:
        return honor_vec[:, :width][honor_class[code]]
    return suit_vec[:, :width][suit_class[code]]


# ---------------------------------------------------------------------------
# packing helpers (small vectors in one int64, 4 bits an entry)
# ---------------------------------------------------------------------------

def _pack(vecs: np.ndarray) -> np.ndarray:
    out = np.zeros(len(vecs), dtype=np.int64)
    for j in range(vecs.shape[1]):
        out |= vecs[:, j].astype(np.int64) << (4 * j)
    return out


def _unpack(keys: np.ndarray, width: int) -> np.ndarray:
    shifts = 4 * np.arange(width, dtype=np.int64)
    return (keys[:, None] >> shifts[None, :]) & 15


def _nibble_min(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Element-wise minimum of two arrays of packed 4-entry vectors (16 bits, 4 bits an entry).

    The even and the odd entries are spread to 8-bit lanes, where a guard bit shows which
    side is smaller, so no unpacking is needed.
    """
    out = np.zeros_like(x)
    for shift in (0, 4):
        xe = (x >> shift) & 0x0F0F
        ye = (y >> shift) & 0x0F0F
        ge = (((xe | 0x8080) - ye) & 0x8080) >> 7  # 1 in lanes where x >= y
        mask = ge * 0xFF
        out |= ((ye & mask) | (xe & ~mask)) << shift
    return out


def _minplus(u: np.ndarray, v: np.ndarray, kmax: int) -> np.ndarray:
    """Row-wise min-plus convolution of (N, 2 kmax + 2) vectors with entry 2k + p."""
    out = np.full(u.shape, 99, dtype=np.int64)
    for k in range(kmax + 1):
        for p in range(2):
            col = out[:, 2 * k + p]
            for k1 in range(k + 1):
                for p1 in range(p + 1):
                    np.minimum(col, u[:, 2 * k1 + p1] + v[:, 2 * (k - k1) + (p - p1)], out=col)
    return out


# ---------------------------------------------------------------------------
# features ("components"), one per form
# ---------------------------------------------------------------------------
# A component maps a suit's patterns to one int64 feature each, merges the features of two
# disjoint groups of suits, and turns the feature of the whole hand into a distance (tiles
# missing; shanten = distance - 1). ``nnum`` is the number of number suits in a group.

class Simple:
    """A feature merged as a whole: ``merge``/``distance`` work on aligned arrays and are
    evaluated once per distinct pair of feature values."""

    def capped(self, f):
        """The feature with every entry capped at ``self.cap`` (uncapped features: itself)."""
        return f

    def combine(self, fa, fb, nnum_a, nnum_b, post=None):
        return _outer(self.merge, fa, fb, post)

    def final(self, fa, fb, nnum_a, nnum_b):
        return _outer(lambda x, y: self.distance(self.merge(x, y)), fa, fb)

    def pair_table(self, ua, ub, nnum_a, nnum_b, post=None):
        """:meth:`combine` of every pair of the distinct values ``ua`` x ``ub`` (raveled, ua
        major), without factorising them again."""
        merged = self.merge(np.repeat(ua, len(ub)), np.tile(ub, len(ua)))
        return merged if post is None else post(merged)

    def distance_terms(self, fa, fb, nnum_a, nnum_b):
        """[(values of A, values of B, distance of aligned values)]: the distance of a pair of
        states is the minimum of these terms (here one)."""
        return [(fa, fb, lambda x, y: self.distance(self.merge(x, y)))]


class Standard(Simple):
    name = "standard"

    def __init__(self, tiles: int, cap: int):
        self.k = tiles // 3
        self.width = 2 * self.k + 2
        self.cap = cap

    def suit(self, counts, code, honors):
        vec = _distance_vectors(code, honors, self.width)
        return _pack(np.minimum(vec, self.cap))

    def merge(self, a, b):
        u, v = _unpack(a, self.width), _unpack(b, self.width)
        return _pack(np.minimum(_minplus(u, v, self.k), self.cap))

    def distance(self, f):
        return (f >> (4 * (2 * self.k + 1))) & 15

    def capped(self, f):
        return _pack(np.minimum(_unpack(f, self.width), self.cap))


class SevenPairs(Simple):
    name = "seven_pairs"

    def __init__(self, mcr: bool):
        self.mcr = mcr

    def suit(self, counts, code, honors):
        c = counts.astype(np.int64)
        a = (c >= 2).sum(axis=1)
        b = (c == 1).sum(axis=1)
        if self.mcr:
            a = a + (c == 4).sum(axis=1)
            b = b + (c == 3).sum(axis=1)
        return self._norm(a, b)

    @staticmethod
    def _norm(a, b):
        a = np.minimum(a, 7)
        return a * 8 + np.minimum(b, 7 - a)

    def merge(self, x, y):
        return self._norm((x >> 3) + (y >> 3), (x & 7) + (y & 7))

    def distance(self, f):
        return 14 - 2 * (f >> 3) - (f & 7)


class ThirteenOrphans(Simple):
    name = "thirteen_orphans"

    def suit(self, counts, code, honors):
        c = counts.astype(np.int64)
        if not honors:
            c = c[:, list(_ORPHAN_RANKS)]
        held = (c >= 1).sum(axis=1)
        double = (c >= 2).any(axis=1)
        return held * 2 + double

    def merge(self, x, y):
        return ((x >> 1) + (y >> 1)) * 2 + ((x | y) & 1)

    def distance(self, f):
        return 14 - (f >> 1) - (f & 1)


def _assignments(nnum_a: int, nnum_b: int):
    """{slot of U: [(slot of U_A, slot of U_B), ...]} over every split of a pattern set U of
    size nnum_a + nnum_b into U_A (size nnum_a) and U_B (size nnum_b)."""
    out: dict[int, list[tuple[int, int]]] = {}
    for u in _MASKS_BY_SIZE[nnum_a + nnum_b]:
        for ua in _MASKS_BY_SIZE[nnum_a]:
            ub = u & ~ua
            if ua & u == ua and bin(ub).count("1") == nnum_b:
                out.setdefault(_SLOT[u], []).append((_SLOT[ua], _SLOT[ub]))
    return out


class Knitted:
    """Shared slot logic of the two knitted forms.

    A group of suits with ``nnum`` number suits keeps one value per pattern set U of size
    ``nnum`` (slot ``_SLOT[U]``, ``bits`` bits each): the best value over the ways to give
    those suits the distinct patterns of U. Two groups merge slot by slot, taking the best
    over the splits of U; every term depends on one slot of each side only, so it is
    evaluated once per distinct pair of slot values.
    """

    bits = 8

    def capped(self, f):
        return f

    def _slot(self, f, j):
        return (f >> (self.bits * j)) & ((1 << self.bits) - 1)

    def combine(self, fa, fb, nnum_a, nnum_b, post=None):
        out = np.zeros(len(fa) * len(fb), dtype=np.int64)
        for su, terms in _assignments(nnum_a, nnum_b).items():
            best = None
            for sa, sb in terms:
                val = _outer(self.merge_slot, self._slot(fa, sa), self._slot(fb, sb))
                best = val if best is None else self.better(best, val)
            out |= best << (self.bits * su)
        return out if post is None else post(out)

    def final(self, fa, fb, nnum_a, nnum_b):
        dist = None
        for sa, sb in _assignments(nnum_a, nnum_b)[0]:
            d = _outer(lambda x, y: self.slot_distance(self.merge_slot(x, y)), self._slot(fa, sa), self._slot(fb, sb))
            dist = d if dist is None else np.minimum(dist, d)
        return dist

    def pair_table(self, ua, ub, nnum_a, nnum_b, post=None):
        """:meth:`combine` of every pair of the distinct values ``ua`` x ``ub``."""
        return self.combine(ua, ub, nnum_a, nnum_b, post)

    def distance_terms(self, fa, fb, nnum_a, nnum_b):
        """As for :class:`Simple`: one term per assignment of patterns, each a function of
        one slot of each side."""
        return [(self._slot(fa, sa), self._slot(fb, sb), lambda x, y: self.slot_distance(self.merge_slot(x, y)))
                for sa, sb in _assignments(nnum_a, nnum_b)[0]]


class HonorsKnitted(Knitted):
    """Slot value: the number of held candidate kinds (honors + knitted kinds of U)."""

    name = "honors_knitted"

    def suit(self, counts, code, honors):
        c = counts.astype(np.int64)
        if honors:
            return (c >= 1).sum(axis=1)
        out = np.zeros(len(c), dtype=np.int64)
        for r in range(3):
            held = (c[:, [r, r + 3, r + 6]] >= 1).sum(axis=1)
            out |= held << (self.bits * _SLOT[1 << r])
        return out

    @staticmethod
    def merge_slot(x, y):
        return x + y

    @staticmethod
    def better(x, y):
        return np.maximum(x, y)

    @staticmethod
    def slot_distance(v):
        return 14 - np.minimum(v, 14)


class KnittedStraight(Knitted):
    """Slot value: a 4-entry vector (entry 2k + p, k, p in {0, 1}) = knitted kinds of U
    missing + tiles missing for k sets and p pairs from the rest; element-wise minimum over
    the assignments (min-plus merging commutes with it)."""

    name = "knitted_straight"
    bits = 16

    def __init__(self, cap: int):
        self.cap = cap

    def suit(self, counts, code, honors):
        if honors:
            return _pack(np.minimum(_distance_vectors(code, True, 4), self.cap))
        out = np.zeros(len(counts), dtype=np.int64)
        for r in range(3):
            ranks = [r, r + 3, r + 6]
            held = counts[:, ranks] >= 1
            # one copy of each held knitted kind removed: its digit of the base-5 code drops by 1
            rest_code = code - held.astype(np.int64) @ (5 ** np.array(ranks, dtype=np.int64))
            vec = _distance_vectors(rest_code, False, 4) + (3 - held.sum(axis=1))[:, None]
            out |= _pack(np.minimum(vec, self.cap)) << (self.bits * _SLOT[1 << r])
        return out

    def merge_slot(self, x, y):
        return _pack(np.minimum(_minplus(_unpack(x, 4), _unpack(y, 4), 1), self.cap))

    def capped(self, f):
        return _pack(np.minimum(_unpack(f, 12), self.cap))

    @staticmethod
    def better(x, y):
        return _nibble_min(x, y)

    @staticmethod
    def slot_distance(v):
        return (v >> 12) & 15


def factorize(x: np.ndarray):
    uniq, inv = np.unique(x, return_inverse=True)
    return uniq, inv.ravel()


def _outer(fn, a: np.ndarray, b: np.ndarray, post=None) -> np.ndarray:
    """``fn`` (then ``post``) over every pair (a[i], b[j]), raveled with i major; evaluated once
    per distinct pair of values."""
    ua, inv_a = factorize(a)
    ub, inv_b = factorize(b)
    table = fn(np.repeat(ua, len(ub)), np.tile(ub, len(ua)))
    if post is not None:
        table = post(table)
    return np.take(table.reshape(len(ua), len(ub))[inv_a], inv_b, axis=1).ravel()
