# cython: language_level=3
"""The Chinese Official (MCR) fan calculator without the GIL (private; the Python front is
mjfast.mcr).

It scores a winning hand as PyMahjongGB 1.4.0 does, total and fan list (tests/oracles/mcr_fan.py
is the plain-Python specification, checked against that reference on a million hands; this
kernel is checked against the specification, and bench/mcr_fan_hash.py fingerprints its results
on two million generated hands). The steps:

1. Flag corrections (Last Tile and the kong flag, as the reference corrects them).
2. Special forms, the first match final: seven pairs (no melds), honors and knitted tiles,
   thirteen orphans, the knitted straight (0 or 1 meld), nine gates.
3. Standard decompositions (when no special form matched, or plain Seven Pairs did): every split
   of the standing tiles into sets and a pair is scored and the highest total kept; a later one
   of equal total replaces it only with Pure Triple Chow or Triple Pung (or when Seven Pairs was
   the special form), visiting the splits in the reference's order.
4. Flowers, one fan each, added last (a hand worth only flowers is not a win).

How it stays fast (about 0.2 us a hand on one core, 3x the straight port): random hands make
most branches unpredictable, so the hot paths use arithmetic and tables instead. The counts and
kind sets are byte lanes and 34-bit masks (SWAR); the fan table is 96 bytes of int8 with a "sink"
byte that table lookups add to when there is no fan; the fans that do not depend on the split
(situation, suits, traits, ranks, kongs, concealed or melded hand) are counted once per hand into
a base table that each split copies; the splits are enumerated once each (no duplicates to
remove); the fans of two and three chows come from tables; and the unique-wait test (it tries
every kind that could complete the hand) runs only when a split would credit Edge, Closed or
Single Wait and does not already show a second wait.

Tile kinds: mjfast's (0-8 m, 9-17 p, 18-26 s, 27-30 E S W N, 31 White, 32 Green, 33 Red).
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from mjfast._kernels.hand_types cimport mj_tables_t
from mjfast._kernels.hand_tables cimport c_tables
from mjfast._kernels.hand cimport win_value, POW5
from mjfast._kernels.bits cimport mj_load64, mj_store64, mj_base5_8, mj_ctz64, mj_popcount64, mj_lane_sum

cnp.import_array()

cdef enum:
    F_BIG_FOUR_WINDS = 0
    F_BIG_THREE_DRAGONS = 1
    F_ALL_GREEN = 2
    F_NINE_GATES = 3
    F_FOUR_KONGS = 4
    F_SEVEN_SHIFTED_PAIRS = 5
    F_THIRTEEN_ORPHANS = 6
    F_ALL_TERMINALS = 7
    F_LITTLE_FOUR_WINDS = 8
    F_LITTLE_THREE_DRAGONS = 9
    F_ALL_HONORS = 10
    F_FOUR_CONCEALED_PUNGS = 11
    F_PURE_TERMINAL_CHOWS = 12
    F_QUADRUPLE_CHOW = 13
    F_FOUR_PURE_SHIFTED_PUNGS = 14
    F_FOUR_PURE_SHIFTED_CHOWS = 15
    F_THREE_KONGS = 16
    F_ALL_TERMINALS_AND_HONORS = 17
    F_SEVEN_PAIRS = 18
    F_GREATER_HONORS_AND_KNITTED_TILES = 19
    F_ALL_EVEN_PUNGS = 20
    F_FULL_FLUSH = 21
    F_PURE_TRIPLE_CHOW = 22
    F_PURE_SHIFTED_PUNGS = 23
    F_UPPER_TILES = 24
    F_MIDDLE_TILES = 25
    F_LOWER_TILES = 26
    F_PURE_STRAIGHT = 27
    F_THREE_SUITED_TERMINAL_CHOWS = 28
    F_PURE_SHIFTED_CHOWS = 29
    F_ALL_FIVE = 30
    F_TRIPLE_PUNG = 31
    F_THREE_CONCEALED_PUNGS = 32
    F_LESSER_HONORS_AND_KNITTED_TILES = 33
    F_KNITTED_STRAIGHT = 34
    F_UPPER_FOUR = 35
    F_LOWER_FOUR = 36
    F_BIG_THREE_WINDS = 37
    F_MIXED_STRAIGHT = 38
    F_REVERSIBLE_TILES = 39
    F_MIXED_TRIPLE_CHOW = 40
    F_MIXED_SHIFTED_PUNGS = 41
    F_CHICKEN_HAND = 42
    F_LAST_TILE_DRAW = 43
    F_LAST_TILE_CLAIM = 44
    F_OUT_WITH_REPLACEMENT_TILE = 45
    F_ROBBING_THE_KONG = 46
    F_ALL_PUNGS = 47
    F_HALF_FLUSH = 48
    F_MIXED_SHIFTED_CHOWS = 49
    F_ALL_TYPES = 50
    F_MELDED_HAND = 51
    F_TWO_CONCEALED_KONGS = 52
    F_TWO_DRAGONS_PUNGS = 53
    F_OUTSIDE_HAND = 54
    F_FULLY_CONCEALED_HAND = 55
    F_TWO_MELDED_KONGS = 56
    F_LAST_TILE = 57
    F_DRAGON_PUNG = 58
    F_PREVALENT_WIND = 59
    F_SEAT_WIND = 60
    F_CONCEALED_HAND = 61
    F_ALL_CHOWS = 62
    F_TILE_HOG = 63
    F_DOUBLE_PUNG = 64
    F_TWO_CONCEALED_PUNGS = 65
    F_CONCEALED_KONG = 66
    F_ALL_SIMPLES = 67
    F_PURE_DOUBLE_CHOW = 68
    F_MIXED_DOUBLE_CHOW = 69
    F_SHORT_STRAIGHT = 70
    F_TWO_TERMINAL_CHOWS = 71
    F_PUNG_OF_TERMINALS_OR_HONORS = 72
    F_MELDED_KONG = 73
    F_ONE_VOIDED_SUIT = 74
    F_NO_HONORS = 75
    F_EDGE_WAIT = 76
    F_CLOSED_WAIT = 77
    F_SINGLE_WAIT = 78
    F_SELF_DRAWN = 79
    F_FLOWER_TILES = 80
    F_CONCEALED_KONG_AND_MELDED_KONG = 81
    NONE = -1


cdef enum:
    N_TAB = 96               # a fan table: N_FANS int8 counts padded to 96 bytes (whole vector registers)
    F_SINK = 95              # a padding byte of the fan table: "no fan" from a lookup adds there (value 0,
                             # never output), so adding a looked-up fan needs no branch
    G_CHOW = 0               # set kinds (the same codes as MK_*)
    G_PUNG = 1
    G_KONG = 2
    MAX_SPLITS = 64
    EAST = 27
    WHITE = 31
    GREEN = 32
    RED = 33

cdef int FAN_VALUE[82]
FAN_VALUE[:] = [88, 88, 88, 88, 88, 88, 88, 64, 64, 64, 64, 64, 64, 48, 48, 32, 32, 32, 24, 24, 24, 24, 24, 24, 24,
                24, 24, 16, 16, 16, 16, 16, 16, 12, 12, 12, 12, 12, 8, 8, 8, 8, 8, 8, 8, 8, 8, 6, 6, 6, 6, 6, 6, 6,
                4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5]
FAN_VALUES = [FAN_VALUE[i] for i in range(82)]
# the same values as bytes, zero-padded to N_TAB: a total is one dot product of two 96-byte rows
cdef uint8_t FAN_VALUE8[96]
FAN_VALUE8[:] = FAN_VALUES + [0] * (96 - 82)

# the reference's tile order (characters, bamboo, dots, E S W N, Red, Green, White) as a position per kind
cdef uint8_t REF_POS[34]
REF_POS[:] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17,
              27, 28, 29, 30, 33, 32, 31]

# the "not counted" rules, in order: when the first fan counts, the others are cleared (-1 ends a
# row; X_FULLY: Fully Concealed Hand becomes Self-Drawn; X_THREE_PTH: three Pungs of Terminals or
# Honors go, unless All Honors or All Terminals and Honors)
cdef enum:
    X_FULLY = 100
    X_THREE_PTH = 101
    N_EXCL = 29
cdef int8_t EXCL[29][6]
EXCL[:] = [
    [F_BIG_FOUR_WINDS, F_ALL_PUNGS, F_PUNG_OF_TERMINALS_OR_HONORS, -1, -1, -1],
    [F_BIG_THREE_DRAGONS, F_DRAGON_PUNG, -1, -1, -1, -1],
    [F_ALL_GREEN, F_HALF_FLUSH, F_ONE_VOIDED_SUIT, -1, -1, -1],
    [F_FOUR_KONGS, F_SINGLE_WAIT, -1, -1, -1, -1],
    [F_ALL_TERMINALS, F_ALL_PUNGS, F_OUTSIDE_HAND, F_PUNG_OF_TERMINALS_OR_HONORS, F_NO_HONORS, F_DOUBLE_PUNG],
    [F_LITTLE_FOUR_WINDS, F_PUNG_OF_TERMINALS_OR_HONORS, -1, -1, -1, -1],
    [F_LITTLE_THREE_DRAGONS, F_DRAGON_PUNG, -1, -1, -1, -1],
    [F_ALL_HONORS, F_ALL_PUNGS, F_OUTSIDE_HAND, F_PUNG_OF_TERMINALS_OR_HONORS, F_ONE_VOIDED_SUIT, -1],
    [F_FOUR_CONCEALED_PUNGS, F_ALL_PUNGS, F_CONCEALED_HAND, X_FULLY, -1, -1],
    [F_PURE_TERMINAL_CHOWS, F_FULL_FLUSH, F_ALL_CHOWS, F_NO_HONORS, -1, -1],
    [F_FOUR_PURE_SHIFTED_PUNGS, F_ALL_PUNGS, -1, -1, -1, -1],
    [F_ALL_TERMINALS_AND_HONORS, F_ALL_PUNGS, F_OUTSIDE_HAND, F_PUNG_OF_TERMINALS_OR_HONORS, -1, -1],
    [F_ALL_EVEN_PUNGS, F_ALL_PUNGS, F_ALL_SIMPLES, F_NO_HONORS, -1, -1],
    [F_UPPER_TILES, F_NO_HONORS, -1, -1, -1, -1],
    [F_MIDDLE_TILES, F_ALL_SIMPLES, F_NO_HONORS, -1, -1, -1],
    [F_LOWER_TILES, F_NO_HONORS, -1, -1, -1, -1],
    [F_THREE_SUITED_TERMINAL_CHOWS, F_ALL_CHOWS, F_NO_HONORS, -1, -1, -1],
    [F_ALL_FIVE, F_ALL_SIMPLES, F_NO_HONORS, -1, -1, -1],
    [F_UPPER_FOUR, F_NO_HONORS, -1, -1, -1, -1],
    [F_LOWER_FOUR, F_NO_HONORS, -1, -1, -1, -1],
    [F_BIG_THREE_WINDS, X_THREE_PTH, -1, -1, -1, -1],
    [F_REVERSIBLE_TILES, F_ONE_VOIDED_SUIT, -1, -1, -1, -1],
    [F_LAST_TILE_DRAW, F_SELF_DRAWN, -1, -1, -1, -1],
    [F_OUT_WITH_REPLACEMENT_TILE, F_SELF_DRAWN, -1, -1, -1, -1],
    [F_MELDED_HAND, F_SINGLE_WAIT, -1, -1, -1, -1],
    [F_TWO_DRAGONS_PUNGS, F_DRAGON_PUNG, -1, -1, -1, -1],
    [F_FULLY_CONCEALED_HAND, F_SELF_DRAWN, -1, -1, -1, -1],
    [F_ALL_CHOWS, F_NO_HONORS, -1, -1, -1, -1],
    [F_ALL_SIMPLES, F_NO_HONORS, -1, -1, -1, -1],
]

# per 8-byte word of a fan table's first 48 fans: 0xFF in the byte lanes of the rows' first fans
# there (every first fan but those of the last five rows, which are the common ones)
cdef uint64_t RARE_HEAD_LANES[6]


cdef void init_heads() noexcept nogil:
    cdef int r, f
    for r in range(6):
        RARE_HEAD_LANES[r] = 0
    for r in range(N_EXCL - 5):
        f = EXCL[r][0]
        RARE_HEAD_LANES[f // 8] |= (<uint64_t>0xFF) << (8 * (f % 8))


init_heads()
# apply_exclusions relies on this order of the rows (and on the last five only clearing fans)
assert [EXCL[r][0] for r in range(N_EXCL)] == sorted(EXCL[r][0] for r in range(N_EXCL))
assert EXCL[N_EXCL - 6][0] < 48 <= EXCL[N_EXCL - 5][0]
assert all(EXCL[r][j] < 0 or EXCL[r][j] not in [EXCL[q][0] for q in range(N_EXCL)] + [X_FULLY, X_THREE_PTH]
           for r in range(N_EXCL - 5, N_EXCL) for j in range(1, 6))

# kind sets as 34-bit masks (bit k = kind k)
cdef uint64_t M_HONOR = ((<uint64_t>1 << 7) - 1) << 27
cdef uint64_t M_WIND = (<uint64_t>15) << 27
cdef uint64_t M_DRAGON = (<uint64_t>7) << 31
cdef uint64_t M_TERMINAL = (<uint64_t>1 | (<uint64_t>1 << 8) | (<uint64_t>1 << 9) | (<uint64_t>1 << 17)
                            | (<uint64_t>1 << 18) | (<uint64_t>1 << 26))
cdef uint64_t M_GREEN = ((<uint64_t>0b010101110) << 18) | (<uint64_t>1 << 32)       # 23468s, Green
cdef uint64_t M_REVERSIBLE = ((<uint64_t>0b110011111) << 9) | ((<uint64_t>0b110111010) << 18) | (<uint64_t>1 << 31)
cdef uint64_t M_SUIT[4]
M_SUIT[0] = <uint64_t>0x1FF
M_SUIT[1] = (<uint64_t>0x1FF) << 9
M_SUIT[2] = (<uint64_t>0x1FF) << 18
M_SUIT[3] = M_HONOR
cdef uint64_t M_NUMBERS = M_SUIT[0] | M_SUIT[1] | M_SUIT[2]


# ------------------------------------------------------------------------------------------
# tiles

cdef uint8_t SUIT_OF[34]
SUIT_OF[:] = [0] * 9 + [1] * 9 + [2] * 9 + [3] * 7
cdef uint8_t RANK_OF[34]
RANK_OF[:] = list(range(1, 10)) * 3 + [0] * 7


cdef inline int suit_of(int k) noexcept nogil:
    return SUIT_OF[k]


cdef inline int rank_of(int k) noexcept nogil:
    return RANK_OF[k]


cdef inline bint is_honor(int k) noexcept nogil:
    return k >= 27


cdef inline bint is_terminal(int k) noexcept nogil:
    return k < 27 and (k % 9 == 0 or k % 9 == 8)


cdef inline bint is_wind(int k) noexcept nogil:
    return 27 <= k <= 30


cdef inline bint is_dragon(int k) noexcept nogil:
    return k >= 31


# per set (a chow's lowest tile / a pung's, kong's or pair's tile): whether it makes Outside Hand
# (a terminal or honor), All Five (a 5), All Even Pungs (an even rank), as nibble counters (1, 1 << 4,
# 1 << 8) that a whole hand sums without carries; indexed [set code: 0 none, 1 chow, 2 pung or
# pair, 3 kong][tile]
cdef uint16_t SET_TRAITS[4][34]
# the fan a pung (or kong) counts by its tile: Dragon Pung, Pung of Terminals or Honors, or F_SINK
cdef uint8_t PUNG_FAN[34]


cdef void init_set_tables() noexcept nogil:
    cdef int t, r
    for t in range(34):
        r = rank_of(t)
        SET_TRAITS[0][t] = SET_TRAITS[1][t] = 0
        if t < 27 and r <= 7:
            SET_TRAITS[1][t] = (r == 1 or r == 7) | ((3 <= r <= 5) << 4)
        if t >= 27:
            SET_TRAITS[2][t] = 1
            PUNG_FAN[t] = F_DRAGON_PUNG if t >= 31 else F_PUNG_OF_TERMINALS_OR_HONORS
        else:
            SET_TRAITS[2][t] = (r == 1 or r == 9) | ((r == 5) << 4) | ((r % 2 == 0) << 8)
            PUNG_FAN[t] = F_PUNG_OF_TERMINALS_OR_HONORS if r == 1 or r == 9 else F_SINK
        SET_TRAITS[3][t] = SET_TRAITS[2][t]


init_set_tables()


cdef extern from * nogil:
    """
    /* Zero a 96-byte fan table: gcc turns memset of this size into `rep stos`, whose start-up
       costs more than the six 16-byte stores. */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline void mcr_zero96(void* p) {
        __m128i z = _mm_setzero_si128();
        char* q = (char*)p;
        _mm_storeu_si128((__m128i*)(q + 0), z);
        _mm_storeu_si128((__m128i*)(q + 16), z);
        _mm_storeu_si128((__m128i*)(q + 32), z);
        _mm_storeu_si128((__m128i*)(q + 48), z);
        _mm_storeu_si128((__m128i*)(q + 64), z);
        _mm_storeu_si128((__m128i*)(q + 80), z);
    }
    #else
    static inline void mcr_zero96(void* p) { memset(p, 0, 96); }
    #endif
    """
    void zero_table "mcr_zero96"(int8_t* table)


# counts as byte lanes (SWAR): a word holds 8 kinds' counts (0..4), so a whole hand is 5 words
cdef inline uint64_t lane_bits(uint64_t x) noexcept nogil:
    """Bit i = byte lane i of x, whose lanes hold 0 or 1 (one multiply gathers the 8 lanes)."""
    return (x * 0x0102040810204080ULL) >> 56


cdef inline uint64_t lanes_nonzero(uint64_t x) noexcept nogil:
    """1 in each byte lane of x holding 1..4, 0 where it holds 0."""
    return ((x + 0x7F7F7F7F7F7F7F7FULL) >> 7) & 0x0101010101010101ULL


cdef inline void add_lanes(uint64_t* w, int k, uint64_t lanes) noexcept nogil:
    """Add lanes (up to 3 byte lanes) to the byte-lane words w from kind k's lane on; the lanes
    past a word's end go to the next word (w has a spare word at the end)."""
    cdef int s = 8 * (k & 7)
    w[k >> 3] += lanes << s
    w[(k >> 3) + 1] += (lanes >> 1) >> (63 - s)


