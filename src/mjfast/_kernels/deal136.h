/* The hot loop of mjfast's standard deals: a partial Fisher-Yates shuffle of the 136 standard
 * tiles, the drawn tiles counted per kind. Written in C so that the draws can be fully
 * unrolled (`#pragma GCC unroll`): with the draw index a constant, the bound n = 136 - i,
 * the pool slot i and the value index are immediates.
 *
 * The random values come prepared (`v`, the stream's 16-bit values in order, as rng_next16
 * returns them); the kernel uses exactly the stream `draw()` in _deal.pyx uses: value j of the
 * deal is tried for the next draw, Lemire's multiply-shift with rejection on 16 bits. A
 * rejection consumes one more value. If the prepared values run out (more than
 * n_values - draws rejections: one deal in 9 million with 56 values), the kernel returns -1
 * and the caller deals the same stream through the generic path.
 */
#ifndef MJFAST_DEAL136_H
#define MJFAST_DEAL136_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>
/* MJ_DEAL136_PORTABLE: the plain C path even where SSE2 is available (tests build it so) */
#if defined(__SSE2__) && (defined(__x86_64__) || defined(_M_X64)) && !defined(MJ_DEAL136_PORTABLE)
#define MJ_DEAL136_SSE2 1
#include <emmintrin.h>
#endif

#define MJ_DEAL_MAX_VALUES 64

/* Store the four 16-bit quarters of x at v[0..3], low quarter first (rng_next16's order). */
static inline void mj_store_quarters(uint16_t* v, uint64_t x) {
#if defined(__BYTE_ORDER__) && (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    v[0] = (uint16_t)x; v[1] = (uint16_t)(x >> 16); v[2] = (uint16_t)(x >> 32); v[3] = (uint16_t)(x >> 48);
#else
    memcpy(v, &x, 8);
#endif
}

#if defined(__GNUC__) || defined(__clang__)
#define MJ_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define MJ_ALWAYS_INLINE static inline
#endif

/* The random values of deal `stream`: n64 outputs of its xoshiro256** stream, as 4 n64
 * 16-bit values in rng_next16's order. Exactly rng_seed_stream then rng_next of rng.pxd
 * (the reference; the golden-hash tests compare every deal), written here too so that the
 * compiler always inlines it: in the large statistics loop it called rng_seed_stream and
 * passed the state through memory. */
MJ_ALWAYS_INLINE uint64_t mj_splitmix64_(uint64_t* x) {
    uint64_t z;
    *x += 0x9E3779B97F4A7C15ULL;
    z = *x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

MJ_ALWAYS_INLINE void mj_deal_values(uint64_t k0, uint64_t k1, uint64_t stream, int n64, uint16_t* v) {
    uint64_t a = k0 ^ (stream * 0xD1B54A32D192ED03ULL);
    uint64_t b = k1 + stream;
    const uint64_t m = mj_splitmix64_(&b);
    uint64_t s0, s1, s2, s3;
    int j;
    a ^= m;
    s0 = mj_splitmix64_(&a);
    s1 = mj_splitmix64_(&a);
    s2 = mj_splitmix64_(&a) ^ m;
    s3 = mj_splitmix64_(&a);
    if ((s0 | s1 | s2 | s3) == 0) s0 = 1;    /* the one forbidden state */
    for (j = 0; j < n64; j++) {
        const uint64_t x = s1 * 5;
        const uint64_t t = s1 << 17;
        mj_store_quarters(v + 4 * j, ((x << 7) | (x >> 57)) * 9);
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 45) | (s3 >> 19);
    }
}

