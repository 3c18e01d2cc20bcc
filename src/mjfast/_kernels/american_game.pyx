# cython: language_level=3
"""The American family's game engine (beginner hand): Charleston, play, calls, joker exchange
(private; the Python front is mjfast.game, ``mjfast.simulate(..., rules="american")``).

A game is ``hands_per_game`` hands; hand ``h`` of game ``g`` shuffles its whole set (144 tiles
+ jokers, physical ids: 0-135 standard, 136-143 flowers, 144.. jokers) with the stream
``(k0, k1, g * 64 + h)``; built-in policies draw from a second stream of the game
(key k0 ^ POLICY_SALT), so a game is a pure function of (seed, game index, policies).

The game is a resumable state machine (engine.pxd): `advance` plays until a seat that is not a
built-in policy must decide, and resumes after `apply`. Its position is `t.phase` and the
fields of amgame_t below `exp_jokers`; a phase asks its question before it changes anything,
or keeps what it did in those fields.

Kinds here: 0-33 standard, 34 = flower (the 8 flowers are one kind), 35 = joker.
The rules as played are documented in mjfast/game/american.py (module docstring), docs/rules.md
and the README ("American play").
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from mjfast._kernels.rng cimport rng_t, rng_seed_stream, rng_bounded16
from mjfast._kernels.engine cimport (
    table_t, Table, shuffle_ids, log_event, ask, illegal, start_table, run_batch, SUSPEND,
    POL_RANDOM, POL_GREEDY, POL_EXTERNAL, ADV_DONE, ADV_DECIDE, ADV_ERROR, ADV_HAND, HANDS_STREAM,
    ASK_DISCARD, ASK_CLAIM, ASK_OWN_TURN, ASK_PASS, ASK_SECOND, ASK_COURTESY_OFFER, ASK_COURTESY,
    EV_HAND, EV_DEAL, EV_PASS, EV_RECEIVE, EV_BLIND, EV_SECOND, EV_DRAW, EV_DISCARD, EV_CALL,
    EV_EXCHANGE, EV_WIN, EV_WALL_GAME, EV_DEAD, EV_SCORE, EV_COURTESY,
    OUT_SCORE, OUT_WINS, OUT_SELF_DRAWN, OUT_DEAL_INS, OUT_HANDS, OUT_TURNS, OUT_DRAWS, OUT_FAMILY,
)
from mjfast._kernels.hand cimport imin
from mjfast._kernels.american cimport american_distance
from mjfast._kernels.american_play cimport am_dist_hist, am_hist, am_top, am_overlap
from libc.stdint cimport int8_t, int16_t
from mjfast._kernels.card cimport mj_card_eval, mj_card_delta, mj_card_dv, mj_card_level
from libc.stdlib cimport malloc, free

cnp.import_array()

OUT_WIDTH = N_OUT
OUT_COLUMNS = {"jokerless": OUT_JOKERLESS, "dead": OUT_DEAD, "calls": OUT_CALLS, "exchanges": OUT_EXCHANGES,
               "second_charleston": OUT_SECOND, "courtesy_tiles": OUT_COURTESY, "distance_before": DIST_BEFORE,
               "distance_after": DIST_AFTER}


cdef inline void log_ev(amgame_t* g, int typ, int seat, int a, int b) noexcept nogil:
    log_event(&g.t, typ, seat, a, b)


cdef inline int next_live(amgame_t* g, int s) noexcept nogil:
    cdef int i, t
    for i in range(1, 5):
        t = (s + i) & 3
        if not g.p[t].dead:
            return t
    return -1


# ------------------------------------------------------------------------------------------
# card play (rules with a card, g.R.c_lines > 0): distances to the card's lines
#
# Per-game output columns after N_OUT, c_lines each (CARD_COLUMNS): wins by line, jokerless wins
# by line, the sums over players of the line's distance after the deal and after the Charleston,
# the sums of their squares, and the sum of the squared change (the paired Charleston effect).

cdef inline void card_subs(amgame_t* g, amplayer_t* p, uint8_t* sR, uint8_t* sF) noexcept nogil:
    """The demand a player's exposures take off every variation that matches them."""
    cdef int j, k, keep = 0 if g.R.c_all_joker else 1
    memset(sR, 0, HROW)
    memset(sF, 0, HROW)
    for j in range(p.n_exp):
        k = p.exp_kind[j]
        sR[k] += keep
        sF[k] += p.exp_size[j] - keep


cdef inline bint card_match(amgame_t* g, amplayer_t* p, int v) noexcept nogil:
    """Every exposure of p is one of variation v's sets of three or more (each used once)."""
    cdef const int8_t* xk = g.R.c_xk + 4 * v
    cdef const int8_t* xs = g.R.c_xs + 4 * v
    cdef int e, j, used = 0
    for e in range(p.n_exp):
        for j in range(4):
            if not (used >> j) & 1 and xs[j] == p.exp_size[e] and xk[j] == p.exp_kind[e]:
                used |= 1 << j
                break
        else:
            return False
    return True


cdef int card_eval(amgame_t* g, amplayer_t* p, int16_t* line_out) noexcept nogil:
    """Distance of p's hand (exposures included) to the card, evaluated afresh: the minimum over
    the variations that match its exposures (open lines only once it has exposed); the distance
    of every line into line_out when it is not NULL. (The turns use the cached path below.)"""
    cdef uint8_t sR[HROW]
    cdef uint8_t sF[HROW]
    cdef const uint8_t* pR = NULL
    cdef const uint8_t* pF = NULL
    cdef const uint8_t* row
    cdef int l, v, sr, sf, d, best = CARD_DEAD, lb, J = p.h[JOKER]
    if p.n_exp:
        card_subs(g, p, sR, sF)
        pR = sR
        pF = sF
    for l in range(g.R.c_lines):
        lb = CARD_DEAD
        if not (p.n_exp and g.R.c_flags[l] & 1):
            for v in range(g.R.c_line_start[l], g.R.c_line_start[l + 1]):
                if p.n_exp and not card_match(g, p, v):
                    continue
                row = g.R.c_rows + <Py_ssize_t>v * 96
                mj_card_eval(row, row + HROW, pR, pF, p.h, NULL, 0, &sr, &sf)
                d = sr + (sf - J if sf > J else 0)
                if d < lb:
                    lb = d
        if line_out != NULL:
            line_out[l] = <int16_t>lb
        if lb < best:
            best = lb
    return best


# the cached path: each seat keeps its per-variation shortfalls and updates them by the tiles
# that changed since (a pass over the variations per tile, no demand rows read), so a turn
# costs a few passes over bytes instead of a full evaluation of every variation

cdef void card_full(amgame_t* g, int s) noexcept nogil:
    """Rebuild seat s's cache from its hand and exposures."""
    cdef amplayer_t* p = &g.p[s]
    cdef int V = g.R.c_nvar, l, v, a, b
    cdef uint8_t* sr = g.c_sr + <Py_ssize_t>s * V
    cdef uint8_t* sf = g.c_sf + <Py_ssize_t>s * V
    cdef uint8_t sR[HROW]
    cdef uint8_t sF[HROW]
    cdef const uint8_t* pR = NULL
    cdef const uint8_t* pF = NULL
    cdef const uint8_t* row
    if p.n_exp:
        card_subs(g, p, sR, sF)
        pR = sR
        pF = sF
    for l in range(g.R.c_lines):
        for v in range(g.R.c_line_start[l], g.R.c_line_start[l + 1]):
            if p.n_exp and (g.R.c_flags[l] & 1 or not card_match(g, p, v)):
                sr[v] = 99
                sf[v] = 0
                continue
            row = g.R.c_rows + <Py_ssize_t>v * 96
            mj_card_eval(row, row + HROW, pR, pF, p.h, NULL, 0, &a, &b)
            sr[v] = <uint8_t>a
            sf[v] = <uint8_t>b
    memcpy(g.c_snap[s], p.h, HROW)
    g.c_snap_exp[s] = p.n_exp


cdef void card_sync(amgame_t* g, int s) noexcept nogil:
    """Bring seat s's cache in step with its hand (a rebuild after a new exposure)."""
    cdef amplayer_t* p = &g.p[s]
    cdef int V = g.R.c_nvar, k
    cdef uint8_t* sr = g.c_sr + <Py_ssize_t>s * V
    cdef uint8_t* sf = g.c_sf + <Py_ssize_t>s * V
    cdef uint8_t* snap = g.c_snap[s]
    cdef uint8_t sR[HROW]
    cdef uint8_t sF[HROW]
    if g.c_snap_exp[s] != p.n_exp:
        card_full(g, s)
        return
    card_subs(g, p, sR, sF)
    for k in range(JOKER):
        while snap[k] < p.h[k]:
            mj_card_delta(sr, sf, g.R.c_rt + <Py_ssize_t>k * V, g.R.c_ft + <Py_ssize_t>k * V, sR[k], sF[k],
                          snap[k], 1, V)
            snap[k] += 1
        while snap[k] > p.h[k]:
            mj_card_delta(sr, sf, g.R.c_rt + <Py_ssize_t>k * V, g.R.c_ft + <Py_ssize_t>k * V, sR[k], sF[k],
                          snap[k], 0, V)
            snap[k] -= 1
    snap[JOKER] = p.h[JOKER]