cdef inline void kind_masks(const uint8_t* c, uint64_t* nonzero, uint64_t* odd, uint64_t* four) noexcept nogil:
    """The 34-bit masks of the kinds c (40 bytes readable, bytes 34-39 zero) holds at all, an odd
    number of times, four times."""
    cdef uint64_t w, nz = 0, od = 0, fo = 0
    cdef int i
    for i in range(5):
        w = mj_load64(c + 8 * i)
        nz |= lane_bits(lanes_nonzero(w)) << (8 * i)
        od |= lane_bits(w & 0x0101010101010101ULL) << (8 * i)
        fo |= lane_bits((w >> 2) & 0x0101010101010101ULL) << (8 * i)      # 4 is the only count with bit 2
    nonzero[0] = nz
    odd[0] = od
    four[0] = fo


# ------------------------------------------------------------------------------------------
# the standard shape with any copies (for waits: exhausted kinds and fifth copies count)

cdef int suit_shape(int* c) noexcept nogil:
    """Bits for 9 counts of one suit (any copies): 1 = splits into sets only, 2 = into sets + one
    pair."""
    cdef int i = 0, r = 0, s
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return 1
    if c[i] >= 3:
        c[i] -= 3
        r |= suit_shape(c)
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        r |= suit_shape(c)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2 and not (r & 2):
        c[i] -= 2
        s = suit_shape(c)
        c[i] += 2
        if s & 1:
            r |= 2
    return r


cdef bint is_standard_any(const int* counts) noexcept nogil:
    """Whether counts (34, any copies) split into sets and exactly one pair."""
    cdef int c[9]
    cdef int shapes[10]
    cdef int s, j, k, i, ok
    for s in range(3):
        for j in range(9):
            c[j] = counts[9 * s + j]
        shapes[s] = suit_shape(c)
    for k in range(7):
        j = counts[27 + k] % 3
        shapes[3 + k] = 1 if j == 0 else (2 if j == 2 else 0)
    for i in range(10):
        if not shapes[i]:
            return False
    for i in range(10):
        if not (shapes[i] & 2):
            continue
        ok = 1
        for j in range(10):
            if j != i and not (shapes[j] & 1):
                ok = 0
                break
        if ok:
            return True
    return False