/* Why the draws look like this (measured on a 2-vCPU Intel Sapphire Rapids VM, where the
 * previous form, counts[t] += 1 in memory in every draw, took ~185 ns per 4-seat deal against
 * ~88 ns on the AMD machine of bench/README; C harness, gcc -O3, same values and results):
 *
 * - The swaps' aliasing is the cost. In a shuffle, a load often reads a pool slot that an
 *   earlier draw of the same deal stored (k of an earlier draw, or slot i); ~10 such loads per
 *   deal. With the pool stores sent to a second array (wrong results, no aliasing) the deal
 *   took ~53 ns, as without any pool store. This core pays for such loads far more than the
 *   instruction counts show (no hardware counters here to say which stall it is).
 * - A store whose address depends on the loaded tile in every draw made it much worse:
 *   counts[t] = 1 (a plain store, no read-modify-write) was as slow as counts[t] += 1
 *   (173 vs 183 ns), a register sum of t instead took 80 ns. So pass 2 keeps the counts in
 *   registers: four-bit fields, kinds 0..31 in two 64-bit words (one SSE2 register on
 *   x86-64) and kinds 32, 33 in a third, added from a table per kind and turned into count
 *   bytes once per seat (a seat holds at most 14 tiles, 4 of a kind: no field overflows).
 *   Field of kind r (0..15) in its word: bits 8 (r & 7) + 4 (r >> 3), so that the low
 *   nibbles of the eight bytes are kinds 0..7 and the high nibbles kinds 8..15.
 * - Computing all positions first (pass 1) and swapping afterwards (pass 2) was a few percent
 *   faster than one pass (and writes nothing when the values run out); gcc may interleave
 *   the two again. What is left of the aliasing cost: ~20 ns per 4-seat deal (positions
 *   crafted never to alias: 73 ns, random: 93 ns); forcing the loads behind the stores'
 *   addresses (a dependency chain) or an lfence between the passes only added latency.
 * - Not causes here: the 136-byte pool copy (8 vector moves, not rep movsb; byte stores or
 *   a fence after it changed nothing) and the value preparation (~18 ns per deal with the
 *   seeding, mostly the xoshiro/splitmix chains).
 */
#define MJ_DEAL136_POS(I)                                                                  \
    do {                                                                                   \
        const uint32_t n_ = 136u - (uint32_t)(I);                                          \
        uint32_t m_ = (uint32_t)p[(I)] * n_;                                               \
        if ((m_ & 0xFFFFu) < n_) {                                                         \
            const uint32_t threshold_ = (65536u - n_) % n_;                                \
            while ((m_ & 0xFFFFu) < threshold_) {                                          \
                p++;                                                                       \
                if (p - v + last >= n_values) return -1;                                   \
                m_ = (uint32_t)p[(I)] * n_;                                                \
            }                                                                              \
        }                                                                                  \
        pos[(I)] = (m_ >> 16) + (I);                                                       \
    } while (0)

/* The pool holds 4 x kind (kinds136[id] = id & ~3), so that the tables below are indexed by
 * the pool byte with the addressing mode's scale (16 = 4 x 4 and 8 = 4 x 2 bytes per kind)
 * instead of a shift and an add per draw. MJ_COUNT_INC01[kind]: the increments of the words
 * of kinds 0..15 and 16..31; MJ_COUNT_INCX[kind]: of the word of kinds 32, 33. */
#define MJ_NIB_(r) (1ULL << (8 * ((r) & 7) + 4 * ((r) >> 3)))
#define MJ_INC01_(k) {{ (k) < 16 ? MJ_NIB_((k) & 15) : 0, ((k) >= 16 && (k) < 32) ? MJ_NIB_((k) & 15) : 0 }}
#define MJ_INCX_(k) ((k) >= 32 ? 1ULL << (8 * ((k) & 1)) : 0)
typedef struct { uint64_t w[2]; } mj_count_inc_t;
#if defined(__GNUC__) || defined(__clang__)
__attribute__((aligned(16)))
#endif
/* X(0), X(1), ..., X(33): one entry per kind */
#define MJ_KINDS8_(X, k) X(k), X((k) + 1), X((k) + 2), X((k) + 3), X((k) + 4), X((k) + 5), X((k) + 6), X((k) + 7)
#define MJ_KINDS34_(X) MJ_KINDS8_(X, 0), MJ_KINDS8_(X, 8), MJ_KINDS8_(X, 16), MJ_KINDS8_(X, 24), X(32), X(33)
static const mj_count_inc_t MJ_COUNT_INC01[34] = {MJ_KINDS34_(MJ_INC01_)};
static const uint64_t MJ_COUNT_INCX[34] = {MJ_KINDS34_(MJ_INCX_)};
#undef MJ_KINDS34_
#undef MJ_KINDS8_
#undef MJ_INC01_
#undef MJ_INCX_
#undef MJ_NIB_
/* the increments of the pool byte t4 = 4 x kind */
#define MJ_INC01_AT(t4) ((const void*)((const char*)MJ_COUNT_INC01 + 4 * (t4)))
#define MJ_INCX_AT(t4) (*(const uint64_t*)((const char*)MJ_COUNT_INCX + 2 * (t4)))