cdef int card_eval_cached(amgame_t* g, int s, const uint8_t* unseen) noexcept nogil:
    """Seat s's distance to the card from its cache; with `unseen`, over the variations not dead
    given the unseen tiles, tested level by level from the nearest (only the near ones are
    tested). Then g.c_dv holds the distances (255: unusable or found dead) and g.c_near the
    live variations within one tile of the best."""
    cdef amplayer_t* p = &g.p[s]
    cdef int V = g.R.c_nvar, v, i, n, L, D, Dall, J = p.h[JOKER], a, b, base
    cdef uint8_t* sr = g.c_sr + <Py_ssize_t>s * V
    cdef uint8_t* sf = g.c_sf + <Py_ssize_t>s * V
    cdef uint8_t* dv = g.c_dv
    cdef int32_t* near = g.c_near
    cdef uint8_t sR[HROW]
    cdef uint8_t sF[HROW]
    cdef const uint8_t* pR = NULL
    cdef const uint8_t* pF = NULL
    cdef const uint8_t* row
    card_sync(g, s)
    Dall = mj_card_dv(sr, sf, J, dv, V)
    g.c_nnear = 0
    if Dall >= 64:
        return CARD_DEAD
    if unseen == NULL:
        return Dall
    if p.n_exp:
        card_subs(g, p, sR, sF)
        pR = sR
        pF = sF
    D = CARD_DEAD
    L = Dall
    while L <= 15:
        base = g.c_nnear
        n = mj_card_level(dv, V, L, near + base)
        for i in range(n):
            v = near[base + i]          # alive ones are compacted to the front: never ahead of i
            row = g.R.c_rows + <Py_ssize_t>v * 96
            if mj_card_eval(row, row + HROW, pR, pF, p.h, unseen, J, &a, &b):
                dv[v] = 255
            else:
                near[g.c_nnear] = v
                g.c_nnear += 1
                if D == CARD_DEAD:
                    D = L
        if D != CARD_DEAD and L >= D + 1:
            break
        L += 1
    return D


cdef int card_pick_cached(amgame_t* g, int s, int* d_after) noexcept nogil:
    """The tile the card greedy gives up, from seat s's cache (variations dead given the unseen
    tiles left out): the lowest card distance after removing it, then the most variations
    within one tile of the best that keep their distance (those at the best first), then the
    lowest kind; never a joker while it holds another tile.

    Removing a tile of kind k from a variation's view changes its shortfalls by one at most:
    a natural place (h_k <= R_k), a flexible place (h_k <= R_k + F_k) or nothing; only
    variations within one tile of the best distance D can give D or D + 1, and D + 1 is always
    reachable."""
    cdef amplayer_t* p = &g.p[s]
    cdef uint8_t sR[HROW]
    cdef uint8_t sF[HROW]
    cdef uint8_t u[HROW]
    cdef int cand[36]
    cdef int dk[36]
    cdef int keep0[36]
    cdef int keep1[36]
    cdef int nc = 0, c, k, v, i, sr, sf, d, nd, r, f, x, J = p.h[JOKER], best_c, D, V = g.R.c_nvar
    cdef uint8_t* csr = g.c_sr + <Py_ssize_t>s * V
    cdef uint8_t* csf = g.c_sf + <Py_ssize_t>s * V
    cdef const uint8_t* row
    if g.pick_d >= 0:                   # ph_discard evaluated the hand just now
        D = g.pick_d
        g.pick_d = -1
    else:
        card_unseen(g, p, u)
        D = card_eval_cached(g, s, u)
    for k in range(35):
        if p.h[k]:
            cand[nc] = k
            dk[nc] = D + 1 if D < CARD_DEAD else CARD_DEAD
            keep0[nc] = 0
            keep1[nc] = 0
            nc += 1
    if nc == 0:
        d_after[0] = D
        return JOKER if J else -1
    if D < CARD_DEAD:
        card_subs(g, p, sR, sF)
        for i in range(g.c_nnear):
            v = g.c_near[i]
            d = g.c_dv[v]
            sr = csr[v]
            sf = csf[v]
            row = g.R.c_rows + <Py_ssize_t>v * 96
            for c in range(nc):
                k = cand[c]
                r = row[k] - sR[k]
                f = row[HROW + k] - sF[k]
                x = p.h[k]
                if x <= r:
                    nd = d + 1
                elif x <= r + f:
                    nd = sr + (sf + 1 - J if sf + 1 > J else 0)
                else:
                    nd = d
                if nd < dk[c]:
                    dk[c] = nd
                if nd == d:
                    if d == D:
                        keep0[c] += 1
                    else:
                        keep1[c] += 1
    best_c = 0
    for c in range(1, nc):
        if (dk[c] < dk[best_c] or dk[c] == dk[best_c] and (keep0[c] > keep0[best_c]
                or keep0[c] == keep0[best_c] and keep1[c] > keep1[best_c])):
            best_c = c
    d_after[0] = dk[best_c]
    return cand[best_c]


cdef int card_after_pick(amgame_t* g, int s, int k, int D) noexcept nogil:
    """The distance card_pick_cached records (its d_after) when seat s gives up kind k (0-34)
    rather than its own pick: from the live variations within one tile of the best D that the
    evaluation just made lists (g.c_near), the hand still holding k. An external seat's p.d
    after its discard (ph_discard), so that a greedy teacher's later choices see what greedy
    would have seen."""
    cdef amplayer_t* p = &g.p[s]
    cdef uint8_t sR[HROW]
    cdef uint8_t sF[HROW]
    cdef int V = g.R.c_nvar, i, v, d, sr, sf, r, f, nd, x = p.h[k], J = p.h[JOKER], best
    cdef uint8_t* csr = g.c_sr + <Py_ssize_t>s * V
    cdef uint8_t* csf = g.c_sf + <Py_ssize_t>s * V
    cdef const uint8_t* row
    if D >= CARD_DEAD:
        return CARD_DEAD
    best = D + 1
    card_subs(g, p, sR, sF)
    for i in range(g.c_nnear):
        v = g.c_near[i]
        d = g.c_dv[v]
        sr = csr[v]
        sf = csf[v]
        row = g.R.c_rows + <Py_ssize_t>v * 96
        r = row[k] - sR[k]
        f = row[HROW + k] - sF[k]
        if x <= r:
            nd = d + 1
        elif x <= r + f:
            nd = sr + (sf + 1 - J if sf + 1 > J else 0)
        else:
            nd = d
        if nd < best:
            best = nd
    return best


cdef bint card_dead_at_discard(amgame_t* g, int s) noexcept nogil:
    """Card play: seat s's hand is dead when it comes to discard now (ph_discard's test)."""
    cdef uint8_t u[HROW]
    if not g.R.c_lines:
        return False
    card_unseen(g, &g.p[s], u)
    return card_eval_cached(g, s, u) >= CARD_DEAD


cdef int card_dist(amgame_t* g, amplayer_t* p) noexcept nogil:
    return card_eval(g, p, NULL)


