# cython: language_level=3
# The American family's game engine (american_game.pyx): its game state and the functions
# other kernels (the environments, american_env.pyx) drive it with. The state machine, the
# rules and the built-in policies are documented in the .pyx.
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint64_t

from mjfast._kernels.engine cimport table_t, Table, OUT_FAMILY
from mjfast._kernels.american_play cimport am_dist_hist, am_hist

cdef enum:
    MAX_SET = 160
    N_STD = 136
    FIRST_JOKER = 144
    FLOWER = 34
    JOKER = 35
    NK = 36
    HROW = 48                          # a hand row: 36 kinds + zero padding for the card kernels' 16-byte loads
    MAX_DISC = 128
    CARD_DEAD = 127
    POLICY_SALT = 0xA3E1C4A2B5D6F708   # the built-in policies' key: k0 ^ POLICY_SALT

# per-game output columns: the common ones (engine.pxd OUT_*), then the family's
cdef enum:
    OUT_JOKERLESS = OUT_FAMILY       # 4: jokerless wins per player
    OUT_DEAD = OUT_FAMILY + 4        # 4: dead hands per player
    OUT_CALLS = OUT_FAMILY + 8       # 4: calls for a set of four per player
    OUT_EXCHANGES = OUT_FAMILY + 12  # 4: joker exchanges per player
    OUT_SECOND = OUT_FAMILY + 16     # hands with a second Charleston
    OUT_COURTESY = OUT_FAMILY + 17   # tiles moved in courtesy passes
    DIST_BEFORE = 40                 # 4 x 15: the distance of each player before the Charleston
    DIST_AFTER = 100                 # 4 x 15: ... and after it
    N_OUT = 160

# state-machine phases (t.phase) and turn modes
cdef enum:
    PH_HAND = 0          # set up the next hand (or end the game)
    PH_PASS = 1          # a Charleston pass: every seat chooses (g.cs: next seat), then the tiles move
    PH_VOTE = 2          # the vote for the second Charleston (g.cs)
    PH_OFFER = 3         # courtesy offers (g.cs)
    PH_COURTESY = 4      # courtesy tiles (g.cs), then they move
    PH_TURN = 5          # a turn starts: draw unless after a call, count the turn
    PH_OWN = 6           # Mahjong check and joker exchanges after a draw
    PH_DISCARD = 7       # the player on turn discards
    PH_CALLS = 8         # calls on the discard (g.ci, g.winner, g.caller)
    PH_OVER = 9

ctypedef struct amrules_t:
    int n_tiles
    int jokers
    int second          # 0 never, 1 always, 2 if any player wants it
    int courtesy        # 0 no courtesy pass, 1 policies offer 0-3
    int blind           # blind pass allowed on the last pass of each Charleston
    int base_points
    int start_points
    int hands_per_game
    int keep            # the beginner hand's joker reading: 0 = a concealed set of four may be all
                        # jokers (all_joker_sets, the default), 1 = each set keeps a natural tile
    # a card (mjfast.card; c_lines = 0: the beginner hand): its compiled tables (card.pyx)
    int c_lines
    int c_nvar
    const uint8_t* c_rows           # (c_nvar, 96): natural demand R, flexible demand F
    const int32_t* c_line_start     # (c_lines + 1)
    const uint8_t* c_flags          # (c_lines): 1 concealed
    const int8_t* c_xk              # (c_nvar, 4): kinds of the sets of three or more
    const int8_t* c_xs              # (c_nvar, 4): ... and their sizes
    const int32_t* c_points         # (c_lines)
    const uint8_t* c_bonus          # (c_lines): 1 = a jokerless win multiplies the value
    const uint8_t* c_set_sizes      # (35): bit s set when some variation has a set of s of the kind
    const uint8_t* c_rt             # (36, c_nvar): R transposed (kind-major), for the cache updates
    const uint8_t* c_ft             # (36, c_nvar): F transposed
    const int32_t* c_set_off        # (35 * 4 + 1): the variations holding a set (kind k, size s) are
    const int32_t* c_set_idx        # c_set_idx[c_set_off[4k + s - 3] : c_set_off[4k + s - 2]]
    const uint8_t* c_vconc          # (c_nvar): the variation's line is concealed
    int c_all_joker                 # sets of three or more may be all jokers
    int c_mult                      # the jokerless multiplier
    int c_disc_double               # a discarder pays double