cdef uint64_t SUIT_BITS = (<uint64_t>0x1FF) | ((<uint64_t>0x1FF) << 9) | ((<uint64_t>0x1FF) << 18)
# shifting a kind set up by one (two) within its suit: the kinds that may not move up
cdef uint64_t NOT_TOP1 = SUIT_BITS & ~((<uint64_t>1 << 8) | (<uint64_t>1 << 17) | (<uint64_t>1 << 26))
cdef uint64_t NOT_TOP2 = NOT_TOP1 & ~((<uint64_t>1 << 7) | (<uint64_t>1 << 16) | (<uint64_t>1 << 25))
cdef uint64_t NOT_BOT1 = SUIT_BITS & ~((<uint64_t>1) | (<uint64_t>1 << 9) | (<uint64_t>1 << 18))
cdef uint64_t NOT_BOT2 = NOT_BOT1 & ~((<uint64_t>1 << 1) | (<uint64_t>1 << 10) | (<uint64_t>1 << 19))


cdef bint unique_wait(const uint8_t* h, uint64_t held, uint64_t odd, uint64_t four, int win, bint seven_pairs,
                      const mj_tables_t* T) noexcept nogil:
    """Whether the tiles h (34 counts, 40 bytes readable, bytes 34-39 zero; held, odd, four: the
    kinds it holds, an odd number of times, four times) without one copy of the winning tile win
    wait on exactly one kind (win itself, which completes them) under the standard shape and,
    with seven_pairs, the seven-pairs shape; exhausted kinds count, fifth copies too. (The
    winning tile is taken out arithmetically, not from a copy of h: a copy changed byte-wise and
    read back as words stalls on store forwarding.)"""
    cdef int x, k, s, v, c_win = h[win], sw = SUIT_OF[win]
    cdef uint32_t code[4]
    cdef int val[4]
    cdef int c[34]
    cdef uint64_t near, bit = (<uint64_t>1) << win
    if c_win == 1:
        held &= ~bit
    elif c_win == 4:
        four &= ~bit
    odd ^= bit
    if seven_pairs and mj_popcount64(odd) == 1 and odd != bit:
        return False            # seven pairs complete only by the one kind held an odd number of times
    # a standard completion puts the new kind in a set or the pair with tiles already held
    near = (held | ((held & NOT_TOP1) << 1) | ((held & NOT_TOP2) << 2) | ((held & NOT_BOT1) >> 1)
            | ((held & NOT_BOT2) >> 2))
    near &= ~bit
    # each suit's shape code (base 5, as the tables index them): one more tile of kind x changes one
    # code by a power of 5
    code[0] = mj_base5_8(mj_load64(h)) + h[8] * POW5[8]
    code[1] = mj_base5_8(mj_load64(h + 9)) + h[17] * POW5[8]
    code[2] = mj_base5_8(mj_load64(h + 18)) + h[26] * POW5[8]
    code[3] = mj_base5_8(mj_load64(h + 26) >> 8)
    code[sw] -= POW5[win - 9 * sw]
    val[0] = win_value(T.suit_win, code[0])
    val[1] = win_value(T.suit_win, code[1])
    val[2] = win_value(T.suit_win, code[2])
    val[3] = win_value(T.honor_win, code[3])
    # a new tile of suit s completes nothing while another suit splits into neither sets nor
    # sets + pair: try only the suits whose others all split
    for s in range(4):
        v = 1
        for k in range(4):
            if k != s:
                v *= val[k]
        if v == 0:
            near &= ~M_SUIT[s]
    while near:
        x = mj_ctz64(near)
        near &= near - 1
        if (four >> x) & 1:
            # a fifth copy is beyond the base-5 codes: the plain recursion decides (rare)
            for k in range(34):
                c[k] = h[k]
            c[win] -= 1
            c[x] += 1
            if is_standard_any(c):
                return False
            continue
        s = SUIT_OF[x]
        v = win_value(T.honor_win if s == 3 else T.suit_win, code[s] + POW5[x - 9 * s])
        for k in range(4):
            if k != s:
                v *= val[k]
        if v == 2:
            return False
    return True


# ------------------------------------------------------------------------------------------
# decompositions

ctypedef struct split_t:
    uint32_t key             # the sets' sort keys (REF_POS * 2 + (0 pung, 1 chow)) ascending, 7 bits
                             # each, the first the highest: the reference's order of splits is
                             # the order of these numbers (all splits of a hand have as many sets)
    uint8_t n                # sets (chows and pungs) formed from the standing tiles
    uint8_t pair
    uint8_t kind[4]          # G_CHOW / G_PUNG
    uint8_t tile[4]          # a chow's lowest tile, a pung's tile


ctypedef struct splits_t:
    int n
    uint8_t order[MAX_SPLITS]    # split indices in the reference's order
    split_t s[MAX_SPLITS]


cdef inline void add_split(splits_t* out, const uint8_t* kinds, const uint8_t* tiles, int n, int pair) noexcept nogil:
    """Record one split (its key is computed only when there are several)."""
    cdef split_t* sp
    if out.n >= MAX_SPLITS:
        return
    sp = &out.s[out.n]
    out.n += 1
    sp.n = <uint8_t>n
    sp.pair = <uint8_t>pair
    memcpy(sp.kind, kinds, 4)
    memcpy(sp.tile, tiles, 4)


cdef void set_key(split_t* sp) noexcept nogil:
    """The split's key: its sets' keys sorted, packed."""
    cdef int keys[4]
    cdef int i, j, kk
    cdef uint32_t key = 0
    for i in range(sp.n):
        kk = REF_POS[sp.tile[i]] * 2 + (sp.kind[i] == G_CHOW)
        j = i                                  # insertion sort of the keys
        while j > 0 and keys[j - 1] > kk:
            keys[j] = keys[j - 1]
            j -= 1
        keys[j] = kk
    for i in range(4):
        key = (key << 7) | <uint32_t>(keys[i] if i < sp.n else 0)
    sp.key = key


cdef uint64_t CHOW_STARTS = (<uint64_t>0x7F) | ((<uint64_t>0x7F) << 9) | ((<uint64_t>0x7F) << 18)   # ranks 1-7


cdef void split_rec(uint8_t* c, uint64_t rem, uint8_t* kinds, uint8_t* tiles, int n, int pair,
                    splits_t* out) noexcept nogil:
    """Splits of the number tiles c holds of the kinds in rem (the kinds below are used up) after
    the sets kinds/tiles[0..n) and the pair. Every tile of the lowest kind k left starts a group
    there: the pair and/or a pung, and chows k, k+1, k+2 for the tiles left, so each split is
    reached exactly once (no duplicates to remove)."""
    cdef int k, v
    if rem == 0:
        if pair >= 0:
            add_split(out, kinds, tiles, n, pair)
        return
    k = mj_ctz64(rem)
    rem &= rem - 1
    v = c[k]
    if v >= 2 and pair < 0:
        chows_then(c, rem, kinds, tiles, n, k, k, v - 2, out)
    if v >= 3:
        kinds[n] = G_PUNG
        tiles[n] = <uint8_t>k
        chows_then(c, rem, kinds, tiles, n + 1, pair, k, v - 3, out)
    chows_then(c, rem, kinds, tiles, n, pair, k, v, out)


cdef inline void chows_then(uint8_t* c, uint64_t rem, uint8_t* kinds, uint8_t* tiles, int n, int pair, int k,
                            int m, splits_t* out) noexcept nogil:
    """m chows k, k+1, k+2 (when the tiles are there), then the splits of the rest."""
    cdef int i
    if m == 0:
        split_rec(c, rem, kinds, tiles, n, pair, out)
        return
    if not (CHOW_STARTS >> k) & 1 or c[k + 1] < m or c[k + 2] < m:
        return
    c[k + 1] -= m
    c[k + 2] -= m
    rem &= ~((<uint64_t>(c[k + 1] == 0) << (k + 1)) | (<uint64_t>(c[k + 2] == 0) << (k + 2)))
    for i in range(m):
        kinds[n + i] = G_CHOW
        tiles[n + i] = <uint8_t>k
    split_rec(c, rem, kinds, tiles, n + m, pair, out)
    c[k + 1] += m
    c[k + 2] += m


cdef void splits_of(const uint8_t* counts, uint64_t held, splits_t* out) noexcept nogil:
    """Every split of counts (40 bytes readable; held: the kinds it holds) into sets and one pair,
    and their order (out.order) as the reference visits them."""
    cdef uint8_t c[40]
    cdef uint8_t kinds[5]
    cdef uint8_t tiles[5]
    cdef uint64_t honors
    cdef int i, j, k, n = 0, pair = -1
    out.n = 0
    memcpy(c, counts, 40)
    # an honor makes a pung (3 copies) or the pair (2), and 1 or 4 copies split nowhere: no search
    honors = held & M_HONOR
    while honors:
        k = mj_ctz64(honors)
        honors &= honors - 1
        if c[k] == 3:
            kinds[n] = G_PUNG
            tiles[n] = <uint8_t>k
            n += 1
        elif c[k] == 2 and pair < 0:
            pair = k
        else:
            return
    split_rec(c, held & M_NUMBERS, kinds, tiles, n, pair, out)
    out.order[0] = 0
    if out.n < 2:
        return
    for i in range(out.n):
        set_key(&out.s[i])
    for i in range(out.n):                     # insertion sort by key (a few splits)
        j = i
        while j > 0 and out.s[out.order[j - 1]].key > out.s[i].key:
            out.order[j] = out.order[j - 1]
            j -= 1
        out.order[j] = <uint8_t>i


# ------------------------------------------------------------------------------------------
# the hand being scored