cdef int card_call_after(amgame_t* g, int s, int k, int sz, int nat, int jj) noexcept nogil:
    """The greedy distance after calling discard k for an exposure of sz tiles (nat naturals and
    jj jokers from the hand) and the best discard then: what card_pick gives for the hand after
    the call, computed from seat s's cache over only the variations holding such a set (the
    card's index of sets), the others being dead after this exposure. CARD_DEAD: none fits."""
    cdef amplayer_t* p = &g.p[s]
    cdef int V = g.R.c_nvar, keep = 0 if g.R.c_all_joker else 1, J = p.h[JOKER], J2 = J - jj
    cdef int hk = p.h[k], hk2 = hk - nat, m = 0, j, e, i, v, c, cnt, r, f, r2, f2, a, b, d, D, nc = 0, x, nd
    cdef int lo = g.R.c_set_off[k * 4 + sz - 3], hi = g.R.c_set_off[k * 4 + sz - 3 + 1]
    cdef uint8_t* csr
    cdef uint8_t* csf
    cdef int16_t* ta = g.vs
    cdef int16_t* tb = g.vs + V
    cdef uint8_t sR[HROW]
    cdef uint8_t sF[HROW]
    cdef uint8_t u[HROW]
    cdef int cand[36]
    cdef int dk[36]
    cdef const uint8_t* row
    cdef int best
    if lo == hi:
        return CARD_DEAD
    card_sync(g, s)
    csr = g.c_sr + <Py_ssize_t>s * V
    csf = g.c_sf + <Py_ssize_t>s * V
    card_subs(g, p, sR, sF)
    card_unseen(g, p, u)                # the exposure moves tiles from hand to view: unseen unchanged
    for e in range(p.n_exp):
        if p.exp_kind[e] == k and p.exp_size[e] == sz:
            m += 1
    D = CARD_DEAD
    for i in range(hi - lo):
        v = g.R.c_set_idx[lo + i]
        ta[i] = 99
        if csr[v] >= 64 or g.R.c_vconc[v]:         # concealed lines die with any exposure
            continue
        if m:                           # it needs one more such set than already exposed
            cnt = 0
            for j in range(4):
                cnt += g.R.c_xk[4 * v + j] == k and g.R.c_xs[4 * v + j] == sz
            if cnt <= m:
                continue
        row = g.R.c_rows + <Py_ssize_t>v * 96
        r = row[k] - sR[k]
        f = row[HROW + k] - sF[k]
        r2 = r - keep
        f2 = f - (sz - keep)
        a = csr[v] - (r - hk if r > hk else 0) + (r2 - hk2 if r2 > hk2 else 0)
        b = (csf[v] - ((f - (hk - r if hk > r else 0)) if f > (hk - r if hk > r else 0) else 0)
             + ((f2 - (hk2 - r2 if hk2 > r2 else 0)) if f2 > (hk2 - r2 if hk2 > r2 else 0) else 0))
        ta[i] = <int16_t>a
        tb[i] = <int16_t>b
    # the hand after the call, for the dead tests and the discard
    sR[k] += keep
    sF[k] += sz - keep
    p.h[k] = hk2
    p.h[JOKER] = J2
    for i in range(hi - lo):
        if ta[i] >= 99:
            continue
        v = g.R.c_set_idx[lo + i]
        row = g.R.c_rows + <Py_ssize_t>v * 96
        if mj_card_eval(row, row + HROW, sR, sF, p.h, u, J2, &a, &b):
            ta[i] = 99
            continue
        d = ta[i] + (tb[i] - J2 if tb[i] > J2 else 0)
        if d < D:
            D = d
    best = D
    if D < CARD_DEAD:
        for c in range(35):
            if p.h[c]:
                cand[nc] = c
                dk[nc] = D + 1
                nc += 1
        if nc == 0:
            best = D
        else:
            for i in range(hi - lo):
                if ta[i] >= 99:
                    continue
                a = ta[i]
                b = tb[i]
                d = a + (b - J2 if b > J2 else 0)
                if d > D + 1:
                    continue
                v = g.R.c_set_idx[lo + i]
                row = g.R.c_rows + <Py_ssize_t>v * 96
                for c in range(nc):
                    x = cand[c]
                    r = row[x] - sR[x]
                    f = row[HROW + x] - sF[x]
                    if p.h[x] <= r:
                        nd = d + 1
                    elif p.h[x] <= r + f:
                        nd = a + (b + 1 - J2 if b + 1 > J2 else 0)
                    else:
                        nd = d
                    if nd < dk[c]:
                        dk[c] = nd
            best = dk[0]
            for c in range(1, nc):
                if dk[c] < best:
                    best = dk[c]
    p.h[k] = hk
    p.h[JOKER] = J
    return best


cdef int card_call(amgame_t* g, int s, int k, bint greedy, int* size, int* jokers) noexcept nogil:
    """The exposure seat s would make with discard k: sizes its card allows for the kind,
    naturals from hand first and jokers for the rest; the size with the lowest distance after
    (greedy: after its best discard), the smaller size on a tie. Returns that distance
    (CARD_DEAD: no legal exposure) and the size and jokers."""
    cdef amplayer_t* p = &g.p[s]
    cdef int sz, nat, jj, d, best = CARD_DEAD, n = p.n_exp
    cdef int mask
    size[0] = 0
    jokers[0] = 0
    if k >= JOKER or n >= 4:
        return CARD_DEAD
    mask = g.R.c_set_sizes[k]
    for sz in range(3, 7):
        if not (mask >> sz) & 1:
            continue
        nat = imin(p.h[k], sz - 1)
        jj = sz - 1 - nat
        if jj > p.h[JOKER] or (greedy and nat == 0):
            continue
        if greedy:
            d = card_call_after(g, s, k, sz, nat, jj)
            if d < best:
                best = d
                size[0] = sz
                jokers[0] = jj
            continue
        p.h[k] -= nat
        p.h[JOKER] -= jj
        p.exp_kind[n] = <uint8_t>k
        p.exp_size[n] = <uint8_t>sz
        p.n_exp = n + 1
        d = card_dist(g, p)
        p.n_exp = n
        p.h[JOKER] += jj
        p.h[k] += nat
        if d < best:
            best = d
            size[0] = sz
            jokers[0] = jj
    return best


cdef int external_call(amgame_t* g, int s, int k, int* size, int* jokers) noexcept nogil:
    """The exposure an external seat (an environment's agent) makes when it calls discard k:
    the one greedy would make (so that a greedy teacher's calls play as simulate plays them),
    else the one card_call picks without greedy's rules (a set of jokers and the discard).
    Returns its distance; CARD_DEAD (size 0): no exposure leaves a line of the card in reach,
    and the call is not offered."""
    cdef int d = card_call(g, s, k, True, size, jokers)
    if size[0] == 0:
        d = card_call(g, s, k, False, size, jokers)
    return d


cdef void card_unseen(amgame_t* g, amplayer_t* p, uint8_t* u) noexcept nogil:
    """Tiles p has not seen: the set minus its hand and every visible tile (discards, exposures)."""
    cdef int k, n
    memset(u, 0, HROW)
    for k in range(NK):
        n = (g.R.jokers if k == JOKER else copies(k)) - p.h[k] - g.visible[k]
        u[k] = <uint8_t>(n if n > 0 else 0)


cdef int card_win_line(amgame_t* g, amplayer_t* p, int* value) noexcept nogil:
    """The line a complete hand scores (the highest value; the first on a tie) and its value:
    the points, times the jokerless multiplier when the hand holds no joker and the line allows."""
    cdef int16_t* lines = g.vs + 2 * g.R.c_nvar
    cdef int l, val, best = -1, best_v = 0
    cdef bint jl = jokerless(p)
    card_eval(g, p, lines)
    for l in range(g.R.c_lines):
        if lines[l] == 0:
            val = g.R.c_points[l] * (g.R.c_mult if jl and g.R.c_bonus[l] else 1)
            if val > best_v:
                best_v = val
                best = l
    value[0] = best_v
    return best


cdef void card_record(amgame_t* g, bint after) noexcept nogil:
    """Per-line distances of every player after the deal (kept) or after the Charleston."""
    cdef int L = g.R.c_lines, s, l, a, b
    cdef int16_t* before = g.vs + 2 * g.R.c_nvar + L       # 4 x L
    cdef int16_t* now = g.vs + 2 * g.R.c_nvar               # L (scratch)
    for s in range(4):
        card_eval(g, &g.p[s], now)
        for l in range(L):
            a = now[l]
            if not after:
                before[s * L + l] = <int16_t>a
                g.t.out[N_OUT + 2 * L + l] += a
                g.t.out[N_OUT + 4 * L + l] += a * a
            else:
                b = before[s * L + l]
                g.t.out[N_OUT + 3 * L + l] += a
                g.t.out[N_OUT + 5 * L + l] += a * a
                g.t.out[N_OUT + 6 * L + l] += (a - b) * (a - b)


cdef inline int gdist(amgame_t* g, amplayer_t* p) noexcept nogil:
    """Distance of p's hand: to the card's lines with a card, else to the beginner hand."""
    if g.R.c_lines:
        return card_eval_cached(g, <int>(p - &g.p[0]), NULL)
    return pdist(p)


cdef inline int gdist_plus(amgame_t* g, amplayer_t* p, int k) noexcept nogil:
    cdef int d
    p.h[k] += 1
    d = gdist(g, p)
    p.h[k] -= 1
    return d


# ------------------------------------------------------------------------------------------
# built-in choices

