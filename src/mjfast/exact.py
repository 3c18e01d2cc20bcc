"""Exact deal odds: the shanten distribution of a freshly dealt hand, as exact fractions.

A seat's standard tiles after bonus tiles are replaced are a uniform random subset of the
136 standard tiles (bonus tiles only delay the deal), so the odds below hold for the 144-tile
sets too. A count vector ``c`` of ``n`` tiles has probability
``prod_i C(4, c_i) / C(136, n)``.

Method
------
No whole hand is ever enumerated. Each suit (9 number kinds, or the 7 honors) is enumerated
on its own (at most 405,350 count patterns of 14 tiles or fewer), every pattern is reduced
to the *features* the chosen forms need, and patterns with equal (size, features) are merged,
their weights ``prod_r C(4, c_r)`` (the number of physical tile choices) added up. The suits
are then combined as ``(m + p) + (s + z)``: a merge pairs every state of one side with every
state of the other whose size fits, combines the features, and again merges equal states; the
last merge keeps only the shanten of each pair. Weights are exact integers (int64: every
weight counts tile subsets of at most 14 tiles, below 2**63) until the final division.

The features, per form (``k = n // 3`` sets, target ``3k + 2`` tiles):

standard
    the suit's distance vector (tiles missing to hold ``k'`` sets plus ``p`` pairs in that
    suit, the class vectors of :mod:`mjfast._tables`). Two suits merge by min-plus
    convolution, and the whole hand's distance is the entry for ``k`` sets + 1 pair.
seven pairs
    ``a`` = kinds held at least twice and ``b`` = kinds held once; the distance is
    ``14 - 2 min(a, 7) - min(b, 7 - min(a, 7))``. Under ``rules="mcr"`` a four-of-a-kind
    is two pairs: a kind held 4 times adds 2 to ``a``, one held 3 times adds 1 to ``a`` and
    1 to ``b``.
thirteen orphans
    the number of orphan kinds held and whether one is held twice.
honors and knitted tiles (MCR)
    for each pattern ``r`` (147 / 258 / 369) of a number suit, how many of its three kinds
    are held (honors: how many honor kinds). Suits that took patterns ``U`` keep the best
    count over the ways to give them distinct patterns, one value per ``U``.
knitted straight (MCR)
    per pattern ``r`` of a number suit, ``3 - held`` plus the distance vector (up to one set
    and one pair) of the suit minus one copy of each knitted kind; merged per used-pattern
    set ``U`` by min-plus convolution and an element-wise minimum over the assignments.

Every merged feature is bounded (vectors are capped, counters saturate where the distance
stops changing), so the number of states stays in the thousands. For ``form="all"`` the
features of all allowed forms are carried jointly and the shanten of a hand is the minimum.
Vectors are first capped at 11; if some hand reaches the cap the computation is redone
uncapped, so the cap never changes a result.

Merges are evaluated per block of states of one size on each side: each form's merge (or
pass test) is tabulated once per pair of *distinct* feature values, every feature replaced
by a small id, and the loop over the pairs of states only looks those tables up (the Cython
kernel :mod:`mjfast._kernels.exact_pairs`, which groups the merged states in a hash table,
or sums the weights of the passing pairs with bit sets). All of it is exact int64.

MCR ``form="all"`` (five forms jointly) would need millions of joint states, so it goes
through thresholds instead: the number of hands with shanten >= t - 1 is the number with
*every* form at distance >= t, for t = 1 up to the largest distance of min(standard, seven
pairs, thirteen orphans) (the five-form minimum is never larger). For one t, vectors are
capped at t and each form's feature of a group of suits is replaced by a representative of
its class: two values are equivalent when they pass the test (distance >= t) against exactly
the same feature values of the complementary group (all of those, from that form's own DP);
values that never pass drop the state. The test is an AND over the forms and merging respects
the classes, so the counts stay exact, with thousands of states instead of millions.

American beginner hand (``rules="american"``): the hand is drawn from the American set
(4 copies of each standard kind, the 8 flowers f1-f8, ``jokers`` jokers; nothing is replaced).
Its distance depends only on the four largest natural counts (the 8 flowers count as one kind;
counts capped at 4) and the joker count, so one DP over the kinds carries (tiles, sorted capped
top four, "a standard kind held four times") with weights prod C(4, c) * C(8, f) * C(J, j):
a few thousand states, a few hundredths of a second.

Definitions used in the results: ``"complete"`` is P(shanten == -1), ``"tenpai"`` is
P(shanten == 0) exactly (a complete hand is *not* counted as tenpai), and
``"four_of_a_kind"`` is P(some kind is held four times).
"""
from __future__ import annotations

import functools
from fractions import Fraction
from math import comb

import numpy as np

from . import rules as _rules
from ._kernels import american_batch as _american_batch
from ._kernels import exact_pairs
from ._kernels.tables import get_tables
from ._runtime import progress as _progress

__all__ = ["exact_deal_odds", "exact_deal_odds_table", "RULES", "TABLE_FORMS"]

RULES = (None,) + _rules.names()
#: the forms of rules="american": its one hand, the beginner hand
AMERICAN_FORMS = ("beginner",)
#: the forms :func:`exact_deal_odds_table` reports for each rule set: its winning forms and
#: "all" (a RuleSet with other options reports its own forms)
TABLE_FORMS = {None: _rules.DEFAULT_FORMS + ("all",), **{n: _rules.get(n).forms + ("all",) for n in _rules.names()}}
_SUIT_LETTERS = "mpsz"
_MAX_TILES = 14
_ORPHAN_RANKS = (0, 8)
# bit masks of the pattern sets U (patterns 0 = 147, 1 = 258, 2 = 369) by size |U|
_MASKS_BY_SIZE = ((0,), (1, 2, 4), (3, 5, 6), (7,))
_SLOT = {m: j for masks in _MASKS_BY_SIZE for j, m in enumerate(masks)}
_CHOOSE4 = np.array([comb(4, c) for c in range(5)], dtype=np.int64)
# entries are 4 bits; 15 never caps anything (no distance exceeds 14)
_NO_CAP = 15
# pairs of a merge processed at once (memory: ~100 bytes per pair)
_CHUNK = 1 << 21


