# cython: language_level=3
"""Shared game-engine pieces (private): the `Table` type Python drives, the loop that runs
Python policies, the batch of games with Python policies, and the codes the Python layer reads
by name (policies, questions, advance results, events, common output columns).

The design (a resumable state machine per table, questions and answers) is described in
engine.pxd. A family's module (chinese_game.pyx, american_game.pyx) subclasses `Table` with its
game struct and implements `_start`, `_advance`, `_view`, `_hand_wall` and `_n_tiles`.
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

cnp.import_array()

# ------------------------------------------------------------------------------------------
# codes, by name (the only definitions: the Python layer and the tests read these)

POLICY_CODES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "defensive": POL_DEFENSIVE,
                "external": POL_EXTERNAL, "greedy_blind": POL_GREEDY_BLIND, "humanlike": POL_HUMANLIKE}
ADVANCE = {"done": ADV_DONE, "decide": ADV_DECIDE, "error": ADV_ERROR, "hand": ADV_HAND}
ASK = {"discard": ASK_DISCARD, "claim": ASK_CLAIM, "own_turn": ASK_OWN_TURN, "ready": ASK_READY,
       "pass": ASK_PASS, "second_charleston": ASK_SECOND, "courtesy_offer": ASK_COURTESY_OFFER,
       "courtesy": ASK_COURTESY}
EVENTS = {EV_HAND: "hand", EV_DEAL: "deal", EV_DRAW: "draw", EV_BONUS: "bonus", EV_REPLACE: "replacement",
          EV_DISCARD: "discard", EV_CHOW: "chow", EV_PUNG: "pung", EV_KONG: "kong",
          EV_CONCEALED_KONG: "concealed_kong", EV_ADDED_KONG: "added_kong", EV_READY: "ready",
          EV_WIN: "win", EV_EXHAUSTED: "exhaustive_draw", EV_SCORE: "score", EV_PASS: "pass",
          EV_RECEIVE: "receive", EV_BLIND: "blind_pass", EV_SECOND: "second_charleston", EV_CALL: "call",
          EV_EXCHANGE: "joker_exchange", EV_WALL_GAME: "wall_game", EV_DEAD: "dead",
          EV_COURTESY: "courtesy_offer", EV_FAN: "fan", EV_FALSE_WIN: "false_win"}
OUT_COMMON = {"score": OUT_SCORE, "wins": OUT_WINS, "self_drawn": OUT_SELF_DRAWN, "deal_ins": OUT_DEAL_INS,
              "hands": OUT_HANDS, "turns": OUT_TURNS, "draws": OUT_DRAWS}
HANDS_PER_STREAM = HANDS_STREAM
STATUS = {"decide": ST_DECIDE, "hand_end": ST_HAND_END, "game_end": ST_GAME_END, "error": ST_ERROR, "idle": ST_IDLE,
          "new": ST_NEW}


# ------------------------------------------------------------------------------------------
# the table Python drives

cdef class Table:
    """One table of a rule family's engine: start a game, advance it to the next question of an
    external seat, answer it, read the view of a seat, the events and the output columns.

    ``ILLEGAL`` (class attribute of the family) maps the family's illegal-action codes to
    messages."""

    ILLEGAL = {}

    def __cinit__(self):
        self.t = NULL
        self._events = None
        self._walls = None
        self._dice = None

    cdef int _advance(self) noexcept nogil:
        return ADV_ERROR

    cdef object _view(self, int seat):
        raise NotImplementedError

    cdef void _start(self, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept:
        pass

    cdef void _hand_wall(self, int h, uint8_t* wall, int32_t* dice) noexcept nogil:
        pass

    cdef int _n_tiles(self) noexcept:
        return 0

    cdef void _set_log(self, int capacity):
        """An event log of `capacity` events (0: none)."""
        if capacity > 0:
            self._events = np.zeros((capacity, 5), np.int32)
            self.t.ev = <int32_t*>cnp.PyArray_DATA(self._events)
            self.t.cap_ev = capacity
        else:
            self._events = None
            self.t.ev = NULL
            self.t.cap_ev = 0
        self.t.n_ev = 0

    def start(self, uint64_t game_index, uint64_t k0, uint64_t k1, policies, walls=None, dice=None):
        """Start game `game_index` of the run keyed (k0, k1) with four policy codes; scripted
        `walls` (hands x n_tiles ids, uint8) and `dice` (hands x 2, int32) replace the shuffles."""
        cdef int[::1] pol = np.ascontiguousarray(policies, dtype=np.intc)
        if pol.shape[0] != 4:
            raise ValueError("four policy codes, one per seat")
        if walls is not None:
            self._walls = np.ascontiguousarray(walls, dtype=np.uint8)
            self.t.walls = <const uint8_t*>cnp.PyArray_DATA(self._walls)
            self._dice = None if dice is None else np.ascontiguousarray(dice, dtype=np.int32)
            self.t.dice = NULL
            if dice is not None:    # (a conditional expression typed its temporary without const: gcc warned)
                self.t.dice = <const int32_t*>cnp.PyArray_DATA(self._dice)
        else:
            self._walls = self._dice = None
            self.t.walls = NULL
            self.t.dice = NULL
        self._start(game_index, k0, k1, &pol[0])

    def advance(self) -> int:
        """Run without the GIL to the next question of an external seat (ADVANCE['decide']), the
        end of the game ('done') or an illegal answer ('error')."""
        cdef int r
        with nogil:
            r = self._advance()
        return r

    @property
    def request(self) -> tuple:
        """(seat, what, tile, options) of the question the last advance stopped at."""
        cdef request_t* q = &self.t.req
        return q.seat, q.what, q.tile, [q.options[i] for i in range(q.n_options)]

    def apply(self, int answer):
        """The answer to the current question; the next advance resumes with it."""
        self.t.answer = answer
        self.t.has_answer = 1

    def view(self, int seat) -> dict:
        """What `seat` can see now (copies)."""
        return self._view(seat)

    @property
    def out(self):
        """The game's output columns (a copy)."""
        return np.asarray(<int32_t[:self.width]>self.t.out).copy()

    @property
    def turn(self) -> int:
        return self.t.turn

    @property
    def error(self) -> tuple:
        """(error, code, kind) of the stop (ERR_NONE = 0 when none)."""
        return self.t.error, self.t.err_code, self.t.err_kind

    def events(self):
        """The events logged so far, (m, 5) int32: type, hand, seat, a, b."""
        if self._events is None:
            return np.zeros((0, 5), np.int32)
        return self._events[: self.t.n_ev].copy()

    def hand_walls(self):
        """Every hand's wall (hands x n_tiles uint8) and dice (hands x 2 int32) of the current
        game: the scripted ones, or the shuffles of the game's streams."""
        cdef int h, n = self._n_tiles(), hands = self.t.hands_per_game
        walls = np.zeros((hands, n), np.uint8)
        dice = np.zeros((hands, 2), np.int32)
        cdef uint8_t[:, ::1] w = walls
        cdef int32_t[:, ::1] d = dice
        for h in range(hands):
            self._hand_wall(h, &w[h, 0], &d[h, 0])
        return walls, dice

    def run(self, ctx):
        """Play the started game to its end, asking `ctx` (the Python policies' bridge:
        ``ask(view, what, tile, options) -> int``, ``fail(exc)``, ``illegal(turn, message,
        kind)``) each question. Returns ADVANCE['done'] or ADVANCE['error'] (the exception is
        then in ctx)."""
        cdef int r
        cdef request_t* q = &self.t.req
        while True:
            with nogil:
                r = self._advance()
            if r == ADV_HAND:
                continue
            if r != ADV_DECIDE:
                break
            try:
                answer = ctx.ask(self._view(q.seat), q.what, q.tile, [q.options[i] for i in range(q.n_options)])
            except BaseException as exc:
                ctx.fail(exc)
                self.t.error = ERR_PYTHON
                return ADV_ERROR
            self.t.answer = answer
            self.t.has_answer = 1
        if r == ADV_ERROR and self.t.error == ERR_ILLEGAL:
            ctx.illegal(self.t.turn, self.ILLEGAL[self.t.err_code], self.t.err_kind)
        return r


