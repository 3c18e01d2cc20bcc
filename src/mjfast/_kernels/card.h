/* Per-variation arithmetic of the card kernels (mjfast-card/1 lines compiled to variations).
 *
 * A variation is two 48-byte demand rows over the 36 American kinds (0-33 standard, 34 flower,
 * 35 joker, 36-47 zero padding): R = tiles that must be natural (singles, pairs, and the one
 * natural each set of three or more keeps), F = places a natural or a joker may fill (the rest
 * of the sets of three or more). For a hand h (48 bytes, jokers at 35) with J jokers:
 *
 *     short_R = sum_k max(0, R_k - h_k)                      naturals still needed
 *     short_F = sum_k max(0, F_k - max(0, h_k - R_k))        flexible places still empty
 *     missing = short_R + max(0, short_F - J)
 *
 * which is optimal: naturals go to R places first (only they can), jokers only to F places.
 * The rows are read as three 16-byte vectors with saturating byte subtraction (SSE2, part of
 * the x86-64 baseline, so no runtime dispatch is needed) and summed with psadbw; other
 * targets use the scalar loop, which compilers vectorize the same way.
 */
#ifndef MJ_CARD_H
#define MJ_CARD_H
#include <stdint.h>
/* MJ_CARD_PORTABLE: the plain C path even where SSE2 is available (tests build it so) */
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(MJ_CARD_PORTABLE)
#include <emmintrin.h>
#define MJ_CARD_SSE2 1
#endif

#define MJ_CARD_ROW 48

/* One variation in one pass: short_R and short_F of hand h against R - sR and F - sF (sR, sF
 * may be NULL: no exposures), and, when u is not NULL, whether the variation can no longer be
 * completed: some natural it needs is not among the unseen tiles u (48 bytes; u[35] = unseen
 * jokers), or its empty flexible places outnumber the unseen naturals left for them plus every
 * joker held (J) or unseen. Returns that dead flag (0 when u is NULL). The NULL tests sit
 * outside the data flow: with constant arguments the wrappers below compile to the plain loop. */
static inline int mj_card_eval(const uint8_t* R, const uint8_t* F, const uint8_t* sR, const uint8_t* sF,
                               const uint8_t* h, const uint8_t* u, int J, int* sr, int* sf) {
#ifdef MJ_CARD_SSE2
    __m128i z = _mm_setzero_si128(), a = z, b = z, over = z, ex = z;
    int i, dead = 0;
    for (i = 0; i < MJ_CARD_ROW; i += 16) {
        __m128i r = _mm_loadu_si128((const __m128i*)(R + i));
        __m128i f = _mm_loadu_si128((const __m128i*)(F + i));
        __m128i x = _mm_loadu_si128((const __m128i*)(h + i));
        __m128i s1, s2;
        if (sR) {
            r = _mm_subs_epu8(r, _mm_loadu_si128((const __m128i*)(sR + i)));
            f = _mm_subs_epu8(f, _mm_loadu_si128((const __m128i*)(sF + i)));
        }
        s1 = _mm_subs_epu8(r, x);
        s2 = _mm_subs_epu8(f, _mm_subs_epu8(x, r));
        a = _mm_add_epi8(a, s1);
        b = _mm_add_epi8(b, s2);
        if (u) {
            __m128i un = _mm_loadu_si128((const __m128i*)(u + i));
            over = _mm_or_si128(over, _mm_subs_epu8(s1, un));
            ex = _mm_add_epi8(ex, _mm_subs_epu8(s2, _mm_subs_epu8(un, s1)));
        }
    }
    a = _mm_sad_epu8(a, z);
    b = _mm_sad_epu8(b, z);
    *sr = _mm_cvtsi128_si32(a) + _mm_extract_epi16(a, 4);
    *sf = _mm_cvtsi128_si32(b) + _mm_extract_epi16(b, 4);
    if (u) {
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(over, z)) != 0xFFFF)
            dead = 1;
        else {
            ex = _mm_sad_epu8(ex, z);
            dead = _mm_cvtsi128_si32(ex) + _mm_extract_epi16(ex, 4) > J + u[35];
        }
    }
    return dead;
