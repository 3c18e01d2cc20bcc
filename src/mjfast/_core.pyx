# cython: language_level=3
"""Batch kernels for hands: shanten and the winning-hand check (private; see mjfast.hands).

Every ``*_batch`` function takes validated input (counts 0..4, 1..14 tiles, sizes 3k+1 or
3k+2; or the packed form of such hands), a preallocated output array, and a thread count,
and fills the output with the GIL released. Nothing here checks its input.

Each kernel's loop is written once, as a block function over rows ``lo <= i < hi`` that reads
its arguments from a `rows_t`; ``omp.for_blocks`` runs it on the calling thread (one thread,
or a batch below PAR_MIN rows) or over blocks of 4096 rows on the threads asked for.

Shanten comes from the class tables of ``mjfast._kernels.tables``: a hand's four suit patterns are
turned into base-5 codes (SWAR arithmetic on the 34 count bytes, or three 512-entry lookups
per packed word), each code into a one-byte class, and two class-pair lookups plus one final
lookup give the number of tiles missing to k sets + 1 pair. The special forms are counted
with branch-free SWAR code on the same bytes.
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t

from mjfast._kernels.bits cimport mj_load64, mj_lane_sum, mj_fields_sum, MJ_F0, mj_prefetch, MJ_PREFETCH_BYTES
from mjfast._kernels.hand cimport (
    shanten_counts, shanten_packed, standard_counts, winning_counts, winning_packed,
    standard_winning_counts, PAR_MIN, ROW_INVALID, shanten_row_checked, mj_win_rows, mj_simd_level,
    mj_shanten_rows, mj_shanten_tables_t,
)
from mjfast._kernels.omp cimport MJFAST_HAVE_OPENMP, mj_omp_max_threads, for_blocks, block_fn
from mjfast._kernels.hand_tables cimport c_tables

from mjfast._kernels.hand_tables import ensure_tables  # noqa: F401  (re-exported: the Python layer calls _core.ensure_tables)

cnp.import_array()

# Python-visible copies of the form bits (the enum lives in _kernels/hand_types.pxd).
FORM_BITS = {
    "standard": FORM_STANDARD,
    "seven_pairs": FORM_SEVEN_PAIRS,
    "thirteen_orphans": FORM_THIRTEEN_ORPHANS,
    "honors_knitted": FORM_HONORS_KNITTED,
    "knitted_straight": FORM_KNITTED_STRAIGHT,
}
KONG_TWO_PAIRS = FLAG_KONG_TWO_PAIRS
SPECIAL_FORMS = FORMS_SPECIAL

# ---------------------------------------------------------------------------------------------
# Exported C-level API (declared in _core.pxd; the tables are bound in _kernels/hand_tables.pyx)

cdef const mj_tables_t* mj_get_tables() except NULL:
    return c_tables()


cdef inline void shanten_view(const mj_tables_t* t, mj_shanten_tables_t* st) noexcept nogil:
    """The fields of t that the C loops of shanten_rows.h read."""
    st.suit_class = t.suit_class
    st.honor_class = t.honor_class
    st.pair_mp = t.pair_mp
    st.pair_sz = t.pair_sz
    st.final = t.final
    st.n_suit = t.n_suit
    st.n_honor = t.n_honor
    st.n_sz = t.n_sz


cdef int mj_shanten(const uint8_t* counts, int forms, const mj_tables_t* t) noexcept nogil:
    return shanten_counts(counts, forms, t)


cdef int mj_shanten_packed(const uint32_t* words, int forms, const mj_tables_t* t) noexcept nogil:
    return shanten_packed(words, forms, t)


cdef bint mj_is_winning(const uint8_t* counts, int forms, const mj_tables_t* t) noexcept nogil:
    return winning_counts(counts, forms, t)


# The instruction-set level of the dispatched loops (hand_masks.h): the best the CPU supports,
# unless MJFAST_SIMD (baseline, avx2, avx512) asks for a lower one, or set_simd_level does.
cdef int _SIMD_BEST = mj_simd_level()
_SIMD_NAMES = ("baseline", "avx2", "avx512")


def _initial_simd_level():
    import os
    want = os.environ.get("MJFAST_SIMD", "").strip().lower()
    if want in _SIMD_NAMES:
        return min(_SIMD_NAMES.index(want), _SIMD_BEST)
    return _SIMD_BEST


cdef int _simd_level = _initial_simd_level()


def simd_level():
    """(level in use, best level of this CPU), as names: "baseline" (SSE2 on x86-64, portable C
    elsewhere), "avx2" or "avx512"."""
    return _SIMD_NAMES[_simd_level], _SIMD_NAMES[_SIMD_BEST]


def set_simd_level(name):
    """Use the dispatched loops of level ``name`` (at most the best this CPU has); returns the
    previous level's name. For tests and benchmarks: every level gives the same results."""
    global _simd_level
    if name not in _SIMD_NAMES:
        raise ValueError(f"unknown SIMD level {name!r}; choose one of {_SIMD_NAMES}")
    level = _SIMD_NAMES.index(name)
    if level > _SIMD_BEST:
        raise ValueError(f"this CPU supports SIMD up to {_SIMD_NAMES[_SIMD_BEST]!r}, not {name!r}")
    previous = _SIMD_NAMES[_simd_level]
    _simd_level = level
    return previous


