# cython: language_level=3
"""Batch kernels of American cards (private; the wrappers are in :mod:`mjfast.card`).

A compiled card is a set of *variations* (concrete hands of 14 tiles, each a list of sets)
grouped by line. Every variation is a 96-byte row: the 48-byte natural demand ``R`` then the
48-byte flexible demand ``F`` (card.h), plus its sets of three or more as ``(kind, size)``
pairs for matching exposures. Lines flagged structural (the beginner hand) use the beginner
kernel of american_play.pxd instead of variations.

Hands are 48-byte rows over the 36 American kinds (34 standard, 34 = flower, 35 = jokers,
36-47 zero). Exposures are up to four ``(kind, size)`` pairs per hand (size 0 = none). Every
function takes validated arrays (the wrapper checks them) and fills preallocated outputs with
the GIL released.
"""
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int32_t
from libc.string cimport memcpy

from mjfast._kernels.american_play cimport am_dist_hist, am_hist
from mjfast._kernels.card cimport mj_card_short, mj_card_dead

DEF ROW = 48
DEF VROW = 96
DEF MAX_EXP = 4
DEF DEAD = 127
DEF FLAG_CONCEALED = 1
DEF FLAG_STRUCTURAL = 2


cdef inline int structural_distance(const uint8_t* h, const int8_t* exps, int n_exp) noexcept nogil:
    """The beginner hand with exposures: only distinct kongs (of kinds 0-34) fit it."""
    cdef unsigned char excl[35]
    cdef int hist[9]
    cdef int e, k
    if n_exp > 3:
        return DEAD
    for k in range(35):
        excl[k] = 0
    for e in range(n_exp):
        k = exps[2 * e]
        if exps[2 * e + 1] != 4 or k > 34 or excl[k]:
            return DEAD
        excl[k] = 1
    am_hist(h, excl, hist)
    return am_dist_hist(hist, h[35], n_exp)


cdef inline bint exposed_rows(const uint8_t* row, const int8_t* xk, const int8_t* xs, const int8_t* exps,
                              int n_exp, bint all_joker_sets, uint8_t* loc) noexcept nogil:
    """Copy the variation's demand into loc minus the exposed sets; 0 if some exposure is not
    one of the variation's sets of three or more (each set matched once)."""
    cdef int e, j, k, s
    cdef int used = 0
    for e in range(n_exp):
        k = exps[2 * e]
        s = exps[2 * e + 1]
        for j in range(MAX_EXP):
            if not (used >> j) & 1 and xs[j] == s and xk[j] == k:
                used |= 1 << j
                break
        else:
            return 0
    memcpy(loc, row, VROW)
    for e in range(n_exp):
        k = exps[2 * e]
        s = exps[2 * e + 1]
        if all_joker_sets:
            loc[ROW + k] -= s
        else:
            loc[k] -= 1
            loc[ROW + k] -= s - 1
    return 1


cdef void hand_lines(const uint8_t* rows, const int32_t* line_start, const uint8_t* flags, const int8_t* xk,
                     const int8_t* xs, int n_lines, const uint8_t* h, const int8_t* exps, int n_exp,
                     const uint8_t* unseen, bint all_joker_sets, int8_t* out, int32_t* arg) noexcept nogil:
    """Distance (and best variation) of every line for one hand."""
    cdef uint8_t loc[VROW]
    cdef const uint8_t* r
    cdef int l, v, sr, sf, d, best, barg
    cdef int J = h[35]
    for l in range(n_lines):
        best = DEAD
        barg = -1
        if flags[l] & FLAG_STRUCTURAL:
            best = structural_distance(h, exps, n_exp)
        elif n_exp == 0 or not flags[l] & FLAG_CONCEALED:
            for v in range(line_start[l], line_start[l + 1]):
                r = rows + <Py_ssize_t>v * VROW
                if n_exp:
                    if not exposed_rows(r, xk + 4 * v, xs + 4 * v, exps, n_exp, all_joker_sets, loc):
                        continue
                    r = loc
                mj_card_short(r, r + ROW, h, &sr, &sf)
                d = sr + (sf - J if sf > J else 0)
                if d < best:
                    if unseen != NULL and mj_card_dead(r, r + ROW, h, unseen, J):
                        continue
                    best = d
                    barg = v
        out[l] = <int8_t>best
        if arg != NULL:
            arg[l] = barg


def line_distance_batch(const uint8_t[:, ::1] rows, const int32_t[::1] line_start, const uint8_t[::1] flags,
                        const int8_t[:, ::1] xk, const int8_t[:, ::1] xs, const uint8_t[:, ::1] hands,
                        const int8_t[:, ::1] exps, const int8_t[::1] n_exp, const uint8_t[:, ::1] unseen,
                        bint all_joker_sets, int8_t[:, ::1] out, int32_t[:, ::1] arg, int threads):
    """out[i, l] = tiles hand i still needs for line l (127 = dead); arg[i, l] = the variation
    reaching it (-1: none or structural), when arg has rows; unseen has 0 rows or one per hand."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int n_lines = flags.shape[0]
    cdef bint with_unseen = unseen.shape[0] > 0, with_arg = arg.shape[0] > 0
    cdef const uint8_t* rp = &rows[0, 0] if rows.shape[0] > 0 else NULL
    cdef const int8_t* kp = &xk[0, 0] if xk.shape[0] > 0 else NULL
    cdef const int8_t* sp = &xs[0, 0] if xs.shape[0] > 0 else NULL
    if n < 64:
        threads = 1
    with nogil:
        if threads == 1:
            for i in range(n):
                hand_lines(rp, &line_start[0], &flags[0], kp, sp, n_lines, &hands[i, 0], &exps[i, 0], n_exp[i],
                           &unseen[i, 0] if with_unseen else NULL, all_joker_sets, &out[i, 0],
                           &arg[i, 0] if with_arg else NULL)
        else:
            for i in prange(n, schedule="dynamic", chunksize=16, num_threads=threads):
                hand_lines(rp, &line_start[0], &flags[0], kp, sp, n_lines, &hands[i, 0], &exps[i, 0], n_exp[i],
                           &unseen[i, 0] if with_unseen else NULL, all_joker_sets, &out[i, 0],
                           &arg[i, 0] if with_arg else NULL)
