/* The hot loop of mjfast's standard deals: a partial Fisher-Yates shuffle of the 136 standard
 * tiles, the drawn tiles added as counts per kind. Written in C only so that the draws can be
 * fully unrolled (`#pragma GCC unroll`): with the draw index a constant, the bound n = 136 - i,
 * the pool slot i and the value index are immediates, which halves the instructions per draw
 * (the loop was throughput bound, not latency bound).
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

#define MJ_DEAL_MAX_VALUES 64

/* Store the four 16-bit quarters of x at v[0..3], low quarter first (rng_next16's order). */
static inline void mj_store_quarters(uint16_t* v, uint64_t x) {
#if defined(__BYTE_ORDER__) && (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    v[0] = (uint16_t)x; v[1] = (uint16_t)(x >> 16); v[2] = (uint16_t)(x >> 32); v[3] = (uint16_t)(x >> 48);
#else
    memcpy(v, &x, 8);
#endif
}

/* Draw number I (a constant after unrolling) into counts h: `p` points at the value of draw 0
 * shifted by the rejections so far, `last` is the index of the deal's last draw. */
#define MJ_DEAL136_DRAW(I, h)                                                              \
    do {                                                                                   \
        const uint32_t n_ = 136u - (uint32_t)(I);                                          \
        uint32_t m_ = (uint32_t)p[(I)] * n_;                                               \
        size_t k_;                                                                         \
        size_t t_;                                                                         \
        if ((m_ & 0xFFFFu) < n_) {                                                         \
            const uint32_t threshold_ = (65536u - n_) % n_;                                \
            while ((m_ & 0xFFFFu) < threshold_) {                                          \
                p++;                                                                       \
                if (p - v + last >= n_values) return -1;                                   \
                m_ = (uint32_t)p[(I)] * n_;                                                \
            }                                                                              \
        }                                                                                  \
        k_ = (size_t)(m_ >> 16) + (I);   /* size_t: I folds into the address */            \
        t_ = pool[k_];                                                                     \
        pool[k_] = pool[(I)];                                                              \
        (h)[t_] += 1;                                                                      \
    } while (0)

/* Deal East (14 tiles) and South (13), and with seats == 4 also West and North (13 each),
 * from the 136 standard tiles; add each seat's tiles to counts[34 s + kind] (the caller zeroes
 * them). kinds136[id] = id / 4. Returns 0, or -1 if the n_values prepared values ran out. */
static inline int mj_deal136_counts(const uint16_t* v, int n_values, const uint8_t* kinds136,
                                    int seats, uint8_t* counts) {
    uint8_t pool[136];
    const uint16_t* p = v;
    const int last = seats == 4 ? 52 : 26;
    int i;
    if (n_values <= last) return -1;
    memcpy(pool, kinds136, 136);
#pragma GCC unroll 14
    for (i = 0; i < 14; i++) MJ_DEAL136_DRAW(i, counts);
#pragma GCC unroll 13
    for (i = 14; i < 27; i++) MJ_DEAL136_DRAW(i, counts + 34);
    if (seats == 4) {
#pragma GCC unroll 13
        for (i = 27; i < 40; i++) MJ_DEAL136_DRAW(i, counts + 68);
#pragma GCC unroll 13
        for (i = 40; i < 53; i++) MJ_DEAL136_DRAW(i, counts + 102);
    }
    return 0;
}

#undef MJ_DEAL136_DRAW
#endif
