# cython: language_level=3
# The skeleton every rule family's game engine shares (implemented in engine.pyx).
#
# Design. A game is a resumable state machine. Every family's game struct starts with a
# `table_t` header. `advance` runs the game without the GIL until a seat that is not a built-in
# policy must decide (ADV_DECIDE: the question is in t.req) or the game ends (ADV_DONE); the
# answer goes to `apply`, and the next `advance` resumes exactly at that question. Built-in
# policies decide inline, so a table of built-in policies plays its whole game in one advance.
#
# How a family's turn logic asks: at a decision of an external seat it calls
# `ask(t, seat, what, tile, options, n)`. That returns the answer apply() stored (consuming
# it), or SUSPEND after recording the question in t.req; the family then returns ADV_DECIDE
# with its position (phase and loop indices) stored in its game struct, and its next advance
# comes back to the same question, which now has its answer. So the code of a phase before a
# question has no side effects, or keeps what it did in the game struct.
#
# Shared here and in engine.pyx: the header, the question/answer protocol, the event log, the
# wall shuffle, the batch driver over games (nogil, threads), the `Table` extension type that
# Python drives (advance / request / apply / view / events / the loop that runs Python
# policies), illegal-action reporting, and every code the Python layer reads (policies,
# questions, events, common output columns), exported by name from engine.pyx.
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t, uint32_t, uint64_t

from mjfast._kernels.rng cimport rng_t, rng_bounded16, rng_seed_stream

cdef enum:
    # the policy of a seat
    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_DEFENSIVE = 2
    POL_EXTERNAL = 3         # decided outside the engine (a Python policy, an environment's agent)
    POL_GREEDY_BLIND = 4     # Chinese: the greedy policy without the fan-aware choices (an MCR baseline)
    POL_HUMANLIKE = 5        # Chinese: greedy with people's claims and defence (MCR play calibrated to people's)

cdef enum:
    # advance() results
    ADV_DONE = 0             # the game is over
    ADV_DECIDE = 1           # t.req holds the question an external seat must answer (apply)
    ADV_ERROR = 2            # an illegal answer stopped the game (t.err_code, t.err_kind)
    ADV_HAND = 3             # a hand ended (only with t.stop_at_hand_end); the next advance goes on

cdef enum:
    SUSPEND = -1000000       # ask(): no answer yet; the question is recorded in t.req

cdef enum:
    # what an external seat is asked (t.req.what) and what its answer means
    ASK_DISCARD = 0          # the kind to discard
    ASK_CLAIM = 1            # index into req.options of a claim on the discard req.tile
    ASK_OWN_TURN = 2         # index into req.options (win, kongs, joker exchanges), -1 = go on
    ASK_READY = 3            # 1 = declare a ready hand (Stop), 0 = not
    ASK_PASS = 4             # American: a Charleston pass (req.tile = the pass number; encoded)
    ASK_SECOND = 5           # American: 1 = vote for the second Charleston, 0 = against
    ASK_COURTESY_OFFER = 6   # American: tiles offered in the courtesy pass (0-3)
    ASK_COURTESY = 7         # American: the courtesy tiles (encoded like a pass)

cdef enum:
    ERR_NONE = 0
    ERR_PYTHON = 1           # a Python policy raised (the runner holds the exception)
    ERR_ILLEGAL = 2          # an answer broke the rules (t.err_code: the family's message)

cdef enum:
    # event types of the log: one table for every family (names in engine.pyx EVENTS)
    EV_HAND = 1              # seat = dealer; Chinese: a, b = the dice totals
    EV_DEAL = 2              # seat receives tile id a in the deal
    EV_DRAW = 3              # seat draws tile id a from the live wall
    EV_BONUS = 4             # seat sets bonus tile id a aside
    EV_REPLACE = 5           # seat draws replacement tile id a from the back end
    EV_DISCARD = 6           # seat discards kind a
    EV_CHOW = 7              # seat claims kind a for a chow starting at kind b
    EV_PUNG = 8              # seat claims kind a for a pung
    EV_KONG = 9              # seat claims kind a for an exposed kong
    EV_CONCEALED_KONG = 10
    EV_ADDED_KONG = 11
    EV_READY = 12            # seat declares a ready hand (Stop)
    EV_WIN = 13              # seat wins; a = 1 self-drawn / 0 on a discard, b = discarder (-1)
    EV_EXHAUSTED = 14        # the live wall is empty: no winner
    EV_SCORE = 15            # seat's score changes by a (b = running total)
    EV_PASS = 16             # American: seat passes kind a in pass b (0-2, 3-5 second, 6 courtesy)
    EV_RECEIVE = 17          # American: seat keeps kind a passed in pass b
    EV_BLIND = 18            # American: seat blind-passes on kind a (received unseen) in pass b
    EV_SECOND = 19           # American: a = 1: the second Charleston is danced, 0: not
    EV_CALL = 20             # American: seat calls kind a, exposing a set of four with b jokers
    EV_EXCHANGE = 21         # American: seat swaps kind a for a joker in seat b's exposed set
    EV_WALL_GAME = 22        # American: the wall is used up
    EV_DEAD = 23             # American: seat's hand is dead (a = 1: false Mahjong)
    EV_COURTESY = 24         # American: seat offers a tiles in the courtesy pass
    EV_FAN = 25              # Chinese Official: seat's winning hand counts fan a (mcr.FANS index) b times
    EV_FALSE_WIN = 26        # Chinese Official: seat declares a false win (a = its fan, 0: not complete; b = min_fan)

