# cython: language_level=3
"""Inline kernels of American play: the exposure-aware distance to the beginner hand.

Kinds 0-33 are the standard kinds, 34 is "flower" (8 interchangeable tiles); jokers are
counted apart. A player with ``n_exp`` exposed sets of four (each of a different kind) needs
``3 - n_exp`` more sets of four and a pair from the other kinds; the exposed kinds' concealed
tiles are of no use to the hand. ``keep`` is the joker reading of the concealed sets (see
american.pxd): 0 = a concealed set may be all jokers, 1 = each set keeps a natural tile; an
exposed set always holds the natural tile it was called with.

The distance depends only on how many eligible kinds hold each count (``hist[c]`` = number of
non-exposed kinds with c concealed tiles, c = 1..8), the concealed jokers and ``n_exp``: the
best target uses the most numerous eligible kinds (the overlap is monotone in each chosen
kind's count, as in ``_american.pxd``), and only which of them is the pair is searched.
"""
from mjfast._kernels.hand cimport imin


cdef inline void am_top(const int* hist, int n, int* top) noexcept nogil:
    """top[0..n-1] = the n largest counts of the histogram, descending (0 when fewer kinds)."""
    cdef int i = 0, c = 8, m
    while i < n and c >= 1:
        m = hist[c]
        while m > 0 and i < n:
            top[i] = c
            i += 1
            m -= 1
        c -= 1
    while i < n:
        top[i] = 0
        i += 1


cdef inline int am_overlap(const int* top, int need, int jokers, int keep) noexcept nogil:
    """Largest overlap with a target whose kinds hold top[0..need-1] tiles: one of them is the
    pair (at most 2 natural tiles), the others sets of four (at most 4 natural tiles, and
    jokers in the places left; keep = 1: each set keeps one natural place, keep = 0: a
    concealed set may be all jokers)."""
    cdef int a, q, s_nat = 0, s_room = 0, ov, best = 0
    for a in range(need):
        q = imin(top[a], 4)
        s_nat += q
        s_room += 4 - (q if q > keep else keep)
    for a in range(need):
        q = imin(top[a], 4)
        ov = s_nat - q + imin(top[a], 2) + imin(jokers, s_room - (4 - (q if q > keep else keep)))
        if ov > best:
            best = ov
    return best


cdef inline int am_dist_hist(const int* hist, int jokers, int n_exp, int keep) noexcept nogil:
    """Tiles missing for the beginner hand (14 tiles, exposures included; 0 = complete)."""
    cdef int top[4]
    am_top(hist, 4 - n_exp, top)
    return 14 - 4 * n_exp - am_overlap(top, 4 - n_exp, jokers, keep)


cdef inline void am_hist(const unsigned char* hand, const unsigned char* excl, int* hist) noexcept nogil:
    """hist[c] = eligible (non-exposed) kinds with c concealed tiles (c = 1..8; hist[0] unused).

    Counted value by value over the 34 standard kinds (a loop the compiler vectorizes: no
    increments of one memory cell chained through the loop), flowers apart."""
    cdef unsigned char v[34]
    cdef int k, c, n
    for k in range(34):
        v[k] = hand[k] & (<unsigned char>excl[k] - 1)
    hist[0] = 0
    for c in range(1, 5):
        n = 0
        for k in range(34):
            n += v[k] == c
        hist[c] = n
    for c in range(5, 9):
        hist[c] = 0
    c = hand[34] & (<int>excl[34] - 1)
    if c:
        hist[c] += 1
