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
    game_t, FIRST_BONUS, PH_WINDOW, C_NONE, M_KONG_CONCEALED,
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


cdef inline double unit(rng_t* r) noexcept nogil:
    return <double>(rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline bint is_hidden(const uint8_t* hidden, int pos, int lo, int hi) noexcept nogil:
    if hidden != NULL:
        return hidden[pos] != 0
    return lo <= pos and pos <= hi


cdef int redraw(uint8_t* wall, int n_tiles, int lo, int hi, uint8_t (*hands)[48], const int* n_hand, int seat,
                int n_kinds, bint chinese, bint bonus_out, int* last_kind, rng_t* r,
                const float* wts=NULL, const uint8_t* hidden=NULL) noexcept nogil:
    """The shared redraw: hidden wall positions lo .. hi (or, hidden not NULL, the positions
    pos with hidden[pos]: the private walls of mcr-botzone), the hands of the seats other than
    `seat` (counts by kind, hands[s][k]); returns 0, or -1 when the position is inconsistent,
    -2 when the weights leave a hand slot no tile.

    wts (NULL: uniform): wts[s * 48 + k], the relative likelihood of kind k in seat s's hand.
    The hands are then filled seat by seat (seats ascending), tile by tile: each next tile is
    drawn among the holdable ids not yet placed with probability proportional to its kind's
    weight for that seat (weighted sampling without replacement); the wall gets the rest in a
    uniform order."""
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
                    if not is_hidden(hidden, pos, lo, hi) and not used[pos]:
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
    for pos in range(n_tiles):
        if is_hidden(hidden, pos, lo, hi):
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
    if wts == NULL:
        shuffle(holdable, n_hold, r)
    elif weighted_hands(holdable, n_hold, n_hand, seat, chinese, wts, r):
        return -2
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
    if hidden == NULL:
        for c in range(n_rest):
            wall[lo + c] = rest[c]
    else:
        c = 0
        for pos in range(n_tiles):
            if hidden[pos]:
                wall[pos] = rest[c]
                c += 1
    return 0


cdef int weighted_hands(uint8_t* holdable, int n_hold, const int* n_hand, int seat, bint chinese,
                        const float* wts, rng_t* r) noexcept nogil:
    """Moves the ids of the hands (seats ascending but `seat`, n_hand[s] each) to the front of
    holdable, each drawn with probability proportional to wts[s * 48 + its kind] among the ids
    not drawn yet. Returns -2 when a slot's remaining weight is zero.

    (The weights are float32 and their sums doubles: a sum of at most MAXT of them is exact,
    so the running total, less each drawn id's weight, is the total of the ids left.)"""
    cdef int j = 0, s, c, i, pick
    cdef double tot, u, acc, wk
    cdef uint8_t tmp
    cdef double wv[MAXT]
    cdef const float* w
    for s in range(4):
        if s == seat or n_hand[s] == 0:
            continue
        w = wts + s * 48
        tot = 0.0
        for i in range(j, n_hold):
            wv[i] = w[cn_kind(holdable[i]) if chinese else kind_of_id(holdable[i])]
            tot += wv[i]
        for c in range(n_hand[s]):
            if not tot > 0.0:
                return -2
            u = unit(r) * tot
            acc = 0.0
            pick = -1
            for i in range(j, n_hold):
                wk = wv[i]
                if wk > 0.0:
                    acc += wk
                    pick = i             # (rounding: the last id of positive weight)
                    if u < acc:
                        break
            tot -= wv[pick]
            tmp = holdable[j]
            holdable[j] = holdable[pick]
            holdable[pick] = tmp
            wk = wv[j]
            wv[j] = wv[pick]
            wv[pick] = wk
            j += 1
    return 0


cdef int sample_cn(game_t* g, int seat, rng_t* r, const float* wts, bint botzone) noexcept nogil:
    """Redraw g (a state record: its rules pointer is not valid here; botzone says whether its
    rules are mcr-botzone's private walls) from seat's view."""
    cdef uint8_t hands[4][48]
    cdef int n_hand[4]
    cdef int last[4]
    cdef int s, k, i
    for s in range(4):
        memset(hands[s], 0, 48)
        for k in range(34):
            hands[s][k] = g.p[s].hand[k]
        n_hand[s] = g.p[s].n_hand
    cdef uint8_t hidden[MAXT]
    cdef int part
    cdef const uint8_t* own = NULL
    if botzone:
        # four private walls: seat s's hidden tiles are [part s, part s + own_left[s])
        memset(hidden, 0, MAXT)
        part = g.n_tiles >> 2
        for s in range(4):
            for i in range(g.own_left[s]):
                hidden[part * s + i] = 1
        own = hidden
    cdef int rc = redraw(g.wall, g.n_tiles, g.front, g.back, hands, n_hand, seat, 34, True, g.n_tiles > 136, last,
                         r, wts, own)
    if rc:
        return rc
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


cdef int sample_am(amgame_t* g, int seat, rng_t* r, const float* wts=NULL) noexcept nogil:
    cdef uint8_t hands[4][48]
    cdef int n_hand[4]
    cdef int last[4]
    cdef int s, k
    for s in range(4):
        memset(hands[s], 0, 48)
        for k in range(NK):
            hands[s][k] = g.p[s].h[k]
        n_hand[s] = g.p[s].n_hand
    cdef int rc = redraw(g.wall, g.n_tiles, g.front, g.n_tiles - 1, hands, n_hand, seat, NK, False, False, last, r,
                         wts)
    if rc:
        return rc
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
                   uint64_t k0, uint64_t k1, uint64_t stream0, int threads, const float[:, :, ::1] weights=None,
                   Py_ssize_t per=1):
    """Redraw every record's hidden tiles from seats[j]'s view (in place). weights (None:
    uniform): (tables, 4, 48) relative likelihoods by kind of each seat's concealed tiles,
    record j using table j // per. Returns (records found inconsistent, records whose weights
    leave a hand slot no tile), both left as they were."""
    cdef Py_ssize_t j, n = data.shape[0]
    cdef int bad = 0, excluded = 0, rc
    cdef game_t* g
    cdef rng_t r
    cdef const float* wp = NULL
    cdef bint botzone = bool(kernel_rules.get("botzone", False))
    with nogil:
        for j in range(n):          # (serial: the redraw is cheap beside a rollout)
            g = <game_t*>&data[j, 0]
            rng_seed_stream(&r, k0, k1, stream0 + <uint64_t>j)
            if weights is not None:
                wp = &weights[j // per, 0, 0]
            rc = sample_cn(g, seats[j], &r, wp, botzone)
            if rc == -1:
                bad += 1
            elif rc:
                excluded += 1              # (the redraw writes nothing before it fails)
    return bad, excluded


def sample_american(uint8_t[:, ::1] data, Py_ssize_t book_at, Py_ssize_t scratch_at, const int8_t[::1] seats,
                    dict kernel_rules, uint64_t k0, uint64_t k1, uint64_t stream0, int threads,
                    const float[:, :, ::1] weights=None, Py_ssize_t per=1):
    """The American twin of sample_chinese; the redrawn seats' distances are recomputed under
    the rules (a card's scratch travels in the record at scratch_at)."""
    cdef amrules_t R = am_make_rules(kernel_rules)
    cdef Py_ssize_t j, n = data.shape[0], sc = card_scratch_bytes(&R)
    cdef int bad = 0, excluded = 0, s, rc
    cdef amgame_t* g
    cdef rng_t r
    cdef amgame_t* work
    cdef int16_t* vs = NULL
    cdef const float* wp = NULL
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
            if weights is not None:
                wp = &weights[j // per, 0, 0]
            rc = sample_am(work, seats[j], &r, wp)
            if rc:
                if rc == -1:
                    bad += 1
                else:
                    excluded += 1
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
    return bad, excluded


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
                  bint bonus_out, uint64_t k0, uint64_t k1, int trials, const float[:, ::1] weights=None):
    """Tests: the redraw of a small made-up position `trials` times (stream j for trial j),
    uniform or with weights (4, 48). Returns (walls (trials, n), hands (trials, 4, 48)) after
    each redraw."""
    cdef int n = wall.shape[0], j, s, k
    cdef uint8_t h[4][48]
    cdef int n_hand[4]
    cdef int last[4]
    cdef rng_t r
    cdef const float* wp = NULL
    if weights is not None:
        wp = &weights[0, 0]          # (a ternary would drop the const: a compiler warning)
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
        if redraw(&w[j, 0], n, lo, hi, h, n_hand, seat, 34 if chinese else NK, chinese, bonus_out, last, &r, wp):
            raise ValueError("inconsistent position")
        for s in range(4):
            for k in range(48):
                o[j, s, k] = h[s][k]
    return walls, out


# The built-in belief "discards" (issue 27: a user's belief about opponents' hands): relative
# likelihoods by kind of each seat's concealed tiles, from what everyone saw it do. A kind the
# seat discarded is less likely in its hand (it let one go: BELIEF_DISCARDED); a suited kind next
# to one of its first EARLY discards a little less (BELIEF_NEAR: an early discard is an isolated
# tile, its neighbours were not kept either); a suit it claimed a set of (chow, pung, exposed
# kong) more likely (BELIEF_CLAIMED_SUIT: it is building there). Jokers and bonus kinds stay 1.
cdef float BELIEF_DISCARDED = 0.3
cdef float BELIEF_NEAR = 0.7
cdef float BELIEF_CLAIMED_SUIT = 1.5
cdef int EARLY = 6


cdef void belief_cn(const game_t* g, float* out) noexcept nogil:
    cdef int s, i, d, k, suit
    cdef uint8_t seen[34]
    cdef uint8_t near[34]
    cdef uint8_t suits[3]
    cdef float* w
    for s in range(4):
        w = out + s * 48
        for k in range(48):
            w[k] = 1.0
        memset(seen, 0, 34)
        memset(near, 0, 34)
        memset(suits, 0, 3)
        for i in range(g.p[s].n_discards):
            d = g.p[s].discards[i]
            seen[d] = 1
            if i < EARLY and d < 27:
                if d % 9 > 0:
                    near[d - 1] = 1
                if d % 9 < 8:
                    near[d + 1] = 1
        for i in range(g.p[s].n_melds):
            if g.p[s].meld_type[i] != M_KONG_CONCEALED and g.p[s].meld_tile[i] < 27:
                suits[g.p[s].meld_tile[i] // 9] = 1
        for k in range(34):
            if seen[k]:
                w[k] *= BELIEF_DISCARDED
            elif near[k]:
                w[k] *= BELIEF_NEAR
            if k < 27 and suits[k // 9]:
                w[k] *= BELIEF_CLAIMED_SUIT


cdef void belief_am(const amgame_t* g, float* out) noexcept nogil:
    cdef int s, i, k
    cdef float* w
    for s in range(4):
        w = out + s * 48
        for k in range(48):
            w[k] = 1.0
        for i in range(g.p[s].n_disc):
            k = g.p[s].disc[i]
            if k < 35 and w[k] == 1.0:
                w[k] = BELIEF_DISCARDED


def belief_discards(uint8_t[:, ::1] data, bint chinese):
    """(n, 4, 48) float32: the belief "discards" of every record's four seats."""
    cdef Py_ssize_t j, n = data.shape[0]
    out = np.ones((n, 4, 48), np.float32)
    cdef float[:, :, ::1] o = out
    with nogil:
        for j in range(n):
            if chinese:
                belief_cn(<game_t*>&data[j, 0], &o[j, 0, 0])
            else:
                belief_am(<amgame_t*>&data[j, 0], &o[j, 0, 0])
    return out
