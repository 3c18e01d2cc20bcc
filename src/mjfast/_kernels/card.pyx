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

:class:`CardBlocks` holds the same demand in blocks of 16 variations (card.h,
``mj_card_blocks_dv``): the batch kernel's path for hands without exposures or unseen tiles,
which evaluates 16 variations per vector operation instead of one.
"""
import numpy as np
from libc.stdint cimport uint8_t, uint16_t, int8_t, int32_t
from libc.string cimport memcpy

from mjfast._kernels.american_play cimport am_dist_hist, am_hist
from mjfast._kernels.card cimport mj_card_short, mj_card_dead, mj_card_blocks_dv, mj_card_min
from mjfast._kernels.omp cimport for_blocks, mj_omp_thread_num

DEF ROW = 48
DEF VROW = 96
DEF MAX_EXP = 4
DEF DEAD = 127
DEF FLAG_CONCEALED = 1
DEF FLAG_STRUCTURAL = 2


cdef class CardBlocks:
    """A card's demand rows (``rows``: (V, 96), natural R then flexible F per variation;
    ``line_start``: each line's first row) in blocks of 16 variations for mj_card_blocks_dv
    (card.h): kind-major, only the kinds some variation of the block demands. Entry e holds kind
    ``kind16[e] // 16``: 16 bytes of R, then 16 bytes of T = R + F (``data[e]``); block b holds
    entries ``off[b]`` to ``off[b + 1]``. Within each line the variations are ordered by the kinds
    they demand, so that a block spans fewer kinds; a line keeps its range of positions, so the
    line minima need no map back. Build once per card."""
    cdef readonly object data, kind16, off
    cdef readonly int nvar, nblocks
    cdef object _flat, _kflat
    cdef object _args                # (rows, line_start): what a copy or a pickle rebuilds from
    cdef const uint8_t* pdata
    cdef const uint16_t* pkind16
    cdef const int32_t* poff

    def __init__(self, rows, line_start):
        r = np.asarray(rows, dtype=np.uint8)
        ls = np.asarray(line_start, dtype=np.int64)
        self._args = (r, ls)
        if r.ndim != 2 or r.shape[1] != VROW:
            raise ValueError(f"rows must have shape (V, {VROW})")
        if ls.ndim != 1 or len(ls) < 1 or ls[0] != 0 or ls[len(ls) - 1] != len(r) or (np.diff(ls) < 0).any():
            raise ValueError("line_start must rise from 0 to the number of rows")
        self.nvar = r.shape[0]
        self.nblocks = (self.nvar + 15) // 16
        tot_v = r[:, :36].astype(np.int32) + r[:, ROW:ROW + 36]
        if tot_v.max(initial=0) > 255:
            raise ValueError("a variation demands more than 255 tiles of a kind")
        line = np.repeat(np.arange(len(ls) - 1), np.diff(ls))
        mask = ((tot_v > 0).astype(np.uint64) << np.arange(35, -1, -1, dtype=np.uint64)).sum(axis=1)
        order = np.lexsort((~mask, line))          # by line, then kinds demanded (lowest kinds first)
        nat = np.zeros((self.nblocks * 16, 36), np.uint8)
        tot = np.zeros((self.nblocks * 16, 36), np.uint8)
        nat[:self.nvar] = r[order, :36]
        tot[:self.nvar] = tot_v[order]
        nb = nat.reshape(self.nblocks, 16, 36).transpose(0, 2, 1)          # (B, 36 kinds, 16 variations)
        tb = tot.reshape(self.nblocks, 16, 36).transpose(0, 2, 1)
        used = tb.any(axis=2)                                               # (B, 36)
        self.data = np.ascontiguousarray(np.stack([nb, tb], axis=2)[used].reshape(-1, 32))   # block-major
        self.kind16 = np.ascontiguousarray(np.nonzero(used)[1] * 16, dtype=np.uint16)
        off = np.zeros(self.nblocks + 1, np.int32)
        np.cumsum(used.sum(axis=1), out=off[1:])
        self.off = off
        # the pointers the kernel reads (stand-ins keep them valid for an empty card)
        self._flat = self.data.reshape(-1) if self.data.size else np.zeros(32, np.uint8)
        self._kflat = self.kind16 if self.kind16.size else np.zeros(1, np.uint16)
        self._pointers()

    def __reduce__(self):
        """Pickled (and deep-copied) as the rows it is built from: a Card travels to Dask workers,
        other processes and Gymnasium's copies."""
        return (CardBlocks, self._args)

    cdef void _pointers(self):
        cdef const uint8_t[::1] d = self._flat
        cdef const uint16_t[::1] k = self._kflat
        cdef const int32_t[::1] o = self.off
        self.pdata = &d[0]
        self.pkind16 = &k[0]
        self.poff = &o[0]


cdef inline int structural_distance(const uint8_t* h, const int8_t* exps, int n_exp, bint all_joker_sets) noexcept nogil:
    """The beginner hand with exposures: only distinct kongs (of kinds 0-34) fit it; its
    concealed kongs read jokers as the card does (all_joker_sets: a concealed set may be all
    jokers, else each keeps a natural tile)."""
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
    return am_dist_hist(hist, h[35], n_exp, 0 if all_joker_sets else 1)


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
            best = structural_distance(h, exps, n_exp, all_joker_sets)
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


