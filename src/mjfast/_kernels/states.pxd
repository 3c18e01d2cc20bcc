# cython: language_level=3
# Table states and rollouts (issue 27, mjfast.search): the pieces both families' batched tables
# (chinese_env.ChineseVec, american_env.AmericanVec) share.
#
# A state record is one table's engine state as bytes, laid out as
#     [game struct | pass slot (American) | card scratch (American with a card) | BOOK int32 | out row int32]
# padded to a multiple of 8 bytes. The game struct's pointers (rules, tables, scripted walls,
# output row, event log, card scratch) are zeroed in a record: loading puts the table's own back.
# The BOOK block holds the Tables bookkeeping of the table (status, acting seat, decision
# context, pending discard and its seat) and a flag for scripted walls.
from libc.stdint cimport uint8_t, int32_t, int64_t

from cython.parallel cimport prange

from mjfast._kernels.engine cimport (
    Tables, table_t, OUT_TURNS, OUT_WINS, OUT_DEAL_INS, OUT_HANDS, ADV_DECIDE, ADV_HAND, ADV_DONE, ASK_DISCARD, ST_DECIDE, ST_HAND_END, ST_GAME_END, ST_ERROR,
    ST_IDLE, ST_NEW, POL_EXTERNAL,
)

cdef enum:
    BOOK_STATUS = 0
    BOOK_ACTING = 1
    BOOK_CTX = 2
    BOOK_PEND = 3
    BOOK_PEND_SEAT = 4
    BOOK_SCRIPTED = 5        # 1: the game's later hands come from scripted walls (not carried)
    BOOK_INTS = 8
    MAX_ACTIONS_ROLL = 128   # >= any family's action count (a mask on the stack)

# what a rollout returns per table (int32 columns)
cdef enum:
    RO_SCORE = 0             # 4: score change of each seat
    RO_WINS = 4              # 4: hands won
    RO_DEAL_INS = 8          # 4: discards won on
    RO_TURNS = 12            # turns played
    RO_HANDS = 13            # hands finished
    RO_STATUS = 14           # the final status (ST_*)
    RO_WIDTH = 16


cdef inline void save_book(Tables tb, int i, int32_t* b) noexcept nogil:
    b[BOOK_STATUS] = tb.status[i]
    b[BOOK_ACTING] = tb.acting[i]
    b[BOOK_CTX] = tb.ctx[i]
    b[BOOK_PEND] = tb.pend[i]
    b[BOOK_PEND_SEAT] = tb.pend_seat[i]
    b[BOOK_SCRIPTED] = 1 if tb.t[i].walls != NULL else 0
    b[6] = 0
    b[7] = 0


cdef inline void load_book(Tables tb, int i, const int32_t* b) noexcept nogil:
    tb.status[i] = b[BOOK_STATUS]
    tb.acting[i] = b[BOOK_ACTING]
    tb.ctx[i] = b[BOOK_CTX]
    tb.pend[i] = b[BOOK_PEND]
    tb.pend_seat[i] = b[BOOK_PEND_SEAT]


cdef inline int check_book(const int32_t* b) noexcept nogil:
    """0 when the bookkeeping is in range, else an error code (STATE_ERRORS in the families)."""
    if b[BOOK_STATUS] < ST_DECIDE or b[BOOK_STATUS] > ST_NEW:
        return 1
    if b[BOOK_ACTING] < 0 or b[BOOK_ACTING] > 3 or b[BOOK_PEND_SEAT] < 0 or b[BOOK_PEND_SEAT] > 3:
        return 2
    if b[BOOK_SCRIPTED] != 0 and b[BOOK_SCRIPTED] != 1:
        return 1
    return 0


cdef inline int check_header(const table_t* t) noexcept nogil:
    """0 when the shared header's fields are in range, else an error code."""
    cdef int s
    for s in range(4):
        if t.policy[s] < 0 or t.policy[s] > 4:
            return 3
    if t.hand_no < 0 or t.hand_no > t.hands_per_game or t.hands_per_game < 1 or t.hands_per_game > 64:
        return 4
    if t.dealer < 0 or t.dealer > 3 or t.turn < 0:
        return 4
    if t.req.seat < 0 or t.req.seat > 3 or t.req.n_options < 0 or t.req.n_options > 64:
        return 5
    return 0