ctypedef struct ctx_t:
    uint8_t standing[40]      # standing tiles with the winning tile, per kind; bytes 34-39 zero
    uint8_t declared[40]      # tiles of the declared sets, per kind; bytes 34-39 zero
    uint64_t held             # kinds among the standing tiles (34-bit masks)
    uint64_t present          # kinds in the hand (standing or declared)
    uint64_t four             # kinds held four times (standing and declared)
    uint64_t odd_kinds        # kinds held an odd number of times among the standing tiles
    uint64_t four_standing    # kinds held four times among the standing tiles
    int distinct              # kinds among the standing tiles
    int odd                   # kinds held an odd number of times among the standing tiles
    int n_decl
    uint8_t decl_kind[4]      # G_CHOW / G_PUNG / G_KONG
    uint8_t decl_tile[4]
    uint8_t decl_exposed[4]
    # the declared sets as every split sees them
    int n_dchow
    int n_dpung
    int dchow[4]              # chows (lowest tile)
    int dpung[4]              # pungs and kongs
    int d_concealed_pungs     # concealed pungs among them (not kongs)
    int d_win_pungs           # concealed pungs and kongs of the winning tile
    bint d_chow_covers        # a concealed chow holds the winning tile
    int d_traits              # their SET_TRAITS, summed
    int melded_kongs
    int concealed_kongs
    int hog                   # Tile Hog: kinds held four times outside a kong
    int win
    int self_drawn
    int last_tile
    int kong
    int last_of_wall
    int seat_wind
    int prevalent_wind
    int unique                # -1: not known yet
    int judge2018             # the 2018 calculator (the Botzone judge's): knitted-straight waits, ties
    const mj_tables_t* T
    int8_t base[N_TAB]        # the fans every split counts (prepare_base)


cdef bint ctx_unique_wait(ctx_t* x, bint second) noexcept nogil:
    """Whether the standing tiles without the winning tile wait on it alone (computed once per
    hand). A split may already show a second wait, so that no kind needs trying: the winning
    tile in a pung (the pair's kind completes too: a pung of it and the winning tile's pair), or
    at the end of a chow that could shift away from it (4-5-6 won on the 4 also takes the 7)."""
    if x.unique < 0:
        x.unique = 0 if second else unique_wait(x.standing, x.held, x.odd_kinds, x.four_standing, x.win,
                                                x.n_decl == 0, x.T)
    return x.unique


# the suit fans by which of the five groups (characters, dots, bamboo, winds, dragons: bits 0-4) the
# hand holds, up to three adds each (F_SINK fills): Full / Half Flush, No Honors, One Voided Suit
# (once per missing suit), All Types; and the rank fans of a hand without honors by its ranks
# (bits 0-8 = ranks 1-9): Lower / Middle / Upper Tiles, Lower / Upper Four
cdef uint8_t SUIT_FANS[32][3]
cdef uint8_t RANK_FAN[512]


cdef void init_trait_tables() noexcept nogil:
    cdef int g, n_suits, missing, m, j, ranks
    cdef bint honors
    for g in range(32):
        for j in range(3):
            SUIT_FANS[g][j] = F_SINK
        n_suits = (g & 1) + ((g >> 1) & 1) + ((g >> 2) & 1)
        honors = (g & 0b11000) != 0
        missing = 3 - n_suits
        m = 0
        if missing == 2:
            SUIT_FANS[g][m] = F_HALF_FLUSH if honors else F_FULL_FLUSH
            m += 1
        else:
            if not honors:
                SUIT_FANS[g][m] = F_NO_HONORS
                m += 1
            for j in range(missing):           # 3 for an all-honors hand: All Honors clears them
                SUIT_FANS[g][m] = F_ONE_VOIDED_SUIT
                m += 1
        if g == 31:
            SUIT_FANS[g][m] = F_ALL_TYPES
    for g in range(512):
        ranks = g << 1                         # bit r = rank r
        RANK_FAN[g] = F_SINK
        if (ranks & ~0b11110) == 0:            # ranks within 1-4
            RANK_FAN[g] = F_LOWER_FOUR if ranks & (1 << 4) else F_LOWER_TILES
        elif (ranks & ~0b1111000000) == 0:     # 6-9
            RANK_FAN[g] = F_UPPER_FOUR if ranks & (1 << 6) else F_UPPER_TILES
        elif (ranks & ~0b1110000) == 0:        # 4-6
            RANK_FAN[g] = F_MIDDLE_TILES


init_trait_tables()


cdef void add_traits(const ctx_t* x, int8_t* table) noexcept nogil:
    """The suit, trait and rank fans of the kinds present (34-bit masks, table lookups: random
    hands make these tests unpredictable branches)."""
    cdef uint64_t p = x.present
    cdef int groups, simples, honors_only, terminals_only, outside_only
    cdef const uint8_t* f
    groups = (((p & M_SUIT[0]) != 0) | (((p & M_SUIT[1]) != 0) << 1) | (((p & M_SUIT[2]) != 0) << 2)
              | (((p & M_WIND) != 0) << 3) | (((p & M_DRAGON) != 0) << 4))
    f = SUIT_FANS[groups]
    table[f[0]] += 1
    table[f[1]] += 1
    table[f[2]] += 1
    simples = (p & (M_TERMINAL | M_HONOR)) == 0
    honors_only = (p & ~M_HONOR) == 0
    terminals_only = (p & ~M_TERMINAL) == 0
    outside_only = (p & ~(M_TERMINAL | M_HONOR)) == 0
    table[F_ALL_SIMPLES] += simples
    table[F_REVERSIBLE_TILES] += (p & ~M_REVERSIBLE) == 0
    table[F_ALL_GREEN] += (p & ~M_GREEN) == 0
    table[F_ALL_HONORS] += honors_only
    table[F_ALL_TERMINALS] += terminals_only
    table[F_ALL_TERMINALS_AND_HONORS] += outside_only & ((honors_only | terminals_only) ^ 1)
    # ranks (number tiles only)
    table[RANK_FAN[(p | (p >> 9) | (p >> 18)) & 0x1FF] if groups < 8 else F_SINK] += 1


cdef inline int fan_total(const int8_t* t) noexcept nogil:
    """Sum of value x count over a fan table: a fixed-length byte dot product, vectorised in 16-bit
    lanes (a hand's total is a few hundred at most)."""
    cdef int i
    cdef int16_t s = 0
    for i in range(N_TAB):
        s += <int16_t>(FAN_VALUE8[i] * t[i])
    return s


# ------------------------------------------------------------------------------------------
# set-combination fans

cdef int two_chows(int a, int b) noexcept nogil:
    if suit_of(a) != suit_of(b):
        return F_MIXED_DOUBLE_CHOW if rank_of(a) == rank_of(b) else NONE
    if a - b == 3 or b - a == 3:
        return F_SHORT_STRAIGHT
    if (rank_of(a) == 1 and rank_of(b) == 7) or (rank_of(a) == 7 and rank_of(b) == 1):
        return F_TWO_TERMINAL_CHOWS
    if a == b:
        return F_PURE_DOUBLE_CHOW
    return NONE


cdef inline void sort3(int* r) noexcept nogil:
    cdef int t
    if r[0] > r[1]:
        t = r[0]; r[0] = r[1]; r[1] = t
    if r[1] > r[2]:
        t = r[1]; r[1] = r[2]; r[2] = t
    if r[0] > r[1]:
        t = r[0]; r[0] = r[1]; r[1] = t


cdef int three_chows(int a, int b, int c) noexcept nogil:
    cdef int r[3]
    cdef int sa = suit_of(a), sb = suit_of(b), sc = suit_of(c), d1, d2
    r[0] = rank_of(a); r[1] = rank_of(b); r[2] = rank_of(c)
    sort3(r)
    if sa != sb and sb != sc and sa != sc:
        if r[1] == r[0] + 1 and r[2] == r[1] + 1:
            return F_MIXED_SHIFTED_CHOWS
        if r[0] == r[2]:
            return F_MIXED_TRIPLE_CHOW
        if r[0] == 1 and r[1] == 4 and r[2] == 7:
            return F_MIXED_STRAIGHT
        return NONE
    if sa == sb and sb == sc:
        d1 = r[1] - r[0]
        d2 = r[2] - r[1]
        if d1 == 3 and d2 == 3:
            return F_PURE_STRAIGHT
        if d1 == d2 and (d1 == 1 or d1 == 2):
            return F_PURE_SHIFTED_CHOWS
        if d1 == 0 and d2 == 0:
            return F_PURE_TRIPLE_CHOW
    return NONE


cdef int four_chows(const int* t) noexcept nogil:
    cdef int r[4]
    cdef int i, j, x, s = suit_of(t[0]), d
    for i in range(4):
        if suit_of(t[i]) != s:
            return NONE
        r[i] = rank_of(t[i])
    for i in range(1, 4):                      # sort the 4 ranks
        x = r[i]
        j = i
        while j > 0 and r[j - 1] > x:
            r[j] = r[j - 1]
            j -= 1
        r[j] = x
    d = r[1] - r[0]
    if r[2] - r[1] != d or r[3] - r[2] != d:
        return NONE
    if d == 1 or d == 2:
        return F_FOUR_PURE_SHIFTED_CHOWS
    if d == 0:
        return F_QUADRUPLE_CHOW
    return NONE


cdef void cap_pairwise(const int* fans, int n, int cap, int8_t* table) noexcept nogil:
    """Add the pairwise chow fans (n of them; anything else, NONE or F_SINK, skipped), keeping at
    most cap: while over it, first cut repeated fans to one each, then drop fans, both times Two
    Terminal Chows first, then Short Straight, Mixed Double Chow, Pure Double Chow (the fans
    F_PURE_DOUBLE_CHOW + 3 down to + 0)."""
    cdef int cnt[4]
    cdef int i, j, total = 0, keep, d
    for j in range(4):
        cnt[j] = 0
    for i in range(n):
        j = fans[i] - F_PURE_DOUBLE_CHOW
        if 0 <= j < 4:
            cnt[j] += 1
            total += 1
    for keep in range(1, -1, -1):
        for j in range(3, -1, -1):
            d = cnt[j] - keep                  # as many as the cap asks, and this fan allows
            if d > total - cap:
                d = total - cap
            if d > 0:
                cnt[j] -= d
                total -= d
    for j in range(4):
        table[F_PURE_DOUBLE_CHOW + j] += cnt[j]


