# Inline per-hand kernels shared by the compiled modules (shanten, winning check).
#
# Everything here is `cdef inline ... noexcept nogil` and trusts its input: 34 count bytes
# (0..4 each, a valid hand size) or 4 packed words. `mjfast._core` wraps them in batch loops
# and exports non-inline versions for other Cython code; `mjfast._deal` calls them on the
# hands it deals. The algorithm is described in mjfast/_kernels/tables.py.
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t

from mjfast._kernels.bits cimport (
    mj_popcount32, mj_load64, mj_ones_ge, mj_base5_8, mj_lane_sum,
    mj_fields_ge1, mj_fields_ge2, mj_fields_ge3, mj_fields_ge4, mj_fields_sum, MJ_F0,
)
from mjfast._kernels.hand_types cimport (
    mj_tables_t, FORM_STANDARD, FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS, FORM_HONORS_KNITTED,
    FORM_KNITTED_STRAIGHT, FLAG_KONG_TWO_PAIRS, FORMS_SPECIAL, FORMS_DEFAULT,
)

cdef extern from "hand_masks.h" nogil:
    ctypedef struct mj_masks_t:
        uint64_t held      # bit k: kind k held
        uint64_t single    # bit k: kind k held exactly once
        uint32_t over4     # nonzero: some count above 4
        uint32_t n         # number of tiles
    void mj_hand_masks(const uint8_t* h, mj_masks_t* m)
    int mj_masks_valid(const mj_masks_t* m, uint64_t size_mask)
    ctypedef int (*mj_exact_win_fn)(const uint8_t* h, int forms, const void* tables) noexcept nogil
    int mj_win_rows(int level, const uint8_t* rows, size_t n, int forms, uint64_t size_mask, uint8_t* out,
                    mj_exact_win_fn exact, const void* tables)
    int mj_simd_level()

cdef extern from "shanten_rows.h" nogil:
    ctypedef struct mj_shanten_tables_t:
        const uint8_t* suit_class
        const uint8_t* honor_class
        const uint8_t* pair_mp
        const uint8_t* pair_sz
        const uint8_t* final
        int n_suit
        int n_honor
        int n_sz
    int mj_shanten_rows(int level, const uint8_t* rows, size_t n, int forms, uint64_t size_mask, int8_t* out,
                        const mj_shanten_tables_t* t)

cdef enum:
    ROW_INVALID = 127    # what the checked row kernels return for a row that fails validation
    POW5_8 = 390625
    PAR_MIN = 16384  # below this many hands a batch runs on one thread (a parallel region costs µs-ms)

cdef extern from *:
    """
    /* knitted rank classes 1-4-7, 2-5-8, 3-6-9 as masks over ranks 0..8 */
    static const uint32_t MJ_KNIT_MASK[3] = {0x049, 0x092, 0x124};
    /* the six assignments of knit classes to the suits m, p, s */
    static const int MJ_KNIT_PERM[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const uint32_t MJ_POW5[9] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625};
    /* MJ_KNIT_COUNTS[m], m a 9-bit rank mask: the ranks held of knit classes 1-4-7, 2-5-8,
       3-6-9 in bits 0-1, 2-3, 4-5, and the largest of the three in bits 6-7 */
    #define MJ_KC_(x, i) ((((x) >> (i)) & 1) + (((x) >> ((i) + 3)) & 1) + (((x) >> ((i) + 6)) & 1))
    #define MJ_KC_MAX_(a, b, c) ((a) > (b) ? ((a) > (c) ? (a) : (c)) : ((b) > (c) ? (b) : (c)))
    #define MJ_KC(x) (MJ_KC_(x, 0) | (MJ_KC_(x, 1) << 2) | (MJ_KC_(x, 2) << 4) \
                      | (MJ_KC_MAX_(MJ_KC_(x, 0), MJ_KC_(x, 1), MJ_KC_(x, 2)) << 6))
    #define MJ_KC4(x) MJ_KC(x), MJ_KC((x) + 1), MJ_KC((x) + 2), MJ_KC((x) + 3)
    #define MJ_KC16(x) MJ_KC4(x), MJ_KC4((x) + 4), MJ_KC4((x) + 8), MJ_KC4((x) + 12)
    #define MJ_KC64(x) MJ_KC16(x), MJ_KC16((x) + 16), MJ_KC16((x) + 32), MJ_KC16((x) + 48)
    #define MJ_KC256(x) MJ_KC64(x), MJ_KC64((x) + 64), MJ_KC64((x) + 128), MJ_KC64((x) + 192)
    static const uint8_t MJ_KNIT_COUNTS[512] = {MJ_KC256(0), MJ_KC256(256)};
    /* the terminal and honor kinds */
    static const int MJ_ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
    """
    const uint32_t KNIT_MASK "MJ_KNIT_MASK"[3]
    const int KNIT_PERM "MJ_KNIT_PERM"[6][3]
    const uint32_t POW5 "MJ_POW5"[9]
    const int ORPHANS "MJ_ORPHANS"[13]
    const uint8_t KNIT_COUNTS "MJ_KNIT_COUNTS"[512]


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


