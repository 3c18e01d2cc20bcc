# cython: language_level=3
"""Worlds sampled from one seat's view (private; the Python front is mjfast.search).

Every function works on state records (states.pxd: the game struct first, its pointers zeroed)
in place, one random stream per record: record j draws from stream ``stream0 + j`` of the key
(k0, k1), so a world depends only on (seed, its row), never on the thread that makes it.

What a seat has not seen is redrawn, uniformly over the consistent assignments of tile ids:
the ids in the hidden wall positions (Chinese: the live and dead walls, front .. back; American:
front .. end) and the ids of the other seats' concealed tiles (the engine keeps hands as counts
by kind: their ids are taken from the drawn positions of the wall, which hold every tile that
left it) are pooled; the hands' slots get a uniformly ordered draw of the pool's ids that may be
held (no bonus tile when bonus tiles are set aside at once), the wall's positions a uniform
shuffle of the rest, and the ids that went to hands take the drawn positions the pool emptied
(the wall stays a permutation of the tile set). Everything the seat saw is kept: its hand,
every discard, exposure and bonus tile, each seat's tile count, the wall's lengths.

Caches of the redrawn seats (Chinese: the greedy policy's wait memory; American: the hand's
distance, the Charleston plan, the card caches) are reset or recomputed, and answers other seats
gave in the claim window before the seat was asked (hidden) are dropped.
"""
import numpy as np
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from mjfast._kernels.rng cimport rng_t, rng_seed_stream, rng_next, rng_bounded
from mjfast._kernels.states cimport BOOK_STATUS, BOOK_ACTING
from mjfast._kernels.chinese_game cimport (
    game_t, FIRST_BONUS, PH_WINDOW, C_NONE,
)
from mjfast._kernels.american_game cimport (
    amgame_t, amrules_t, amplayer_t, make_rules as am_make_rules, card_scratch_bytes, game_dist, kind_of_id,
    PH_CALLS, NK,
)

cdef enum:
    MAXT = 192
    W_NONE = 0


cdef inline void shuffle(uint8_t* a, int n, rng_t* r) noexcept nogil:
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1):
        j = i + <int>rng_bounded(r, <uint32_t>(n - i))
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


cdef inline int cn_kind(int t) noexcept nogil:
    return t >> 2 if t < FIRST_BONUS else 34 + (t - FIRST_BONUS)


cdef int redraw(uint8_t* wall, int n_tiles, int lo, int hi, uint8_t (*hands)[48], const int* n_hand, int seat,
                int n_kinds, bint chinese, bint bonus_out, int* last_kind, rng_t* r) noexcept nogil:
    """The shared redraw: hidden wall positions lo .. hi, the hands of the seats other than
    `seat` (counts by kind, hands[s][k]); returns 0, or -1 when the position is inconsistent."""
    cdef uint8_t pool[MAXT]
    cdef uint8_t holdable[MAXT]
    cdef uint8_t rest[MAXT]
    cdef int freed[MAXT]
    cdef uint8_t used[MAXT]
    cdef uint8_t present[MAXT]
    cdef int n_pool = 0, n_free = 0, n_hold = 0, n_rest = 0, s, k, c, j, pos, t, need = 0, kk
    memset(used, 0, MAXT)
    for s in range(4):
        last_kind[s] = -1
        if s == seat:
            continue
        for k in range(n_kinds):
            c = hands[s][k]
            pos = 0
            while c > 0:
                # the next drawn position holding an id of kind k
                while pos < n_tiles:
                    if (pos < lo or pos > hi) and not used[pos]:
                        t = wall[pos]
                        kk = cn_kind(t) if chinese else kind_of_id(t)
                        if kk == k:
                            break
                    pos += 1
                if pos >= n_tiles:
                    return -1
                used[pos] = 1
                freed[n_free] = pos
                n_free += 1
                pool[n_pool] = wall[pos]
                n_pool += 1
                c -= 1
        need += n_hand[s]
    for pos in range(lo, hi + 1):
        pool[n_pool] = wall[pos]
        n_pool += 1
    # (advise, issue 27 item 6) the pool in id order before the shuffles: its order above follows
    # where the hidden tiles really are; sorted, a world depends only on the seat's view, the
    # seed and its row (ids of one kind are interchangeable: kinds ascend with ids)
    memset(present, 0, MAXT)
    for j in range(n_pool):
        present[pool[j]] = 1
    n_pool = 0
    for t in range(MAXT):
        if present[t]:
            pool[n_pool] = <uint8_t>t
            n_pool += 1
    for j in range(n_pool):
        t = pool[j]
        if bonus_out and chinese and t >= FIRST_BONUS:
            rest[n_rest] = t
            n_rest += 1
        else:
            holdable[n_hold] = t
            n_hold += 1
    if n_hold < need:
        return -1
    shuffle(holdable, n_hold, r)
    # the hands: the first `need` holdable ids, seat by seat
    j = 0
    for s in range(4):
        if s == seat:
            continue
        for k in range(n_kinds):
            hands[s][k] = 0
        for c in range(n_hand[s]):
            t = holdable[j]
            kk = cn_kind(t) if chinese else kind_of_id(t)
            hands[s][kk] += 1
            last_kind[s] = kk
            wall[freed[j]] = <uint8_t>t
            j += 1
    for c in range(need, n_hold):
        rest[n_rest] = holdable[c]
        n_rest += 1
    shuffle(rest, n_rest, r)
    for c in range(n_rest):
        wall[lo + c] = rest[c]
    return 0


