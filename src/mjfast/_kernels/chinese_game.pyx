# cython: language_level=3
"""The Chinese family's game engine (classical, basic, Chinese Official): complete games of
four-player mahjong with built-in policies (private; the Python front is mjfast.game).

One *game* is ``hands_per_game`` hands (default 4: each seat deals once). Hand ``h`` of game
``g`` shuffles its whole tile set with the random stream ``(k0, k1, g * 64 + h)``, so a game is
a pure function of (seed, game index) and of the policies. Built-in policies draw their own
randomness from a second key (k0 ^ POLICY_SALT).

The game is a resumable state machine (engine.pxd): `advance` plays until a seat that is not a
built-in policy must decide, and resumes after `apply`. Its position is `t.phase` and the
fields of game_t below `drawn_kind`; a phase asks its question before it changes anything.

Rules (docs/rules.md, mjfast/rules/chinese.py): East (the dealer) has 14 tiles and discards first; draws come from the
front of the wall, replacements (bonus tiles, kongs) from the back; ``dead_wall`` tiles at the
back are never drawn as live tiles: replacements use them up first and the live wall keeps its
end until they are gone (or, with ``refill_dead_wall``, each replacement moves the live wall's
end); exhaustive draw when the live wall is empty. Claims on a
discard: Mahjong > kong or pung > chow (chow only by the next player); two Mahjong claims go to
the claimer next in turn order after the discarder. A claimed pung or chow is exposed and the
claimer discards; an exposed kong draws a replacement first. On their own turn after a draw a
player may declare a concealed kong (four in hand) or add a held tile (``added_kong="drawn"``:
the tile just drawn) to an exposed pung, each followed by a replacement draw; a discard can
never be added to an exposed pung. Under MCR the knitted straight also wins with one called
set (the knitted nine + a pair in hand).

Everything here runs without the GIL; Python policies answer between two advances.

Layout (one C module, so the nogil hot paths stay inlined across the parts):
- chinese_game.pxd: the table state (game_t, player_t, rules_t) and the phase and output codes;
- chinese_policy.pxi: the built-in policies (discards, claims, answers to a pending question);
- chinese_rules.pxi: the rules of play (what a seat sees, wins and claims, one hand, the phases);
- this file: the shared helpers and the driver (batch entry points, the Table type).
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from cpython.ref cimport PyObject
from libc.stdint cimport uint8_t, int8_t, int32_t, uint32_t, uint64_t, int64_t
from libc.string cimport memset, memcpy

from mjfast._kernels.rng cimport rng_t, rng_seed_stream, rng_bounded16, rng_next
from mjfast._kernels.engine cimport (
    table_t, Table, shuffle_ids, log_event, ask, illegal, start_table, run_batch, SUSPEND,
    POL_RANDOM, POL_GREEDY, POL_DEFENSIVE, POL_EXTERNAL, POL_GREEDY_BLIND, POL_HUMANLIKE, ADV_DONE, ADV_DECIDE, ADV_ERROR,
    ASK_DISCARD, ASK_CLAIM, ASK_OWN_TURN, ASK_READY, HANDS_STREAM, ADV_HAND,
    EV_HAND, EV_DEAL, EV_DRAW, EV_BONUS, EV_REPLACE, EV_DISCARD, EV_CHOW, EV_PUNG, EV_KONG,
    EV_CONCEALED_KONG, EV_ADDED_KONG, EV_READY, EV_WIN, EV_EXHAUSTED, EV_SCORE, EV_FAN, EV_FALSE_WIN,
    OUT_SCORE, OUT_WINS, OUT_SELF_DRAWN, OUT_DEAL_INS, OUT_HANDS, OUT_TURNS, OUT_DRAWS, OUT_FAMILY,
)
from mjfast._kernels.hand_types cimport mj_tables_t, FORM_STANDARD
from mjfast._kernels.hand_tables cimport c_tables
from mjfast._kernels.hand cimport (
    shanten_counts, standard_counts, winning_counts, standard_winning_counts, hand_t, load_counts,
    distance_sets_pair, special_distance, features_for, pairs_distance, imin, FEAT_CODES, FEAT_KNITS, POW5,
    bits_code, special_distances, hand_minus, seven_pairs_distance, called_knitted_distance,
    knitted_straight_sets,
    KNIT_MASK, KNIT_PERM, knit_counts, knit_totals, number_ranks_held,
)
from mjfast._kernels.bits cimport mj_popcount32, mj_popcount64, mj_ctz64, mj_load64, mj_ones_ge
from mjfast._kernels.hand_types cimport (
    FORMS_SPECIAL, FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS, FORM_HONORS_KNITTED, FORM_KNITTED_STRAIGHT,
    FLAG_KONG_TWO_PAIRS,
)

from mjfast._kernels.mcr_fan cimport fan_in_t, fan_out_t, mcr_fan, MK_CHOW, MK_PUNG, MK_KONG, N_FANS

cnp.import_array()

cdef extern from *:
    """
    #define MJ_LANES_LO 0x0101010101010101ULL
    static const int MJ_SUIT_OF[34] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                       2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3};
    static const int MJ_WORD_AT[5] = {0, 8, 16, 24, 26};
    """
    const uint64_t LANES_LO "MJ_LANES_LO"      # 1 in each byte lane
    const int SUIT_OF "MJ_SUIT_OF"[34]         # the suit of each kind
    const int WORD_AT "MJ_WORD_AT"[5]          # the 8-byte words lanes_to_kinds takes

OUT_WIDTH = N_OUT
OUT_COLUMNS = {"claims": OUT_CLAIMS, "fan_sum": OUT_FAN_SUM, "fan_sq": OUT_FAN_SQ, "fan_total": OUT_FAN_TOTAL,
               "fan_total_sq": OUT_FAN_TOTAL_SQ, "false_wins": OUT_FALSE_WINS, "fan_counts": OUT_FAN_COUNTS,
               "fan_hist": OUT_FAN_HIST}
FAN_HIST_BINS = FAN_HIST


# ------------------------------------------------------------------------------------------
# small helpers

cdef inline void log_ev(game_t* g, int typ, int seat, int a, int b) noexcept nogil:
    log_event(&g.t, typ, seat, a, b)


cdef inline int draw_back(game_t* g, int seat) noexcept nogil:
    """Replacement from the back end, setting bonus tiles aside; returns the kind received,
    or -1 when the wall is used up (front and back have met: the hand ends drawn)."""
    cdef int t
    while True:
        if g.back < g.front:
            return -1
        t = g.wall[g.back]
        g.back -= 1
        if g.R.refill_dead_wall:
            g.live_end -= 1             # the dead wall takes the live wall's last tile
        elif g.back < g.live_end:
            g.live_end = g.back         # the dead wall is used up: replacements shorten the live wall
        if t >= FIRST_BONUS and t < FIRST_JOKER:
            g.p[seat].bonus += 1
            log_ev(g, EV_BONUS, seat, t, 0)
            continue
        log_ev(g, EV_REPLACE, seat, t, 0)
        g.p[seat].hand[t >> 2] += 1
        g.p[seat].n_hand += 1
        return t >> 2


cdef inline int next_seat(int s) noexcept nogil:
    return (s + 1) & 3


# the Botzone judge's private walls (rules_t.botzone): seat i owns wall[i * part .. (i + 1) * part)
# (part = n_tiles / 4) and takes every tile (deal, draws, flower and kong replacements) from its
# end, as the judge's pop_back: the dealt hand is part[33], part[32], ... and the k-th later
# draw part[20 - k] (136 tiles)

cdef inline int bz_pop(game_t* g, int seat) noexcept nogil:
    """The next tile id of seat's own wall (-1: that wall is empty)."""
    if g.own_left[seat] <= 0:
        return -1
    g.own_left[seat] -= 1
    g.front += 1
    return g.wall[seat * (g.n_tiles >> 2) + g.own_left[seat]]


