# cython: language_level=3
"""Generate the per-suit distance vectors behind the shanten tables.

For one suit (9 number kinds, or the 7 honor kinds) and every count pattern h with at most
14 tiles, ``distance_vectors`` computes, for k = 0..4 sets and p = 0/1 pairs, the number of
tiles missing from h to hold *some* target of exactly k sets and p pairs drawn from that suit
alone, where a target never uses more than four copies of a kind::

    d[h, 2k + p] = min over targets t of sum_i max(t_i - h_i, 0)
                 = 3k + 2p - max over targets t of sum_i min(t_i, h_i)

The maximum overlap is found by a dynamic programme over the ranks, run once per prefix of
the pattern while enumerating the patterns depth first (every pattern sharing a prefix
shares the DP rows for it). DP state before rank i: (a, b, m, p) = chows started at i-2
(still needing rank i), chows started at i-1 (needing ranks i and i+1), sets placed so far,
pair placed. Only the wrapper in ``tables.py`` calls this (and ``capped_suit_distances`` runs the same DP
for one pattern); the tests compare its output with the brute-force target enumeration of
``tests/oracles/reference.py``.
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset

cnp.import_array()

NO_PATTERN = np.uint64(0xFFFFFFFFFFFFFFFF)

cdef enum:
    MAXT = 14

# dp rows: [a][b][m][p] flattened = ((a*5 + b)*5 + m)*2 + p ; 250 entries, -1 = unreachable
ctypedef int8_t dprow_t[250]

cdef inline int _st(int a, int b, int m, int p) noexcept nogil:
    return ((a * 5 + b) * 5 + m) * 2 + p


cdef void _step(const int8_t* src, int8_t* dst, int h, bint chows_start, int cap) noexcept nogil:
    """One rank of the DP: src = rows before this rank, dst = rows after it (before the next);
    a target holds at most ``cap`` copies of this rank's kind (4, or fewer when called sets
    hold some)."""
    cdef int a, b, m, p, c, q, r, t, v, nv, ov, cmax, s
    memset(dst, -1, 250)
    for a in range(5):
        for b in range(5 - a):
            for m in range(a + b, 5):
                for p in range(2):
                    v = src[_st(a, b, m, p)]
                    if v < 0:
                        continue
                    cmax = (4 - m) if chows_start else 0
                    for c in range(cmax + 1):
                        for q in range(2):
                            if m + c + q > 4:
                                break
                            for r in range(2 - p):
                                t = a + b + c + 3 * q + 2 * r
                                if t > cap:
                                    break
                                ov = t if t < h else h
                                nv = v + ov
                                s = _st(b, c, m + c + q, p + r)
                                if dst[s] < nv:
                                    dst[s] = <int8_t>nv


cdef void _walk(int depth, int nk, bint numbers, int tiles, Py_ssize_t index, Py_ssize_t weight,
                int8_t* rows, uint64_t* out) noexcept nogil:
    """Depth-first over patterns; rows[depth*250 .. ] holds the DP before rank ``depth``."""
    cdef int h, m, p, best
    cdef int8_t* cur = rows + depth * 250
    cdef int8_t* nxt = rows + (depth + 1) * 250
    cdef uint64_t key = 0
    if depth == nk:
        for m in range(5):
            for p in range(2):
                best = cur[_st(0, 0, m, p)]
                # every (m, p) with 3m + 2p <= 14 is reachable from the all-missing target
                key |= (<uint64_t>(3 * m + 2 * p - best)) << (4 * (2 * m + p))
        out[index] = key
        return
    for h in range(5):
        if tiles + h > MAXT:
            break
        _step(cur, nxt, h, numbers and depth <= nk - 3, 4)
        _walk(depth + 1, nk, numbers, tiles + h, index + h * weight, weight * 5, rows, out)


def distance_vectors(int n_kinds, bint numbers):
    """Distance vectors of every pattern of one suit, indexed by base-5 code.

    Parameters
    ----------
    n_kinds : int
        9 for a number suit, 7 for the honors.
    numbers : bool
        Whether chows are allowed (number suits).

    Returns
    -------
    ndarray of shape (5**n_kinds,), dtype uint64
        Entry ``sum(h[i] * 5**i)`` packs ``d[2k + p]`` in bits ``4*(2k + p)`` and up (each value
        is at most 14). Patterns with more than 14 tiles hold ``NO_PATTERN`` (all bits set);
        no valid hand reaches them.
    """
    cdef Py_ssize_t size = 1
    cdef int _i
    for _i in range(n_kinds):
        size *= 5
    out = np.full(size, NO_PATTERN, dtype=np.uint64)
    rows = np.empty((n_kinds + 1) * 250, dtype=np.int8)
    cdef uint64_t[::1] o = out
    cdef int8_t[::1] r = rows
    with nogil:
        memset(&r[0], -1, 250)
        r[0] = 0  # state (0, 0, 0, 0) with overlap 0
        _walk(0, n_kinds, numbers, 0, 0, 1, &r[0], &o[0])
    return out


def capped_suit_distances(const uint8_t[::1] h, const uint8_t[::1] cap, bint numbers):
    """The distance vector of one suit pattern when kind i may appear at most ``cap[i]`` times
    in a target (the same DP as :func:`distance_vectors`, run once for this pattern).

    Used for hands with called sets, whose tiles count against the four copies of a kind.

    Parameters
    ----------
    h, cap : uint8 arrays of 9 (number suit) or 7 (honors) counts, ``h[i] <= cap[i] <= 4``
    numbers : bool
        Whether chows are allowed.

    Returns
    -------
    list of 10 int
        Entry ``2k + p``: tiles missing for k sets and p pairs from this suit alone; 99 when
        the caps leave no such target.
    """
    cdef int nk = h.shape[0], depth, m, p, best
    rows = np.empty((nk + 1) * 250, dtype=np.int8)
    cdef int8_t[::1] r = rows
    out = []
    with nogil:
        memset(&r[0], -1, 250)
        r[0] = 0
        for depth in range(nk):
            _step(&r[depth * 250], &r[(depth + 1) * 250], h[depth], numbers and depth <= nk - 3, cap[depth])
    for m in range(5):
        for p in range(2):
            best = r[nk * 250 + _st(0, 0, m, p)]
            out.append(3 * m + 2 * p - best if best >= 0 else 99)
    return out


def classify_keys(const uint64_t[::1] keys, uint64_t skip):
    """Class id of every key, the classes numbered in increasing key order, and the distinct keys.

    The same result as ``np.unique(keys[keys != skip], return_inverse=True)`` scattered back
    (keys equal to ``skip`` get class 0), in one hashed pass: the tables' keys take few
    distinct values (at most 255 are allowed), so a small open-addressing set finds them
    and the sort is over the distinct keys only.

    Returns
    -------
    (ndarray (n,) int64, ndarray (distinct,) uint64)
    """
    cdef Py_ssize_t i, n = keys.shape[0]
    cdef int n_slots = 1024, n_seen = 0, s, c
    slot_key = np.zeros(n_slots, dtype=np.uint64)
    slot_used = np.zeros(n_slots, dtype=np.uint8)
    slot_id = np.zeros(n_slots, dtype=np.int64)
    classes = np.zeros(n, dtype=np.int64)
    cdef uint64_t[::1] sk = slot_key
    cdef uint8_t[::1] su = slot_used
    cdef int64_t[::1] sid = slot_id
    cdef int64_t[::1] cls = classes
    cdef uint64_t k
    cdef bint full = False
    with nogil:
        for i in range(n):       # pass 1: the distinct keys
            k = keys[i]
            if k == skip:
                continue
            s = <int>((k * <uint64_t>0x9E3779B97F4A7C15ULL) >> 54)    # top 10 bits: 1024 slots
            while su[s] and sk[s] != k:
                s = (s + 1) & (n_slots - 1)
            if not su[s]:
                if n_seen == 255:
                    full = True
                    break
                su[s] = 1
                sk[s] = k
                n_seen += 1
    if full:
        raise RuntimeError("mjfast: more than 255 distinct table keys (classes must fit in uint8)")
    distinct = np.sort(slot_key[slot_used.astype(bool)])
    for c in range(len(distinct)):
        k = distinct[c]
        s = <int>((k * <uint64_t>0x9E3779B97F4A7C15ULL) >> 54)
        while sk[s] != k:
            s = (s + 1) & (n_slots - 1)
        sid[s] = c
    with nogil:
        for i in range(n):       # pass 2: each key's class
            k = keys[i]
            if k == skip:
                continue
            s = <int>((k * <uint64_t>0x9E3779B97F4A7C15ULL) >> 54)
            while sk[s] != k:
                s = (s + 1) & (n_slots - 1)
            cls[i] = sid[s]
    return classes, distinct
