# cython: language_level=3
"""Batched environments of the Chinese family (private; the Python front is mjfast.env).

`ChineseVec` holds N tables of the resumable engine (chinese_game.pxd) and steps them without
the GIL: each step answers the pending question of every table with the caller's action,
plays on (built-in seats decide inline) to the next question of an external seat, and writes
that seat's observation and legal-action mask. The tables play with `t.collect_claims` (after
a discard every seat with a claim answers, in turn order, before the rules' priority
decides), so every question has one acting seat.

The encodings are versioned and never change once released (docs/environments.md):

Actions ``cn-v0`` (76 ids)
    0-33 discard kind k; 34 / 35 / 36 chow with the claimed tile lowest / middle / highest;
    37 pung; 38 exposed kong of the discard; 39-72 concealed or added kong of kind k - 39 on
    one's own turn; 73 win; 74 pass; 75 declare a ready hand (basic's Stop rule).

Observation ``cn-v0``: 48 planes x 34 kinds (uint8), seats relative to the observer (0 self,
1 next, 2 opposite, 3 previous), and 28 scalars (float32); see PLANES and SCALARS below.

Decisions: an own-turn question (after a draw or a kong's replacement) merges the discard with
the own-turn options (kongs, a self-drawn win): a discard id answers "go on" and then the
discard. A question with one legal action is answered inside the step unless the caller asks
to see them (skip_forced=0).
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from mjfast._kernels.engine cimport (
    Tables, table_t, request_t, ADV_DECIDE, ADV_DONE, ADV_HAND, POL_EXTERNAL, ASK_DISCARD, ASK_CLAIM, ASK_OWN_TURN, ASK_READY, CTX_NONE, F_DERIVED, F_PRIVILEGED,
)
from mjfast._kernels.bits cimport mj_thermo34
from mjfast._kernels.chinese_game cimport (
    game_t, rules_t, player_t, seat_view, advance, start_game, init_game, make_rules, builtin_answer, greedy_scores,
    complete, shanten_of, live_left, N_OUT, M_CHOW, M_PUNG, M_KONG_EXPOSED, M_KONG_CONCEALED, M_KONG_ADDED,
    MODE_OWN, C_NONE, C_WIN, C_KONG, C_PUNG,
)

cnp.import_array()

# issue 27 (mjfast.search): table states and rollouts (the methods at the end of ChineseVec)
from cython.parallel cimport prange
from libc.stdint cimport int64_t
from libc.string cimport memcpy
from mjfast._kernels.engine cimport ST_IDLE, ST_NEW
from mjfast._kernels.chinese_game cimport MAX_MELDS, PH_ROB
from mjfast._kernels.states cimport save_book, load_book, check_book, check_header, wall_is_permutation, rollout_all, \
    BOOK_INTS, BOOK_STATUS, RO_WIDTH


# ------------------------------------------------------------------------------------------
# the cn-v0 encodings

cdef enum:
    # action ids
    A_DISCARD = 0          # + kind
    A_CHOW_LOW = 34        # the claimed tile is the chow's lowest (t, t+1, t+2)
    A_CHOW_MID = 35        # ... its middle (t-1, t, t+1)
    A_CHOW_HIGH = 36       # ... its highest (t-2, t-1, t)
    A_PUNG = 37
    A_KONG = 38            # exposed kong of the discard
    A_OWN_KONG = 39        # + kind: concealed kong (four in hand) or added kong (exposed pung + one)
    A_WIN = 73
    A_PASS = 74
    A_READY = 75
    N_ACTIONS = 76

cdef enum:
    # planes (each 34 bytes)
    P_HAND = 0             # 4: own concealed tiles, count >= 1 .. >= 4
    P_DRAWN = 4            # the tile just drawn (own turn)
    P_OFFERED = 5          # the discard offered in a claim window
    P_MELDS = 6            # 4 x 4: tiles in each seat's exposed sets and declared kongs, count >= 1 .. 4
    P_DISCARDS = 22        # 4 x 4: each seat's discards (claimed ones included), count >= 1 .. 4
    P_LAST = 38            # 4: each seat's latest discard
    P_UNSEEN = 42          # 4: copies the observer has not seen, count >= 1 .. 4
    P_SEAT_WIND = 46       # the observer's seat wind (on kinds 27-30)
    P_ROUND_WIND = 47      # the prevalent wind
    N_PLANES = 48
    # derived planes (option): appended after the base planes
    D_SHANTEN_AFTER = 0    # shanten after discarding kind k, plus one (0: not held); own turn
    D_EFFECTIVE = 1        # unseen tiles that lower the shanten after discarding k (best discards)
    D_WAITS = 2            # kinds that complete the hand (claim window, ready declaration)
    N_DERIVED = 3
    N_PRIVILEGED = 12      # the other seats' concealed tiles (relative seats 1-3, 4 planes each)

cdef enum:
    # scalars
    S_WALL = 0             # live tiles left
    S_TURN = 1             # turns played in the hand
    S_DEALER = 2           # 4: the dealer, relative one-hot
    S_SCORES = 6           # 4: scores, relative seats
    S_BONUS = 10           # 4: bonus tiles set aside
    S_CONCEALED_KONGS = 14 # 4
    S_READY = 18           # 4: declared ready hands
    S_HAND_NO = 22         # hand number in the game
    S_CONTEXT = 23         # 4: the decision: own turn / discard after a claim / claim window / ready
    S_HANDS = 27           # hands per game
    N_SCALARS = 28
    S_SHANTEN = 28         # derived option: the observer's shanten

cdef enum:
    CTX_OWN = 0
    CTX_AFTER_CLAIM = 1
    CTX_CLAIM = 2
    CTX_READY = 3

def table_bytes(dict rules):
    """Bytes of engine state per table (the game, the output row, the step state), for the
    environments' memory estimate."""
    return sizeof(game_t) + 4 * N_OUT + sizeof(table_t*) + 5 * sizeof(int)