cdef void hand_lines_blocks(const uint8_t* data, const uint16_t* kind16, const int32_t* off, int nblocks,
                           const int32_t* line_start, const uint8_t* flags, int n_lines, const uint8_t* h,
                           bint all_joker_sets, uint8_t* dv, int8_t* out) noexcept nogil:
    """hand_lines for a hand without exposures, unseen tiles or best variations: every variation
    in blocks of 16 (CardBlocks), then each line's minimum."""
    cdef int l, d
    mj_card_blocks_dv(data, kind16, off, nblocks, h, dv)
    for l in range(n_lines):
        if flags[l] & FLAG_STRUCTURAL:
            d = structural_distance(h, NULL, 0, all_joker_sets)
        else:
            d = mj_card_min(dv, line_start[l], line_start[l + 1])
            if d > DEAD:
                d = DEAD
        out[l] = <int8_t>d


ctypedef struct lines_t:
    # line_distance_batch's arguments, read by its block function (omp.for_blocks)
    const uint8_t* rows
    const int32_t* line_start
    const uint8_t* flags
    const int8_t* xk
    const int8_t* xs
    int n_lines
    const uint8_t* hands          # (n, hw)
    const int8_t* exps            # (n, ew)
    const int8_t* n_exp
    const uint8_t* unseen         # (n, uw) or NULL
    bint all_joker_sets
    int8_t* out                   # (n, ow)
    int32_t* arg                  # (n, aw) or NULL
    Py_ssize_t hw, ew, uw, ow, aw  # row widths
    bint fast                     # the blocked path for hands without exposures
    const uint8_t* bdata
    const uint16_t* bkinds
    const int32_t* boff
    int nblocks
    uint8_t* dv                   # per thread: width bytes of scratch (the blocked path)
    Py_ssize_t width


cdef int lines_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const lines_t* a = <const lines_t*>ctx
    cdef Py_ssize_t i
    cdef uint8_t* dv = a.dv + mj_omp_thread_num() * a.width if a.fast else NULL
    for i in range(lo, hi):
        if a.fast and a.n_exp[i] == 0:
            hand_lines_blocks(a.bdata, a.bkinds, a.boff, a.nblocks, a.line_start, a.flags, a.n_lines, a.hands + a.hw * i,
                              a.all_joker_sets, dv, a.out + a.ow * i)
        else:
            hand_lines(a.rows, a.line_start, a.flags, a.xk, a.xs, a.n_lines, a.hands + a.hw * i, a.exps + a.ew * i,
                       a.n_exp[i], a.unseen + a.uw * i if a.unseen != NULL else NULL, a.all_joker_sets,
                       a.out + a.ow * i, a.arg + a.aw * i if a.arg != NULL else NULL)
    return 0


def line_distance_batch(const uint8_t[:, ::1] rows, const int32_t[::1] line_start, const uint8_t[::1] flags,
                        const int8_t[:, ::1] xk, const int8_t[:, ::1] xs, const uint8_t[:, ::1] hands,
                        const int8_t[:, ::1] exps, const int8_t[::1] n_exp, const uint8_t[:, ::1] unseen,
                        bint all_joker_sets, int8_t[:, ::1] out, int32_t[:, ::1] arg, int threads,
                        CardBlocks blocks=None):
    """out[i, l] = tiles hand i still needs for line l (127 = dead); arg[i, l] = the variation
    reaching it (-1: none or structural), when arg has rows; unseen has 0 rows or one per hand.
    With ``blocks`` (the CardBlocks of ``rows``), hands without exposures take the blocked path
    when neither unseen tiles nor best variations are asked for (the same distances)."""
    cdef Py_ssize_t n = hands.shape[0]
    cdef bint with_unseen = unseen.shape[0] > 0, with_arg = arg.shape[0] > 0
    cdef lines_t a
    cdef uint8_t[:, ::1] dv
    a.rows = &rows[0, 0] if rows.shape[0] > 0 else NULL
    a.xk = &xk[0, 0] if xk.shape[0] > 0 else NULL
    a.xs = &xs[0, 0] if xs.shape[0] > 0 else NULL
    a.fast = blocks is not None and not with_unseen and not with_arg
    a.bdata = NULL
    a.bkinds = NULL
    a.boff = NULL
    a.nblocks = 0
    a.width = 16
    if n < 64:
        threads = 1
    if a.fast:
        if blocks.nvar != rows.shape[0]:
            raise ValueError("blocks were built from other rows")
        a.bdata = blocks.pdata
        a.bkinds = blocks.pkind16
        a.boff = blocks.poff
        a.nblocks = blocks.nblocks
        a.width = 16 * a.nblocks + 16            # mj_card_min reads up to 16 bytes past a line's start
    dv = np.empty((threads if a.fast else 1, a.width), np.uint8)
    if n == 0:
        return
    a.line_start = &line_start[0]
    a.flags = &flags[0]
    a.n_lines = flags.shape[0]
    a.hands = &hands[0, 0]
    a.hw = hands.shape[1]
    a.exps = &exps[0, 0]
    a.ew = exps.shape[1]
    a.uw = unseen.shape[1]
    a.ow = out.shape[1]
    a.aw = arg.shape[1]
    a.n_exp = &n_exp[0]
    a.unseen = &unseen[0, 0] if with_unseen else NULL
    a.all_joker_sets = all_joker_sets
    a.out = &out[0, 0]
    a.arg = &arg[0, 0] if with_arg else NULL
    a.dv = &dv[0, 0]
    with nogil:
        for_blocks(lines_block, &a, n, 16, threads)