cdef int sample_cn(game_t* g, int seat, rng_t* r) noexcept nogil:
    cdef uint8_t hands[4][48]
    cdef int n_hand[4]
    cdef int last[4]
    cdef int s, k, i
    for s in range(4):
        memset(hands[s], 0, 48)
        for k in range(34):
            hands[s][k] = g.p[s].hand[k]
        n_hand[s] = g.p[s].n_hand
    if redraw(g.wall, g.n_tiles, g.front, g.back, hands, n_hand, seat, 34, True, g.n_tiles > 136, last, r):
        return -1
    for s in range(4):
        if s == seat:
            continue
        for k in range(34):
            g.p[s].hand[k] = hands[s][k]
        g.p[s].wait_sh = -1
        memset(g.p[s].wv_key, 0, sizeof(g.p[s].wv_key))
        g.win_ok[s] = W_NONE
        if g.cur == s and g.drawn_kind >= 0:
            g.drawn_kind = last[s]       # the tile it just drew: one of its (redrawn) tiles
    if g.t.phase == PH_WINDOW:
        # the answers of seats asked before `seat` are hidden: dropped (passes)
        for i in range(1, 4):
            s = (g.discarder + i) & 3
            if i < g.ci and s != seat:
                g.window[s] = C_NONE
    return 0


cdef int sample_am(amgame_t* g, int seat, rng_t* r) noexcept nogil:
    cdef uint8_t hands[4][48]
    cdef int n_hand[4]
    cdef int last[4]
    cdef int s, k
    for s in range(4):
        memset(hands[s], 0, 48)
        for k in range(NK):
            hands[s][k] = g.p[s].h[k]
        n_hand[s] = g.p[s].n_hand
    if redraw(g.wall, g.n_tiles, g.front, g.n_tiles - 1, hands, n_hand, seat, NK, False, False, last, r):
        return -1
    for s in range(4):
        if s == seat:
            continue
        for k in range(NK):
            g.p[s].h[k] = hands[s][k]
        g.p[s].plan_valid = 0
        g.c_snap_exp[s] = -1
        if g.cur == s:
            g.pick_d = -1
            if g.drawn >= 0:
                g.drawn = last[s]
    if g.t.phase == PH_CALLS and g.caller >= 0 and g.caller != seat:
        g.caller = -1                    # a hidden call of a seat asked before `seat`: dropped
    return 0


def sample_chinese(uint8_t[:, ::1] data, Py_ssize_t book_at, const int8_t[::1] seats, dict kernel_rules,
                   uint64_t k0, uint64_t k1, uint64_t stream0, int threads):
    """Redraw every record's hidden tiles from seats[j]'s view (in place). Returns the number
    of records found inconsistent (left as they were)."""
    cdef Py_ssize_t j, n = data.shape[0]
    cdef int bad = 0
    cdef game_t* g
    cdef rng_t r
    with nogil:
        for j in range(n):          # (serial: the redraw is cheap beside a rollout)
            g = <game_t*>&data[j, 0]
            rng_seed_stream(&r, k0, k1, stream0 + <uint64_t>j)
            if sample_cn(g, seats[j], &r):
                bad += 1
    return bad


