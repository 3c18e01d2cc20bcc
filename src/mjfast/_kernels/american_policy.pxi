# The American family's built-in policies (beginner hand): discards, Charleston passes, calls,
# joker exchanges and their answers to a pending question (the environments' teachers).
# Included by american_game.pyx; the card-play variant is american_card_policy.pxi.

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
