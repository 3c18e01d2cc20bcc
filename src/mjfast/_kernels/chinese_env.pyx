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
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset, memcpy

from mjfast._kernels.engine cimport (
    table_t, request_t, ADV_DONE, ADV_DECIDE, ADV_ERROR, ADV_HAND, ASK_DISCARD, ASK_CLAIM, ASK_OWN_TURN, ASK_READY,
    POL_RANDOM, POL_GREEDY, POL_DEFENSIVE, POL_EXTERNAL, ERR_NONE,
)
from mjfast._kernels.bits cimport mj_thermo34
from mjfast._kernels.chinese_game cimport (
    game_t, rules_t, player_t, seat_view, advance, start_game, init_game, make_rules, builtin_answer, greedy_scores,
    complete, shanten_of, live_left, N_OUT, M_CHOW, M_PUNG, M_KONG_EXPOSED, M_KONG_CONCEALED, M_KONG_ADDED,
    MODE_OWN, C_NONE, C_WIN, C_KONG, C_PUNG,
)

cnp.import_array()

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
    CTX_NONE = -1
    CTX_OWN = 0
    CTX_AFTER_CLAIM = 1
    CTX_CLAIM = 2
    CTX_READY = 3

cdef enum:
    # a table's status after a step
    ST_DECIDE = 0          # the observation and mask are those of the acting seat
    ST_HAND_END = 1        # a hand ended (stop_at_hand_end); the observation is the last actor's
    ST_GAME_END = 2        # the game ended
    ST_ERROR = 3           # the engine refused an answer (a bug: actions are checked first)
    ST_IDLE = 4            # not started
    ST_NEW = 5             # started, not stepped yet (no question, no observation)

cdef enum:
    F_DERIVED = 1
    F_PRIVILEGED = 2

ACTIONS = N_ACTIONS
PLANES = N_PLANES
SCALARS = N_SCALARS
DERIVED_PLANES = N_DERIVED
PRIVILEGED_PLANES = N_PRIVILEGED
STATUS = {"decide": ST_DECIDE, "hand_end": ST_HAND_END, "game_end": ST_GAME_END, "error": ST_ERROR, "idle": ST_IDLE,
          "new": ST_NEW}
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


ctypedef struct slot_t:
    int seat           # the acting seat (the observer of a terminal observation: the last actor)
    int ctx
    int pend           # the discard to answer after an own-turn "go on" (-1: none)
    int status