def sample_american(uint8_t[:, ::1] data, Py_ssize_t book_at, Py_ssize_t scratch_at, const int8_t[::1] seats,
                    dict kernel_rules, uint64_t k0, uint64_t k1, uint64_t stream0, int threads):
    """The American twin of sample_chinese; the redrawn seats' distances are recomputed under
    the rules (a card's scratch travels in the record at scratch_at)."""
    cdef amrules_t R = am_make_rules(kernel_rules)
    cdef Py_ssize_t j, n = data.shape[0], sc = card_scratch_bytes(&R)
    cdef int bad = 0, s
    cdef amgame_t* g
    cdef rng_t r
    cdef amgame_t* work
    cdef int16_t* vs = NULL
    work = <amgame_t*>malloc(sizeof(amgame_t))
    if sc:
        vs = <int16_t*>malloc(sc)
    try:
        for j in range(n):          # (serial: one scratch; the redraw is cheap beside a rollout)
            g = <amgame_t*>&data[j, 0]
            rng_seed_stream(&r, k0, k1, stream0 + <uint64_t>j)
            memcpy(work, g, sizeof(amgame_t))
            work.R = &R
            if sc:
                memcpy(vs, &data[j, 0] + scratch_at, sc)
                work.vs = vs
                _am_pointers(work)
            if sample_am(work, seats[j], &r):
                bad += 1
                continue
            for s in range(4):
                if s != seats[j]:
                    work.p[s].d = game_dist(work, &work.p[s])
            if sc:
                memcpy(&data[j, 0] + scratch_at, vs, sc)
            work.R = NULL
            work.vs = NULL
            work.c_sr = work.c_sf = work.c_dv = NULL
            work.c_near = NULL
            memcpy(g, work, sizeof(amgame_t))
    finally:
        free(work)
        free(vs)
    return bad


cdef void _am_pointers(amgame_t* g) noexcept nogil:
    cdef uint8_t* b = <uint8_t*>(g.vs + 2 * g.R.c_nvar + 5 * g.R.c_lines + 8)
    cdef int V = g.R.c_nvar
    g.c_sr = b
    g.c_sf = b + 4 * V
    g.c_dv = b + 8 * V
    g.c_near = <int32_t*>(b + 9 * V + (-(9 * V) & 3))


def rekey(uint8_t[:, ::1] data, uint64_t k0, uint64_t k1, uint64_t stream0, uint64_t policy_salt):
    """New streams for every record (its header at offset 0): record j's key for later hands
    and its bots' stream come from stream stream0 + j of (k0, k1)."""
    cdef Py_ssize_t j, n = data.shape[0]
    cdef rng_t r
    cdef uint64_t* hdr
    cdef rng_t* prng
    for j in range(n):
        hdr = <uint64_t*>&data[j, 0]          # game_index, k0, k1, prng (engine.pxd table_t)
        rng_seed_stream(&r, k0 ^ 0x3C6EF372FE94F82B, k1, stream0 + <uint64_t>j)
        hdr[1] = rng_next(&r)
        hdr[2] = rng_next(&r)
        prng = <rng_t*>&hdr[3]
        rng_seed_stream(prng, hdr[1] ^ policy_salt, hdr[2], hdr[0])


from mjfast._kernels.chinese_game cimport POLICY_SALT as CN_SALT
from mjfast._kernels.american_game cimport POLICY_SALT as AM_SALT

SALTS = {"chinese": <uint64_t>CN_SALT, "american": <uint64_t>AM_SALT}


def redraw_trials(const uint8_t[::1] wall, int lo, int hi, const uint8_t[:, ::1] hands, int seat, bint chinese,
                  bint bonus_out, uint64_t k0, uint64_t k1, int trials):
    """Tests: the redraw of a small made-up position `trials` times (stream j for trial j).
    Returns (walls (trials, n), hands (trials, 4, 48)) after each redraw."""
    cdef int n = wall.shape[0], j, s, k
    cdef uint8_t h[4][48]
    cdef int n_hand[4]
    cdef int last[4]
    cdef rng_t r
    walls = np.zeros((trials, n), np.uint8)
    out = np.zeros((trials, 4, 48), np.uint8)
    cdef uint8_t[:, ::1] w = walls
    cdef uint8_t[:, :, ::1] o = out
    for j in range(trials):
        for s in range(4):
            n_hand[s] = 0
            for k in range(48):
                h[s][k] = hands[s, k]
                n_hand[s] += hands[s, k]
        for k in range(n):
            w[j, k] = wall[k]
        rng_seed_stream(&r, k0, k1, <uint64_t>j)
        if redraw(&w[j, 0], n, lo, hi, h, n_hand, seat, 34 if chinese else NK, chinese, bonus_out, last, &r):
            raise ValueError("inconsistent position")
        for s in range(4):
            for k in range(48):
                o[j, s, k] = h[s][k]
    return walls, out
