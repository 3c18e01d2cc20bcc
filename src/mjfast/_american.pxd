# cython: language_level=3
"""Per-hand kernels of the American beginner hand (inline; cimported by the batch modules).

Kinds: the 34 standard kinds plus "flower" (the 8 bonus tiles f1-f8 are one interchangeable
kind of 8 in the American game); jokers are counted apart.
"""
from libc.stdint cimport uint8_t
from mjfast._hand cimport imin


cdef inline int american_distance(const uint8_t* hand, int flowers, int jokers) noexcept nogil:
    """Tiles missing for the American beginner hand: 3 sets of four + a pair, 4 different kinds.

    Kinds: the 34 standard kinds and "flower" (8 interchangeable tiles). Jokers stand in for
    tiles of a set of four (each set keeps at least one natural tile), never in the pair. The
    overlap with a target is monotone in each chosen kind's count, so the best target uses the
    four most numerous kinds; only which of them is the pair remains to be chosen.
    """
    cdef int top[4]
    cdef int k, c, a, b, q, best = 0, natural, room, ov
    top[0] = top[1] = top[2] = top[3] = 0
    for k in range(35):
        c = flowers if k == 34 else hand[k]
        if c > top[3]:
            a = 3
            while a > 0 and top[a - 1] < c:
                top[a] = top[a - 1]
                a -= 1
            top[a] = c
    for a in range(4):          # a = index of the pair kind among the top four
        natural = imin(top[a], 2)
        room = 0
        for b in range(4):
            if b != a:
                q = imin(top[b], 4)
                natural += q
                room += 4 - (q if q > 0 else 1)
        ov = natural + imin(jokers, room)
        if ov > best:
            best = ov
    return 14 - best
