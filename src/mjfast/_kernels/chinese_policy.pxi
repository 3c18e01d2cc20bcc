# The Chinese family's built-in policies (bots): discards, claims and their answers to a
# pending question (the environments' teachers). Included by chinese_game.pyx: one module, so
# the nogil hot paths stay inlined; the state they read is declared in chinese_game.pxd.

# ------------------------------------------------------------------------------------------
# built-in policies

cdef int unseen(game_t* g, int seat, int k) noexcept nogil:
    return 4 - g.p[seat].hand[k] - g.visible[k]


# Index helpers of the shanten tables: with the other suit of its half at class `partner`,
# suit s's class cl gives the half value pair_row(s, partner)[cl * pair_stride(s)]; with the
# other half at its value (mp0 or sz0), half value v gives the distance
# final_row(s)[v * final_stride(s)] (FINAL[(mp * n_sz + sz) * 8 + sets]).
cdef inline int pair_stride(const mj_tables_t* T, int s) noexcept nogil:
    return T.n_suit if s == 0 else (T.n_honor if s == 2 else 1)


cdef inline const uint8_t* pair_row(const mj_tables_t* T, int s, int partner) noexcept nogil:
    if s == 0:
        return T.pair_mp + partner
    if s == 1:
        return T.pair_mp + partner * T.n_suit
    if s == 2:
        return T.pair_sz + partner
    return T.pair_sz + partner * T.n_honor


cdef inline int final_stride(const mj_tables_t* T, int s) noexcept nogil:
    return T.n_sz * 8 if s < 2 else 8


cdef inline const uint8_t* final_row(const mj_tables_t* T, int s, int mp0, int sz0, int sets) noexcept nogil:
    return T.final + (sz0 * 8 if s < 2 else mp0 * T.n_sz * 8) + sets


cdef inline uint64_t lane_bits(uint64_t lanes) noexcept nogil:
    """Bit i = bit 0 of byte lane i (the other bits of each lane must be 0)."""
    return (lanes * 0x0102040810204080ULL) >> 56


cdef inline uint64_t lanes_to_kinds(uint64_t w0, uint64_t w8, uint64_t w16, uint64_t w24, uint64_t w26) noexcept nogil:
    """34-bit kind set from byte-lane flags (bit 7 of each lane) of the words at 0, 8, 16, 24
    and 26 of a 34-byte array (the last overlapping: its lanes 6, 7 are kinds 32, 33)."""
    return (lane_bits((w0 >> 7) & LANES_LO) | lane_bits((w8 >> 7) & LANES_LO) << 8
            | lane_bits((w16 >> 7) & LANES_LO) << 16 | lane_bits((w24 >> 7) & LANES_LO) << 24
            | (lane_bits((w26 >> 7) & LANES_LO) >> 6) << 32)


