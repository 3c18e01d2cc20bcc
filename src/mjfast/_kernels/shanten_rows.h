/* The shanten batch loop of the public API (validation fused) for the form sets made of the
 * standard form, seven pairs and thirteen orphans (the default "all" among them), once per
 * instruction-set level (see hand_masks.h for the levels and the dispatch).
 *
 * The algorithm is the one of hand.pxd (standard_counts_n, shanten_default), table for table;
 * what the levels change is the arithmetic around the tables:
 *   - the four base-5 suit codes come from two pmaddubsw / pmaddwd ladders over the count
 *     bytes (SSSE3, in the AVX2 and AVX-512 loops) instead of three SWAR steps per suit;
 *   - the seven-pairs and orphans features come from the whole-hand masks of the validation
 *     pass with popcnt (one instruction per count) instead of a SWAR pass over the words.
 * The baseline level keeps the SWAR arithmetic (plain x86-64 has no pmaddubsw or popcnt).
 */
#ifndef MJFAST_SHANTEN_ROWS_H
#define MJFAST_SHANTEN_ROWS_H
#include <stddef.h>
#include <stdint.h>
#include "bits.h"
#include "hand_masks.h"

typedef struct {
    const uint8_t* suit_class;   /* as mj_tables_t in _core.pxd */
    const uint8_t* honor_class;
    const uint8_t* pair_mp;
    const uint8_t* pair_sz;
    const uint8_t* final;
    int n_suit;
    int n_honor;
    int n_sz;
} mj_shanten_tables_t;

#define MJ_POW5_8 390625u

/* Tiles missing for n/3 sets + 1 pair given the four suit codes (hand.pxd's distance_sets_pair). */
static inline int mj_sets_pair_distance(const mj_shanten_tables_t* t, const uint32_t* c, int n) {
    int a = t->pair_mp[t->suit_class[c[0]] * t->n_suit + t->suit_class[c[1]]];
    int b = t->pair_sz[t->suit_class[c[2]] * t->n_honor + t->honor_class[c[3]]];
    return t->final[(a * t->n_sz + b) * 8 + n / 3];
}

/* The seven pairs / thirteen orphans distances of the forms in `forms` (bits 2 and 4; 99 for a
 * form not asked), from the masks, as hand.pxd's special_distance; +64 below 13 tiles, where
 * only the standard form applies (hand.pxd's shanten_default). */
#define MJ_SPECIAL_FROM_MASKS(m, forms, POPCOUNT, out)                                       \
    do {                                                                                     \
        uint64_t ge2_ = (m).held & ~(m).single;                                              \
        int pairs_ = POPCOUNT(ge2_), ge1_ = POPCOUNT((m).held);                              \
        int p_ = pairs_ < 7 ? pairs_ : 7, s_ = ge1_ - pairs_;                                \
        int sp_ = 14 - 2 * p_ - (s_ < 7 - p_ ? s_ : 7 - p_);                                 \
        int orph_ = 14 - POPCOUNT((m).held & MJ_MASK_ORPHANS) - ((ge2_ & MJ_MASK_ORPHANS) != 0); \
        if (!((forms) & 2)) sp_ = 99;                                                        \
        if (!((forms) & 4)) orph_ = 99;                                                      \
        (out) = (sp_ < orph_ ? sp_ : orph_) + ((m).n < 13) * 64;                             \
    } while (0)

/* Baseline codes: SWAR over the count words (bits.h), digit 8 of each suit added on its own. */
static inline void mj_codes_swar(const uint8_t* h, uint32_t* c) {
    c[0] = mj_base5_8(mj_load64(h)) + h[8] * MJ_POW5_8;
    c[1] = mj_base5_8(mj_load64(h + 9)) + h[17] * MJ_POW5_8;
    c[2] = mj_base5_8(mj_load64(h + 18)) + h[26] * MJ_POW5_8;
    c[3] = mj_base5_8(mj_load64(h + 26) >> 8);
}

/* The row loop: `forms` is a nonempty subset of 1 (standard), 2 (seven pairs, a four-of-a-kind
 * not counted as two pairs) and 4 (thirteen orphans); the special forms alone need a size_mask
 * of 13 and 14 tiles. out[i] = shanten, or 127 for a row that fails validation (then the
 * return value is 1). */
#define MJ_SHANTEN_ROWS_LOOP(MASKS, CODES, POPCOUNT, FORMS)                                   \
    for (i = 0; i < n; i++) {                                                                 \
        const uint8_t* h = rows + 34 * i;                                                     \
        mj_masks_t m;                                                                         \
        uint32_t c[4];                                                                        \
        int best, special;                                                                    \
        mj_prefetch(h + MJ_PREFETCH_BYTES);                                                   \
        MASKS(h, &m);                                                                         \
        if (!mj_masks_valid(&m, size_mask)) {                                                 \
            bad = 1;                                                                          \
            out[i] = 127;                                                                     \
            continue;                                                                         \
        }                                                                                     \
        best = 99;                                                                            \
        if ((FORMS) & 1) {                                                                    \
            CODES(h, c);                                                                      \
            best = mj_sets_pair_distance(t, c, (int)m.n);                                     \
        }                                                                                     \
        if ((FORMS) & 6) {                                                                    \
            MJ_SPECIAL_FROM_MASKS(m, (FORMS), POPCOUNT, special);                             \
            best = best < special ? best : special;                                           \
        }                                                                                     \
        out[i] = (int8_t)(best - 1);                                                          \
    }                                                                                         \
    return bad;

