# cython: language_level=3
"""Batched random deals and deal statistics (private; the public API is mjfast.deals).

Deal ``i`` of a run is a pure function of the root key (k0, k1) and ``i``: its random stream
is seeded from them (``_rng.pxd``), so results never depend on threads or chunking.

The fast path deals from a uniformly shuffled tile set, drawing tiles one at a time with a
partial Fisher-Yates shuffle (each step swaps a uniformly random remaining tile to the front,
Lemire's exact bounded integers on 16-bit draws). Physical ids: 0-135 standard,
kind = id // 4; 136-143 bonus tiles f1-f8; 144 and up jokers. Draw order: East's 14 tiles, South's 13, then East's and
South's bonus replacements (East first, chains included), then West's 13, North's 13 and their
replacements. Every draw takes a uniformly random tile among those not yet drawn, so this
order gives exactly the distribution of the physical procedure (mjfast.wall), where
replacements come from the back end after the whole deal: in sampling without replacement,
the values seen in any (even adaptive) order of positions are exchangeable. The benefit of
this order: a statistics run that needs only East and South stops after 27 draws and still
sees exactly the East and South hands that ``deal()`` returns for the same seed.
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange, threadid
from libc.stdint cimport uint8_t, int8_t, uint16_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset, memcpy

from mjfast._kernels.rng cimport rng_t, rng_seed_stream, rng_bounded16, rng_next, rng_next16
from mjfast._kernels.hand_types cimport mj_tables_t
from mjfast._kernels.hand_tables cimport c_tables
from mjfast._kernels.bits cimport mj_load64, mj_ones_ge, mj_zero144, mj_lane_sum, mj_base5_8, mj_prefetch
from mjfast._kernels.hand cimport (
    hand_t, load_counts, shanten_hand, standard_counts, features_for, imin,
    distance_sets_pair, pairs_distance, POW5_8,
)
from mjfast._kernels.hand_types cimport FORM_STANDARD, FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS
from mjfast._kernels.american cimport american_distance

cnp.import_array()

cdef enum:
    FIRST_BONUS = 136
    FIRST_JOKER = 144
    MAX_SET = 192
    N_BINS = 16          # shanten -1 .. 14 (thirteen orphans reaches 13)
    MAX_FORMS = 8
    N_COUNT = 17         # bonus / joker count bins 0..16


ctypedef struct deal_t:
    uint8_t hands[4][34]     # standard tiles held (after replacement)
    uint8_t bonus[4][8]      # bonus tiles set aside (or held, American)
    uint8_t jokers[4]
    uint8_t ids[4][14]       # physical ids of the concealed hand, in the order received
    uint8_t n_ids[4]


cdef uint8_t IDENTITY[MAX_SET]
for _k in range(MAX_SET):
    IDENTITY[_k] = _k


ctypedef struct draws_t:
    # the deal's 16-bit random values, generated up front in a tight loop (so that the byte
    # stores of the shuffle never interleave with the generator) and consumed in order:
    # exactly the values rng_next16 would return, so the stream is unchanged
    uint16_t v[64]
    int used
    int made


cdef inline void fill_draws(rng_t* r, draws_t* q, int n) noexcept nogil:
    cdef int i
    cdef uint64_t x
    for i in range(n):
        x = rng_next(r)
        q.v[4 * i] = <uint16_t>x
        q.v[4 * i + 1] = <uint16_t>(x >> 16)
        q.v[4 * i + 2] = <uint16_t>(x >> 32)
        q.v[4 * i + 3] = <uint16_t>(x >> 48)
    q.made = 4 * n
    q.used = 0


cdef inline uint32_t next16(rng_t* r, draws_t* q) noexcept nogil:
    if q.used < q.made:
        q.used += 1
        return q.v[q.used - 1]
    return rng_next16(r)          # past the prepared values: same stream, on demand


cdef inline int draw(rng_t* r, draws_t* q, uint8_t* pool, int* j, int n_tiles) noexcept nogil:
    """Next tile of the shuffled set: a uniformly random tile among those not drawn yet
    (Lemire's multiply-shift with rejection on 16-bit values, then a Fisher-Yates swap)."""
    cdef int i = j[0]
    cdef uint32_t n = <uint32_t>(n_tiles - i)
    cdef uint32_t m = next16(r, q) * n
    cdef uint32_t threshold
    cdef int k
    cdef uint8_t t
    if (m & 0xFFFF) < n:
        threshold = (65536 - n) % n
        while (m & 0xFFFF) < threshold:
            m = next16(r, q) * n
    k = i + <int>(m >> 16)
    t = pool[k]
    pool[k] = pool[i]
    pool[i] = t
    j[0] = i + 1
    return t


cdef union counts144_t:
    uint8_t b[144]
    uint64_t align[18]


cdef uint8_t KINDS136[136]         # deal136.h's pool: 4 x kind (its count tables' index)
for _k in range(136):
    KINDS136[_k] = _k & ~3


cdef extern from "deal136.h" nogil:
    int mj_deal136_counts(const uint16_t* v, int n_values, const uint8_t* kinds136, int seats,
                          uint8_t* counts)
    int mj_deal136_words(const uint16_t* v, int n_values, const uint8_t* kinds136, uint64_t* words)
    void mj_deal_values(uint64_t k0, uint64_t k1, uint64_t stream, int n64, uint16_t* v)

cdef enum:
    MAX_VALUES = 64       # = MJ_DEAL_MAX_VALUES
    PREFETCH_ROWS = 12    # output rows asked for ahead of the deal (12 x 136 bytes ~ MJ_PREFETCH_BYTES)

# 16-bit random values prepared per 4-seat deal (half for East and South only): 14 outputs of
# the generator, i.e. the 53 draws plus 3 Lemire rejections (27 + 1 for two seats). A
# rejection has probability (65536 mod n) / 65536, 0.08 % on average over the bounds
# n = 84..136, so about 1 deal in 9 million (3 in 10 thousand East-South deals) needs more
# and is dealt again, the same stream, by the generic path: cheaper than preparing more
# values for every deal. Tests change it to exercise that fallback (`_set_prepared_values`).
cdef int deal_values = 56


def _set_prepared_values(int n):
    """Testing hook: prepare n (1..64) values per 4-seat deal (n // 2 for two seats); returns
    the old n (56). Below 53 every deal takes the fallback; 53 makes the first rejection take it."""
    global deal_values
    if n < 1 or n > MAX_VALUES:
        raise ValueError("n must be in 1..64")
    old = deal_values
    deal_values = n
    return old


cdef inline bint deal_standard_counts(uint64_t stream, uint64_t k0, uint64_t k1, int seats,
                                      uint8_t* counts) noexcept nogil:
    """`deal_one` specialised to the 136-tile set without ids: the same stream and the same
    draws, written as counts to ``counts`` (seat s at bytes 34 s .. 34 s + 33, every byte of
    the dealt seats written: no zeroing needed).

    The draws run in C (deal136.h): the positions first, then the swaps with the counts kept
    in registers, on values prepared up front. Returns False, with nothing written, in the
    practically impossible case that the deal needs more values than were prepared: the
    caller then deals it through `deal_one`.
    """
    cdef uint16_t v[MAX_VALUES]
    cdef int n_values = deal_values if seats == 4 else deal_values // 2
    mj_deal_values(k0, k1, stream, (n_values + 3) // 4, v)     # = rng_seed_stream, rng_next
    return mj_deal136_counts(v, n_values, KINDS136, seats, counts) == 0


cdef inline bint deal_standard_words(uint64_t stream, uint64_t k0, uint64_t k1,
                                     uint64_t* words) noexcept nogil:
    """`deal_standard_counts` of East and South, as the count words of `counts_words`
    (seat e at words[5 e .. 5 e + 4]), straight from the kernel's registers."""
    cdef uint16_t v[MAX_VALUES]
    cdef int n_values = deal_values // 2
    mj_deal_values(k0, k1, stream, (n_values + 3) // 4, v)
    return mj_deal136_words(v, n_values, KINDS136, words) == 0


cdef inline void counts_words(const uint8_t* hb, uint64_t* w) noexcept nogil:
    """The words standard_counts and classify3 read from 34 count bytes: bytes 0..7, 9..16,
    18..25, 27..33 (top lane 0), and bytes 8, 17, 26 in the low lanes of the fifth."""
    w[0] = mj_load64(hb)
    w[1] = mj_load64(hb + 9)
    w[2] = mj_load64(hb + 18)
    w[3] = mj_load64(hb + 26) >> 8
    w[4] = <uint64_t>hb[8] | (<uint64_t>hb[17] << 8) | (<uint64_t>hb[26] << 16)


cdef inline int receive(deal_t* d, int seat, int t, bint replace, int* cnt, bint want_ids) noexcept nogil:
    """Put tile t in seat's hand; returns 1 if it is a bonus tile to be replaced.

    `cnt` is the caller's local count of ids recorded for this seat (kept out of `d` so that
    consecutive draws do not wait on a store to load round trip through memory).
    """
    if t < FIRST_BONUS:
        d.hands[seat][t >> 2] += 1
    elif t < FIRST_JOKER:
        d.bonus[seat][t - FIRST_BONUS] = 1
        if replace:
            return 1
    else:
        d.jokers[seat] += 1
    if want_ids:
        d.ids[seat][cnt[0]] = <uint8_t>t
        cnt[0] += 1
    return 0


cdef inline void deal_one(uint64_t stream, uint64_t k0, uint64_t k1, int n_tiles,
                          bint replace, int seats, deal_t* d, bint want_ids=True) noexcept nogil:
    """Deal `seats` (2: East and South only, or 4) hands of deal number `stream` into d."""
    cdef rng_t r
    cdef draws_t q
    cdef uint8_t pool[MAX_SET]
    cdef int j = 0
    cdef int s, k, t, pair, cnt, pend
    cdef int pending[4]
    rng_seed_stream(&r, k0, k1, stream)
    fill_draws(&r, &q, 14 if seats == 4 else 7)     # 56 or 28 values: the deal without rejections
    memcpy(pool, IDENTITY, n_tiles)
    memset(d.hands, 0, sizeof(d.hands))
    memset(d.bonus, 0, sizeof(d.bonus))
    memset(d.jokers, 0, sizeof(d.jokers))
    for pair in range(seats // 2):
        for s in range(2 * pair, 2 * pair + 2):
            cnt = 0
            pend = 0
            for k in range(14 if s == 0 else 13):
                pend += receive(d, s, draw(&r, &q, pool, &j, n_tiles), replace, &cnt, want_ids)
            pending[s] = pend
            d.n_ids[s] = <uint8_t>cnt
        for s in range(2 * pair, 2 * pair + 2):
            cnt = d.n_ids[s]
            while pending[s] > 0:
                t = draw(&r, &q, pool, &j, n_tiles)
                if FIRST_BONUS <= t < FIRST_JOKER:
                    d.bonus[s][t - FIRST_BONUS] = 1      # replaced again
                else:
                    receive(d, s, t, replace, &cnt, want_ids)
                    pending[s] -= 1
            d.n_ids[s] = <uint8_t>cnt


cdef void deal_into(uint64_t stream, uint64_t k0, uint64_t k1, int n_tiles, bint replace,
                    uint8_t* hands, uint8_t* bonus, uint8_t* jokers, uint8_t* ids,
                    bint zeroed) noexcept nogil:
    """Deal one full deal (4 seats) and write it to the output rows (`ids` may be NULL)."""
    cdef deal_t d
    cdef int s
    if n_tiles == 136 and ids == NULL:
        if deal_standard_counts(stream, k0, k1, 4, hands):
            if not zeroed:
                memset(bonus, 0, 4 * 8)
                memset(jokers, 0, 4)
            return
    if ids != NULL:
        deal_one(stream, k0, k1, n_tiles, replace, 4, &d, True)
    else:
        deal_one(stream, k0, k1, n_tiles, replace, 4, &d, False)
    memcpy(hands, d.hands, 4 * 34)
    memcpy(bonus, d.bonus, 4 * 8)
    memcpy(jokers, d.jokers, 4)
    if ids != NULL:
        memset(ids, 255, 4 * 14)
        for s in range(4):
            memcpy(ids + 14 * s, d.ids[s], d.n_ids[s])


def deal_batch(Py_ssize_t n, uint64_t start, uint64_t k0, uint64_t k1, int n_tiles, bint replace,
               uint8_t[:, :, ::1] hands, uint8_t[:, :, ::1] bonus, uint8_t[:, ::1] jokers,
               uint8_t[:, :, ::1] ids, int threads, bint zeroed=False):
    """Deals start .. start+n-1 into the (n, 4, 34) / (n, 4, 8) / (n, 4) outputs and, unless
    ``ids`` is None, the (n, 4, 14) physical ids. ``zeroed``: the outputs hold zeros already
    (fresh np.zeros pages): 136-tile deals then never touch the bonus and joker outputs (their
    count rows are written whole either way)."""
    cdef Py_ssize_t i
    cdef bint want_ids = ids is not None
    cdef bint pf_small = not zeroed or n_tiles != 136 or want_ids
    if n == 0:
        return
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=1024, num_threads=threads):
            # the rows PREFETCH_ROWS ahead: on some machines the hardware prefetcher does not
            # keep up with the output streams, and a deal then waits for its rows' cache lines
            # (three prefetches per 136-byte row: one at least in every 64-byte line)
            mj_prefetch(<const char*>&hands[i, 0, 0] + PREFETCH_ROWS * 136)
            mj_prefetch(<const char*>&hands[i, 0, 0] + PREFETCH_ROWS * 136 + 64)
            mj_prefetch(<const char*>&hands[i, 0, 0] + PREFETCH_ROWS * 136 + 128)
            if pf_small:
                mj_prefetch(<const char*>&bonus[i, 0, 0] + PREFETCH_ROWS * 32)
                mj_prefetch(<const char*>&jokers[i, 0] + PREFETCH_ROWS * 4)
            deal_into(start + i, k0, k1, n_tiles, replace, &hands[i, 0, 0], &bonus[i, 0, 0],
                      &jokers[i, 0], &ids[i, 0, 0] if want_ids else NULL, zeroed)


cdef inline bint has_four(const uint8_t* h) noexcept nogil:
    """Some kind held four times (SWAR over the 34 count bytes)."""
    cdef uint64_t x = (mj_ones_ge(mj_load64(h), 4) | mj_ones_ge(mj_load64(h + 8), 4)
                       | mj_ones_ge(mj_load64(h + 16), 4) | mj_ones_ge(mj_load64(h + 24), 4)
                       | mj_ones_ge(mj_load64(h + 26), 4))
    return x != 0


cdef inline bint has_four_words(const uint64_t* w) noexcept nogil:
    """`has_four` from the count words of `counts_words`."""
    return (mj_ones_ge(w[0], 4) | mj_ones_ge(w[1], 4) | mj_ones_ge(w[2], 4) | mj_ones_ge(w[3], 4)
            | mj_ones_ge(w[4], 4)) != 0


cdef enum:
    MAX_STAT_FORMS = 8
    JOINT_SEAT = 8192            # joint counts of one seat: four-of-a-kind x 16^3 shanten bins


ctypedef struct stats_spec_t:
    int n_tiles
    int replace
    int american
    int am_keep                  # American: 1 = each set of four keeps a natural tile, 0 = all-joker sets allowed
    int nf                       # forms classified (the minimum "all" comes on top)
    int forms[MAX_STAT_FORMS]
    int feat                     # hand_t features the forms need
    Py_ssize_t base_four         # row offsets, see stats_batch
    Py_ssize_t base_bonus
    Py_ssize_t base_jokers
    int simple                   # every form is standard / seven pairs / thirteen orphans ...
    int kind[MAX_STAT_FORMS]     # ... namely classify3's value kind[f]


cdef inline int standard_words(const uint64_t* w, const mj_tables_t* t) noexcept nogil:
    """`standard_counts` (hand.pxd) from the count words of `counts_words`."""
    cdef uint64_t extra = w[4]
    cdef int n = mj_lane_sum(w[0] + w[1] + w[2] + w[3] + extra)   # lane sums stay below 256
    return distance_sets_pair(t, mj_base5_8(w[0]) + <int>(extra & 0xFF) * POW5_8,
                              mj_base5_8(w[1]) + <int>((extra >> 8) & 0xFF) * POW5_8,
                              mj_base5_8(w[2]) + <int>(extra >> 16) * POW5_8, mj_base5_8(w[3]), n // 3) - 1


cdef inline bint classify3(const uint64_t* w, const mj_tables_t* t, int* v) noexcept nogil:
    """v[0] standard, v[1] seven pairs, v[2] thirteen orphans shanten of a hand given by the
    count words of `counts_words`; returns whether some kind is held four times."""
    cdef uint64_t wm = w[0]
    cdef uint64_t wp = w[1]
    cdef uint64_t ws = w[2]
    cdef uint64_t wz = w[3]                               # bytes 27..33, top lane 0
    cdef uint64_t extra = w[4]                            # bytes 8, 17, 26
    cdef uint64_t g1m = mj_ones_ge(wm, 1), g1p = mj_ones_ge(wp, 1), g1s = mj_ones_ge(ws, 1)
    cdef uint64_t g1z = mj_ones_ge(wz, 1), g1x = mj_ones_ge(extra, 1)
    cdef uint64_t g2m = mj_ones_ge(wm, 2), g2p = mj_ones_ge(wp, 2), g2s = mj_ones_ge(ws, 2)
    cdef uint64_t g2z = mj_ones_ge(wz, 2), g2x = mj_ones_ge(extra, 2)
    cdef int n = mj_lane_sum(wm + wp + ws + wz + extra)
    cdef int ge1 = mj_lane_sum(g1m + g1p + g1s + g1z + g1x)
    cdef int ge2 = mj_lane_sum(g2m + g2p + g2s + g2z + g2x)
    cdef int orphans = <int>((g1m + g1p + g1s) & 0xFF) + mj_lane_sum(g1x + g1z)
    cdef int orphan_pair = (((g2m | g2p | g2s) & 1) | g2x | g2z) != 0
    v[0] = distance_sets_pair(t, mj_base5_8(wm) + <int>(extra & 0xFF) * POW5_8,
                              mj_base5_8(wp) + <int>((extra >> 8) & 0xFF) * POW5_8,
                              mj_base5_8(ws) + <int>(extra >> 16) * POW5_8, mj_base5_8(wz), n // 3) - 1
    v[1] = pairs_distance(ge2, ge1 - ge2) - 1
    v[2] = 13 - orphans - orphan_pair
    return (mj_ones_ge(wm, 4) | mj_ones_ge(wp, 4) | mj_ones_ge(ws, 4) | mj_ones_ge(wz, 4)
            | mj_ones_ge(extra, 4)) != 0


cdef void stats_one(uint64_t stream, uint64_t k0, uint64_t k1, const stats_spec_t* sp,
                    const mj_tables_t* t, int64_t* row, int64_t* joint) noexcept nogil:
    """Deal East and South of one deal and add what they hold to the histogram row (the
    three simple forms: to the joint counts, see stats_batch)."""
    cdef deal_t d
    cdef counts144_t acc
    cdef hand_t h
    cdef int e, f, s, best, nb, nf = sp.nf
    cdef int v[3]
    cdef Py_ssize_t base
    cdef const uint8_t* hand
    cdef uint64_t words[10]
    cdef bint standard_only = nf == 1 and sp.forms[0] == FORM_STANDARD
    if sp.n_tiles == 136 and not sp.american and (sp.simple or standard_only):
        # the common forms from the count words, handed over by the kernel in whole 8-byte
        # stores: 8-byte loads of count bytes just written in 16-byte pieces would wait for
        # those stores to reach the cache (no store-to-load forwarding across two stores)
        if not deal_standard_words(stream, k0, k1, words):
            deal_one(stream, k0, k1, 136, False, 2, &d, False)
            counts_words(&d.hands[0][0], words)
            counts_words(&d.hands[1][0], words + 5)
        for e in range(2):
            if standard_only:
                s = standard_words(words + 5 * e, t)
                row[(e * 2) * N_BINS + s + 1] += 1
                row[(e * 2 + 1) * N_BINS + s + 1] += 1
                row[sp.base_four + e] += has_four_words(words + 5 * e)
            else:
                # one count per hand, of its (four, v[2], v[1], v[0]) (the row's five counts
                # from the joint ones at the end): five read-modify-writes of histogram
                # bins, whose addresses come last in the deal, cost ~4 % of the run
                f = classify3(words + 5 * e, t, v)
                joint[e * JOINT_SEAT + f * 4096 + (v[2] + 1) * 256 + (v[1] + 1) * 16 + v[0] + 1] += 1
        return                       # (136 tiles: no bonus tiles or jokers; stats_batch adds n)
    if sp.n_tiles == 136:
        mj_zero144(&acc)
        if not deal_standard_counts(stream, k0, k1, 2, acc.b):
            deal_one(stream, k0, k1, 136, False, 2, &d, False)
            memcpy(acc.b, d.hands, 2 * 34)
    else:
        deal_one(stream, k0, k1, sp.n_tiles, sp.replace, 2, &d, False)
    for e in range(2):
        if sp.n_tiles == 136:
            hand = &acc.b[34 * e]
        else:
            hand = &d.hands[e][0]
        nb = 0
        if sp.n_tiles != 136:
            for f in range(8):
                nb += d.bonus[e][f]
        if sp.american:
            s = american_distance(hand, nb, d.jokers[e], sp.am_keep) - 1
            row[(e * (nf + 1)) * N_BINS + s + 1] += 1
            row[(e * (nf + 1) + nf) * N_BINS + s + 1] += 1
        elif nf == 1 and sp.forms[0] == FORM_STANDARD:
            s = standard_counts(hand, t)
            row[(e * 2) * N_BINS + s + 1] += 1
            row[(e * 2 + 1) * N_BINS + s + 1] += 1
        else:
            load_counts(hand, &h, sp.feat)
            best = 99
            for f in range(nf):
                # the common forms straight from the features, the rest through shanten_hand
                if sp.forms[f] == FORM_STANDARD:
                    s = distance_sets_pair(t, h.code[0], h.code[1], h.code[2], h.code[3], h.n // 3) - 1
                elif sp.forms[f] == FORM_SEVEN_PAIRS:
                    s = pairs_distance(h.ge[2], h.ge[1] - h.ge[2]) - 1
                elif sp.forms[f] == FORM_THIRTEEN_ORPHANS:
                    s = 13 - h.orphan_kinds - h.orphan_pair
                else:
                    s = shanten_hand(&h, sp.forms[f], t)
                row[(e * (nf + 1) + f) * N_BINS + s + 1] += 1
                best = imin(best, s)
            row[(e * (nf + 1) + nf) * N_BINS + best + 1] += 1
        row[sp.base_four + e] += has_four(hand)
        if sp.n_tiles != 136:       # (136 tiles: no bonus tiles or jokers; stats_batch adds n)
            row[sp.base_bonus + e * N_COUNT + nb] += 1
            row[sp.base_jokers + e * N_COUNT + d.jokers[e]] += 1


cdef void add_joint(const stats_spec_t* sp, const int64_t* joint, int threads, int64_t* row) noexcept nogil:
    """Add the joint counts of stats_one (`threads` rows of 2 JOINT_SEAT) to the row: each
    form's shanten bin, the minimum's ("all") and the four-of-a-kind count, as stats_one
    would have added them hand by hand."""
    cdef int th, e, four, cell, f, s, best, base
    cdef int v[3]
    cdef int64_t c
    for th in range(threads):
        for e in range(2):
            base = e * (sp.nf + 1) * N_BINS + 1
            for four in range(2):
                for cell in range(4096):
                    c = joint[<Py_ssize_t>th * 2 * JOINT_SEAT + e * JOINT_SEAT + four * 4096 + cell]
                    if c == 0:
                        continue
                    v[0] = (cell & 15) - 1
                    v[1] = ((cell >> 4) & 15) - 1
                    v[2] = (cell >> 8) - 1
                    best = 99
                    for f in range(sp.nf):
                        s = v[sp.kind[f]]
                        row[base + f * N_BINS + s] += c
                        best = imin(best, s)
                    row[base + sp.nf * N_BINS + best] += c
                    row[sp.base_four + e] += c * four


def stats_row_size(int n_forms):
    """Length of one histogram row for `n_forms` classified forms."""
    return 2 * (n_forms + 1) * N_BINS + 2 + 4 * N_COUNT


def stats_batch(Py_ssize_t n, uint64_t start, uint64_t k0, uint64_t k1, int n_tiles, bint replace,
                const int[::1] form_bits, bint american, int64_t[:, ::1] hist, int threads,
                bint all_joker_sets=True):
    """Accumulate deal statistics of deals start .. start+n-1 into per-thread rows of ``hist``.

    ``hist`` has one row per thread (at least ``threads`` rows) of ``stats_row_size(F)`` int64
    counts, F = len(form_bits). For seat e = 0 (East, 14 tiles) and e = 1 (South, 13 tiles):
    ``shanten[e][f][b]`` at ``(e * (F + 1) + f) * N_BINS + b`` for form f < F and f = F their
    minimum ("all"), b = shanten + 1; then four-of-a-kind counts (2), bonus-tile-count
    histograms (2 x N_COUNT), joker-count histograms (2 x N_COUNT). American deals use one form,
    the beginner-hand distance (form_bits is then a dummy of length 1) under the joker reading
    ``all_joker_sets`` (True: a concealed set of four may be all jokers).
    """
    cdef const mj_tables_t* t = c_tables()
    cdef stats_spec_t sp
    cdef Py_ssize_t i
    cdef int f
    if form_bits.shape[0] > MAX_STAT_FORMS:
        raise ValueError("too many forms")
    if hist.shape[0] < threads or hist.shape[1] != stats_row_size(form_bits.shape[0]):
        raise ValueError("hist has the wrong shape")
    sp.n_tiles = n_tiles
    sp.replace = replace
    sp.american = american
    sp.am_keep = 0 if all_joker_sets else 1
    sp.nf = form_bits.shape[0]
    sp.feat = 0
    sp.simple = n_tiles == 136 and not american
    for f in range(sp.nf):
        sp.forms[f] = form_bits[f]
        sp.feat |= features_for(form_bits[f])
        if form_bits[f] == FORM_STANDARD:
            sp.kind[f] = 0
        elif form_bits[f] == FORM_SEVEN_PAIRS:
            sp.kind[f] = 1
        elif form_bits[f] == FORM_THIRTEEN_ORPHANS:
            sp.kind[f] = 2
        else:
            sp.simple = False
    sp.base_four = 2 * (sp.nf + 1) * N_BINS
    sp.base_bonus = sp.base_four + 2
    sp.base_jokers = sp.base_bonus + 2 * N_COUNT
    if n == 0:
        return
    # the three simple forms count each hand once in `joint` (per thread: seat, four-of-a-kind,
    # then the shanten + 1 of thirteen orphans, seven pairs, standard), turned into the row's
    # counts below
    use_joint = sp.simple and not (sp.nf == 1 and sp.forms[0] == FORM_STANDARD)
    joint_arr = np.zeros((threads, 2 * JOINT_SEAT if use_joint else 1), np.int64)
    cdef int64_t[:, ::1] joint = joint_arr
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=1024, num_threads=threads):
            stats_one(start + i, k0, k1, &sp, t, &hist[threadid(), 0], &joint[threadid(), 0])
    if use_joint:
        add_joint(&sp, &joint[0, 0], threads, &hist[0, 0])
    if n_tiles == 136:              # every deal holds 0 bonus tiles and 0 jokers
        for f in range(2):
            hist[0, sp.base_bonus + f * N_COUNT] += n
            hist[0, sp.base_jokers + f * N_COUNT] += n


N_SHANTEN_BINS = N_BINS
N_COUNT_BINS = N_COUNT


cdef inline void random_hand(uint64_t stream, uint64_t k0, uint64_t k1, const uint8_t* wall, int n_tiles, int size,
                             uint8_t* out) noexcept nogil:
    """``size`` tiles drawn without replacement from ``wall`` (one tile kind per physical tile)
    by stream ``stream``, added to the 34 counts ``out``: the deals' draws (a partial
    Fisher-Yates shuffle, Lemire's bounded integers on 16-bit values)."""
    cdef rng_t r
    cdef draws_t q
    cdef uint8_t pool[MAX_SET]
    cdef int j = 0, k
    rng_seed_stream(&r, k0, k1, stream)
    fill_draws(&r, &q, min((size + 3) // 4 + 1, 16))    # 4 values each (v holds 64); more come on demand
    memcpy(pool, wall, n_tiles)
    for k in range(size):
        out[draw(&r, &q, pool, &j, n_tiles)] += 1


def random_hands_batch(Py_ssize_t n, uint64_t k0, uint64_t k1, const uint8_t[::1] wall, int size,
                       uint8_t[:, ::1] out, int threads):
    """out[i] += the counts of ``size`` tiles drawn without replacement from ``wall`` (tile kinds,
    at most 192 entries, one per physical tile; ``size`` at most their number) by hand i's
    stream of the key (k0, k1): each hand a pure function of (key, i), whatever the threads."""
    cdef Py_ssize_t i
    cdef int n_tiles = wall.shape[0]
    if n == 0:
        return
    with nogil:
        for i in prange(n, schedule="static", chunksize=4096, num_threads=max(threads, 1)):
            random_hand(i, k0, k1, &wall[0], n_tiles, size, &out[i, 0])
