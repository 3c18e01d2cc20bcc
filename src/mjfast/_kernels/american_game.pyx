# cython: language_level=3
"""The American family's game engine (beginner hand): Charleston, play, calls, joker exchange
(private; the Python front is mjfast.game, ``mjfast.simulate(..., rules="american")``).

A game is ``hands_per_game`` hands; hand ``h`` of game ``g`` shuffles its whole set (144 tiles
+ jokers, physical ids: 0-135 standard, 136-143 flowers, 144.. jokers) with the stream
``(k0, k1, g * 64 + h)``; built-in policies draw from a second stream of the game
(key k0 ^ POLICY_SALT), so a game is a pure function of (seed, game index, policies).

The game is a resumable state machine (engine.pxd): `advance` plays until a seat that is not a
built-in policy must decide, and resumes after `apply`. Its position is `t.phase` and the
fields of amgame_t below `exp_jokers`; a phase asks its question before it changes anything,
or keeps what it did in those fields.

Kinds here: 0-33 standard, 34 = flower (the 8 flowers are one kind), 35 = joker.
The rules as played are documented in mjfast/game/american.py (module docstring), docs/rules.md
and the README ("American play").

Layout (one C module, so the nogil hot paths stay inlined across the parts):
- american_game.pxd: the table state (amgame_t, amplayer_t, amrules_t) and the phase and output codes;
- american_card_policy.pxi: the card-play policy (distances to a card's lines);
- american_policy.pxi: the built-in policies of the beginner hand and their answers;
- american_rules.pxi: the rules of play (what a seat sees, the Charleston, one hand, the phases);
- this file: the shared helpers and the driver (batch entry points, the Table type).
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from mjfast._kernels.rng cimport rng_t, rng_seed_stream, rng_bounded16
from mjfast._kernels.engine cimport (
    table_t, Table, shuffle_ids, log_event, ask, illegal, start_table, run_batch, SUSPEND,
    POL_RANDOM, POL_GREEDY, POL_EXTERNAL, ADV_DONE, ADV_DECIDE, ADV_ERROR, ADV_HAND, HANDS_STREAM,
    ASK_DISCARD, ASK_CLAIM, ASK_OWN_TURN, ASK_PASS, ASK_SECOND, ASK_COURTESY_OFFER, ASK_COURTESY,
    EV_HAND, EV_DEAL, EV_PASS, EV_RECEIVE, EV_BLIND, EV_SECOND, EV_DRAW, EV_DISCARD, EV_CALL,
    EV_EXCHANGE, EV_WIN, EV_WALL_GAME, EV_DEAD, EV_SCORE, EV_COURTESY,
    OUT_SCORE, OUT_WINS, OUT_SELF_DRAWN, OUT_DEAL_INS, OUT_HANDS, OUT_TURNS, OUT_DRAWS, OUT_FAMILY,
)
from mjfast._kernels.hand cimport imin
from mjfast._kernels.american cimport american_distance
from mjfast._kernels.american_play cimport am_dist_hist, am_hist, am_top, am_overlap
from libc.stdint cimport int8_t, int16_t
from mjfast._kernels.card cimport mj_card_eval, mj_card_delta, mj_card_dv, mj_card_level
from libc.stdlib cimport malloc, free

cnp.import_array()

OUT_WIDTH = N_OUT
OUT_COLUMNS = {"jokerless": OUT_JOKERLESS, "dead": OUT_DEAD, "calls": OUT_CALLS, "exchanges": OUT_EXCHANGES,
               "second_charleston": OUT_SECOND, "courtesy_tiles": OUT_COURTESY, "distance_before": DIST_BEFORE,
               "distance_after": DIST_AFTER}


cdef inline void log_ev(amgame_t* g, int typ, int seat, int a, int b) noexcept nogil:
    log_event(&g.t, typ, seat, a, b)


cdef inline int next_live(amgame_t* g, int s) noexcept nogil:
    cdef int i, t
    for i in range(1, 5):
        t = (s + i) & 3
        if not g.p[t].dead:
            return t
    return -1


# the built-in policies, then the rules of play (textual includes: one C module)
include "american_card_policy.pxi"
include "american_policy.pxi"
include "american_rules.pxi"


# ------------------------------------------------------------------------------------------
# batch kernels

cdef void init_game(amgame_t* g, amrules_t* R) noexcept nogil:
    cdef int s
    for s in range(4):
        g.py_quiet_own[s] = 0
    g.R = R
    g.n_tiles = R.n_tiles
    g.t.ev = NULL
    g.t.n_ev = 0
    g.t.cap_ev = 0
    g.t.walls = NULL
    g.t.dice = NULL
    g.t.collect_claims = 0
    g.t.stop_at_hand_end = 0
    g.vs = NULL
    g.pick_d = -1
    for s in range(4):
        memset(g.p[s].h, 0, HROW)
        g.p[s].keep = R.keep


cdef int run_one(const void* rules, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies,
                 int32_t* out) noexcept nogil:
    """A whole game of built-in policies (run_batch's run_fn)."""
    cdef amgame_t g
    cdef int r
    init_game(&g, <amrules_t*>rules)
    g.t.out = out
    if g.R.c_lines:
        g.vs = <int16_t*>malloc(scratch_bytes(g.R))
        if g.vs == NULL:
            return ADV_ERROR
        scratch_parts(&g)
    start_game(&g, game_index, k0, k1, policies)
    r = advance(&g)
    free(g.vs)
    g.vs = NULL
    return r


cdef inline size_t scratch_bytes(const amrules_t* R) noexcept nogil:
    return sizeof(int16_t) * (2 * R.c_nvar + 5 * R.c_lines + 8) + 13 * <size_t>R.c_nvar + 64


cdef inline void scratch_parts(amgame_t* g) noexcept nogil:
    """Point the cache arrays into the scratch block at g.vs."""
    cdef uint8_t* b = <uint8_t*>(g.vs + 2 * g.R.c_nvar + 5 * g.R.c_lines + 8)
    cdef int V = g.R.c_nvar, s
    g.c_sr = b
    g.c_sf = b + 4 * V
    g.c_dv = b + 8 * V
    g.c_near = <int32_t*>(b + 9 * V + (-(9 * V) & 3))       # 4-byte aligned
    for s in range(4):
        g.c_snap_exp[s] = -1


cdef size_t card_scratch_bytes(const amrules_t* R) noexcept nogil:
    """Bytes of the card scratch a game under R needs (0 without a card)."""
    return scratch_bytes(R) if R.c_lines else 0


cdef int card_scratch_alloc(amgame_t* g) noexcept nogil:
    """Give g (init_game done) the card scratch its rules need, as run_one and AmericanTable
    do: 0, or -1 when out of memory. The owner frees g.vs."""
    if g.R.c_lines == 0:
        return 0
    g.vs = <int16_t*>malloc(scratch_bytes(g.R))
    if g.vs == NULL:
        return -1
    scratch_parts(g)
    return 0


cdef int game_dist(amgame_t* g, amplayer_t* p) noexcept nogil:
    """gdist for other kernels: the distance to the card's lines with a card, else to the
    beginner hand."""
    return gdist(g, p)


cdef amrules_t make_rules(dict r) except *:
    cdef amrules_t R
    memset(&R, 0, sizeof(amrules_t))
    R.jokers = r["jokers"]
    R.n_tiles = 144 + R.jokers
    R.second = r["second"]
    R.courtesy = r["courtesy"]
    R.blind = r["blind"]
    R.base_points = r["base_points"]
    R.start_points = r["start_points"]
    R.hands_per_game = r["hands_per_game"]
    R.keep = 0 if r.get("all_joker_sets", True) else 1
    card = r.get("card")
    R.c_lines = 0
    R.c_nvar = 0
    if card is not None:
        R.c_lines = len(card["flags"])
        R.c_nvar = len(card["xk"])
        R.c_rows = <const uint8_t*>cnp.PyArray_DATA(card["rows"])
        R.c_line_start = <const int32_t*>cnp.PyArray_DATA(card["line_start"])
        R.c_flags = <const uint8_t*>cnp.PyArray_DATA(card["flags"])
        R.c_xk = <const int8_t*>cnp.PyArray_DATA(card["xk"])
        R.c_xs = <const int8_t*>cnp.PyArray_DATA(card["xs"])
        R.c_points = <const int32_t*>cnp.PyArray_DATA(card["points"])
        R.c_bonus = <const uint8_t*>cnp.PyArray_DATA(card["bonus"])
        R.c_set_sizes = <const uint8_t*>cnp.PyArray_DATA(card["set_sizes"])
        R.c_rt = <const uint8_t*>cnp.PyArray_DATA(card["rt"])
        R.c_set_off = <const int32_t*>cnp.PyArray_DATA(card["set_off"])
        R.c_set_idx = <const int32_t*>cnp.PyArray_DATA(card["set_idx"])
        R.c_vconc = <const uint8_t*>cnp.PyArray_DATA(card["vconc"])
        R.c_ft = <const uint8_t*>cnp.PyArray_DATA(card["ft"])
        R.c_all_joker = card["all_joker_sets"]
        R.c_mult = card["multiplier"]
    R.c_disc_double = r.get("discarder_double", 0)
    return R


def out_width(dict rules):
    """Columns of a game's output row under these kernel rules (per-line columns with a card)."""
    card = rules.get("card")
    return N_OUT + (len(CARD_COLUMNS) * len(card["flags"]) if card is not None else 0)


CARD_COLUMNS = ("wins", "jokerless", "sum_before", "sum_after", "sq_before", "sq_after", "sq_change")


cdef class AmericanTable(Table):
    """A table of the American family that Python drives: ``AmericanTable(rules, capacity=0)``
    with the kernel rules dict and an event-log capacity."""

    ILLEGAL = ILLEGAL

    def __init__(self, dict rules, int capacity=0):
        self.R = make_rules(rules)
        self._card = rules.get("card")           # keeps the card's tables alive
        memset(&self.g, 0, sizeof(amgame_t))
        init_game(&self.g, &self.R)
        if self.R.c_lines:
            self.g.vs = <int16_t*>malloc(scratch_bytes(&self.R))
            if self.g.vs == NULL:
                raise MemoryError()
            scratch_parts(&self.g)
        self.t = &self.g.t
        self.width = out_width(rules)
        self._out = np.zeros(self.width, np.int32)
        self.g.t.out = <int32_t*>cnp.PyArray_DATA(self._out)
        self._set_log(capacity)

    def set_quiet(self, quiet):
        """Per seat, the bits of a Python seat's hooks that keep the built-in behaviour (the
        engine then does not ask them: 1 own turn, 2 pass, 4 second vote, 8 courtesy offer,
        16 courtesy tiles)."""
        cdef int s
        for s in range(4):
            self.g.py_quiet_own[s] = quiet[s]

    def __dealloc__(self):
        free(self.g.vs)
        self.g.vs = NULL

    cdef void _start(self, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept:
        self.g.t.n_ev = 0
        start_game(&self.g, game_index, k0, k1, policies)

    cdef int _advance(self) noexcept nogil:
        return advance(&self.g)

    cdef object _view(self, int seat):
        return seat_view(&self.g, seat)

    cdef int _n_tiles(self) noexcept:
        return self.g.n_tiles

    cdef void _hand_wall(self, int h, uint8_t* wall, int32_t* dice) noexcept nogil:
        dice[0] = dice[1] = 0
        if self.g.t.walls != NULL:
            memcpy(wall, self.g.t.walls + h * self.g.n_tiles, self.g.n_tiles)
            return
        shuffle_wall(&self.g, self.g.t.k0, self.g.t.k1, self.g.t.game_index * HANDS_STREAM + h)
        memcpy(wall, self.g.wall, self.g.n_tiles)


def simulate_batch(dict rules, const uint64_t[::1] game_index, uint64_t k0, uint64_t k1,
                   const int[:, ::1] policies, int32_t[:, ::1] out, int threads):
    """Play game game_index[i] with the built-in policies[i] into out[i] (OUT_WIDTH counters)
    on `threads` threads."""
    cdef amrules_t R = make_rules(rules)
    cdef Py_ssize_t n = game_index.shape[0]
    cdef int width = out_width(rules)
    if n == 0:
        return
    if out.shape[1] != width:
        raise ValueError(f"out must have {width} columns under these rules")
    with nogil:
        run_batch(run_one, &R, &game_index[0], n, k0, k1, &policies[0, 0], &out[0, 0], width, threads)