# ---------------------------------------------------------------------------
# argument handling
# ---------------------------------------------------------------------------

def _check_rules(rules) -> tuple:
    """(what results record, the forms of "all", a four-of-a-kind counts as two pairs, the
    hand model) of None, a rule-set name or a RuleSet."""
    h = _rules.hand_facts(rules)
    forms, kong_two_pairs, model = h.forms, h.kong_two_pairs, h.model
    label = rules.name if isinstance(rules, _rules.RuleSet) else rules
    return label, forms, kong_two_pairs, model


def _check_suits(suits) -> str:
    if not isinstance(suits, str):
        raise TypeError(f"suits must be a str such as 'mpsz', not {type(suits).__name__}")
    if not suits or any(ch not in _SUIT_LETTERS for ch in suits) or len(set(suits)) != len(suits):
        raise ValueError(f"suits must be distinct letters from 'mpsz' (e.g. 'mpsz', 'm', 'mz'); got {suits!r}")
    return "".join(ch for ch in _SUIT_LETTERS if ch in suits)


def _check_tiles(tiles) -> int:
    if isinstance(tiles, bool) or not isinstance(tiles, (int, np.integer)):
        raise TypeError(f"tiles must be an int, not {type(tiles).__name__}")
    tiles = int(tiles)
    if tiles < 1 or tiles > _MAX_TILES or tiles % 3 == 0:
        raise ValueError(f"tiles must be 13 or 14 (or, when only the standard form is involved, any "
                         f"3k+1 / 3k+2 size from 1 to 14); got {tiles}")
    return tiles


def _forms_for(all_forms: tuple, form, tiles: int) -> tuple:
    """The forms whose minimum is asked for (``"all"`` is the standard form alone below 13)."""
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form == "all":
        return all_forms if tiles in (13, 14) else ("standard",)
    if form not in _rules.FORMS:
        raise ValueError(f"unknown form {form!r}; choose 'all' or one of {_rules.FORMS}")
    if form != "standard" and tiles not in (13, 14):
        raise ValueError(f"form {form!r} needs a dealt hand of 13 or 14 tiles; got {tiles}")
    return (form,)


# ---------------------------------------------------------------------------
# suit patterns
# ---------------------------------------------------------------------------

@functools.cache
def _patterns(width: int):
    """Every count pattern of ``width`` kinds with at most 14 tiles.

    Returns (counts (M, width) int8, size (M,), weight (M,) = prod C(4, c), base-5 code (M,)).
    """
    counts = np.zeros((1, 0), dtype=np.int8)
    for _ in range(width):
        n = len(counts)
        counts = np.concatenate([np.repeat(counts, 5, axis=0),
                                 np.tile(np.arange(5, dtype=np.int8), n)[:, None]], axis=1)
        counts = counts[counts.sum(axis=1) <= _MAX_TILES]
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

class _Simple:
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


class _Standard(_Simple):
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


class _SevenPairs(_Simple):
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


class _ThirteenOrphans(_Simple):
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


class _Knitted:
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
        """As for :class:`_Simple`: one term per assignment of patterns, each a function of
        one slot of each side."""
        return [(self._slot(fa, sa), self._slot(fb, sb), lambda x, y: self.slot_distance(self.merge_slot(x, y)))
                for sa, sb in _assignments(nnum_a, nnum_b)[0]]


class _HonorsKnitted(_Knitted):
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


class _KnittedStraight(_Knitted):
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


# ---------------------------------------------------------------------------
# states and merges
# ---------------------------------------------------------------------------

class _States:
    """Distinct (size, features) of a group of suits with their integer weights, sorted by size."""

    def __init__(self, size, weight, feats, nnum):
        order = np.argsort(size, kind="stable")
        self.size = size[order]
        self.weight = weight[order]
        self.feats = [f[order] for f in feats]
        self.nnum = nnum
        self.bounds = np.searchsorted(self.size, np.arange(_MAX_TILES + 2))
        self._factors: dict = {}

    def factors(self, j: int, rows: slice) -> tuple:
        """(distinct values, index of each row's value) of feature ``j`` over ``rows``; cached,
        as every block of a merge with the same rows of this side needs it again."""
        key = (j, rows.start, rows.stop)
        if key not in self._factors:
            self._factors[key] = _factorize(self.feats[j][rows])
        return self._factors[key]

    def __len__(self):
        return len(self.size)

    def rows(self, lo, hi):
        """Index range of the states with lo <= size <= hi."""
        return self.bounds[max(lo, 0)], self.bounds[min(hi, _MAX_TILES) + 1]


def _factorize(x: np.ndarray):
    uniq, inv = np.unique(x, return_inverse=True)
    return uniq, inv.ravel()


_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
                 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x94D049BB133111EB, 0xBF58476D1CE4E5B9],
                dtype=np.uint64)