ACTIONS = N_ACTIONS
PLANES = N_PLANES
SCALARS = N_SCALARS
DERIVED_PLANES = N_DERIVED
PRIVILEGED_PLANES = N_PRIVILEGED
CONTEXTS = ("own_turn", "after_claim", "claim", "ready")
ACTION_IDS = {"discard": A_DISCARD, "chow_low": A_CHOW_LOW, "chow_mid": A_CHOW_MID, "chow_high": A_CHOW_HIGH,
              "pung": A_PUNG, "kong": A_KONG, "own_kong": A_OWN_KONG, "win": A_WIN, "pass": A_PASS, "ready": A_READY}
PLANE_IDS = {"hand": P_HAND, "drawn": P_DRAWN, "offered": P_OFFERED, "melds": P_MELDS, "discards": P_DISCARDS,
             "last_discard": P_LAST, "unseen": P_UNSEEN, "seat_wind": P_SEAT_WIND, "round_wind": P_ROUND_WIND}
SCALAR_IDS = {"wall": S_WALL, "turn": S_TURN, "dealer": S_DEALER, "scores": S_SCORES, "bonus": S_BONUS,
              "concealed_kongs": S_CONCEALED_KONGS, "ready": S_READY, "hand_number": S_HAND_NO,
              "context": S_CONTEXT, "hands_per_game": S_HANDS, "shanten": S_SHANTEN}


cdef inline void thermo_rows(uint8_t* o, int plane, const uint8_t* c) noexcept nogil:
    """Counts c (34, each 0-4) as planes plane .. plane+3 (count >= 1 .. >= 4)."""
    mj_thermo34(o + plane * 34, c)


cdef int context_of(game_t* g) noexcept nogil:
    cdef int w = g.t.req.what
    if w == ASK_CLAIM:
        return CTX_CLAIM
    if w == ASK_READY:
        return CTX_READY
    if w == ASK_OWN_TURN or g.mode == MODE_OWN:
        return CTX_OWN
    return CTX_AFTER_CLAIM


cdef void encode(game_t* g, int seat, int ctx, uint8_t* o, float* sc, int flags, int n_planes, int n_scalars) noexcept nogil:
    """The observation of `seat` (ctx: the decision it faces, CTX_NONE for none) into o
    (n_planes x 34) and sc (n_scalars)."""
    cdef int s, r, j, k, t, c
    cdef player_t* p
    cdef player_t* me = &g.p[seat]
    cdef uint8_t cnt[34]
    cdef uint8_t ck[34]
    cdef uint8_t sh[34]
    cdef int counts[34]
    cdef int base = N_PLANES
    memset(o, 0, n_planes * 34)
    memset(ck, 0, 34)
    for j in range(n_scalars):
        sc[j] = 0
    thermo_rows(o, P_HAND, me.hand)
    if ctx == CTX_OWN and g.cur == seat and g.drawn_kind >= 0:
        o[P_DRAWN * 34 + g.drawn_kind] = 1
    if ctx == CTX_CLAIM:
        o[P_OFFERED * 34 + g.discard] = 1
    for s in range(4):
        r = (s - seat) & 3
        p = &g.p[s]
        if p.n_melds:
            memset(cnt, 0, 34)
            for j in range(p.n_melds):
                t = p.meld_tile[j]
                if p.meld_type[j] == M_CHOW:
                    cnt[t] += 1
                    cnt[t + 1] += 1
                    cnt[t + 2] += 1
                elif p.meld_type[j] == M_PUNG:
                    cnt[t] += 3
                else:
                    cnt[t] += 4
                    if p.meld_type[j] == M_KONG_CONCEALED:
                        ck[t] = 4
                        sc[S_CONCEALED_KONGS + r] += 1
            thermo_rows(o, P_MELDS + 4 * r, cnt)
        if p.n_discards:
            memset(cnt, 0, 34)
            for j in range(p.n_discards):
                cnt[p.discards[j]] += 1
            thermo_rows(o, P_DISCARDS + 4 * r, cnt)
            o[(P_LAST + r) * 34 + p.discards[p.n_discards - 1]] = 1
        sc[S_SCORES + r] = g.t.score[s]
        sc[S_BONUS + r] = p.bonus
        sc[S_READY + r] = p.ready
        if (flags & F_PRIVILEGED) and r > 0:
            thermo_rows(o, base + (N_DERIVED if flags & F_DERIVED else 0) + 4 * (r - 1), p.hand)
    for k in range(34):
        c = 4 - me.hand[k] - g.visible[k] - ck[k]
        cnt[k] = <uint8_t>(c if c > 0 else 0)
    thermo_rows(o, P_UNSEEN, cnt)
    o[P_SEAT_WIND * 34 + 27 + ((seat - g.t.dealer) & 3)] = 1
    o[P_ROUND_WIND * 34 + 27 + ((g.t.hand_no >> 2) & 3)] = 1
    sc[S_WALL] = live_left(g)
    sc[S_TURN] = g.t.turn
    sc[S_DEALER + ((g.t.dealer - seat) & 3)] = 1
    sc[S_HAND_NO] = g.t.hand_no
    if ctx >= 0:
        sc[S_CONTEXT + ctx] = 1
    sc[S_HANDS] = g.t.hands_per_game
    if flags & F_DERIVED:
        sc[S_SHANTEN] = shanten_of(g, me.hand)
        if ctx == CTX_OWN or ctx == CTX_AFTER_CLAIM:
            # (unseen as planes 42-45 count them: the declared concealed kongs are seen)
            for k in range(34):
                g.visible[k] += ck[k]
            greedy_scores(g, seat, sh, counts)
            for k in range(34):
                g.visible[k] -= ck[k]
            for k in range(34):
                if me.hand[k]:
                    o[(base + D_SHANTEN_AFTER) * 34 + k] = <uint8_t>(sh[k] + 1)
                    if counts[k] > 0:
                        o[(base + D_EFFECTIVE) * 34 + k] = <uint8_t>counts[k]
        elif ctx == CTX_CLAIM or ctx == CTX_READY:
            for k in range(34):
                if me.hand[k] < 4:
                    me.hand[k] += 1
                    if complete(g, me.hand, me.n_hand + 1):
                        o[(base + D_WAITS) * 34 + k] = 1
                    me.hand[k] -= 1


