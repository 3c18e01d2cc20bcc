# cython: language_level=3
"""Inline kernels of American play: the exposure-aware distance to the beginner hand.

Kinds 0-33 are the standard kinds, 34 is "flower" (8 interchangeable tiles); jokers are
counted apart. A player with ``n_exp`` exposed sets of four (each of a different kind) needs
``3 - n_exp`` more sets of four and a pair from the other kinds; the exposed kinds' concealed
tiles are of no use to the hand.

The distance depends only on how many eligible kinds hold each count (``hist[c]`` = number of
non-exposed kinds with c concealed tiles, c = 1..8), the concealed jokers and ``n_exp``: the
best target uses the most numerous eligible kinds (the overlap is monotone in each chosen
kind's count, as in ``_american.pxd``), and only which of them is the pair is searched.
"""
from mjfast._hand cimport imin


cdef inline int am_dist_hist(const int* hist, int jokers, int n_exp) noexcept nogil:
    """Tiles missing for the beginner hand (14 tiles, exposures included; 0 = complete)."""
    cdef int need = 4 - n_exp, n = 0, c = 8, m, a, b, q, natural, room, ov, best = 0
    cdef int top[4]
    while n < need and c >= 1:
        m = hist[c]
        while m > 0 and n < need:
            top[n] = c
            n += 1
            m -= 1
        c -= 1
    while n < need:
        top[n] = 0
        n += 1
    for a in range(need):          # a = the pair kind among the chosen kinds
        natural = imin(top[a], 2)
        room = 0
        for b in range(need):
            if b != a:
                q = imin(top[b], 4)
                natural += q
                room += 4 - (q if q > 0 else 1)
        ov = natural + imin(jokers, room)
        if ov > best:
            best = ov
    return 14 - 4 * n_exp - best


cdef inline void am_hist(const unsigned char* hand, const unsigned char* excl, int* hist) noexcept nogil:
    """hist[c] = eligible (non-exposed) kinds with c concealed tiles (c = 0..8)."""
    cdef int k
    for k in range(9):
        hist[k] = 0
    for k in range(35):             # exposed kinds land in hist[0], which is never read
        hist[hand[k] & (<int>excl[k] - 1)] += 1