/* Scalar form of the fields to bytes: 8 bytes of counts from the low or high nibbles. */
static inline void mj_store_nibbles_(uint8_t* dst, uint64_t x) {
#if defined(__BYTE_ORDER__) && (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    int b;
    for (b = 0; b < 8; b++) dst[b] = (uint8_t)((x >> (8 * b)) & 0x0F);
#else
    x &= 0x0F0F0F0F0F0F0F0FULL;
    memcpy(dst, &x, 8);
#endif
}

/* The seat's count words as standard_counts / classify3 in deal.pyx load them from the count
 * bytes h: h[0..7], h[9..16], h[18..25], h[27..33] (top byte 0), and h[8] | h[17] << 8 |
 * h[26] << 16; from the low and high nibbles of the two words of kinds 0..15 and 16..31
 * (lo0: kinds 0..7, hi0: 8..15, lo1: 16..23, hi1: 24..31) and x (kinds 32, 33). Handing the
 * words over in 8-byte stores that the caller loads whole avoids the failed store-to-load
 * forwarding of 8-byte loads across the 16-byte stores of the count bytes. */
static inline void mj_seat_words_(uint64_t lo0, uint64_t hi0, uint64_t lo1, uint64_t hi1, uint64_t x,
                                  uint64_t* w) {
    w[0] = lo0;
    w[1] = (hi0 >> 8) | (lo1 << 56);
    w[2] = (lo1 >> 16) | (hi1 << 48);
    w[3] = (hi1 >> 24) | ((x & 0xFFFF) << 40);
    w[4] = (hi0 & 0xFF) | (lo1 & 0xFF00) | (hi1 & 0xFF0000);
}

#if defined(MJ_DEAL136_SSE2)
#define MJ_SEAT_DECL __m128i a_ = _mm_setzero_si128(); uint64_t x_ = 0
#define MJ_SEAT_ADD(t4) do { a_ = _mm_add_epi64(a_, _mm_load_si128((const __m128i*)MJ_INC01_AT(t4))); \
                             x_ += MJ_INCX_AT(t4); } while (0)
#define MJ_SEAT_STORE(s) do {                                                              \
        const __m128i m_ = _mm_set1_epi8(0x0F);                                            \
        const __m128i lo_ = _mm_and_si128(a_, m_);                                         \
        const __m128i hi_ = _mm_and_si128(_mm_srli_epi64(a_, 4), m_);                      \
        if (words) {                                                                       \
            mj_seat_words_((uint64_t)_mm_cvtsi128_si64(lo_), (uint64_t)_mm_cvtsi128_si64(hi_), \
                           (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(lo_, lo_)),      \
                           (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(hi_, hi_)), x_,  \
                           words + 5 * (s));                                               \
        } else {                                                                           \
            uint8_t* d_ = counts + 34 * (s);                                               \
            const uint16_t z_ = (uint16_t)x_;                                              \
            _mm_storeu_si128((__m128i*)d_, _mm_unpacklo_epi64(lo_, hi_));                  \
            _mm_storeu_si128((__m128i*)(d_ + 16), _mm_unpackhi_epi64(lo_, hi_));           \
            memcpy(d_ + 32, &z_, 2);                                                       \
        }                                                                                  \
        a_ = _mm_setzero_si128(); x_ = 0;                                                  \
    } while (0)
#else
#define MJ_SEAT_DECL uint64_t a0_ = 0, a1_ = 0, x_ = 0
#define MJ_SEAT_ADD(t4) do { const uint64_t* i_ = (const uint64_t*)MJ_INC01_AT(t4);              \
                             a0_ += i_[0]; a1_ += i_[1]; x_ += MJ_INCX_AT(t4); } while (0)
