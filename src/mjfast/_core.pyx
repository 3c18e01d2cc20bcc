# cython: language_level=3
"""Batch kernels for hands: shanten and the winning-hand check (private; see mjfast.hands).

Every ``*_batch`` function takes validated input (counts 0..4, 1..14 tiles, sizes 3k+1 or
3k+2; or the packed form of such hands), a preallocated output array, and a thread count,
and fills the output with the GIL released. Nothing here checks its input.

Shanten comes from the class tables of ``mjfast._tables``: a hand's four suit patterns are
turned into base-5 codes (SWAR arithmetic on the 34 count bytes, or three 512-entry lookups
per packed word), each code into a one-byte class, and two class-pair lookups plus one final
lookup give the number of tiles missing to k sets + 1 pair. The special forms are counted
with branch-free SWAR code on the same bytes.
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t

from mjfast._bits cimport (
    mj_popcount32, mj_load64, mj_ones_ge, mj_base5_8, mj_lane_sum,
    mj_fields_ge1, mj_fields_ge2, mj_fields_ge3, mj_fields_ge4, mj_fields_sum, MJ_F0,
)
from mjfast._omp cimport MJFAST_HAVE_OPENMP, mj_omp_max_threads

cnp.import_array()

# Python-visible copies of the form bits (the enum lives in _core.pxd).
FORM_BITS = {
    "standard": FORM_STANDARD,
    "seven_pairs": FORM_SEVEN_PAIRS,
    "thirteen_orphans": FORM_THIRTEEN_ORPHANS,
    "honors_knitted": FORM_HONORS_KNITTED,
    "knitted_straight": FORM_KNITTED_STRAIGHT,
}
KONG_TWO_PAIRS = FLAG_KONG_TWO_PAIRS
SPECIAL_FORMS = FORMS_SPECIAL

cdef enum:
    POW5_8 = 390625
    PAR_MIN = 2048   # below this many hands a batch runs on one thread

# knitted rank classes: 1-4-7, 2-5-8, 3-6-9 as bit masks over ranks 0..8
cdef uint32_t KNIT_MASK[3]
KNIT_MASK[0] = 0x049
KNIT_MASK[1] = 0x092
KNIT_MASK[2] = 0x124
# the six assignments of knit classes to the suits m, p, s
cdef int KNIT_PERM[6][3]
KNIT_PERM[0][:] = [0, 1, 2]
KNIT_PERM[1][:] = [0, 2, 1]
KNIT_PERM[2][:] = [1, 0, 2]
KNIT_PERM[3][:] = [1, 2, 0]
KNIT_PERM[4][:] = [2, 0, 1]
KNIT_PERM[5][:] = [2, 1, 0]
cdef uint32_t POW5[9]
POW5[:] = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625]


ctypedef struct hand_t:
    uint32_t code[4]     # base-5 code of each suit pattern: m, p, s, z
    int n                # number of tiles
    # special-form features, filled only when a special form is asked for
    int ge[5]            # ge[k] = number of kinds held at least k times (k = 1..4)
    int orphan_kinds     # thirteen orphans: terminal/honor kinds held
    int orphan_pair      # ... and whether one of them is held twice or more
    uint32_t held[4]     # bit r: rank r held (m, p, s; honors in held[3])


cdef enum:
    # how much of hand_t a loader fills
    FEAT_CODES = 0      # code[], n
    FEAT_PAIRS = 1      # + ge[1], ge[2], orphan_kinds, orphan_pair
    FEAT_KONGS = 2      # + ge[3], ge[4]
    FEAT_KNITS = 4      # + held[]


cdef inline int features_for(int forms) noexcept nogil:
    cdef int feat = FEAT_CODES
    if forms & (FORM_SEVEN_PAIRS | FORM_THIRTEEN_ORPHANS):
        feat |= FEAT_PAIRS
    if forms & FLAG_KONG_TWO_PAIRS:
        feat |= FEAT_KONGS
    if forms & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        feat |= FEAT_KNITS
    return feat


cdef inline void load_counts(const uint8_t* h, hand_t* f, int feat) noexcept nogil:
    cdef uint64_t wm = mj_load64(h)
    cdef uint64_t wp = mj_load64(h + 9)
    cdef uint64_t ws = mj_load64(h + 18)
    cdef uint64_t wz = mj_load64(h + 26) >> 8          # bytes 27..33, top lane 0
    cdef uint64_t extra = <uint64_t>h[8] | (<uint64_t>h[17] << 8) | (<uint64_t>h[26] << 16)
    cdef int k, r
    f.code[0] = mj_base5_8(wm) + h[8] * POW5_8
    f.code[1] = mj_base5_8(wp) + h[17] * POW5_8
    f.code[2] = mj_base5_8(ws) + h[26] * POW5_8
    f.code[3] = mj_base5_8(wz)
    f.n = mj_lane_sum(wm + wp + ws + wz + extra)   # lanes stay below 256
    cdef uint64_t gm, gp, gs, gz, gx
    if feat & (FEAT_PAIRS | FEAT_KONGS):
        for k in range(1, 5 if feat & FEAT_KONGS else 3):
            f.ge[k] = mj_lane_sum(mj_ones_ge(wm, k) + mj_ones_ge(wp, k) + mj_ones_ge(ws, k)
                                  + mj_ones_ge(wz, k) + mj_ones_ge(extra, k))
    if feat & FEAT_PAIRS:
        # terminals: lane 0 of wm/wp/ws and every lane of `extra` (9m 9p 9s); all honors
        gm = mj_ones_ge(wm, 1)
        gp = mj_ones_ge(wp, 1)
        gs = mj_ones_ge(ws, 1)
        f.orphan_kinds = <int>((gm + gp + gs) & 0xFF) + mj_lane_sum(mj_ones_ge(extra, 1) + mj_ones_ge(wz, 1))
        f.orphan_pair = (((mj_ones_ge(wm, 2) | mj_ones_ge(wp, 2) | mj_ones_ge(ws, 2)) & 1)
                         | mj_ones_ge(extra, 2) | mj_ones_ge(wz, 2)) != 0
    if feat & FEAT_KNITS:
        for k in range(4):
            f.held[k] = 0
        for r in range(9):
            f.held[0] |= (h[r] != 0) << r
            f.held[1] |= (h[9 + r] != 0) << r
            f.held[2] |= (h[18 + r] != 0) << r
        for r in range(7):
            f.held[3] |= (h[27 + r] != 0) << r


cdef inline uint32_t packed_code(uint32_t w, const uint32_t* chunk5) noexcept nogil:
    return chunk5[w & 511] + chunk5[512 + ((w >> 9) & 511)] + chunk5[1024 + ((w >> 18) & 511)]


cdef inline void load_packed(const uint32_t* w, const uint32_t* chunk5, hand_t* f, int feat) noexcept nogil:
    cdef int s, r
    cdef uint32_t g1, g2
    f.n = 0
    for s in range(4):
        f.code[s] = packed_code(w[s], chunk5)
        f.n += mj_fields_sum(w[s])
    if feat == FEAT_CODES:
        return
    f.ge[1] = f.ge[2] = f.ge[3] = f.ge[4] = 0
    f.orphan_kinds = 0
    f.orphan_pair = 0
    for s in range(4):
        g1 = mj_fields_ge1(w[s])
        g2 = mj_fields_ge2(w[s])
        f.ge[1] += mj_popcount32(g1)
        f.ge[2] += mj_popcount32(g2)
        f.ge[3] += mj_popcount32(mj_fields_ge3(w[s]))
        f.ge[4] += mj_popcount32(mj_fields_ge4(w[s]))
        if s < 3:   # terminals: rank 0 (bit 0) and rank 8 (bit 24)
            f.orphan_kinds += mj_popcount32(g1 & 0x01000001)
            f.orphan_pair |= (g2 & 0x01000001) != 0
        else:
            f.orphan_kinds += mj_popcount32(g1)
            f.orphan_pair |= g2 != 0
        f.held[s] = 0
        for r in range(9):
            f.held[s] |= ((g1 >> (3 * r)) & 1) << r


cdef inline int distance_sets_pair(const mj_tables_t* t, uint32_t cm, uint32_t cp, uint32_t cs, uint32_t cz,
                                   int sets) noexcept nogil:
    """Tiles missing from the hand with these suit codes to hold `sets` sets + 1 pair."""
    cdef int a = t.pair_mp[t.suit_class[cm] * t.n_suit + t.suit_class[cp]]
    cdef int b = t.pair_sz[t.suit_class[cs] * t.n_honor + t.honor_class[cz]]
    return t.final[(a * t.n_sz + b) * 8 + sets]


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int pairs_distance(int pairs, int singles) noexcept nogil:
    """Tiles missing for 7 pairs given pair slots and single slots (see the docs)."""
    cdef int p = imin(pairs, 7)
    return 14 - 2 * p - imin(singles, 7 - p)


cdef inline int special_distance(hand_t* f, int forms, const mj_tables_t* t) noexcept nogil:
    """Min distance over the special forms in `forms` (13/14-tile hands only)."""
    cdef int best = 99, d, i, s, kn, knit_total
    cdef uint32_t c[3]
    cdef uint32_t sel
    cdef int r
    if forms & FORM_SEVEN_PAIRS:
        if forms & FLAG_KONG_TWO_PAIRS:
            d = pairs_distance(f.ge[2] + f.ge[4], f.ge[1] - f.ge[2] + f.ge[3] - f.ge[4])
        else:
            d = pairs_distance(f.ge[2], f.ge[1] - f.ge[2])
        best = imin(best, d)
    if forms & FORM_THIRTEEN_ORPHANS:
        best = imin(best, 14 - f.orphan_kinds - f.orphan_pair)
    if forms & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        for i in range(6):
            knit_total = 0
            for s in range(3):
                sel = f.held[s] & KNIT_MASK[KNIT_PERM[i][s]]
                knit_total += mj_popcount32(sel)
                c[s] = f.code[s]
                for r in range(9):
                    if (sel >> r) & 1:
                        c[s] -= POW5[r]
            if forms & FORM_HONORS_KNITTED:
                kn = knit_total + mj_popcount32(f.held[3])
                best = imin(best, 14 - imin(kn, 14))
            if forms & FORM_KNITTED_STRAIGHT:
                d = 9 - knit_total + distance_sets_pair(t, c[0], c[1], c[2], f.code[3], 1)
                best = imin(best, d)
    return best


cdef inline int shanten_hand(hand_t* f, int forms, const mj_tables_t* t) noexcept nogil:
    cdef int best = 99
    if forms & FORM_STANDARD:
        best = distance_sets_pair(t, f.code[0], f.code[1], f.code[2], f.code[3], f.n // 3)
    if (forms & FORMS_SPECIAL) and f.n >= 13:
        best = imin(best, special_distance(f, forms, t))
    return best - 1


cdef inline int shanten_default(hand_t* f, const mj_tables_t* t) noexcept nogil:
    """min(standard, seven pairs, thirteen orphans), branch-free; f loaded with FEAT_PAIRS."""
    cdef int std = distance_sets_pair(t, f.code[0], f.code[1], f.code[2], f.code[3], f.n // 3)
    cdef int sp = pairs_distance(f.ge[2], f.ge[1] - f.ge[2])
    cdef int orph = 14 - f.orphan_kinds - f.orphan_pair
    cdef int special = imin(sp, orph) + (f.n < 13) * 64   # special forms need 13/14 tiles
    return imin(std, special) - 1


cdef inline int shanten_counts(const uint8_t* h, int forms, const mj_tables_t* t) noexcept nogil:
    cdef hand_t f
    load_counts(h, &f, features_for(forms))
    if forms == FORMS_DEFAULT:
        return shanten_default(&f, t)
    return shanten_hand(&f, forms, t)


cdef inline int shanten_packed(const uint32_t* w, int forms, const mj_tables_t* t) noexcept nogil:
    cdef hand_t f
    load_packed(w, t.chunk5, &f, features_for(forms))
    if forms == FORMS_DEFAULT:
        return shanten_default(&f, t)
    return shanten_hand(&f, forms, t)


cdef inline int standard_counts(const uint8_t* h, const mj_tables_t* t) noexcept nogil:
    cdef uint64_t wm = mj_load64(h)
    cdef uint64_t wp = mj_load64(h + 9)
    cdef uint64_t ws = mj_load64(h + 18)
    cdef uint64_t wz = mj_load64(h + 26) >> 8
    cdef uint64_t extra = <uint64_t>h[8] | (<uint64_t>h[17] << 8) | (<uint64_t>h[26] << 16)
    cdef int n = mj_lane_sum(wm + wp + ws + wz + extra)   # lane sums stay below 256
    return distance_sets_pair(t, mj_base5_8(wm) + h[8] * POW5_8, mj_base5_8(wp) + h[17] * POW5_8,
                              mj_base5_8(ws) + h[26] * POW5_8, mj_base5_8(wz), n // 3) - 1


cdef inline uint32_t win_value(const uint8_t* bits, uint32_t code) noexcept nogil:
    return (bits[code >> 2] >> ((code & 3) * 2)) & 3


cdef inline bint standard_complete(const uint32_t* code, const mj_tables_t* t) noexcept nogil:
    """Complete standard hand: every suit complete on its own, exactly one of them with the pair."""
    return (win_value(t.suit_win, code[0]) * win_value(t.suit_win, code[1])
            * win_value(t.suit_win, code[2]) * win_value(t.honor_win, code[3])) == 2


cdef inline bint winning_hand(hand_t* f, int forms, const mj_tables_t* t) noexcept nogil:
    if forms == FORM_STANDARD:
        return standard_complete(f.code, t)
    if forms == FORMS_DEFAULT:
        return standard_complete(f.code, t) | ((f.n == 14) & ((f.ge[2] == 7) | ((f.orphan_kinds == 13) & f.orphan_pair)))
    return shanten_hand(f, forms, t) == -1


cdef inline bint winning_counts(const uint8_t* h, int forms, const mj_tables_t* t) noexcept nogil:
    cdef hand_t f
    load_counts(h, &f, features_for(forms))
    return winning_hand(&f, forms, t)


cdef inline bint winning_packed(const uint32_t* w, int forms, const mj_tables_t* t) noexcept nogil:
    cdef hand_t f
    load_packed(w, t.chunk5, &f, features_for(forms))
    return winning_hand(&f, forms, t)


# ---------------------------------------------------------------------------------------------
# Exported C-level API (declared in _core.pxd)

cdef mj_tables_t _T
cdef bint _T_ready = False
_T_keep = None


def ensure_tables():
    """Build (first call) and bind the lookup tables; returns the table dict."""
    global _T_ready, _T_keep
    if _T_ready:
        return _T_keep[0]
    from mjfast import _tables
    tables = _tables.get_tables()
    chunk = np.zeros((3, 512), dtype=np.uint32)
    v = np.arange(512, dtype=np.uint32)
    base = (v & 7) + 5 * ((v >> 3) & 7) + 25 * ((v >> 6) & 7)
    for j in range(3):
        chunk[j] = base * (125 ** j)
    chunk.setflags(write=False)
    cdef const uint8_t[::1] sc = tables["suit_class"]
    cdef const uint8_t[::1] hc = tables["honor_class"]
    cdef const uint8_t[:, ::1] pmp = tables["pair_mp"]
    cdef const uint8_t[:, ::1] psz = tables["pair_sz"]
    cdef const uint8_t[:, :, ::1] fin = tables["final"]
    cdef const uint32_t[:, ::1] ch = chunk
    cdef const uint8_t[::1] sw = tables["suit_win"]
    cdef const uint8_t[::1] hw = tables["honor_win"]
    _T.suit_win = &sw[0]
    _T.honor_win = &hw[0]
    _T.suit_class = &sc[0]
    _T.honor_class = &hc[0]
    _T.pair_mp = &pmp[0, 0]
    _T.pair_sz = &psz[0, 0]
    _T.final = &fin[0, 0, 0]
    _T.chunk5 = &ch[0, 0]
    _T.n_suit = pmp.shape[0]
    _T.n_honor = psz.shape[1]
    _T.n_mp = fin.shape[0]
    _T.n_sz = fin.shape[1]
    _T_keep = (tables, chunk)
    _T_ready = True
    return tables


cdef const mj_tables_t* mj_get_tables() except NULL:
    if not _T_ready:
        ensure_tables()
    return &_T


cdef int mj_shanten(const uint8_t* counts, int forms, const mj_tables_t* t) noexcept nogil:
    return shanten_counts(counts, forms, t)


cdef int mj_shanten_packed(const uint32_t* words, int forms, const mj_tables_t* t) noexcept nogil:
    return shanten_packed(words, forms, t)


cdef bint mj_is_winning(const uint8_t* counts, int forms, const mj_tables_t* t) noexcept nogil:
    return winning_counts(counts, forms, t)


# ---------------------------------------------------------------------------------------------
# Batch kernels (def-level, called by mjfast.hands after validation)

def openmp_enabled():
    """True when the extension was compiled with OpenMP."""
    return bool(MJFAST_HAVE_OPENMP)


def omp_max_threads():
    """OpenMP's default thread count (1 without OpenMP)."""
    return mj_omp_max_threads()


