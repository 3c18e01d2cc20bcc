# cython: language_level=3
"""Pair loops of the exact deal odds (private; the public API is mjfast.exact).

:mod:`mjfast.exact` combines two groups of suits by pairing every state of one side with
every state of the other. Per form, a state's feature is first replaced (in NumPy) by a small
id, and the outcome of every pair of ids is precomputed in a table (``tables``, one
row-major block per form, or per test, at ``offsets[f]``, row length ``strides[f]``). The
loops here only look those tables up: no NumPy temporary of the size of the outer product
(one per form and step) is ever made.

Everything is exact int64: a weight, and a sum of weights of distinct pairs, counts distinct
tile subsets of at most 14 tiles of the 136, at most C(136, 14) < 2**62. No float anywhere,
and the sums are independent of the order of the pairs.
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, free

from mjfast._kernels.bits cimport mj_ctz64

cnp.import_array()

cdef enum:
    MAX_TESTS = 16


def pass_sums(const int32_t[:, ::1] ia, const int32_t[:, ::1] ib, const uint8_t[::1] tables,
              const int64_t[::1] offsets, const int64_t[::1] strides, const int64_t[::1] wb,
              int64_t[::1] out):
    """``out[i]`` = the sum of ``wb[j]`` over the states ``j`` of B that pass every test with
    state ``i`` of A: ``tables[offsets[f] + ia[i, f] * strides[f] + ib[j, f]] != 0`` for all f.

    Each row of each table becomes a bit set over the states of B; a state of A then ANDs
    one bit set per test (64 states of B a word) and adds the weights of the bits left.
    """
    cdef Py_ssize_t na = ia.shape[0], nb = ib.shape[0], nf = ia.shape[1], i, j, f, w, r
    cdef Py_ssize_t nw = (nb + 63) // 64
    cdef Py_ssize_t rows_start[MAX_TESTS + 1]
    cdef const uint64_t* row[MAX_TESTS]
    cdef uint64_t word
    cdef int64_t s
    if nf > MAX_TESTS or ib.shape[1] != nf or wb.shape[0] != nb or out.shape[0] != na:
        raise ValueError("pass_sums: inconsistent shapes")
    if nb == 0 or nf == 0:
        for i in range(na):
            out[i] = 0 if nb == 0 else sum(wb)
        return
    rows_start[0] = 0
    for f in range(nf):
        rows_start[f + 1] = rows_start[f] + (tables.shape[0] - offsets[f] if f == nf - 1
                                             else offsets[f + 1] - offsets[f]) // strides[f]
    bitsets = np.zeros((rows_start[nf], nw), dtype=np.uint64)
    cdef uint64_t[:, ::1] bits = bitsets
    with nogil:
        for f in range(nf):
            for r in range(rows_start[f + 1] - rows_start[f]):
                for j in range(nb):
                    if tables[offsets[f] + r * strides[f] + ib[j, f]]:
                        bits[rows_start[f] + r, j >> 6] |= (<uint64_t>1) << (j & 63)
        for i in range(na):
            for f in range(nf):
                row[f] = &bits[rows_start[f] + ia[i, f], 0]
            s = 0
            for w in range(nw):
                word = row[0][w]
                f = 1
                while word and f < nf:
                    word &= row[f][w]
                    f += 1
                while word:
                    s += wb[(w << 6) + mj_ctz64(word)]
                    word &= word - 1
            out[i] = s


cdef struct table_t:
    int64_t* keys     # -1 = empty slot
    int64_t* vals
    Py_ssize_t cap    # a power of two
    Py_ssize_t used


cdef inline Py_ssize_t slot_of(int64_t key, Py_ssize_t cap) noexcept nogil:
    # Fibonacci hashing: the high bits of key * 2**64 / phi, masked to the capacity
    return <Py_ssize_t>(((<uint64_t>key) * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1)


cdef int table_init(table_t* t, Py_ssize_t cap) noexcept nogil:
    cdef Py_ssize_t k
    t.keys = <int64_t*>malloc(cap * sizeof(int64_t))
    t.vals = <int64_t*>calloc(cap, sizeof(int64_t))
    if t.keys == NULL or t.vals == NULL:
        free(t.keys)
        free(t.vals)
        return -1
    for k in range(cap):
        t.keys[k] = -1
    t.cap = cap
    t.used = 0
    return 0


cdef inline void table_put(table_t* t, int64_t key, int64_t val) noexcept nogil:
    """Add ``val`` to the entry of ``key`` (capacity is kept at least twice the entries)."""
    cdef Py_ssize_t k = slot_of(key, t.cap)
    while t.keys[k] != -1 and t.keys[k] != key:
        k = (k + 1) & (t.cap - 1)
    if t.keys[k] == -1:
        t.keys[k] = key
        t.used += 1
    t.vals[k] += val


cdef int table_grow(table_t* t) noexcept nogil:
    cdef table_t bigger
    cdef Py_ssize_t k
    if table_init(&bigger, 2 * t.cap) < 0:
        return -1
    for k in range(t.cap):
        if t.keys[k] != -1:
            table_put(&bigger, t.keys[k], t.vals[k])
    free(t.keys)
    free(t.vals)
    t[0] = bigger
    return 0


def pair_keys(const int32_t[:, ::1] ia, const int32_t[:, ::1] ib, const int32_t[::1] tables,
              const int64_t[::1] offsets, const int64_t[::1] strides, const int64_t[::1] radix,
              const int64_t[::1] wa, const int64_t[::1] wb, int64_t mult):
    """Group the pairs (i, j) of states by their merged ids.

    The merged id of form f is ``tables[offsets[f] + ia[i, f] * strides[f] + ib[j, f]]``
    (-1: the pair can never pass, it is dropped); the key of a pair is the sum over f of id
    times ``radix[f]`` (the caller checks that it fits). Returns (keys, weights), each key
    once, with the weights ``mult * wa[i] * wb[j]`` of its pairs added up; keys unsorted.
    """
    cdef Py_ssize_t na = ia.shape[0], nb = ib.shape[0], nf = ia.shape[1], i, j, f, k, n
    cdef int64_t base[MAX_TESTS]
    cdef int64_t key, w, r
    cdef bint ok
    cdef table_t t
    cdef int err = 0
    if nf > MAX_TESTS or ib.shape[1] != nf or wa.shape[0] != na or wb.shape[0] != nb:
        raise ValueError("pair_keys: inconsistent shapes")
    if table_init(&t, 1024) < 0:
        raise MemoryError()
    with nogil:
        for i in range(na):
            for f in range(nf):
                base[f] = offsets[f] + ia[i, f] * strides[f]
            w = mult * wa[i]
            for j in range(nb):
                key = 0
                ok = True
                for f in range(nf):
                    r = tables[base[f] + ib[j, f]]
                    if r < 0:
                        ok = False
                        break
                    key += r * radix[f]
                if not ok:
                    continue
                if 2 * (t.used + 1) > t.cap:
                    err = table_grow(&t)
                    if err < 0:
                        break
                table_put(&t, key, w * wb[j])
            if err < 0:
                break
    if err < 0:
        free(t.keys)
        free(t.vals)
        raise MemoryError()
    keys = np.empty(t.used, dtype=np.int64)
    vals = np.empty(t.used, dtype=np.int64)
    cdef int64_t[::1] kv = keys, vv = vals
    n = 0
    for k in range(t.cap):
        if t.keys[k] != -1:
            kv[n] = t.keys[k]
            vv[n] = t.vals[k]
            n += 1
    free(t.keys)
    free(t.vals)
    return keys, vals