cdef enum:
    # per-game output columns common to every family (int32); the families add theirs after
    OUT_SCORE = 0            # 4 columns: final score of each player
    OUT_WINS = 4             # 4: hands won
    OUT_SELF_DRAWN = 8       # 4: ... of them self-drawn
    OUT_DEAL_INS = 12        # 4: discards a player won on
    OUT_HANDS = 16           # hands played
    OUT_TURNS = 17           # turns (a draw or claim, then a discard)
    OUT_DRAWS = 18           # hands without a winner (exhaustive draws, wall games)
    OUT_FAMILY = 20          # first family column

cdef enum:
    MAX_OPTIONS = 64
    HANDS_STREAM = 64        # random stream of hand h of game g: g * 64 + h


ctypedef struct request_t:
    int seat
    int what
    int tile
    int n_options
    int options[MAX_OPTIONS]


ctypedef struct table_t:
    # who plays and the streams: hand h shuffles with stream (k0, k1, game_index * 64 + h), the
    # built-in policies draw from prng (a second key per family)
    uint64_t game_index
    uint64_t k0
    uint64_t k1
    rng_t prng
    int policy[4]
    # where the game is (the family keeps its own position in `phase` and its game struct)
    int hands_per_game
    int hand_no
    int dealer
    int turn
    int phase
    # how the table is played: environments ask every seat with a claim on a discard before the
    # rules' priority decides (collect_claims; else the first claim by priority stops the
    # asking), and may stop after each hand (stop_at_hand_end: advance returns ADV_HAND)
    int collect_claims
    int stop_at_hand_end
    int hand_over            # a hand has just ended (cleared by advance when it reports it)
    # the question for an external seat and its answer
    request_t req
    int answer
    int has_answer
    # an error stops the game
    int error
    int err_code
    int err_kind
    # scripted walls (hands_per_game x n_tiles ids) and dice (hands_per_game x 2), or NULL:
    # shuffled from the hand's stream
    const uint8_t* walls
    const int32_t* dice
    # the result: family output columns (OUT_*), the running score, the event log
    int32_t* out
    int32_t score[4]
    int32_t* ev
    int n_ev
    int cap_ev


ctypedef int (*run_fn)(const void* rules, uint64_t game_index, uint64_t k0, uint64_t k1,
                       const int* policies, int32_t* out) noexcept nogil


cdef inline void run_batch(run_fn run, const void* rules, const uint64_t* game_index, Py_ssize_t n, uint64_t k0,
                           uint64_t k1, const int* policies, int32_t* out, int width, int threads) noexcept nogil:
    """Play game game_index[i] with policies[4i .. 4i+3] into out[width i ..] for every i, on
    `threads` threads (built-in policies only: `run` plays a whole game without stopping)."""
    cdef Py_ssize_t i
    for i in prange(n, schedule="dynamic", chunksize=16, num_threads=threads):
        run(rules, game_index[i], k0, k1, policies + 4 * i, out + width * i)


cdef inline void log_event(table_t* t, int typ, int seat, int a, int b) noexcept nogil:
    """Append one event (type, hand, seat, a, b) to the log (none without one; events past its
    capacity are dropped)."""
    cdef int32_t* e
    if t.ev == NULL or t.n_ev >= t.cap_ev:
        return
    e = t.ev + 5 * t.n_ev
    e[0] = typ
    e[1] = t.hand_no
    e[2] = seat
    e[3] = a
    e[4] = b
    t.n_ev += 1


cdef inline int ask(table_t* t, int seat, int what, int tile, const int* options, int n) noexcept nogil:
    """The answer of external seat `seat` to this question: the one apply() gave (consumed), or
    SUSPEND after recording the question in t.req (the caller then returns ADV_DECIDE)."""
    cdef int i
    if t.has_answer:
        t.has_answer = 0
        return t.answer
    t.req.seat = seat
    t.req.what = what
    t.req.tile = tile
    t.req.n_options = n
    for i in range(n):
        t.req.options[i] = options[i]
    return SUSPEND


cdef inline int illegal(table_t* t, int code, int kind) noexcept nogil:
    """Stop the game on an illegal answer (the family's message `code` about `kind`)."""
    t.error = ERR_ILLEGAL
    t.err_code = code
    t.err_kind = kind
    return ADV_ERROR