cdef int greedy_pick(amgame_t* g, amplayer_t* p, bint allow_joker, int* d_after) noexcept nogil:
    """The tile greedy gives up (discard or pass): lowest distance after removing it, then fewest
    copies in hand, then fewest unseen copies, then lowest kind; a joker only if strictly best
    (and allowed). Returns the kind (-1 if nothing can go) and the distance after in d_after.

    Removing a tile of a kind with c tiles changes the distance only when c is among the
    target's counts top[0..need-1]; then one c becomes max(c - 1, top[need])."""
    cdef int hist[9]
    cdef int dc[9]
    cdef int top[5]
    cdef int u_[4]
    cdef int c, k, d, u, i, j, base, best_k = -1, best_d = 99, best_c = 99, best_u = 99
    cdef int need = 4 - p.n_exp, full = 14 - 4 * p.n_exp, J = p.h[JOKER]
    if g.R.c_lines:
        return card_pick_cached(g, <int>(p - &g.p[0]), d_after)
    am_hist(p.h, p.excl, hist)
    am_top(hist, need + 1, top)
    base = full - am_overlap(top, need, J, p.keep)
    for c in range(1, 9):
        if not hist[c]:
            continue
        if c < top[need - 1]:
            dc[c] = base
            continue
        j = need - 1
        while top[j] != c:
            j -= 1
        for i in range(need):
            u_[i] = top[i]
        u_[j] = c - 1 if c - 1 > top[need] else top[need]
        dc[c] = full - am_overlap(u_, need, J, p.keep)
    for k in range(35):
        c = p.h[k]
        if not c:
            continue
        d = base if p.excl[k] else dc[c]
        u = copies(k) - c - g.visible[k]
        if d < best_d or (d == best_d and (c < best_c or (c == best_c and u < best_u))):
            best_d = d
            best_c = c
            best_u = u
            best_k = k
    if allow_joker and J:
        d = full - am_overlap(top, need, J - 1, p.keep)
        if d < best_d:
            best_d = d
            best_k = JOKER
    d_after[0] = best_d
    return best_k


cdef int random_tile(amgame_t* g, amplayer_t* p, bint allow_joker) noexcept nogil:
    cdef int n = p.n_hand - (0 if allow_joker else p.h[JOKER]), r, k
    if n <= 0:
        return -1
    r = <int>rng_bounded16(&g.t.prng, <uint32_t>n)
    for k in range(NK if allow_joker else 35):
        r -= p.h[k]
        if r < 0:
            return k
    return -1


cdef void greedy_pass_plan(amgame_t* g, amplayer_t* p, int n, int* kinds, int* raises) noexcept nogil:
    """Up to n tiles greedy would give up, in order (never jokers); raises[i] = 1 if giving up
    the i-th raises the distance. The hand is restored. A plan of 3 is kept for the next
    choose_pass (votes and offers plan the tiles that the following pass gives)."""
    cdef int i, d, before
    if p.plan_valid and n <= 3:
        for i in range(n):
            kinds[i] = p.plan[i]
            raises[i] = p.plan_raises[i]
        return
    before = gdist(g, p)
    for i in range(n):
        kinds[i] = greedy_pick(g, p, False, &d)
        raises[i] = 1 if d > before else 0
        before = d
        if kinds[i] >= 0:
            p.h[kinds[i]] -= 1
    for i in range(n):
        if kinds[i] >= 0:
            p.h[kinds[i]] += 1
    if n == 3:
        for i in range(3):
            p.plan[i] = kinds[i]
            p.plan_raises[i] = raises[i]
        p.plan_valid = 1


# ------------------------------------------------------------------------------------------
# Python policies (callbacks with the GIL)

cdef object seat_view(amgame_t* g, int seat):
    cdef int s, j
    cdef amplayer_t* p = &g.p[seat]
    hand = np.empty(NK, np.uint8)
    visible = np.empty(NK, np.uint8)
    for j in range(NK):
        hand[j] = p.h[j]
        visible[j] = g.visible[j]
    hand.setflags(write=False)
    visible.setflags(write=False)
    exposures = []
    discards = []
    for s in range(4):
        exposures.append(tuple((g.p[s].exp_kind[j], g.p[s].exp_jokers[j]) for j in range(g.p[s].n_exp)))
        discards.append(tuple(g.p[s].disc[j] for j in range(g.p[s].n_disc)))
    return {
        "seat": seat, "dealer": g.t.dealer, "hand_number": g.t.hand_no, "turn": g.t.turn,
        "hand": hand, "exposures": tuple(exposures), "discards": tuple(discards), "visible": visible,
        "dead": tuple(bool(g.p[s].dead) for s in range(4)),
        "wall_left": g.n_tiles - g.front, "drawn": g.drawn if seat == g.cur else -1,
        "scores": tuple(g.t.score[s] for s in range(4)), "hands_per_game": g.t.hands_per_game, "jokers": g.R.jokers,
        "all_joker_sets": g.R.keep == 0,
    }


ILLEGAL = {
    1: "discard of a tile not in hand",
    4: "an answer that is not one of the options",
}


# ------------------------------------------------------------------------------------------
# the Charleston

cdef int choose_pass(amgame_t* g, int s, int passno, bint blind_ok, int n_fixed, int* kinds) noexcept nogil:
    """kinds[0..] = own tiles s passes; returns how many tiles s blind-passes (0 unless blind_ok),
    SUSPEND while an external seat decides.

    n_fixed > 0: exactly n_fixed own tiles (courtesy pass), never blind."""
    cdef amplayer_t* p = &g.p[s]
    cdef int n = 3 if n_fixed == 0 else n_fixed, i, b = 0, code, k
    cdef int raises[3]
    if p.policy == POL_EXTERNAL and not (g.py_quiet_own[s] & (16 if n_fixed else 2)):
        code = ask(&g.t, s, ASK_COURTESY if n_fixed else ASK_PASS, passno, &n, 1)
        if code == SUSPEND:
            return SUSPEND
        if code >= 0:
            p.plan_valid = 0
            b = code & 3
            for i in range(n - b):
                kinds[i] = (code >> (2 + 6 * i)) & 63
            return b
    if p.policy == POL_RANDOM:
        for i in range(n):
            k = random_tile(g, p, False)
            kinds[i] = k
            p.h[k] -= 1
            p.n_hand -= 1
        for i in range(n):
            p.h[kinds[i]] += 1
            p.n_hand += 1
        return 0
    greedy_pass_plan(g, p, n, kinds, raises)
    p.plan_valid = 0                    # the hand changes with this pass
    if blind_ok and n_fixed == 0:
        for i in range(n):
            if raises[i]:
                return n - i
    return 0


cdef void move_passes(amgame_t* g, int direction, int passno) noexcept nogil:
    """The tiles every seat chose (g.kinds, g.nb blind) move `direction` seats on (1 right, 2
    across, 3 left).

    Blind pass: a player passing b tiles blind gives only 3 - b own tiles; the tiles arriving
    at a player fill her 3 - b places in order of arrival (the passer's own tiles first, in her
    order; then tiles forwarded on), and the rest go on unseen to the next player. Jokers are
    never passed."""
    cdef int s, r, i, b, rnd, k, moving
    cdef int need[4]
    cdef int outq[4][12]
    cdef int nout[4]
    cdef int newq[4][12]
    cdef int nnew[4]
    for s in range(4):
        b = g.nb[s]
        need[s] = 3 - b
        nout[s] = 3 - b
        for i in range(3 - b):
            k = g.kinds[s][i]
            outq[s][i] = k
            g.p[s].h[k] -= 1
            g.p[s].n_hand -= 1
            log_ev(g, EV_PASS, s, k, passno)
    for rnd in range(8):
        moving = 0
        for s in range(4):
            nnew[s] = 0
        for s in range(4):
            r = (s + direction) & 3
            for i in range(nout[s]):
                k = outq[s][i]
                moving += 1
                if need[r] > 0:
                    need[r] -= 1
                    g.p[r].h[k] += 1
                    g.p[r].n_hand += 1
                    log_ev(g, EV_RECEIVE, r, k, passno)
                else:
                    newq[r][nnew[r]] = k
                    nnew[r] += 1
                    log_ev(g, EV_BLIND, r, k, passno)
        if moving == 0:
            break
        for s in range(4):
            nout[s] = nnew[s]
            for i in range(nnew[s]):
                outq[s][i] = newq[s][i]


cdef int second_vote(amgame_t* g, int s) noexcept nogil:
    cdef amplayer_t* p = &g.p[s]
    cdef int kinds[3]
    cdef int raises[3]
    cdef int v
    if p.policy == POL_EXTERNAL and not (g.py_quiet_own[s] & 4):
        v = ask(&g.t, s, ASK_SECOND, 0, NULL, 0)
        if v == SUSPEND or v >= 0:
            return v
    if p.policy == POL_RANDOM:
        return <int>rng_bounded16(&g.t.prng, 2)
    greedy_pass_plan(g, p, 3, kinds, raises)
    return 0 if raises[2] else 1


cdef int courtesy_offer(amgame_t* g, int s) noexcept nogil:
    cdef amplayer_t* p = &g.p[s]
    cdef int kinds[3]
    cdef int raises[3]
    cdef int v, i
    if p.policy == POL_EXTERNAL and not (g.py_quiet_own[s] & 8):
        v = ask(&g.t, s, ASK_COURTESY_OFFER, 0, NULL, 0)
        if v == SUSPEND or v >= 0:
            return v
    if p.policy == POL_RANDOM:
        return <int>rng_bounded16(&g.t.prng, 4)
    greedy_pass_plan(g, p, 3, kinds, raises)
    for i in range(3):
        if raises[i]:
            return i
    return 3


cdef int PASS_DIRECTION[6]
PASS_DIRECTION[:] = [1, 2, 3, 3, 2, 1]      # first Charleston right, across, left; second reversed


