# The American family's rules of play: what a seat sees, the Charleston, one hand (deal,
# settle, calls, joker exchange, own turn) and the game as a state machine of phases.
# Included by american_game.pyx (one C module); the bots it calls are in american_policy.pxi
# and american_card_policy.pxi, the state in american_game.pxd.

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