def _row_hash(cols) -> np.ndarray:
    """A 64-bit mix of the int64 columns (equal rows -> equal hashes)."""
    h = np.zeros(len(cols[0]), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j, col in enumerate(cols):
            h ^= col.astype(np.uint64) * _MIX[j % len(_MIX)] + np.uint64(j)
            h ^= h >> np.uint64(29)
            h *= _MIX[(j + 3) % len(_MIX)]
            h ^= h >> np.uint64(32)
    return h


def _group(size, weight, feats, nnum) -> _States:
    """Merge equal (size, features) rows, adding their weights.

    Rows are sorted by a 64-bit hash of all columns; runs of equal hashes are then checked
    column by column, so a hash collision (never seen in practice) only costs an exact
    lexicographic sort instead.
    """
    if len(size) == 0:
        return _States(size, weight, list(feats), nnum)
    cols = [size] + list(feats)
    h = _row_hash(cols)
    order = np.argsort(h)
    key = h[order]
    new = np.concatenate(([True], key[1:] != key[:-1]))
    run = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    first = order[starts]
    if any((c[order] != c[first][run]).any() for c in cols):  # pragma: no cover - a collision
        order = np.lexsort(cols[::-1])
        new = np.zeros(len(order), dtype=bool)
        new[0] = True
        for c in cols:
            cs = c[order]
            new[1:] |= cs[1:] != cs[:-1]
        starts = np.flatnonzero(new)
        first = order[starts]
    w = np.add.reduceat(weight[order], starts)
    return _States(size[first], w, [f[first] for f in feats], nnum)


def _outer(fn, a: np.ndarray, b: np.ndarray, post=None) -> np.ndarray:
    """``fn`` (then ``post``) over every pair (a[i], b[j]), raveled with i major; evaluated once
    per distinct pair of values."""
    ua, inv_a = _factorize(a)
    ub, inv_b = _factorize(b)
    table = fn(np.repeat(ua, len(ub)), np.tile(ub, len(ua)))
    if post is not None:
        table = post(table)
    return np.take(table.reshape(len(ua), len(ub))[inv_a], inv_b, axis=1).ravel()


def _pair_blocks(A: _States, B: _States, tiles: int, exact: bool, chunk: int = _CHUNK):
    """Blocks of pairs of states of one size each with size_a + size_b <= tiles (== tiles if
    ``exact``): yields (slice of A, slice of B, size of the union, multiplicity); every pair
    of the two slices is meant, in the order of :func:`_outer`. A block holds about ``chunk``
    pairs or fewer (the kernels of :mod:`mjfast._kernels.exact_pairs` need no memory per
    pair, so they take whole sizes at once).

    When A is B (two interchangeable suits; every merge is symmetric) a block and its mirror
    image are the same up to order, so only size_a <= size_b is listed and blocks with
    size_a < size_b count twice.
    """
    same = A is B
    for size_a in range(tiles + 1):
        a0, a1 = A.rows(size_a, size_a)
        if a0 == a1:
            continue
        for size_b in range(tiles - size_a if exact else 0, tiles - size_a + 1):
            if same and size_b < size_a:
                continue
            b0, b1 = B.rows(size_b, size_b)
            if b0 == b1:
                continue
            mult = 2 if same and size_b > size_a else 1
            step = max(1, chunk // (b1 - b0))
            for start in range(a0, a1, step):
                yield slice(start, min(a1, start + step)), slice(b0, b1), size_a + size_b, mult


def _block_weights(A: _States, B: _States, sa: slice, sb: slice, mult: int) -> np.ndarray:
    w = np.multiply.outer(A.weight[sa], B.weight[sb]).ravel()
    return w * mult if mult != 1 else w


def _merge(A: _States, B: _States, comps, tiles: int) -> _States:
    """States of the union of two disjoint groups of suits (sizes up to ``tiles``)."""
    return _merge_mapped(A, B, comps, tiles, None)


class _Accumulator:
    """Collects blocks of (size, weight, features) rows, grouping them every _CHUNK rows."""

    def __init__(self, n_feats: int):
        self.n_feats = n_feats
        self.parts: list[_States] = []  # grouped _States
        # (size, weight, feats) blocks not grouped yet
        self.pending: list[tuple[np.ndarray, np.ndarray, list[np.ndarray]]] = []
        self.rows = 0

    def add(self, size: int, weight, feats) -> None:
        self.pending.append((np.full(len(weight), size, dtype=np.int64), weight, feats))
        self.rows += len(weight)
        if self.rows >= _CHUNK:
            self._flush()

    def _flush(self) -> None:
        if self.pending:
            size = np.concatenate([p[0] for p in self.pending])
            weight = np.concatenate([p[1] for p in self.pending])
            feats = [np.concatenate([p[2][j] for p in self.pending]) for j in range(self.n_feats)]
            self.parts.append(_group(size, weight, feats, 0))
        self.pending, self.rows = [], 0

    def result(self, nnum: int) -> _States:
        self._flush()
        return _concat(self.parts, self.n_feats, nnum)


def _concat(parts: list, n_feats: int, nnum: int) -> _States:
    """Group the union of several state lists."""
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return _States(empty, empty, [empty] * n_feats, nnum)
    size = np.concatenate([g.size for g in parts])
    weight = np.concatenate([g.weight for g in parts])
    feats = [np.concatenate([g.feats[j] for g in parts]) for j in range(n_feats)]
    return _group(size, weight, feats, nnum)


def _final_distances(A: _States, B: _States, comps, tiles: int):
    """Yields (weights, distance per form) for blocks of the pairs making ``tiles`` tiles."""
    for sa, sb, _, mult in _pair_blocks(A, B, tiles, exact=True):
        dists = [c.final(fa[sa], fb[sb], A.nnum, B.nnum) for c, fa, fb in zip(comps, A.feats, B.feats)]
        yield _block_weights(A, B, sa, sb, mult), dists


def _final(A: _States, B: _States, comps, tiles: int) -> dict:
    """{distance: number of tile subsets} over the pairs of states making ``tiles`` tiles."""
    hist: dict[int, int] = {}
    for w, dists in _final_distances(A, B, comps, tiles):
        dist = functools.reduce(np.minimum, dists)
        for v in np.unique(dist).tolist():
            hist[v] = hist.get(v, 0) + int(w[dist == v].sum())
    return hist


def _components(forms: tuple, kong, tiles: int, cap: int) -> list:
    comps: list[_Simple | _Knitted] = []
    for f in forms:
        if f == "standard":
            comps.append(_Standard(tiles, cap))
        elif f == "seven_pairs":
            comps.append(_SevenPairs(mcr=kong))
        elif f == "thirteen_orphans":
            comps.append(_ThirteenOrphans())
        elif f == "honors_knitted":
            comps.append(_HonorsKnitted())
        else:
            comps.append(_KnittedStraight(cap))
    return comps


def _capped(S: _States, comps) -> _States:
    """The states with every feature capped (capping commutes with merging: a capped sum or
    minimum is the sum or minimum of capped terms, capped)."""
    return _group(S.size, S.weight, [c.capped(f) for c, f in zip(comps, S.feats)], S.nnum)


@functools.cache
def _suit_states(honors: bool, in_world: bool, forms: tuple, kong, tiles: int, cap: int) -> _States:
    """States of one suit (number suits are alike, so they are computed once)."""
    comps = _components(forms, kong, tiles, cap)
    if cap < _NO_CAP:
        return _capped(_suit_states(honors, in_world, forms, kong, tiles, _NO_CAP), comps)
    _, size, weight, _ = _patterns(7 if honors else 9)
    keep = np.flatnonzero(size <= (tiles if in_world else 0))  # outside the world: empty only
    feats = [_suit_feature(f, kong, tiles, honors)[keep] for f in forms]
    return _group(size[keep], weight[keep], feats, 0 if honors else 1)


@functools.cache
def _suit_feature(form: str, kong, tiles: int, honors: bool) -> np.ndarray:
    """One form's (uncapped) feature of every pattern of a suit, computed once: the joint
    states of several forms and the states of each form alone share it."""
    comp = _components((form,), kong, tiles, _NO_CAP)[0]
    counts, _, _, code = _patterns(7 if honors else 9)
    feat = comp.suit(counts, code, honors)
    feat.setflags(write=False)
    return feat


@functools.cache
def _distance_counts(forms: tuple, kong, tiles: int, suits: str) -> tuple:
    """((distance, number of tile subsets), ...) for hands of ``tiles`` tiles of ``suits``."""
    # Vectors are capped at ``cap``: a capped distance is min(true, cap), so the result is
    # exact when no hand reaches the cap (checked; otherwise it is redone without a cap).
    for cap in (11, _NO_CAP):
        comps = _components(forms, kong, tiles, cap)
        st = {ch: _suit_states(ch == "z", ch in suits, forms, kong, tiles, cap) for ch in _SUIT_LETTERS}
        left = _merge(st["m"], st["p"], comps, tiles)
        right = _merge(st["s"], st["z"], comps, tiles)
        hist = _final(left, right, comps, tiles)
        capped = any(isinstance(c, (_Standard, _KnittedStraight)) for c in comps)
        if cap >= _NO_CAP or not capped or max(hist) < cap:
            return tuple(sorted(hist.items()))
    raise AssertionError("unreachable")


# ---------------------------------------------------------------------------
# thresholds with state reduction (for the joint MCR forms)
# ---------------------------------------------------------------------------
# P(shanten >= t - 1) = P(every form has distance >= t). With every vector capped at t, the
# joint features of a group of suits can still be too many to merge; but only their effect on
# the final test matters. For each form separately, two values of a group's feature are
# equivalent when they pass the test (distance >= t) against exactly the same feature values
# of the complementary group (all of them, computed by that form's own small DP); states that
# can never pass are dropped. Replacing each feature by a representative of its class keeps
# every count exact (the test is an AND over the forms, and merging respects the classes), and
# leaves a few thousand states where there were millions.

def _group_key(letters: str, suits: str) -> tuple:
    """Canonical form of a group of suits: number suits are interchangeable."""
    nums = tuple(sorted((ch in suits for ch in letters if ch != "z"), reverse=True))
    return nums, (None if "z" not in letters else "z" in suits)


@functools.lru_cache(maxsize=512)
def _single_form_states(form: str, kong, tiles: int, cap: int, key: tuple) -> _States:
    """States of one form alone for a canonical group of suits (see :func:`_group_key`)."""
    nums, z = key
    comps = _components((form,), kong, tiles, cap)
    if cap < _NO_CAP:
        return _capped(_single_form_states(form, kong, tiles, _NO_CAP, key), comps)
    if z is not None:
        last = _suit_states(True, z, (form,), kong, tiles, cap)
        rest = (nums, None)
    else:
        last = _suit_states(False, nums[-1], (form,), kong, tiles, cap)
        rest = (nums[:-1], None)
    if not rest[0]:
        return last
    return _merge(_single_form_states(form, kong, tiles, cap, rest), last, comps, tiles)


def _signature_classes(comp, X, Y, nnum_x, nnum_y, t):
    """Class of each value of X by its pass/fail row against all of Y; -1 = never passes.

    Returns (class per X value, representative X index per class).

    The rows are built packed, 8 values of Y a byte: the distance is a minimum of terms
    (:meth:`distance_terms`; a knitted form has one per assignment, each a function of one
    slot of each side), so a row is the AND of one packed row per term, looked up by the
    term's value of x: nothing of size len(X) * len(Y) is ever unpacked.
    """
    bits = None
    for x, y, dist in comp.distance_terms(X, Y, nnum_x, nnum_y):
        ux, ix = _factorize(x)
        uy, iy = _factorize(y)
        ok = (dist(np.repeat(ux, len(uy)), np.tile(uy, len(ux))) >= t).reshape(len(ux), len(uy))
        rows = np.packbits(ok[:, iy], axis=1)[ix]
        bits = rows if bits is None else np.bitwise_and(bits, rows, out=bits)
    bits = np.ascontiguousarray(bits)
    view = bits.view(np.dtype((np.void, bits.shape[1]))).ravel()
    _, first, cls = np.unique(view, return_index=True, return_inverse=True)
    cls = cls.ravel()
    alive = bits[first].any(axis=1)
    return np.where(alive[cls], cls, -1), first


@functools.lru_cache(maxsize=512)
def _class_map(form: str, kong, tiles: int, t: int, group: tuple, partner: tuple) -> dict:
    """Representatives of one form's feature values for a group of suits (see above).

    Returns {size: (values, reps)}: every reachable value of the group at that size, sorted,
    and its representative, or -1 when it can never pass (distance >= t) whatever the
    complementary group holds.
    """
    comp = _components((form,), kong, tiles, t)[0]
    G = _single_form_states(form, kong, tiles, t, group)
    P = _single_form_states(form, kong, tiles, t, partner)
    out = {}
    for size in np.unique(G.size).tolist():
        lo, hi = G.rows(size, size)
        p0, p1 = P.rows(tiles - size, tiles - size)
        X = np.unique(G.feats[0][lo:hi])
        if p0 == p1:
            rep = np.full(len(X), -1, dtype=np.int64)
        else:
            cls, first = _signature_classes(comp, X, np.unique(P.feats[0][p0:p1]), G.nnum, P.nnum, t)
            rep = np.where(cls >= 0, X[first[np.maximum(cls, 0)]], -1)
        out[size] = (X, rep)
    return out


def _lookup(table: tuple, values: np.ndarray) -> np.ndarray:
    """Representatives of ``values`` from one (values, reps) entry of a class map."""
    keys, reps = table
    idx = np.searchsorted(keys, values)
    if not np.array_equal(keys[np.minimum(idx, len(keys) - 1)], values):  # pragma: no cover
        raise AssertionError("exact deal odds: a feature value missing from its class map")
    return reps[idx]


def _apply_maps(S: _States, maps) -> _States:
    """Replace each feature by its representative, drop the states that cannot pass."""
    feats = [np.empty_like(f) for f in S.feats]
    for size in np.unique(S.size).tolist():
        lo, hi = S.rows(size, size)
        for j, cmap in enumerate(maps):
            feats[j][lo:hi] = _lookup(cmap[size], S.feats[j][lo:hi]) if size in cmap else -1
    keep = functools.reduce(np.logical_and, [f >= 0 for f in feats])
    return _group(S.size[keep], S.weight[keep], [f[keep] for f in feats], S.nnum)


def _merge_mapped(A: _States, B: _States, comps, tiles: int, maps) -> _States:
    """:func:`_merge`, mapping every pair to representatives (and dropping dead pairs)
    before grouping it; ``maps`` None: no mapping.

    Per block (one size on each side), each form's merged feature is tabulated once per
    pair of distinct feature values, as a small id; the kernel then groups the pairs of
    states by their tuple of ids, so nothing is materialised per pair of states.
    """
    acc = _Accumulator(len(comps))
    maps = maps or [None] * len(comps)
    whole = [_whole_table(c, A, B, j) for j, c in enumerate(comps)]
    for sa, sb, size, mult in _pair_blocks(A, B, tiles, exact=False, chunk=_WHOLE):
        if any(cmap is not None and size not in cmap for cmap in maps):
            continue  # some form can never pass at this size: every pair is dead
        posts = [None if cmap is None else functools.partial(_lookup, cmap[size]) for cmap in maps]
        tests = [_merge_table(c, A.factors(j, sa), B.factors(j, sb), A.nnum, B.nnum, post, whole[j])
                 for j, (c, post) in enumerate(zip(comps, posts))]
        values = [t[3] for t in tests]
        radix = np.cumprod([1] + [len(v) for v in values[:-1]], dtype=object)
        if radix[-1] * len(values[-1]) >= 1 << 62:  # pragma: no cover - never seen; keys would overflow
            _merge_block_numpy(acc, A, B, comps, posts, sa, sb, size, mult)
            continue
        keys, w = _exact_pairs().pair_keys(*_stack_tests(tests, np.int32), np.array(radix, dtype=np.int64),
                                          A.weight[sa], B.weight[sb], mult)
        acc.add(size, w, [v[(keys // int(r)) % len(v)] for v, r in zip(values, radix)])
    return acc.result(A.nnum + B.nnum)


def _merge_block_numpy(acc, A: _States, B: _States, comps, posts, sa: slice, sb: slice, size: int,
                       mult: int) -> None:
    """One block of :func:`_merge_mapped` in NumPy, pair by pair (when the keys of the kernel
    would not fit in int64)."""
    feats = [c.combine(fa[sa], fb[sb], A.nnum, B.nnum, post=post)
             for c, fa, fb, post in zip(comps, A.feats, B.feats, posts)]
    keep = functools.reduce(np.logical_and, [f >= 0 for f in feats])
    acc.add(size, _block_weights(A, B, sa, sb, mult)[keep], [f[keep] for f in feats])


# a block size larger than any pair count: the kernels take a whole size at once
_WHOLE = 1 << 62


@functools.cache
def _exact_pairs():
    return exact_pairs


# largest table of merged features over every pair of distinct values of the two sides
_WHOLE_TABLE = 1 << 16


def _whole_table(comp, A: _States, B: _States, j: int):
    """(A's distinct values, B's, merged feature of every pair) of feature ``j``, when small:
    one evaluation then serves every block of the merge, where per block the fixed cost of
    the NumPy calls would dominate. None when too large (each block evaluates its own)."""
    ua, ub = np.unique(A.feats[j]), np.unique(B.feats[j])
    if len(ua) * len(ub) > _WHOLE_TABLE:
        return None
    return ua, ub, comp.pair_table(ua, ub, A.nnum, B.nnum).reshape(len(ua), len(ub))


def _merge_table(comp, factors_a: tuple, factors_b: tuple, nnum_a, nnum_b, post, whole) -> tuple:
    """(ids of A's values, ids of B's values, table of merged ids, merged value of each id)
    of one form over a block, from each side's (distinct values, ids) and the form's
    :func:`_whole_table`; id -1: a dead pair (``post`` gave -1). The merge is evaluated once
    per pair of distinct values (features are never negative)."""
    (ua, ia), (ub, ib) = factors_a, factors_b
    if whole is None:
        merged = comp.pair_table(ua, ub, nnum_a, nnum_b, post)
    else:
        wa, wb, table = whole
        merged = table[np.searchsorted(wa, ua)[:, None], np.searchsorted(wb, ub)[None, :]].ravel()
        merged = merged if post is None else post(merged)
    values, ids = np.unique(merged, return_inverse=True)
    ids = ids.ravel()
    if len(values) and values[0] < 0:  # -1 (dead) sorts first
        values, ids = values[1:], ids - 1
    return ia, ib, ids.reshape(len(ua), len(ub)), values


def _pass_tables(comp, fa, fb, nnum_a, nnum_b, t: int) -> list:
    """[(ids of A, ids of B, pass table), ...]: the pairs whose distance is >= t in this form
    are the pairs passing every test, one test per term of the distance (a minimum): each
    term depends on fewer distinct values than the whole feature."""
    tests = []
    for x, y, dist in comp.distance_terms(fa, fb, nnum_a, nnum_b):
        ux, ix = _factorize(x)
        uy, iy = _factorize(y)
        ok = dist(np.repeat(ux, len(uy)), np.tile(uy, len(ux))) >= t
        tests.append((ix, iy, ok.reshape(len(ux), len(uy))))
    return tests


def _stack_tests(tests: list, dtype) -> tuple:
    """Kernel arguments of a list of (ids of A, ids of B, table, ...): ids (N, tests) int32 for
    each side, the tables flattened into one array, their offsets and row lengths."""
    ia = np.ascontiguousarray(np.stack([t[0] for t in tests], axis=1), dtype=np.int32)
    ib = np.ascontiguousarray(np.stack([t[1] for t in tests], axis=1), dtype=np.int32)
    sizes = [t[2].size for t in tests]
    offsets = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    strides = np.array([t[2].shape[1] for t in tests], dtype=np.int64)
    flat = np.concatenate([t[2].ravel() for t in tests]).astype(dtype)
    return ia, ib, flat, offsets, strides


def _count_passing(A: _States, B: _States, comps, tiles: int, t: int) -> int:
    """Number of tile subsets of ``tiles`` tiles, a state of A with one of B, with every form
    at distance >= t."""
    total = 0
    for sa, sb, _, mult in _pair_blocks(A, B, tiles, exact=True, chunk=_WHOLE):
        tests = [x for c, fa, fb in zip(comps, A.feats, B.feats)
                 for x in _pass_tables(c, fa[sa], fb[sb], A.nnum, B.nnum, t)]
        sums = np.empty(sa.stop - sa.start, dtype=np.int64)
        _exact_pairs().pass_sums(*_stack_tests(tests, np.uint8), B.weight[sb], sums)
        # exact in int64: the terms count distinct subsets of the 136 tiles, < C(136, 14) < 2**62
        total += mult * int(np.dot(A.weight[sa], sums))
    return total


def _count_at_least(forms: tuple, kong, tiles: int, suits: str, t: int) -> int:
    """Number of tile subsets of ``tiles`` tiles of ``suits`` with every form at distance >= t."""
    comps = _components(forms, kong, tiles, t)

    def maps(letters):
        rest = "".join(ch for ch in _SUIT_LETTERS if ch not in letters)
        g, p = _group_key(letters, suits), _group_key(rest, suits)
        return [_class_map(f, kong, tiles, t, g, p) for f in forms]

    def suit(ch):
        S = _suit_states(ch == "z", ch in suits, forms, kong, tiles, t)
        return S if ch == "z" else _apply_maps(S, maps(ch))

    m = suit("m")
    p = m if ("m" in suits) == ("p" in suits) else suit("p")  # the same states: a symmetric merge
    left = _merge_mapped(m, p, comps, tiles, maps("mp"))
    right = _merge_mapped(suit("s"), suit("z"), comps, tiles, maps("sz"))
    return _count_passing(left, right, comps, tiles, t)


@functools.cache
def _distance_counts_by_threshold(forms: tuple, kong, tiles: int, suits: str, t_max: int) -> tuple:
    """Like :func:`_distance_counts`, from the counts of distance >= t for t = 1 .. t_max
    (``t_max`` bounds the distance: no hand has distance above it)."""
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    at_least = [comb(4 * kinds, tiles)]
    _progress.add_steps(t_max - 1)
    for t in range(1, t_max + 1):
        at_least.append(_count_at_least(forms, kong, tiles, suits, t) if at_least[-1] else 0)
        _progress.step()
    at_least.append(0)
    return tuple((d, at_least[d] - at_least[d + 1]) for d in range(t_max + 1) if at_least[d] != at_least[d + 1])


_DIRECT_LIMIT = 3  # forms carried jointly by the direct method; more go through thresholds


def _counts(forms: tuple, kong, tiles: int, suits: str) -> tuple:
    """Distance counts by the direct method, or by thresholds for many joint forms."""
    if len(forms) <= _DIRECT_LIMIT:
        return _distance_counts(forms, kong, tiles, suits)
    # the minimum over more forms is at most the minimum over the first three (standard,
    # seven pairs, thirteen orphans), whose direct distribution is cheap: that bounds t
    bound = max(d for d, _ in _distance_counts(forms[:_DIRECT_LIMIT], kong, tiles, suits))
    return _distance_counts_by_threshold(forms, kong, tiles, suits, bound)


def _no_four_count(tiles: int, kinds: int) -> int:
    """Tile subsets of size ``tiles`` holding no kind four times: [x^tiles] ((1+x)^4 - x^4)^kinds."""
    poly = [1]
    per_kind = [comb(4, c) for c in range(4)]
    for _ in range(kinds):
        nxt = [0] * min(len(poly) + 3, tiles + 1)
        for i, a in enumerate(poly):
            if a:
                for c, m in enumerate(per_kind):
                    if i + c <= tiles:
                        nxt[i + c] += a * m
        poly = nxt
    return poly[tiles] if tiles < len(poly) else 0


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------

@functools.cache
def _odds(all_forms: tuple, kong_two_pairs: bool, tiles: int, form: str, suits: str) -> tuple:
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    forms = _forms_for(all_forms, form, tiles)
    # only seven pairs depends on the rule set beyond its forms (MCR: a four-of-a-kind is two pairs)
    counts = _counts(forms, bool(kong_two_pairs and "seven_pairs" in forms), tiles, suits)
    total = comb(4 * kinds, tiles)
    if sum(n for _, n in counts) != total:  # pragma: no cover - an internal consistency check
        raise AssertionError("exact deal odds: weights do not add up to C(tiles in world, tiles)")
    shanten = {int(d) - 1: Fraction(n, total) for d, n in counts if n}
    four = 1 - Fraction(_no_four_count(tiles, kinds), total)
    return tuple(sorted(shanten.items())), four


def exact_deal_odds(rules="classical", tiles=14, form="all", *, suits="mpsz", jokers=None,
                    progress: bool = True) -> dict:
    """Exact shanten distribution of a freshly dealt hand.

    The hand is ``tiles`` tiles drawn uniformly from the standard tiles of ``suits`` (136 for
    ``"mpsz"``); bonus tiles are set aside and replaced, which leaves the standard tiles a
    uniform random subset, so the odds also hold for the 144-tile sets. The computation is
    exact: per-suit generating functions are combined by dynamic programming over merged
    suit features (see the module docstring), in integers until one final division.

    Parameters
    ----------
    rules : {"classical", None, "basic", "mcr", "american"}
        What ``form="all"`` means, as for :func:`mjfast.shanten`: None -> min(standard,
        seven pairs, thirteen orphans); "classical"/"basic" -> standard; "mcr" -> all five
        forms, seven pairs counting a four-of-a-kind as two pairs. Also sets the seven
        pairs rule when ``form="seven_pairs"``. "american": the beginner hand (its one form;
        ``"all"`` is the same) dealt from the American set: the standard tiles of `suits`,
        the 8 flowers and `jokers` jokers (152 tiles by default), read with the rules' joker
        reading (a RuleSet with ``all_joker_sets=False``: each set of four keeps a natural tile).
    tiles : int
        Hand size: 14 (dealer, before the first discard) or 13 (non-dealer). The standard
        form also takes any 3k+1 / 3k+2 size from 1 to 14, and so does ``"all"``, which
        then means the standard form under every rule set (the special forms need 13 or 14
        tiles, as in :func:`mjfast.shanten`).
    form : {"all", "standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight", "beginner"}
        The winning shape, or "all" for the minimum over the forms ``rules`` allows
        ("beginner" only with ``rules="american"``).
    suits : str, keyword-only
        The tile world, a subset of ``"mpsz"`` (e.g. ``"m"``: the 36 characters only). The
        probability of a count vector ``c`` is ``prod_i C(4, c_i) / C(4 * kinds, tiles)``.
    jokers : int, keyword-only
        ``rules="american"`` only: jokers in the set, 0-16 (default 8), as for
        :func:`mjfast.deal_stats`.
    progress : bool, keyword-only
        A progress bar on stderr (in steps: MCR ``form="all"`` takes one per threshold) when
        the computation takes more than half a second; see :func:`mjfast.set_options`.

    Returns
    -------
    dict
        ``"rules"``, ``"tiles"``, ``"form"``, ``"suits"`` (the arguments);
        ``"shanten"``: {shanten: Fraction} for every shanten with nonzero probability
        (-1 = complete), summing to exactly 1; ``"complete"``: P(shanten == -1);
        ``"tenpai"``: P(shanten == 0) -- exactly 0, so complete hands are not counted;
        ``"four_of_a_kind"``: P(some kind is held four times), which does not depend on
        the form. Each value is a :class:`fractions.Fraction`. ``rules="american"`` adds
        ``"options"`` (``{"flowers": True, "jokers": J, "tiles": 144 + J}``, and
        ``"all_joker_sets": False`` under that reading) and the exact
        distributions ``"bonus_tiles"`` {flowers held: Fraction} and ``"jokers"`` {jokers
        held: Fraction}; ``"four_of_a_kind"`` counts standard kinds only, as in
        :func:`mjfast.deal_stats`. Only 13 and 14 tiles.

    Raises
    ------
    ValueError
        Unknown ``rules``, ``form`` or ``suits``; a hand size that is not 13 or 14 for a
        form other than the standard one (or not 3k+1 / 3k+2 from 1 to 14); a size larger
        than the tile world.
    TypeError
        Arguments of the wrong type.

    Notes
    -----
    Results are cached (per rules, tiles, form and suits). First-call run times for the 136
    tiles on one core, after mjfast's shanten tables are built (about 0.7 s once per
    process): 0.2-0.4 s for the standard form and for ``form="all"`` under None /
    "classical" / "basic"; 0.1-0.25 s for seven pairs, thirteen orphans and honors and
    knitted tiles; 0.5-1 s for the knitted straight; 1.5-2.5 s for MCR ``form="all"``
    (computed through thresholds, see the module docstring).

    Examples
    --------
    >>> from mjfast.exact import exact_deal_odds
    >>> r = exact_deal_odds("classical", 14)
    >>> sum(r["shanten"].values())
    Fraction(1, 1)
    >>> float(r["complete"]) > 0, max(r["shanten"])
    (True, 8)
    >>> exact_deal_odds(tiles=2, suits="z")["complete"]  # 2 of the 28 honor tiles make a pair
    Fraction(1, 9)
    >>> am = exact_deal_odds("american", 14)
    >>> am["options"], f"{float(am['complete']):.3g}", am["jokers"][0] == Fraction(comb(144, 14), comb(152, 14))
    ({'flowers': True, 'jokers': 8, 'tiles': 152}, '8.93e-09', True)
    >>> from mjfast.rules import get
    >>> f"{float(exact_deal_odds(get('american', all_joker_sets=False), 14)['complete']):.3g}"  # no set of jokers only
    '8.91e-09'
    """
    label, all_forms, kong_two_pairs, model = _check_rules(rules)
    suits = _check_suits(suits)
    with _progress.shared_bar(progress, _progress.exact_odds_label(label), 1) as bar:
        before = bar.done
        if model == "american":
            res = _american_odds_dict(tiles, form, suits, jokers, bool(getattr(rules, "all_joker_sets", True)))
        else:
            res = _exact_odds(label, all_forms, kong_two_pairs, tiles, form, suits, jokers)
        if bar.done == before:      # one step, unless it went through thresholds
            _progress.step()
    return res


def _exact_odds(label, all_forms, kong_two_pairs, tiles, form, suits, jokers) -> dict:
    if jokers is not None:
        raise ValueError(f"jokers is an option of rules='american' only (got rules={label!r})")
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form == "beginner":
        raise ValueError("form 'beginner' is the American beginner hand; it needs rules='american'")
    if form != "all" and form not in _rules.FORMS:
        raise ValueError(f"unknown form {form!r}; choose 'all' or one of {_rules.FORMS}")
    tiles = _check_tiles(tiles)
    _forms_for(all_forms, form, tiles)
    shanten, four = _odds(all_forms, kong_two_pairs, tiles, form, suits)
    dist = dict(shanten)
    return {
        "rules": label,
        "tiles": tiles,
        "form": form,
        "suits": suits,
        "shanten": dist,
        "complete": dist.get(-1, Fraction(0)),
        "tenpai": dist.get(0, Fraction(0)),
        "four_of_a_kind": four,
    }


def exact_deal_odds_table(rules="classical", tiles=14, *, suits="mpsz", jokers=None,
                          progress: bool = True) -> dict:
    """:func:`exact_deal_odds` for every form the rule set allows.

    Parameters
    ----------
    rules : {None, "classical", "basic", "mcr", "american"}
        None -> standard, seven_pairs, thirteen_orphans, all; "classical"/"basic" ->
        standard, all; "mcr" -> the five forms and all; "american" -> beginner, all.
    tiles : int
        13 or 14 (under "classical"/"basic" also any size :func:`exact_deal_odds` takes).
    suits : str, keyword-only
        The tile world, as for :func:`exact_deal_odds`.
    jokers : int, keyword-only
        ``rules="american"`` only, as for :func:`exact_deal_odds`.
    progress : bool, keyword-only
        One progress bar for the whole table, as for :func:`exact_deal_odds`.

    Returns
    -------
    dict
        {form: result dict of :func:`exact_deal_odds`}, in the order above.

    Examples
    --------
    >>> from mjfast.exact import exact_deal_odds_table
    >>> table = exact_deal_odds_table("classical", 13)
    >>> list(table)
    ['standard', 'all']
    >>> table["all"]["shanten"] == table["standard"]["shanten"]
    True
    """
    label, all_forms = _check_rules(rules)[:2]
    with _progress.shared_bar(progress, _progress.exact_odds_label(label), len(all_forms) + 1):
        return {f: exact_deal_odds(rules, tiles, f, suits=suits, jokers=jokers) for f in all_forms + ("all",)}


# ---------------------------------------------------------------------------
# American beginner hand (rules="american")
# ---------------------------------------------------------------------------
#
# The American set: 4 copies of each standard kind of ``suits``, the 8 flowers f1..f8 (one
# kind of 8 interchangeable tiles for building sets) and ``jokers`` jokers; a dealt hand is a
# uniform subset of ``tiles`` of them (nothing is replaced). The beginner-hand distance of a
# hand depends only on its four largest natural counts, each capped at 4 (the flower count
# too), and its joker count (see mjfast._american.pxd), so a DP over the kinds keeps, per
# (tiles so far, sorted capped top four, some standard kind held 4 times) the number of
# physical tile choices: prod C(4, c) over standard kinds, C(8, f) for f flowers, C(J, j) for
# j jokers. At most 15 * 70 * 2 states; each final state's distance comes from the kernel.

def _american_jokers(jokers) -> int:
    if jokers is None:
        return 8
    if isinstance(jokers, bool) or not isinstance(jokers, (int, np.integer)):
        raise TypeError(f"jokers must be an int, not {type(jokers).__name__}")
    if not 0 <= jokers <= 16:
        raise ValueError(f"jokers must be between 0 and 16, got {jokers}")
    return int(jokers)


def _insert_top(top: tuple, c: int) -> tuple:
    """The four largest of ``top`` (sorted, descending) and ``c``."""
    return tuple(sorted(top + (c,), reverse=True)[:4])


@functools.cache
def _american_counts(tiles: int, kinds: int, flowers: int, jokers: int, all_joker_sets: bool = True) -> tuple:
    """Exact counts of ``tiles``-tile subsets of a world of ``kinds`` standard kinds (4 copies),
    ``flowers`` flowers and ``jokers`` jokers; distances under the joker reading ``all_joker_sets``.

    Returns ((distance, subsets) ..., subsets holding a standard kind four times, total).
    """
    states = {(0, (0, 0, 0, 0), False): 1}
    for _ in range(kinds):
        nxt: dict = {}
        for (n, top, four), w in states.items():
            for c in range(min(4, tiles - n) + 1):
                key = (n + c, _insert_top(top, c) if c else top, four or c == 4)
                nxt[key] = nxt.get(key, 0) + w * comb(4, c)
        states = nxt
    finals: dict = {}
    for (n, top, four), w in states.items():
        for f in range(min(flowers, tiles - n) + 1):
            j = tiles - n - f
            if j > jokers:
                continue
            fkey = (_insert_top(top, min(f, 4)) if f else top, j, four)
            finals[fkey] = finals.get(fkey, 0) + w * comb(flowers, f) * comb(jokers, j)
    keys = list(finals)
    rows = np.zeros((len(keys), 43), dtype=np.uint8)
    for i, (top, j, _) in enumerate(keys):
        rows[i, :4] = top  # any four different kinds: the distance is symmetric in the kinds
        rows[i, 42] = j
    shanten = np.empty(len(keys), dtype=np.int8)
    _american_batch.shanten_counts_batch(rows, shanten, 1, all_joker_sets)
    hist: dict = {}
    four_count = 0
    for (top, j, four), s in zip(keys, shanten.tolist()):
        w = finals[(top, j, four)]
        hist[s + 1] = hist.get(s + 1, 0) + w
        four_count += w if four else 0
    total = comb(4 * kinds + flowers + jokers, tiles)
    if sum(hist.values()) != total:  # pragma: no cover - an internal consistency check
        raise AssertionError("exact American odds: weights do not add up to C(tiles in world, tiles)")
    return tuple(sorted(hist.items())), four_count, total


def _american_odds_dict(tiles, form, suits: str, jokers, all_joker_sets: bool = True) -> dict:
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form not in ("all",) + AMERICAN_FORMS:
        raise ValueError(f"unknown form {form!r} for rules='american'; choose 'all' or 'beginner'")
    if isinstance(tiles, bool) or not isinstance(tiles, (int, np.integer)):
        raise TypeError(f"tiles must be an int, not {type(tiles).__name__}")
    if tiles not in (13, 14):
        raise ValueError(f"rules='american' deals hands of 13 or 14 tiles; got {tiles}")
    tiles = int(tiles)
    n_jokers = _american_jokers(jokers)
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    hist, four, total = _american_counts(tiles, kinds, 8, n_jokers, all_joker_sets)
    dist = {d - 1: Fraction(n, total) for d, n in hist if n}
    rest = 4 * kinds + n_jokers
    bonus = {f: Fraction(comb(8, f) * comb(rest, tiles - f), total) for f in range(min(8, tiles) + 1)}
    rest = 4 * kinds + 8
    jok = {j: Fraction(comb(n_jokers, j) * comb(rest, tiles - j), total) for j in range(min(n_jokers, tiles) + 1)}
    return {
        "rules": "american",
        "tiles": tiles,
        "form": form,
        "suits": suits,
        "options": {"flowers": True, "jokers": n_jokers, "tiles": 4 * kinds + 8 + n_jokers,
                    **({} if all_joker_sets else {"all_joker_sets": False})},
        "shanten": dist,
        "complete": dist.get(-1, Fraction(0)),
        "tenpai": dist.get(0, Fraction(0)),
        "four_of_a_kind": Fraction(four, total),
        "bonus_tiles": {k: v for k, v in bonus.items() if v},
        "jokers": {k: v for k, v in jok.items() if v},
    }
