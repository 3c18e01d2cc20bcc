"""States and merges of :mod:`mjfast.exact`: the (size, weight, features) states of a group of suits,
merged pair by pair (tabulated per distinct feature value, looped in the
:mod:`mjfast._kernels.exact_pairs` kernel) into the distance counts of whole hands.
"""

from __future__ import annotations

import functools

import numpy as np

from .._kernels import exact_pairs
from ._features import (
    MAX_TILES,
    NO_CAP,
    SUIT_LETTERS,
    HonorsKnitted,
    Knitted,
    KnittedStraight,
    SevenPairs,
    Simple,
    Standard,
    ThirteenOrphans,
    factorize,
    patterns,
)

# pairs of a merge processed at once (memory: ~100 bytes per pair)
_CHUNK = 1 << 21

# ---------------------------------------------------------------------------
# states and merges
# ---------------------------------------------------------------------------

class States:
    """Distinct (size, features) of a group of suits with their integer weights, sorted by size."""

    def __init__(self, size, weight, feats, nnum):
        order = np.argsort(size, kind="stable")
        self.size = size[order]
        self.weight = weight[order]
        self.feats = [f[order] for f in feats]
        self.nnum = nnum
        self.bounds = np.searchsorted(self.size, np.arange(MAX_TILES + 2))
        self._factors: dict = {}

    def factors(self, j: int, rows: slice) -> tuple:
        """(distinct values, index of each row's value) of feature ``j`` over ``rows``; cached,
        as every block of a merge with the same rows of this side needs it again."""
        key = (j, rows.start, rows.stop)
        if key not in self._factors:
            self._factors[key] = factorize(self.feats[j][rows])
        return self._factors[key]

    def __len__(self):
        return len(self.size)

    def rows(self, lo, hi):
        """Index range of the states with lo <= size <= hi."""
        return self.bounds[max(lo, 0)], self.bounds[min(hi, MAX_TILES) + 1]


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


def _group(size, weight, feats, nnum) -> States:
    """Merge equal (size, features) rows, adding their weights.

    Rows are sorted by a 64-bit hash of all columns; runs of equal hashes are then checked
    column by column, so a hash collision (never seen in practice) only costs an exact
    lexicographic sort instead.
    """
    if len(size) == 0:
        return States(size, weight, list(feats), nnum)
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
    return States(size[first], w, [f[first] for f in feats], nnum)


def _pair_blocks(A: States, B: States, tiles: int, exact: bool, chunk: int = _CHUNK):
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


def _block_weights(A: States, B: States, sa: slice, sb: slice, mult: int) -> np.ndarray:
    w = np.multiply.outer(A.weight[sa], B.weight[sb]).ravel()
    return w * mult if mult != 1 else w


def merge_states(A: States, B: States, comps, tiles: int) -> States:
    """States of the union of two disjoint groups of suits (sizes up to ``tiles``)."""
    return merge_mapped(A, B, comps, tiles, None)


class _Accumulator:
    """Collects blocks of (size, weight, features) rows, grouping them every _CHUNK rows."""

    def __init__(self, n_feats: int):
        self.n_feats = n_feats
        self.parts: list[States] = []  # grouped States
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

    def result(self, nnum: int) -> States:
        self._flush()
        return _concat(self.parts, self.n_feats, nnum)


def _concat(parts: list, n_feats: int, nnum: int) -> States:
    """Group the union of several state lists."""
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return States(empty, empty, [empty] * n_feats, nnum)
    size = np.concatenate([g.size for g in parts])
    weight = np.concatenate([g.weight for g in parts])
    feats = [np.concatenate([g.feats[j] for g in parts]) for j in range(n_feats)]
    return _group(size, weight, feats, nnum)


def _final_distances(A: States, B: States, comps, tiles: int):
    """Yields (weights, distance per form) for blocks of the pairs making ``tiles`` tiles."""
    for sa, sb, _, mult in _pair_blocks(A, B, tiles, exact=True):
        dists = [c.final(fa[sa], fb[sb], A.nnum, B.nnum) for c, fa, fb in zip(comps, A.feats, B.feats)]
        yield _block_weights(A, B, sa, sb, mult), dists


def _final(A: States, B: States, comps, tiles: int) -> dict:
    """{distance: number of tile subsets} over the pairs of states making ``tiles`` tiles."""
    hist: dict[int, int] = {}
    for w, dists in _final_distances(A, B, comps, tiles):
        dist = functools.reduce(np.minimum, dists)
        for v in np.unique(dist).tolist():
            hist[v] = hist.get(v, 0) + int(w[dist == v].sum())
    return hist