# ---------------------------------------------------------------------------------------------
# Batch kernels (def-level, called by mjfast.hands after validation)

def openmp_enabled():
    """True when the extension was compiled with OpenMP."""
    return bool(MJFAST_HAVE_OPENMP)


def omp_max_threads():
    """OpenMP's default thread count (1 without OpenMP)."""
    return mj_omp_max_threads()


cdef enum:
    BLOCK = 4096        # rows per block of a batch on several threads


ctypedef struct rows_t:
    # a batch kernel's arguments, read by its block function (for_blocks)
    const uint8_t* counts       # (n, width) count rows, or NULL
    const uint32_t* packed      # (n, width) packed rows, or NULL
    Py_ssize_t width            # elements per row
    int8_t* sh                  # shanten out, or NULL
    uint8_t* win                # winning check out, or NULL
    const mj_tables_t* t
    mj_shanten_tables_t st      # (the SIMD loops of shanten_rows.h)
    int forms
    int level                   # SIMD level of the dispatched loops
    uint64_t size_mask          # the checked kernels: the allowed tile totals


cdef int standard_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint8_t* rows = a.counts
    cdef const uint8_t* h
    cdef int8_t* out = a.sh
    cdef const mj_tables_t* t = a.t
    cdef Py_ssize_t i, w = a.width
    for i in range(lo, hi):
        h = rows + i * w
        mj_prefetch(<const char*>h + MJ_PREFETCH_BYTES)
        out[i] = <int8_t>standard_counts(h, t)
    return 0


cdef int shanten_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint8_t* rows = a.counts
    cdef const uint8_t* h
    cdef int8_t* out = a.sh
    cdef const mj_tables_t* t = a.t
    cdef Py_ssize_t i, w = a.width
    cdef int forms = a.forms
    for i in range(lo, hi):
        h = rows + i * w
        mj_prefetch(<const char*>h + MJ_PREFETCH_BYTES)
        out[i] = <int8_t>shanten_counts(h, forms, t)
    return 0


cdef int packed_shanten_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint32_t* rows = a.packed
    cdef const uint32_t* h
    cdef int8_t* out = a.sh
    cdef const mj_tables_t* t = a.t
    cdef Py_ssize_t i, w = a.width
    cdef int forms = a.forms
    for i in range(lo, hi):
        h = rows + i * w
        mj_prefetch(<const char*>h + MJ_PREFETCH_BYTES)
        out[i] = <int8_t>shanten_packed(h, forms, t)
    return 0


cdef int standard_win_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint8_t* rows = a.counts
    cdef const uint8_t* h
    cdef uint8_t* out = a.win
    cdef const mj_tables_t* t = a.t
    cdef Py_ssize_t i, w = a.width
    for i in range(lo, hi):
        h = rows + i * w
        mj_prefetch(<const char*>h + MJ_PREFETCH_BYTES)
        out[i] = standard_winning_counts(h, t)
    return 0