cdef inline int bz_draw(game_t* g, int seat, int ev, int* flowers) noexcept nogil:
    """Seat draws from its own wall, setting bonus tiles aside and drawing again (flowers[0]
    counts them); returns the kind received, -1 when its wall runs out. Logged as the other
    rule sets log a draw (ev = EV_DRAW: the tile drawn, EV_BONUS, then EV_REPLACE for the
    tile that replaces it) or a kong's replacement (ev = EV_REPLACE: EV_BONUS for a flower)."""
    cdef int t
    cdef bint first = True
    flowers[0] = 0
    while True:
        t = bz_pop(g, seat)
        if t < 0:
            return -1
        if t >= FIRST_BONUS and t < FIRST_JOKER and g.R.replace_bonus:
            if first and ev != EV_REPLACE:
                log_ev(g, ev, seat, t, 0)
            g.p[seat].bonus += 1
            log_ev(g, EV_BONUS, seat, t, 0)
            flowers[0] += 1
            first = False
            continue
        log_ev(g, ev if first else EV_REPLACE, seat, t, 0)
        g.p[seat].hand[t >> 2] += 1
        g.p[seat].n_hand += 1
        return t >> 2


cdef inline int replacement(game_t* g, int seat) noexcept nogil:
    """A kong's replacement tile (the kind, -1: none left); botzone: from seat's own wall, and
    a flower drawn on the way loses the kong's flag (the judge's BUHUA), kept in g.after_kong."""
    cdef int k, fl = 0
    if not g.R.botzone:
        g.after_kong = 1
        return draw_back(g, seat)
    k = bz_draw(g, seat, EV_REPLACE, &fl)
    g.after_kong = 1 if fl == 0 else 0
    return k


