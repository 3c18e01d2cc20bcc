# cython: language_level=3
"""Win-by-turn Monte Carlo kernels (private; the public API is mjfast.winturn).

One sample = one player alone with a wall: the unseen tiles in uniformly random order, T
draws, no calls. After each draw the player wins if the hand is complete; otherwise the
policy (below) keeps or discards the drawn tile, and the discard leaves play. Sample ``i``
draws its wall order from its own stream ``rng_seed_stream(k0, k1, i)`` (partial
Fisher-Yates, Lemire's exact bounded integers), so results never depend on threads or chunks.

Policy "greedy" (policy code 0), the one the exact dynamic programme of mjfast.winturn uses:
  * win as soon as the hand is complete;
  * keep the drawn tile only when the hand with it has a lower shanten (it is an effective
    tile); then discard, among the tiles whose discard leaves that lowest shanten, the one
    leaving the most unseen effective tiles (unseen = still in the wall from the player's
    point of view), the lowest tile index on ties;
  * otherwise discard the drawn tile at once.
Policy "first" (code 1): the same, but among the lowest-shanten discards always the lowest
tile index (no look at the unseen counts).
Policy "greedy_swap" (code 2): the game engine's greedy discard after every draw: among all
discards of the 14 tiles (the drawn one included) the lowest shanten, then the most unseen
effective tiles, then the lowest index; so it also trades tiles at equal shanten to widen its
waits (Monte Carlo only).
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int16_t, uint32_t, uint64_t

from mjfast._kernels.rng cimport rng_t, rng_seed_stream, rng_bounded16
from mjfast._kernels.hand_types cimport mj_tables_t
from mjfast._kernels.hand_tables cimport c_tables
from mjfast._kernels.hand cimport shanten_counts

cnp.import_array()

cdef enum:
    MAX_POOL = 136
    MAX_DRAWS = 136
    POLICY_GREEDY = 0
    POLICY_FIRST = 1
    POLICY_SWAP = 2


cdef inline int ukeire(uint8_t* h, const int* pc, int base, int forms, const mj_tables_t* t) noexcept nogil:
    """Unseen copies (pc) of the kinds that lower the shanten of the 3k+1 hand h below base."""
    cdef int e, u = 0
    for e in range(34):
        if pc[e] > 0 and h[e] < 4:
            h[e] += 1
            if shanten_counts(h, forms, t) < base:
                u += pc[e]
            h[e] -= 1
    return u


cdef inline int choose_discard(uint8_t* h, const int* pc, int forms, int policy, const mj_tables_t* t,
                               int* best_s_out) noexcept nogil:
    """Discard of the 3k+2 hand h: lowest shanten, then most unseen effective tiles (greedy),
    then the lowest index. Returns the kind; the resulting shanten goes to best_s_out."""
    cdef int d, s, u, best_s = 99, best_u = -1, best_d = -1, n_best = 0
    cdef int sh[34]
    for d in range(34):
        sh[d] = 99
        if h[d]:
            h[d] -= 1
            sh[d] = shanten_counts(h, forms, t)
            h[d] += 1
            if sh[d] < best_s:
                best_s = sh[d]
                n_best = 0
            if sh[d] == best_s:
                n_best += 1
    for d in range(34):
        if sh[d] != best_s:
            continue
        if policy == POLICY_FIRST or n_best == 1:     # nothing to compare
            best_d = d
            break
        h[d] -= 1
        u = ukeire(h, pc, best_s, forms, t)
        h[d] += 1
        if u > best_u:
            best_u = u
            best_d = d
    best_s_out[0] = best_s
    return best_d


cdef inline void play_one(const uint8_t* hand0, const int* pool0, const uint8_t* draws, int n_draws,
                          int forms, int policy, const mj_tables_t* t,
                          int16_t* win_turn, int16_t* tenpai_turn) noexcept nogil:
    """Play the draw sequence ``draws`` (kinds) from the 3k+1 hand hand0 with pool counts pool0.

    win_turn: first draw (1-based) at which the hand is complete, n_draws + 1 if none.
    tenpai_turn: first draw after which the shanten is <= 0 (0 if tenpai at the start).
    """
    cdef uint8_t h[40]
    cdef int pc[34]
    cdef int k, i, x, s, sx, d, sd
    for k in range(34):
        h[k] = hand0[k]
        pc[k] = pool0[k]
    for k in range(34, 40):
        h[k] = 0
    s = shanten_counts(h, forms, t)
    win_turn[0] = <int16_t>(n_draws + 1)
    tenpai_turn[0] = 0 if s <= 0 else <int16_t>(n_draws + 1)
    for i in range(n_draws):
        x = draws[i]
        pc[x] -= 1
        h[x] += 1
        sx = shanten_counts(h, forms, t)
        if sx < 0:
            win_turn[0] = <int16_t>(i + 1)
            if tenpai_turn[0] > i + 1:
                tenpai_turn[0] = <int16_t>(i + 1)
            return
        if sx < s or policy == POLICY_SWAP:
            d = choose_discard(h, pc, forms, policy, t, &sd)
            h[d] -= 1
            s = sd
            if s <= 0 and tenpai_turn[0] > i + 1:
                tenpai_turn[0] = <int16_t>(i + 1)
        else:
            h[x] -= 1


cdef inline void random_draws(rng_t* r, const uint8_t* pool_tiles, int n_pool, int n_draws, uint8_t* out) noexcept nogil:
    """First n_draws tiles of a uniformly random order of pool_tiles (partial Fisher-Yates)."""
    cdef uint8_t buf[MAX_POOL]
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n_pool):
        buf[i] = pool_tiles[i]
    for i in range(n_draws):
        j = i + <int>rng_bounded16(r, <uint32_t>(n_pool - i))
        tmp = buf[i]
        buf[i] = buf[j]
        buf[j] = tmp
        out[i] = buf[i]


cdef void sample_one(uint64_t stream, uint64_t k0, uint64_t k1, const uint8_t* hand0, const int* pool0,
                     const uint8_t* pool_tiles, int n_pool, int n_draws, int forms, int policy,
                     const mj_tables_t* t, int16_t* win_turn, int16_t* tenpai_turn) noexcept nogil:
    cdef rng_t r
    cdef uint8_t draws[MAX_DRAWS]
    rng_seed_stream(&r, k0, k1, stream)
    random_draws(&r, pool_tiles, n_pool, n_draws, draws)
    play_one(hand0, pool0, draws, n_draws, forms, policy, t, win_turn, tenpai_turn)


def winturn_batch(Py_ssize_t n, uint64_t start, uint64_t k0, uint64_t k1, const uint8_t[::1] hand,
                  const int[::1] pool, int n_draws, int forms, int policy,
                  int16_t[::1] win_turn, int16_t[::1] tenpai_turn, int threads):
    """Samples start .. start+n-1 of one hand: first win / tenpai draw of each into the outputs."""
    cdef const mj_tables_t* t = c_tables()
    cdef Py_ssize_t i
    cdef int k, c, n_pool = 0
    cdef uint8_t[::1] tiles_ = np.empty(MAX_POOL, dtype=np.uint8)
    for k in range(34):
        for c in range(pool[k]):
            tiles_[n_pool] = k
            n_pool += 1
    if n == 0:
        return
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=256, num_threads=threads):
            sample_one(start + i, k0, k1, &hand[0], &pool[0], &tiles_[0], n_pool, n_draws, forms, policy, t,
                       &win_turn[i], &tenpai_turn[i])


cdef void random_start_one(uint64_t stream, uint64_t k0, uint64_t k1, int hand_size, int n_draws, int forms,
                           int policy, const mj_tables_t* t, int8_t* start_shanten, int16_t* win_turn,
                           int16_t* tenpai_turn) noexcept nogil:
    """A random hand of hand_size tiles from the 136, then n_draws draws from the rest."""
    cdef rng_t r
    cdef uint8_t order[MAX_POOL]
    cdef uint8_t all_tiles[MAX_POOL]
    cdef uint8_t h[40]
    cdef int pc[34]
    cdef int k, i
    for i in range(MAX_POOL):
        all_tiles[i] = i >> 2
    rng_seed_stream(&r, k0, k1, stream)
    random_draws(&r, all_tiles, MAX_POOL, hand_size + n_draws, order)
    for k in range(40):
        h[k] = 0
    for k in range(34):
        pc[k] = 4
    for i in range(hand_size):
        h[order[i]] += 1
        pc[order[i]] -= 1
    start_shanten[0] = <int8_t>shanten_counts(h, forms, t)
    play_one(h, pc, order + hand_size, n_draws, forms, policy, t, win_turn, tenpai_turn)


def random_start_batch(Py_ssize_t n, uint64_t start, uint64_t k0, uint64_t k1, int hand_size, int n_draws,
                       int forms, int policy, cnp.int8_t[::1] start_shanten, int16_t[::1] win_turn,
                       int16_t[::1] tenpai_turn, int threads):
    """Samples start .. start+n-1 with random starting hands (3k+1 tiles) from the 136-tile set."""
    cdef const mj_tables_t* t = c_tables()
    cdef Py_ssize_t i
    if n == 0:
        return
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=256, num_threads=threads):
            random_start_one(start + i, k0, k1, hand_size, n_draws, forms, policy, t, &start_shanten[i],
                             &win_turn[i], &tenpai_turn[i])


def play_walls(const uint8_t[::1] hand, const int[::1] pool, const uint8_t[:, ::1] draws, int forms, int policy,
               int16_t[::1] win_turn, int16_t[::1] tenpai_turn):
    """Play given draw sequences (rows of kinds; tests and scripted walls), serially."""
    cdef const mj_tables_t* t = c_tables()
    cdef Py_ssize_t i
    cdef int n_draws = draws.shape[1]
    with nogil:
        for i in range(draws.shape[0]):
            play_one(&hand[0], &pool[0], &draws[i, 0], n_draws, forms, policy, t, &win_turn[i], &tenpai_turn[i])


def choose_discard_py(uint8_t[::1] hand, const int[::1] pool, int forms, int policy):
    """The policy's discard from a 3k+2 hand (kind, shanten after); tests and the Python wrapper."""
    cdef const mj_tables_t* t = c_tables()
    cdef uint8_t h[40]
    cdef int k, s, d
    for k in range(40):
        h[k] = hand[k] if k < 34 else 0
    d = choose_discard(h, &pool[0], forms, policy, t, &s)
    return d, s