cdef inline void unset_pairs(hand_t* f) noexcept nogil:
    """Zero the pair and kong features (ge[1..4], orphan_kinds, orphan_pair; ge[0] is unused).

    The loaders set every field that a kernel may read, those of the features not asked for to
    zero (a few stores): gcc cannot see that a kernel reads only the features its `forms` asked
    the loader for, and warned (-Wmaybe-uninitialized) in every module that inlines them."""
    f.ge[1] = f.ge[2] = f.ge[3] = f.ge[4] = 0
    f.orphan_kinds = 0
    f.orphan_pair = 0


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
    cdef uint64_t g1m, g1p, g1s, g1z, g1x, g2m, g2p, g2s, g2z, g2x
    if feat & (FEAT_PAIRS | FEAT_KONGS):
        # 1 in each byte lane holding >= 1 (g1*) or >= 2 (g2*) copies, computed once per word
        g1m = mj_ones_ge(wm, 1)
        g1p = mj_ones_ge(wp, 1)
        g1s = mj_ones_ge(ws, 1)
        g1z = mj_ones_ge(wz, 1)
        g1x = mj_ones_ge(extra, 1)
        g2m = mj_ones_ge(wm, 2)
        g2p = mj_ones_ge(wp, 2)
        g2s = mj_ones_ge(ws, 2)
        g2z = mj_ones_ge(wz, 2)
        g2x = mj_ones_ge(extra, 2)
        f.ge[1] = mj_lane_sum(g1m + g1p + g1s + g1z + g1x)
        f.ge[2] = mj_lane_sum(g2m + g2p + g2s + g2z + g2x)
        # terminals: lane 0 of wm/wp/ws and every lane of `extra` (9m 9p 9s); all honors
        f.orphan_kinds = <int>((g1m + g1p + g1s) & 0xFF) + mj_lane_sum(g1x + g1z)
        f.orphan_pair = (((g2m | g2p | g2s) & 1) | g2x | g2z) != 0
        if feat & FEAT_KONGS:
            for k in range(3, 5):
                f.ge[k] = mj_lane_sum(mj_ones_ge(wm, k) + mj_ones_ge(wp, k) + mj_ones_ge(ws, k)
                                      + mj_ones_ge(wz, k) + mj_ones_ge(extra, k))
        else:
            f.ge[3] = f.ge[4] = 0
    else:
        unset_pairs(f)
    if feat & FEAT_KNITS:
        # gather the low bit of each byte lane into one byte (lane i -> bit i), plus rank 9
        f.held[0] = <uint32_t>((mj_ones_ge(wm, 1) * 0x0102040810204080ULL) >> 56) | ((h[8] != 0) << 8)
        f.held[1] = <uint32_t>((mj_ones_ge(wp, 1) * 0x0102040810204080ULL) >> 56) | ((h[17] != 0) << 8)
        f.held[2] = <uint32_t>((mj_ones_ge(ws, 1) * 0x0102040810204080ULL) >> 56) | ((h[26] != 0) << 8)
        f.held[3] = <uint32_t>((mj_ones_ge(wz, 1) * 0x0102040810204080ULL) >> 56)
    else:
        f.held[0] = f.held[1] = f.held[2] = f.held[3] = 0


cdef inline uint32_t packed_code(uint32_t w, const uint32_t* chunk5) noexcept nogil:
    return chunk5[w & 511] + chunk5[512 + ((w >> 9) & 511)] + chunk5[1024 + ((w >> 18) & 511)]