cdef inline void start_table(table_t* t, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies,
                             int32_t* out, int width, uint64_t policy_salt) noexcept nogil:
    """Reset the header for game `game_index`: policies, the built-in policies' stream (key
    k0 ^ policy_salt), zeroed output and score; the event log restarts."""
    cdef int s
    for s in range(4):
        t.policy[s] = policies[s]
        t.score[s] = 0
    for s in range(width):
        out[s] = 0
    t.out = out
    t.game_index = game_index
    t.k0 = k0
    t.k1 = k1
    rng_seed_stream(&t.prng, k0 ^ policy_salt, k1, game_index)
    t.hand_no = 0
    t.dealer = 0
    t.turn = 0
    t.phase = 0
    t.has_answer = 0
    t.hand_over = 0
    t.error = ERR_NONE
    t.n_ev = 0


cdef inline void shuffle_ids(uint8_t* wall, int n, rng_t* r) noexcept nogil:
    """wall[0..n) = a uniformly shuffled 0..n-1 (full Fisher-Yates on 16-bit bounded draws)."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n):
        wall[i] = <uint8_t>i
    for i in range(n - 1):
        j = i + <int>rng_bounded16(r, <uint32_t>(n - i))
        tmp = wall[i]
        wall[i] = wall[j]
        wall[j] = tmp


cdef class Table:
    """One table of a family's engine, driven from Python (engine.pyx)."""
    cdef table_t* t                  # the header of the family's game struct (the subclass owns it)
    cdef object _out                 # numpy int32 (width,): the game's output columns
    cdef object _events              # numpy int32 (capacity, 5) or None
    cdef object _walls               # scripted walls and dice (numpy) or None
    cdef object _dice
    cdef int width
    cdef int _advance(self) noexcept nogil           # family: run to the next question or the end
    cdef object _view(self, int seat)                # family: what `seat` sees, as a dict
    cdef void _start(self, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept
    cdef void _hand_wall(self, int h, uint8_t* wall, int32_t* dice) noexcept nogil   # family: hand h's
                                                     # shuffled wall (and dice) for the current game
    cdef int _n_tiles(self) noexcept
    cdef void _set_log(self, int capacity)



# ------------------------------------------------------------------------------------------
# batched tables for environments (engine.pyx): N games of one family stepped without the GIL,
# one question of an external seat per table per step, its observation and mask written

cdef enum:
    # a batched table's status after a step
    ST_DECIDE = 0            # the observation and mask are those of the acting seat
    ST_HAND_END = 1          # a hand ended (stop_at_hand_end); the observation is the last actor's
    ST_GAME_END = 2          # the game ended
    ST_ERROR = 3             # the engine refused an answer (a bug: actions are checked first)
    ST_IDLE = 4              # not started
    ST_NEW = 5               # started, not stepped yet (no question, no observation)

cdef enum:
    CTX_NONE = -1            # an observation outside a decision of the observer
    F_DERIVED = 1            # observation options (Tables.flags)
    F_PRIVILEGED = 2


cdef class Tables:
    """N tables of one family's engine for environments. The family's subclass owns the game
    structs (self.t[i] points at each one's header) and implements the per-table hooks; this
    class runs the steps (threads, answers, forced questions, terminal states), the built-in
    policies' answers, the event logs and the bookkeeping."""
    cdef table_t** t                 # each table's header (in the subclass's game structs)
    cdef int* status                 # ST_* of each table
    cdef int* acting                 # the seat whose question is pending (terminal: the last actor)
    cdef int* ctx                    # the family's decision context of that question (CTX_NONE)
    cdef int* pend                   # a discard to answer once the engine asks for it (-1: none) ...
    cdef int* pend_seat              # ... by this seat (an own-turn "go on" is an action + a discard)
    cdef int* teacher                # n x 4 built-in policy codes answering forced questions, or NULL
    cdef readonly int n
    cdef readonly int n_planes
    cdef readonly int n_scalars
    cdef readonly int n_actions
    cdef readonly int kinds
    cdef int skip_forced
    cdef int flags                   # F_DERIVED | F_PRIVILEGED: the optional parts of the observation
    cdef object _out                 # numpy int32 (n, width): each table's game counters
    cdef object _walls               # scripted walls and dice per table (kept alive)
    cdef dict _logs                  # event-log arrays of the tables that log
    cdef void _alloc(self, int n, int width, int n_actions, int kinds, bint skip_forced, bint derived,
                     bint privileged, int planes, int derived_planes, int privileged_planes, int scalars) except *
    cdef void _link(self, int i, table_t* t, int32_t* out) noexcept
    # the family's hooks
    cdef void _start_game(self, int i, uint64_t game_index, uint64_t k0, uint64_t k1, const int* policies) noexcept nogil
    cdef int _advance(self, int i) noexcept nogil
    cdef void _begin(self, int i) noexcept nogil
    cdef int _legal(self, int i, uint8_t* m, int* single) noexcept nogil
    cdef int _take(self, int i, int a) noexcept nogil
    cdef int _expert(self, int i, int policy) noexcept nogil
    cdef int _context(self, int i) noexcept nogil
    cdef void _encode(self, int i, int seat, int ctx, uint8_t* o, float* sc) noexcept nogil
    cdef object _view(self, int i, int seat)
    cdef void _step_one(self, int i, int64_t a, uint8_t* o, float* sc, uint8_t* m, int8_t* seat, float* rew,
                        uint8_t* status) noexcept nogil