def run_games(Table table, const uint64_t[::1] game_index, uint64_t k0, uint64_t k1,
              const int[:, ::1] policies, int32_t[:, ::1] out, ctx):
    """Play game game_index[i] with policies[i] on `table`, one after another (Python policies
    answer through ctx), into out[i]. Returns the index of the first game a policy error
    stopped, or -1."""
    cdef Py_ssize_t i, j
    for i in range(game_index.shape[0]):
        table.start(game_index[i], k0, k1, policies[i])
        r = table.run(ctx)
        for j in range(table.width):
            out[i, j] = table.t.out[j]
        if r == ADV_ERROR:
            return i
    return -1


def copy_rows(const uint8_t[:, ::1] src, rows, uint8_t[:, ::1] dst):
    """dst[j] = src[rows[j]] for every j (rows: int64 indices, or a slice = all rows in order),
    with memcpy and without the GIL (numpy's take with out= is several times slower)."""
    cdef Py_ssize_t j, k, width = src.shape[1]
    cdef const int64_t[::1] r
    if isinstance(rows, slice):
        k = src.shape[0]
        if k == 0:
            return
        with nogil:
            memcpy(&dst[0, 0], &src[0, 0], k * width)
        return
    r = rows
    k = r.shape[0]
    with nogil:
        for j in range(k):
            memcpy(&dst[j, 0], &src[r[j], 0], width)



