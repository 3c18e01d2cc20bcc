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
 * The baseline is SSE2 (every x86-64 CPU); other targets use a portable byte loop. The
 * winning-check loop below also exists for AVX2 and AVX-512BW, chosen at run time
 * (mj_simd_level); the AVX-512 version reads a row with one masked load that never touches a
 * byte past the row.
 */
#ifndef MJFAST_HAND_MASKS_H
#define MJFAST_HAND_MASKS_H
#include <stddef.h>
#include <stdint.h>
#include "bits.h"

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

/* ---- The winning check over a block of rows, one version per instruction set ----------------
 *
 * mj_win_rows(level, ...) runs the fused loop (validate, filter, and for the few rows that pass
 * the filter call `exact`) over `n` rows of 34 counts: out[i] = 1 for a complete hand. Returns
 * nonzero when some row failed validation (out[i] = 0 there). `level` is what mj_simd_level()
 * returned, or lower: 0 = the baseline above, 1 = AVX2, 2 = AVX-512BW. The build needs no
 * -march flag: the AVX2 and AVX-512 loops are compiled for their targets by function
 * attributes and only called when the CPU (and the OS) supports them. */
typedef int (*mj_exact_win_fn)(const uint8_t* h, int forms, const void* tables);

#define MJ_WIN_ROWS_LOOP(MASKS)                                                               \
    size_t i;                                                                                 \
    int bad = 0;                                                                              \
    for (i = 0; i < n; i++) {                                                                 \
        const uint8_t* h = rows + 34 * i;                                                     \
        mj_masks_t m;                                                                         \
        int ok;                                                                               \
        mj_prefetch(h + MJ_PREFETCH_BYTES);                                                   \
        MASKS(h, &m);                                                                         \
        ok = mj_masks_valid(&m, size_mask);                                                   \
        bad |= !ok;                                                                           \
        out[i] = (uint8_t)(ok && mj_masks_may_win(&m, forms) && exact(h, forms, tables));     \
    }                                                                                         \
    return bad;

static inline int mj_win_rows_base(const uint8_t* rows, size_t n, int forms, uint64_t size_mask, uint8_t* out,
                            mj_exact_win_fn exact, const void* tables) {
    MJ_WIN_ROWS_LOOP(mj_hand_masks)
}

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define MJ_HAVE_DISPATCH 1
#include <immintrin.h>

__attribute__((target("avx2")))
static inline void mj_hand_masks_avx2(const uint8_t* h, mj_masks_t* m) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i a = _mm256_loadu_si256((const __m256i*)h);                       /* kinds 0-31 */
    __m128i c2 = _mm_srli_si128(_mm_loadu_si128((const __m128i*)(h + 18)), 14);  /* 32, 33 */
    uint64_t ea = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, zero));
    uint64_t ec = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(c2, _mm_setzero_si128())) & 3;
    uint64_t sa = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, _mm256_set1_epi8(1)));
    uint64_t sc = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(c2, _mm_set1_epi8(1))) & 3;
    __m256i over = _mm256_subs_epu8(a, _mm256_set1_epi8(4));
    __m128i overc = _mm_subs_epu8(c2, _mm_set1_epi8(4));
    __m256i sums = _mm256_sad_epu8(a, zero);
    __m128i s2 = _mm_add_epi64(_mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1)),
                               _mm_sad_epu8(c2, _mm_setzero_si128()));
    m->held = ~(ea | (ec << 32)) & 0x3FFFFFFFFULL;
    m->single = sa | (sc << 32);
    m->over4 = !_mm256_testz_si256(over, over) | !_mm_testz_si128(overc, overc);
    m->n = (uint32_t)_mm_cvtsi128_si32(s2) + (uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(s2, s2));
}

__attribute__((target("avx512f,avx512bw")))
static inline void mj_hand_masks_avx512(const uint8_t* h, mj_masks_t* m) {
    /* one masked load of the 34 bytes: no byte past the row is read (faults are suppressed) */
    __m512i v = _mm512_maskz_loadu_epi8(0x3FFFFFFFFULL, h);
    __m512i sums = _mm512_sad_epu8(v, _mm512_setzero_si512());
    m->held = _mm512_test_epi8_mask(v, v);
    m->single = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(1));
    m->over4 = _mm512_cmpgt_epu8_mask(v, _mm512_set1_epi8(4)) != 0;
    m->n = (uint32_t)_mm512_reduce_add_epi64(sums);
}

__attribute__((target("avx2")))
static inline int mj_win_rows_avx2(const uint8_t* rows, size_t n, int forms, uint64_t size_mask, uint8_t* out,
                            mj_exact_win_fn exact, const void* tables) {
    MJ_WIN_ROWS_LOOP(mj_hand_masks_avx2)
}

__attribute__((target("avx512f,avx512bw")))
static inline int mj_win_rows_avx512(const uint8_t* rows, size_t n, int forms, uint64_t size_mask, uint8_t* out,
                              mj_exact_win_fn exact, const void* tables) {
    MJ_WIN_ROWS_LOOP(mj_hand_masks_avx512)
}

/* The best level this CPU and OS support (libgcc's check includes the OS's saving of the
 * vector registers). */
static inline int mj_simd_level(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return 2;
    if (__builtin_cpu_supports("avx2")) return 1;
    return 0;
}

static inline int mj_win_rows(int level, const uint8_t* rows, size_t n, int forms, uint64_t size_mask, uint8_t* out,
                       mj_exact_win_fn exact, const void* tables) {
    if (level >= 2) return mj_win_rows_avx512(rows, n, forms, size_mask, out, exact, tables);
    if (level == 1) return mj_win_rows_avx2(rows, n, forms, size_mask, out, exact, tables);
    return mj_win_rows_base(rows, n, forms, size_mask, out, exact, tables);
}

#else
#define MJ_HAVE_DISPATCH 0
static inline int mj_simd_level(void) { return 0; }
static inline int mj_win_rows(int level, const uint8_t* rows, size_t n, int forms, uint64_t size_mask, uint8_t* out,
                       mj_exact_win_fn exact, const void* tables) {
    (void)level;
    return mj_win_rows_base(rows, n, forms, size_mask, out, exact, tables);
}
#endif

#endif
