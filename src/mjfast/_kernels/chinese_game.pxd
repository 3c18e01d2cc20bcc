# cython: language_level=3
# The Chinese family's game engine (chinese_game.pyx): its game state and the functions other
# kernels (the environments, chinese_env.pyx) drive it with. The state machine, the rules and
# the built-in policies are documented in the .pyx.
from libc.stdint cimport uint8_t, int32_t, uint64_t

from libc.stdint cimport uint32_t
from mjfast._kernels.hand_types cimport (
    mj_tables_t, FORM_STANDARD, FORMS_SPECIAL, FORM_KNITTED_STRAIGHT,
)
from mjfast._kernels.hand cimport (
    hand_t, load_counts, FEAT_CODES, FEAT_KNITS, standard_counts, shanten_counts, standard_winning_counts,
    called_knitted_distance, features_for, special_distance,
)
from mjfast._kernels.engine cimport table_t, Table, OUT_FAMILY
from mjfast._kernels.mcr_fan cimport fan_out_t, N_FANS

cdef enum:
    MAX_SET = 192
    FIRST_BONUS = 136
    FIRST_JOKER = 144
    MAX_MELDS = 6
    WV_SLOTS = 8
    POLICY_SALT = 0x5A17C0DE5A17C0DE   # the built-in policies' key: k0 ^ POLICY_SALT

# meld kinds (also the claim-count columns)
cdef enum:
    M_CHOW = 0
    M_PUNG = 1
    M_KONG_EXPOSED = 2
    M_KONG_CONCEALED = 3
    M_KONG_ADDED = 4

# per-game output columns: the common ones (engine.pxd OUT_*), then claims by player and kind
cdef enum:
    OUT_CLAIMS = OUT_FAMILY      # 20 columns: player * 5 + meld kind (M_*)
    # fan statistics of wins scored with the fan calculator (rules with uses_fans)
    OUT_FAN_SUM = OUT_FAMILY + 20     # sum over wins of the hand's fan (flowers not counted)
    OUT_FAN_SQ = OUT_FAMILY + 21      # ... of its square
    OUT_FAN_TOTAL = OUT_FAMILY + 22   # sum over wins of the fan paid (flowers counted)
    OUT_FAN_TOTAL_SQ = OUT_FAMILY + 23
    OUT_FALSE_WINS = OUT_FAMILY + 24  # 4 columns: false wins declared by each player
    OUT_FAN_COUNTS = OUT_FAMILY + 28  # N_FANS columns: wins in which each fan counts
    OUT_FAN_HIST = OUT_FAMILY + 28 + N_FANS   # FAN_HIST columns: wins by hand fan 0 .. FAN_HIST - 1 (and more)
    FAN_HIST = 100
    N_OUT = OUT_FAMILY + 28 + N_FANS + FAN_HIST

# state-machine phases (t.phase) and turn modes
cdef enum:
    PH_HAND = 0          # set up the next hand (or end the game)
    PH_TURN = 1          # a turn starts: draw unless after a claim, count the turn
    PH_OWN = 2           # own-turn actions after a draw or an exposed kong: win, kongs
    PH_DISCARD = 3       # the player on turn discards
    PH_READY = 4         # basic's Stop rule: declare a ready hand after the discard
    PH_WINS = 5          # Mahjong claims on the discard, in turn order (g.ci: next seat)
    PH_CLAIMS = 6        # kong, pung and chow claims (g.ci, g.claimer, g.claim, g.chow_start)
    PH_OVER = 7          # the game is over
    PH_WINDOW = 8        # t.collect_claims: every seat with a claim answers (g.ci), then priority
    PH_ROB = 9           # robbing an added kong (fan scoring): Mahjong claims on g.discard, in turn order

ctypedef struct rules_t:
    const mj_tables_t* T  # the shanten and winning tables
    int n_tiles
    int replace_bonus
    int forms             # winning forms (kernel bits)
    int dead_wall         # tiles reserved at the back; -1 = 2 * (dice total) as in seed 000
    int ready_rule        # 1: a player must declare a ready hand (Stop) to win; hand fixed after
    int base_points
    int payment           # 0: every loser pays base; 1: discarder pays 3 * base for a discard win
    int hands_per_game
    int allow_chow
    int allow_kong
    int refill_dead_wall  # 1: the dead wall keeps its size (each replacement moves the live wall's
                          # end); 0: replacements use up the dead wall first (seed 000)
    int added_kong_drawn  # 1: an added kong only with the tile just drawn; 0: any held copy
    int fan_scoring       # 1: wins paid 8 + fan (MCR competition), added kongs can be robbed
    int min_fan           # a win needs this many fan, flowers not counted (with uses_fans)
    int uses_fans         # fan_scoring or min_fan > 0: every win is scored with the calculator
    int false_win_error   # 1: an external seat's false win is an illegal action; 0: it pays 30
    int botzone           # 1: the Botzone judge's walls (mcr-botzone): four private walls of
                          # n_tiles / 4, each seat draws from its own; seat 0 always deals
    int quan              # botzone: the prevalent wind (0-3) of every hand

