# cython: language_level=3
"""Per-hand kernels of the American beginner hand (inline; cimported by the batch modules).

Kinds: the 34 standard kinds plus "flower" (the 8 bonus tiles f1-f8 are one interchangeable
kind of 8 in the American game); jokers are counted apart.

The beginner hand is 3 sets of four + 1 pair of four different kinds (14 tiles). Jokers stand
in for tiles of a set of four, never in the pair. ``keep`` is the joker reading (the rules'
``all_joker_sets``): 0 = a concealed set may be all jokers (all_joker_sets=True, the default),
1 = each set keeps at least one natural tile (all_joker_sets=False). (An exposed set always holds
the natural tile it was called with; these kernels see concealed hands only.)
The number of tiles a hand shares with a target (its *overlap*) is monotone in each chosen
kind's count, so the best target uses the four most numerous kinds; only which of them is the
pair remains to be chosen. Everything below depends on the hand only through
``ge[k]`` = the number of kinds held at least ``k`` times (k = 1..4, the flower count capped
at 4) and the joker count.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from mjfast._kernels.hand cimport imin
from mjfast._kernels.bits cimport (
    mj_load64, mj_ones_ge, mj_lane_sum, mj_popcount32,
    mj_fields_ge1, mj_fields_ge2, mj_fields_ge3, mj_fields_ge4, mj_fields_sum,
)


cdef inline int american_distance_ge(int ge1, int ge2, int ge3, int ge4, int jokers, int keep) noexcept nogil:
    """Tiles missing for the beginner hand given ge1..ge4 (kinds held >= k times) and jokers.

    The i-th largest capped count is ``top[i] = #{k : ge[k] > i}``. With the pair on kind a of
    the top four, the sets hold the other three: naturals ``min(top[a], 2) + sum - top[a]``,
    and room for ``sum over the sets of 4 - max(top, keep)`` jokers (keep = 1: a set keeps a
    natural tile; keep = 0: a set may be all jokers).
    """
    cdef int top[4]
    cdef int i, a, total = 0, room = 0, ov, best = 0
    for i in range(4):
        top[i] = (ge1 > i) + (ge2 > i) + (ge3 > i) + (ge4 > i)
        total += top[i]
        room += 4 - (top[i] if top[i] > keep else keep)
    for a in range(4):          # a = index of the pair kind among the top four
        ov = (imin(top[a], 2) + total - top[a]
              + imin(jokers, room - (4 - (top[a] if top[a] > keep else keep))))
        best = ov if ov > best else best
    return 14 - best


cdef inline int american_distance(const uint8_t* hand, int flowers, int jokers, int keep) noexcept nogil:
    """Tiles missing for the American beginner hand: 3 sets of four + a pair, 4 different kinds.

    ``hand``: 34 standard counts (0..4); ``flowers``: flowers held (0..8, one kind);
    ``jokers``: jokers held; ``keep``: the joker reading (module docstring). Shanten = distance - 1.
    """
    cdef uint64_t wm = mj_load64(hand)
    cdef uint64_t wp = mj_load64(hand + 9)
    cdef uint64_t ws = mj_load64(hand + 18)
    cdef uint64_t wz = mj_load64(hand + 26) >> 8          # bytes 27..33, top lane 0
    cdef uint64_t extra = <uint64_t>hand[8] | (<uint64_t>hand[17] << 8) | (<uint64_t>hand[26] << 16)
    cdef int ge[5]
    cdef int k
    for k in range(1, 5):
        ge[k] = mj_lane_sum(mj_ones_ge(wm, k) + mj_ones_ge(wp, k) + mj_ones_ge(ws, k)
                            + mj_ones_ge(wz, k) + mj_ones_ge(extra, k)) + (flowers >= k)
    return american_distance_ge(ge[1], ge[2], ge[3], ge[4], jokers, keep)


cdef inline int american_distance_counts(const uint8_t* row, int keep) noexcept nogil:
    """Distance of a 43-count row of the extended model (34 standard, f1..f8, jokers)."""
    return american_distance(row, mj_lane_sum(mj_load64(row + 34)), row[42], keep)   # f1..f8: 0/1 each


cdef inline int american_distance_packed(const uint32_t* w, int keep) noexcept nogil:
    """Distance of a hand packed in 5 words (words 0-3 standard, word 4 bonus bits + jokers)."""
    cdef int s, ge1 = 0, ge2 = 0, ge3 = 0, ge4 = 0
    cdef int flowers = mj_popcount32(w[4] & 0xFF)
    for s in range(4):
        ge1 += mj_fields_sum(mj_fields_ge1(w[s]))
        ge2 += mj_fields_sum(mj_fields_ge2(w[s]))
        ge3 += mj_fields_sum(mj_fields_ge3(w[s]))
        ge4 += mj_fields_sum(mj_fields_ge4(w[s]))
    return american_distance_ge(ge1 + (flowers >= 1), ge2 + (flowers >= 2), ge3 + (flowers >= 3),
                                ge4 + (flowers >= 4), (w[4] >> 8) & 0xFF, keep)