cdef inline bint wall_last(game_t* g, int seat, bint self_drawn) noexcept nogil:
    """The Last Tile fact (妙手回春 / 海底捞月) of seat's win: the live wall is empty; botzone:
    the own wall of the seat after the drawer (self-drawn) or after the discarder is empty."""
    if g.R.botzone:
        return g.own_left[next_seat(seat if self_drawn else g.discarder)] <= 0
    return live_left(g) <= 0


cdef inline bint claims_closed(game_t* g) noexcept nogil:
    """Botzone: no chow, pung or exposed kong on the current discard (the own wall of the seat
    after the discarder is empty: only a win or a pass)."""
    return g.R.botzone and g.own_left[next_seat(g.discarder)] <= 0


cdef inline bint kongs_closed(game_t* g, int seat) noexcept nogil:
    """Botzone: no concealed or added kong by seat (its own wall or the next seat's is empty)."""
    return g.R.botzone and (g.own_left[seat] <= 0 or g.own_left[next_seat(seat)] <= 0)


# the built-in policies, then the rules of play (textual includes: one C module)
include "chinese_policy.pxi"
include "chinese_rules.pxi"


# ------------------------------------------------------------------------------------------
# batch kernels

cdef void init_game(game_t* g, rules_t* R) noexcept nogil:
    g.R = R
    g.T = R.T
    g.n_tiles = R.n_tiles
    g.t.ev = NULL
    g.t.n_ev = 0
    g.t.cap_ev = 0
    g.t.walls = NULL
    g.t.dice = NULL
    g.t.collect_claims = 0
    g.t.stop_at_hand_end = 0
    g.ask_false_wins = 0


cdef int run_one(const void* rules, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies,
                 int32_t* out) noexcept nogil:
    """A whole game of built-in policies (run_batch's run_fn)."""
    cdef game_t g
    init_game(&g, <rules_t*>rules)
    g.t.out = out
    start_game(&g, game_index, k0, k1, policies)
    return advance(&g)


