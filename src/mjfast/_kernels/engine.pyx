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
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t
from libc.string cimport memcpy

cnp.import_array()

# ------------------------------------------------------------------------------------------
# codes, by name (the only definitions: the Python layer and the tests read these)

POLICY_CODES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "defensive": POL_DEFENSIVE,
                "external": POL_EXTERNAL}
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
          EV_COURTESY: "courtesy_offer"}
OUT_COMMON = {"score": OUT_SCORE, "wins": OUT_WINS, "self_drawn": OUT_SELF_DRAWN, "deal_ins": OUT_DEAL_INS,
              "hands": OUT_HANDS, "turns": OUT_TURNS, "draws": OUT_DRAWS}
HANDS_PER_STREAM = HANDS_STREAM


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
            self.t.dice = NULL if dice is None else <const int32_t*>cnp.PyArray_DATA(self._dice)
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