cdef void next_pass(amgame_t* g, int passno) noexcept nogil:
    g.passno = passno
    g.cs = 0
    g.t.phase = PH_PASS


cdef void second_decided(amgame_t* g) noexcept nogil:
    log_ev(g, EV_SECOND, g.t.dealer, g.any_yes, 0)
    if g.any_yes:
        g.t.out[OUT_SECOND] += 1
        next_pass(g, 3)
    else:
        courtesy_or_play(g)


cdef void courtesy_or_play(amgame_t* g) noexcept nogil:
    if g.R.courtesy:
        g.cs = 0
        g.t.phase = PH_OFFER
    else:
        start_play(g)


cdef void start_play(amgame_t* g) noexcept nogil:
    """The Charleston is over: the dealer starts with 14 tiles."""
    record_dist(g, DIST_AFTER)
    g.cur = g.t.dealer
    g.mode = MODE_OWN
    g.drawn = -1
    g.t.phase = PH_TURN


cdef int ph_pass(amgame_t* g) noexcept nogil:
    """Every seat chooses its tiles for pass g.passno, then they move; blind passes on the last
    pass of each Charleston when the rules allow them."""
    cdef int passno = g.passno, r
    cdef bint blind_ok = (passno == 2 or passno == 5) and g.R.blind
    while g.cs < 4:
        r = choose_pass(g, g.cs, passno, blind_ok, 0, g.kinds[g.cs])
        if r == SUSPEND:
            return SUSPEND
        g.nb[g.cs] = r
        g.cs += 1
    move_passes(g, PASS_DIRECTION[passno], passno)
    if passno == 2:                     # the first Charleston is over: a second one?
        if g.R.second == 2:
            g.any_yes = 0
            g.cs = 0
            g.t.phase = PH_VOTE
        else:
            g.any_yes = g.R.second
            second_decided(g)
    elif passno == 5:
        courtesy_or_play(g)
    else:
        next_pass(g, passno + 1)
    return 0


cdef int ph_vote(amgame_t* g) noexcept nogil:
    """Every seat votes (the second Charleston is danced if any wants it)."""
    cdef int v
    while g.cs < 4:
        v = second_vote(g, g.cs)
        if v == SUSPEND:
            return SUSPEND
        if v == 1:
            g.any_yes = 1
        g.cs += 1
    second_decided(g)
    return 0


cdef int ph_offer(amgame_t* g) noexcept nogil:
    """Every seat offers 0-3 tiles to the player opposite."""
    cdef int v
    while g.cs < 4:
        v = courtesy_offer(g, g.cs)
        if v == SUSPEND:
            return SUSPEND
        g.offer[g.cs] = v
        log_ev(g, EV_COURTESY, g.cs, v, 0)
        g.cs += 1
    g.cs = 0
    g.t.phase = PH_COURTESY
    return 0


cdef int ph_courtesy(amgame_t* g) noexcept nogil:
    """Opposite players exchange the smaller of their two offers; then play starts."""
    cdef int s, n, i, k, r
    while g.cs < 4:
        s = g.cs
        n = imin(g.offer[s], g.offer[(s + 2) & 3])
        if n > 0:
            r = choose_pass(g, s, 6, False, n, g.kinds[s])
            if r == SUSPEND:
                return SUSPEND
        g.cs += 1
    for s in range(4):
        n = imin(g.offer[s], g.offer[(s + 2) & 3])
        for i in range(n):
            k = g.kinds[s][i]
            g.p[s].h[k] -= 1
            g.p[(s + 2) & 3].h[k] += 1
            log_ev(g, EV_PASS, s, k, 6)
            log_ev(g, EV_RECEIVE, (s + 2) & 3, k, 6)
        g.t.out[OUT_COURTESY] += n
    start_play(g)
    return 0


# ------------------------------------------------------------------------------------------
# one hand

cdef void shuffle_wall(amgame_t* g, uint64_t k0, uint64_t k1, uint64_t stream) noexcept nogil:
    cdef rng_t r
    rng_seed_stream(&r, k0, k1, stream)
    shuffle_ids(g.wall, g.n_tiles, &r)


cdef void deal_hand(amgame_t* g) noexcept nogil:
    """Dealer takes the first 14 tiles of the wall, then each next seat 13 in turn order."""
    cdef int q, seat, i, t, s
    g.front = 0
    memset(g.visible, 0, NK)
    for s in range(4):
        memset(g.p[s].h, 0, HROW)
        memset(g.p[s].excl, 0, NK)
        g.p[s].n_hand = 0
        g.p[s].n_exp = 0
        g.p[s].dead = 0
        g.p[s].n_disc = 0
        g.p[s].plan_valid = 0
        g.c_snap_exp[s] = -1
    g.t.turn = 0
    g.drawn = -1
    g.exp_jokers = 0
    log_ev(g, EV_HAND, g.t.dealer, 0, 0)
    for q in range(4):
        seat = (g.t.dealer + q) & 3
        for i in range(14 if q == 0 else 13):
            t = g.wall[g.front]
            g.front += 1
            log_ev(g, EV_DEAL, seat, t, 0)
            g.p[seat].h[kind_of_id(t)] += 1
            g.p[seat].n_hand += 1


cdef void record_dist(amgame_t* g, int col) noexcept nogil:
    cdef int s, d
    for s in range(4):
        d = gdist(g, &g.p[s])
        g.p[s].d = d
        g.t.out[col + s * 15 + (d if d < 15 else 14)] += 1
    if g.R.c_lines:
        card_record(g, col == DIST_AFTER)


cdef bint jokerless(amplayer_t* p) noexcept nogil:
    cdef int j
    if p.h[JOKER]:
        return False
    for j in range(p.n_exp):
        if p.exp_jokers[j]:
            return False
    return True


cdef void settle(amgame_t* g, int winner, int self_draw, int discarder, int32_t* score) noexcept nogil:
    cdef int s, pay = g.R.base_points, line, L = g.R.c_lines
    cdef int delta[4]
    cdef bint jl = jokerless(&g.p[winner])
    if L:
        line = card_win_line(g, &g.p[winner], &pay)
        g.t.out[N_OUT + line] += 1
        if jl:
            g.t.out[N_OUT + L + line] += 1
            g.t.out[OUT_JOKERLESS + winner] += 1
        if self_draw:
            pay *= 2
    else:
        if self_draw:
            pay *= 2
        if jl:
            pay *= 2
            g.t.out[OUT_JOKERLESS + winner] += 1
    g.t.out[OUT_WINS + winner] += 1
    if self_draw:
        g.t.out[OUT_SELF_DRAWN + winner] += 1
    elif discarder >= 0:
        g.t.out[OUT_DEAL_INS + discarder] += 1
    for s in range(4):
        delta[s] = -pay
    if g.R.c_disc_double and not self_draw and discarder >= 0:
        delta[discarder] = -2 * pay
    delta[winner] = 0
    for s in range(4):
        if s != winner:
            delta[winner] -= delta[s]
    for s in range(4):
        score[s] += delta[s]
        log_ev(g, EV_SCORE, s, delta[s], score[s])


cdef void make_dead(amgame_t* g, int s) noexcept nogil:
    g.p[s].dead = 1
    g.t.out[OUT_DEAD + s] += 1
    log_ev(g, EV_DEAD, s, 1, 0)


cdef bint can_quad(amgame_t* g, int s, int k) noexcept nogil:
    cdef amplayer_t* p = &g.p[s]
    cdef int sz, jj
    if g.R.c_lines:
        return k < JOKER and p.n_exp < 4 and p.h[k] + p.h[JOKER] >= 2 and g.R.c_set_sizes[k] != 0
    return k < JOKER and not p.excl[k] and p.n_exp < 3 and p.h[k] + p.h[JOKER] >= 3


cdef bint greedy_calls(amgame_t* g, int s, int k) noexcept nogil:
    """Greedy calls a discard for a set of four when the distance after the call and its best
    discard is lower than the distance now."""
    cdef amplayer_t* p = &g.p[s]
    cdef int cur, nn, jj, d, sz
    if g.R.c_lines:
        cur = p.d                       # the distance after its last discard
        d = card_call(g, s, k, True, &sz, &jj)
        g.call_size = sz
        g.call_jokers = jj
        return d < cur
    cur = pdist(p)
    nn = imin(p.h[k], 3)
    jj = 3 - nn
    p.h[k] -= nn
    p.h[JOKER] -= jj
    p.excl[k] = 1
    p.n_exp += 1
    greedy_pick(g, p, True, &d)
    p.n_exp -= 1
    p.excl[k] = 0
    p.h[JOKER] += jj
    p.h[k] += nn
    return d < cur


