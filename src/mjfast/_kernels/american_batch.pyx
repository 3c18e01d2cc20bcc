# cython: language_level=3
"""Batch kernels for American hands: beginner-hand shanten and winning check (private).

Hands use the extended model of :mod:`mjfast.tiles`: ``(n, 43)`` uint8 count rows (34
standard kinds, f1..f8, jokers) or ``(n, 5)`` uint32 packed rows. Every ``*_batch`` function
takes validated input (see ``check_*_batch``), a preallocated output array and a thread
count, and fills the output with the GIL released. The per-hand code is in ``american.pxd``.
``all_joker_sets`` is the joker reading of the rules (True: a concealed set of four may be all
jokers; False: each set keeps a natural tile).
"""
import numpy as np
from libc.stdint cimport uint8_t, int8_t, int32_t, uint32_t, uint64_t

from mjfast._kernels.american cimport american_distance, american_distance_counts, american_distance_packed
from mjfast._kernels.american_play cimport am_dist_hist, am_hist
from mjfast._kernels.bits cimport mj_fields_sum, mj_popcount32, mj_load64, mj_lane_sum, MJ_F0
from mjfast._kernels.hand cimport PAR_MIN
from mjfast._kernels.omp cimport for_blocks


cdef enum:
    BLOCK = 4096        # rows per block of a batch on several threads


ctypedef struct rows_t:
    # a batch kernel's arguments, read by its block function (omp.for_blocks)
    const uint8_t* counts       # (n, width) count rows, or NULL
    const uint32_t* packed      # (n, width) packed rows, or NULL
    Py_ssize_t width            # elements per row
    int8_t* sh                  # shanten out, or NULL
    uint8_t* win                # winning check out, or NULL
    int keep                    # the joker reading (american.pxd)


cdef int counts_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint8_t* rows = a.counts
    cdef int8_t* sh = a.sh
    cdef uint8_t* win = a.win
    cdef Py_ssize_t i, w = a.width
    cdef int keep = a.keep
    if sh != NULL:
        for i in range(lo, hi):
            sh[i] = <int8_t>(american_distance_counts(rows + i * w, keep) - 1)
    else:
        for i in range(lo, hi):
            win[i] = american_distance_counts(rows + i * w, keep) == 0
    return 0


cdef int packed_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint32_t* rows = a.packed
    cdef int8_t* sh = a.sh
    cdef uint8_t* win = a.win
    cdef Py_ssize_t i, w = a.width
    cdef int keep = a.keep
    if sh != NULL:
        for i in range(lo, hi):
            sh[i] = <int8_t>(american_distance_packed(rows + i * w, keep) - 1)
    else:
        for i in range(lo, hi):
            win[i] = american_distance_packed(rows + i * w, keep) == 0
    return 0


cdef void run_counts(const uint8_t[:, ::1] hands, int8_t* sh, uint8_t* win, int threads, bint all_joker_sets):
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    if n == 0:
        return
    a.counts = &hands[0, 0]
    a.packed = NULL
    a.width = hands.shape[1]
    a.sh = sh
    a.win = win
    a.keep = 0 if all_joker_sets else 1
    with nogil:
        for_blocks(counts_block, &a, n, BLOCK, 1 if n < PAR_MIN else threads)


cdef void run_packed(const uint32_t[:, ::1] hands, int8_t* sh, uint8_t* win, int threads, bint all_joker_sets):
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    if n == 0:
        return
    a.counts = NULL
    a.packed = &hands[0, 0]
    a.width = hands.shape[1]
    a.sh = sh
    a.win = win
    a.keep = 0 if all_joker_sets else 1
    with nogil:
        for_blocks(packed_block, &a, n, BLOCK, 1 if n < PAR_MIN else threads)


def shanten_counts_batch(const uint8_t[:, ::1] hands, int8_t[::1] out, int threads,
                         bint all_joker_sets=True):
    """out[i] = beginner-hand shanten (distance - 1) of 43-count row i."""
    if hands.shape[0]:
        run_counts(hands, &out[0], NULL, threads, all_joker_sets)


def shanten_packed_batch(const uint32_t[:, ::1] hands, int8_t[::1] out, int threads,
                         bint all_joker_sets=True):
    """out[i] = beginner-hand shanten of packed row i (5 words)."""
    if hands.shape[0]:
        run_packed(hands, &out[0], NULL, threads, all_joker_sets)


def winning_counts_batch(const uint8_t[:, ::1] hands, uint8_t[::1] out, int threads,
                         bint all_joker_sets=True):
    """out[i] = 1 if 43-count row i (14 tiles) is a complete beginner hand."""
    if hands.shape[0]:
        run_counts(hands, NULL, &out[0], threads, all_joker_sets)