cdef inline int set_legal(uint8_t* m, int a, int* n, int* single) noexcept nogil:
    if not m[a]:
        m[a] = 1
        n[0] += 1
        single[0] = a
    return 0


cdef int legal_mask(game_t* g, uint8_t* m, int* single) noexcept nogil:
    """The legal actions of the pending question as a mask (N_ACTIONS bytes); returns how
    many, single = one of them (the only one when there is one)."""
    cdef request_t* q = &g.t.req
    cdef player_t* p = &g.p[q.seat]
    cdef int n = 0, i, c, k
    memset(m, 0, N_ACTIONS)
    single[0] = -1
    if q.what == ASK_DISCARD or q.what == ASK_OWN_TURN:
        if q.what == ASK_OWN_TURN and p.ready:
            set_legal(m, g.drawn_kind, &n, single)    # a ready hand is fixed: the drawn tile goes
        else:
            for k in range(34):
                if p.hand[k]:
                    m[k] = 1
                    n += 1
                    single[0] = k
        if q.what == ASK_OWN_TURN:
            for i in range(q.n_options):
                c = q.options[i]
                set_legal(m, A_WIN if c == 1000 else A_OWN_KONG + c % 1000, &n, single)
    elif q.what == ASK_CLAIM:
        for i in range(q.n_options):
            set_legal(m, claim_action(q.options[i], q.tile), &n, single)
    elif q.what == ASK_READY:
        set_legal(m, A_READY, &n, single)
        set_legal(m, A_PASS, &n, single)
    return n


cdef inline int claim_action(int code, int k) noexcept nogil:
    if code >= 100:
        return A_CHOW_LOW + (k - (code - 100))     # the claimed tile's place in the chow
    if code == C_WIN:
        return A_WIN
    if code == C_KONG:
        return A_KONG
    if code == C_PUNG:
        return A_PUNG
    return A_PASS


cdef int answer_of(game_t* g, int a, int* pend) noexcept nogil:
    """The engine's answer to the pending question for action id a (legal: checked before);
    pend receives the discard that follows an own-turn "go on" (-1: none)."""
    cdef request_t* q = &g.t.req
    cdef int i, c
    pend[0] = -1
    if q.what == ASK_DISCARD:
        return a
    if q.what == ASK_READY:
        return 1 if a == A_READY else 0
    if q.what == ASK_OWN_TURN:
        if a < 34:
            if not g.p[q.seat].ready:
                pend[0] = a
            return -1
        for i in range(q.n_options):
            c = q.options[i]
            if (a == A_WIN and c == 1000) or (a != A_WIN and c >= 2000 and c % 1000 == a - A_OWN_KONG):
                return i
        return -2
    for i in range(q.n_options):
        if claim_action(q.options[i], q.tile) == a:
            return i
    return -2


cdef int action_of(game_t* g, int answer, int then_discard) noexcept nogil:
    """The action id of an engine answer to the pending question (inverse of answer_of)."""
    cdef request_t* q = &g.t.req
    if q.what == ASK_DISCARD:
        return answer
    if q.what == ASK_READY:
        return A_READY if answer == 1 else A_PASS
    if q.what == ASK_OWN_TURN:
        if answer < 0:
            return then_discard
        return A_WIN if q.options[answer] == 1000 else A_OWN_KONG + q.options[answer] % 1000
    return claim_action(q.options[answer], q.tile)