cdef int win_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint8_t* rows = a.counts
    cdef const uint8_t* h
    cdef uint8_t* out = a.win
    cdef const mj_tables_t* t = a.t
    cdef Py_ssize_t i, w = a.width
    cdef int forms = a.forms
    for i in range(lo, hi):
        h = rows + i * w
        mj_prefetch(<const char*>h + MJ_PREFETCH_BYTES)
        out[i] = winning_counts(h, forms, t)
    return 0


cdef int packed_win_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint32_t* rows = a.packed
    cdef const uint32_t* h
    cdef uint8_t* out = a.win
    cdef const mj_tables_t* t = a.t
    cdef Py_ssize_t i, w = a.width
    cdef int forms = a.forms
    for i in range(lo, hi):
        h = rows + i * w
        mj_prefetch(<const char*>h + MJ_PREFETCH_BYTES)
        out[i] = winning_packed(h, forms, t)
    return 0


cdef int shanten_rows_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """The SIMD loop of the CPU's level over the rows (validation fused in: 1 = a bad row)."""
    cdef const rows_t* a = <const rows_t*>ctx
    return mj_shanten_rows(a.level, a.counts + lo * a.width, hi - lo, a.forms, a.size_mask, a.sh + lo, &a.st)


cdef int shanten_checked_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """The generic row kernel with the validation fused in (1 = a bad row)."""
    cdef const rows_t* a = <const rows_t*>ctx
    cdef const uint8_t* rows = a.counts
    cdef const uint8_t* h
    cdef int8_t* out = a.sh
    cdef const mj_tables_t* t = a.t
    cdef Py_ssize_t i, w = a.width
    cdef int r, bad = 0, forms = a.forms
    cdef uint64_t size_mask = a.size_mask
    for i in range(lo, hi):
        h = rows + i * w
        mj_prefetch(<const char*>h + MJ_PREFETCH_BYTES)
        r = shanten_row_checked(h, forms, size_mask, t)
        bad |= r == ROW_INVALID
        out[i] = <int8_t>r
    return bad


cdef int exact_win(const uint8_t* h, int forms, const void* tables) noexcept nogil:
    """The exact winning check for the rows that pass the SIMD filter of mj_win_rows (few)."""
    cdef const mj_tables_t* t = <const mj_tables_t*>tables
    if forms == FORM_STANDARD:
        return standard_winning_counts(h, t)
    return winning_counts(h, forms, t)


cdef int win_rows_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """The SIMD winning loop of the CPU's level over the rows (validation fused in: 1 = a bad row)."""
    cdef const rows_t* a = <const rows_t*>ctx
    return mj_win_rows(a.level, a.counts + lo * a.width, hi - lo, a.forms, a.size_mask, a.win + lo, exact_win, a.t)


cdef inline int counts_args(rows_t* a, const uint8_t[:, ::1] hands, int forms) except -1:
    a.counts = &hands[0, 0]
    a.packed = NULL
    a.width = hands.shape[1]
    a.forms = forms
    a.t = c_tables()
    return 0


cdef inline int packed_args(rows_t* a, const uint32_t[:, ::1] hands, int forms) except -1:
    a.counts = NULL
    a.packed = &hands[0, 0]
    a.width = hands.shape[1]
    a.forms = forms
    a.t = c_tables()
    return 0


cdef inline int threads_for(Py_ssize_t n, int threads) noexcept nogil:
    """Below PAR_MIN rows a batch runs on one thread (a parallel region costs us to ms)."""
    return 1 if n < PAR_MIN else threads


def shanten_counts_batch(const uint8_t[:, ::1] hands, int forms, int8_t[::1] out, int threads):
    """out[i] = shanten of count row i over the forms in the bit set `forms`."""
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    if n == 0:
        return
    counts_args(&a, hands, forms)
    a.sh = &out[0]
    with nogil:
        for_blocks(standard_block if forms == FORM_STANDARD else shanten_block, &a, n, BLOCK, threads_for(n, threads))


def shanten_packed_batch(const uint32_t[:, ::1] hands, int forms, int8_t[::1] out, int threads):
    """out[i] = shanten of packed row i (4 words) over the forms in `forms`."""
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    if n == 0:
        return
    packed_args(&a, hands, forms)
    a.sh = &out[0]
    with nogil:
        for_blocks(packed_shanten_block, &a, n, BLOCK, threads_for(n, threads))