ctypedef struct amplayer_t:
    uint8_t h[HROW]         # concealed tiles by kind (35 = jokers; 36-47 stay 0)
    uint8_t excl[NK]        # kinds of this player's exposed sets
    int n_hand
    int n_exp
    uint8_t exp_kind[4]
    uint8_t exp_jokers[4]
    uint8_t exp_size[4]     # 4 under the beginner hand; 3-6 with a card
    int dead
    int keep                # = its rules' keep (set by init_game), for pdist
    int policy
    int d                   # distance of the hand at its last refresh (after the Charleston, after each discard)
    int plan_valid          # plan/plan_raises hold greedy_pass_plan of the current hand (Charleston)
    int plan[3]
    int plan_raises[3]
    uint8_t disc[MAX_DISC]
    int n_disc

ctypedef struct amgame_t:
    table_t t               # the shared header (engine.pxd): streams, policies, phase, log, out
    amrules_t* R
    uint8_t wall[MAX_SET]
    int n_tiles
    int front
    amplayer_t p[4]
    uint8_t visible[NK]     # discards and exposed tiles (jokers in exposures included)
    int drawn
    int exp_jokers          # jokers in all exposed sets (0: no exchange possible)
    int py_quiet_own[4]     # bits of a Python seat's default hooks, not called (see game.american.Bridge)
    # the position of the state machine within a hand
    int passno              # Charleston: the pass being made (0-2 first, 3-5 second, 6 courtesy)
    int cs                  # Charleston: the next seat to choose (PH_PASS, PH_VOTE, PH_OFFER, PH_COURTESY)
    int kinds[4][3]         # ... the tiles each seat chose to pass
    int nb[4]               # ... and how many it passes blind
    int any_yes             # a vote for the second Charleston so far
    int offer[4]            # courtesy offers
    int cur                 # the player on turn (-1: every hand is dead)
    int mode                # MODE_DRAW / MODE_OWN / MODE_CALLED at the start of a turn
    int exchanged           # PH_OWN: a joker exchange changed the hand this turn
    int discard             # the kind just discarded, by `discarder`
    int discarder
    int ci                  # PH_CALLS: the next seat to ask, 1-3 after the discarder
    int winner              # PH_CALLS: the calls so far
    int caller
    int call_size           # ... the size of the exposure the caller makes (card play)
    int call_jokers         # ... and the jokers it takes from her hand
    int pick_d              # card play: the hand's distance when ph_discard evaluated it for the pick (else -1)
    int16_t* vs             # card play: scratch, 2 x c_nvar (card_call_after) + 5 x c_lines (per-line distances), then the caches
    # card play: each seat's cache of per-variation shortfalls (sr >= 64: unusable), kept in step
    # with its hand by card_sync; c_dv: the distances of the last evaluation
    uint8_t* c_sr
    uint8_t* c_sf
    uint8_t* c_dv
    int32_t* c_near         # the variations within one tile of the best, not dead (after card_eval_cached with unseen)
    int c_nnear
    uint8_t c_snap[4][48]   # the hand each cache describes
    int c_snap_exp[4]       # ... and its number of exposures (-1: rebuild)

# how a turn starts (g.mode)
cdef enum:
    MODE_DRAW = 0
    MODE_OWN = 1
    MODE_CALLED = 2


cdef inline int kind_of_id(int t) noexcept nogil:
    if t < N_STD:
        return t >> 2
    if t < FIRST_JOKER:
        return FLOWER
    return JOKER


cdef inline int copies(int k) noexcept nogil:
    return 8 if k == FLOWER else 4


cdef inline int pdist(amplayer_t* p) noexcept nogil:
    cdef int hist[9]
    am_hist(p.h, p.excl, hist)
    return am_dist_hist(hist, p.h[JOKER], p.n_exp, p.keep)


cdef inline int dist_plus(amplayer_t* p, int k) noexcept nogil:
    """Distance with one more tile of kind k (0-34)."""
    cdef int d
    p.h[k] += 1
    d = pdist(p)
    p.h[k] -= 1
    return d


cdef int advance(amgame_t* g) noexcept nogil
cdef void start_game(amgame_t* g, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil
cdef void init_game(amgame_t* g, amrules_t* R) noexcept nogil
cdef amrules_t make_rules(dict r) except *
cdef object seat_view(amgame_t* g, int seat)
cdef int builtin_answer(amgame_t* g, int policy, int* kinds) noexcept nogil
cdef int greedy_pick(amgame_t* g, amplayer_t* p, bint allow_joker, int* d_after) noexcept nogil
cdef int random_tile(amgame_t* g, amplayer_t* p, bint allow_joker) noexcept nogil
# card play in other kernels (the environments): the per-game card scratch, the distance
cdef size_t card_scratch_bytes(const amrules_t* R) noexcept nogil
cdef int card_scratch_alloc(amgame_t* g) noexcept nogil
cdef int game_dist(amgame_t* g, amplayer_t* p) noexcept nogil


cdef class AmericanTable(Table):
    cdef amgame_t g
    cdef amrules_t R
    cdef object _card