cdef inline int wall_is_permutation(const uint8_t* wall, int n) noexcept nogil:
    """1 when wall[0..n) holds each id 0..n-1 once."""
    cdef uint8_t seen[256]
    cdef int j
    for j in range(n):
        seen[j] = 0
    for j in range(n):
        if wall[j] >= n or seen[wall[j]]:
            return 0
        seen[wall[j]] = 1
    return 1


cdef inline void rollout_one(Tables tb, int i, int64_t first, const int* codes, bint until_hand,
                             int32_t* res) noexcept nogil:
    """Play table i on: answer its pending question with `first` (an action id; -1: none), then
    every question of an external seat as built-in policy codes[seat] would (questions with one
    legal action: that action, as the step does), to the end of the hand (until_hand) or of
    the game. res (RO_WIDTH int32) receives the score changes, wins, deal-ins, turns, hands."""
    cdef table_t* t = tb.t[i]
    cdef int s, r, n, single, p, a, answered = 1
    cdef int32_t before[4]
    cdef int32_t wins0[4]
    cdef int32_t dins0[4]
    cdef int32_t turns0 = t.out[OUT_TURNS], hands0 = t.out[OUT_HANDS]
    cdef uint8_t m[MAX_ACTIONS_ROLL]
    for s in range(RO_WIDTH):
        res[s] = 0
    for s in range(4):
        before[s] = t.score[s]
        wins0[s] = t.out[OUT_WINS + s]
        dins0[s] = t.out[OUT_DEAL_INS + s]
    if tb.status[i] == ST_GAME_END or tb.status[i] == ST_ERROR or tb.status[i] == ST_IDLE or \
            (until_hand and tb.status[i] == ST_HAND_END):
        res[RO_STATUS] = tb.status[i]
        return
    if first >= 0 and tb.status[i] == ST_DECIDE:
        answered = tb._take(i, <int>first)
    while True:
        r = tb._advance(i) if answered else ADV_DECIDE
        answered = 1
        if r == ADV_DECIDE:
            if tb.pend[i] >= 0:
                p = tb.pend[i]
                tb.pend[i] = -1
                if t.req.what == ASK_DISCARD and t.req.seat == tb.pend_seat[i]:
                    t.answer = p
                    t.has_answer = 1
                    continue
            tb._begin(i)
            n = tb._legal(i, m, &single)
            if n == 1:
                a = single
            else:
                a = tb._expert(i, codes[t.req.seat])
            answered = tb._take(i, a)
            continue
        if r == ADV_HAND:
            if until_hand:
                tb.status[i] = ST_HAND_END
                break
            continue
        tb.status[i] = ST_GAME_END if r == ADV_DONE else ST_ERROR
        break
    for s in range(4):
        res[RO_SCORE + s] = t.score[s] - before[s]
        res[RO_WINS + s] = t.out[OUT_WINS + s] - wins0[s]
        res[RO_DEAL_INS + s] = t.out[OUT_DEAL_INS + s] - dins0[s]
    res[RO_TURNS] = t.out[OUT_TURNS] - turns0
    res[RO_HANDS] = t.out[OUT_HANDS] - hands0
    res[RO_STATUS] = tb.status[i]


cdef inline void rollout_all(Tables tb, const int64_t[::1] first, const int[:, ::1] codes, bint until_hand,
                             int32_t[:, ::1] res, int threads) noexcept:
    """Play every table of tb on (rollout_one), on `threads` threads: first[i] answers table i's
    pending question (-1: none), codes[i] are the built-in policies answering the rest."""
    cdef Py_ssize_t i
    cdef int n = tb.n
    for i in range(n):
        tb.t[i].stop_at_hand_end = 1
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=4, num_threads=max(threads, 1)):
            rollout_one(tb, <int>i, first[i], &codes[i, 0], until_hand, &res[i, 0])
