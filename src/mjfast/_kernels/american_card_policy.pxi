# The American family's card-play policy (rules with a card, g.R.c_lines > 0): each seat's
# distances to the card's lines, kept up to date as tiles move, and the picks and calls they
# give. Included by american_game.pyx (one C module: the nogil hot paths stay inlined); the
# state it reads is declared in american_game.pxd.

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
