# cython: language_level=3
# Pieces shared by the game engines (_game.pyx: classical/basic/mcr; _amgame.pyx: American).
from libc.stdint cimport uint8_t, int32_t, uint32_t

from mjfast._kernels.rng cimport rng_t, rng_bounded16


cdef inline void shuffle_ids(uint8_t* wall, int n, rng_t* r) noexcept nogil:
    """wall[0..n) = a uniformly shuffled 0..n-1 (full Fisher-Yates on 16-bit bounded draws)."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n):
        wall[i] = <uint8_t>i
    for i in range(n - 1):
        j = i + <int>rng_bounded16(r, <uint32_t>(n - i))
        tmp = wall[i]
        wall[i] = wall[j]
        wall[j] = tmp


cdef inline void write_event(int32_t* ev, int* n_ev, int cap, int typ, int hand_no, int seat,
                             int a, int b) noexcept nogil:
    """Append one 5-int event (type, hand, seat, a, b) to a log of capacity cap (ev may be NULL:
    no log); events past the capacity are dropped."""
    cdef int32_t* e
    if ev == NULL or n_ev[0] >= cap:
        return
    e = ev + 5 * n_ev[0]
    e[0] = typ
    e[1] = hand_no
    e[2] = seat
    e[3] = a
    e[4] = b
    n_ev[0] += 1