# ------------------------------------------------------------------------------------------
# batched tables for environments

cdef class Tables:
    """N tables of one family's engine for environments (the families' subclasses:
    chinese_env.ChineseVec, american_env.AmericanVec). Actions are the family's encoding's ids;
    see the subclass for what its hooks do."""

    def __cinit__(self, *args, **kwargs):
        self.t = NULL
        self.status = self.acting = self.ctx = self.pend = self.pend_seat = self.teacher = NULL
        self.n = 0
        self._logs = {}

    def __dealloc__(self):
        free(self.t)
        free(self.status)
        free(self.acting)
        free(self.ctx)
        free(self.pend)
        free(self.pend_seat)
        free(self.teacher)

    cdef void _alloc(self, int n, int width, int n_actions, int kinds, bint skip_forced, bint derived,
                     bint privileged, int planes, int derived_planes, int privileged_planes, int scalars) except *:
        """The per-table arrays for n tables and the observation's size (the encoding's planes
        and scalars, with the derived planes and scalar, the privileged planes); the subclass
        then links each game's header."""
        cdef int i, m = max(n, 1)
        self.n = n
        self.n_actions = n_actions
        self.kinds = kinds
        self.skip_forced = skip_forced
        self.flags = (F_DERIVED if derived else 0) | (F_PRIVILEGED if privileged else 0)
        self.n_planes = planes + (derived_planes if derived else 0) + (privileged_planes if privileged else 0)
        self.n_scalars = scalars + (1 if derived else 0)
        self.t = <table_t**>calloc(m, sizeof(table_t*))
        self.status = <int*>calloc(m, sizeof(int))
        self.acting = <int*>calloc(m, sizeof(int))
        self.ctx = <int*>calloc(m, sizeof(int))
        self.pend = <int*>calloc(m, sizeof(int))
        self.pend_seat = <int*>calloc(m, sizeof(int))
        if not (self.t and self.status and self.acting and self.ctx and self.pend and self.pend_seat):
            raise MemoryError(f"{n} tables: no memory for their {m * (sizeof(table_t*) + 5 * sizeof(int)):,} bytes of "
                              "step state")
        self._out = np.zeros((m, width), np.int32)
        self._walls = [None] * m
        for i in range(n):
            self.status[i] = ST_IDLE
            self.pend[i] = -1
            self.ctx[i] = CTX_NONE

    cdef void _link(self, int i, table_t* t, int32_t* out) noexcept:
        self.t[i] = t
        t.out = out
        t.collect_claims = 1

    # the family's hooks (the subclass overrides every one)
    cdef void _start_game(self, int i, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil:
        pass

    cdef int _advance(self, int i) noexcept nogil:
        return ADV_ERROR

    cdef void _begin(self, int i) noexcept nogil:
        pass

    cdef int _legal(self, int i, uint8_t* m, int* single) noexcept nogil:
        return 0

    cdef int _take(self, int i, int a) noexcept nogil:
        return 1

    cdef int _expert(self, int i, int policy) noexcept nogil:
        return -1

    cdef int _context(self, int i) noexcept nogil:
        return CTX_NONE

    cdef void _encode(self, int i, int seat, int ctx, uint8_t* o, float* sc) noexcept nogil:
        pass

    cdef object _view(self, int i, int seat):
        raise NotImplementedError

    def start(self, const int64_t[::1] rows, const uint64_t[::1] game_index, uint64_t k0, uint64_t k1,
              const int[:, ::1] policies, bint stop_at_hand_end, walls=None, dice=None):
        """Start game game_index[j] (run keyed k0, k1) on table rows[j] with policies[j] (four
        codes); with walls (hands x n_tiles ids) and dice (hands x 2; unused by families without
        dice), one scripted game on rows[0]."""
        cdef Py_ssize_t j, i
        cdef table_t* t
        for j in range(rows.shape[0]):
            i = rows[j]
            t = self.t[i]
            t.stop_at_hand_end = stop_at_hand_end
            t.walls = NULL
            t.dice = NULL
            self._walls[i] = None
            if walls is not None and j == 0:
                w = np.ascontiguousarray(walls, dtype=np.uint8)
                d = np.ascontiguousarray(np.zeros((w.shape[0], 2)) if dice is None else dice, dtype=np.int32)
                self._walls[i] = (w, d)
                t.walls = <const uint8_t*>cnp.PyArray_DATA(w)
                t.dice = <const int32_t*>cnp.PyArray_DATA(d)
            self._start_game(i, game_index[j], k0, k1, &policies[j, 0])
            if t.walls != NULL:
                t.hands_per_game = self._walls[i][0].shape[0]
            self.status[i] = ST_NEW
            self.pend[i] = -1
            self.ctx[i] = CTX_NONE

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
        self.teacher = <int*>calloc(max(self.n, 1) * 4, sizeof(int))
        if self.teacher == NULL:
            raise MemoryError(f"{self.n} tables: no memory for their {max(self.n, 1) * 4 * sizeof(int):,} bytes of "
                              "teacher codes")
        for i in range(self.n * 4):
            self.teacher[i] = c[i // 4, i % 4]

    cdef void _step_one(self, int i, int64_t a, uint8_t* o, float* sc, uint8_t* m, int8_t* seat, float* rew,
                        uint8_t* status) noexcept nogil:
        """Answer table i's question with action a (-1: none), play to the next question of an
        external seat (answering forced ones) or a terminal state, and write the outputs."""
        cdef table_t* t = self.t[i]
        cdef int r, s, n, single, p, answered = 1
        cdef int32_t before[4]
        for s in range(4):
            before[s] = t.score[s]
        if a >= 0:
            answered = self._take(i, <int>a)
        while True:
            r = self._advance(i) if answered else ADV_DECIDE     # (not answered: a step of the same question)
            answered = 1
            if r == ADV_DECIDE:
                if self.pend[i] >= 0:
                    p = self.pend[i]
                    self.pend[i] = -1
                    if t.req.what == ASK_DISCARD and t.req.seat == self.pend_seat[i]:
                        t.answer = p
                        t.has_answer = 1
                        continue
                self._begin(i)
                n = self._legal(i, m, &single)
                if n == 1 and self.skip_forced:
                    if self.teacher != NULL:
                        single = self._expert(i, self.teacher[4 * i + t.req.seat])
                    answered = self._take(i, single)
                    continue
                self.acting[i] = t.req.seat
                self.ctx[i] = self._context(i)
                self.status[i] = ST_DECIDE
                self._encode(i, self.acting[i], self.ctx[i], o, sc)
                break
            memset(m, 0, self.n_actions)
            self.ctx[i] = CTX_NONE
            if r == ADV_HAND:
                self.status[i] = ST_HAND_END
            elif r == ADV_DONE:
                self.status[i] = ST_GAME_END
            else:
                self.status[i] = ST_ERROR
            self._encode(i, self.acting[i], CTX_NONE, o, sc)
            break
        seat[0] = <int8_t>self.acting[i]
        status[0] = <uint8_t>self.status[i]
        for s in range(4):
            rew[s] = <float>(t.score[s] - before[s])

    def step(self, const int64_t[::1] actions, uint8_t[:, :, ::1] obs, float[:, ::1] scalars, uint8_t[:, ::1] mask,
             int8_t[::1] seat, float[:, ::1] rewards, uint8_t[::1] status, int threads):
        """Answer each table's question with actions[i] (a legal id; -1: no answer, run on from
        where the table is; -2: leave the table alone, its reward row zeroed), play on to the
        next question of an external seat or the end of a hand (stop_at_hand_end) or game, and
        write the acting seat's observation and mask, the seat, the score changes and the
        status (STATUS)."""
        cdef Py_ssize_t i
        cdef int n = self.n
        with nogil:
            for i in prange(n, schedule="dynamic", chunksize=32, num_threads=max(threads, 1)):
                if actions[i] == -2 or self.status[i] == ST_IDLE:
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
        policy does (random choices)."""
        cdef Py_ssize_t i
        cdef int n = self.n
        with nogil:
            for i in prange(n, schedule="dynamic", chunksize=32, num_threads=max(threads, 1)):
                if self.status[i] != ST_DECIDE:
                    out[i] = -1
                else:
                    out[i] = self._expert(<int>i, codes[i, self.t[i].req.seat])

    def observe(self, int i, int seat, uint8_t[:, ::1] obs, float[::1] scalars):
        """Table i's observation of `seat` now (the decision context only for the acting seat)."""
        cdef int ctx = self.ctx[i] if (self.status[i] == ST_DECIDE and self.acting[i] == seat) else CTX_NONE
        self._encode(i, seat, ctx, &obs[0, 0], &scalars[0])

    def view(self, int i, int seat):
        """What `seat` of table i sees now, as the dict behind the family's view (SeatView,
        AmericanView)."""
        return self._view(i, seat)

    def context(self, int i):
        """The decision context of table i's pending question (the family's CONTEXTS index;
        -1: none)."""
        return self.ctx[i] if self.status[i] == ST_DECIDE else CTX_NONE

    def request(self, int i):
        """(seat, what, tile, options) of table i's pending question."""
        cdef request_t* q = &self.t[i].req
        return q.seat, q.what, q.tile, [q.options[j] for j in range(q.n_options)]

    def set_log(self, int i, int capacity):
        """Table i logs its events (up to `capacity`; 0: no log). The log restarts with each game."""
        if capacity > 0:
            ev = np.zeros((capacity, 5), np.int32)
            self._logs[i] = ev
            self.t[i].ev = <int32_t*>cnp.PyArray_DATA(ev)
        else:
            self._logs.pop(i, None)
            self.t[i].ev = NULL
        self.t[i].cap_ev = capacity
        self.t[i].n_ev = 0

    def events(self, int i):
        """(m, 5) int32: table i's logged events of its current game."""
        if i not in self._logs:
            return np.zeros((0, 5), np.int32)
        return self._logs[i][:self.t[i].n_ev].copy()

    def n_events(self, int i):
        return self.t[i].n_ev

    def game_index(self, int i):
        return self.t[i].game_index

    def hand_numbers(self, int32_t[::1] out):
        """out[i] = table i's hand number in its game."""
        cdef int i
        for i in range(self.n):
            out[i] = self.t[i].hand_no

    @property
    def out(self):
        """(n, width) int32: each table's game counters (final when its game has ended)."""
        return self._out[:self.n]

    def scores(self):
        """(n, 4) int32: the running scores."""
        return np.array([[self.t[i].score[s] for s in range(4)] for i in range(self.n)], np.int32).reshape(self.n, 4)