# the chow fans by lookup (their branches mispredict on random hands): a chow by index
# (suit * 7 + rank - 1); the fan of two chows; the fans of three chows: a three-chow fan, or up to
# two pairwise fans after the cap (F_SINK where none)
cdef int8_t CHOW_OF[27]
cdef int8_t CHOW_PAIR[21 * 21]
cdef int8_t CHOW_TRIO[21 * 21 * 21][2]


cdef void init_chow_tables() noexcept nogil:
    cdef int a, b, c, f, i, m, ta, tb, tc
    cdef int fans[3]
    cdef int8_t tmp[N_TAB]
    cdef int8_t* e
    for a in range(27):
        CHOW_OF[a] = (a // 9) * 7 + a % 9 if a % 9 <= 6 else -1
    for a in range(21):
        ta = (a // 7) * 9 + a % 7
        for b in range(21):
            tb = (b // 7) * 9 + b % 7
            f = two_chows(ta, tb)
            CHOW_PAIR[21 * a + b] = f if f != NONE else F_SINK
            for c in range(21):
                tc = (c // 7) * 9 + c % 7
                e = CHOW_TRIO[(21 * a + b) * 21 + c]
                e[0] = e[1] = F_SINK
                f = three_chows(ta, tb, tc)
                if f != NONE:
                    e[0] = f
                    continue
                fans[0] = two_chows(ta, tb)
                fans[1] = two_chows(ta, tc)
                fans[2] = two_chows(tb, tc)
                memset(tmp, 0, N_TAB)
                cap_pairwise(fans, 3, 2, tmp)
                m = 0
                for i in range(N_FANS):
                    while tmp[i] > 0:
                        e[m] = i
                        m += 1
                        tmp[i] -= 1


cdef inline int chow_pair(int a, int b) noexcept nogil:
    return CHOW_PAIR[21 * CHOW_OF[a] + CHOW_OF[b]]


cdef inline const int8_t* chow_trio(int a, int b, int c) noexcept nogil:
    return CHOW_TRIO[(21 * CHOW_OF[a] + CHOW_OF[b]) * 21 + CHOW_OF[c]]


cdef void chow_fans(const int* chows, int n, int8_t* table) noexcept nogil:
    """Fans among n (2-4) chows (their lowest tiles)."""
    cdef int o[4]
    cdef int trio[3]
    cdef int fans[6]
    cdef int i, j, x, f, rest, m, cap, p
    cdef uint64_t linked
    cdef int pa[6]
    cdef int pb[6]
    cdef const int8_t* e
    if n == 2:
        table[chow_pair(chows[0], chows[1])] += 1
        return
    if n == 3:
        e = chow_trio(chows[0], chows[1], chows[2])
        table[e[0]] += 1
        table[e[1]] += 1
        return
    # four chows: which three count first depends on the order (the reference's code of the
    # middle tile); with three chows or fewer every fan is symmetric in them
    for i in range(4):
        x = chows[i]
        j = i
        while j > 0 and REF_POS[o[j - 1] + 1] > REF_POS[x + 1]:
            o[j] = o[j - 1]
            j -= 1
        o[j] = x
    f = four_chows(o)
    if f != NONE:
        table[f] += 1
        return
    for rest in range(3, -1, -1):
        m = 0
        for i in range(4):
            if i != rest:
                trio[m] = o[i]
                m += 1
        f = chow_trio(trio[0], trio[1], trio[2])[0]
        if f < F_PURE_DOUBLE_CHOW:             # a three-chow fan (not a pairwise one, not F_SINK)
            table[f] += 1
            for j in range(F_PURE_DOUBLE_CHOW, F_TWO_TERMINAL_CHOWS + 1):
                for i in range(3):             # at most one more, in the pairwise priority
                    if chow_pair(trio[i], o[rest]) == j:
                        table[j] += 1
                        return
            return
    p = 0
    for i in range(4):
        for j in range(i + 1, 4):
            pa[p] = i
            pb[p] = j
            fans[p] = chow_pair(o[i], o[j])
            p += 1
    linked = 0                                 # the chows in some pairwise fan
    for p in range(6):
        linked |= (fans[p] != F_SINK) * ((1 << pa[p]) | (1 << pb[p]))
    cap = 3 - (4 - mj_popcount64(linked))      # 3 minus the chows in none
    if cap > 0:
        cap_pairwise(fans, 6, cap, table)


cdef int two_pungs(int a, int b) noexcept nogil:
    if not is_honor(a) and not is_honor(b):
        return F_DOUBLE_PUNG if rank_of(a) == rank_of(b) else NONE
    if is_dragon(a) and is_dragon(b):
        return F_TWO_DRAGONS_PUNGS
    return NONE


cdef int three_pungs(int a, int b, int c) noexcept nogil:
    cdef int r[3]
    cdef int sa, sb, sc
    cdef bint consecutive
    if not is_honor(a) and not is_honor(b) and not is_honor(c):
        r[0] = rank_of(a); r[1] = rank_of(b); r[2] = rank_of(c)
        sort3(r)
        sa = suit_of(a); sb = suit_of(b); sc = suit_of(c)
        consecutive = r[1] == r[0] + 1 and r[2] == r[1] + 1
        if sa != sb and sb != sc and sa != sc:
            if consecutive:
                return F_MIXED_SHIFTED_PUNGS
            if r[0] == r[2]:
                return F_TRIPLE_PUNG
        elif sa == sb and sb == sc and consecutive:
            return F_PURE_SHIFTED_PUNGS
        return NONE
    if is_wind(a) and is_wind(b) and is_wind(c):
        return F_BIG_THREE_WINDS
    if is_dragon(a) and is_dragon(b) and is_dragon(c):
        return F_BIG_THREE_DRAGONS
    return NONE


cdef int four_pungs(const int* t) noexcept nogil:
    cdef int i, s = suit_of(t[0]), lo = 99, hi = -1, r, mask = 0
    cdef bint numbers = True, winds = True
    for i in range(4):
        if is_honor(t[i]) or suit_of(t[i]) != s:
            numbers = False
        if not is_wind(t[i]):
            winds = False
    if numbers:
        for i in range(4):
            r = rank_of(t[i])
            mask |= 1 << r
            lo = r if r < lo else lo
            hi = r if r > hi else hi
        if hi - lo == 3 and mask == (15 << lo):
            return F_FOUR_PURE_SHIFTED_PUNGS
    if winds:
        return F_BIG_FOUR_WINDS
    return NONE


cdef void pung_fans(const int* pungs, int n, int8_t* table) noexcept nogil:
    """Fans among n (2-4) pungs and kongs (their tiles)."""
    cdef int o[4]
    cdef int trio[3]
    cdef int i, j, x, f, rest, m, g
    if n < 4:                                  # every fan of 2-3 pungs is symmetric in them
        for i in range(n):
            o[i] = pungs[i]
    else:                                      # which three count first: the reference's order
        for i in range(4):
            x = pungs[i]
            j = i
            while j > 0 and REF_POS[o[j - 1]] > REF_POS[x]:
                o[j] = o[j - 1]
                j -= 1
            o[j] = x
        f = four_pungs(o)
        if f != NONE:
            table[f] += 1
            return
        for rest in range(3, -1, -1):
            m = 0
            for i in range(4):
                if i != rest:
                    trio[m] = o[i]
                    m += 1
            f = three_pungs(trio[0], trio[1], trio[2])
            if f != NONE:
                table[f] += 1
                for i in range(3):             # the fourth combines with one of the three at most
                    g = two_pungs(trio[i], o[rest])
                    if g != NONE:
                        table[g] += 1
                        break
                return
    if n == 3:
        f = three_pungs(o[0], o[1], o[2])
        if f != NONE:
            table[f] += 1
            return
    for i in range(n):
        for j in range(i + 1, n):
            g = two_pungs(o[i], o[j])
            if g != NONE:
                table[g] += 1


# ------------------------------------------------------------------------------------------
# whole-hand fans

cdef inline void situation_fans(const ctx_t* x, int8_t* table) noexcept nogil:
    """The fans of the situation (the flags are 0 or 1 and unpredictable: arithmetic, not
    branches). Robbing the Kong drops Last Tile."""
    cdef int sd = x.self_drawn, lw = x.last_of_wall, kg = x.kong
    table[F_LAST_TILE] += x.last_tile & (sd | (kg ^ 1))
    table[F_LAST_TILE_DRAW] += sd & lw
    table[F_OUT_WITH_REPLACEMENT_TILE] += sd & kg
    table[F_SELF_DRAWN] += sd & ((lw | kg) ^ 1)
    table[F_LAST_TILE_CLAIM] += (sd ^ 1) & lw
    table[F_ROBBING_THE_KONG] += (sd ^ 1) & kg


cdef void apply_row(int8_t* table, int r) noexcept nogil:
    cdef int j, f
    for j in range(1, 6):
        f = EXCL[r][j]
        if f < 0:
            break
        if f == X_FULLY:
            if table[F_FULLY_CONCEALED_HAND]:
                table[F_FULLY_CONCEALED_HAND] = 0
                table[F_SELF_DRAWN] = 1
        elif f == X_THREE_PTH:
            if not table[F_ALL_HONORS] and not table[F_ALL_TERMINALS_AND_HONORS]:
                table[F_PUNG_OF_TERMINALS_OR_HONORS] -= 3
        else:
            table[f] = 0


cdef void apply_exclusions(int8_t* table) noexcept nogil:
    """The "not counted" rules in their order: a row runs when its first fan counts (an earlier row
    may have cleared it). Most hands count none of the first fans but those of the last five rows
    (Melded Hand, Two Dragons Pungs, Fully Concealed Hand, All Chows, All Simples), which only
    clear fans that start no row: then those five apply in any order, without branches."""
    cdef uint64_t rare = 0
    cdef int r, i
    for i in range(6):
        rare |= mj_load64(<uint8_t*>table + 8 * i) & RARE_HEAD_LANES[i]
    if rare:
        for r in range(N_EXCL):
            if table[EXCL[r][0]]:
                apply_row(table, r)
        return
    table[F_SINGLE_WAIT] *= table[F_MELDED_HAND] == 0
    table[F_DRAGON_PUNG] *= table[F_TWO_DRAGONS_PUNGS] == 0
    table[F_SELF_DRAWN] *= table[F_FULLY_CONCEALED_HAND] == 0
    table[F_NO_HONORS] *= (table[F_ALL_CHOWS] == 0) & (table[F_ALL_SIMPLES] == 0)


cdef void wind_fans(const int* wind_pungs, int n, const ctx_t* x, int8_t* table) noexcept nogil:
    """Prevalent / Seat Wind per wind pung, each replacing its Pung of Terminals or Honors (unless
    a bigger fan already dropped those)."""
    cdef int i, w
    cdef bint dropped
    for i in range(n):
        dropped = (table[F_BIG_THREE_WINDS] or table[F_ALL_TERMINALS_AND_HONORS] or table[F_ALL_HONORS]
                   or table[F_LITTLE_FOUR_WINDS])
        w = wind_pungs[i] - EAST
        if w == x.prevalent_wind:
            table[F_PREVALENT_WIND] = 1
            if not dropped:
                table[F_PUNG_OF_TERMINALS_OR_HONORS] -= 1
        if w == x.seat_wind:
            table[F_SEAT_WIND] = 1
            if x.seat_wind != x.prevalent_wind and not dropped:
                table[F_PUNG_OF_TERMINALS_OR_HONORS] -= 1


cdef void prepare_base(ctx_t* x) noexcept nogil:
    """The fans that do not depend on the split, counted once per hand: the situation, suits,
    traits and ranks, the kongs (declared only), Concealed / Fully Concealed / Melded Hand."""
    cdef int8_t* table = x.base
    cdef int kongs = x.melded_kongs + x.concealed_kongs, exposed = 0, i
    zero_table(table)
    situation_fans(x, table)
    add_traits(x, table)
    if kongs == 3:
        table[F_THREE_KONGS] += 1
    elif kongs == 4:
        table[F_FOUR_KONGS] += 1
    elif kongs == 1:
        table[F_MELDED_KONG if x.melded_kongs else F_CONCEALED_KONG] += 1
    elif kongs == 2:
        if x.melded_kongs == 2:
            table[F_TWO_MELDED_KONGS] += 1
        elif x.melded_kongs == 1:
            table[F_CONCEALED_KONG_AND_MELDED_KONG] += 1
        else:
            table[F_TWO_CONCEALED_KONGS] += 1
    for i in range(x.n_decl):
        exposed += x.decl_exposed[i]
    if exposed == 0:
        table[F_FULLY_CONCEALED_HAND if x.self_drawn else F_CONCEALED_HAND] += 1
    elif exposed == 4 and not x.self_drawn:
        table[F_MELDED_HAND] += 1


# ------------------------------------------------------------------------------------------
# one standard decomposition

cdef uint8_t HIDDEN_FAN[5]
HIDDEN_FAN[:] = [F_SINK, F_SINK, F_TWO_CONCEALED_PUNGS, F_THREE_CONCEALED_PUNGS, F_FOUR_CONCEALED_PUNGS]


cdef int score_standard(ctx_t* x, const split_t* sp, int8_t* table) noexcept nogil:
    """Fans of one decomposition (declared sets + the split's sets + its pair) into table (the
    base table plus what the sets add); returns the total."""
    cdef int chows[5]                          # one spare: a set is written to both lists, kept in one
    cdef int pungs[5]
    cdef int winds[4]
    cdef int nc = x.n_dchow, np_ = x.n_dpung, nw = 0, i, j, t, r, s, win = x.win, pair = sp.pair
    cdef int concealed_pungs = x.d_concealed_pungs, win_pungs = x.d_win_pungs, hidden, wait, pung
    cdef int traits = x.d_traits, r1, r7, cs_ok, edge = 0, closed = 0, second = 0
    cdef bint chow_covers = x.d_chow_covers
    memcpy(table, x.base, N_TAB)
    memcpy(chows, x.dchow, sizeof(x.dchow))
    memcpy(pungs, x.dpung, sizeof(x.dpung))
    for i in range(sp.n):                      # the split's sets, without branches on their kind
        t = sp.tile[i]
        pung = sp.kind[i]                      # G_PUNG == 1, G_CHOW == 0
        chows[nc] = t
        pungs[np_] = t
        nc += pung ^ 1
        np_ += pung
        chow_covers |= (pung ^ 1) & (<unsigned int>(win - t) <= 2)
        edge |= (pung ^ 1) & ((win == t) | (win == t + 2))
        closed |= (pung ^ 1) & (win == t + 1)
        # a second wait this split shows: see ctx_unique_wait
        second |= (pung & (t == win)) | ((pung ^ 1) & (((win == t) & (t % 9 <= 5)) | ((win == t + 2) & (t % 9 >= 1))))
        concealed_pungs += pung
        win_pungs += pung & (t == win)
        traits += SET_TRAITS[1 + pung][t]
    traits += SET_TRAITS[2][pair]

    # on a discard, a concealed pung of the winning tile is exposed unless a concealed chow holds it
    if not x.self_drawn and not chow_covers:
        concealed_pungs -= win_pungs
    # concealed pungs (the kong fans are in the base table); Two Concealed Kongs covers Two
    # Concealed Pungs
    if not (x.melded_kongs == 0 and x.concealed_kongs == 2 and concealed_pungs == 0):
        hidden = concealed_pungs + x.concealed_kongs
        table[HIDDEN_FAN[hidden]] += 1
    if np_ == 4 and not table[F_FOUR_KONGS] and not table[F_FOUR_CONCEALED_PUNGS]:
        table[F_ALL_PUNGS] += 1
    for i in range(np_):
        t = pungs[i]
        table[PUNG_FAN[t]] += 1
        winds[nw] = t
        nw += is_wind(t)

    if nc == 4 and rank_of(pair) == 5:
        r1 = r7 = 0
        for i in range(4):
            r1 += rank_of(chows[i]) == 1
            r7 += rank_of(chows[i]) == 7
        if r1 == 2 and r7 == 2:
            s = suit_of(pair)
            cs_ok = 1                          # the two other suits each hold 123 and 789
            for j in range(3):
                if j == s:
                    continue
                r = 0
                for i in range(4):
                    if suit_of(chows[i]) == j:
                        r += 1 if rank_of(chows[i]) == 1 else 10
                if r != 11:
                    cs_ok = 0
            for i in range(4):
                if suit_of(chows[i]) == s:
                    cs_ok = 0
            if cs_ok:
                table[F_THREE_SUITED_TERMINAL_CHOWS] += 1
            else:
                cs_ok = 1
                for i in range(4):
                    if suit_of(chows[i]) != s:
                        cs_ok = 0
                if cs_ok:
                    table[F_PURE_TERMINAL_CHOWS] += 1
    if not table[F_THREE_SUITED_TERMINAL_CHOWS] and not table[F_PURE_TERMINAL_CHOWS]:
        if nc >= 2:
            chow_fans(chows, nc, table)
        if np_ >= 2:
            pung_fans(pungs, np_, table)

    if nc == 4:
        if not is_honor(pair):
            table[F_ALL_CHOWS] += 1
    elif table[F_TWO_DRAGONS_PUNGS]:
        if is_dragon(pair):
            table[F_LITTLE_THREE_DRAGONS] = 1
            table[F_TWO_DRAGONS_PUNGS] = 0
    elif table[F_BIG_THREE_WINDS]:
        if is_wind(pair):
            table[F_LITTLE_FOUR_WINDS] = 1
            table[F_BIG_THREE_WINDS] = 0

    # Outside Hand / All Five / All Even Pungs: every set and the pair
    if traits & 0xF == 5:
        table[F_OUTSIDE_HAND] += 1
    elif (traits >> 4) & 0xF == 5:
        table[F_ALL_FIVE] += 1
    elif (traits >> 8) & 0xF == 5:
        table[F_ALL_EVEN_PUNGS] += 1

    if not table[F_QUADRUPLE_CHOW]:
        table[F_TILE_HOG] += x.hog

    # the wait this split would credit (Edge > Closed > Single); it counts only when the standing
    # tiles wait on the winning tile alone, a test needed only now
    if not table[F_MELDED_HAND] and not table[F_FOUR_KONGS]:
        # edge / closed: the winning tile at an end / in the middle of a chow of the split
        wait = F_EDGE_WAIT if edge else (F_CLOSED_WAIT if closed else (F_SINGLE_WAIT if pair == win else NONE))
        if wait != NONE and ctx_unique_wait(x, second):
            table[wait] += 1

    apply_exclusions(table)
    if not table[F_BIG_FOUR_WINDS]:
        wind_fans(winds, nw, x, table)
    t = fan_total(table)
    if t == 0:                                 # nothing counted (no count is ever negative)
        table[F_CHICKEN_HAND] = 1
        t = FAN_VALUE[F_CHICKEN_HAND]
    return t


# ------------------------------------------------------------------------------------------
# special forms (each fills table and returns 1 on a match)

cdef int seven_pairs_form(ctx_t* x, int8_t* table) noexcept nogil:
    """Seven pairs (x.odd == 0, no melds): Seven Shifted Pairs when the pairs are seven
    consecutive kinds of one suit, each held twice."""
    cdef int s = suit_of(x.win), lo
    cdef uint64_t in_suit
    zero_table(table)
    if s < 3:
        in_suit = (x.held >> (9 * s)) & 0x1FF
        lo = mj_ctz64(in_suit)
        if in_suit == (<uint64_t>0x7F) << lo and ((x.four >> (9 * s)) & 0x1FF) == 0:
            table[F_SEVEN_SHIFTED_PAIRS] += 1
            if lo == 1:
                table[F_ALL_SIMPLES] += 1
            situation_fans(x, table)
            return 1
    table[F_SEVEN_PAIRS] += 1
    add_traits(x, table)
    table[F_TILE_HOG] += mj_popcount64(x.four)
    situation_fans(x, table)
    apply_exclusions(table)
    return 1


cdef int KNITTED[6][9]
cdef uint64_t KNITTED_MASK[6]


cdef void init_knitted() noexcept nogil:
    cdef int p, s, r, m
    cdef int perms[6][3]
    perms[0][0] = 0; perms[0][1] = 1; perms[0][2] = 2
    perms[1][0] = 0; perms[1][1] = 2; perms[1][2] = 1
    perms[2][0] = 1; perms[2][1] = 0; perms[2][2] = 2
    perms[3][0] = 1; perms[3][1] = 2; perms[3][2] = 0
    perms[4][0] = 2; perms[4][1] = 0; perms[4][2] = 1
    perms[5][0] = 2; perms[5][1] = 1; perms[5][2] = 0
    for p in range(6):
        m = 0
        KNITTED_MASK[p] = 0
        for s in range(3):
            r = perms[p][s]
            while r < 9:
                KNITTED[p][m] = 9 * s + r
                KNITTED_MASK[p] |= (<uint64_t>1) << (9 * s + r)
                m += 1
                r += 3


init_knitted()
init_chow_tables()


cdef int honors_knitted_form(ctx_t* x, int8_t* table) noexcept nogil:
    """14 different kinds, 7-9 of them number tiles of one knitted straight."""
    cdef int p, nums = mj_popcount64(x.present & M_NUMBERS), ok = 0
    if mj_popcount64(x.present) != 14 or nums < 7 or nums > 9:
        return 0
    for p in range(6):
        if (x.present & M_NUMBERS & ~KNITTED_MASK[p]) == 0:
            ok = 1
            break
    if not ok:
        return 0
    zero_table(table)
    if nums == 7:
        table[F_GREATER_HONORS_AND_KNITTED_TILES] += 1
    else:
        table[F_LESSER_HONORS_AND_KNITTED_TILES] += 1
        if nums == 9:
            table[F_KNITTED_STRAIGHT] += 1
    situation_fans(x, table)
    return 1


cdef int thirteen_orphans_form(ctx_t* x, int8_t* table) noexcept nogil:
    if x.present != (M_TERMINAL | M_HONOR):
        return 0
    zero_table(table)
    table[F_THIRTEEN_ORPHANS] = 1
    situation_fans(x, table)
    return 1


cdef inline bint has_knitted(uint64_t held) noexcept nogil:
    cdef int p
    for p in range(6):
        if (held & KNITTED_MASK[p]) == KNITTED_MASK[p]:
            return True
    return False


cdef int knitted_straight_form(ctx_t* x, int8_t* table, splits_t* sp) noexcept nogil:
    """Knitted straight (in the standing tiles) + one set (standing, or the only meld) + pair."""
    cdef int p = -1, q, j, k, pair, fkind, ftile, fexp, win = x.win, r
    cdef uint8_t rest[40]
    cdef uint64_t held, odd, four
    cdef const int* ks
    for q in range(6):
        if (x.held & KNITTED_MASK[q]) == KNITTED_MASK[q]:
            p = q
            break
    if p < 0:
        return 0
    ks = KNITTED[p]
    memcpy(rest, x.standing, 40)
    for j in range(9):
        rest[ks[j]] -= 1
    kind_masks(rest, &held, &odd, &four)
    splits_of(rest, held, sp)
    if sp.n != 1:
        return 0
    pair = sp.s[0].pair
    if x.n_decl:
        fkind = x.decl_kind[0]
        ftile = x.decl_tile[0]
        fexp = x.decl_exposed[0]
    else:
        fkind = sp.s[0].kind[0]
        ftile = sp.s[0].tile[0]
        fexp = 0
    zero_table(table)
    table[F_KNITTED_STRAIGHT] = 1
    if fkind == G_CHOW:
        if not is_honor(pair):
            table[F_ALL_CHOWS] += 1
        if x.standing[pair] + x.declared[pair] == 4:
            table[F_TILE_HOG] += 1
    elif is_wind(ftile):
        table[F_PUNG_OF_TERMINALS_OR_HONORS] += 1
        wind_fans(&ftile, 1, x, table)
        if is_dragon(pair):
            table[F_ALL_TYPES] += 1
    elif is_dragon(ftile):
        table[F_DRAGON_PUNG] += 1
        if is_wind(pair):
            table[F_ALL_TYPES] += 1
    else:
        if is_terminal(ftile):
            table[F_PUNG_OF_TERMINALS_OR_HONORS] += 1
        if not is_honor(pair):
            table[F_NO_HONORS] += 1
        if fkind != G_KONG and x.standing[ftile] + x.declared[ftile] == 4:
            table[F_TILE_HOG] += 1
    situation_fans(x, table)
    if fexp:
        if fkind == G_KONG:
            table[F_MELDED_KONG] += 1
    else:
        if fkind == G_KONG:
            table[F_CONCEALED_KONG] += 1
        if x.self_drawn:
            table[F_FULLY_CONCEALED_HAND] += 1
            table[F_SELF_DRAWN] = 0
        else:
            table[F_CONCEALED_HAND] += 1
    if not x.n_decl:
        # the wait test looks at the 5 tiles outside the knitted straight only (the 2018
        # calculator: no wait at all when the winning tile is one of the knitted nine)
        if rest[win] and not (x.judge2018 and (KNITTED_MASK[p] >> win) & 1):
            if unique_wait(rest, held, odd, four, win, False, x.T):
                if fkind == G_CHOW and (win == ftile or win == ftile + 2):
                    table[F_EDGE_WAIT] += 1
                elif fkind == G_CHOW and win == ftile + 1:
                    table[F_CLOSED_WAIT] += 1
                elif pair == win:
                    table[F_SINGLE_WAIT] += 1
    else:
        r = <int>((KNITTED_MASK[p] >> win) & 1)
        # 2018: Single Wait whenever the winning tile is outside the knitted nine, never inside
        if not r or (x.standing[win] == 3 and not x.judge2018):
            table[F_SINGLE_WAIT] += 1
    apply_exclusions(table)
    return 1


cdef int nine_gates_form(ctx_t* x, int8_t* table) noexcept nogil:
    """1112345678999 of the winning tile's suit plus the winning tile (the caller checked that
    every kind is of that suit)."""
    cdef int s = suit_of(x.win), k, r, want
    if x.n_decl or s == 3:
        return 0
    for r in range(9):
        k = 9 * s + r
        want = 3 if (r == 0 or r == 8) else 1
        if x.standing[k] - (k == x.win) != want:
            return 0
    zero_table(table)
    table[F_NINE_GATES] = 1
    r = rank_of(x.win)
    if r == 1 or r == 9:
        table[F_PURE_STRAIGHT] += 1
        table[F_TILE_HOG] += 1
    elif r == 2 or r == 8:
        table[F_TWO_CONCEALED_PUNGS] += 1
        table[F_SHORT_STRAIGHT] += 1
        table[F_PUNG_OF_TERMINALS_OR_HONORS] += 1
    elif r == 5:
        table[F_TWO_CONCEALED_PUNGS] += 1
        table[F_PUNG_OF_TERMINALS_OR_HONORS] += 1
    else:
        table[F_SHORT_STRAIGHT] += 1
    situation_fans(x, table)
    return 1


# ------------------------------------------------------------------------------------------
# the entry point

# a declared set by its code in fan_batch's rows (1 + MK_*): its tiles as byte lanes from its first
# tile
cdef uint8_t SET_OK[4][256]     # [set code][tile byte]: 1 when the slot is a valid set (code 0: an empty slot, any tile)
for _k in range(256):
    SET_OK[0][_k] = 1
    SET_OK[1][_k] = _k < 27 and _k % 9 <= 6
    SET_OK[2][_k] = SET_OK[3][_k] = _k < 34


cdef uint64_t LANES_5 = 0x7B7B7B7B7B7B7B7BULL    # added to byte lanes below 128: a lane's top bit is set iff it held 5+


cdef inline bint row_prechecked(const uint8_t* melds) noexcept nogil:
    """The checks of a fan_batch row's sets that must come before load_row reads them: kind 0-3
    with a tile 0-33 (a chow's lowest of ranks 1-7 of a suit; any tile in an empty slot) and
    exposed 0/1 (load_row then checks the counts, the totals -- at most 4 copies -- and the size)."""
    cdef uint32_t c0 = melds[0], c1 = melds[3], c2 = melds[6], c3 = melds[9]
    cdef uint32_t sets_ok = (SET_OK[c0 & 3][melds[1]] & SET_OK[c1 & 3][melds[4]] & SET_OK[c2 & 3][melds[7]]
                             & SET_OK[c3 & 3][melds[10]])
    return sets_ok and (c0 | c1 | c2 | c3) <= 3 and (melds[2] | melds[5] | melds[8] | melds[11]) <= 1


cdef uint64_t SET_LANES[4]
SET_LANES[:] = [0, 0x010101, 3, 4]


cdef inline bint load_row(ctx_t* x, const uint8_t* hand, const uint8_t* melds, const int32_t* flags,
                          const mj_tables_t* T, bint check) noexcept nogil:
    """The hand (one row of fan_batch's input) in ctx form: counts, kind masks, the declared sets
    as every split sees them, the corrected flags. The counts are built as words of byte lanes and
    stored whole (byte stores read back as words would stall on store forwarding); the sets are
    read without branches on their kind (unpredictable)."""
    cdef int j, code, tile, win = flags[0], chow, pung, kong, conc, m = 0, any_kong = 0
    cdef int traits = 0
    cdef uint64_t w[5]
    cdef uint64_t d[6]
    cdef uint64_t held = 0, odd = 0, present_kinds = 0, four = 0, four_standing = 0, t
    x.T = T
    x.win = win
    x.unique = -1
    x.judge2018 = 0
    for j in range(4):
        w[j] = mj_load64(hand + 8 * j)
        d[j] = 0
    w[4] = hand[32] | (<uint64_t>hand[33] << 8)
    d[4] = d[5] = 0
    # (score_row_checked) a count of 64 or more: refused before the winning tile and the sets are
    # added; below that every lane of the totals stays below 64 + 17, so that adding 0x7B to each
    # lane (further on) carries into no other lane and sets its top bit exactly when it holds 5+
    if check and ((w[0] | w[1] | w[2] | w[3] | w[4]) & 0xC0C0C0C0C0C0C0C0ULL):
        return False
    w[win >> 3] += (<uint64_t>1) << (8 * (win & 7))
    x.n_dchow = x.n_dpung = 0
    x.d_concealed_pungs = x.d_win_pungs = 0
    x.d_chow_covers = False
    x.melded_kongs = x.concealed_kongs = 0
    for j in range(4):
        code = melds[3 * j]
        if code == 0:                          # an empty slot (its tile may be anything)
            continue
        chow = code == 1
        pung = code == 2
        kong = code == 3
        tile = melds[3 * j + 1]
        conc = melds[3 * j + 2] == 0
        x.decl_kind[m] = <uint8_t>(code - 1)
        x.decl_tile[m] = <uint8_t>tile
        x.decl_exposed[m] = <uint8_t>(conc ^ 1)
        m += 1
        add_lanes(d, tile, SET_LANES[code])
        x.dchow[x.n_dchow] = tile              # written to both lists, kept in one
        x.dpung[x.n_dpung] = tile
        x.n_dchow += chow
        x.n_dpung += pung | kong
        any_kong |= kong
        x.melded_kongs += kong & (conc ^ 1)
        x.concealed_kongs += kong & conc
        x.d_concealed_pungs += pung & conc
        x.d_win_pungs += (pung | kong) & conc & (tile == win)
        x.d_chow_covers |= chow & conc & (<unsigned int>(win - tile) <= 2)
        traits += SET_TRAITS[code][tile]
    x.n_decl = m
    x.d_traits = traits
    if check:       # (score_row_checked)
        # at most 4 copies of a kind with the winning tile and the sets; 13 - 3 per set in hand
        if ((((w[0] + d[0] + LANES_5) | (w[1] + d[1] + LANES_5) | (w[2] + d[2] + LANES_5) | (w[3] + d[3] + LANES_5)
                | (w[4] + d[4] + LANES_5)) & 0x8080808080808080ULL)
                or <int>mj_lane_sum(w[0] + w[1] + w[2] + w[3] + w[4]) != 14 - 3 * m):
            return False
    for j in range(5):
        mj_store64(x.standing + 8 * j, w[j])
        mj_store64(x.declared + 8 * j, d[j])
        held |= lane_bits(lanes_nonzero(w[j])) << (8 * j)
        odd |= lane_bits(w[j] & 0x0101010101010101ULL) << (8 * j)
        four_standing |= lane_bits((w[j] >> 2) & 0x0101010101010101ULL) << (8 * j)
        t = w[j] + d[j]                        # standing + declared (no carries: <= 4)
        present_kinds |= lane_bits(lanes_nonzero(t)) << (8 * j)
        four |= lane_bits((t >> 2) & 0x0101010101010101ULL) << (8 * j)
    x.held = held
    x.odd_kinds = odd
    x.four_standing = four_standing
    x.present = present_kinds
    x.four = four
    x.distinct = mj_popcount64(held)
    x.odd = mj_popcount64(odd)
    x.hog = mj_popcount64(four) - x.melded_kongs - x.concealed_kongs
    x.self_drawn = flags[1] != 0
    x.last_of_wall = flags[4] != 0
    x.seat_wind = flags[5]
    x.prevalent_wind = flags[6]
    # flag corrections
    x.last_tile = (flags[2] != 0 and x.standing[win] == 1) or x.declared[win] == 3
    x.kong = flags[3] != 0
    if x.kong and x.self_drawn and not any_kong:
        x.kong = 0
    if x.kong and not x.self_drawn and (x.declared[win] or x.standing[win] != 1):
        x.kong = 0
    return True


cdef int mcr_fan(const fan_in_t* inp, fan_out_t* out, const mj_tables_t* T) noexcept nogil:
    """Score one hand (valid input: the wrapper checks it) into out; returns out.total
    (FAN_NOT_WIN when the hand is not complete)."""
    cdef uint8_t melds[12]
    cdef int32_t flags[8]
    cdef int i
    memset(melds, 0, 12)
    for i in range(inp.n_melds):
        melds[3 * i] = inp.meld_kind[i] + 1
        melds[3 * i + 1] = inp.meld_tile[i]
        melds[3 * i + 2] = inp.meld_exposed[i] != 0
    flags[0] = inp.win
    flags[1] = inp.self_drawn
    flags[2] = inp.fourth_tile
    flags[3] = inp.kong
    flags[4] = inp.last_of_wall
    flags[5] = inp.seat_wind
    flags[6] = inp.prevalent_wind
    flags[7] = inp.flowers
    cdef ctx_t x
    load_row(&x, inp.hand, melds, flags, T, False)
    x.judge2018 = inp.judge2018
    out.total = score_loaded(&x, flags, out.count)
    return out.total


cdef int score_row(const uint8_t* hand, const uint8_t* melds, const int32_t* flags, int8_t* counts,
                   const mj_tables_t* T) noexcept nogil:
    """One hand in fan_batch's row form (see there) scored into counts (N_FANS); returns the
    total. Its locals are private to the calling thread."""
    cdef ctx_t x
    load_row(&x, hand, melds, flags, T, False)
    return score_loaded(&x, flags, counts)


cdef int score_row_checked(const uint8_t* hand, const uint8_t* melds, const int32_t* flags, int8_t* counts,
                           const mj_tables_t* T) noexcept nogil:
    """``score_row`` of a row not checked yet (its flags are: see fan_batch_checked): -1 and zero
    counts when it is not valid input (``row_prechecked``, then the copies and the size on the
    way in load_row)."""
    cdef ctx_t x
    if not row_prechecked(melds) or not load_row(&x, hand, melds, flags, T, True):
        memset(counts, 0, N_FANS)
        return -1
    return score_loaded(&x, flags, counts)


cdef int score_loaded(ctx_t* x, const int32_t* flags, int8_t* counts) noexcept nogil:
    """The fans of the hand load_row put in ``x`` (see score_row)."""
    cdef splits_t sp
    cdef int8_t table[N_TAB]
    cdef int8_t best[N_TAB]
    cdef int i, o, t, best_total = 0, special = 0, seven = 0

    # the special forms (cheap tests first: pairs, distinct kinds, the knitted kinds, one suit)
    if x.n_decl == 0:
        if x.odd == 0:
            special = seven_pairs_form(x, best)
            if special:
                seven = best[F_SEVEN_PAIRS]
        if not special and x.distinct == 14:
            special = honors_knitted_form(x, best)
        if not special and x.distinct == 13:
            special = thirteen_orphans_form(x, best)
    if not special and x.n_decl <= 1 and x.distinct >= 9 and has_knitted(x.held):
        special = knitted_straight_form(x, best, &sp)
    if not special and x.n_decl == 0 and x.win < 27 and (x.present & ~M_SUIT[x.win // 9]) == 0:
        special = nine_gates_form(x, best)
    if special:
        best_total = fan_total(best)
    if not special or seven:
        splits_of(x.standing, x.held, &sp)
        if sp.n:
            prepare_base(x)
        for o in range(sp.n):
            i = sp.order[o]
            t = score_standard(x, &sp.s[i], table)
            # a tie goes to the standard split (2024); the 2018 calculator keeps seven pairs,
            # found first, at an equal total (among standard splits the 2024 preference stays:
            # the judge's order of splits is not reproduced)
            if t > best_total or (t == best_total and not (x.judge2018 and special)
                                  and (seven or table[F_PURE_TRIPLE_CHOW] or table[F_TRIPLE_PUNG])):
                best_total = t
                special = 0
                memcpy(best, table, N_TAB)
    if not best_total:
        memset(counts, 0, N_FANS)
        return FAN_NOT_WIN
    best[F_FLOWER_TILES] = <int8_t>flags[7]
    memcpy(counts, best, N_FANS)
    return best_total + flags[7]


# ------------------------------------------------------------------------------------------
# batch and test entry points

def fan_batch(const uint8_t[:, ::1] hand, const uint8_t[:, ::1] melds, const int32_t[:, ::1] flags,
              int32_t[::1] total, int8_t[:, ::1] counts, int threads):
    """Score hand[i] (34 standing counts without the winning tile) with melds[i] (4 x 3: kind
    MK_* + 1 (0: none), first tile, exposed) and flags[i] (win, self_drawn, fourth_tile, kong,
    last_of_wall, seat_wind, prevalent_wind, flowers) into total[i] and counts[i] (N_FANS)."""
    cdef Py_ssize_t i, n = hand.shape[0]
    cdef const mj_tables_t* T = c_tables()
    if n == 0:
        return
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=256, num_threads=max(threads, 1)):
            total[i] = score_row(&hand[i, 0], &melds[i, 0], &flags[i, 0], &counts[i, 0], T)


def fan_one(const uint8_t[::1] hand, const uint8_t[::1] melds, int win, int self_drawn, int fourth_tile, int kong,
            int last_of_wall, int seat_wind, int prevalent_wind, int flowers, int judge2018=0):
    """One checked hand (mcr.fan's fast path): hand = 34 standing counts without the winning
    tile, melds = 12 bytes as one fan_batch row; judge2018: score as the Botzone judge's 2018
    calculator does (``mcr-botzone``). Returns (total, [(fan index, count) of the fans counted])."""
    cdef int32_t flags[8]
    cdef int8_t counts[N_FANS]
    cdef int total
    cdef ctx_t x
    flags[0] = win
    flags[1] = self_drawn
    flags[2] = fourth_tile
    flags[3] = kong
    flags[4] = last_of_wall
    flags[5] = seat_wind
    flags[6] = prevalent_wind
    flags[7] = flowers
    cdef int i
    load_row(&x, &hand[0], &melds[0], flags, c_tables(), False)
    x.judge2018 = judge2018
    total = score_loaded(&x, flags, counts)
    return total, [(i, counts[i]) for i in range(N_FANS) if counts[i]]


def fan_batch_checked(const uint8_t[:, ::1] hand, const uint8_t[:, ::1] melds, const int32_t[:, ::1] flags,
                      int32_t[::1] total, int8_t[:, ::1] counts, int threads):
    """``fan_batch`` with the checks of mcr.fan_batch on the hands and sets fused into the same
    pass (``score_row_checked``: counts 0-4, valid sets, 13 - 3 per set concealed tiles, at most 4
    copies of a kind with the winning tile and the sets). The flags must be valid (the winning
    tile 0-33, the four flags 0/1, the winds 0-3, flowers 0-8): the wrapper checks those columns,
    once for a scalar. Returns True when every row was valid; on False some row was not (its
    output is zero), and the caller's checks name the first one."""
    cdef Py_ssize_t i, n = hand.shape[0]
    cdef const mj_tables_t* T = c_tables()
    cdef int bad = 0, t
    if n == 0:
        return True
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=256, num_threads=max(threads, 1)):
            t = score_row_checked(&hand[i, 0], &melds[i, 0], &flags[i, 0], &counts[i, 0], T)
            if t < 0:
                t = 0
                bad |= 1
            total[i] = t
    return not bad
