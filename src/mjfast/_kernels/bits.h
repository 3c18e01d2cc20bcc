/* Small portable helpers for mjfast's Cython kernels: unaligned loads, popcount, SWAR base-5.
 *
 * Counts are stored one byte per kind (0..4). The SWAR helpers below rely on that bound:
 * adding 0x7F (or 0x7E, 0x7D, 0x7C) to a byte holding 0..4 never carries into the next byte.
 */
#ifndef MJFAST_BITS_H
#define MJFAST_BITS_H
#include <stdint.h>
#include <string.h>

/* Without a popcount instruction in the target (plain x86-64), the compiler builtin becomes a
 * slow library call, so use the SWAR version there. */
#if defined(__POPCNT__) || defined(__aarch64__) || defined(__ARM_NEON)
static inline int mj_popcount64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int mj_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

/* Zero 136 bytes at p (a deal's 4 x 34 counts), any alignment. gcc turns a memset of this
 * size into `rep stos`, whose start-up cost is most of a deal's bookkeeping; explicit vector
 * stores are much cheaper (a loop would be turned back into `rep stos`). */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline void mj_zero136(void* p) {
    __m128i z = _mm_setzero_si128();
    char* q = (char*)p;
    uint64_t z8 = 0;
    _mm_storeu_si128((__m128i*)(q + 0), z);
    _mm_storeu_si128((__m128i*)(q + 16), z);
    _mm_storeu_si128((__m128i*)(q + 32), z);
    _mm_storeu_si128((__m128i*)(q + 48), z);
    _mm_storeu_si128((__m128i*)(q + 64), z);
    _mm_storeu_si128((__m128i*)(q + 80), z);
    _mm_storeu_si128((__m128i*)(q + 96), z);
    _mm_storeu_si128((__m128i*)(q + 112), z);
    memcpy(q + 128, &z8, 8);
}
/* Zero 144 bytes at p (any alignment), same reason. */
static inline void mj_zero144(void* p) {
    uint64_t z8 = 0;
    mj_zero136(p);
    memcpy((char*)p + 136, &z8, 8);
}
#else
static inline void mj_zero136(void* p) { memset(p, 0, 136); }
static inline void mj_zero144(void* p) { memset(p, 0, 144); }
#endif

/* Ask for the cache line at p ahead of its use (never faults, whatever p points to). Streaming
 * loops over a batch need it: on some machines (virtual ones especially) the hardware
 * prefetcher does not keep up, and a kernel then waits on memory at every other row (the
 * winning check over 1 M rows went from 10 to 4 ns per row with it). MJ_PREFETCH_BYTES is how
 * far ahead a row loop asks. */
#define MJ_PREFETCH_BYTES 1536
#if defined(__GNUC__) || defined(__clang__)
#define mj_prefetch(p) __builtin_prefetch((const void*)(p))
#else
#define mj_prefetch(p) ((void)0)
#endif

/* Index of the lowest set bit of x (x != 0). */
#if defined(__GNUC__) || defined(__clang__)
static inline int mj_ctz64(uint64_t x) { return __builtin_ctzll(x); }
#else
static inline int mj_ctz64(uint64_t x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
#endif

/* 8 bytes from p, little-endian order (byte p[0] in the low bits), any alignment. */
static inline uint64_t mj_load64(const uint8_t* p) {
    uint64_t x;
    memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    x = __builtin_bswap64(x);
#endif
    return x;
}

/* p[0..7] = x, little-endian order (the inverse of mj_load64), any alignment. */
static inline void mj_store64(uint8_t* p, uint64_t x) {
#if defined(__BYTE_ORDER__) && (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    x = __builtin_bswap64(x);
#endif
    memcpy(p, &x, 8);
}

#define MJ_LANE_HI 0x8080808080808080ULL

/* 1 in each byte lane of x holding a value >= k, else 0 (k in 1..4; lanes hold 0..4). */
static inline uint64_t mj_ones_ge(uint64_t x, int k) {
    uint64_t add = 0x0101010101010101ULL * (uint64_t)(0x80 - k);
    return ((x + add) & MJ_LANE_HI) >> 7;
}

/* Four "thermometer" rows of 34 bytes: out[j * 34 + k] = (c[k] >= j + 1) for j = 0..3, from 34
 * counts c (each 0..4), eight lanes at a time (the last word overlaps the one before it). */
static inline void mj_thermo34(uint8_t* out, const uint8_t* c) {
    static const int at[5] = {0, 8, 16, 24, 26};
    uint64_t w[5];
    int i, j;
    for (i = 0; i < 5; i++) w[i] = mj_load64(c + at[i]);
    for (j = 0; j < 4; j++)
        for (i = 0; i < 5; i++) mj_store64(out + j * 34 + at[i], mj_ones_ge(w[i], j + 1));
}

/* sum_i byte_i * 5**i over the 8 byte lanes of x (each lane 0..4). */
static inline uint32_t mj_base5_8(uint64_t x) {
    x = (x & 0x00FF00FF00FF00FFULL) + ((x >> 8) & 0x00FF00FF00FF00FFULL) * 5u;
    x = (x & 0x0000FFFF0000FFFFULL) + ((x >> 16) & 0x0000FFFF0000FFFFULL) * 25u;
    return (uint32_t)((x & 0xFFFFFFFFULL) + (x >> 32) * 625u);
}

/* Sum of the 8 byte lanes of x (total must stay below 256). */
static inline uint32_t mj_lane_sum(uint64_t x) {
    return (uint32_t)((x * 0x0101010101010101ULL) >> 56);
}

/* Packed words: 3 bits per kind. Mask of bit 0 of each of the 9 fields. */
#define MJ_F0 0x09249249u
static inline int mj_popcount32(uint32_t x) { return mj_popcount64((uint64_t)x); }
/* fields with value >= 1, >= 2, >= 3, >= 4 (values 0..4, so bit 2 set means exactly 4) */
static inline uint32_t mj_fields_ge1(uint32_t w) { return (w | (w >> 1) | (w >> 2)) & MJ_F0; }
static inline uint32_t mj_fields_ge2(uint32_t w) { return ((w >> 1) | (w >> 2)) & MJ_F0; }
static inline uint32_t mj_fields_ge3(uint32_t w) { return ((w & (w >> 1)) | (w >> 2)) & MJ_F0; }
static inline uint32_t mj_fields_ge4(uint32_t w) { return (w >> 2) & MJ_F0; }
static inline uint32_t mj_fields_sum(uint32_t w) {
    /* add odd fields onto even ones (6-bit groups, each <= 8), then sum the groups by a
     * multiply that gathers them in bits 24..29 */
    uint32_t a = (w & 0x071C71C7u) + ((w >> 3) & 0x071C71C7u);
    return ((a * 0x01041041u) >> 24) & 63u;
}

#endif