cdef class ChineseVec(Tables):
    """N tables of the Chinese engine for environments: ``ChineseVec(rules, n, skip_forced,
    derived, privileged)`` with the kernel rules dict (the methods: engine.Tables)."""

    cdef rules_t R
    cdef game_t* g

    def __cinit__(self, dict rules, int n, bint skip_forced=True, bint derived=False, bint privileged=False):
        cdef int i
        self.R = make_rules(rules)
        self.g = <game_t*>calloc(max(n, 1), sizeof(game_t))
        if self.g == NULL:
            raise MemoryError(f"{n} tables need {max(n, 1) * sizeof(game_t):,} bytes of game state")
        self._alloc(n, N_OUT, N_ACTIONS, 34, skip_forced, derived, privileged, N_PLANES, N_DERIVED, N_PRIVILEGED,
                    N_SCALARS)
        for i in range(n):
            init_game(&self.g[i], &self.R)
            self._link(i, &self.g[i].t, <int32_t*>cnp.PyArray_DATA(self._out) + i * N_OUT)

    def __dealloc__(self):
        free(self.g)

    cdef void _start_game(self, int i, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil:
        start_game(&self.g[i], game_index, k0, k1, policies)

    cdef int _advance(self, int i) noexcept nogil:
        return advance(&self.g[i])

    cdef int _legal(self, int i, uint8_t* m, int* single) noexcept nogil:
        return legal_mask(&self.g[i], m, single)

    cdef int _take(self, int i, int a) noexcept nogil:
        cdef game_t* g = &self.g[i]
        g.t.answer = answer_of(g, a, &self.pend[i])
        g.t.has_answer = 1
        self.pend_seat[i] = g.t.req.seat
        return 1

    cdef int _expert(self, int i, int policy) noexcept nogil:
        cdef int then = -1, ans = builtin_answer(&self.g[i], policy, &then)
        return action_of(&self.g[i], ans, then)

    cdef int _context(self, int i) noexcept nogil:
        return context_of(&self.g[i])

    cdef void _encode(self, int i, int seat, int ctx, uint8_t* o, float* sc) noexcept nogil:
        encode(&self.g[i], seat, ctx, o, sc, self.flags, self.n_planes, self.n_scalars)

    cdef object _view(self, int i, int seat):
        return seat_view(&self.g[i], seat)

    # --------------------------------------------------------------------------------------
    # issue 27 (mjfast.search): table states as byte records, rollouts. The record layout and
    # the shared pieces: states.pxd.

    def state_layout(self):
        """Sizes (bytes) of a state record's parts: game, slot, scratch, book, out, record."""
        d = _layout(0)
        d.update({"policy_at": <Py_ssize_t>(<char*>&self.g[0].t.policy[0] - <char*>&self.g[0]),
                  "game_index_at": <Py_ssize_t>(<char*>&self.g[0].t.game_index - <char*>&self.g[0])})
        return d

    def save_states(self, const int64_t[::1] rows, uint8_t[:, ::1] out):
        """out[j, :record] = the state record of table rows[j]."""
        cdef Py_ssize_t j
        cdef int i
        cdef game_t* g
        cdef uint8_t* rec
        for j in range(rows.shape[0]):
            i = <int>rows[j]
            rec = &out[j, 0]
            memset(rec, 0, _REC)
            memcpy(rec, &self.g[i], sizeof(game_t))
            g = <game_t*>rec
            g.R = NULL
            g.T = NULL
            g.t.walls = NULL
            g.t.dice = NULL
            g.t.out = NULL
            g.t.ev = NULL
            g.t.n_ev = 0
            g.t.cap_ev = 0
            save_book(self, i, <int32_t*>(rec + _BOOK))
            memcpy(rec + _OUT, self.t[i].out, 4 * N_OUT)

    def check_states(self, const uint8_t[:, ::1] data):
        """An int32 error code per record (0: plausible; STATE_ERRORS names the others)."""
        cdef Py_ssize_t j, n = data.shape[0]
        res = np.zeros(n, np.int32)
        cdef int32_t[::1] r = res
        cdef game_t g
        for j in range(n):
            memcpy(&g, &data[j, 0], sizeof(game_t))
            r[j] = _check_game(&g, <const int32_t*>(&data[j, 0] + _BOOK), &self.R)
        return res

    def load_states(self, const int64_t[::1] rows, const uint8_t[:, ::1] data, policies=None,
                    int stop_at_hand_end=-1):
        """Table rows[j] takes record data[j] (checked first: check_states, the Python layer).
        policies: (len(rows), 4) codes replacing the recorded ones, or None; stop_at_hand_end:
        0/1 replaces the recorded flag (-1 keeps it). The table's log restarts."""
        cdef Py_ssize_t j
        cdef int i, s
        cdef game_t* g
        cdef int32_t* ev
        cdef int cap
        cdef int[:, ::1] pol
        if policies is not None:
            pol = np.ascontiguousarray(policies, dtype=np.intc)
        for j in range(rows.shape[0]):
            i = <int>rows[j]
            g = &self.g[i]
            ev = g.t.ev
            cap = g.t.cap_ev
            memcpy(g, &data[j, 0], sizeof(game_t))
            g.R = &self.R
            g.T = self.R.T
            g.t.walls = NULL
            g.t.dice = NULL
            g.t.out = <int32_t*>cnp.PyArray_DATA(self._out) + i * N_OUT
            g.t.ev = ev
            g.t.cap_ev = cap
            g.t.n_ev = 0
            self._walls[i] = None
            if stop_at_hand_end >= 0:
                g.t.stop_at_hand_end = stop_at_hand_end
            if policies is not None:
                for s in range(4):
                    g.t.policy[s] = pol[j, s]
                    g.p[s].policy = pol[j, s]
            load_book(self, i, <const int32_t*>(&data[j, 0] + _BOOK))
            memcpy(g.t.out, &data[j, 0] + _OUT, 4 * N_OUT)

    def rollout(self, const int64_t[::1] first, const int[:, ::1] codes, bint until_hand, int32_t[:, ::1] res,
                int threads):
        """Play every table on (states.pxd rollout_one): first[i] answers table i's pending
        question (-1: none), codes[i] are the built-in policies answering the rest."""
        rollout_all(self, first, codes, until_hand, res, threads)


    # --------------------------------------------------------------------------------------
    # issue 28 (mjfast.botzone.decisions): hands played from scripts, every question answered
    # by the engine itself (no Python per question)

    def play_scripts(self, const uint8_t[:, ::1] walls, const int32_t[::1] quan, const int64_t[::1] starts,
                     const int64_t[::1] lengths,
                     const int8_t[::1] s_seat, const int16_t[::1] s_act, const uint8_t[::1] s_claim,
                     const int64_t[::1] episode, Py_ssize_t first, uint8_t[:, :, ::1] obs, float[:, ::1] scal,
                     uint8_t[:, ::1] mask, int16_t[::1] act, int8_t[::1] seat, int16_t[::1] hand_no,
                     uint64_t[::1] gid, int64_t[::1] ep_out, Py_ssize_t m, int32_t[:, ::1] result):
        """Play hands first.. on table 0 and write the decisions they show into rows m.. of the
        output arrays. Hand j: wall walls[j] (hand 4 quan[j] of a game of 4 quan[j] + 1 hands,
        dealt by seat 0, the hands before it skipped: they end at once with all scores 0), script
        starts[j]..starts[j] + lengths[j] (seat, action id, claim: an answer to a claim question). At a
        question the answer is the script's next action when the asked seat is the script's
        next seat (a claim question: only a scripted claim), else a pass. A row is written for a
        question with more than one legal action unless it is a pass the script does not show
        (the next scripted action claims the same discard). result[j] = (code, script position,
        asked seat, claim question, rows): code 0 played to the end with the whole script,
        1 an answer not legal or not the asked seat's, 2 the game ended before the script,
        3 the engine refused an answer. Rows of a hand that fails are dropped. Stops before a
        hand whose rows might not fit; returns (next hand, rows)."""
        cdef Py_ssize_t j, n = walls.shape[0], cap = act.shape[0], m0, lo, k, ptr
        cdef int n_tiles = self.R.n_tiles, q, r, single, nl, asked, claim_q, mine, take, a, sc, ss, sa, code
        cdef int pend = -1, pend_seat = -1, ctx
        cdef game_t* g = &self.g[0]
        cdef table_t* t = &g.t
        cdef uint8_t* wbuf = <uint8_t*>calloc(16 * 144, 1)
        cdef int32_t dbuf[32]
        cdef int pol[4]
        cdef uint8_t* mrow
        if wbuf == NULL:
            raise MemoryError("play_scripts: no memory for a wall buffer")
        if walls.shape[1] < n_tiles:
            free(wbuf)
            raise ValueError(f"walls of {walls.shape[1]} tiles for rules of {n_tiles}")
        for a in range(32):
            dbuf[a] = 2
        for a in range(4):
            pol[a] = POL_EXTERNAL
        j = first
        with nogil:
            while j < n:
                lo = starts[j]
                k = lengths[j]
                if cap - m < 4 * k + 8:
                    break
                q = quan[j] & 3
                m0 = m
                memcpy(wbuf + 4 * q * n_tiles, &walls[j, 0], n_tiles)
                t.stop_at_hand_end = 1
                t.walls = wbuf
                t.dice = dbuf
                start_game(g, 0, 0, 0, pol)
                t.hands_per_game = 4 * q + 1
                t.hand_no = 4 * q
                pend = -1
                ptr = 0
                code = -1
                asked = -1
                claim_q = 0
                while code < 0:
                    r = advance(g)
                    if r == ADV_HAND:
                        continue
                    if r == ADV_DONE:
                        code = 0 if ptr == k else 2
                        break
                    if r != ADV_DECIDE:
                        code = 3
                        break
                    if pend >= 0:
                        a = pend
                        pend = -1
                        if t.req.what == ASK_DISCARD and t.req.seat == pend_seat:
                            t.answer = a
                            t.has_answer = 1
                            continue
                    if m >= cap:                        # (more rows than the bound: the caller grows)
                        code = 4
                        break
                    mrow = &mask[m, 0]
                    nl = legal_mask(g, mrow, &single)
                    if ptr < k:
                        ss = s_seat[lo + ptr]
                        sa = s_act[lo + ptr]
                        sc = s_claim[lo + ptr]
                    else:
                        ss = -1
                        sa = A_PASS
                        sc = 0
                    asked = t.req.seat
                    claim_q = mrow[A_PASS]
                    mine = ss == asked
                    take = mine and (not claim_q or sc)
                    a = sa if take else A_PASS
                    if (not claim_q and not mine) or not mrow[a]:
                        code = 1
                        break
                    if nl > 1 and (take or not sc):
                        ctx = context_of(g)
                        encode(g, asked, ctx, &obs[m, 0, 0], &scal[m, 0], self.flags, self.n_planes, self.n_scalars)
                        act[m] = <int16_t>a
                        seat[m] = <int8_t>asked
                        hand_no[m] = <int16_t>t.hand_no
                        gid[m] = <uint64_t>episode[j]
                        ep_out[m] = episode[j]
                        m += 1
                    ptr += take
                    t.answer = answer_of(g, a, &pend)
                    t.has_answer = 1
                    pend_seat = asked
                t.walls = NULL
                t.dice = NULL
                if code == 4:
                    m = m0
                    break
                if code != 0:
                    m = m0
                result[j, 0] = code
                result[j, 1] = <int32_t>ptr
                result[j, 2] = asked
                result[j, 3] = claim_q
                result[j, 4] = <int32_t>(m - m0)
                j += 1
        free(wbuf)
        self.status[0] = ST_IDLE
        return j, m


# ------------------------------------------------------------------------------------------
# issue 28 (mjfast.botzone.decisions): Botzone hands laid out on mjfast's wall and turned into
# scripts, many at once (the compiled twin of botzone/_table.py Layout and _decisions.prepare;
# a hand it does not take the common way is left to them: status 1)

cdef enum:
    BZ_DRAW = 0
    BZ_BUHUA = 1
    BZ_PLAY = 2
    BZ_CHI = 3
    BZ_PENG = 4
    BZ_GANG = 5
    BZ_ANGANG = 6
    BZ_BUGANG = 7
    BZ_HU = 8
    BZ_FREE = -2
    BZ_MAX_SLOTS = 160

cdef int _BZ_FLOWER_ORDER[8]
_BZ_FLOWER_ORDER[:] = [3, 2, 1, 0, 7, 6, 5, 4]    # the bonus codes 34 + i by Botzone name, H8 first


cdef struct bz_lay_t:
    int n
    int front
    int back
    int pos[144]
    int n_slot[4]
    int slot_time[4][BZ_MAX_SLOTS]
    int slot_at[4][BZ_MAX_SLOTS]


cdef inline int bz_take(bz_lay_t* L, int from_back) noexcept nogil:
    if L.front > L.back:
        return -1
    if from_back:
        L.back -= 1
        return L.back + 1
    L.front += 1
    return L.front - 1


cdef inline int bz_put(bz_lay_t* L, int p, int time, int at, int t) noexcept nogil:
    if at < 0:
        return 1
    if t < 0:
        if L.n_slot[p] >= BZ_MAX_SLOTS:
            return 1
        L.slot_time[p][L.n_slot[p]] = time
        L.slot_at[p][L.n_slot[p]] = at
        L.n_slot[p] += 1
    else:
        L.pos[at] = t
    return 0


cdef int bz_hand(const int8_t* kind, const int8_t* player, const int8_t* code, int na, const int8_t* deals,
                 const int32_t* deal_len, int result, uint8_t* wall, int* n_tiles, int* dead, int8_t* s_seat,
                 int16_t* s_act, uint8_t* s_claim, int* n_script, int max_script, bz_lay_t* L) noexcept nogil:
    """One hand (actions kind/player/code, deals: 4 x deal_len[p] codes one after another);
    0: laid out (wall, n_tiles, dead wall, script), 1: left to the Python layout."""
    cdef int i, j, p, t, size, nf, npl, lead, first, flowers, n, k, at, w, last, m, prev, nw, c, sk
    cdef int lf[8]
    cdef int fl[16]
    cdef int pl[20]
    cdef int back_rest[4][14]
    cdef int n_back[4]
    cdef int from_back[4]
    cdef int left[4]
    cdef int pool[34]
    cdef int flowers_left[8]
    cdef int need[4]
    cdef int n_need
    cdef int want_time[4][BZ_MAX_SLOTS]
    cdef int want_kind[4][BZ_MAX_SLOTS]
    cdef int n_want[4]
    cdef int next_id[42]
    cdef int off
    for i in range(na):                        # (codes the Python layer could not read: its layout says why)
        if kind[i] < 0 or kind[i] > BZ_HU or player[i] < 0 or player[i] > 3 or code[i] < -1 or code[i] > 41:
            return 1
    off = 0
    for p in range(4):
        for j in range(deal_len[p]):
            if deals[off + j] < -1 or deals[off + j] > 41:
                return 1
        off += deal_len[p]
    # unsupported(): a penalty or unknown end, a win on the dealer's first draw, a draw at a kong
    if result != 1 and result != 2:
        return 1
    if na > 0 and kind[na - 1] == BZ_HU:
        for i in range(na - 1):
            if kind[i] != BZ_DRAW and kind[i] != BZ_BUHUA:
                break
        else:
            return 1
    if result == 2 and na > 0 and (kind[na - 1] == BZ_GANG or kind[na - 1] == BZ_ANGANG or kind[na - 1] == BZ_BUGANG):
        return 1
    flowers = 0
    off = 0
    for p in range(4):
        for j in range(deal_len[p]):
            if deals[off + j] >= 34:
                flowers = 1
        off += deal_len[p]
    for i in range(na):
        if kind[i] == BZ_BUHUA:
            flowers = 1
    n = 144 if flowers else 136
    n_tiles[0] = n
    L.n = n
    L.front = 53
    L.back = n - 1
    for i in range(n):
        L.pos[i] = BZ_FREE
    for p in range(4):
        L.n_slot[p] = 0
    # the deal
    i = 0
    nf = 0
    while i < na and kind[i] == BZ_BUHUA and player[i] == 0:
        if nf >= 8:
            return 1
        lf[nf] = code[i]
        nf += 1
        i += 1
    if i >= na or kind[i] != BZ_DRAW or player[i] != 0:
        return 1
    first = code[i]
    lead = i + 1
    off = 0
    for p in range(4):
        nf = 0
        npl = 0
        for j in range(deal_len[p]):
            t = deals[off + j]
            if t >= 34:
                if nf >= 8:
                    return 1
                fl[nf] = t
                nf += 1
            else:
                if npl >= 13:
                    return 1
                pl[npl] = t
                npl += 1
        off += deal_len[p]
        if npl != 13:
            return 1
        if p == 0:
            for j in range(lead - 1):
                fl[nf] = lf[j]
                nf += 1
            pl[npl] = first
            npl += 1
        size = 14 if p == 0 else 13
        if nf > size:
            return 1
        for j in range(size):
            t = fl[j] if j < nf else pl[j - nf]
            if bz_put(L, p, -1, (0 if p == 0 else 1 + 13 * p) + j, t):
                return 1
        n_back[p] = 0
        for j in range(size - nf, npl):
            back_rest[p][n_back[p]] = pl[j]
            n_back[p] += 1
    for p in range(4):
        for j in range(n_back[p]):
            if bz_put(L, p, -1, bz_take(L, 1), back_rest[p][j]):
                return 1
    # the draws
    for p in range(4):
        from_back[p] = 0
    for i in range(lead, na):
        k = kind[i]
        p = player[i]
        if k == BZ_DRAW or k == BZ_BUHUA:
            if bz_put(L, p, i, bz_take(L, from_back[p]), code[i]):
                return 1
            from_back[p] = k == BZ_BUHUA
        elif k == BZ_GANG or k == BZ_ANGANG or k == BZ_BUGANG:
            from_back[p] = 1
    # fill: the tiles placed, each player's needs in its unknown tiles, the rest
    for k in range(34):
        pool[k] = 4
    for j in range(8):
        flowers_left[j] = n == 144
    for at in range(n):
        t = L.pos[at]
        if t >= 34:
            if not flowers_left[t - 34]:
                return 1
            flowers_left[t - 34] = 0
        elif t >= 0:
            pool[t] -= 1
            if pool[t] < 0:
                return 1
    for p in range(4):
        n_want[p] = 0
    last = -1
    for i in range(na):
        k = kind[i]
        if k < BZ_PLAY or k > BZ_BUGANG:
            continue
        p = player[i]
        t = code[i]
        if k == BZ_PLAY or k == BZ_CHI or k == BZ_BUGANG or k == BZ_ANGANG:
            if t < 0 or t >= 34:
                return 1                       # (an unknown kong's tile: the Python layout picks one)
        n_need = 0
        if k == BZ_PLAY:
            need[0] = t
            n_need = 1
            last = t
        elif k == BZ_CHI:
            if last < 0 or t < 1 or t > 32:
                return 1
            if last == t - 1:
                need[0] = t
                need[1] = t + 1
            elif last == t:
                need[0] = t - 1
                need[1] = t + 1
            elif last == t + 1:
                need[0] = t - 1
                need[1] = t
            else:
                return 1
            n_need = 2
        elif k == BZ_PENG or k == BZ_GANG:
            if last < 0:
                return 1
            n_need = 2 if k == BZ_PENG else 3
            for j in range(n_need):
                need[j] = last
        elif k == BZ_BUGANG:
            need[0] = t
            n_need = 1
            last = t
        else:
            n_need = 4
            for j in range(4):
                need[j] = t
        if L.n_slot[p]:
            for j in range(n_need):
                if n_want[p] >= BZ_MAX_SLOTS:
                    return 1
                want_time[p][n_want[p]] = i
                want_kind[p][n_want[p]] = need[j]
                n_want[p] += 1
    for p in range(4):
        # the unknown tiles by (time, place)
        for j in range(1, L.n_slot[p]):
            w = L.slot_time[p][j]
            at = L.slot_at[p][j]
            m = j - 1
            while m >= 0 and (L.slot_time[p][m] > w or (L.slot_time[p][m] == w and L.slot_at[p][m] > at)):
                L.slot_time[p][m + 1] = L.slot_time[p][m]
                L.slot_at[p][m + 1] = L.slot_at[p][m]
                m -= 1
            L.slot_time[p][m + 1] = w
            L.slot_at[p][m + 1] = at
        if not L.n_slot[p]:
            continue
        for j in range(n_want[p]):
            if j >= L.n_slot[p] or L.slot_time[p][j] >= want_time[p][j]:
                return 1
            c = want_kind[p][j]
            L.pos[L.slot_at[p][j]] = c
            pool[c] -= 1
            if pool[c] < 0:
                return 1
    sk = 0                                     # the tiles nobody saw, lowest kind first
    for p in range(4):
        if not L.n_slot[p]:
            continue
        for j in range(n_want[p], L.n_slot[p]):
            while sk < 34 and pool[sk] == 0:
                sk += 1
            if sk >= 34:
                return 1
            L.pos[L.slot_at[p][j]] = sk
            pool[sk] -= 1
    nf = 0
    for j in range(8):
        if flowers_left[_BZ_FLOWER_ORDER[j]]:
            fl[nf] = 34 + _BZ_FLOWER_ORDER[j]
            nf += 1
    j = 0
    for at in range(n):
        if L.pos[at] == BZ_FREE:
            if j < nf:
                L.pos[at] = fl[j]
                j += 1
            else:
                while sk < 34 and pool[sk] == 0:
                    sk += 1
                if sk >= 34:
                    return 1
                L.pos[at] = sk
                pool[sk] -= 1
    if j < nf:
        return 1
    while sk < 34 and pool[sk] == 0:
        sk += 1
    if sk < 34:
        return 1
    for k in range(34):
        next_id[k] = 4 * k
    for k in range(8):
        next_id[34 + k] = 136 + k
    for at in range(n):
        t = L.pos[at]
        wall[at] = <uint8_t>next_id[t]
        next_id[t] += 1
    # the judge's wall ends with the hand (_judge._last_tile): then the dead wall is the rest
    dead[0] = 0
    if result == 2:
        dead[0] = n - L.front
    elif na > 0 and kind[na - 1] == BZ_HU:
        for p in range(4):
            left[p] = (36 if flowers else 34) - deal_len[p]
        for i in range(na):
            if kind[i] == BZ_DRAW or kind[i] == BZ_BUHUA:
                left[player[i]] -= 1
        w = player[na - 1]
        if na > 1:
            prev = na - 2
            if (kind[prev] == BZ_DRAW and player[prev] == w and left[(w + 1) & 3] == 0) or (
                    kind[prev] == BZ_PLAY and left[(player[prev] + 1) & 3] == 0):
                dead[0] = n - L.front
    # the script
    m = 0
    last = -1
    for i in range(na):
        k = kind[i]
        if k == BZ_DRAW or k == BZ_BUHUA:
            continue
        if m >= max_script:
            return 1
        p = player[i]
        t = code[i]
        s_seat[m] = <int8_t>p
        s_claim[m] = 0
        if k == BZ_PLAY:
            last = t
            s_act[m] = <int16_t>t
        elif k == BZ_CHI:
            if not (last >= 0 and last < 27 and t // 9 == last // 9 and (t - last <= 1 and last - t <= 1)
                    and t % 9 != 0 and t % 9 != 8):
                return 1
            s_act[m] = <int16_t>(A_CHOW_LOW + last - (t - 1))
            s_claim[m] = 1
        elif k == BZ_PENG or k == BZ_GANG:
            s_act[m] = A_PUNG if k == BZ_PENG else A_KONG
            s_claim[m] = 1
        elif k == BZ_ANGANG or k == BZ_BUGANG:
            s_act[m] = <int16_t>(A_OWN_KONG + t)
            if k == BZ_BUGANG:
                last = t
        elif k == BZ_HU:
            s_act[m] = A_WIN
            s_claim[m] = i > 0 and (kind[i - 1] == BZ_PLAY or kind[i - 1] == BZ_BUGANG) and player[i - 1] != p
        else:
            return 1
        m += 1
    n_script[0] = m
    return 0


def layout_hands(const int8_t[::1] kind, const int8_t[::1] player, const int8_t[::1] code,
                 const int64_t[::1] act_start, const int8_t[::1] deals, const int64_t[::1] deal_start,
                 const int32_t[:, ::1] deal_len, const int8_t[::1] result, uint8_t[:, ::1] walls,
                 int32_t[:, ::1] out, int8_t[::1] s_seat, int16_t[::1] s_act, uint8_t[::1] s_claim, int max_script):
        """Hand j (actions act_start[j]..act_start[j+1] as kind (Botzone ACTION_KINDS index),
        player, tile code (kind 0-33, bonus 34-41, -1 unknown); deals from deal_start[j], 4 x
        deal_len[j]; result 1 hu, 2 huang, 0 other) laid out: walls[j] its wall, out[j] = (status,
        n_tiles, dead wall, script length), its script at s_*[act_start[j]..]. Status 1: left to
        the Python layout (an unsupported or contradictory hand, a concealed kong of an unknown
        tile)."""
        cdef Py_ssize_t j, n = act_start.shape[0] - 1
        cdef int nt, dd, ns, st
        cdef bz_lay_t* L = <bz_lay_t*>calloc(1, sizeof(bz_lay_t))
        if L == NULL:
            raise MemoryError("layout_hands: no memory")
        with nogil:
            for j in range(n):
                nt = 0
                dd = 0
                ns = 0
                st = bz_hand(&kind[act_start[j]], &player[act_start[j]], &code[act_start[j]],
                             <int>(act_start[j + 1] - act_start[j]), &deals[deal_start[j]], &deal_len[j, 0], result[j],
                             &walls[j, 0], &nt, &dd, &s_seat[act_start[j]], &s_act[act_start[j]],
                             &s_claim[act_start[j]], &ns, max_script, L)
                out[j, 0] = st
                out[j, 1] = nt
                out[j, 2] = dd
                out[j, 3] = ns
        free(L)


# issue 27: the record layout of this family and its checks (states.pxd)
cdef Py_ssize_t _BOOK = sizeof(game_t)
cdef Py_ssize_t _OUT = _BOOK + 4 * BOOK_INTS
cdef Py_ssize_t _REC = (_OUT + 4 * N_OUT + 7) & ~7

STATE_ERRORS = {1: "the table bookkeeping (status, acting seat) is out of range",
                2: "the acting or pending seat is not 0-3", 3: "a seat's policy code is unknown",
                4: "the hand number, dealer or turn is out of range", 5: "the pending question is out of range",
                6: "the tile count differs from the rule set's", 7: "the phase is unknown",
                8: "the wall is not a permutation of the tile set", 9: "the wall's front, live end or back is out of range",
                10: "a concealed hand holds an impossible count", 11: "a seat's sets or discards are out of range"}
ROLLOUT_WIDTH = RO_WIDTH


def _layout(int unused):
    return {"game": sizeof(game_t), "slot": 0, "scratch": 0, "book": 4 * BOOK_INTS, "out": 4 * N_OUT,
            "record": _REC, "table": sizeof(table_t), "player": sizeof(player_t), "book_at": _BOOK, "out_at": _OUT}


cdef int _check_game(game_t* g, const int32_t* book, rules_t* R) noexcept:
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
    if g.t.phase < 0 or g.t.phase > PH_ROB:
        return 7
    if book[BOOK_STATUS] == ST_NEW:
        return 0
    if not wall_is_permutation(g.wall, g.n_tiles):
        return 8
    if g.front < 0 or g.back >= g.n_tiles or g.live_end > g.back or g.front > g.live_end + 1:
        return 9
    for s in range(4):
        c = 0
        for k in range(34):
            if g.p[s].hand[k] > 4:
                return 10
            c += g.p[s].hand[k]
        if c != g.p[s].n_hand or c > 14:
            return 10
        if g.p[s].n_melds < 0 or g.p[s].n_melds > MAX_MELDS or g.p[s].n_discards < 0 or g.p[s].n_discards > 64:
            return 11
    return 0