cdef int exchange_options(amgame_t* g, int seat, int* opts) noexcept nogil:
    """Joker exchanges open to seat: code k * 4 + owner (kind k in hand, owner's exposed set of
    k holds a joker); owners in turn order from seat (own sets first), each owner's sets in
    the order exposed."""
    cdef amplayer_t* p = &g.p[seat]
    cdef int n = 0, k, i, o, j
    if g.exp_jokers == 0:
        return 0
    for i in range(4):
        o = (seat + i) & 3
        for j in range(g.p[o].n_exp):
            k = g.p[o].exp_kind[j]
            if g.p[o].exp_jokers[j] > 0 and p.h[k]:
                opts[n] = k * 4 + o
                n += 1
    return n


cdef void do_exchange(amgame_t* g, int seat, int k, int owner) noexcept nogil:
    cdef amplayer_t* p = &g.p[seat]
    cdef int j
    for j in range(g.p[owner].n_exp):
        if g.p[owner].exp_kind[j] == k and g.p[owner].exp_jokers[j] > 0:
            g.p[owner].exp_jokers[j] -= 1
            g.exp_jokers -= 1
            break
    p.h[k] -= 1
    p.h[JOKER] += 1
    g.visible[k] += 1
    g.visible[JOKER] -= 1
    g.t.out[OUT_EXCHANGES + seat] += 1
    log_ev(g, EV_EXCHANGE, seat, k, owner)


cdef int greedy_exchange(amgame_t* g, amplayer_t* p, const int* opts, int n, int d) noexcept nogil:
    """The greedy policy's joker exchange among opts[1..n] (codes kind * 4 + owner): the first
    that keeps the distance d; -1 for none."""
    cdef int i, k, d2
    for i in range(1, n + 1):
        k = opts[i] >> 2
        p.h[k] -= 1
        p.h[JOKER] += 1
        d2 = gdist(g, p)
        p.h[JOKER] -= 1
        p.h[k] += 1
        if d2 <= d:
            return i
    return -1


cdef int own_turn(amgame_t* g, int seat) noexcept nogil:
    """Mahjong check and joker exchanges after a draw: 1 = Mahjong, 0 = go on to discard,
    2 = the hand went dead (false Mahjong), SUSPEND while an external seat decides, -1 for an
    answer that is not one of the options. g.exchanged: an exchange changed the hand this turn
    (p.d describes the hand before it)."""
    cdef amplayer_t* p = &g.p[seat]
    cdef int opts[64]
    cdef int n, i, d, d2, k, choice
    while True:
        n = exchange_options(g, seat, opts + 1)
        if n == 0 and not g.exchanged and p.d > 1 and (p.policy != POL_EXTERNAL or g.py_quiet_own[seat] & 1):
            return 0                    # one drawn tile cannot complete the hand
        d = gdist(g, p)
        if p.policy == POL_EXTERNAL and g.py_quiet_own[seat] & 1 and n == 0 and d != 0:
            return 0
        if p.policy == POL_EXTERNAL:
            opts[0] = 1000 if d == 0 else -1
            choice = ask(&g.t, seat, ASK_OWN_TURN, g.drawn, opts, n + 1)
            if choice == SUSPEND:
                return SUSPEND
            if choice == -2:            # Mahjong declared on an incomplete hand
                return 2
            if choice < 0:
                return 0
            if choice == 0:
                return 1
            if choice > n:
                return -1
            do_exchange(g, seat, opts[choice] >> 2, opts[choice] & 3)
            g.exchanged = 1
            continue
        if d == 0:
            return 1
        if p.policy == POL_RANDOM:
            return 0
        choice = greedy_exchange(g, p, opts, n, d)
        if choice < 0:
            return 0
        do_exchange(g, seat, opts[choice] >> 2, opts[choice] & 3)
        g.exchanged = 1


cdef int choose_discard(amgame_t* g, int seat) noexcept nogil:
    """The kind seat discards (SUSPEND while an external seat decides)."""
    cdef amplayer_t* p = &g.p[seat]
    cdef int d, k
    if p.policy == POL_GREEDY:
        k = greedy_pick(g, p, True, &d)
        p.d = d                          # the distance after this discard
        return k
    if p.policy == POL_RANDOM:
        return random_tile(g, p, True)
    return ask(&g.t, seat, ASK_DISCARD, g.drawn, NULL, 0)


cdef int claim_choice(amgame_t* g, int s, int k, bint win_ok, bint quad_ok) noexcept nogil:
    """0 none, 1 Mahjong, 2 call for a set of four, 3 false Mahjong (dead), SUSPEND."""
    cdef amplayer_t* p = &g.p[s]
    cdef int opts[2]
    cdef int c
    if p.policy == POL_EXTERNAL:
        opts[0] = 1 if win_ok else -1
        opts[1] = 2 if quad_ok else -1
        c = ask(&g.t, s, ASK_CLAIM, k, opts, 2)
        if c == SUSPEND:
            return SUSPEND
        if c == -2:
            return 3
        return 0 if c < 0 or c > 1 else opts[c]
    if win_ok:
        return 1
    if p.policy == POL_RANDOM or not quad_ok:
        return 0
    return 2 if greedy_calls(g, s, k) else 0



# ------------------------------------------------------------------------------------------
# the built-in policies' answers to a pending question (environments: teachers and parity)

cdef int builtin_answer(amgame_t* g, int policy, int* kinds) noexcept nogil:
    """What built-in `policy` answers to the pending question g.t.req (of seat g.t.req.seat),
    drawing from the policies' stream as it does when it plays the seat:
    ASK_PASS / ASK_COURTESY: the blind count, kinds[0 .. n - blind) the tiles in order;
    ASK_OWN_TURN: the option index (0 Mahjong, i > 0 a joker exchange) or -1 (go on), then
    kinds[0] = the discard (-1: card play, the hand goes dead there); ASK_DISCARD: the kind;
    ASK_CLAIM: 0 Mahjong, 1 a call, -1 none; ASK_SECOND: 1 / 0; ASK_COURTESY_OFFER: 0-3."""
    cdef int seat = g.t.req.seat, what = g.t.req.what, saved, ans = -1, i, k, d, d2, n, passno
    cdef amplayer_t* p = &g.p[seat]
    cdef const int* opts = g.t.req.options
    saved = p.policy
    p.policy = policy
    if what == ASK_PASS:
        passno = g.t.req.tile
        ans = choose_pass(g, seat, passno, (passno == 2 or passno == 5) and g.R.blind, 0, kinds)
    elif what == ASK_COURTESY:
        ans = choose_pass(g, seat, 6, False, opts[0], kinds)
    elif what == ASK_DISCARD:
        ans = choose_discard(g, seat)
    elif what == ASK_SECOND:
        ans = second_vote(g, seat)
    elif what == ASK_COURTESY_OFFER:
        ans = courtesy_offer(g, seat)
    elif what == ASK_CLAIM:
        if opts[0] == 1:
            ans = 0                              # built-in policies always take a Mahjong
        elif opts[1] == 2 and policy != POL_RANDOM and greedy_calls(g, seat, g.discard):
            ans = 1
    elif what == ASK_OWN_TURN:
        n = g.t.req.n_options - 1
        if opts[0] == 1000:
            ans = 0
        elif policy != POL_RANDOM:
            ans = greedy_exchange(g, p, opts, n, gdist(g, p))
        if ans < 0:
            # (card play: a hand going dead at its discard (ph_discard) discards nothing; the
            # policy draws nothing for it, as when it plays the seat itself)
            kinds[0] = -1 if card_dead_at_discard(g, seat) else choose_discard(g, seat)
    p.policy = saved
    return ans


# ------------------------------------------------------------------------------------------
# the game as a state machine: each phase handles one step of the rules and names the next

cdef inline void end_hand(amgame_t* g) noexcept nogil:
    g.t.out[OUT_HANDS] += 1
    g.t.hand_no += 1
    g.t.phase = PH_HAND
    g.t.hand_over = 1


cdef int ph_hand(amgame_t* g) noexcept nogil:
    """The next hand (the deal passes after every hand) and its Charleston; after the last
    hand, the final scores."""
    cdef int h = g.t.hand_no, s
    if h >= g.t.hands_per_game:
        for s in range(4):
            g.t.out[OUT_SCORE + s] = g.t.score[s]
        g.t.phase = PH_OVER
        return ADV_DONE
    g.t.dealer = h & 3
    if g.t.walls != NULL:
        memcpy(g.wall, g.t.walls + h * g.n_tiles, g.n_tiles)
    else:
        shuffle_wall(g, g.t.k0, g.t.k1, g.t.game_index * HANDS_STREAM + h)
    deal_hand(g)
    record_dist(g, DIST_BEFORE)
    next_pass(g, 0)
    return -1