def winning_packed_batch(const uint32_t[:, ::1] hands, uint8_t[::1] out, int threads,
                         bint all_joker_sets=True):
    """out[i] = 1 if packed row i (14 tiles) is a complete beginner hand."""
    if hands.shape[0]:
        run_packed(hands, NULL, &out[0], threads, all_joker_sets)


# ---------------------------------------------------------------------------------------------
# Validation (the wrappers call these before any kernel above sees the data)

cdef inline uint64_t lanes_over(uint64_t x, uint64_t limit) noexcept nogil:
    """Nonzero when some byte lane of x (lanes 0..255) holds more than ``limit`` (< 128)."""
    return (x | ((x & 0x7F7F7F7F7F7F7F7FULL) + 0x0101010101010101ULL * (0x7F - limit))) & 0x8080808080808080ULL


cdef inline int counts_row_status(const uint8_t* h, uint64_t size_mask) noexcept nogil:
    """0 = valid, 1 = a standard count above 4, 4 = a bonus count above 1, 2 = size not allowed."""
    cdef uint64_t wm = mj_load64(h)
    cdef uint64_t wp = mj_load64(h + 9)
    cdef uint64_t ws = mj_load64(h + 18)
    cdef uint64_t wz = mj_load64(h + 26) >> 8          # bytes 27..33, top lane 0
    cdef uint64_t extra = <uint64_t>h[8] | (<uint64_t>h[17] << 8) | (<uint64_t>h[26] << 16)
    cdef uint64_t bonus = mj_load64(h + 34)
    cdef int total
    if lanes_over(wm, 4) | lanes_over(wp, 4) | lanes_over(ws, 4) | lanes_over(wz, 4) | lanes_over(extra, 4):
        return 1
    if lanes_over(bonus, 1):
        return 4
    total = mj_lane_sum(wm + wp + ws + wz + extra + bonus) + h[42]   # lanes stay below 256
    return 0 if total < 64 and (size_mask >> total) & 1 else 2


cdef inline int packed_row_status(const uint32_t* w, uint64_t size_mask) noexcept nogil:
    """0 = valid, 1 = a field above 4, 2 = size not allowed, 3 = padding bits set."""
    cdef uint32_t bad = 0
    cdef int s, total = 0
    if (w[0] >> 27) | (w[1] >> 27) | (w[2] >> 27) | (w[3] >> 21) | (w[4] >> 16):
        return 3
    for s in range(4):
        bad |= (w[s] >> 2) & (w[s] | (w[s] >> 1)) & MJ_F0
        total += mj_fields_sum(w[s])
    if bad:
        return 1
    total += mj_popcount32(w[4] & 0xFF) + <int>((w[4] >> 8) & 0xFF)
    return 0 if total < 64 and (size_mask >> total) & 1 else 2


ctypedef fused row_t:
    uint8_t         # (n, 43) count rows
    uint32_t        # (n, 5) packed rows


cdef inline int row_status(const row_t* h, uint64_t size_mask) noexcept nogil:
    if row_t is uint8_t:
        return counts_row_status(h, size_mask)
    else:
        return packed_row_status(h, size_mask)


cdef tuple first_bad_row(const row_t[:, ::1] hands, uint64_t size_mask):
    """(row, reason) of the first row whose row_status is not 0, or (-1, 0)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int st = 0
    with nogil:
        for i in range(n):
            st = row_status(&hands[i, 0], size_mask)
            if st:
                break
    if st:
        return i, st
    return -1, 0


def check_counts_batch(const uint8_t[:, ::1] hands, uint64_t size_mask):
    """First invalid row of an (n, 43) uint8 batch: ``(row, reason)`` or ``(-1, 0)``."""
    return first_bad_row(hands, size_mask)


def check_packed_batch(const uint32_t[:, ::1] hands, uint64_t size_mask):
    """First invalid row of an (n, 5) packed batch: ``(row, reason)`` or ``(-1, 0)``."""
    return first_bad_row(hands, size_mask)


def distance_batch(const uint8_t[:, ::1] hands, const uint8_t[:, ::1] excl, const int32_t[::1] n_exp,
                   int32_t[::1] out, bint all_joker_sets=True):
    """Exposure-aware distance of each row: hands (n, 36) concealed counts (35 = jokers),
    excl (n, 35) exposed kinds, n_exp (n,) number of exposed sets."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int hist[9]
    cdef int keep = 0 if all_joker_sets else 1
    with nogil:
        for i in range(n):
            am_hist(&hands[i, 0], &excl[i, 0], hist)
            out[i] = am_dist_hist(hist, hands[i, 35], n_exp[i], keep)


def concealed_distance_batch(const uint8_t[:, ::1] hands, int32_t[::1] out, bint all_joker_sets=True):
    """american_distance (no exposures) of each row of (n, 36) counts: the kernel of american.pxd."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int keep = 0 if all_joker_sets else 1
    with nogil:
        for i in range(n):
            out[i] = american_distance(&hands[i, 0], hands[i, 34], hands[i, 35], keep)