def shanten_counts_batch(const uint8_t[:, ::1] hands, int forms, int8_t[::1] out, int threads):
    """out[i] = shanten of count row i over the forms in the bit set `forms`."""
    cdef const mj_tables_t* t = mj_get_tables()
    cdef Py_ssize_t i, n = hands.shape[0]
    if n == 0:
        return
    if n < PAR_MIN:
        threads = 1
    with nogil:
        if forms == FORM_STANDARD:
            if threads == 1:
                for i in range(n):
                    out[i] = <int8_t>standard_counts(&hands[i, 0], t)
            else:
                for i in prange(n, schedule="static", num_threads=threads):
                    out[i] = <int8_t>standard_counts(&hands[i, 0], t)
        else:
            if threads == 1:
                for i in range(n):
                    out[i] = <int8_t>shanten_counts(&hands[i, 0], forms, t)
            else:
                for i in prange(n, schedule="static", num_threads=threads):
                    out[i] = <int8_t>shanten_counts(&hands[i, 0], forms, t)


def shanten_packed_batch(const uint32_t[:, ::1] hands, int forms, int8_t[::1] out, int threads):
    """out[i] = shanten of packed row i (4 words) over the forms in `forms`."""
    cdef const mj_tables_t* t = mj_get_tables()
    cdef Py_ssize_t i, n = hands.shape[0]
    if n == 0:
        return
    if n < PAR_MIN:
        threads = 1
    with nogil:
        if threads == 1:
            for i in range(n):
                out[i] = <int8_t>shanten_packed(&hands[i, 0], forms, t)
        else:
            for i in prange(n, schedule="static", num_threads=threads):
                out[i] = <int8_t>shanten_packed(&hands[i, 0], forms, t)