cdef rules_t make_rules(dict r) except *:
    cdef rules_t R
    R.T = c_tables()
    R.n_tiles = r["n_tiles"]
    R.replace_bonus = r["replace_bonus"]
    R.forms = r["forms"]
    R.dead_wall = r["dead_wall"]
    R.ready_rule = r["ready_rule"]
    R.base_points = r["base_points"]
    R.payment = r["payment"]
    R.hands_per_game = r["hands_per_game"]
    R.allow_chow = r["allow_chow"]
    R.allow_kong = r["allow_kong"]
    R.refill_dead_wall = r["refill_dead_wall"]
    R.added_kong_drawn = r["added_kong_drawn"]
    R.fan_scoring = r["fan_scoring"]
    R.min_fan = r["min_fan"]
    R.uses_fans = int(R.fan_scoring or R.min_fan > 0)
    R.false_win_error = r["false_win_error"]
    R.botzone = r.get("botzone", 0)
    R.quan = r.get("quan", 0)
    return R


cdef class ChineseTable(Table):
    """A table of the Chinese family (classical, basic, Chinese Official) that Python drives:
    ``ChineseTable(rules, capacity=0)`` with the kernel rules dict and an event-log capacity."""

    ILLEGAL = ILLEGAL

    def __init__(self, dict rules, int capacity=0):
        self.R = make_rules(rules)
        memset(&self.g, 0, sizeof(game_t))
        init_game(&self.g, &self.R)
        self.g.ask_false_wins = 1
        self.t = &self.g.t
        self.width = N_OUT
        self._out = np.zeros(N_OUT, np.int32)
        self.g.t.out = <int32_t*>cnp.PyArray_DATA(self._out)
        self._set_log(capacity)

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
        cdef int r, d1, d2
        if self.g.t.walls != NULL:
            memcpy(wall, self.g.t.walls + h * self.g.n_tiles, self.g.n_tiles)
            dice[0] = self.g.t.dice[2 * h]
            dice[1] = self.g.t.dice[2 * h + 1]
            return
        shuffle_wall(&self.g, self.g.t.k0, self.g.t.k1, self.g.t.game_index * HANDS_STREAM + h, &d1, &d2)
        memcpy(wall, self.g.wall, self.g.n_tiles)
        dice[0] = d1
        dice[1] = d2


def simulate_batch(dict rules, const uint64_t[::1] game_index, uint64_t k0, uint64_t k1,
                   const int[:, ::1] policies, int32_t[:, ::1] out, int threads):
    """Play game game_index[i] with the built-in policies[i] (4 seats) into out[i]
    (OUT_WIDTH counters), on `threads` threads."""
    cdef rules_t R = make_rules(rules)
    cdef Py_ssize_t n = game_index.shape[0]
    if n == 0:
        return
    with nogil:
        run_batch(run_one, &R, &game_index[0], n, k0, k1, &policies[0, 0], &out[0, 0], N_OUT, threads)


def _greedy_scores_of(dict rules, const uint8_t[::1] hand, const uint8_t[::1] visible):
    """Test hook: the greedy policy's view of `hand` (34 counts, a closed 3k+2 hand of seat 0)
    when `visible` (34 counts) have been seen. Returns (shanten after each discard, 99 for
    kinds not held; unseen effective tiles of each discard at the best shanten, -1 for the
    others; the kind it discards, no opponent threatening)."""
    cdef rules_t R = make_rules(rules)
    cdef game_t g
    cdef codes_t c
    cdef hand_t f14
    cdef int k, best_s, live, choice
    cdef uint8_t sh[34]
    cdef int counts[34]
    cdef uint64_t cands
    memset(&g, 0, sizeof(game_t))
    init_game(&g, &R)
    for k in range(34):
        g.p[0].hand[k] = hand[k]
        g.p[0].n_hand += hand[k]
        g.visible[k] = visible[k]
        counts[k] = -1
    for k in range(4):
        g.p[k].last_claim_kind = -1
    best_s = greedy_shanten(&g, g.p[0].hand, &c, sh, &live, &f14)
    cands = kinds_equal(sh, best_s)
    most_effective(&g, 0, &c, cands, best_s, live, &f14, counts, False, NULL)
    choice = greedy_discard(&g, 0, False)
    return [sh[k] for k in range(34)], [counts[k] for k in range(34)], choice