#define MJ_SEAT_STORE(s) do {                                                              \
        if (words) {                                                                       \
            const uint64_t m_ = 0x0F0F0F0F0F0F0F0FULL;                                     \
            mj_seat_words_(a0_ & m_, (a0_ >> 4) & m_, a1_ & m_, (a1_ >> 4) & m_, x_,       \
                           words + 5 * (s));                                               \
        } else {                                                                           \
            uint8_t* d_ = counts + 34 * (s);                                               \
            mj_store_nibbles_(d_, a0_); mj_store_nibbles_(d_ + 8, a0_ >> 4);               \
            mj_store_nibbles_(d_ + 16, a1_); mj_store_nibbles_(d_ + 24, a1_ >> 4);         \
            d_[32] = (uint8_t)x_; d_[33] = (uint8_t)(x_ >> 8);                             \
        }                                                                                  \
        a0_ = 0; a1_ = 0; x_ = 0;                                                          \
    } while (0)
#endif

/* Pass 2, draw I: the tile at position pos[I] is drawn and replaced by the one at slot I. */
#define MJ_DEAL136_SWAP(I)                                                                 \
    do {                                                                                   \
        const size_t k_ = pos[(I)];                                                        \
        const size_t t_ = pool[k_];                                                        \
        pool[k_] = pool[(I)];                                                              \
        MJ_SEAT_ADD(t_);                                                                   \
    } while (0)

/* The kernel: counts (seat s at counts[34 s .. 34 s + 33]) if words is NULL, else words
 * (seat s at words[5 s .. 5 s + 4], see mj_seat_words_). Inlined with constant arguments. */
static inline int mj_deal136_run_(const uint16_t* v, int n_values, const uint8_t* kinds136,
                                  int seats, uint8_t* counts, uint64_t* words) {
    uint8_t pool[136];
    uint32_t pos[56];
    const uint16_t* p = v;
    const int last = seats == 4 ? 52 : 26;
    int i;
    MJ_SEAT_DECL;
    if (n_values <= last) return -1;
    if (seats == 4) {             /* (two blocks: one test of seats for the compiler) */
#pragma GCC unroll 53
        for (i = 0; i < 53; i++) MJ_DEAL136_POS(i);
        memcpy(pool, kinds136, 136);
#pragma GCC unroll 14
        for (i = 0; i < 14; i++) MJ_DEAL136_SWAP(i);
        MJ_SEAT_STORE(0);
#pragma GCC unroll 13
        for (i = 14; i < 27; i++) MJ_DEAL136_SWAP(i);
        MJ_SEAT_STORE(1);
#pragma GCC unroll 13
        for (i = 27; i < 40; i++) MJ_DEAL136_SWAP(i);
        MJ_SEAT_STORE(2);
#pragma GCC unroll 13
        for (i = 40; i < 53; i++) MJ_DEAL136_SWAP(i);
        MJ_SEAT_STORE(3);
    } else {
#pragma GCC unroll 27
        for (i = 0; i < 27; i++) MJ_DEAL136_POS(i);
        memcpy(pool, kinds136, 136);
#pragma GCC unroll 14
        for (i = 0; i < 14; i++) MJ_DEAL136_SWAP(i);
        MJ_SEAT_STORE(0);
#pragma GCC unroll 13
        for (i = 14; i < 27; i++) MJ_DEAL136_SWAP(i);
        MJ_SEAT_STORE(1);
    }
    return 0;
}

/* Deal East (14 tiles) and South (13), and with seats == 4 also West and North (13 each),
 * from the 136 standard tiles; write each seat's tiles as counts to counts[34 s + kind] (all
 * 34 bytes of every dealt seat are written: no zeroing needed). kinds136[id] = 4 (id / 4). Returns
 * 0, or -1 (nothing written) if the n_values prepared values ran out. */
static inline int mj_deal136_counts(const uint16_t* v, int n_values, const uint8_t* kinds136,
                                    int seats, uint8_t* counts) {
    return mj_deal136_run_(v, n_values, kinds136, seats, counts, (uint64_t*)0);
}

/* East and South only, as count words: words[5 e + j] for seat e, see mj_seat_words_. */
static inline int mj_deal136_words(const uint16_t* v, int n_values, const uint8_t* kinds136,
                                   uint64_t* words) {
    return mj_deal136_run_(v, n_values, kinds136, 2, (uint8_t*)0, words);
}

#undef MJ_DEAL136_POS
#undef MJ_DEAL136_SWAP
#undef MJ_SEAT_DECL
#undef MJ_SEAT_ADD
#undef MJ_SEAT_STORE
#undef MJ_INC01_AT
#undef MJ_ALWAYS_INLINE
#undef MJ_DEAL136_SSE2
#undef MJ_INCX_AT
#endif