cdef inline void load_packed(const uint32_t* w, const uint32_t* chunk5, hand_t* f, int feat) noexcept nogil:
    cdef int s, r
    cdef uint32_t g1, g2
    f.n = 0
    for s in range(4):
        f.code[s] = packed_code(w[s], chunk5)
        f.n += mj_fields_sum(w[s])
    if feat & (FEAT_PAIRS | FEAT_KONGS):
        f.ge[1] = f.ge[2] = f.ge[3] = f.ge[4] = 0
        f.orphan_kinds = 0
        f.orphan_pair = 0
        for s in range(4):
            g1 = mj_fields_ge1(w[s])
            g2 = mj_fields_ge2(w[s])
            f.ge[1] += mj_fields_sum(g1)
            f.ge[2] += mj_fields_sum(g2)
            if s < 3:   # terminals: rank 0 (bit 0) and rank 8 (bit 24)
                f.orphan_kinds += (g1 & 1) + ((g1 >> 24) & 1)
                f.orphan_pair |= (g2 & 0x01000001) != 0
            else:
                f.orphan_kinds += mj_fields_sum(g1)
                f.orphan_pair |= g2 != 0
        if feat & FEAT_KONGS:
            for s in range(4):
                f.ge[3] += mj_fields_sum(mj_fields_ge3(w[s]))
                f.ge[4] += mj_fields_sum(mj_fields_ge4(w[s]))
    else:
        unset_pairs(f)
    for s in range(4):
        f.held[s] = 0
    if feat & FEAT_KNITS:
        for s in range(4):
            g1 = mj_fields_ge1(w[s])
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