cdef inline uint64_t lanes_equal(uint64_t w, uint64_t v) noexcept nogil:
    """Bit 7 set in the byte lanes of w equal to v (lanes below 128)."""
    cdef uint64_t y = w ^ (v * LANES_LO)
    return ~(((y & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | y) & 0x8080808080808080ULL


cdef inline uint64_t kinds_equal(const uint8_t* sh, int v) noexcept nogil:
    """The kinds k with sh[k] == v (sh: 34 values below 128)."""
    return lanes_to_kinds(lanes_equal(mj_load64(sh), v), lanes_equal(mj_load64(sh + 8), v),
                          lanes_equal(mj_load64(sh + 16), v), lanes_equal(mj_load64(sh + 24), v),
                          lanes_equal(mj_load64(sh + 26), v))


cdef inline uint64_t kinds_above(const uint8_t* sh, int v) noexcept nogil:
    """The kinds k with sh[k] > v (sh: 34 values below 128; 0 <= v < 128): x + 127 - v
    reaches bit 7 exactly when x > v, and stays below 256."""
    cdef uint64_t add = <uint64_t>(127 - v) * LANES_LO
    return lanes_to_kinds(mj_load64(sh) + add, mj_load64(sh + 8) + add, mj_load64(sh + 16) + add,
                          mj_load64(sh + 24) + add, mj_load64(sh + 26) + add)


cdef inline uint64_t held_kinds(const uint8_t* h) noexcept nogil:
    """The kinds with a count of at least one in h (34 counts 0..4), by SWAR."""
    return lanes_to_kinds(mj_ones_ge(mj_load64(h), 1) << 7, mj_ones_ge(mj_load64(h + 8), 1) << 7,
                          mj_ones_ge(mj_load64(h + 16), 1) << 7, mj_ones_ge(mj_load64(h + 24), 1) << 7,
                          mj_ones_ge(mj_load64(h + 26), 1) << 7)


cdef int std_each_discard(game_t* g, const uint8_t* h, const codes_t* c, uint8_t* sh) noexcept nogil:
    """sh[k] = standard shanten of h minus one k for every held kind (99 otherwise); returns the min.

    Only the held kinds are looked up (a hand holds about a third of the kinds): per suit,
    the class of the suit without the kind, its pair value pt[s][class * pstride[s]], and
    FINAL row[s][value * fstride[s]] with the other half at h's value."""
    cdef const mj_tables_t* T = g.T
    cdef int sets = (c.n - 1) // 3, k, s, v, best = 99
    cdef int cls[4]
    cdef const uint8_t* cls_of[4]
    cdef const uint8_t* pt[4]
    cdef const uint8_t* row[4]
    cdef int pstride[4]
    cdef int fstride[4]
    cdef uint64_t held = held_kinds(h)
    cls_of[0] = cls_of[1] = cls_of[2] = T.suit_class
    cls_of[3] = T.honor_class
    for s in range(4):
        cls[s] = cls_of[s][c.c[s]]
    cdef int mp0 = T.pair_mp[cls[0] * T.n_suit + cls[1]], sz0 = T.pair_sz[cls[2] * T.n_honor + cls[3]]
    for s in range(4):
        pt[s] = pair_row(T, s, cls[s ^ 1])
        pstride[s] = pair_stride(T, s)
        row[s] = final_row(T, s, mp0, sz0, sets)
        fstride[s] = final_stride(T, s)
    memset(sh, 99, 34)
    while held:
        k = mj_ctz64(held)
        held &= held - 1
        s = SUIT_OF[k]
        v = row[s][pt[s][cls_of[s][c.c[s] - POW5[k - 9 * s]] * pstride[s]] * fstride[s]] - 1
        sh[k] = v
        best = imin(best, v)
    return best


cdef int SPECIAL_BITS[4]
SPECIAL_BITS[:] = [FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS, FORM_HONORS_KNITTED, FORM_KNITTED_STRAIGHT]


cdef int each_discard(game_t* g, uint8_t* h, const codes_t* c, uint8_t* sh, int* live, hand_t* f) noexcept nogil:
    """std_each_discard() for the rule set's forms: a special form can only matter for a
    discard whose standard shanten is above that form's shanten of the whole hand (removing a
    tile never lowers a form's shanten), so each discard evaluates only those forms. sh[k]
    is exact where it is at most the returned best + 1 (all the greedy and defensive policies
    use); a larger value may stand for a smaller one that is still above best + 1.

    ``live`` (may be NULL) receives the special forms (with the rule flags) whose shanten of h
    is at most the returned best: the only ones that can bring a discard's hand plus a drawn
    tile below it (a draw lowers a shanten by at most one), i.e. the only ones the greedy
    tie-break has to look at. 0 when none. When it is not 0, f holds h's features (as
    load_counts fills them for the rule set's forms)."""
    cdef int best = std_each_discard(g, h, c, sh), k, sp, s, i, sub
    cdef int flags = g.R.forms & FLAG_KONG_TWO_PAIRS, forms = g.R.forms, feat = features_for(g.R.forms)
    cdef int sf[4]
    cdef int k3[9]
    cdef uint32_t held[3]
    cdef hand_t fk
    cdef uint64_t todo = 0
    if live != NULL:
        live[0] = 0
    if c.n == 11:                # one called set: of the special forms only the knitted straight
        forms &= FORM_STANDARD | FORM_KNITTED_STRAIGHT
        if forms & FORM_KNITTED_STRAIGHT:
            # its shanten is at least 8 - (knitted tiles held), from the held ranks alone
            number_ranks_held(h, held)
            if 8 - knit_counts(held, k3) > best + 1:
                return best
    elif c.n != 14:
        forms = FORM_STANDARD    # (special forms need 13 tiles after the discard, or 10)
    if not (forms & FORMS_SPECIAL):
        return best
    # each form's shanten of the whole hand, capped at best + 2 (larger values decide nothing)
    load_counts(h, f, feat)
    special_distances(f, forms, g.T, best + 3, sf)
    sp = 99
    for i in range(4):
        sf[i] -= sf[i] != 99
        sp = imin(sp, sf[i])
    if sp > best + 1:           # greedy uses the best and (defensive) best + 1 discards only
        return best
    todo = kinds_above(sh, sp) & ~kinds_equal(sh, 99)   # (sh[k] is 99 for kinds not held)
    while todo:
        k = mj_ctz64(todo)
        todo &= todo - 1
        sub = flags
        for i in range(4):
            if sf[i] < sh[k]:
                sub |= SPECIAL_BITS[i]
        hand_minus(f, h, k, feat, &fk)
        s = special_distance(&fk, sub, g.T, sh[k] + 1) - 1
        sh[k] = imin(sh[k], s)
    best = 99
    for k in range(34):
        best = imin(best, sh[k])
    if live != NULL:
        for i in range(4):
            if sf[i] <= best:
                live[0] |= SPECIAL_BITS[i]
        if live[0]:
            live[0] |= flags
    return best


# The greedy policy's tie-break evaluates, for each candidate discard c of a 14-tile hand H,
# the standard shanten of H - c + k for every kind k. Only the suits of c and k change, so
# most of the table work is shared: the classes of every suit plus one tile (and their
# pair-table values) are computed once per decision from H (draws_setup); a candidate then
# needs one table load per draw in the other half (m/p vs s/z), two in the same half, and
# three in its own suit (std_hits), and candidates whose suit keeps the same class without
# them share the other suits' part. Every kind is evaluated, drawable or not: the loops have
# fixed trip counts and nothing branches on the hand's contents, which the branch predictor
# cannot learn. The loops only collect the effective kinds as a bit set; a weighted popcount
# turns it into unseen copies (kinds with none weigh 0).
ctypedef struct draws_ctx_t:
    uint64_t u_bit[3]          # kinds whose unseen count (from the seat's view; the same for
                               # every candidate: the discarded copy leaves the hand and becomes
                               # visible) has bit b set, b = 0, 1, 2
    uint64_t none              # kinds with no unseen copy
    uint32_t add[34]           # POW5 of the kind's rank, 0 if H holds all four (no fifth copy)
    int cross[34]              # offset into FINAL of the kind's half (m/p or s/z) in H + kind,
                               # for a candidate in the other half
    int same[34]               # offset into the pair table of the kind's suit class in H + kind,
                               # for a candidate in the other suit of its half
    uint32_t code[4]           # H's suit codes
    int cls[4]                 # H's suit classes
    int mp0, sz0
    # other-suit part of the last candidate of each suit: the class of that suit without the
    # candidate, and the effective kinds outside that suit (shared by the next candidates of
    # the suit whose class is the same)
    int memo_cls[4]
    uint64_t memo_eff[4]


cdef inline int suit_cls(const mj_tables_t* T, int s, uint32_t code) noexcept nogil:
    return T.honor_class[code] if s == 3 else T.suit_class[code]


cdef uint64_t SUIT_KINDS[4]
SUIT_KINDS[:] = [0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27]


cdef inline void unseen_planes(const uint8_t* own, const uint8_t* visible, draws_ctx_t* x) noexcept nogil:
    """x.u_bit and x.none from the unseen counts 4 - own - visible of the 34 kinds (SWAR over
    byte lanes, the words lanes_to_kinds takes)."""
    cdef int w, b, k, u
    cdef uint64_t over = 0
    cdef uint64_t un[5]
    cdef uint64_t s
    for w in range(5):
        s = mj_load64(own + WORD_AT[w]) + mj_load64(visible + WORD_AT[w])   # lanes 0..8, no carry
        over |= (s + 0x7B7B7B7B7B7B7B7BULL) & 0x8080808080808080ULL           # a lane above 4
        un[w] = 4 * LANES_LO - s                                             # 4 - s if none is
    if over:            # more than 4 copies accounted for (not in a valid game): clamp per kind
        x.u_bit[0] = x.u_bit[1] = x.u_bit[2] = x.none = 0
        for k in range(34):
            u = 4 - own[k] - visible[k]
            u = u if u > 0 else 0
            x.none |= (<uint64_t>(u == 0)) << k
            for b in range(3):
                x.u_bit[b] |= (<uint64_t>((u >> b) & 1)) << k
        return
    for b in range(3):
        x.u_bit[b] = lanes_to_kinds(((un[0] >> b) & LANES_LO) << 7, ((un[1] >> b) & LANES_LO) << 7,
                                    ((un[2] >> b) & LANES_LO) << 7, ((un[3] >> b) & LANES_LO) << 7,
                                    ((un[4] >> b) & LANES_LO) << 7)
    x.none = lanes_to_kinds(lanes_equal(un[0], 0), lanes_equal(un[1], 0), lanes_equal(un[2], 0),
                            lanes_equal(un[3], 0), lanes_equal(un[4], 0))


cdef inline void setup_suit(const mj_tables_t* T, const uint8_t* own, draws_ctx_t* x, int s, int sets,
                            bint classes) noexcept nogil:
    """draws_setup for the kinds of suit s (a constant where inlined). classes: whether a
    candidate outside suit s needs same[] and cross[]."""
    cdef int r, k, cl, n = 7 if s == 3 else 9, stride = pair_stride(T, s)
    cdef const uint8_t* cls_of = T.honor_class if s == 3 else T.suit_class
    cdef const uint8_t* pt = pair_row(T, s, x.cls[s ^ 1])
    # FINAL[(mp * n_sz + sz) * 8 + sets]: this half's part of the index
    cdef int cmul = final_stride(T, s), cadd = sets if s < 2 else 0
    for r in range(n):
        k = 9 * s + r
        x.add[k] = POW5[r] & -(<uint32_t>(own[k] < 4))
        if classes:
            cl = cls_of[x.code[s] + x.add[k]]
            x.same[k] = cl * stride
            x.cross[k] = pt[cl * stride] * cmul + cadd


cdef void draws_setup(game_t* g, int seat, const codes_t* c, uint64_t cands, draws_ctx_t* x) noexcept nogil:
    """Per-decision part of the effective-tile counts of the candidate discards `cands` (a
    bit set of kinds; c: the 14-tile hand, 3k+2)."""
    cdef const mj_tables_t* T = g.T
    cdef const uint8_t* own = g.p[seat].hand
    cdef int s, sets = c.n // 3
    for s in range(4):
        x.code[s] = c.c[s]
        x.cls[s] = suit_cls(T, s, c.c[s])
        x.memo_cls[s] = -1
    x.mp0 = T.pair_mp[x.cls[0] * T.n_suit + x.cls[1]]
    x.sz0 = T.pair_sz[x.cls[2] * T.n_honor + x.cls[3]]
    unseen_planes(own, g.visible, x)
    # a suit's draws are looked up by class only for candidates in other suits
    setup_suit(T, own, x, 0, sets, (cands & ~SUIT_KINDS[0]) != 0)
    setup_suit(T, own, x, 1, sets, (cands & ~SUIT_KINDS[1]) != 0)
    setup_suit(T, own, x, 2, sets, (cands & ~SUIT_KINDS[2]) != 0)
    setup_suit(T, own, x, 3, sets, (cands & ~SUIT_KINDS[3]) != 0)


cdef inline uint64_t other_suit_hits(const mj_tables_t* T, const draws_ctx_t* x, int B, int A, int clsA,
                                     int hc, int sets, int lim) noexcept nogil:
    """std_hits' part for the draws in suit B != A (B a constant where inlined: fixed trip
    count, resolved branches)."""
    cdef int r, k, fmul, off = 9 * B
    cdef const uint8_t* final = T.final
    cdef const uint8_t* row
    cdef const uint8_t* pt
    cdef int n = 7 if B == 3 else 9
    cdef uint64_t e = 0
    if (B < 2) != (A < 2):          # other half: FINAL with the candidate's half value hc
        row = final + (hc * 8 if B < 2 else hc * T.n_sz * 8 + sets)
        for r in range(n):
            k = off + r
            e |= (<uint64_t>(row[x.cross[k]] < lim)) << k
    else:                           # same half: pair value of (B with the draw, A without the candidate)
        pt = pair_row(T, B, clsA)
        row = final_row(T, B, x.mp0, x.sz0, sets)
        fmul = final_stride(T, B)
        for r in range(n):
            k = off + r
            e |= (<uint64_t>(row[pt[x.same[k]] * fmul] < lim)) << k
    return e


cdef inline uint64_t std_hits(const mj_tables_t* T, draws_ctx_t* x, int cand, int sets, int base) noexcept nogil:
    """The kinds k that bring the standard shanten of H - cand + k below `base` (a bit set;
    kinds with no unseen copy may be in it: unseen_count() weighs them 0)."""
    cdef int A = cand // 9, ra = cand - 9 * (cand // 9), r, k, n, cb, clsA, hc, fmul, pmul
    cdef int lim = base + 1                       # FINAL holds distances: shanten + 1
    cdef uint32_t codeA = x.code[A] - POW5[ra]
    cdef const uint8_t* cls_of = T.honor_class if A == 3 else T.suit_class
    cdef const uint8_t* pt = pair_row(T, A, x.cls[A ^ 1])
    cdef const uint8_t* row
    cdef uint64_t eff = 0, other = 0
    pmul = pair_stride(T, A)
    clsA = cls_of[codeA]
    hc = pt[clsA * pmul]                          # candidate's half without the candidate
    # own suit: the class of codeA plus the draw, its pair value, FINAL
    row = final_row(T, A, x.mp0, x.sz0, sets)
    fmul = final_stride(T, A)
    n = 7 if A == 3 else 9
    for r in range(n):
        k = 9 * A + r
        cb = cls_of[codeA + x.add[k]]
        eff |= (<uint64_t>(row[pt[cb * pmul] * fmul] < lim)) << k
    # the other suits depend on the candidate only through clsA
    if x.memo_cls[A] != clsA:
        x.memo_cls[A] = clsA
        if A != 0:
            other |= other_suit_hits(T, x, 0, A, clsA, hc, sets, lim)
        if A != 1:
            other |= other_suit_hits(T, x, 1, A, clsA, hc, sets, lim)
        if A != 2:
            other |= other_suit_hits(T, x, 2, A, clsA, hc, sets, lim)
        if A != 3:
            other |= other_suit_hits(T, x, 3, A, clsA, hc, sets, lim)
        x.memo_eff[A] = other
    return eff | x.memo_eff[A]


cdef inline int unseen_count(const draws_ctx_t* x, uint64_t kinds) noexcept nogil:
    """Unseen copies of the kinds in the bit set (weighted popcount over u's bit planes)."""
    return (mj_popcount64(kinds & x.u_bit[0]) + 2 * mj_popcount64(kinds & x.u_bit[1])
            + 4 * mj_popcount64(kinds & x.u_bit[2]))


# 34-bit kind sets: every kind, the honors, and per assignment i of knit classes to suits
# the kinds of the knitted straight (KNIT_MASK[KNIT_PERM[i][s]] in suit s)
cdef uint64_t ALL_KINDS = (<uint64_t>1 << 34) - 1
cdef uint64_t HONOR_KINDS = ((<uint64_t>1 << 7) - 1) << 27
cdef uint64_t KNIT_KINDS[6]
for _i in range(6):
    KNIT_KINDS[_i] = 0
    for _s in range(3):
        KNIT_KINDS[_i] |= (<uint64_t>KNIT_MASK[KNIT_PERM[_i][_s]]) << (9 * _s)


cdef inline uint64_t count_lanes(uint64_t w, const int* ok) noexcept nogil:
    """Bit 7 set in the byte lanes of w (counts 0..4) whose count c has ok[c] (c < 4; the
    count classes as lanes of 0/1, SWAR)."""
    cdef uint64_t g1 = mj_ones_ge(w, 1), g2 = mj_ones_ge(w, 2), g3 = mj_ones_ge(w, 3)
    return ((((LANES_LO ^ g1) & -(<uint64_t>ok[0])) | ((g1 - g2) & -(<uint64_t>ok[1]))
             | ((g2 - g3) & -(<uint64_t>ok[2])) | ((g3 - mj_ones_ge(w, 4)) & -(<uint64_t>ok[3]))) << 7)


cdef uint64_t mixed_hits(game_t* g, const uint8_t* h, hand_t* f, const draws_ctx_t* dx, uint64_t std_eff,
                         int base, int forms) noexcept nogil:
    """Effective kinds when the rules have special forms (h: the hand after the candidate
    discard, 13 tiles; f: its features, all the rule set's): a kind is effective if the
    standard form (std_eff: from std_hits) or some special form in `forms` (each_discard's
    live forms) brings the hand below `base` (kinds with no unseen copy may be included).

    The special forms' draws are collected in a bit set over kinds, one form after another;
    each form looks only at the kinds no earlier form took, and only when its distance from h
    leaves it a chance (a drawn tile lowers a distance by at most one): seven pairs decides by
    the drawn kind's count, thirteen orphans and honors-and-knitted by whether the kind is
    held, the knitted straight per assignment of knit classes to suits (a tile filling a
    knitted slot, or one that joins the set-and-pair part, a table lookup)."""
    cdef const mj_tables_t* T = g.T
    cdef int ns = T.n_suit, nh = T.n_honor, nsz = T.n_sz
    cdef int k, i, q, top, P, S, cnt
    cdef uint64_t taken = std_eff | dx.none      # counted already, or nothing to draw
    cdef uint64_t eff = taken, held, todo
    cdef bint kong2 = (forms & FLAG_KONG_TWO_PAIRS) != 0
    cdef int ok[4]
    cdef int perm_tot[6]
    cdef int k3[9]
    cdef int knit[6]
    cdef uint32_t ks_code[4]
    cdef int ks_cls[4]
    cdef int hmp, hsz, drest, thr, dp, ks_sets = knitted_straight_sets(f.n + 1)
    cdef uint64_t fill
    cdef uint64_t kinds
    if forms & FORM_SEVEN_PAIRS:
        if seven_pairs_distance(f, forms) - 2 < base:
            # the drawn kind's count in h (0..3; 4: nothing to draw) decides
            for cnt in range(4):
                if kong2:     # pairs = ge2 + ge4, singles = ge1 - ge2 + ge3 - ge4
                    P = f.ge[2] + f.ge[4] + (cnt == 1 or cnt == 3)
                    S = f.ge[1] - f.ge[2] + f.ge[3] - f.ge[4] + (1 if cnt == 0 or cnt == 2 else -1)
                else:
                    P = f.ge[2] + (cnt == 1)
                    S = f.ge[1] - f.ge[2] + (1 if cnt == 0 else (-1 if cnt == 1 else 0))
                ok[cnt] = pairs_distance(P, S) - 1 < base
            eff |= lanes_to_kinds(count_lanes(mj_load64(h), ok), count_lanes(mj_load64(h + 8), ok),
                                  count_lanes(mj_load64(h + 16), ok), count_lanes(mj_load64(h + 24), ok),
                                  count_lanes(mj_load64(h + 26), ok))
    if (forms & FORM_THIRTEEN_ORPHANS) and 14 - f.orphan_kinds - f.orphan_pair - 2 < base:
        for k in range(34):
            if (eff >> k) & 1 or not (k >= 27 or k % 9 == 0 or k % 9 == 8):
                continue
            P = 1 if (f.orphan_pair != 0 or h[k] == 1) else 0
            S = 1 if h[k] == 0 else 0
            if 13 - f.orphan_kinds - S - P < base:
                eff |= (<uint64_t>1) << k
    if forms & (FORM_HONORS_KNITTED | FORM_KNITTED_STRAIGHT):
        held = (<uint64_t>f.held[0] | (<uint64_t>f.held[1] << 9) | (<uint64_t>f.held[2] << 18)
                | (<uint64_t>f.held[3] << 27))
        knit_counts(f.held, k3)    # knitted tiles held per assignment of knit classes to suits
        knit_totals(k3, knit)
    if forms & FORM_HONORS_KNITTED:
        # knitted tiles + honors held, per assignment
        top = 0
        for i in range(6):
            perm_tot[i] = knit[i] + mj_popcount32(f.held[3])
            top = perm_tot[i] if perm_tot[i] > top else top
        if 14 - imin(top, 14) - 2 < base:
            # a kind not held adds one to the assignments whose knit class holds it (honors:
            # all): it wins if some assignment reaches 14 - base (13 - min(top, 14) < base)
            kinds = 0
            for i in range(6):
                if perm_tot[i] >= 14 - base:
                    kinds = ALL_KINDS
                elif perm_tot[i] == 13 - base:
                    kinds |= KNIT_KINDS[i] | HONOR_KINDS
            eff |= kinds & ~held
    if forms & FORM_KNITTED_STRAIGHT:
        # per assignment i of knit classes to suits: the knitted tiles held (knit[i]) and the
        # rest of the hand, which needs 1 set + pair (drest tiles missing); i's distance is
        # 9 - knit[i] + drest, and a draw lowers it by at most one. A draw filling an empty
        # knitted slot lowers it by one; any other draw joins the rest and wins if the rest's
        # distance with it (dp, a table lookup) is below thr = base - 8 + knit[i].
        for i in range(6):
            if 9 - knit[i] - 2 >= base:
                continue                        # (drest >= 0)
            for q in range(3):
                ks_code[q] = f.code[q] - bits_code(f.held[q] & KNIT_MASK[KNIT_PERM[i][q]])
            ks_code[3] = f.code[3]
            ks_cls[0] = T.suit_class[ks_code[0]]
            ks_cls[1] = T.suit_class[ks_code[1]]
            ks_cls[2] = T.suit_class[ks_code[2]]
            ks_cls[3] = T.honor_class[ks_code[3]]
            hmp = T.pair_mp[ks_cls[0] * ns + ks_cls[1]]
            hsz = T.pair_sz[ks_cls[2] * nh + ks_cls[3]]
            drest = T.final[(hmp * nsz + hsz) * 8 + ks_sets]
            thr = base - 8 + knit[i]
            if drest - 1 >= thr:
                continue                        # no draw gets this assignment under base
            fill = KNIT_KINDS[i] & ~held
            eff |= fill
            todo = ~eff & ~fill & ALL_KINDS     # the draws that join the rest
            if drest < thr:
                eff |= todo
                continue
            while todo:                         # (drawable kinds: at most 3 held, no fifth copy)
                k = mj_ctz64(todo)
                todo &= todo - 1
                if k < 9:
                    dp = T.final[(T.pair_mp[T.suit_class[ks_code[0] + POW5[k]] * ns + ks_cls[1]] * nsz + hsz) * 8 + ks_sets]
                elif k < 18:
                    dp = T.final[(T.pair_mp[ks_cls[0] * ns + T.suit_class[ks_code[1] + POW5[k - 9]]] * nsz + hsz) * 8 + ks_sets]
                elif k < 27:
                    dp = T.final[(hmp * nsz + T.pair_sz[T.suit_class[ks_code[2] + POW5[k - 18]] * nh + ks_cls[3]]) * 8 + ks_sets]
                else:
                    dp = T.final[(hmp * nsz + T.pair_sz[ks_cls[2] * nh + T.honor_class[ks_code[3] + POW5[k - 27]]]) * 8 + ks_sets]
                eff |= (<uint64_t>(dp < thr)) << k
    return eff


cdef int danger(game_t* g, int seat, int k) noexcept nogil:
    """Defensive policy's score of discarding kind k (lower is safer)."""
    cdef int s, c, d = unseen(g, seat, k)
    for s in range(4):
        if s == seat or g.p[s].last_claim_kind < 0 or g.t.turn - g.p[s].last_claim_turn > 8:
            continue
        c = g.p[s].last_claim_kind
        if c == k or (k < 27 and c < 27 and c // 9 == k // 9 and -2 <= c - k <= 2):
            d += 100
    return d


cdef bint threatened(game_t* g, int seat) noexcept nogil:
    """An opponent shows two sets (three when wins need min_fan: a cheap melded hand cannot
    win) or a ready hand."""
    cdef int s, sets = 3 if g.R.min_fan > 0 else 2
    for s in range(4):
        if s != seat and (g.p[s].n_melds >= sets or g.p[s].ready):
            return True
    return False


cdef inline int greedy_shanten(game_t* g, uint8_t* h, codes_t* c, uint8_t* sh, int* live, hand_t* f14) noexcept nogil:
    """The greedy policy's shanten after each discard of h (sh) and their best, for the rule
    set's forms; c receives h's codes, live and f14 what each_discard gives (0 for standard
    rules)."""
    codes_of(h, c)
    live[0] = 0
    if g.R.forms == FORM_STANDARD:
        return std_each_discard(g, h, c, sh)
    return each_discard(g, h, c, sh, live, f14)


cdef inline bint fan_aware(game_t* g, int seat) noexcept nogil:
    """Whether seat's built-in policy steers towards wins of at least min_fan fan."""
    return g.R.min_fan > 0 and g.p[seat].policy != POL_GREEDY_BLIND


cdef inline uint64_t hand_key(const player_t* p) noexcept nogil:
    """A 64-bit key of p's concealed counts, declared sets and flowers (wait_value's memory)."""
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL * <uint64_t>(p.n_melds + 16 * p.bonus + 1)
    cdef int i
    for i in range(5):
        h = (h ^ mj_load64(p.hand + WORD_AT[i])) * 0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    for i in range(p.n_melds):
        h = (h ^ <uint64_t>(p.meld_type[i] * 64 + p.meld_tile[i] + 1)) * 0x94D049BB133111EBULL
        h ^= h >> 29
    return h


cdef int remembered(const player_t* p, int w) noexcept nogil:
    """What wait_value remembers of p's concealed tiles (3k+1) winning on a discard of kind w
    (plain: no situational fan): 1 valid, 0 below min_fan, -1 not known."""
    cdef uint64_t key = hand_key(p)
    cdef int slot = <int>(key >> 61)
    if p.wv_key[slot] != key or not (p.wv_waits[slot] >> w) & 1:
        return -1
    return <int>((p.wv_discard[slot] >> w) & 1)


cdef inline int unseen_by(game_t* g, int seat, int w, int discarded) noexcept nogil:
    """Copies of kind w that seat has not seen once it discards `discarded` (-1: none): not in
    its concealed tiles, its concealed kongs, the visible tiles or that discard (0 at least)."""
    cdef player_t* p = &g.p[seat]
    cdef int j, u = 4 - p.hand[w] - g.visible[w] - (1 if w == discarded else 0)
    for j in range(p.n_melds):
        if p.meld_type[j] == M_KONG_CONCEALED and p.meld_tile[j] == w:
            u -= 4
    return u if u > 0 else 0


cdef int wait_value(game_t* g, int seat, uint64_t waits, int discarded) noexcept nogil:
    """Seat's concealed tiles (3k+1, after discarding `discarded`) wait on the kinds in
    `waits`: 3 per copy unseen by seat (unseen_by) that would make a valid win on a discard,
    1 per copy valid only when self-drawn (the fan-aware policies' value of a ready hand).
    Which waits are valid is remembered per hand (a ready player mostly draws and discards the
    same tile)."""
    cdef player_t* p = &g.p[seat]
    cdef int w, t, v = 0, sw, flowers = p.bonus if g.R.replace_bonus else 0
    cdef uint64_t key = hand_key(p), todo, on_discard = 0, self_only = 0
    cdef int slot = <int>(key >> 61)
    cdef fan_out_t f
    if p.wv_key[slot] == key and p.wv_waits[slot] == waits:
        on_discard = p.wv_discard[slot]
        self_only = p.wv_self[slot]
    else:
        todo = waits
        while todo:
            w = mj_ctz64(todo)
            todo &= todo - 1
            if p.hand[w] >= 4:
                continue
            p.hand[w] += 1
            t = hand_fan(g, seat, w, False, &f, True)
            if t > 0 and t - flowers >= g.R.min_fan:
                on_discard |= (<uint64_t>1) << w
            else:
                t = hand_fan(g, seat, w, True, &f, True)
                if t > 0 and t - flowers >= g.R.min_fan:
                    self_only |= (<uint64_t>1) << w
            p.hand[w] -= 1
        p.wv_key[slot] = key
        p.wv_waits[slot] = waits
        p.wv_discard[slot] = on_discard
        p.wv_self[slot] = self_only
    if p.policy == POL_HUMANLIKE and HL[HL_LIVE]:
        while on_discard:
            w = mj_ctz64(on_discard)
            on_discard &= on_discard - 1
            v += live_weight(g, w) * unseen_by(g, seat, w, discarded)
    while on_discard:
        w = mj_ctz64(on_discard)
        on_discard &= on_discard - 1
        v += 3 * unseen_by(g, seat, w, discarded)
    sw = 1
    if p.policy == POL_HUMANLIKE:
        sw = HL[HL_SELF_WEIGHT]
        if sw == 0 and turns_left(g) <= HL[HL_LATE]:
            sw = 1                     # (late: a self-drawn win is better than a draw)
    while self_only:
        w = mj_ctz64(self_only)
        self_only &= self_only - 1
        v += sw * unseen_by(g, seat, w, discarded)
    return v


cdef int greedy_discard(game_t* g, int seat, bint defensive) noexcept nogil:
    """Kind to discard: lowest shanten, then (fan-aware, at a ready hand) the most valuable
    waits (wait_value), then most unseen effective tiles, then lowest kind.

    Defensive: when an opponent shows two sets or a ready hand, among discards within one
    shanten of the best, the lowest danger() (ties as greedy).
    """
    cdef player_t* p = &g.p[seat]
    cdef int k, s, best_s = 99, best_k = -1, best_d = 1 << 30
    cdef uint8_t sh[34]
    cdef bint threat = defensive and threatened(g, seat)
    cdef codes_t c
    cdef hand_t f14
    cdef uint64_t cands
    cdef int live
    best_s = greedy_shanten(g, p.hand, &c, sh, &live, &f14)
    if threat:
        for k in range(34):
            if sh[k] <= best_s + 1:
                s = danger(g, seat, k) * 16 + (sh[k] - best_s) * 8
                if s < best_d:
                    best_d = s
                    best_k = k
        p.wait_sh = sh[best_k]         # (exact: each_discard resolves up to best + 1)
        return best_k
    cands = kinds_equal(sh, best_s)
    p.wait_sh = best_s
    if not (cands & (cands - 1)):      # a single candidate: nothing to break
        return mj_ctz64(cands)
    return most_effective(g, seat, &c, cands, best_s, live, &f14, NULL,
                          fan_aware(g, seat) and best_s == 0, NULL)


cdef int most_effective(game_t* g, int seat, const codes_t* c, uint64_t cands, int best_s, int live,
                        const hand_t* f14, int* counts, bint by_fan, int* value) noexcept nogil:
    """The greedy tie-break: the candidate discard (a kind in the bit set cands, all at shanten
    best_s) leaving the most unseen effective tiles, the lowest kind on ties. counts (may be
    NULL) receives each candidate's count. live, f14: from each_discard. by_fan (ready hands
    after the discard, best_s = 0): first the highest wait_value, kept in value (may be NULL)."""
    cdef player_t* p = &g.p[seat]
    cdef draws_ctx_t dx
    cdef hand_t f13
    cdef uint64_t eff
    cdef int k, u, best_u = -1, best_k = -1, sets = c.n // 3   # (n - 1 + 1) // 3 after the discard
    cdef int wv, best_v = -1, n = 0, i, j, bound
    cdef int ck[34]
    cdef int cu[34]
    cdef uint64_t ce[34]
    draws_setup(g, seat, c, cands, &dx)
    while cands:                       # ascending kinds: a tie keeps the lowest
        k = mj_ctz64(cands)
        cands &= cands - 1
        eff = std_hits(g.T, &dx, k, sets, best_s)
        if live:                       # a special form can matter
            hand_minus(f14, p.hand, k, features_for(g.R.forms), &f13)
            p.hand[k] -= 1
            eff = mixed_hits(g, p.hand, &f13, &dx, eff, best_s, live)
            p.hand[k] += 1
        u = unseen_count(&dx, eff)
        if counts != NULL:
            counts[k] = u
        if by_fan:
            # (most effective first, lower kinds first among equals)
            i = n
            while i > 0 and cu[i - 1] < u:
                ck[i] = ck[i - 1]
                cu[i] = cu[i - 1]
                ce[i] = ce[i - 1]
                i -= 1
            ck[i] = k
            cu[i] = u
            ce[i] = eff
            n += 1
        elif u > best_u:
            best_u = u
            best_k = k
    if by_fan:
        # the most valuable waits (wait_value <= 3 x greedy's unseen count, which counts every
        # copy unseen_by does and more: stop when none can beat the best), ties to the most
        # effective, then the lowest kind
        bound = HL_WEIGHT_MAX if p.policy == POL_HUMANLIKE else 3
        for j in range(n):
            if bound * cu[j] <= best_v:
                break
            k = ck[j]
            p.hand[k] -= 1
            wv = wait_value(g, seat, ce[j], k)
            p.hand[k] += 1
            if wv > best_v:
                best_v = wv
                best_k = k
        if best_k < 0:
            best_k = ck[0]
    if value != NULL:
        value[0] = best_v
    return best_k


cdef int random_discard(game_t* g, int seat) noexcept nogil:
    cdef player_t* p = &g.p[seat]
    cdef int r = <int>rng_bounded16(&g.t.prng, <uint32_t>p.n_hand), k
    for k in range(34):
        r -= p.hand[k]
        if r < 0:
            return k
    return -1


cdef int best_after_discard(game_t* g, uint8_t* h) noexcept nogil:
    """min over discards of the shanten of h minus that tile (h is 3k+2)."""
    cdef uint8_t sh[34]
    cdef codes_t c
    cdef hand_t f
    codes_of(h, &c)
    return each_discard(g, h, &c, sh, NULL, &f)


# ------------------------------------------------------------------------------------------
# claims: the built-in claimers' heuristics

cdef int greedy_claim(game_t* g, int seat, int k, bint is_next, int* chow_start) noexcept nogil:
    """C_NONE / C_KONG / C_PUNG / C_CHOW (chow_start set) for a built-in claimer of discard k:
    the claim that lowers the shanten most (a kong: that does not raise it); fan-aware policies
    (min_fan) claim a kong only with sets already declared, and a pung or chow only when
    claim_worth (humanlike: or plan_claim)."""
    cdef player_t* p = &g.p[seat]
    cdef int base, s, best = C_NONE, best_s, j, n
    cdef int starts[3]
    if p.ready:
        return C_NONE
    base = shanten_of(g, p.hand)
    best_s = base
    # (fan-aware: a concealed hand does not claim a kong; it would lose Concealed Hand)
    if g.R.allow_kong and p.hand[k] == 3 and (p.n_melds > 0 or not fan_aware(g, seat)):
        p.hand[k] -= 3
        s = shanten_of(g, p.hand)
        p.hand[k] += 3
        if s <= best_s:           # a kong never raises the shanten and brings a free draw
            best_s = s
            best = C_KONG
    if p.hand[k] >= 2:
        p.hand[k] -= 2
        s = best_after_discard(g, p.hand)
        p.hand[k] += 2
        if s < best_s:
            best_s = s
            best = C_PUNG
    if is_next:
        n = chow_options(g, seat, k, starts)
        for j in range(n):
            p.hand[starts[j]] -= 1
            p.hand[starts[j] + 1] -= 1
            p.hand[starts[j] + 2] -= 1
            p.hand[k] += 1
            s = best_after_discard(g, p.hand)
            p.hand[k] -= 1
            p.hand[starts[j]] += 1
            p.hand[starts[j] + 1] += 1
            p.hand[starts[j] + 2] += 1
            if s < best_s:
                best_s = s
                best = C_CHOW
                chow_start[0] = starts[j]
    if (best == C_PUNG or best == C_CHOW) and fan_aware(g, seat) and not claim_worth(g, seat, k, best, chow_start[0], best_s):
        # (humanlike: also a claim that serves a fan plan)
        if p.policy != POL_HUMANLIKE or not plan_claim(g, seat, k, best, chow_start[0], best_s):
            return C_NONE
    return best


cdef bint claim_worth(game_t* g, int seat, int k, int claim, int start, int after) noexcept nogil:
    """The fan-aware policies' check of a pung or chow claim on discard k that leaves the hand
    `after` from ready: only a claim that makes the hand ready with a wait that reaches
    min_fan (wait_value > 0). Claims that do not make it ready are declined: a concealed hand
    keeps Concealed Hand and Fully Concealed Hand, and melded hands rarely reach 8 fan (paired
    comparisons in bench/README.md: this rule won the most hands of those tried)."""
    cdef player_t* p = &g.p[seat]
    cdef int j, best_s, live, value = 0
    cdef uint8_t sh[34]
    cdef codes_t c
    cdef hand_t f14
    if after > 0:
        return False
    # the hand after the claim, with the set declared (its tiles from the hand shown)
    if claim == C_PUNG:
        p.hand[k] -= 2
        g.visible[k] += 2
    else:
        for j in range(3):
            if start + j != k:
                p.hand[start + j] -= 1
                g.visible[start + j] += 1
    p.meld_type[p.n_melds] = <uint8_t>(M_PUNG if claim == C_PUNG else M_CHOW)
    p.meld_tile[p.n_melds] = <uint8_t>(k if claim == C_PUNG else start)
    p.n_melds += 1
    best_s = greedy_shanten(g, p.hand, &c, sh, &live, &f14)
    if best_s == 0:
        most_effective(g, seat, &c, kinds_equal(sh, 0), 0, live, &f14, NULL, True, &value)
    p.n_melds -= 1
    if claim == C_PUNG:
        p.hand[k] += 2
        g.visible[k] -= 2
    else:
        for j in range(3):
            if start + j != k:
                p.hand[start + j] += 1
                g.visible[start + j] -= 1
    return value > 0


# ------------------------------------------------------------------------------------------
# the built-in policies' answers to a pending question (environments: teachers and parity)

cdef int option_index(const int* opts, int n, int code) noexcept nogil:
    cdef int i
    for i in range(n):
        if opts[i] == code:
            return i
    return -1


cdef int builtin_answer(game_t* g, int policy, int* then_discard) noexcept nogil:
    """The answer built-in `policy` would give to the pending question g.t.req (the seat that
    must answer is g.t.req.seat): what apply() takes. For an own-turn question whose answer is
    "go on to the discard" (-1), then_discard receives the kind it then discards. Draws from
    the policies' stream exactly as the built-in policy does when it plays the seat."""
    cdef int seat = g.t.req.seat, saved, ans = -1, kind = -1, act, c, chow_start = -1
    cdef int n = g.t.req.n_options
    cdef const int* opts = g.t.req.options
    cdef player_t* p = &g.p[seat]
    then_discard[0] = -1
    saved = p.policy
    p.policy = policy
    if g.t.req.what == ASK_DISCARD:
        ans = choose_discard(g, seat)
    elif g.t.req.what == ASK_READY:
        ans = 1
    elif g.t.req.what == ASK_CLAIM:
        if opts[0] == C_WIN and g.win_ok[seat] == W_VALID:
            ans = 0                                  # built-in policies always take a valid win
        elif policy == POL_RANDOM:
            ans = n - 1                              # the last option: no claim
        else:
            c = greedy_claim(g, seat, g.discard, ((seat - g.discarder) & 3) == 1, &chow_start)
            if c == C_CHOW:
                ans = option_index(opts, n, 100 + chow_start)
            elif c == C_NONE:
                ans = n - 1
            else:
                ans = option_index(opts, n, c)
    elif g.t.req.what == ASK_OWN_TURN:
        act = own_turn_action(g, seat, &kind)
        if act == 0:
            then_discard[0] = choose_discard(g, seat)
        else:
            ans = option_index(opts, n, act * 1000 + (kind if act > 1 else 0))
    p.policy = saved
    return ans


cdef int greedy_scores(game_t* g, int seat, uint8_t* sh, int* counts) noexcept nogil:
    """The greedy policy's view of seat's 3k+2 concealed hand: sh[k] the shanten after
    discarding kind k (99 for kinds not held), counts[k] the unseen tiles that lower the best
    shanten after discarding k for the discards at the best shanten (-1 for the others).
    Returns the best shanten."""
    cdef codes_t c
    cdef hand_t f14
    cdef int k, best_s, live
    cdef uint64_t cands
    for k in range(34):
        counts[k] = -1
    best_s = greedy_shanten(g, g.p[seat].hand, &c, sh, &live, &f14)
    cands = kinds_equal(sh, best_s)
    most_effective(g, seat, &c, cands, best_s, live, &f14, counts, False, NULL)
    return best_s


# ------------------------------------------------------------------------------------------
# the humanlike policy: greedy's hand building and fan-aware waits, with people's fan plans (a
# chow pattern or a flush steers the discards), waits chosen for tiles others let go, people's
# claims (a pung or chow that serves a fan plan: a flush, all pungs, a straight, a triple chow) and
# people's defence (folding to safe tiles when far from ready against a strong opponent or
# late in the wall; off in the defaults, HL_FOLD_SHANTEN 99: folding only made more draws),
# and waits valued by the wins they make on a discard. Its constants were
# chosen by paired runs to bring MCR play towards people's draw rate and self-drawn share
# (bench/calibration.md: the runs, and how far from people's figures it still is).

cdef enum:
    HL_PLAN_SHANTEN = 0   # a claim for a fan plan leaves the hand at most this far from ready
    HL_FLUSH_OFF = 1      # a flush plan: at most this many tiles outside one suit and the honors
    HL_PUNGS = 2          # an all-pungs plan: at least this many pairs and pungs (claimed ones included)
    HL_FOLD_SHANTEN = 3   # fold only this far from ready or farther
    HL_FOLD_WALL = 4      # ... when at most this many live tiles are left
    HL_FOLD_MELDS = 5     # ... or an opponent shows this many sets or is ready
    HL_STEER = 6          # 1: a flush plan steers the discards among the best ones
    HL_STRAIGHTS = 7      # 1: chows for a straight or a triple chow count as a plan
    HL_STEER_OFF = 8      # a flush plan steers discards with at most this many tiles off the suit
    HL_STEER_SLACK = 9    # ... among the discards at most this much above the best shanten
    HL_SELF_WEIGHT = 10   # wait_value's weight of a copy that wins only self-drawn (greedy: 1 of 3)
    HL_LIVE = 11          # 1: wait_value weighs a copy by how likely another player lets it go (live_weight)
    HL_PATTERN_MISS = 12  # a chow pattern plan (pattern_steer) steers when it misses at most this many kinds
    HL_REPLAN = 13        # a ready hand with no live wait that wins on a discard: 1 steers among the ready
                          # discards by the pattern plan, 2 also among those one from ready
    HL_CLAIM_MISS = 14    # a chow claim serves a chow pattern plan missing at most this many kinds (0: off)
    HL_HONOR_PUNG = 15    # a pung of a dragon or of the seat's or the prevalent wind is a plan claim (1; 0: off)
    HL_LATE = 16          # late in the hand (turns_left at most this; 0: off): a ready hand is kept (no
                          # re-plan), and with HL_SELF_WEIGHT 0 a self-drawn-only wait counts 1 per copy
                          # (early on such a hand re-plans towards waits that win on a discard)
    HL_REPLAN_MIN = 17    # re-plan a ready hand whose waits are worth at most this (wait_value)
    HL_REPLAN_ONE = 18    # 1: the re-plan also looks at a ready hand with a single ready discard
    HL_FEED = 19          # late (turns_left below this; 0: off) a hand far from ready (HL_FEED_SHANTEN)
                          # lets go the tile the others most likely wait on (feed_discard)
    HL_FEED_SHANTEN = 20  # ... when at least this far from ready
    HL_FEED_SLACK = 21    # ... among its tiles at most this much above the best shanten
    HL_FEED_DEAD = 22     # late (turns_left below this; 0: off) a ready hand with no wait worth
                          # min_fan at all (wait_value 0) feeds too (feed_discard)
    HL_FEED_READ = 23     # 1: feed_discard also reads the others' discards (a suit one lets go is not
                          # its wait; a kind one discarded is less likely its wait)
    N_HL = 24

cdef enum:
    HL_WEIGHT_MAX = 6     # live_weight's largest (most_effective's bound on wait_value per copy)

# the constants in force (bench/calibration.md gives the runs that chose HL_DEFAULTS)
HL_DEFAULTS = [3, 2, 5, 99, 12, 3, 1, 1, 4, 1, 0, 1, 5, 2, 2, 1, 7, 0, 1, 3, 1, 1, 1, 1]
cdef int HL[N_HL]
HL[:] = HL_DEFAULTS


def _set_humanlike(knobs=None):
    """Tuning hook (bench/calibration only): the humanlike policy's constants, in the order of
    the HL_* enum; None restores the defaults. Returns the constants in force before."""
    old = [HL[i] for i in range(N_HL)]
    new = HL_DEFAULTS if knobs is None else list(knobs)
    if len(new) != N_HL:
        raise ValueError(f"expected {N_HL} constants, got {len(new)}")
    for i in range(N_HL):
        HL[i] = int(new[i])
    return old


cdef inline int turns_left(game_t* g) noexcept nogil:
    """About how many more draws each seat has before the hand is drawn, under either rule
    set: the live tiles / 4 (one wall shared in turn), or under the Botzone judge's rules
    (g.R.botzone) the fewest tiles left in a seat's own wall (the hand ends when the seat that
    must draw has an empty own wall; claims that skip seats make the walls uneven)."""
    cdef int m
    if g.R.botzone:
        m = imin(g.own_left[0], g.own_left[1])
        return imin(m, imin(g.own_left[2], g.own_left[3]))
    return live_left(g) >> 2


cdef int live_weight(game_t* g, int w) noexcept nogil:
    """The humanlike policy's weight (1..HL_WEIGHT_MAX) of an unseen copy of kind w in a wait
    that wins on a discard: how likely another player holds it loose and lets it go. Honors
    and terminals are hard to use (a copy already shown: harder still); a suited tile whose
    neighbours are mostly shown cannot make a chow. greedy and wait_value count 3 per copy."""
    cdef int r, gone, near = 0
    if w >= 27:
        return 6 if g.visible[w] else 4
    r = w % 9
    gone = g.visible[w]
    if r >= 1:
        near += g.visible[w - 1]
    if r <= 7:
        near += g.visible[w + 1]
    if r >= 2:
        near += g.visible[w - 2]
    if r <= 6:
        near += g.visible[w + 2]
    if r == 0 or r == 8:
        return imin(3 + gone + (near >= 3), HL_WEIGHT_MAX)
    return imin(2 + gone + near // 3, HL_WEIGHT_MAX)


cdef inline uint64_t suit_kinds(int s) noexcept nogil:
    return (<uint64_t>0x1FF) << (9 * s)


# the chow patterns a plan may aim at, three chows each (a chow: its suit * 7 + its first
# rank): mixed triple chow, mixed straight, pure straight, mixed shifted chows (each 6 fan or
# more), and their nine kinds
cdef enum:
    N_PATTERNS = 46
cdef int PAT_SEG[N_PATTERNS][3]
cdef uint64_t PATTERNS[N_PATTERNS]
cdef int BITS3[8]
BITS3[:] = [0, 1, 1, 2, 1, 2, 2, 3]


cdef inline uint64_t chow_kinds(int suit, int first) noexcept nogil:
    return (<uint64_t>7) << (9 * suit + first)


cdef void add_pattern(int n, int s0, int r0, int s1, int r1, int s2, int r2):
    PAT_SEG[n][0] = 7 * s0 + r0
    PAT_SEG[n][1] = 7 * s1 + r1
    PAT_SEG[n][2] = 7 * s2 + r2
    PATTERNS[n] = chow_kinds(s0, r0) | chow_kinds(s1, r1) | chow_kinds(s2, r2)


cdef void init_patterns():
    cdef int perms[6][3]
    cdef int i, r, n = 0
    perms[0] = [0, 1, 2]
    perms[1] = [0, 2, 1]
    perms[2] = [1, 0, 2]
    perms[3] = [1, 2, 0]
    perms[4] = [2, 0, 1]
    perms[5] = [2, 1, 0]
    for r in range(7):                 # mixed triple chow
        add_pattern(n, 0, r, 1, r, 2, r)
        n += 1
    for i in range(6):                 # mixed straight
        add_pattern(n, perms[i][0], 0, perms[i][1], 3, perms[i][2], 6)
        n += 1
    for i in range(3):                 # pure straight
        add_pattern(n, i, 0, i, 3, i, 6)
        n += 1
    for r in range(5):                 # mixed shifted chows
        for i in range(6):
            add_pattern(n, perms[i][0], r, perms[i][1], r + 1, perms[i][2], r + 2)
            n += 1


init_patterns()


cdef inline void chows_held(const player_t* p, int* held) noexcept nogil:
    """held[7 * suit + first]: the kinds of that chow p holds concealed (3: declared)."""
    cdef uint64_t h = held_kinds(p.hand)
    cdef int s, r, j
    for s in range(3):
        for r in range(7):
            held[7 * s + r] = BITS3[(h >> (9 * s + r)) & 7]
    for j in range(p.n_melds):
        if p.meld_type[j] == M_CHOW:
            held[7 * (p.meld_tile[j] // 9) + p.meld_tile[j] % 9] = 3


cdef int pattern_miss(const player_t* p, uint64_t need) noexcept nogil:
    """The fewest kinds p misses of a chow pattern (PATTERNS) that holds the kinds `need`
    (declared chows count; 10: none)."""
    cdef int held[21]
    cdef int i, m, best = 10
    chows_held(p, held)
    for i in range(N_PATTERNS):
        if (PATTERNS[i] & need) == need:
            m = 9 - held[PAT_SEG[i][0]] - held[PAT_SEG[i][1]] - held[PAT_SEG[i][2]]
            best = m if m < best else best
    return best


cdef uint64_t pattern_steer(const player_t* p, uint64_t cands) noexcept nogil:
    """The humanlike policy's chow pattern plan: the candidate discards (bit set) that keep p's
    nearest chow pattern (PATTERNS: a mixed triple chow, a straight, mixed shifted chows) no
    farther, when one misses at most HL_PATTERN_MISS kinds (its declared chows count); 0 when
    there is no such plan or every candidate keeps it."""
    cdef int held[21]
    cdef uint64_t keep = 0, out
    cdef int i, m, best = 10
    chows_held(p, held)
    for i in range(N_PATTERNS):
        m = 9 - held[PAT_SEG[i][0]] - held[PAT_SEG[i][1]] - held[PAT_SEG[i][2]]
        if m < best:
            best = m
            keep = PATTERNS[i]
        elif m == best:
            keep &= PATTERNS[i]        # (several at the best: keep the kinds all of them need)
    if best > HL[HL_PATTERN_MISS]:
        return 0
    out = cands & ~(keep & kinds_equal(p.hand, 1))
    return out if out != cands else 0


cdef int flush_suit(const player_t* p, int max_off) noexcept nogil:
    """The suit of a flush plan (-1: none): the suit that leaves at most max_off of p's tiles
    (concealed and declared) outside it and the honors."""
    cdef int s, j, k, off, n[4]
    n[0] = n[1] = n[2] = n[3] = 0
    for k in range(34):
        n[SUIT_OF[k]] += p.hand[k]
    for j in range(p.n_melds):
        n[SUIT_OF[p.meld_tile[j]]] += 3
    for s in range(3):
        off = n[0] + n[1] + n[2] - n[s]
        if off <= max_off:
            return s
    return -1


cdef int pungs_count(const player_t* p) noexcept nogil:
    """Pairs and pungs in p's concealed tiles plus its declared pungs and kongs (-1: a chow is
    declared, no all-pungs plan)."""
    cdef int j, k, n = 0
    for j in range(p.n_melds):
        if p.meld_type[j] == M_CHOW:
            return -1
        n += 1
    for k in range(34):
        n += p.hand[k] >= 2
    return n


cdef inline int segment_held(const player_t* p, int first) noexcept nogil:
    """Distinct kinds of the chow first..first+2 that p holds concealed (3 if declared)."""
    cdef int j
    for j in range(p.n_melds):
        if p.meld_type[j] == M_CHOW and p.meld_tile[j] == first:
            return 3
    return (p.hand[first] > 0) + (p.hand[first + 1] > 0) + (p.hand[first + 2] > 0)


cdef bint chow_plan(const player_t* p, int start) noexcept nogil:
    """Whether a chow from `start` (already declared in p) belongs to a hand two tiles or less
    from a mixed triple chow, a mixed straight or a pure straight (each segment missing at
    most one kind)."""
    cdef int s = start // 9, r = start % 9, a = (s + 1) % 3, b = (s + 2) % 3, o1, o2
    if segment_held(p, 9 * a + r) >= 2 and segment_held(p, 9 * b + r) >= 2:
        return True                              # mixed triple chow
    if r % 3:
        return False
    o1 = (r + 3) % 9
    o2 = (r + 6) % 9
    if segment_held(p, 9 * s + o1) >= 2 and segment_held(p, 9 * s + o2) >= 2:
        return True                              # pure straight
    if segment_held(p, 9 * a + o1) >= 2 and segment_held(p, 9 * b + o2) >= 2:
        return True                              # mixed straight
    return segment_held(p, 9 * a + o2) >= 2 and segment_held(p, 9 * b + o1) >= 2


cdef bint plan_claim(game_t* g, int seat, int k, int claim, int start, int after) noexcept nogil:
    """The humanlike policy's check of a pung or chow claim on discard k that leaves the hand
    `after` from ready: a plan it serves (flush, all pungs, a straight or a triple chow, a chow
    pattern missing at most HL_CLAIM_MISS kinds, a pung of a dragon or of the seat's or the
    prevalent wind with HL_HONOR_PUNG), with the hand at most HL_PLAN_SHANTEN from ready."""
    cdef player_t* p = &g.p[seat]
    cdef int j
    cdef bint ok = False
    if after > HL[HL_PLAN_SHANTEN]:
        return False
    if claim == C_PUNG:
        p.hand[k] -= 2
    else:
        for j in range(3):
            if start + j != k:
                p.hand[start + j] -= 1
    p.meld_type[p.n_melds] = <uint8_t>(M_PUNG if claim == C_PUNG else M_CHOW)
    p.meld_tile[p.n_melds] = <uint8_t>(k if claim == C_PUNG else start)
    p.n_melds += 1
    if flush_suit(p, HL[HL_FLUSH_OFF]) >= 0:
        ok = True
    elif claim == C_PUNG:
        ok = pungs_count(p) >= HL[HL_PUNGS] or (HL[HL_HONOR_PUNG] > 0 and (
            k >= 31 or k == 27 + ((seat - g.t.dealer) & 3)
            or k == 27 + (g.R.quan if g.R.botzone else (g.t.hand_no >> 2) & 3)))
    elif HL[HL_STRAIGHTS]:
        ok = chow_plan(p, start) or (HL[HL_CLAIM_MISS] > 0 and pattern_miss(p, chow_kinds(0, start)) <= HL[HL_CLAIM_MISS])
    p.n_melds -= 1
    if claim == C_PUNG:
        p.hand[k] += 2
    else:
        for j in range(3):
            if start + j != k:
                p.hand[start + j] += 1
    return ok


cdef bint should_fold(game_t* g, int seat, int best_s) noexcept nogil:
    cdef int s
    if best_s < HL[HL_FOLD_SHANTEN]:
        return False
    if live_left(g) <= HL[HL_FOLD_WALL]:
        return True
    for s in range(4):
        if s != seat and (g.p[s].n_melds >= HL[HL_FOLD_MELDS] or g.p[s].ready):
            return True
    return False


cdef int safest_discard(game_t* g, int seat, const uint8_t* sh, int best_s) noexcept nogil:
    """The folding discard: the held kind least likely to give a win to the threatening
    opponents (those showing HL_FOLD_MELDS sets or ready; all three late in the wall): one they
    discarded themselves, then honors by how many copies seat has seen (3 seen: nearly safe),
    then terminals, then the rest; ties to the lower shanten, then the lower kind."""
    cdef player_t* p = &g.p[seat]
    cdef uint64_t gone[4]
    cdef uint64_t held = held_kinds(p.hand)
    cdef int s, j, k, r, risk, seen, best_k = -1, best_v = 1 << 30, n_threats = 0
    cdef bint threat[4]
    for s in range(4):
        threat[s] = s != seat and (g.p[s].n_melds >= HL[HL_FOLD_MELDS] or g.p[s].ready)
        n_threats += threat[s]
    for s in range(4):
        if n_threats == 0:
            threat[s] = s != seat
        gone[s] = 0
        if threat[s]:
            for j in range(g.p[s].n_discards):
                gone[s] |= (<uint64_t>1) << g.p[s].discards[j]
    while held:
        k = mj_ctz64(held)
        held &= held - 1
        risk = 0
        seen = g.visible[k] + p.hand[k]
        for s in range(4):
            if not threat[s] or (gone[s] >> k) & 1:
                continue
            if k >= 27:
                r = 1 if seen >= 3 else (2 if seen == 2 else 4)
            elif k % 9 == 0 or k % 9 == 8:
                r = 5 if seen < 3 else 3
            else:
                r = 7 if seen < 3 else 4
            risk = risk if risk > r else r
        r = (risk * 16 + imin(sh[k] - best_s, 15)) * 64 + k
        if r < best_v:
            best_v = r
            best_k = k
    return best_k


cdef int feed_discard(game_t* g, int seat, const uint8_t* sh, int best_s) noexcept nogil:
    """The humanlike policy's discard of a hand that will not be ready in time: of its kinds at
    most HL_FEED_SLACK above the best shanten, the one the others most likely wait on (from what
    seat sees: the suits of their declared sets, a chow's neighbours, the copies it has not
    seen, middle ranks before terminals and honors); ties to the lower shanten."""
    cdef player_t* p = &g.p[seat]
    cdef uint64_t cands = held_kinds(p.hand) & ~kinds_above(sh, best_s + HL[HL_FEED_SLACK])
    cdef int k, s, j, t, r, d, score, best = -1000000, best_k = -1
    if not cands:
        cands = held_kinds(p.hand)
    while cands:
        k = mj_ctz64(cands)
        cands &= cands - 1
        score = 4 * unseen(g, seat, k)
        if k < 27:
            r = k % 9
            score += 4 if 2 <= r <= 6 else (2 if r == 1 or r == 7 else 0)
        for s in range(4):
            if s == seat:
                continue
            for j in range(g.p[s].n_melds):
                t = g.p[s].meld_tile[j]
                if k < 27 and t < 27 and t // 9 == k // 9:
                    score += 3
                    if g.p[s].meld_type[j] == M_CHOW and t - 2 <= k <= t + 4:
                        score += 2
            if HL[HL_FEED_READ]:
                d = 0
                for j in range(g.p[s].n_discards):
                    t = g.p[s].discards[j]
                    if t == k:
                        score -= 3
                    elif (k < 27 and t < 27 and t // 9 == k // 9) or (k >= 27 and t >= 27):
                        d += 1
                score -= d // 2
        score = 4 * score - (sh[k] - best_s)
        if score > best:
            best = score
            best_k = k
    return best_k


cdef int humanlike_discard(game_t* g, int seat) noexcept nogil:
    """Greedy's discard (lowest shanten, the most valuable waits at a ready hand, the most
    effective tiles), except that a flush plan (HL_STEER_OFF tiles off a suit at most) sends a
    tile outside the suit and the honors first, even one up to HL_STEER_SLACK above the best
    shanten (never from a ready hand), and a hand far from ready folds (safest_discard) when
    should_fold (the defaults never fold: HL_FOLD_SHANTEN 99). Among the remaining candidates a
    chow pattern plan (pattern_steer) keeps its kinds. At a ready hand the waits are valued by
    live_weight (HL_LIVE), and a ready hand with no live wait that wins on a discard steers by
    the pattern plan among the ready discards or, HL_REPLAN 2, those one from ready (also a
    hand with a single ready discard, HL_REPLAN_ONE); late in the hand (turns_left at most
    HL_LATE, right under either rule set) a ready hand is kept and a wait that wins only
    self-drawn counts 1 per copy (earlier HL_SELF_WEIGHT, 0 in the defaults). With fewer than
    HL_FEED turns left a hand at least HL_FEED_SHANTEN from ready, and with fewer than
    HL_FEED_DEAD a ready hand with no wait worth min_fan, lets go the tile the others most
    likely wait on (feed_discard): more hands end in a win on a discard instead of a draw."""
    cdef player_t* p = &g.p[seat]
    cdef uint8_t sh[34]
    cdef codes_t c
    cdef hand_t f14
    cdef uint64_t cands, off, more
    cdef int best_s, live, k, s, value = 0
    best_s = greedy_shanten(g, p.hand, &c, sh, &live, &f14)
    if best_s >= HL[HL_FEED_SHANTEN] and turns_left(g) < HL[HL_FEED]:
        # (too far from ready for the turns left: let the others win on a discard)
        k = feed_discard(g, seat, sh, best_s)
        p.wait_sh = sh[k] if sh[k] <= best_s + 1 else -1
        return k
    if should_fold(g, seat, best_s):
        k = safest_discard(g, seat, sh, best_s)
        p.wait_sh = sh[k] if sh[k] <= best_s + 1 else -1   # (each_discard is exact up to best + 1)
        return k
    cands = kinds_equal(sh, best_s)
    p.wait_sh = best_s
    if HL[HL_STEER]:
        s = flush_suit(p, HL[HL_STEER_OFF])
        if s >= 0:
            off = cands & ~suit_kinds(s) & ~HONOR_KINDS
            if not off and HL[HL_STEER_SLACK] > 0 and best_s > 0:
                # (a worse shanten for the flush; never from a ready hand)
                off = ~kinds_above(sh, best_s + HL[HL_STEER_SLACK]) & held_kinds(p.hand) & ~suit_kinds(s) & ~HONOR_KINDS
                if off:
                    k = mj_ctz64(off)
                    p.wait_sh = sh[k]
                    return k
            if off:
                cands = off
    if best_s > 0 and HL[HL_PATTERN_MISS] > 0 and (cands & (cands - 1)):
        off = pattern_steer(p, cands)
        if off:
            cands = off
    if not (cands & (cands - 1)) and (best_s > 0 or not HL[HL_REPLAN_ONE]):
        return mj_ctz64(cands)
    k = most_effective(g, seat, &c, cands, best_s, live, &f14, NULL, best_s == 0, &value)
    if best_s == 0 and value == 0 and turns_left(g) < HL[HL_FEED_DEAD]:
        # (a ready hand that cannot win at all this late: let the others win on a discard)
        k = feed_discard(g, seat, sh, best_s)
        p.wait_sh = sh[k] if sh[k] <= best_s + 1 else -1
        return k
    if best_s == 0 and value <= HL[HL_REPLAN_MIN] and HL[HL_REPLAN] > 0 and turns_left(g) > HL[HL_LATE]:
        # (a ready hand that cannot win on a discard: towards a pattern, ready if it can)
        off = pattern_steer(p, cands)
        if HL[HL_REPLAN] > 1:
            more = pattern_steer(p, cands | kinds_equal(sh, 1))
            if more & cands:
                off = more & cands
            elif more:
                k = most_effective(g, seat, &c, more, 1, live, &f14, NULL, False, NULL)
                p.wait_sh = sh[k]
                return k
        if off:
            k = most_effective(g, seat, &c, off, 0, live, &f14, NULL, False, NULL)
    return k