ctypedef struct player_t:
    uint8_t hand[34]
    int n_hand
    int n_melds
    uint8_t meld_type[MAX_MELDS]
    uint8_t meld_tile[MAX_MELDS]
    uint8_t pung_exposed[34]
    int ready
    int bonus
    int policy
    int wait_sh             # shanten of the concealed hand left by this player's latest
                            # discard, if the greedy policy made it and the hand has not changed
                            # since but for draws; -1 when not known. > 0: no tile completes it
    int last_claim_kind     # kind of this player's latest claim (-1 none) and when
    int last_claim_turn
    uint8_t discards[64]    # kinds discarded, in order (claimed ones included)
    int n_discards
    # the fan-aware policies' memory of ready hands (wait_value): key = the concealed tiles
    # and declared sets, the waits, and which waits win with min_fan on a discard / self-drawn
    uint64_t wv_key[WV_SLOTS]
    uint64_t wv_waits[WV_SLOTS]
    uint64_t wv_discard[WV_SLOTS]
    uint64_t wv_self[WV_SLOTS]

ctypedef struct game_t:
    table_t t                # the shared header (engine.pxd): streams, policies, phase, log, out
    rules_t* R
    const mj_tables_t* T
    uint8_t wall[MAX_SET]
    int n_tiles
    int front
    int back
    int live_end             # the last live tile: live draws take wall[front .. live_end]
                             # (botzone: front = tiles drawn in all, live_end = back = n_tiles - 1)
    int own_left[4]          # botzone: tiles left in each seat's own wall; seat i's next tile is
                             # wall[i * n_tiles / 4 + own_left[i] - 1] (drawn from the end)
    player_t p[4]
    uint8_t visible[34]      # discards and exposed tiles, seen by everyone
    int drawn_kind           # kind just drawn by the player on turn (-1: none, e.g. after a claim)
    # the position of the state machine within a hand
    int cur                  # the player on turn
    int mode                 # MODE_DRAW / MODE_OWN / MODE_CLAIMED at the start of a turn
    int discard              # the kind just discarded, by `discarder`
    int discarder
    int ci                   # PH_WINS / PH_CLAIMS: the next seat to ask, 1-3 after the discarder
    int claimer              # PH_CLAIMS: the claim so far (C_NONE: none)
    int claim
    int chow_start
    int window[4]            # PH_WINDOW: each seat's answer (C_*), window_chow[s] its chow's first kind
    int window_chow[4]
    int ask_false_wins       # Python policies (ChineseTable): ask a complete hand below min_fan anyway
    int after_kong           # the player on turn's latest tile is a kong's replacement
    int robbing              # PH_ROB: the claims are on an added kong's tile
    int win_ok[4]            # the latest win check of each seat: W_* below
    fan_out_t fan[4]         # ... and its fans (with uses_fans)

# what a win check found (g.win_ok)
cdef enum:
    W_NONE = 0          # not a complete hand
    W_FALSE = 1         # complete, but below min_fan: a false win if declared
    W_VALID = 2

# claim codes (PH_WINS, PH_CLAIMS, PH_WINDOW; the options of an ASK_CLAIM question)
cdef enum:
    C_NONE = 0
    C_WIN = 1
    C_KONG = 2
    C_PUNG = 3
    C_CHOW = 4        # a chow (as an option of a claim question: 100 + the chow's first kind)
    C_FALSE = 5       # PH_WINDOW: the seat declared a false win
    # an external seat's answer declaring a win that is not offered (a false win)
    ANSWER_FALSE_WIN = -1000

# how a turn starts (g.mode)
cdef enum:
    MODE_DRAW = 0       # draw from the live wall, then own-turn actions, then discard
    MODE_OWN = 1        # own-turn actions (self-drawn win, kongs), then discard
    MODE_CLAIMED = 2    # after a claimed chow or pung: discard only


cdef inline int live_left(game_t* g) noexcept nogil:
    return g.live_end - g.front + 1


# the shanten and the winning check of a concealed hand under the rule set's forms
cdef inline int shanten_of(game_t* g, uint8_t* h) noexcept nogil:
    if g.R.forms == FORM_STANDARD:
        return standard_counts(h, g.T)
    return shanten_counts(h, g.R.forms, g.T)


ctypedef struct codes_t:
    uint32_t c[4]
    int n


cdef inline void codes_of(const uint8_t* h, codes_t* c) noexcept nogil:
    cdef hand_t f
    load_counts(h, &f, FEAT_CODES)
    c.c[0] = f.code[0]
    c.c[1] = f.code[1]
    c.c[2] = f.code[2]
    c.c[3] = f.code[3]
    c.n = f.n


cdef inline bint complete(game_t* g, uint8_t* h, int n) noexcept nogil:
    """Whether the concealed tiles h (n of them) with the exposed sets form a winning hand."""
    cdef hand_t f
    if standard_winning_counts(h, g.T):
        return True
    if n == 11 and (g.R.forms & FORM_KNITTED_STRAIGHT):
        # the knitted straight with one called set: the knitted nine + a pair in hand
        load_counts(h, &f, FEAT_CODES | FEAT_KNITS)
        return called_knitted_distance(&f, g.T, 1) == 0
    if not (g.R.forms & FORMS_SPECIAL) or n != 14:
        return False
    # the other special forms: only closed 14-tile hands; `best = 1` prunes everything that is
    # not complete
    load_counts(h, &f, features_for(g.R.forms))
    return special_distance(&f, g.R.forms, g.T, 1) == 0


cdef int advance(game_t* g) noexcept nogil
cdef void start_game(game_t* g, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil
cdef void init_game(game_t* g, rules_t* R) noexcept nogil
cdef rules_t make_rules(dict r) except *
cdef int builtin_answer(game_t* g, int policy, int* then_discard) noexcept nogil
cdef object seat_view(game_t* g, int seat)
cdef int greedy_scores(game_t* g, int seat, uint8_t* sh, int* counts) noexcept nogil


cdef class ChineseTable(Table):
    cdef game_t g
    cdef rules_t R