cdef inline uint32_t bits_code(uint32_t sel) noexcept nogil:
    """Suit code (sum of 5**r) of one copy of each kind r in the 9-bit mask sel (SWAR: the
    mask's low byte spread to byte lanes, then base 5)."""
    cdef uint64_t x = (<uint64_t>(sel & 0xFF) * 0x0101010101010101ULL) & 0x8040201008040201ULL
    x = ((x + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) >> 7
    return mj_base5_8(x) + ((sel >> 8) & 1) * POW5_8


cdef inline void number_ranks_held(const uint8_t* h, uint32_t* held) noexcept nogil:
    """held[s] = bit r set when rank r of number suit s is held (the held[] of load_counts for
    the three number suits only, without the suit codes)."""
    held[0] = <uint32_t>((mj_ones_ge(mj_load64(h), 1) * 0x0102040810204080ULL) >> 56) | ((h[8] != 0) << 8)
    held[1] = <uint32_t>((mj_ones_ge(mj_load64(h + 9), 1) * 0x0102040810204080ULL) >> 56) | ((h[17] != 0) << 8)
    held[2] = <uint32_t>((mj_ones_ge(mj_load64(h + 18), 1) * 0x0102040810204080ULL) >> 56) | ((h[26] != 0) << 8)


cdef inline int knit_counts(const uint32_t* held, int* k3) noexcept nogil:
    """k3[3 * s + i] = ranks of knit class i held in number suit s (from the rank masks held);
    returns the sum over the suits of their best class, a bound on any assignment's count."""
    cdef int s, kc, top = 0
    for s in range(3):
        kc = KNIT_COUNTS[held[s]]
        k3[3 * s] = kc & 3
        k3[3 * s + 1] = (kc >> 2) & 3
        k3[3 * s + 2] = (kc >> 4) & 3
        top += kc >> 6
    return top


cdef inline void knit_totals(const int* k3, int* tot) noexcept nogil:
    """tot[i] = knitted tiles held under assignment i of knit classes to suits (KNIT_PERM[i];
    k3: knit_counts)."""
    tot[0] = k3[0] + k3[4] + k3[8]
    tot[1] = k3[0] + k3[5] + k3[7]
    tot[2] = k3[1] + k3[3] + k3[8]
    tot[3] = k3[1] + k3[5] + k3[6]
    tot[4] = k3[2] + k3[3] + k3[7]
    tot[5] = k3[2] + k3[4] + k3[6]


cdef inline int seven_pairs_distance(const hand_t* f, int forms) noexcept nogil:
    """Seven pairs' distance from the pair counts (a four-of-a-kind as two pairs when `forms`
    has FLAG_KONG_TWO_PAIRS)."""
    if forms & FLAG_KONG_TWO_PAIRS:
        return pairs_distance(f.ge[2] + f.ge[4], f.ge[1] - f.ge[2] + f.ge[3] - f.ge[4])
    return pairs_distance(f.ge[2], f.ge[1] - f.ge[2])


cdef inline int honors_knitted_distance(const int* tot, int honors) noexcept nogil:
    """Honors-and-knitted's distance: the best assignment's knitted tiles (tot: knit_totals)
    plus the honors held."""
    return 14 - imin(max(tot[0], tot[1], tot[2], tot[3], tot[4], tot[5]) + honors, 14)


cdef inline int knitted_straight_sets(int n) noexcept nogil:
    """Sets beside the knitted nine and the pair in a hand of n concealed tiles: 1 for 13/14
    tiles (closed), 0 for 10/11 (the one set is called: Chinese Official allows the knitted
    straight with one exposed set)."""
    return n // 3 - 3


cdef inline int knitted_straight_distance(const hand_t* f, const mj_tables_t* t, const int* tot,
                                          int best) noexcept nogil:
    """min(best, the knitted straight's distance): per assignment, the knitted tiles held
    (tot: knit_totals) and the rest of the hand's distance to knitted_straight_sets(f.n) sets +
    pair, looked up only for the assignments whose 9 - (knitted tiles held) can beat `best`."""
    cdef int i, s, sets = knitted_straight_sets(f.n)
    cdef uint32_t c[3]
    for i in range(6):
        if 9 - tot[i] < best:
            for s in range(3):
                c[s] = f.code[s] - bits_code(f.held[s] & KNIT_MASK[KNIT_PERM[i][s]])
            best = imin(best, 9 - tot[i] + distance_sets_pair(t, c[0], c[1], c[2], f.code[3], sets))
    return best


cdef inline int called_knitted_distance(hand_t* f, const mj_tables_t* t, int best) noexcept nogil:
    """min(best, the knitted straight's distance) for a hand of 10 or 11 concealed tiles (the
    knitted straight with one called set: the knitted nine + a pair in hand)."""
    cdef int k3[9]
    cdef int tot[6]
    if 9 - knit_counts(f.held, k3) >= best:
        return best
    knit_totals(k3, tot)
    return knitted_straight_distance(f, t, tot, best)


cdef inline int special_distance(hand_t* f, int forms, const mj_tables_t* t, int best) noexcept nogil:
    """min(best, distance over the special forms in `forms`) (13/14-tile hands only; a 10/11-tile
    hand has the knitted straight only: called_knitted_distance).

    The knitted forms are bounded first by the best knit class of each suit (no assignment
    of classes to suits holds more), so their six assignments are only tried when that bound
    can beat `best`; a knitted straight's table lookups likewise only for the assignments
    whose 9 - (knitted tiles held) can.
    """
    cdef int honors, top
    cdef int k3[9]
    cdef int tot[6]
    if forms & FORM_SEVEN_PAIRS:
        best = imin(best, seven_pairs_distance(f, forms))
    if forms & FORM_THIRTEEN_ORPHANS:
        best = imin(best, 14 - f.orphan_kinds - f.orphan_pair)
    if forms & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        top = knit_counts(f.held, k3)
        knit_totals(k3, tot)
        honors = mj_popcount32(f.held[3])
        if (forms & FORM_HONORS_KNITTED) and 14 - imin(top + honors, 14) < best:
            best = imin(best, honors_knitted_distance(tot, honors))
        if (forms & FORM_KNITTED_STRAIGHT) and 9 - top < best:
            best = knitted_straight_distance(f, t, tot, best)
    return best


cdef inline void special_distances(hand_t* f, int forms, const mj_tables_t* t, int cap, int* d) noexcept nogil:
    """Each special form's distance on its own, capped at `cap`: d[0] seven pairs, d[1]
    thirteen orphans, d[2] honors-and-knitted, d[3] knitted straight (99 for a form not in
    `forms`). One pass: the knit counts are shared, and the knitted forms' six assignments
    are only tried when the per-suit bound can get under `cap` (as in special_distance)."""
    cdef int honors, top
    cdef int k3[9]
    cdef int tot[6]
    d[0] = d[1] = d[2] = d[3] = 99
    if forms & FORM_SEVEN_PAIRS:
        d[0] = imin(cap, seven_pairs_distance(f, forms))
    if forms & FORM_THIRTEEN_ORPHANS:
        d[1] = imin(cap, 14 - f.orphan_kinds - f.orphan_pair)
    if forms & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        top = knit_counts(f.held, k3)
        knit_totals(k3, tot)
        honors = mj_popcount32(f.held[3])
        if forms & FORM_HONORS_KNITTED:
            d[2] = cap
            if 14 - imin(top + honors, 14) < cap:
                d[2] = imin(cap, honors_knitted_distance(tot, honors))
        if forms & FORM_KNITTED_STRAIGHT:
            d[3] = cap
            if 9 - top < cap:
                d[3] = knitted_straight_distance(f, t, tot, cap)


cdef inline void hand_minus(const hand_t* f, const uint8_t* h, int k, int feat, hand_t* out) noexcept nogil:
    """out = the features of hand h less one tile of kind k, from f (h's features as
    load_counts filled them with `feat`); h is the hand before the removal (h[k] >= 1)."""
    cdef int s = k // 9, r = k - 9 * (k // 9), c = h[k], j
    out[0] = f[0]
    out.code[s] -= POW5[r]
    out.n -= 1
    if feat & (FEAT_PAIRS | FEAT_KONGS):
        if c <= 2 or (feat & FEAT_KONGS):
            out.ge[c] -= 1
        if k >= 27 or r == 0 or r == 8:
            if c == 1:
                out.orphan_kinds -= 1
            elif c == 2 and out.orphan_pair:    # was it the only terminal or honor pair?
                out.orphan_pair = 0
                for j in range(13):
                    out.orphan_pair |= h[ORPHANS[j]] - (ORPHANS[j] == k) >= 2
    if (feat & FEAT_KNITS) and c == 1:
        out.held[s] &= ~((<uint32_t>1) << r)


cdef inline int shanten_hand(hand_t* f, int forms, const mj_tables_t* t) noexcept nogil:
    cdef int best = 99
    if forms & FORM_STANDARD:
        best = distance_sets_pair(t, f.code[0], f.code[1], f.code[2], f.code[3], f.n // 3)
    if (forms & FORMS_SPECIAL) and f.n >= 13:
        best = special_distance(f, forms, t, best)
    elif (forms & FORM_KNITTED_STRAIGHT) and f.n >= 10:
        best = called_knitted_distance(f, t, best)
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


cdef inline uint32_t suit_win_split(const mj_tables_t* t, uint32_t lo, uint32_t hi) noexcept nogil:
    """2-bit winning value (as ``win_value`` of ``suit_win``) of a suit pattern given as the
    base-5 code ``lo`` of ranks 0-5 and ``hi`` of ranks 6-8: two loads from tables of 15.6 KB
    and 12.3 KB (the factored table, see tables.py), which stay in the L1 cache."""
    return t.suit_win_hi[t.suit_win_lo[lo] * 125 + hi]


cdef inline uint32_t suit_win_code(const mj_tables_t* t, uint32_t code) noexcept nogil:
    """``win_value(t.suit_win, code)`` from the factored tables (division by constants)."""
    return suit_win_split(t, code % 15625, code // 15625)


cdef inline uint32_t honor_win_word(uint64_t wz) noexcept nogil:
    """2-bit winning value of the honors from their count bytes (7 lanes of 0..4, top lane 0),
    with no table: complete when no kind is held once or four times; 1 (sets only) with no
    pair, 2 with exactly one pair, else 0."""
    cdef uint64_t g1 = mj_ones_ge(wz, 1), g2 = mj_ones_ge(wz, 2), g3 = mj_ones_ge(wz, 3)
    cdef uint64_t bad = (g1 - g2) | mj_ones_ge(wz, 4)
    cdef uint32_t pairs = mj_lane_sum(g2 - g3)
    return (bad == 0) * (pairs < 2) * (pairs + 1)


cdef inline uint32_t suit_win_word(const mj_tables_t* t, uint64_t w, uint32_t top) noexcept nogil:
    """2-bit winning value of a number suit from its count bytes: ranks 0-7 in the lanes of
    ``w``, rank 8 in ``top``."""
    return suit_win_split(t, mj_base5_8(w & 0xFFFFFFFFFFFFULL),
                          <uint32_t>((w >> 48) & 0xFF) + 5 * <uint32_t>(w >> 56) + 25 * top)


cdef inline bint standard_complete(const uint32_t* code, const mj_tables_t* t) noexcept nogil:
    """Complete standard hand: every suit complete on its own, exactly one of them with the pair."""
    return (suit_win_code(t, code[0]) * suit_win_code(t, code[1])
            * suit_win_code(t, code[2]) * win_value(t.honor_win, code[3])) == 2


cdef inline bint standard_winning_counts(const uint8_t* h, const mj_tables_t* t) noexcept nogil:
    """Standard-form winning check straight from the count bytes (the hot path of is_winning)."""
    return (suit_win_word(t, mj_load64(h), h[8]) * suit_win_word(t, mj_load64(h + 9), h[17])
            * suit_win_word(t, mj_load64(h + 18), h[26]) * honor_win_word(mj_load64(h + 26) >> 8)) == 2


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


# The generic row kernel with the validation fused in, for the form sets the SIMD loops of
# shanten_rows.h do not take (knitted forms, the kong rule of seven pairs): the counts and the
# size are checked from the masks of hand_masks.h (the winning loop is there too, mj_win_rows).
# ROW_INVALID marks a row that fails validation (the caller then finds and reports the first bad
# row).

cdef inline int shanten_row_checked(const uint8_t* h, int forms, uint64_t size_mask, const mj_tables_t* t) noexcept nogil:
    cdef mj_masks_t m
    mj_hand_masks(h, &m)
    if not mj_masks_valid(&m, size_mask):
        return ROW_INVALID
    return shanten_counts(h, forms, t)