def components(forms: tuple, kong, tiles: int, cap: int) -> list:
    comps: list[Simple | Knitted] = []
    for f in forms:
        if f == "standard":
            comps.append(Standard(tiles, cap))
        elif f == "seven_pairs":
            comps.append(SevenPairs(mcr=kong))
        elif f == "thirteen_orphans":
            comps.append(ThirteenOrphans())
        elif f == "honors_knitted":
            comps.append(HonorsKnitted())
        else:
            comps.append(KnittedStraight(cap))
    return comps


def capped_states(S: States, comps) -> States:
    """The states with every feature capped (capping commutes with merging: a capped sum or
    minimum is the sum or minimum of capped terms, capped)."""
    return _group(S.size, S.weight, [c.capped(f) for c, f in zip(comps, S.feats)], S.nnum)


@functools.cache
def suit_states(honors: bool, in_world: bool, forms: tuple, kong, tiles: int, cap: int) -> States:
    """States of one suit (number suits are alike, so they are computed once)."""
    comps = components(forms, kong, tiles, cap)
    if cap < NO_CAP:
        return capped_states(suit_states(honors, in_world, forms, kong, tiles, NO_CAP), comps)
    _, size, weight, _ = patterns(7 if honors else 9)
    keep = np.flatnonzero(size <= (tiles if in_world else 0))  # outside the world: empty only
    feats = [_suit_feature(f, kong, tiles, honors)[keep] for f in forms]
    return _group(size[keep], weight[keep], feats, 0 if honors else 1)


@functools.cache
def _suit_feature(form: str, kong, tiles: int, honors: bool) -> np.ndarray:
    """One form's (uncapped) feature of every pattern of a suit, computed once: the joint
    states of several forms and the states of each form alone share it."""
    comp = components((form,), kong, tiles, NO_CAP)[0]
    counts, _, _, code = patterns(7 if honors else 9)
    feat = comp.suit(counts, code, honors)
    feat.setflags(write=False)
    return feat


@functools.cache
def distance_counts(forms: tuple, kong, tiles: int, suits: str) -> tuple:
    """((distance, number of tile subsets), ...) for hands of ``tiles`` tiles of ``suits``."""
    # Vectors are capped at ``cap``: a capped distance is min(true, cap), so the result is
    # exact when no hand reaches the cap (checked; otherwise it is redone without a cap).
    for cap in (11, NO_CAP):
        comps = components(forms, kong, tiles, cap)
        st = {ch: suit_states(ch == "z", ch in suits, forms, kong, tiles, cap) for ch in SUIT_LETTERS}
        left = merge_states(st["m"], st["p"], comps, tiles)
        right = merge_states(st["s"], st["z"], comps, tiles)
        hist = _final(left, right, comps, tiles)
        capped = any(isinstance(c, (Standard, KnittedStraight)) for c in comps)
        if cap >= NO_CAP or not capped or max(hist) < cap:
            return tuple(sorted(hist.items()))
    raise AssertionError("unreachable")


def _lookup(table: tuple, values: np.ndarray) -> np.ndarray:
    """Representatives of ``values`` from one (values, reps) entry of a class map."""
    keys, reps = table
    idx = np.searchsorted(keys, values)
    if not np.array_equal(keys[np.minimum(idx, len(keys) - 1)], values):  # pragma: no cover
        raise AssertionError("exact deal odds: a feature value missing from its class map")
    return reps[idx]


def apply_maps(S: States, maps) -> States:
    """Replace each feature by its representative, drop the states that cannot pass."""
    feats = [np.empty_like(f) for f in S.feats]
    for size in np.unique(S.size).tolist():
        lo, hi = S.rows(size, size)
        for j, cmap in enumerate(maps):
            feats[j][lo:hi] = _lookup(cmap[size], S.feats[j][lo:hi]) if size in cmap else -1
    keep = functools.reduce(np.logical_and, [f >= 0 for f in feats])
    return _group(S.size[keep], S.weight[keep], [f[keep] for f in feats], S.nnum)


def merge_mapped(A: States, B: States, comps, tiles: int, maps) -> States:
    """:func:`merge_states`, mapping every pair to representatives (and dropping dead pairs)
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


def _merge_block_numpy(acc, A: States, B: States, comps, posts, sa: slice, sb: slice, size: int,
                       mult: int) -> None:
    """One block of :func:`merge_mapped` in NumPy, pair by pair (when the keys of the kernel
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


def _whole_table(comp, A: States, B: States, j: int):
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
        ux, ix = factorize(x)
        uy, iy = factorize(y)
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


def count_passing(A: States, B: States, comps, tiles: int, t: int) -> int:
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