def winning_counts_batch(const uint8_t[:, ::1] hands, int forms, uint8_t[::1] out, int threads):
    """out[i] = 1 if count row i is a complete hand of one of the forms in `forms`."""
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    if n == 0:
        return
    counts_args(&a, hands, forms)
    a.win = &out[0]
    with nogil:
        for_blocks(standard_win_block if forms == FORM_STANDARD else win_block, &a, n, BLOCK, threads_for(n, threads))


def winning_packed_batch(const uint32_t[:, ::1] hands, int forms, uint8_t[::1] out, int threads):
    """out[i] = 1 if packed row i is a complete hand of one of the forms in `forms`."""
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    if n == 0:
        return
    packed_args(&a, hands, forms)
    a.win = &out[0]
    with nogil:
        for_blocks(packed_win_block, &a, n, BLOCK, threads_for(n, threads))


def shanten_counts_checked(const uint8_t[:, ::1] hands, int forms, uint64_t size_mask, int8_t[::1] out, int threads):
    """``shanten_counts_batch`` with the validation of ``check_counts_batch`` fused into the same
    pass (counts 0-4, tile total in ``size_mask``). Returns True when every row was valid; on
    False some row was not (``out`` is then undefined there): ``check_counts_batch`` names it.

    Form sets of the standard form, seven pairs and thirteen orphans (the default three among
    them) run the SIMD loop of the CPU's level (shanten_rows.h, blocks of 4096 rows per thread);
    the others (knitted forms, the kong rule of seven pairs) the generic row kernel."""
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    cdef int bad
    if n == 0:
        return True
    counts_args(&a, hands, forms)
    a.sh = &out[0]
    a.size_mask = size_mask
    a.level = _simd_level
    shanten_view(a.t, &a.st)
    with nogil:
        bad = for_blocks(shanten_rows_block if forms & ~FORMS_DEFAULT == 0 else shanten_checked_block, &a, n, BLOCK,
                         threads_for(n, threads))
    return not bad


def winning_counts_checked(const uint8_t[:, ::1] hands, int forms, uint64_t size_mask, uint8_t[::1] out, int threads):
    """``winning_counts_batch`` with the validation fused in (see ``shanten_counts_checked``),
    as the SIMD loop of the CPU's level (mj_win_rows), in blocks of 4096 rows per thread."""
    cdef rows_t a
    cdef Py_ssize_t n = hands.shape[0]
    cdef int bad
    if n == 0:
        return True
    counts_args(&a, hands, forms)
    a.win = &out[0]
    a.size_mask = size_mask
    a.level = _simd_level
    with nogil:
        bad = for_blocks(win_rows_block, &a, n, BLOCK, threads_for(n, threads))
    return not bad


# ---------------------------------------------------------------------------------------------
# Validation kernels (used by the wrappers before any other kernel sees the data)