cdef void ph_turn(amgame_t* g) noexcept nogil:
    """A turn starts: the next live player draws, unless the turn follows a call; every turn
    counts. A hand ends when every hand is dead or the wall is used up."""
    cdef int cur = g.cur, t, k
    cdef amplayer_t* p
    if cur < 0:
        end_hand(g)                     # every hand is dead
        return
    p = &g.p[cur]
    if g.mode == MODE_DRAW:
        if g.front >= g.n_tiles:
            log_ev(g, EV_WALL_GAME, cur, 0, 0)
            g.t.out[OUT_DRAWS] += 1
            end_hand(g)
            return
        t = g.wall[g.front]
        g.front += 1
        log_ev(g, EV_DRAW, cur, t, 0)
        k = kind_of_id(t)
        p.h[k] += 1
        p.n_hand += 1
        g.drawn = k
        g.mode = MODE_OWN
    g.t.turn += 1
    g.t.out[OUT_TURNS] += 1
    if g.mode == MODE_OWN:
        g.exchanged = 0
        g.t.phase = PH_OWN
    else:
        g.t.phase = PH_DISCARD


cdef int ph_own(amgame_t* g) noexcept nogil:
    cdef int cur = g.cur, r = own_turn(g, cur)
    if r == SUSPEND:
        return SUSPEND
    if r == -1:
        return illegal(&g.t, 4, -1)
    if r == 1:
        log_ev(g, EV_WIN, cur, 1, -1)
        settle(g, cur, 1, -1, g.t.score)
        end_hand(g)
    elif r == 2:
        make_dead(g, cur)
        g.cur = next_live(g, cur)
        g.mode = MODE_DRAW
        g.t.phase = PH_TURN
    else:
        g.t.phase = PH_DISCARD
    return 0


cdef int ph_discard(amgame_t* g) noexcept nogil:
    cdef int cur = g.cur, k, D = CARD_DEAD, d_ext = CARD_DEAD
    cdef amplayer_t* p = &g.p[cur]
    cdef uint8_t u[HROW]
    cdef bint ext_card = g.R.c_lines and p.policy == POL_EXTERNAL
    if g.R.c_lines:
        # card play: a hand whose every line is out of reach (given the tiles its player has not
        # seen) is dead; the greedy pick below reuses this evaluation, dead variations left out
        card_unseen(g, p, u)
        D = card_eval_cached(g, cur, u)
        if D >= CARD_DEAD:
            p.dead = 1
            g.t.out[OUT_DEAD + cur] += 1
            log_ev(g, EV_DEAD, cur, 2, 0)
            g.cur = next_live(g, cur)
            g.mode = MODE_DRAW
            g.t.phase = PH_TURN
            return 0
        g.pick_d = D if p.policy == POL_GREEDY else -1
    k = choose_discard(g, cur)
    if k == SUSPEND:
        return SUSPEND
    if k < 0 or k >= NK or p.h[k] == 0:
        return illegal(&g.t, 1, k)
    if ext_card and k != JOKER:
        d_ext = card_after_pick(g, cur, k, D)     # (from the evaluation above, the hand still whole)
    p.h[k] -= 1
    p.n_hand -= 1
    g.visible[k] += 1
    if p.n_disc < MAX_DISC:
        p.disc[p.n_disc] = <uint8_t>k
        p.n_disc += 1
    log_ev(g, EV_DISCARD, cur, k, 0)
    if ext_card:
        # an external seat's distance as greedy's pick records it (live variations only); a
        # joker (never greedy's pick while other tiles are held): evaluated afresh
        if k == JOKER:
            card_unseen(g, p, u)
            d_ext = card_eval_cached(g, cur, u)
        p.d = d_ext
    elif p.policy != POL_GREEDY:
        p.d = gdist(g, p)
    g.discard = k
    g.discarder = cur
    g.drawn = -1
    g.winner = -1
    g.caller = -1
    g.ci = 1 if k != JOKER else 4       # a discarded joker cannot be called
    g.t.phase = PH_CALLS
    return 0


cdef int ph_calls(amgame_t* g) noexcept nogil:
    """Calls on the discard in turn order after the discarder: Mahjong beats everything (the
    nearest in turn order), else the first call for a set of four; then the next player."""
    cdef int k = g.discard, s, dp, c, nn, jj, caller, sz
    cdef amplayer_t* p
    cdef bint win_ok, quad_ok
    while g.ci <= 3:
        s = (g.discarder + g.ci) & 3
        g.ci += 1
        if g.p[s].dead:
            continue
        if g.R.c_lines:
            p = &g.p[s]
            win_ok = p.d <= 1 and gdist_plus(g, p, k) == 0
            if p.policy == POL_EXTERNAL:        # (an exposure some line can still use: see external_call)
                quad_ok = can_quad(g, s, k) and external_call(g, s, k, &sz, &jj) < CARD_DEAD
            else:
                quad_ok = can_quad(g, s, k) and (p.policy != POL_GREEDY or p.h[k] >= 1)
            if not (win_ok or quad_ok):
                continue
            c = claim_choice(g, s, k, win_ok, quad_ok)
            if c == SUSPEND:
                g.ci -= 1           # ask this seat again
                return SUSPEND
            if c == 3:
                make_dead(g, s)
                c = 0
            if c == 1 and g.winner < 0:
                g.winner = s
                break
            if c == 2 and g.caller < 0:
                g.caller = s
            continue
        quad_ok = can_quad(g, s, k)
        if g.p[s].d != 1 and not quad_ok:
            continue            # neither Mahjong (needs distance 1) nor a call
        dp = gdist_plus(g, &g.p[s], k)
        win_ok = dp == 0
        if not (win_ok or quad_ok):
            continue
        if g.p[s].policy == POL_GREEDY and not win_ok and dp >= g.p[s].d:
            continue            # the call could not lower the distance (see greedy_calls)
        c = claim_choice(g, s, k, win_ok, quad_ok)
        if c == SUSPEND:
            g.ci -= 1           # ask this seat again
            return SUSPEND
        if c == 3:
            make_dead(g, s)
            c = 0
        elif c == 1 and not win_ok or c == 2 and not quad_ok:
            c = 0
        if c == 1 and g.winner < 0:
            g.winner = s
            break               # Mahjong beats everything; the nearest in turn order
        if c == 2 and g.caller < 0:
            g.caller = s
    if g.winner >= 0:
        g.p[g.winner].h[k] += 1
        g.p[g.winner].n_hand += 1
        g.visible[k] -= 1
        log_ev(g, EV_WIN, g.winner, 0, g.discarder)
        settle(g, g.winner, 0, g.discarder, g.t.score)
        end_hand(g)
        return 0
    if g.caller >= 0:
        caller = g.caller
        p = &g.p[caller]
        if g.R.c_lines:                         # the exposure this seat makes (see card_call)
            if p.policy == POL_EXTERNAL:
                external_call(g, caller, k, &g.call_size, &g.call_jokers)
            else:
                card_call(g, caller, k, p.policy == POL_GREEDY, &g.call_size, &g.call_jokers)
            sz = g.call_size
            jj = g.call_jokers
            nn = sz - 1 - jj
        else:
            sz = 4
            nn = imin(p.h[k], 3)
            jj = 3 - nn
        p.h[k] -= nn
        p.h[JOKER] -= jj
        p.n_hand -= sz - 1
        g.visible[k] += nn
        g.visible[JOKER] += jj
        p.excl[k] = 1
        p.exp_kind[p.n_exp] = <uint8_t>k
        p.exp_jokers[p.n_exp] = <uint8_t>jj
        p.exp_size[p.n_exp] = <uint8_t>sz
        p.n_exp += 1
        g.exp_jokers += jj
        g.t.out[OUT_CALLS + caller] += 1
        log_ev(g, EV_CALL, caller, k, jj + 256 * sz if g.R.c_lines else jj)
        g.cur = caller
        g.mode = MODE_CALLED
    else:
        g.cur = next_live(g, g.discarder)
        g.mode = MODE_DRAW
    g.t.phase = PH_TURN
    return 0


cdef int advance(amgame_t* g) noexcept nogil:
    """Play until an external seat must decide (ADV_DECIDE), the game ends (ADV_DONE), an
    answer is illegal (ADV_ERROR) or, with t.stop_at_hand_end, a hand ends (ADV_HAND)."""
    cdef int r
    while True:
        if g.t.phase == PH_TURN:
            ph_turn(g)
            continue
        if g.t.phase == PH_DISCARD:
            r = ph_discard(g)
        elif g.t.phase == PH_CALLS:
            r = ph_calls(g)
        elif g.t.phase == PH_OWN:
            r = ph_own(g)
        elif g.t.phase == PH_HAND:
            if g.t.hand_over and g.t.stop_at_hand_end:
                g.t.hand_over = 0
                return ADV_HAND
            g.t.hand_over = 0
            r = ph_hand(g)
            if r == ADV_DONE:
                return ADV_DONE
            continue
        elif g.t.phase == PH_PASS:
            r = ph_pass(g)
        elif g.t.phase == PH_VOTE:
            r = ph_vote(g)
        elif g.t.phase == PH_OFFER:
            r = ph_offer(g)
        elif g.t.phase == PH_COURTESY:
            r = ph_courtesy(g)
        else:
            return ADV_DONE
        if r == SUSPEND:
            return ADV_DECIDE
        if r == ADV_ERROR:
            return ADV_ERROR