#else
    int k, ra = 0, rb = 0, ex = 0, dead = 0;
    for (k = 0; k < MJ_CARD_ROW; k++) {
        int r = R[k], f = F[k], x = h[k], s1, s2, left;
        if (sR) {
            r = r > sR[k] ? r - sR[k] : 0;
            f = f > sF[k] ? f - sF[k] : 0;
        }
        left = x > r ? x - r : 0;
        s1 = r > x ? r - x : 0;
        s2 = f > left ? f - left : 0;
        ra += s1;
        rb += s2;
        if (u) {
            int av = u[k] > s1 ? u[k] - s1 : 0;
            if (s1 > u[k])
                dead = 1;
            ex += s2 > av ? s2 - av : 0;
        }
    }
    *sr = ra;
    *sf = rb;
    return dead || (u && ex > J + u[35]);
#endif
}

/* short_R and short_F of one variation (R, F: 48 bytes each) against hand h (48 bytes). */
static inline void mj_card_short(const uint8_t* R, const uint8_t* F, const uint8_t* h, int* sr, int* sf) {
    mj_card_eval(R, F, NULL, NULL, h, NULL, 0, sr, sf);
}

/* 1 when the variation can no longer be completed given the unseen tiles u (see mj_card_eval). */
static inline int mj_card_dead(const uint8_t* R, const uint8_t* F, const uint8_t* h, const uint8_t* u, int J) {
    int sr, sf;
    return mj_card_eval(R, F, NULL, NULL, h, u, J, &sr, &sf);
}

/* Engine cache update: one tile of kind k added (up = 1; h = the count before) or removed
 * (up = 0; h = the count before) for every variation v of a player's cache. rt/ft: the card's
 * demand of kind k for every variation (transposed tables), minus the player's exposures sRk /
 * sFk. A natural place absorbs the change first, then a flexible place, else nothing changes.
 * Unusable variations (sr >= 64) drift harmlessly within 64..127. 16 variations per step. */
static inline void mj_card_delta(uint8_t* sr, uint8_t* sf, const uint8_t* rt, const uint8_t* ft, int sRk, int sFk,
                                 int h, int up, int nvar) {
    int v = 0;
    int hh = up ? h : h - 1;           /* a place is affected when hh < its demand */
#ifdef MJ_CARD_SSE2
    __m128i z = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    __m128i vR = _mm_set1_epi8((char)sRk), vF = _mm_set1_epi8((char)sFk), vh = _mm_set1_epi8((char)hh);
    for (; v + 16 <= nvar; v += 16) {
        __m128i r = _mm_subs_epu8(_mm_loadu_si128((const __m128i*)(rt + v)), vR);
        __m128i f = _mm_subs_epu8(_mm_loadu_si128((const __m128i*)(ft + v)), vF);
        __m128i m1 = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_subs_epu8(r, vh), z), one);
        __m128i m2 = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_subs_epu8(_mm_adds_epu8(r, f), vh), z), one);
        __m128i a = _mm_loadu_si128((const __m128i*)(sr + v));
        __m128i b = _mm_loadu_si128((const __m128i*)(sf + v));
        m2 = _mm_andnot_si128(m1, m2);
        if (up) {
            a = _mm_sub_epi8(a, m1);
            b = _mm_sub_epi8(b, m2);
        } else {
            a = _mm_add_epi8(a, m1);
            b = _mm_add_epi8(b, m2);
        }
        _mm_storeu_si128((__m128i*)(sr + v), a);
        _mm_storeu_si128((__m128i*)(sf + v), b);
    }
#endif
    for (; v < nvar; v++) {
        int r = rt[v] > sRk ? rt[v] - sRk : 0;
        int f = ft[v] > sFk ? ft[v] - sFk : 0;
        uint8_t m1 = hh < r;
        uint8_t m2 = (uint8_t)(!m1 & (hh < r + f));
        if (up) {
            sr[v] -= m1;
            sf[v] -= m2;
        } else {
            sr[v] += m1;
            sf[v] += m2;
        }
    }
}

