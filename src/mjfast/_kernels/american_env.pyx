# cython: language_level=3
"""Batched environments of the American family (private; the Python front is mjfast.env).

`AmericanVec` is the American twin of chinese_env.ChineseVec (same methods, same step
protocol): N tables of the resumable engine (american_game.pxd) stepped without the GIL, one
question of an external seat per table per step, its observation and legal-action mask
written. The engine already asks every seat with a call in turn after a discard (and stops at
the first Mahjong, which ends the hand).

A Charleston pass is one engine question, split here into steps of one choice each: the
blind-pass count first (on the passes where blind passing is allowed), then the tiles one by
one (jokers are never passed); the pass goes to the engine when the last tile is chosen. The
courtesy pass likewise (its tile count is fixed by the offers).

Encodings (versioned, never changed once released; names in mjfast.game.encodings):

Actions ``am-v0`` (83 ids)
    0-35 tile of kind k (0-33 the standard kinds, 34 flower, 35 joker): discard it, or (in a
    Charleston or courtesy pass) pass it; 36-39 blind-pass count 0-3; 40-43 courtesy offer
    0-3; 44 vote for the second Charleston; 45 call the discard for a set of four; 46 Mahjong;
    47 pass (no call; a vote against the second Charleston); 48-82 joker exchange: give a tile
    of kind k - 48 for a joker in an exposed set of k (the first such set in turn order from
    the player, own sets first).

Observation ``am-v0``: 28 planes x 36 kinds (uint8) and 34 scalars (float32); seats relative
to the observer. See PLANES / SCALARS below.
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, int32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from mjfast._kernels.engine cimport (
    Tables, table_t, request_t, ASK_DISCARD, ASK_CLAIM, ASK_OWN_TURN, ASK_PASS, ASK_SECOND, ASK_COURTESY_OFFER,
    ASK_COURTESY, POL_RANDOM, CTX_NONE, F_DERIVED, F_PRIVILEGED,
)
from mjfast._kernels.american_game cimport (
    amgame_t, amrules_t, amplayer_t, seat_view, advance, start_game, init_game, make_rules, builtin_answer,
    greedy_pick, random_tile, copies, card_scratch_bytes, card_scratch_alloc, game_dist, JOKER, FLOWER, NK, MODE_OWN,
)
from mjfast._kernels.american_game import out_width

cnp.import_array()

# issue 27 (mjfast.search): table states and rollouts (the methods at the end of AmericanVec)
from cython.parallel cimport prange
from libc.stdint cimport int16_t, int64_t
from libc.string cimport memcpy
from mjfast._kernels.engine cimport ST_IDLE, ST_NEW
from mjfast._kernels.american_game cimport PH_OVER
from mjfast._kernels.states cimport save_book, load_book, check_book, check_header, wall_is_permutation, rollout_all, \
    BOOK_INTS, BOOK_STATUS, RO_WIDTH


cdef enum:
    # action ids
    A_TILE = 0             # + kind (0-35): discard, or pass in a Charleston / courtesy pass
    A_BLIND = 36           # + 0-3 tiles passed blind
    A_OFFER = 40           # + 0-3 tiles offered in the courtesy pass
    A_VOTE_YES = 44
    A_CALL = 45
    A_WIN = 46
    A_PASS = 47
    A_EXCHANGE = 48        # + kind (0-34)
    N_ACTIONS = 83

cdef enum:
    # planes (each 36 bytes)
    P_HAND = 0             # 8: own concealed tiles, count >= 1 .. >= 8 (flowers and jokers reach 8)
    P_DRAWN = 8            # the tile just drawn (own turn)
    P_OFFERED = 9          # the discard that may be called
    P_SELECTED = 10        # tiles chosen so far for the pass being made (count)
    P_EXPOSED = 11         # 4: natural tiles in each seat's exposed set of the kind (count)
    P_EXP_JOKERS = 15      # 4: jokers in each seat's exposed set of the kind (count)
    P_DISCARDS = 19        # 4: each seat's discards (count)
    P_LAST = 23            # 4: each seat's latest discard
    P_UNSEEN = 27          # copies the observer has not seen (count)
    N_PLANES = 28
    D_DIST_AFTER = 0       # derived: distance after discarding kind k, plus one (0: not held)
    D_COMPLETES = 1        # derived: kinds that complete the hand (call context)
    N_DERIVED = 2
    N_PRIVILEGED = 3       # the other seats' concealed tiles (count), relative seats 1-3

cdef enum:
    S_WALL = 0             # tiles left in the wall
    S_TURN = 1
    S_DEALER = 2           # 4: relative one-hot
    S_SCORES = 6           # 4
    S_DEAD = 10            # 4: dead hands
    S_HAND_NO = 14
    S_HANDS = 15
    S_PASS_NO = 16         # 7: the Charleston pass being made, one-hot (0-2 first, 3-5 second, 6 courtesy)
    S_TO_PICK = 23         # tiles still to choose in this pass
    S_BLIND = 24           # tiles passed blind in this pass
    S_BLIND_OK = 25        # blind passing allowed on this pass
    S_CONTEXT = 26         # 7: own turn / discard after a call / call / blind count / pass tile / vote / offer
    S_JOKERS = 33          # jokers in the set
    N_SCALARS = 34
    S_DISTANCE = 34        # derived: own distance to Mahjong

cdef enum:
    CTX_OWN = 0
    CTX_AFTER_CALL = 1
    CTX_CALL = 2
    CTX_BLIND = 3
    CTX_PICK = 4
    CTX_VOTE = 5
    CTX_OFFER = 6

def table_bytes(dict rules):
    """Bytes of engine state per table under these kernel rules (the game, the pass slot, the
    card's scratch, the output row, the step state), for the environments' memory estimate."""
    cdef amrules_t R = make_rules(rules)
    return (sizeof(amgame_t) + sizeof(amslot_t) + card_scratch_bytes(&R) + 4 * out_width(rules)
            + sizeof(table_t*) + 5 * sizeof(int))


ACTIONS = N_ACTIONS
PLANES = N_PLANES
SCALARS = N_SCALARS
KINDS = NK
DERIVED_PLANES = N_DERIVED
PRIVILEGED_PLANES = N_PRIVILEGED
CONTEXTS = ("own_turn", "after_call", "call", "blind_count", "pass_tile", "vote", "courtesy_offer")
ACTION_IDS = {"tile": A_TILE, "blind": A_BLIND, "offer": A_OFFER, "vote_yes": A_VOTE_YES, "call": A_CALL,
              "win": A_WIN, "pass": A_PASS, "exchange": A_EXCHANGE}


ctypedef struct amslot_t:
    # a pass being chosen step by step
    int stage              # 0 none, 1 the blind count, 2 the tiles
    int need               # tiles to choose in all (3 - blind, or the courtesy count)
    int blind
    int n_sel
    int sel[3]
    # the teacher's plan for the pass being chosen (expert / forced answers)
    int plan_ok
    int plan_blind
    int plan[3]


cdef inline int blind_allowed(amgame_t* g) noexcept nogil:
    return g.t.req.what == ASK_PASS and (g.t.req.tile == 2 or g.t.req.tile == 5) and g.R.blind


cdef int context_of(amgame_t* g, amslot_t* sl) noexcept nogil:
    cdef int w = g.t.req.what
    if w == ASK_PASS or w == ASK_COURTESY:
        return CTX_BLIND if sl.stage == 1 else CTX_PICK
    if w == ASK_SECOND:
        return CTX_VOTE
    if w == ASK_COURTESY_OFFER:
        return CTX_OFFER
    if w == ASK_CLAIM:
        return CTX_CALL
    if w == ASK_OWN_TURN or g.mode == MODE_OWN:
        return CTX_OWN
    return CTX_AFTER_CALL


cdef void encode(amgame_t* g, amslot_t* sl, int seat, int ctx, uint8_t* o, float* sc, int flags, int n_planes,
                 int n_scalars) noexcept nogil:
    cdef int s, r, j, k, c
    cdef amplayer_t* p
    cdef amplayer_t* me = &g.p[seat]
    cdef int base = N_PLANES
    memset(o, 0, n_planes * NK)
    for j in range(n_scalars):
        sc[j] = 0
    for k in range(NK):
        c = me.h[k]
        for j in range(c if c < 8 else 8):
            o[(P_HAND + j) * NK + k] = 1
    if ctx == CTX_OWN and g.cur == seat and g.drawn >= 0:
        o[P_DRAWN * NK + g.drawn] = 1
    if ctx == CTX_CALL:
        o[P_OFFERED * NK + g.discard] = 1
    if ctx == CTX_PICK or ctx == CTX_BLIND:
        for j in range(sl.n_sel):
            o[P_SELECTED * NK + sl.sel[j]] += 1
    for s in range(4):
        r = (s - seat) & 3
        p = &g.p[s]
        for j in range(p.n_exp):
            k = p.exp_kind[j]
            o[(P_EXPOSED + r) * NK + k] += p.exp_size[j] - p.exp_jokers[j]
            o[(P_EXP_JOKERS + r) * NK + k] += p.exp_jokers[j]
        for j in range(p.n_disc):
            o[(P_DISCARDS + r) * NK + p.disc[j]] += 1
        if p.n_disc > 0:
            o[(P_LAST + r) * NK + p.disc[p.n_disc - 1]] = 1
        sc[S_SCORES + r] = g.t.score[s]
        sc[S_DEAD + r] = p.dead
        if (flags & F_PRIVILEGED) and r > 0:
            for k in range(NK):
                o[(base + (N_DERIVED if flags & F_DERIVED else 0) + r - 1) * NK + k] = p.h[k]
    for k in range(NK):
        c = (copies(k) if k < JOKER else g.R.jokers) - me.h[k] - g.visible[k]
        if c > 0:
            o[P_UNSEEN * NK + k] = <uint8_t>c
    sc[S_WALL] = g.n_tiles - g.front
    sc[S_TURN] = g.t.turn
    sc[S_DEALER + ((g.t.dealer - seat) & 3)] = 1
    sc[S_HAND_NO] = g.t.hand_no
    sc[S_HANDS] = g.t.hands_per_game
    if ctx == CTX_PICK or ctx == CTX_BLIND or ctx == CTX_VOTE or ctx == CTX_OFFER:
        if g.t.req.what == ASK_PASS:
            sc[S_PASS_NO + g.t.req.tile] = 1
        elif g.t.req.what == ASK_COURTESY or ctx == CTX_OFFER:
            sc[S_PASS_NO + 6] = 1
        if ctx == CTX_PICK or ctx == CTX_BLIND:
            sc[S_TO_PICK] = (sl.need if sl.stage == 2 else 3) - sl.n_sel
            sc[S_BLIND] = sl.blind
            sc[S_BLIND_OK] = blind_allowed(g)
    if ctx >= 0:
        sc[S_CONTEXT + ctx] = 1
    sc[S_JOKERS] = g.R.jokers
    if flags & F_DERIVED:                   # (distances to the card's lines with a card)
        sc[S_DISTANCE] = game_dist(g, me)
        if ctx == CTX_OWN or ctx == CTX_AFTER_CALL:
            for k in range(NK):
                if me.h[k]:
                    me.h[k] -= 1
                    o[(base + D_DIST_AFTER) * NK + k] = <uint8_t>(game_dist(g, me) + 1)
                    me.h[k] += 1
        elif ctx == CTX_CALL:
            for k in range(JOKER):
                me.h[k] += 1
                c = game_dist(g, me)
                me.h[k] -= 1
                if c == 0:
                    o[(base + D_COMPLETES) * NK + k] = 1


cdef int selected(amslot_t* sl, int k) noexcept nogil:
    cdef int j, n = 0
    for j in range(sl.n_sel):
        n += sl.sel[j] == k
    return n


cdef int legal_mask(amgame_t* g, amslot_t* sl, uint8_t* m, int* single) noexcept nogil:
    cdef request_t* q = &g.t.req
    cdef amplayer_t* p = &g.p[q.seat]
    cdef int n = 0, i, c, k, a = -1
    memset(m, 0, N_ACTIONS)
    if q.what == ASK_DISCARD or q.what == ASK_OWN_TURN:
        for k in range(NK):
            if p.h[k]:
                m[A_TILE + k] = 1
        if q.what == ASK_OWN_TURN:
            if q.options[0] == 1000:
                m[A_WIN] = 1
            for i in range(1, q.n_options):
                m[A_EXCHANGE + (q.options[i] >> 2)] = 1
    elif q.what == ASK_PASS or q.what == ASK_COURTESY:
        if sl.stage == 1:
            for i in range(4):
                m[A_BLIND + i] = 1
        else:
            for k in range(JOKER):
                if p.h[k] > selected(sl, k):
                    m[A_TILE + k] = 1
    elif q.what == ASK_CLAIM:
        if q.options[0] == 1:
            m[A_WIN] = 1
        if q.options[1] == 2:
            m[A_CALL] = 1
        m[A_PASS] = 1
    elif q.what == ASK_SECOND:
        m[A_VOTE_YES] = 1
        m[A_PASS] = 1
    elif q.what == ASK_COURTESY_OFFER:
        for i in range(4):
            m[A_OFFER + i] = 1
    for i in range(N_ACTIONS):
        if m[i]:
            n += 1
            a = i
    single[0] = a
    return n


cdef void begin_pass(amgame_t* g, amslot_t* sl) noexcept nogil:
    """A pass question arrives: its first step."""
    sl.n_sel = 0
    sl.blind = 0
    sl.plan_ok = 0
    if g.t.req.what == ASK_COURTESY:
        sl.stage = 2
        sl.need = g.t.req.options[0]
    elif blind_allowed(g):
        sl.stage = 1
        sl.need = 3
    else:
        sl.stage = 2
        sl.need = 3


cdef int take_action(amgame_t* g, amslot_t* sl, int a, int* pend) noexcept nogil:
    """Apply action a to the pending question: 1 if the engine got its answer, 0 if a pass
    goes on to its next step (no answer yet); pend receives the discard that follows an
    own-turn "go on" (-1: none)."""
    cdef request_t* q = &g.t.req
    cdef int i, code, ans = 0
    pend[0] = -1
    if q.what == ASK_PASS or q.what == ASK_COURTESY:
        if sl.stage == 1:
            sl.blind = a - A_BLIND
            sl.need = 3 - sl.blind
            sl.stage = 2
        else:
            sl.sel[sl.n_sel] = a - A_TILE
            sl.n_sel += 1
        if sl.n_sel < sl.need:
            return 0
        code = sl.blind
        for i in range(sl.n_sel):
            code |= sl.sel[i] << (2 + 6 * i)
        ans = code
        sl.stage = 0
        sl.plan_ok = 0
    elif q.what == ASK_DISCARD:
        ans = a - A_TILE
    elif q.what == ASK_OWN_TURN:
        if a == A_WIN:
            ans = 0
        elif a >= A_EXCHANGE:
            ans = -1
            for i in range(1, q.n_options):
                if (q.options[i] >> 2) == a - A_EXCHANGE:
                    ans = i
                    break
        else:
            ans = -1
            pend[0] = a - A_TILE
    elif q.what == ASK_CLAIM:
        ans = 0 if a == A_WIN else (1 if a == A_CALL else -1)
    elif q.what == ASK_SECOND:
        ans = 1 if a == A_VOTE_YES else 0
    elif q.what == ASK_COURTESY_OFFER:
        ans = a - A_OFFER
    g.t.answer = ans
    g.t.has_answer = 1
    return 1


cdef int expert_action(amgame_t* g, amslot_t* sl, int policy) noexcept nogil:
    """The action built-in `policy` takes at the pending question (step)."""
    cdef request_t* q = &g.t.req
    cdef int kinds[3]
    cdef int ans, j, k, d
    cdef amplayer_t* p = &g.p[q.seat]
    if q.what == ASK_PASS or q.what == ASK_COURTESY:
        if not sl.plan_ok:
            sl.plan_blind = builtin_answer(g, policy, sl.plan)
            sl.plan_ok = 1
        if sl.stage == 1:
            return A_BLIND + sl.plan_blind
        for j in range(sl.n_sel):
            if j >= 3 - sl.plan_blind or sl.sel[j] != sl.plan[j]:
                break
        else:
            if sl.n_sel < 3 - sl.plan_blind:
                return A_TILE + sl.plan[sl.n_sel]
        # off the plan: the policy's next tile from what is left
        for j in range(sl.n_sel):
            p.h[sl.sel[j]] -= 1
            p.n_hand -= 1
        k = random_tile(g, p, False) if policy == POL_RANDOM else greedy_pick(g, p, False, &d)
        for j in range(sl.n_sel):
            p.h[sl.sel[j]] += 1
            p.n_hand += 1
        return A_TILE + k
    ans = builtin_answer(g, policy, kinds)
    if q.what == ASK_DISCARD:
        return A_TILE + ans
    if q.what == ASK_OWN_TURN:
        if ans < 0:
            if kinds[0] < 0:                # the hand goes dead at its discard: any tile (none is discarded)
                for k in range(NK):
                    if p.h[k]:
                        return A_TILE + k
            return A_TILE + kinds[0]
        if ans == 0:
            return A_WIN
        return A_EXCHANGE + (q.options[ans] >> 2)
    if q.what == ASK_CLAIM:
        return A_WIN if ans == 0 else (A_CALL if ans == 1 else A_PASS)
    if q.what == ASK_SECOND:
        return A_VOTE_YES if ans == 1 else A_PASS
    return A_OFFER + ans


cdef class AmericanVec(Tables):
    """N tables of the American engine for environments: ``AmericanVec(rules, n, skip_forced,
    derived, privileged)`` with the kernel rules dict (the methods: engine.Tables)."""

    cdef amrules_t R
    cdef amgame_t* g
    cdef amslot_t* slot
    cdef int n_games
    cdef object _card

    def __cinit__(self, dict rules, int n, bint skip_forced=True, bint derived=False, bint privileged=False):
        cdef int i, width = out_width(rules)          # (a card adds its per-line columns)
        self.n_games = 0
        self.R = make_rules(rules)
        self._card = rules.get("card")                # keeps the card's tables (R points into them) alive
        self.g = <amgame_t*>calloc(max(n, 1), sizeof(amgame_t))
        self.slot = <amslot_t*>calloc(max(n, 1), sizeof(amslot_t))
        if self.g == NULL or self.slot == NULL:
            raise MemoryError(f"{n} American tables need {max(n, 1) * (sizeof(amgame_t) + sizeof(amslot_t)):,} bytes "
                              "of game state")
        self._alloc(n, width, N_ACTIONS, NK, skip_forced, derived, privileged, N_PLANES, N_DERIVED, N_PRIVILEGED,
                    N_SCALARS)
        for i in range(n):
            init_game(&self.g[i], &self.R)
            self.n_games = i + 1
            if card_scratch_alloc(&self.g[i]) != 0:  # the card's scratch (distances, caches) per game
                raise MemoryError(f"{n} American tables need {n * card_scratch_bytes(&self.R):,} bytes of card "
                                  "scratch")
            self._link(i, &self.g[i].t, <int32_t*>cnp.PyArray_DATA(self._out) + i * width)

    def __dealloc__(self):
        cdef int i
        if self.g != NULL:
            for i in range(self.n_games):
                free(self.g[i].vs)
        free(self.g)
        free(self.slot)

    cdef void _start_game(self, int i, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil:
        start_game(&self.g[i], game_index, k0, k1, policies)
        self.slot[i].stage = 0
        self.slot[i].plan_ok = 0

    cdef int _advance(self, int i) noexcept nogil:
        return advance(&self.g[i])

    cdef void _begin(self, int i) noexcept nogil:
        cdef amgame_t* g = &self.g[i]
        if (g.t.req.what == ASK_PASS or g.t.req.what == ASK_COURTESY) and self.slot[i].stage == 0:
            begin_pass(g, &self.slot[i])

    cdef int _legal(self, int i, uint8_t* m, int* single) noexcept nogil:
        return legal_mask(&self.g[i], &self.slot[i], m, single)

    cdef int _take(self, int i, int a) noexcept nogil:
        self.pend_seat[i] = self.g[i].t.req.seat
        return take_action(&self.g[i], &self.slot[i], a, &self.pend[i])

    cdef int _expert(self, int i, int policy) noexcept nogil:
        return expert_action(&self.g[i], &self.slot[i], policy)

    cdef int _context(self, int i) noexcept nogil:
        return context_of(&self.g[i], &self.slot[i])

    cdef void _encode(self, int i, int seat, int ctx, uint8_t* o, float* sc) noexcept nogil:
        encode(&self.g[i], &self.slot[i], seat, ctx, o, sc, self.flags, self.n_planes, self.n_scalars)

    cdef object _view(self, int i, int seat):
        return seat_view(&self.g[i], seat)

    def pass_state(self, int i):
        """(stage, need, blind, chosen tiles) of the pass table i is choosing."""
        cdef amslot_t* sl = &self.slot[i]
        return sl.stage, sl.need, sl.blind, [sl.sel[j] for j in range(sl.n_sel)]

    # --------------------------------------------------------------------------------------
    # issue 27 (mjfast.search): table states as byte records, rollouts. The record layout and
    # the shared pieces: states.pxd.

    def state_layout(self):
        """Sizes (bytes) of a state record's parts: game, slot, scratch, book, out, record."""
        cdef Py_ssize_t sc = card_scratch_bytes(&self.R)
        return {"game": sizeof(amgame_t), "slot": sizeof(amslot_t), "scratch": sc, "book": 4 * BOOK_INTS,
                "out": 4 * self._out.shape[1], "record": _rec_bytes(sc, self._out.shape[1]),
                "table": sizeof(table_t), "player": sizeof(amplayer_t),
                "book_at": _book_at(sc), "out_at": _book_at(sc) + 4 * BOOK_INTS,
                "policy_at": <Py_ssize_t>(<char*>&self.g[0].t.policy[0] - <char*>&self.g[0]),
                "game_index_at": <Py_ssize_t>(<char*>&self.g[0].t.game_index - <char*>&self.g[0])}

    def save_states(self, const int64_t[::1] rows, uint8_t[:, ::1] out):
        """out[j, :record] = the state record of table rows[j]."""
        cdef Py_ssize_t j, sc = card_scratch_bytes(&self.R), width = self._out.shape[1]
        cdef Py_ssize_t book = _book_at(sc), outp = book + 4 * BOOK_INTS
        cdef int i
        cdef amgame_t* g
        cdef uint8_t* rec
        for j in range(rows.shape[0]):
            i = <int>rows[j]
            rec = &out[j, 0]
            memset(rec, 0, _rec_bytes(sc, width))
            memcpy(rec, &self.g[i], sizeof(amgame_t))
            g = <amgame_t*>rec
            g.R = NULL
            g.vs = NULL
            g.c_sr = NULL
            g.c_sf = NULL
            g.c_dv = NULL
            g.c_near = NULL
            g.t.walls = NULL
            g.t.dice = NULL
            g.t.out = NULL
            g.t.ev = NULL
            g.t.n_ev = 0
            g.t.cap_ev = 0
            memcpy(rec + _AM_SLOT, &self.slot[i], sizeof(amslot_t))
            if sc:
                memcpy(rec + _AM_SLOT + sizeof(amslot_t), self.g[i].vs, sc)
            save_book(self, i, <int32_t*>(rec + book))
            memcpy(rec + outp, self.t[i].out, 4 * width)

    def check_states(self, const uint8_t[:, ::1] data):
        """An int32 error code per record (0: plausible; STATE_ERRORS names the others)."""
        cdef Py_ssize_t j, n = data.shape[0], book = _book_at(card_scratch_bytes(&self.R))
        res = np.zeros(n, np.int32)
        cdef int32_t[::1] r = res
        cdef amgame_t g
        for j in range(n):
            memcpy(&g, &data[j, 0], sizeof(amgame_t))
            r[j] = _check_amgame(&g, <const int32_t*>(&data[j, 0] + book), &self.R)
        return res

    def load_states(self, const int64_t[::1] rows, const uint8_t[:, ::1] data, policies=None,
                    int stop_at_hand_end=-1):
        """Table rows[j] takes record data[j] (checked first: check_states, the Python layer).
        policies: (len(rows), 4) codes replacing the recorded ones, or None; stop_at_hand_end:
        0/1 replaces the recorded flag (-1 keeps it). The table's log restarts."""
        cdef Py_ssize_t j, sc = card_scratch_bytes(&self.R), width = self._out.shape[1]
        cdef Py_ssize_t book = _book_at(sc), outp = book + 4 * BOOK_INTS
        cdef int i, s
        cdef amgame_t* g
        cdef int32_t* ev
        cdef int cap
        cdef int16_t* vs
        cdef int[:, ::1] pol
        if policies is not None:
            pol = np.ascontiguousarray(policies, dtype=np.intc)
        for j in range(rows.shape[0]):
            i = <int>rows[j]
            g = &self.g[i]
            ev = g.t.ev
            cap = g.t.cap_ev
            vs = g.vs
            memcpy(g, &data[j, 0], sizeof(amgame_t))
            g.R = &self.R
            g.t.walls = NULL
            g.t.dice = NULL
            g.t.out = <int32_t*>cnp.PyArray_DATA(self._out) + i * width
            g.t.ev = ev
            g.t.cap_ev = cap
            g.t.n_ev = 0
            g.vs = vs
            g.c_sr = g.c_sf = g.c_dv = NULL
            g.c_near = NULL
            if sc:
                memcpy(vs, &data[j, 0] + _AM_SLOT + sizeof(amslot_t), sc)
                _scratch_pointers(g)
            memcpy(&self.slot[i], &data[j, 0] + _AM_SLOT, sizeof(amslot_t))
            self._walls[i] = None
            if stop_at_hand_end >= 0:
                g.t.stop_at_hand_end = stop_at_hand_end
            if policies is not None:
                for s in range(4):
                    g.t.policy[s] = pol[j, s]
                    g.p[s].policy = pol[j, s]
            load_book(self, i, <const int32_t*>(&data[j, 0] + book))
            memcpy(g.t.out, &data[j, 0] + outp, 4 * width)

    def rollout(self, const int64_t[::1] first, const int[:, ::1] codes, bint until_hand, int32_t[:, ::1] res,
                int threads):
        """Play every table on (states.pxd rollout_one): first[i] answers table i's pending
        question (-1: none), codes[i] are the built-in policies answering the rest."""
        rollout_all(self, first, codes, until_hand, res, threads)


# issue 27: the record layout of this family and its checks (states.pxd)
cdef Py_ssize_t _AM_SLOT = (sizeof(amgame_t) + 7) & ~7

STATE_ERRORS = {1: "the table bookkeeping (status, acting seat) is out of range",
                2: "the acting or pending seat is not 0-3", 3: "a seat's policy code is unknown",
                4: "the hand number, dealer or turn is out of range", 5: "the pending question is out of range",
                6: "the tile count differs from the rule set's", 7: "the phase is unknown",
                8: "the wall is not a permutation of the tile set", 9: "the wall's front is out of range",
                10: "a concealed hand holds an impossible count", 11: "a seat's sets or discards are out of range"}
ROLLOUT_WIDTH = RO_WIDTH


cdef Py_ssize_t _book_at(Py_ssize_t scratch) noexcept:
    return (_AM_SLOT + sizeof(amslot_t) + scratch + 3) & ~3


cdef Py_ssize_t _rec_bytes(Py_ssize_t scratch, Py_ssize_t width) noexcept:
    return (_book_at(scratch) + 4 * BOOK_INTS + 4 * width + 7) & ~7


cdef void _scratch_pointers(amgame_t* g) noexcept:
    """The cache pointers into g.vs, as american_game's scratch_parts sets them (without
    resetting the caches: the loaded scratch holds them)."""
    cdef uint8_t* b = <uint8_t*>(g.vs + 2 * g.R.c_nvar + 5 * g.R.c_lines + 8)
    cdef int V = g.R.c_nvar
    g.c_sr = b
    g.c_sf = b + 4 * V
    g.c_dv = b + 8 * V
    g.c_near = <int32_t*>(b + 9 * V + (-(9 * V) & 3))


cdef int _check_amgame(amgame_t* g, const int32_t* book, amrules_t* R) noexcept:
    cdef int e, s, k, c
    e = check_book(book)
    if e:
        return e
    if book[BOOK_STATUS] == ST_IDLE:
        return 0
    e = check_header(&g.t)
    if e:
        return e
    if g.n_tiles != R.n_tiles:
        return 6
    if g.t.phase < 0 or g.t.phase > PH_OVER:
        return 7
    if book[BOOK_STATUS] == ST_NEW:
        return 0
    if not wall_is_permutation(g.wall, g.n_tiles):
        return 8
    if g.front < 0 or g.front > g.n_tiles:
        return 9
    for s in range(4):
        c = 0
        for k in range(NK):
            if g.p[s].h[k] > (R.jokers if k == JOKER else copies(k)):
                return 10
            c += g.p[s].h[k]
        if c != g.p[s].n_hand or c > 14:
            return 10
        if g.p[s].n_exp < 0 or g.p[s].n_exp > 4 or g.p[s].n_disc < 0 or g.p[s].n_disc > 128:
            return 11
    return 0