cdef void start_game(amgame_t* g, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil:
    """Reset g for game `game_index` (its out row and log already set in g.t)."""
    cdef int s
    start_table(&g.t, game_index, k0, k1, policies, g.t.out, N_OUT, POLICY_SALT)
    g.t.hands_per_game = g.R.hands_per_game
    for s in range(4):
        g.t.score[s] = g.R.start_points
        g.p[s].policy = policies[s]
    g.t.phase = PH_HAND


# ------------------------------------------------------------------------------------------
# batch kernels

cdef void init_game(amgame_t* g, amrules_t* R) noexcept nogil:
    cdef int s
    for s in range(4):
        g.py_quiet_own[s] = 0
    g.R = R
    g.n_tiles = R.n_tiles
    g.t.ev = NULL
    g.t.n_ev = 0
    g.t.cap_ev = 0
    g.t.walls = NULL
    g.t.dice = NULL
    g.t.collect_claims = 0
    g.t.stop_at_hand_end = 0
    g.vs = NULL
    g.pick_d = -1
    for s in range(4):
        memset(g.p[s].h, 0, HROW)
        g.p[s].keep = R.keep


cdef int run_one(const void* rules, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies,
                 int32_t* out) noexcept nogil:
    """A whole game of built-in policies (run_batch's run_fn)."""
    cdef amgame_t g
    cdef int r
    init_game(&g, <amrules_t*>rules)
    g.t.out = out
    if g.R.c_lines:
        g.vs = <int16_t*>malloc(scratch_bytes(g.R))
        if g.vs == NULL:
            return ADV_ERROR
        scratch_parts(&g)
    start_game(&g, game_index, k0, k1, policies)
    r = advance(&g)
    free(g.vs)
    g.vs = NULL
    return r


cdef inline size_t scratch_bytes(const amrules_t* R) noexcept nogil:
    return sizeof(int16_t) * (2 * R.c_nvar + 5 * R.c_lines + 8) + 13 * <size_t>R.c_nvar + 64


cdef inline void scratch_parts(amgame_t* g) noexcept nogil:
    """Point the cache arrays into the scratch block at g.vs."""
    cdef uint8_t* b = <uint8_t*>(g.vs + 2 * g.R.c_nvar + 5 * g.R.c_lines + 8)
    cdef int V = g.R.c_nvar, s
    g.c_sr = b
    g.c_sf = b + 4 * V
    g.c_dv = b + 8 * V
    g.c_near = <int32_t*>(b + 9 * V + (-(9 * V) & 3))       # 4-byte aligned
    for s in range(4):
        g.c_snap_exp[s] = -1


cdef size_t card_scratch_bytes(const amrules_t* R) noexcept nogil:
    """Bytes of the card scratch a game under R needs (0 without a card)."""
    return scratch_bytes(R) if R.c_lines else 0


cdef int card_scratch_alloc(amgame_t* g) noexcept nogil:
    """Give g (init_game done) the card scratch its rules need, as run_one and AmericanTable
    do: 0, or -1 when out of memory. The owner frees g.vs."""
    if g.R.c_lines == 0:
        return 0
    g.vs = <int16_t*>malloc(scratch_bytes(g.R))
    if g.vs == NULL:
        return -1
    scratch_parts(g)
    return 0


cdef int game_dist(amgame_t* g, amplayer_t* p) noexcept nogil:
    """gdist for other kernels: the distance to the card's lines with a card, else to the
    beginner hand."""
    return gdist(g, p)


cdef amrules_t make_rules(dict r) except *:
    cdef amrules_t R
    memset(&R, 0, sizeof(amrules_t))
    R.jokers = r["jokers"]
    R.n_tiles = 144 + R.jokers
    R.second = r["second"]
    R.courtesy = r["courtesy"]
    R.blind = r["blind"]
    R.base_points = r["base_points"]
    R.start_points = r["start_points"]
    R.hands_per_game = r["hands_per_game"]
    R.keep = 0 if r.get("all_joker_sets", True) else 1
    card = r.get("card")
    R.c_lines = 0
    R.c_nvar = 0
    if card is not None:
        R.c_lines = len(card["flags"])
        R.c_nvar = len(card["xk"])
        R.c_rows = <const uint8_t*>cnp.PyArray_DATA(card["rows"])
        R.c_line_start = <const int32_t*>cnp.PyArray_DATA(card["line_start"])
        R.c_flags = <const uint8_t*>cnp.PyArray_DATA(card["flags"])
        R.c_xk = <const int8_t*>cnp.PyArray_DATA(card["xk"])
        R.c_xs = <const int8_t*>cnp.PyArray_DATA(card["xs"])
        R.c_points = <const int32_t*>cnp.PyArray_DATA(card["points"])
        R.c_bonus = <const uint8_t*>cnp.PyArray_DATA(card["bonus"])
        R.c_set_sizes = <const uint8_t*>cnp.PyArray_DATA(card["set_sizes"])
        R.c_rt = <const uint8_t*>cnp.PyArray_DATA(card["rt"])
        R.c_set_off = <const int32_t*>cnp.PyArray_DATA(card["set_off"])
        R.c_set_idx = <const int32_t*>cnp.PyArray_DATA(card["set_idx"])
        R.c_vconc = <const uint8_t*>cnp.PyArray_DATA(card["vconc"])
        R.c_ft = <const uint8_t*>cnp.PyArray_DATA(card["ft"])
        R.c_all_joker = card["all_joker_sets"]
        R.c_mult = card["multiplier"]
    R.c_disc_double = r.get("discarder_double", 0)
    return R


def out_width(dict rules):
    """Columns of a game's output row under these kernel rules (per-line columns with a card)."""
    card = rules.get("card")
    return N_OUT + (len(CARD_COLUMNS) * len(card["flags"]) if card is not None else 0)


CARD_COLUMNS = ("wins", "jokerless", "sum_before", "sum_after", "sq_before", "sq_after", "sq_change")


cdef class AmericanTable(Table):
    """A table of the American family that Python drives: ``AmericanTable(rules, capacity=0)``
    with the kernel rules dict and an event-log capacity."""

    ILLEGAL = ILLEGAL

    def __init__(self, dict rules, int capacity=0):
        self.R = make_rules(rules)
        self._card = rules.get("card")           # keeps the card's tables alive
        memset(&self.g, 0, sizeof(amgame_t))
        init_game(&self.g, &self.R)
        if self.R.c_lines:
            self.g.vs = <int16_t*>malloc(scratch_bytes(&self.R))
            if self.g.vs == NULL:
                raise MemoryError()
            scratch_parts(&self.g)
        self.t = &self.g.t
        self.width = out_width(rules)
        self._out = np.zeros(self.width, np.int32)
        self.g.t.out = <int32_t*>cnp.PyArray_DATA(self._out)
        self._set_log(capacity)

    def set_quiet(self, quiet):
        """Per seat, the bits of a Python seat's hooks that keep the built-in behaviour (the
        engine then does not ask them: 1 own turn, 2 pass, 4 second vote, 8 courtesy offer,
        16 courtesy tiles)."""
        cdef int s
        for s in range(4):
            self.g.py_quiet_own[s] = quiet[s]

    def __dealloc__(self):
        free(self.g.vs)
        self.g.vs = NULL

    cdef void _start(self, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept:
        self.g.t.n_ev = 0
        start_game(&self.g, game_index, k0, k1, policies)

    cdef int _advance(self) noexcept nogil:
        return advance(&self.g)

    cdef object _view(self, int seat):
        return seat_view(&self.g, seat)

    cdef int _n_tiles(self) noexcept:
        return self.g.n_tiles

    cdef void _hand_wall(self, int h, uint8_t* wall, int32_t* dice) noexcept nogil:
        dice[0] = dice[1] = 0
        if self.g.t.walls != NULL:
            memcpy(wall, self.g.t.walls + h * self.g.n_tiles, self.g.n_tiles)
            return
        shuffle_wall(&self.g, self.g.t.k0, self.g.t.k1, self.g.t.game_index * HANDS_STREAM + h)
        memcpy(wall, self.g.wall, self.g.n_tiles)


def simulate_batch(dict rules, const uint64_t[::1] game_index, uint64_t k0, uint64_t k1,
                   const int[:, ::1] policies, int32_t[:, ::1] out, int threads):
    """Play game game_index[i] with the built-in policies[i] into out[i] (OUT_WIDTH counters)
    on `threads` threads."""
    cdef amrules_t R = make_rules(rules)
    cdef Py_ssize_t n = game_index.shape[0]
    cdef int width = out_width(rules)
    if n == 0:
        return
    if out.shape[1] != width:
        raise ValueError(f"out must have {width} columns under these rules")
    with nogil:
        run_batch(run_one, &R, &game_index[0], n, k0, k1, &policies[0, 0], &out[0, 0], width, threads)