/* dv[v] = sr + max(0, sf - J) for usable variations (sr < 64), 255 otherwise; returns the minimum. */
static inline int mj_card_dv(const uint8_t* sr, const uint8_t* sf, int J, uint8_t* dv, int nvar) {
    int v = 0, best = 255;
#ifdef MJ_CARD_SSE2
    __m128i vJ = _mm_set1_epi8((char)J), lim = _mm_set1_epi8(63), m = _mm_set1_epi8((char)0xFF);
    for (; v + 16 <= nvar; v += 16) {
        __m128i a = _mm_loadu_si128((const __m128i*)(sr + v));
        __m128i b = _mm_loadu_si128((const __m128i*)(sf + v));
        __m128i d = _mm_or_si128(_mm_adds_epu8(a, _mm_subs_epu8(b, vJ)), _mm_cmpgt_epi8(a, lim));
        _mm_storeu_si128((__m128i*)(dv + v), d);
        m = _mm_min_epu8(m, d);
    }
    m = _mm_min_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_min_epu8(m, _mm_srli_si128(m, 4));
    m = _mm_min_epu8(m, _mm_srli_si128(m, 2));
    m = _mm_min_epu8(m, _mm_srli_si128(m, 1));
    best = _mm_cvtsi128_si32(m) & 0xFF;
#endif
    for (; v < nvar; v++) {
        int a = sr[v], b = sf[v];
        int d = a >= 64 ? 255 : a + (b > J ? b - J : 0);
        dv[v] = (uint8_t)d;
        best = d < best ? d : best;
    }
    return best;
}

#ifdef MJ_CARD_SSE2
/* out[i] = byte i of x in all 16 lanes (i = 0..15): a tree of unpacks, 3 per byte. */
static inline void mj_card_splat16(__m128i x, __m128i* out) {
    __m128i q[4];
    int i;
    __m128i lo = _mm_unpacklo_epi8(x, x), hi = _mm_unpackhi_epi8(x, x);
    q[0] = _mm_unpacklo_epi16(lo, lo);
    q[1] = _mm_unpackhi_epi16(lo, lo);
    q[2] = _mm_unpacklo_epi16(hi, hi);
    q[3] = _mm_unpackhi_epi16(hi, hi);
    for (i = 0; i < 4; i++) {
        __m128i a = _mm_unpacklo_epi32(q[i], q[i]), b = _mm_unpackhi_epi32(q[i], q[i]);
        out[4 * i] = _mm_unpacklo_epi64(a, a);
        out[4 * i + 1] = _mm_unpackhi_epi64(a, a);
        out[4 * i + 2] = _mm_unpacklo_epi64(b, b);
        out[4 * i + 3] = _mm_unpackhi_epi64(b, b);
    }
}
#endif

/* Line distances of one hand without exposures or unseen tiles, 16 variations at a time.
 *
 * With T = R + F, per kind max(0, R - h) + max(0, F - max(0, h - R)) = max(0, T - h), so a
 * variation misses  max(short_R, short_T - J)  tiles (short_T = sum_k max(0, T_k - h_k)): the
 * formula of mj_card_eval, from two demand rows and no dependent subtraction.
 *
 * The variations are stored in blocks of 16 (the last one padded with empty variations), kind-major
 * within a block: entry e is 16 bytes of R then 16 bytes of T of kind kind16[e] / 16, one byte per
 * variation, for the kinds some variation of the block demands (the others add nothing); block b's
 * entries are off[b] .. off[b + 1]. kind16 holds 16 x the kind: the byte offset of the kind's
 * broadcast count in the per-hand table. dv[16 b + i] = tiles variation 16 b + i misses (padding
 * variations: 0). h: 48 bytes, jokers at 35. */