cdef class ChineseVec:
    """N tables of the Chinese engine for environments: ``ChineseVec(rules, n, skip_forced,
    derived, privileged)`` with the kernel rules dict."""

    cdef rules_t R
    cdef game_t* g
    cdef slot_t* slot
    cdef int* teacher          # n x 4 built-in policy codes answering forced questions, or NULL
    cdef readonly int n
    cdef readonly int n_planes
    cdef readonly int n_scalars
    cdef int flags
    cdef int skip_forced
    cdef object _out           # numpy int32 (n, N_OUT): each table's game counters
    cdef object _walls         # scripted walls and dice per row (kept alive)
    cdef dict _logs            # event-log arrays of the rows that log

    def __cinit__(self, dict rules, int n, bint skip_forced=True, bint derived=False, bint privileged=False):
        cdef int i
        self.R = make_rules(rules)
        self.n = n
        self.g = <game_t*>calloc(max(n, 1), sizeof(game_t))
        self.slot = <slot_t*>calloc(max(n, 1), sizeof(slot_t))
        self.teacher = NULL
        if self.g == NULL or self.slot == NULL:
            raise MemoryError()
        self.flags = (F_DERIVED if derived else 0) | (F_PRIVILEGED if privileged else 0)
        self.n_planes = N_PLANES + (N_DERIVED if derived else 0) + (N_PRIVILEGED if privileged else 0)
        self.n_scalars = N_SCALARS + (1 if derived else 0)
        self.skip_forced = skip_forced
        self._out = np.zeros((max(n, 1), N_OUT), np.int32)
        self._walls = [None] * n
        self._logs = {}
        for i in range(n):
            init_game(&self.g[i], &self.R)
            self.g[i].t.collect_claims = 1
            self.g[i].t.out = <int32_t*>cnp.PyArray_DATA(self._out) + i * N_OUT
            self.slot[i].status = ST_IDLE
            self.slot[i].seat = 0
            self.slot[i].pend = -1

    def __dealloc__(self):
        free(self.g)
        free(self.slot)
        free(self.teacher)

    def start(self, const int64_t[::1] rows, const uint64_t[::1] game_index, uint64_t k0, uint64_t k1,
              const int[:, ::1] policies, bint stop_at_hand_end, walls=None, dice=None):
        """Start game game_index[j] (run keyed k0, k1) on table rows[j] with policies[j] (four
        codes); with walls (hands x n_tiles ids) and dice (hands x 2), one scripted game on rows[0]."""
        cdef Py_ssize_t j, i
        cdef game_t* g
        for j in range(rows.shape[0]):
            i = rows[j]
            g = &self.g[i]
            g.t.stop_at_hand_end = stop_at_hand_end
            g.t.walls = NULL
            g.t.dice = NULL
            self._walls[i] = None
            if walls is not None and j == 0:
                w = np.ascontiguousarray(walls, dtype=np.uint8)
                d = np.ascontiguousarray(dice, dtype=np.int32)
                self._walls[i] = (w, d)
                g.t.walls = <const uint8_t*>cnp.PyArray_DATA(w)
                g.t.dice = <const int32_t*>cnp.PyArray_DATA(d)
            start_game(g, game_index[j], k0, k1, &policies[j, 0])
            if g.t.walls != NULL:
                g.t.hands_per_game = self._walls[i][0].shape[0]
            self.slot[i].status = ST_NEW
            self.slot[i].pend = -1

    def set_teacher(self, codes):
        """Built-in policy codes (n x 4, or None) that answer the forced questions the step
        skips, so that they draw from the policies' stream as the built-in policy does."""
        cdef int[:, ::1] c
        cdef int i
        free(self.teacher)
        self.teacher = NULL
        if codes is None:
            return
        c = np.ascontiguousarray(codes, dtype=np.intc)
        self.teacher = <int*>calloc(self.n * 4, sizeof(int))
        if self.teacher == NULL:
            raise MemoryError()
        for i in range(self.n * 4):
            self.teacher[i] = c[i // 4, i % 4]

    cdef void _step_one(self, int i, int64_t a, uint8_t* o, float* sc, uint8_t* m, int8_t* seat,
                        float* rew, uint8_t* status) noexcept nogil:
        cdef game_t* g = &self.g[i]
        cdef slot_t* sl = &self.slot[i]
        cdef int r, s, n, single, pend, ans, then
        cdef int32_t before[4]
        for s in range(4):
            before[s] = g.t.score[s]
        if a >= 0:
            ans = answer_of(g, <int>a, &sl.pend)
            g.t.answer = ans
            g.t.has_answer = 1
        while True:
            r = advance(g)
            if r == ADV_DECIDE:
                if sl.pend >= 0:
                    pend = sl.pend
                    sl.pend = -1
                    if g.t.req.what == ASK_DISCARD and g.t.req.seat == g.cur:
                        g.t.answer = pend
                        g.t.has_answer = 1
                        continue
                n = legal_mask(g, m, &single)
                if n == 1 and self.skip_forced:
                    if self.teacher != NULL:
                        ans = builtin_answer(g, self.teacher[4 * i + g.t.req.seat], &then)
                        single = action_of(g, ans, then)
                    g.t.answer = answer_of(g, single, &sl.pend)
                    g.t.has_answer = 1
                    continue
                sl.seat = g.t.req.seat
                sl.ctx = context_of(g)
                sl.status = ST_DECIDE
                encode(g, sl.seat, sl.ctx, o, sc, self.flags, self.n_planes, self.n_scalars)
                break
            memset(m, 0, N_ACTIONS)
            sl.ctx = CTX_NONE
            if r == ADV_HAND:
                sl.status = ST_HAND_END
            elif r == ADV_DONE:
                sl.status = ST_GAME_END
            else:
                sl.status = ST_ERROR
            encode(g, sl.seat, CTX_NONE, o, sc, self.flags, self.n_planes, self.n_scalars)
            break
        seat[0] = <int8_t>sl.seat
        status[0] = <uint8_t>sl.status
        for s in range(4):
            rew[s] = <float>(g.t.score[s] - before[s])

    def step(self, const int64_t[::1] actions, uint8_t[:, :, ::1] obs, float[:, ::1] scalars, uint8_t[:, ::1] mask,
             int8_t[::1] seat, float[:, ::1] rewards, uint8_t[::1] status, int threads):
        """Answer each table's question with actions[i] (a legal id; -1: no answer, run on from
        where the table is; -2: leave the table alone, its reward row zeroed), play on to the
        next question of an external seat or the end of a hand (stop_at_hand_end) or game, and
        write the acting seat's observation and mask, the seat, the score changes and the
        status (STATUS)."""
        cdef Py_ssize_t i
        cdef int n = self.n
        if threads < 1:
            threads = 1
        with nogil:
            for i in prange(n, schedule="dynamic", chunksize=32, num_threads=threads):
                if actions[i] == -2 or self.slot[i].status == ST_IDLE:
                    rewards[i, 0] = 0
                    rewards[i, 1] = 0
                    rewards[i, 2] = 0
                    rewards[i, 3] = 0
                    continue
                self._step_one(<int>i, actions[i], &obs[i, 0, 0], &scalars[i, 0], &mask[i, 0], &seat[i],
                               &rewards[i, 0], &status[i])

    def expert(self, const int[:, ::1] codes, int64_t[::1] out, int threads):
        """out[i] = the action built-in policy codes[i, seat] would take at table i's pending
        question (-1 for tables not deciding). Draws from the table's policies' stream as that
        policy does (random discards)."""
        cdef Py_ssize_t i
        cdef int n = self.n, ans, then
        cdef game_t* g
        with nogil:
            for i in prange(n, schedule="dynamic", chunksize=32, num_threads=max(threads, 1)):
                if self.slot[i].status != ST_DECIDE:
                    out[i] = -1
                    continue
                g = &self.g[i]
                then = -1                  # (assigned in the loop: private to the thread)
                ans = builtin_answer(g, codes[i, g.t.req.seat], &then)
                out[i] = action_of(g, ans, then)

    def observe(self, int i, int seat, uint8_t[:, ::1] obs, float[::1] scalars):
        """Table i's observation of `seat` now (the decision context only for the acting seat)."""
        cdef int ctx = self.slot[i].ctx if (self.slot[i].status == ST_DECIDE and self.slot[i].seat == seat) else CTX_NONE
        encode(&self.g[i], seat, ctx, &obs[0, 0], &scalars[0], self.flags, self.n_planes, self.n_scalars)

    def set_log(self, int i, int capacity):
        """Table i logs its events (up to `capacity`; 0: no log). The log restarts with each game."""
        if capacity > 0:
            ev = np.zeros((capacity, 5), np.int32)
            self._logs[i] = ev
            self.g[i].t.ev = <int32_t*>cnp.PyArray_DATA(ev)
        else:
            self._logs.pop(i, None)
            self.g[i].t.ev = NULL
        self.g[i].t.cap_ev = capacity
        self.g[i].t.n_ev = 0

    def events(self, int i):
        """(m, 5) int32: table i's logged events of its current game."""
        if i not in self._logs:
            return np.zeros((0, 5), np.int32)
        return self._logs[i][:self.g[i].t.n_ev].copy()

    def n_events(self, int i):
        return self.g[i].t.n_ev

    def view(self, int i, int seat):
        """What `seat` of table i sees now, as the dict behind mjfast.SeatView."""
        return seat_view(&self.g[i], seat)

    def context(self, int i):
        """The decision context of table i's pending question (CONTEXTS index; -1: none)."""
        return self.slot[i].ctx if self.slot[i].status == ST_DECIDE else -1

    def request(self, int i):
        """(seat, what, tile, options) of table i's pending question."""
        cdef request_t* q = &self.g[i].t.req
        return q.seat, q.what, q.tile, [q.options[j] for j in range(q.n_options)]

    def game_index(self, int i):
        return self.g[i].t.game_index

    def hand_numbers(self, int32_t[::1] out):
        """out[i] = table i's hand number in its game."""
        cdef int i
        for i in range(self.n):
            out[i] = self.g[i].t.hand_no

    @property
    def out(self):
        """(n, N_OUT) int32: each table's game counters (final when its game has ended)."""
        return self._out[:self.n]

    def scores(self):
        """(n, 4) int32: the running scores."""
        return np.array([[self.g[i].t.score[s] for s in range(4)] for i in range(self.n)], np.int32).reshape(self.n, 4)