def winning_counts_batch(const uint8_t[:, ::1] hands, int forms, uint8_t[::1] out, int threads):
    """out[i] = 1 if count row i is a complete hand of one of the forms in `forms`."""
    cdef const mj_tables_t* t = mj_get_tables()
    cdef Py_ssize_t i, n = hands.shape[0]
    if n == 0:
        return
    if n < PAR_MIN:
        threads = 1
    with nogil:
        if threads == 1:
            for i in range(n):
                out[i] = winning_counts(&hands[i, 0], forms, t)
        else:
            for i in prange(n, schedule="static", num_threads=threads):
                out[i] = winning_counts(&hands[i, 0], forms, t)


def winning_packed_batch(const uint32_t[:, ::1] hands, int forms, uint8_t[::1] out, int threads):
    """out[i] = 1 if packed row i is a complete hand of one of the forms in `forms`."""
    cdef const mj_tables_t* t = mj_get_tables()
    cdef Py_ssize_t i, n = hands.shape[0]
    if n == 0:
        return
    if n < PAR_MIN:
        threads = 1
    with nogil:
        if threads == 1:
            for i in range(n):
                out[i] = winning_packed(&hands[i, 0], forms, t)
        else:
            for i in prange(n, schedule="static", num_threads=threads):
                out[i] = winning_packed(&hands[i, 0], forms, t)


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
    return 0 if (size_mask >> mj_lane_sum(wm + wp + ws + wz + extra)) & 1 else 2


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
    return 0 if (size_mask >> total) & 1 else 2