/* One loop per common form set, with the set a constant (the per-row form tests fold away),
 * and one for the rest. */
#define MJ_SHANTEN_ROWS_BODY(MASKS, CODES, POPCOUNT)                                          \
    size_t i;                                                                                 \
    int bad = 0;                                                                              \
    if (forms == 1) {                                                                         \
        MJ_SHANTEN_ROWS_LOOP(MASKS, CODES, POPCOUNT, 1)                                       \
    }                                                                                         \
    if (forms == 7) {                                                                         \
        MJ_SHANTEN_ROWS_LOOP(MASKS, CODES, POPCOUNT, 7)                                       \
    }                                                                                         \
    MJ_SHANTEN_ROWS_LOOP(MASKS, CODES, POPCOUNT, forms)

static inline int mj_shanten_rows_base(const uint8_t* rows, size_t n, int forms, uint64_t size_mask,
                                       int8_t* out, const mj_shanten_tables_t* t) {
    MJ_SHANTEN_ROWS_BODY(mj_hand_masks, mj_codes_swar, mj_popcount64)
}

#if MJ_HAVE_DISPATCH

/* The four codes with SSSE3: bytes m0-7 | p0-7 and s0-7 | z0-6 in two registers; pmaddubsw by
 * (1, 5) gives pairs, pmaddwd by (1, 25) quads, and after packing, pmaddwd by (1, 625) the
 * eight-digit codes; the ninth digit is added in scalar code. */
__attribute__((target("avx2,popcnt")))
static inline void mj_codes_ssse3(const uint8_t* h, uint32_t* c) {
    __m128i x1 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i*)h), _mm_loadl_epi64((const __m128i*)(h + 9)));
    uint64_t z = mj_load64(h + 26) >> 8;                       /* honors: bytes 27..33, top lane 0 */
    __m128i x2 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i*)(h + 18)), _mm_loadl_epi64((const __m128i*)&z));
    const __m128i w5 = _mm_set1_epi16(0x0501), w25 = _mm_set1_epi32(0x00190001), w625 = _mm_set1_epi32(0x02710001);
    __m128i q1 = _mm_madd_epi16(_mm_maddubs_epi16(x1, w5), w25);
    __m128i q2 = _mm_madd_epi16(_mm_maddubs_epi16(x2, w5), w25);
    __m128i codes = _mm_madd_epi16(_mm_packs_epi32(q1, q2), w625);
    c[0] = (uint32_t)_mm_cvtsi128_si32(codes) + h[8] * MJ_POW5_8;
    c[1] = (uint32_t)_mm_extract_epi32(codes, 1) + h[17] * MJ_POW5_8;
    c[2] = (uint32_t)_mm_extract_epi32(codes, 2) + h[26] * MJ_POW5_8;
    c[3] = (uint32_t)_mm_extract_epi32(codes, 3);
}

#define MJ_POPCNT(x) __builtin_popcountll(x)

__attribute__((target("avx2,popcnt")))
static inline int mj_shanten_rows_avx2(const uint8_t* rows, size_t n, int forms, uint64_t size_mask,
                                       int8_t* out, const mj_shanten_tables_t* t) {
    MJ_SHANTEN_ROWS_BODY(mj_hand_masks_avx2, mj_codes_ssse3, MJ_POPCNT)
}

__attribute__((target("avx2,popcnt,avx512f,avx512bw")))
static inline int mj_shanten_rows_avx512(const uint8_t* rows, size_t n, int forms, uint64_t size_mask,
                                         int8_t* out, const mj_shanten_tables_t* t) {
    MJ_SHANTEN_ROWS_BODY(mj_hand_masks_avx512, mj_codes_ssse3, MJ_POPCNT)
}

static inline int mj_shanten_rows(int level, const uint8_t* rows, size_t n, int forms, uint64_t size_mask,
                                  int8_t* out, const mj_shanten_tables_t* t) {
    if (level >= 2) return mj_shanten_rows_avx512(rows, n, forms, size_mask, out, t);
    if (level == 1) return mj_shanten_rows_avx2(rows, n, forms, size_mask, out, t);
    return mj_shanten_rows_base(rows, n, forms, size_mask, out, t);
}

#else
static inline int mj_shanten_rows(int level, const uint8_t* rows, size_t n, int forms, uint64_t size_mask,
                                  int8_t* out, const mj_shanten_tables_t* t) {
    (void)level;
    return mj_shanten_rows_base(rows, n, forms, size_mask, out, t);
}
#endif

#endif