static inline void mj_card_blocks_dv(const uint8_t* data, const uint16_t* kind16, const int32_t* off, int nblocks,
                                     const uint8_t* h, uint8_t* dv) {
    int b;
#ifdef MJ_CARD_SSE2
    __m128i hk[48];
    const char* hb = (const char*)hk;
    __m128i vJ = _mm_set1_epi8((char)h[35]);
    for (b = 0; b < 3; b++)
        mj_card_splat16(_mm_loadu_si128((const __m128i*)(h + 16 * b)), hk + 16 * b);
#define MJ_HK(o) (*(const __m128i*)(hb + (o)))
    for (b = 0; b < nblocks; b++) {
        __m128i a0 = _mm_setzero_si128(), t0 = a0;
        const __m128i* p = (const __m128i*)(data + 32 * (size_t)off[b]);
        const uint16_t* k = kind16 + off[b];
        const uint16_t* end = kind16 + off[b + 1];
        for (; k + 2 <= end; k += 2, p += 4) {             /* two entries per step, summed first */
            __m128i x0 = MJ_HK(k[0]), x1 = MJ_HK(k[1]);
            __m128i s0 = _mm_add_epi8(_mm_subs_epu8(_mm_loadu_si128(p), x0), _mm_subs_epu8(_mm_loadu_si128(p + 2), x1));
            __m128i s1 = _mm_add_epi8(_mm_subs_epu8(_mm_loadu_si128(p + 1), x0),
                                      _mm_subs_epu8(_mm_loadu_si128(p + 3), x1));
            a0 = _mm_add_epi8(s0, a0);
            t0 = _mm_add_epi8(s1, t0);
        }
        if (k < end) {
            __m128i x0 = MJ_HK(k[0]);
            a0 = _mm_add_epi8(a0, _mm_subs_epu8(_mm_loadu_si128(p), x0));
            t0 = _mm_add_epi8(t0, _mm_subs_epu8(_mm_loadu_si128(p + 1), x0));
        }
        _mm_storeu_si128((__m128i*)(dv + 16 * (size_t)b), _mm_max_epu8(a0, _mm_subs_epu8(t0, vJ)));
    }
#undef MJ_HK
#else
    int e, i, J = h[35];
    for (b = 0; b < nblocks; b++) {
        uint8_t a[16] = {0}, t[16] = {0};
        for (e = off[b]; e < off[b + 1]; e++) {
            const uint8_t* r = data + 32 * (size_t)e;
            int x = h[kind16[e] >> 4];
            for (i = 0; i < 16; i++) {
                a[i] += r[i] > x ? r[i] - x : 0;
                t[i] += r[16 + i] > x ? r[16 + i] - x : 0;
            }
        }
        for (i = 0; i < 16; i++) {
            int s = t[i] > J ? t[i] - J : 0;
            dv[16 * (size_t)b + i] = (uint8_t)(a[i] > s ? a[i] : s);
        }
    }
#endif
}

/* The minimum of dv[lo .. hi) (255 when empty); dv must be readable 16 bytes past lo. */
static inline int mj_card_min(const uint8_t* dv, int lo, int hi) {
#ifdef MJ_CARD_SSE2
    __m128i x;
    int v;
    if (hi - lo >= 16) {
        x = _mm_loadu_si128((const __m128i*)(dv + lo));
        for (v = lo + 16; v + 16 <= hi; v += 16)
            x = _mm_min_epu8(x, _mm_loadu_si128((const __m128i*)(dv + v)));
        x = _mm_min_epu8(x, _mm_loadu_si128((const __m128i*)(dv + hi - 16)));     /* the tail, overlapping */
    } else {
        /* bytes hi - lo .. 15 of the load lie past the range: set them to 255 */
        __m128i idx = _mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        __m128i past = _mm_cmpgt_epi8(idx, _mm_set1_epi8((char)(hi - lo - 1)));
        x = _mm_or_si128(_mm_loadu_si128((const __m128i*)(dv + lo)), past);
    }
    x = _mm_min_epu8(x, _mm_srli_si128(x, 8));
    x = _mm_min_epu8(x, _mm_srli_si128(x, 4));
    x = _mm_min_epu8(x, _mm_srli_si128(x, 2));
    x = _mm_min_epu8(x, _mm_srli_si128(x, 1));
    return _mm_cvtsi128_si32(x) & 0xFF;
#else
    int m = 255, v;
    for (v = lo; v < hi; v++)
        m = dv[v] < m ? dv[v] : m;
    return m;
#endif
}

#if defined(_MSC_VER)
#include <intrin.h>
static inline int mj_card_ctz(unsigned x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
#else
static inline int mj_card_ctz(unsigned x) { return __builtin_ctz(x); }
#endif

/* idx[0..n) = the variations with dv[v] == L, in order; returns n. */
static inline int mj_card_level(const uint8_t* dv, int nvar, int L, int32_t* idx) {
    int v = 0, n = 0;
#ifdef MJ_CARD_SSE2
    __m128i vL = _mm_set1_epi8((char)L);
    for (; v + 16 <= nvar; v += 16) {
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(dv + v)), vL));
        while (mask) {
            idx[n++] = v + mj_card_ctz(mask);
            mask &= mask - 1;
        }
    }
#endif
    for (; v < nvar; v++)
        if (dv[v] == L)
            idx[n++] = v;
    return n;
}

#endif