def _first_bad(Py_ssize_t n, int threads):
    """Split [0, n) into one contiguous block per thread (first bad row per block)."""
    nblocks = max(1, min(threads, n // PAR_MIN))
    return nblocks


def check_counts_batch(const uint8_t[:, ::1] hands, uint64_t size_mask, int threads=1):
    """First invalid row of a (n, 34) uint8 count batch: ``(row, reason)`` or ``(-1, 0)``.

    reason 1 = some count above 4; 2 = the tile total ``s`` has bit ``s`` clear in
    ``size_mask`` (totals are at most 34 * 4 once counts are valid).
    """
    cdef Py_ssize_t n = hands.shape[0]
    cdef Py_ssize_t b, i, lo, hi
    cdef int nb = _first_bad(n, threads)
    cdef Py_ssize_t[::1] first = np.full(nb, -1, dtype=np.intp)
    cdef int[::1] why = np.zeros(nb, dtype=np.intc)
    cdef int st
    if n == 0:
        return -1, 0
    with nogil:
        for b in prange(nb, schedule="static", num_threads=nb):
            lo = n * b // nb
            hi = n * (b + 1) // nb
            for i in range(lo, hi):
                st = counts_row_status(&hands[i, 0], size_mask)
                if st:
                    first[b] = i
                    why[b] = st
                    break
    for b in range(nb):
        if first[b] >= 0:
            return first[b], why[b]
    return -1, 0


def check_packed_batch(const uint32_t[:, ::1] hands, uint64_t size_mask, int threads=1):
    """First invalid row of a (n, 4) packed batch: ``(row, reason)`` or ``(-1, 0)``.

    reason 1 = a 3-bit field above 4, 2 = tile total not allowed, 3 = a padding bit set.
    """
    cdef Py_ssize_t n = hands.shape[0]
    cdef Py_ssize_t b, i, lo, hi
    cdef int nb = _first_bad(n, threads)
    cdef Py_ssize_t[::1] first = np.full(nb, -1, dtype=np.intp)
    cdef int[::1] why = np.zeros(nb, dtype=np.intc)
    cdef int st
    if n == 0:
        return -1, 0
    with nogil:
        for b in prange(nb, schedule="static", num_threads=nb):
            lo = n * b // nb
            hi = n * (b + 1) // nb
            for i in range(lo, hi):
                st = packed_row_status(&hands[i, 0], size_mask)
                if st:
                    first[b] = i
                    why[b] = st
                    break
    for b in range(nb):
        if first[b] >= 0:
            return first[b], why[b]
    return -1, 0
