# cython: language_level=3
"""The American game engine (beginner hand): Charleston, play, calls, joker exchange (private).

The public API is mjfast.amsim (``mjfast.simulate(..., rules="american")``). A game is
``hands_per_game`` hands; hand ``h`` of game ``g`` shuffles its whole set (144 tiles + jokers,
physical ids: 0-135 standard, 136-143 flowers, 144.. jokers) with the stream
``(k0, k1, g * 64 + h)``; built-in policies draw from a second stream of the game
(key k0 ^ AM_POLICY_SALT), so a game is a pure function of (seed, game index, policies).

Kinds here: 0-33 standard, 34 = flower (the 8 flowers are one kind), 35 = joker.
The rules are documented in amsim.py (module docstring) and README "American play".
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from mjfast._kernels.rng cimport rng_t, rng_seed_stream, rng_bounded16
from mjfast._kernels.engine cimport shuffle_ids, write_event
from mjfast._kernels.hand cimport imin
from mjfast._kernels.american cimport american_distance
from mjfast._kernels.american_play cimport am_dist_hist, am_hist, am_top, am_overlap

cnp.import_array()

cdef enum:
    MAX_SET = 160
    N_STD = 136
    FIRST_JOKER = 144
    FLOWER = 34
    JOKER = 35
    NK = 36
    HANDS_STREAM = 64
    MAX_DISC = 128

# policies
cdef enum:
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_PYTHON = 3

# event types (decoded in amsim._decode)
cdef enum:
    EV_HAND = 1        # seat = dealer
    EV_DEAL = 2        # seat receives tile id a
    EV_PASS = 3        # seat passes kind a in pass b (0-2 first Charleston, 3-5 second, 6 courtesy)
    EV_RECEIVE = 4     # seat keeps kind a passed in pass b (from the passer in that direction)
    EV_BLIND = 5       # seat blind-passes on kind a (received unseen) in pass b
    EV_SECOND = 6      # a = 1: the second Charleston is danced, 0: not
    EV_DRAW = 7        # seat draws tile id a
    EV_DISCARD = 8     # seat discards kind a
    EV_CALL = 9        # seat calls kind a and exposes a set of four with b jokers
    EV_EXCHANGE = 10   # seat swaps kind a from hand for a joker in seat b's exposed set of a
    EV_WIN = 11        # seat goes Mahjong; a = 1 self-drawn / 0 on a discard, b = discarder (-1)
    EV_WALL = 12       # the wall is used up: wall game
    EV_DEAD = 13       # seat's hand is dead (a = 1: false Mahjong)
    EV_SCORE = 14      # seat's score changes by a (b = running total)
    EV_COURTESY = 15   # seat offers a tiles in the courtesy pass

cdef enum:
    ERR_NONE = 0
    ERR_PYTHON = 1

# per-game output columns (layout documented in amsim.py)
cdef enum:
    C_OUT_WIDTH = 160
    DIST_BEFORE = 40
    DIST_AFTER = 100

OUT_WIDTH = C_OUT_WIDTH
OUT_DIST_BEFORE = DIST_BEFORE
OUT_DIST_AFTER = DIST_AFTER

ctypedef struct amrules_t:
    int n_tiles
    int jokers
    int second          # 0 never, 1 always, 2 if any player wants it
    int courtesy        # 0 no courtesy pass, 1 policies offer 0-3
    int blind           # blind pass allowed on the last pass of each Charleston
    int base_points
    int start_points
    int hands_per_game

ctypedef struct amplayer_t:
    uint8_t h[NK]           # concealed tiles by kind (35 = jokers)
    uint8_t excl[NK]        # kinds of this player's exposed sets
    int n_hand
    int n_exp
    uint8_t exp_kind[4]
    uint8_t exp_jokers[4]
    int dead
    int policy
    int d                   # distance of the hand at its last refresh (after the Charleston, after each discard)
    int plan_valid          # plan/plan_raises hold greedy_pass_plan of the current hand (Charleston)
    int plan[3]
    int plan_raises[3]
    uint8_t disc[MAX_DISC]
    int n_disc

ctypedef struct amgame_t:
    amrules_t* R
    uint8_t wall[MAX_SET]
    int n_tiles
    int front
    amplayer_t p[4]
    uint8_t visible[NK]     # discards and exposed tiles (jokers in exposures included)
    int dealer
    int hand_no
    int turn
    int drawn
    int exp_jokers          # jokers in all exposed sets (0: no exchange possible)
    rng_t prng
    int32_t* ev
    int n_ev
    int cap_ev
    int error
    void* py_ctx
    int py_quiet_own[4]     # bits of a Python seat's default hooks, not called (see _AmContext.quiet)
    int32_t* out


cdef inline void log_ev(amgame_t* g, int typ, int seat, int a, int b) noexcept nogil:
    write_event(g.ev, &g.n_ev, g.cap_ev, typ, g.hand_no, seat, a, b)


cdef inline int kind_of_id(int t) noexcept nogil:
    if t < N_STD:
        return t >> 2
    if t < FIRST_JOKER:
        return FLOWER
    return JOKER


cdef inline int copies(int k) noexcept nogil:
    return 8 if k == FLOWER else 4


cdef inline int pdist(amplayer_t* p) noexcept nogil:
    cdef int hist[9]
    am_hist(p.h, p.excl, hist)
    return am_dist_hist(hist, p.h[JOKER], p.n_exp)


cdef inline int dist_plus(amplayer_t* p, int k) noexcept nogil:
    """Distance with one more tile of kind k (0-34)."""
    cdef int d
    p.h[k] += 1
    d = pdist(p)
    p.h[k] -= 1
    return d


cdef inline int next_live(amgame_t* g, int s) noexcept nogil:
    cdef int i, t
    for i in range(1, 5):
        t = (s + i) & 3
        if not g.p[t].dead:
            return t
    return -1


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
    am_hist(p.h, p.excl, hist)
    am_top(hist, need + 1, top)
    base = full - am_overlap(top, need, J)
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
        dc[c] = full - am_overlap(u_, need, J)
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
        d = full - am_overlap(top, need, J - 1)
        if d < best_d:
            best_d = d
            best_k = JOKER
    d_after[0] = best_d
    return best_k


cdef int random_tile(amgame_t* g, amplayer_t* p, bint allow_joker) noexcept nogil:
    cdef int n = p.n_hand - (0 if allow_joker else p.h[JOKER]), r, k
    if n <= 0:
        return -1
    r = <int>rng_bounded16(&g.prng, <uint32_t>n)
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
    before = pdist(p)
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

cdef object _view(amgame_t* g, int seat):
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
        "seat": seat, "dealer": g.dealer, "hand_number": g.hand_no, "turn": g.turn,
        "hand": hand, "exposures": tuple(exposures), "discards": tuple(discards), "visible": visible,
        "dead": tuple(bool(g.p[s].dead) for s in range(4)),
        "wall_left": g.n_tiles - g.front, "drawn": g.drawn,
    }


cdef int py_call(amgame_t* g, int seat, int what, int tile, int* options, int n_options) noexcept nogil:
    """Ask a Python policy (what: 0 discard, 1 claim, 2 own turn, 4 Charleston pass, 5 second
    Charleston vote, 6 courtesy offer, 7 courtesy tiles). Errors set g.error."""
    cdef int result = -1
    with gil:
        try:
            ctx = <object>g.py_ctx
            result = ctx.ask(_view(g, seat), what, tile, [options[i] for i in range(n_options)])
        except BaseException as exc:
            (<object>g.py_ctx).fail(exc)
            g.error = ERR_PYTHON
            result = -1
    return result


ILLEGAL = {
    1: "discard of a tile not in hand",
}


cdef int _illegal(amgame_t* g, int code, int kind) noexcept nogil:
    with gil:
        if g.py_ctx != NULL:
            (<object>g.py_ctx).illegal(g.turn, ILLEGAL[code], kind)
    g.error = ERR_PYTHON
    return -2


# ------------------------------------------------------------------------------------------
# the Charleston

cdef int choose_pass(amgame_t* g, int s, int passno, bint blind_ok, int n_fixed, int* kinds) noexcept nogil:
    """kinds[0..] = own tiles s passes; returns how many tiles s blind-passes (0 unless blind_ok).

    n_fixed > 0: exactly n_fixed own tiles (courtesy pass), never blind."""
    cdef amplayer_t* p = &g.p[s]
    cdef int n = 3 if n_fixed == 0 else n_fixed, i, b = 0, code, k
    cdef int raises[3]
    if p.policy == POL_PYTHON and not (g.py_quiet_own[s] & (16 if n_fixed else 2)):
        code = py_call(g, s, 7 if n_fixed else 4, passno, &n, 1)
        if g.error:
            return 0
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


cdef void do_pass(amgame_t* g, int direction, int passno, bint blind_ok) noexcept nogil:
    """One pass of three tiles to the player `direction` seats on (1 right, 2 across, 3 left).

    Blind pass: a player passing b tiles blind gives only 3 - b own tiles; the tiles arriving
    at a player fill her 3 - b places in order of arrival (the passer's own tiles first, in her
    order; then tiles forwarded on), and the rest go on unseen to the next player. Jokers are
    never passed."""
    cdef int s, r, i, j, b, m, rnd, k, moving
    cdef int kinds[4][3]
    cdef int nb[4]
    cdef int need[4]
    cdef int outq[4][12]
    cdef int nout[4]
    cdef int newq[4][12]
    cdef int nnew[4]
    for s in range(4):
        nb[s] = choose_pass(g, s, passno, blind_ok, 0, kinds[s])
        if g.error:
            return
    for s in range(4):
        b = nb[s]
        need[s] = 3 - b
        nout[s] = 3 - b
        for i in range(3 - b):
            k = kinds[s][i]
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
    if p.policy == POL_PYTHON and not (g.py_quiet_own[s] & 4):
        v = py_call(g, s, 5, 0, NULL, 0)
        if g.error or v >= 0:
            return v
    if p.policy == POL_RANDOM:
        return <int>rng_bounded16(&g.prng, 2)
    greedy_pass_plan(g, p, 3, kinds, raises)
    return 0 if raises[2] else 1


cdef int courtesy_offer(amgame_t* g, int s) noexcept nogil:
    cdef amplayer_t* p = &g.p[s]
    cdef int kinds[3]
    cdef int raises[3]
    cdef int v, i
    if p.policy == POL_PYTHON and not (g.py_quiet_own[s] & 8):
        v = py_call(g, s, 6, 0, NULL, 0)
        if g.error or v >= 0:
            return v
    if p.policy == POL_RANDOM:
        return <int>rng_bounded16(&g.prng, 4)
    greedy_pass_plan(g, p, 3, kinds, raises)
    for i in range(3):
        if raises[i]:
            return i
    return 3


cdef void charleston(amgame_t* g) noexcept nogil:
    cdef int s, i, any_yes, k, n
    cdef int offer[4]
    cdef int kinds[4][3]
    # first Charleston: right, across, left (blind pass allowed on the last)
    do_pass(g, 1, 0, False)
    if g.error:
        return
    do_pass(g, 2, 1, False)
    if g.error:
        return
    do_pass(g, 3, 2, g.R.blind)
    if g.error:
        return
    if g.R.second == 2:
        any_yes = 0
        for s in range(4):
            if second_vote(g, s) == 1:
                any_yes = 1
            if g.error:
                return
    else:
        any_yes = g.R.second
    log_ev(g, EV_SECOND, g.dealer, any_yes, 0)
    if any_yes:
        g.out[35] += 1
        do_pass(g, 3, 3, False)
        if g.error:
            return
        do_pass(g, 2, 4, False)
        if g.error:
            return
        do_pass(g, 1, 5, g.R.blind)
        if g.error:
            return
    if not g.R.courtesy:
        return
    for s in range(4):
        offer[s] = courtesy_offer(g, s)
        if g.error:
            return
        log_ev(g, EV_COURTESY, s, offer[s], 0)
    for s in range(4):
        n = imin(offer[s], offer[(s + 2) & 3])
        if n > 0:
            choose_pass(g, s, 6, False, n, kinds[s])
            if g.error:
                return
    for s in range(4):
        n = imin(offer[s], offer[(s + 2) & 3])
        for i in range(n):
            k = kinds[s][i]
            g.p[s].h[k] -= 1
            g.p[(s + 2) & 3].h[k] += 1
            log_ev(g, EV_PASS, s, k, 6)
            log_ev(g, EV_RECEIVE, (s + 2) & 3, k, 6)
        g.out[36] += n


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
        memset(g.p[s].h, 0, NK)
        memset(g.p[s].excl, 0, NK)
        g.p[s].n_hand = 0
        g.p[s].n_exp = 0
        g.p[s].dead = 0
        g.p[s].n_disc = 0
        g.p[s].plan_valid = 0
    g.turn = 0
    g.drawn = -1
    g.exp_jokers = 0
    log_ev(g, EV_HAND, g.dealer, 0, 0)
    for q in range(4):
        seat = (g.dealer + q) & 3
        for i in range(14 if q == 0 else 13):
            t = g.wall[g.front]
            g.front += 1
            log_ev(g, EV_DEAL, seat, t, 0)
            g.p[seat].h[kind_of_id(t)] += 1
            g.p[seat].n_hand += 1


cdef void record_dist(amgame_t* g, int col) noexcept nogil:
    cdef int s, d
    for s in range(4):
        d = pdist(&g.p[s])
        g.p[s].d = d
        g.out[col + s * 15 + d] += 1


cdef bint jokerless(amplayer_t* p) noexcept nogil:
    cdef int j
    if p.h[JOKER]:
        return False
    for j in range(p.n_exp):
        if p.exp_jokers[j]:
            return False
    return True


cdef void settle(amgame_t* g, int winner, int self_draw, int discarder, int32_t* score) noexcept nogil:
    cdef int s, pay = g.R.base_points
    cdef int delta[4]
    if self_draw:
        pay *= 2
    if jokerless(&g.p[winner]):
        pay *= 2
        g.out[16 + winner] += 1
    g.out[4 + winner] += 1
    if self_draw:
        g.out[8 + winner] += 1
    elif discarder >= 0:
        g.out[12 + discarder] += 1
    for s in range(4):
        delta[s] = -pay
    delta[winner] = 3 * pay
    for s in range(4):
        score[s] += delta[s]
        log_ev(g, EV_SCORE, s, delta[s], score[s])


cdef void make_dead(amgame_t* g, int s) noexcept nogil:
    g.p[s].dead = 1
    g.out[20 + s] += 1
    log_ev(g, EV_DEAD, s, 1, 0)


cdef bint can_quad(amgame_t* g, int s, int k) noexcept nogil:
    cdef amplayer_t* p = &g.p[s]
    return k < JOKER and not p.excl[k] and p.n_exp < 3 and p.h[k] + p.h[JOKER] >= 3


cdef bint greedy_calls(amgame_t* g, int s, int k) noexcept nogil:
    """Greedy calls a discard for a set of four when the distance after the call and its best
    discard is lower than the distance now."""
    cdef amplayer_t* p = &g.p[s]
    cdef int cur = pdist(p), nn = imin(p.h[k], 3), jj, d
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
    g.out[28 + seat] += 1
    log_ev(g, EV_EXCHANGE, seat, k, owner)


cdef int own_turn(amgame_t* g, int seat) noexcept nogil:
    """Mahjong check and joker exchanges after a draw: 1 = Mahjong, 0 = go on to discard,
    2 = the hand went dead (false Mahjong), -2 = error."""
    cdef amplayer_t* p = &g.p[seat]
    cdef int opts[64]
    cdef int n, i, d, d2, k, o, choice
    cdef bint exchanged = False         # p.d describes the hand before this turn's exchanges
    while True:
        n = exchange_options(g, seat, opts + 1)
        if n == 0 and not exchanged and p.d > 1 and (p.policy != POL_PYTHON or g.py_quiet_own[seat] & 1):
            return 0                    # one drawn tile cannot complete the hand
        d = pdist(p)
        if p.policy == POL_PYTHON and g.py_quiet_own[seat] & 1 and n == 0 and d != 0:
            return 0
        if p.policy == POL_PYTHON:
            opts[0] = 1000 if d == 0 else -1
            choice = py_call(g, seat, 2, g.drawn, opts, n + 1)
            if g.error:
                return -2
            if choice == -2:            # Mahjong declared on an incomplete hand
                return 2
            if choice < 0:
                return 0
            if choice == 0:
                return 1
            do_exchange(g, seat, opts[choice] >> 2, opts[choice] & 3)
            exchanged = True
            continue
        if d == 0:
            return 1
        if p.policy == POL_RANDOM:
            return 0
        choice = -1
        for i in range(1, n + 1):
            k = opts[i] >> 2
            p.h[k] -= 1
            p.h[JOKER] += 1
            d2 = pdist(p)
            p.h[JOKER] -= 1
            p.h[k] += 1
            if d2 <= d:
                choice = i
                break
        if choice < 0:
            return 0
        do_exchange(g, seat, opts[choice] >> 2, opts[choice] & 3)
        exchanged = True


cdef int choose_discard(amgame_t* g, int seat) noexcept nogil:
    cdef amplayer_t* p = &g.p[seat]
    cdef int d, k
    if p.policy == POL_GREEDY:
        k = greedy_pick(g, p, True, &d)
        p.d = d                          # the distance after this discard
        return k
    if p.policy == POL_RANDOM:
        return random_tile(g, p, True)
    d = py_call(g, seat, 0, g.drawn, NULL, 0)
    if g.error:
        return -1
    return d


cdef enum:
    MODE_DRAW = 0
    MODE_OWN = 1
    MODE_CALLED = 2


cdef int claim_choice(amgame_t* g, int s, int k, bint win_ok, bint quad_ok) noexcept nogil:
    """0 none, 1 Mahjong, 2 call for a set of four, 3 false Mahjong (dead), -2 error."""
    cdef amplayer_t* p = &g.p[s]
    cdef int opts[2]
    cdef int c
    if p.policy == POL_PYTHON:
        opts[0] = 1 if win_ok else -1
        opts[1] = 2 if quad_ok else -1
        c = py_call(g, s, 1, k, opts, 2)
        if g.error:
            return -2
        if c == -2:
            return 3
        return 0 if c < 0 else opts[c]
    if win_ok:
        return 1
    if p.policy == POL_RANDOM or not quad_ok:
        return 0
    return 2 if greedy_calls(g, s, k) else 0


cdef int play_hand(amgame_t* g, int32_t* score) noexcept nogil:
    """Play one hand after the Charleston; returns the winner, -1 without one, -2 on error."""
    cdef int cur = g.dealer, mode = MODE_OWN, t, k, i, s, r, discarder, winner, caller, nn, jj, dp
    cdef int choice[4]
    cdef amplayer_t* p
    cdef bint win_ok, quad_ok
    g.drawn = -1
    while True:
        if cur < 0:
            return -1                   # every hand is dead
        p = &g.p[cur]
        if mode == MODE_DRAW:
            if g.front >= g.n_tiles:
                log_ev(g, EV_WALL, cur, 0, 0)
                g.out[34] += 1
                return -1
            t = g.wall[g.front]
            g.front += 1
            log_ev(g, EV_DRAW, cur, t, 0)
            k = kind_of_id(t)
            p.h[k] += 1
            p.n_hand += 1
            g.drawn = k
            mode = MODE_OWN
        g.turn += 1
        g.out[33] += 1
        if mode == MODE_OWN:
            r = own_turn(g, cur)
            if r == -2:
                return -2
            if r == 1:
                log_ev(g, EV_WIN, cur, 1, -1)
                settle(g, cur, 1, -1, score)
                return cur
            if r == 2:
                make_dead(g, cur)
                cur = next_live(g, cur)
                mode = MODE_DRAW
                continue
        k = choose_discard(g, cur)
        if g.error:
            return -2
        if k < 0 or k >= NK or p.h[k] == 0:
            return _illegal(g, 1, k)
        p.h[k] -= 1
        p.n_hand -= 1
        g.visible[k] += 1
        if p.n_disc < MAX_DISC:
            p.disc[p.n_disc] = <uint8_t>k
            p.n_disc += 1
        log_ev(g, EV_DISCARD, cur, k, 0)
        if p.policy != POL_GREEDY:
            p.d = pdist(p)
        discarder = cur
        g.drawn = -1
        winner = -1
        caller = -1
        if k != JOKER:                  # a discarded joker cannot be called
            for i in range(1, 4):
                s = (discarder + i) & 3
                choice[i] = 0
                if g.p[s].dead:
                    continue
                quad_ok = can_quad(g, s, k)
                if g.p[s].d != 1 and not quad_ok:
                    continue            # neither Mahjong (needs distance 1) nor a call
                dp = dist_plus(&g.p[s], k)
                win_ok = dp == 0
                if not (win_ok or quad_ok):
                    continue
                if g.p[s].policy == POL_GREEDY and not win_ok and dp >= g.p[s].d:
                    continue            # the call could not lower the distance (see greedy_calls)
                choice[i] = claim_choice(g, s, k, win_ok, quad_ok)
                if choice[i] == -2:
                    return -2
                if choice[i] == 3:
                    make_dead(g, s)
                    choice[i] = 0
                elif choice[i] == 1 and not win_ok or choice[i] == 2 and not quad_ok:
                    choice[i] = 0
                if choice[i] == 1 and winner < 0:
                    winner = s
                    break               # Mahjong beats everything; the nearest in turn order
                if choice[i] == 2 and caller < 0:
                    caller = s
        if winner >= 0:
            g.p[winner].h[k] += 1
            g.p[winner].n_hand += 1
            g.visible[k] -= 1
            log_ev(g, EV_WIN, winner, 0, discarder)
            settle(g, winner, 0, discarder, score)
            return winner
        if caller >= 0:
            p = &g.p[caller]
            nn = imin(p.h[k], 3)
            jj = 3 - nn
            p.h[k] -= nn
            p.h[JOKER] -= jj
            p.n_hand -= 3
            g.visible[k] += nn
            g.visible[JOKER] += jj
            p.excl[k] = 1
            p.exp_kind[p.n_exp] = <uint8_t>k
            p.exp_jokers[p.n_exp] = <uint8_t>jj
            p.n_exp += 1
            g.exp_jokers += jj
            g.out[24 + caller] += 1
            log_ev(g, EV_CALL, caller, k, jj)
            cur = caller
            mode = MODE_CALLED
            continue
        cur = next_live(g, discarder)
        mode = MODE_DRAW


cdef int play_game(amgame_t* g, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies,
                   int32_t* out, const uint8_t* walls=NULL) noexcept nogil:
    cdef int h, s, w
    cdef int32_t score[4]
    memset(out, 0, C_OUT_WIDTH * sizeof(int32_t))
    g.out = out
    for s in range(4):
        score[s] = g.R.start_points
        g.p[s].policy = policies[s]
    rng_seed_stream(&g.prng, k0 ^ 0xA3E1C4A2B5D6F708ULL, k1, game_index)
    for h in range(g.R.hands_per_game):
        g.hand_no = h
        g.dealer = h & 3
        if walls != NULL:
            memcpy(g.wall, walls + h * g.n_tiles, g.n_tiles)
        else:
            shuffle_wall(g, k0, k1, game_index * HANDS_STREAM + h)
        deal_hand(g)
        record_dist(g, DIST_BEFORE)
        charleston(g)
        if g.error:
            return -2
        record_dist(g, DIST_AFTER)
        w = play_hand(g, score)
        if w == -2:
            return -2
        out[32] += 1
    for s in range(4):
        out[s] = score[s]
    return 0


cdef void init_game(amgame_t* g, amrules_t* R, void* ctx, int32_t* ev, int cap_ev, object quiet=None):
    cdef int s
    for s in range(4):
        g.py_quiet_own[s] = quiet[s] if quiet is not None else 0
    g.R = R
    g.n_tiles = R.n_tiles
    g.ev = ev
    g.n_ev = 0
    g.cap_ev = cap_ev
    g.error = ERR_NONE
    g.py_ctx = ctx


cdef int run_one(amrules_t* R, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies,
                 int32_t* out) noexcept nogil:
    cdef amgame_t g
    cdef int s
    for s in range(4):
        g.py_quiet_own[s] = 0
    g.R = R
    g.n_tiles = R.n_tiles
    g.ev = NULL
    g.n_ev = 0
    g.cap_ev = 0
    g.error = ERR_NONE
    g.py_ctx = NULL
    return play_game(&g, game_index, k0, k1, policies, out)


cdef amrules_t make_rules(dict r):
    cdef amrules_t R
    R.jokers = r["jokers"]
    R.n_tiles = 144 + R.jokers
    R.second = r["second"]
    R.courtesy = r["courtesy"]
    R.blind = r["blind"]
    R.base_points = r["base_points"]
    R.start_points = r["start_points"]
    R.hands_per_game = r["hands_per_game"]
    return R


def simulate_batch(dict rules, const uint64_t[::1] game_index, uint64_t k0, uint64_t k1,
                   const int[:, ::1] policies, int32_t[:, ::1] out, int threads, object ctx=None):
    """Play game game_index[i] with policies[i] into out[i] (OUT_WIDTH counters); returns the
    index of the first game a Python policy error stopped, or -1."""
    cdef amrules_t R = make_rules(rules)
    cdef Py_ssize_t i, n = game_index.shape[0]
    cdef amgame_t g
    cdef int r
    if n == 0:
        return -1
    if ctx is None:
        with nogil:
            for i in prange(n, schedule="dynamic", chunksize=16, num_threads=threads):
                run_one(&R, game_index[i], k0, k1, &policies[i, 0], &out[i, 0])
        return -1
    init_game(&g, &R, <void*>ctx, NULL, 0, ctx.quiet_own_turn)
    for i in range(n):
        with nogil:
            r = play_game(&g, game_index[i], k0, k1, &policies[i, 0], &out[i, 0])
        if r == -2:
            return i
    return -1


def play_logged(dict rules, uint64_t game_index, uint64_t k0, uint64_t k1, const int[::1] policies,
                int32_t[::1] out, object ctx=None, object walls=None, int capacity=65536):
    """Play one game with its event log: (events (m, 5) int32, walls (hands, n_tiles) uint8, failed)."""
    cdef amrules_t R = make_rules(rules)
    cdef amgame_t g
    cdef int r, h
    ev = np.zeros((capacity, 5), np.int32)
    cdef int32_t[:, ::1] evv = ev
    if walls is None:
        walls = np.zeros((R.hands_per_game, R.n_tiles), np.uint8)
        for h in range(R.hands_per_game):
            g.n_tiles = R.n_tiles
            shuffle_wall(&g, k0, k1, game_index * HANDS_STREAM + h)
            for r in range(R.n_tiles):
                walls[h, r] = g.wall[r]
    cdef const uint8_t[:, ::1] wv = walls
    init_game(&g, &R, <void*>ctx if ctx is not None else NULL, &evv[0, 0], capacity,
              ctx.quiet_own_turn if ctx is not None else None)
    r = play_game(&g, game_index, k0, k1, &policies[0], &out[0], &wv[0, 0])
    return ev[: g.n_ev].copy(), np.asarray(walls), r == -2


def distance_batch(const uint8_t[:, ::1] hands, const uint8_t[:, ::1] excl, const int32_t[::1] n_exp,
                   int32_t[::1] out):
    """Exposure-aware distance of each row: hands (n, 36) concealed counts (35 = jokers),
    excl (n, 35) exposed kinds, n_exp (n,) number of exposed sets."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef int hist[9]
    with nogil:
        for i in range(n):
            am_hist(&hands[i, 0], &excl[i, 0], hist)
            out[i] = am_dist_hist(hist, hands[i, 35], n_exp[i])


def concealed_distance_batch(const uint8_t[:, ::1] hands, int32_t[::1] out):
    """american_distance (no exposures) of each row of (n, 36) counts: the kernel of _american.pxd."""
    cdef Py_ssize_t i, n = hands.shape[0]
    with nogil:
        for i in range(n):
            out[i] = american_distance(&hands[i, 0], hands[i, 34], hands[i, 35])