cdef inline uint64_t lanes_over4(uint64_t x) noexcept nogil:
    """Nonzero when some byte lane of x holds a value above 4 (lanes hold 0..255)."""
    return (x | ((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7B7B7B7B7B7B7B7BULL)) & 0x8080808080808080ULL


cdef inline int counts_row_status(const uint8_t* h, uint64_t size_mask) noexcept nogil:
    """0 = valid, 1 = a count above 4, 2 = tile total not in size_mask."""
    cdef uint64_t wm = mj_load64(h)
    cdef uint64_t wp = mj_load64(h + 9)
    cdef uint64_t ws = mj_load64(h + 18)
    cdef uint64_t wz = mj_load64(h + 26) >> 8
    cdef uint64_t extra = <uint64_t>h[8] | (<uint64_t>h[17] << 8) | (<uint64_t>h[26] << 16)
    if lanes_over4(wm) | lanes_over4(wp) | lanes_over4(ws) | lanes_over4(wz) | lanes_over4(extra):
        return 1
    cdef uint64_t total = mj_lane_sum(wm + wp + ws + wz + extra)
    return 0 if total < 64 and (size_mask >> total) & 1 else 2  # a shift by >= 64 is undefined in C


cdef inline int packed_row_status(const uint32_t* w, uint64_t size_mask) noexcept nogil:
    """0 = valid, 1 = a field above 4, 2 = tile total not in size_mask, 3 = padding bits set."""
    cdef uint32_t bad = 0, pad = (w[0] >> 27) | (w[1] >> 27) | (w[2] >> 27) | (w[3] >> 21)
    cdef int s, total = 0
    if pad:
        return 3
    for s in range(4):
        bad |= (w[s] >> 2) & (w[s] | (w[s] >> 1)) & MJ_F0
        total += mj_fields_sum(w[s])
    if bad:
        return 1
    return 0 if total < 64 and (size_mask >> total) & 1 else 2  # a shift by >= 64 is undefined in C


def _first_bad(Py_ssize_t n, int threads):
    """Split [0, n) into one contiguous block per thread (first bad row per block)."""
    nblocks = max(1, min(threads, n // (16 * PAR_MIN)))  # validation is ~3 ns/hand: split only big batches
    return nblocks


ctypedef fused row_t:
    uint8_t         # (n, 34) count rows
    uint32_t        # (n, 4) packed rows


ctypedef struct scan_t:
    # first_bad_row's arguments and, per block, its first bad row (-1: none) and the reason
    const void* rows
    Py_ssize_t width
    uint64_t size_mask
    Py_ssize_t block
    Py_ssize_t* first
    int* why


cdef inline int row_status(const row_t* h, uint64_t size_mask) noexcept nogil:
    if row_t is uint8_t:
        return counts_row_status(h, size_mask)
    else:
        return packed_row_status(h, size_mask)


cdef inline int scan_rows(const row_t* rows, const scan_t* a, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef Py_ssize_t i, b = lo // a.block
    cdef int st
    for i in range(lo, hi):
        st = row_status(rows + i * a.width, a.size_mask)
        if st:
            a.first[b] = i
            a.why[b] = st
            break
    return 0


cdef int counts_scan_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const scan_t* a = <const scan_t*>ctx
    return scan_rows(<const uint8_t*>a.rows, a, lo, hi)


cdef int packed_scan_block(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef const scan_t* a = <const scan_t*>ctx
    return scan_rows(<const uint32_t*>a.rows, a, lo, hi)


cdef tuple first_bad_row(const row_t[:, ::1] hands, uint64_t size_mask, int threads):
    """(row, reason) of the first row whose row_status is not 0, or (-1, 0); each of a few
    threads scans one contiguous block and stops at its first bad row."""
    cdef Py_ssize_t n = hands.shape[0]
    cdef Py_ssize_t b
    cdef int nb = _first_bad(n, threads)
    cdef Py_ssize_t[::1] first = np.full(nb, -1, dtype=np.intp)
    cdef int[::1] why = np.zeros(nb, dtype=np.intc)
    cdef scan_t a
    cdef block_fn scan
    if n == 0:
        return -1, 0
    if row_t is uint8_t:
        scan = counts_scan_block
    else:
        scan = packed_scan_block
    a.rows = &hands[0, 0]
    a.width = hands.shape[1]
    a.size_mask = size_mask
    a.block = (n + nb - 1) // nb
    a.first = &first[0]
    a.why = &why[0]
    with nogil:
        for_blocks(scan, &a, n, a.block, nb)
    for b in range(nb):
        if first[b] >= 0:
            return first[b], why[b]
    return -1, 0


def check_counts_batch(const uint8_t[:, ::1] hands, uint64_t size_mask, int threads=1):
    """First invalid row of a (n, 34) uint8 count batch: ``(row, reason)`` or ``(-1, 0)``.

    reason 1 = some count above 4; 2 = the tile total ``s`` has bit ``s`` clear in
    ``size_mask`` (totals are at most 34 * 4 once counts are valid).
    """
    return first_bad_row(hands, size_mask, threads)


def check_packed_batch(const uint32_t[:, ::1] hands, uint64_t size_mask, int threads=1):
    """First invalid row of a (n, 4) packed batch: ``(row, reason)`` or ``(-1, 0)``.

    reason 1 = a 3-bit field above 4, 2 = tile total not allowed, 3 = a padding bit set.
    """
    return first_bad_row(hands, size_mask, threads)
