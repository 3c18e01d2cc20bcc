# cython: language_level=3
"""The Chinese Official (MCR) fan calculator without the GIL (private; the Python front is
mjfast.mcr).

It scores a winning hand as PyMahjongGB 1.4.0 does, total and fan list (tests/oracles/mcr_fan.py
is the plain-Python specification, checked against that reference on a million hands; this
kernel is checked against the specification). The steps:

1. Flag corrections (Last Tile and the kong flag, as the reference corrects them).
2. Special forms, the first match final: seven pairs (no melds), honors and knitted tiles,
   thirteen orphans, the knitted straight (0 or 1 meld), nine gates.
3. Standard decompositions (when no special form matched, or plain Seven Pairs did): every split
   of the standing tiles into sets and a pair is scored and the highest total kept; a later one
   of equal total replaces it only with Pure Triple Chow or Triple Pung (or when Seven Pairs was
   the special form), visiting the splits in the reference's order.
4. Flowers, one fan each, added last (a hand worth only flowers is not a win).

Tile kinds: mjfast's (0-8 m, 9-17 p, 18-26 s, 27-30 E S W N, 31 White, 32 Green, 33 Red).
"""
import numpy as np
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint8_t, int8_t, int32_t, uint32_t, uint64_t
from libc.string cimport memset, memcpy

from mjfast._core cimport mj_tables_t, mj_get_tables
from mjfast._kernels.hand cimport win_value, POW5
from mjfast._kernels.bits cimport mj_load64, mj_base5_8, mj_ctz64

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
    G_CHOW = 0
    G_PUNG = 1
    G_KONG = 2
    G_PAIR = 3
    MAX_SPLITS = 64
    EAST = 27
    WHITE = 31
    GREEN = 32
    RED = 33

cdef int FAN_VALUE[82]
FAN_VALUE[:] = [88, 88, 88, 88, 88, 88, 88, 64, 64, 64, 64, 64, 64, 48, 48, 32, 32, 32, 24, 24, 24, 24, 24, 24, 24,
                24, 24, 16, 16, 16, 16, 16, 16, 12, 12, 12, 12, 12, 8, 8, 8, 8, 8, 8, 8, 8, 8, 6, 6, 6, 6, 6, 6, 6,
                4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5]

# the reference's tile order (characters, bamboo, dots, E S W N, Red, Green, White) as a position per kind
cdef int REF_POS[34]
REF_POS[:] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17,
              27, 28, 29, 30, 33, 32, 31]

# the "not counted" rules, in order: when the first fan counts, the others are cleared (-1 ends a
# row; X_FULLY: Fully Concealed Hand becomes Self-Drawn; X_THREE_PTH: three Pungs of Terminals or
# Honors go, unless All Honors or All Terminals and Honors)
cdef enum:
    X_FULLY = 100
    X_THREE_PTH = 101
    N_EXCL = 29
cdef int EXCL[29][6]
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

FAN_VALUES = [FAN_VALUE[i] for i in range(82)]

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


# ------------------------------------------------------------------------------------------
# tiles

cdef int SUIT_OF[34]
SUIT_OF[:] = [0] * 9 + [1] * 9 + [2] * 9 + [3] * 7
cdef int RANK_OF[34]
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


cdef inline bint is_green(int k) noexcept nogil:
    # 2 3 4 6 8 of bamboo and the Green dragon
    return k == GREEN or (18 <= k <= 26 and (k - 18) in (1, 2, 3, 5, 7))


cdef inline bint is_reversible(int k) noexcept nogil:
    # 1234589 of dots, 245689 of bamboo, White
    if 9 <= k <= 17:
        return (k - 9) in (0, 1, 2, 3, 4, 7, 8)
    if 18 <= k <= 26:
        return (k - 18) in (1, 3, 4, 5, 7, 8)
    return k == WHITE


# ------------------------------------------------------------------------------------------
# the standard shape with any copies (for waits: exhausted kinds count)

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
    cdef int s, j, k, pairs_ok = 0, i, ok
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


cdef bint unique_wait(const uint8_t* h, bint seven_pairs, int win, const mj_tables_t* T) noexcept nogil:
    """Whether the standing tiles without the winning tile (h: 34 counts, 40 bytes readable) wait
    on exactly one kind (win itself, which completes them) under the standard shape and, with
    seven_pairs, the seven-pairs shape; exhausted kinds count."""
    cdef int x, k, s, odd = 0, odd_kind = -1, v
    cdef uint32_t code[4]
    cdef int val[4]
    cdef int c[34]
    cdef uint64_t held = 0, near, w, big = 0
    for k in range(5):
        w = mj_load64(h + 8 * k) if k < 4 else mj_load64(h + 26)
        big |= (w + 0x7C7C7C7C7C7C7C7CULL) & 0x8080808080808080ULL       # a lane above 3
    for k in range(34):
        if h[k]:
            held |= (<uint64_t>1) << k
            if h[k] & 1:
                odd += 1
                odd_kind = k
    if seven_pairs and odd == 1 and odd_kind != win:
        return False            # seven pairs complete only by the one kind held an odd number of times
    # a standard completion puts the new kind in a set or the pair with tiles already held
    near = (held | ((held & NOT_TOP1) << 1) | ((held & NOT_TOP2) << 2) | ((held & NOT_BOT1) >> 1)
            | ((held & NOT_BOT2) >> 2))
    near &= ~((<uint64_t>1) << win)
    if big == 0:
        # each suit's shape code (base 5, as the tables index them): one more tile of kind x
        # changes one code by a power of 5
        code[0] = mj_base5_8(mj_load64(h)) + h[8] * POW5[8]
        code[1] = mj_base5_8(mj_load64(h + 9)) + h[17] * POW5[8]
        code[2] = mj_base5_8(mj_load64(h + 18)) + h[26] * POW5[8]
        code[3] = mj_base5_8(mj_load64(h + 26) >> 8)
        val[0] = win_value(T.suit_win, code[0])
        val[1] = win_value(T.suit_win, code[1])
        val[2] = win_value(T.suit_win, code[2])
        val[3] = win_value(T.honor_win, code[3])
        while near:
            x = mj_ctz64(near)
            near &= near - 1
            if x < 27:
                s = x // 9
                v = win_value(T.suit_win, code[s] + POW5[x - 9 * s])
            else:
                s = 3
                v = win_value(T.honor_win, code[3] + POW5[x - 27])
            for k in range(4):
                if k != s:
                    v *= val[k]
            if v == 2:
                return False
        return True
    for k in range(34):
        c[k] = h[k]
    while near:
        x = mj_ctz64(near)
        near &= near - 1
        c[x] += 1
        v = is_standard_any(c)
        c[x] -= 1
        if v:
            return False
    return True


# ------------------------------------------------------------------------------------------
# decompositions

ctypedef struct split_t:
    int n                    # sets (chows and pungs) formed from the standing tiles
    int kind[4]
    int tile[4]
    int pair
    int key[4]               # sort key of each set: REF_POS * 2 + (0 pung, 1 chow), ascending


ctypedef struct splits_t:
    int n
    split_t s[MAX_SPLITS]


cdef void add_split(splits_t* out, int* kinds, int* tiles, int n, int pair) noexcept nogil:
    """Record one split (sets sorted by the reference's key), unless already there."""
    cdef split_t sp
    cdef int i, j, kk, tt, key, m
    sp.n = n
    sp.pair = pair
    for i in range(n):
        sp.kind[i] = kinds[i]
        sp.tile[i] = tiles[i]
        sp.key[i] = REF_POS[tiles[i]] * 2 + (0 if kinds[i] == G_PUNG else 1)
    for i in range(1, n):                      # insertion sort by key
        j = i
        while j > 0 and sp.key[j - 1] > sp.key[j]:
            key = sp.key[j]; sp.key[j] = sp.key[j - 1]; sp.key[j - 1] = key
            kk = sp.kind[j]; sp.kind[j] = sp.kind[j - 1]; sp.kind[j - 1] = kk
            tt = sp.tile[j]; sp.tile[j] = sp.tile[j - 1]; sp.tile[j - 1] = tt
            j -= 1
    for m in range(out.n):
        if out.s[m].pair != pair:
            continue
        for i in range(n):
            if out.s[m].key[i] != sp.key[i]:
                break
        else:
            return
    if out.n < MAX_SPLITS:
        out.s[out.n] = sp
        out.n += 1


cdef void split_rec(int* c, int k, int* kinds, int* tiles, int n, int pair, splits_t* out) noexcept nogil:
    """Splits of c (kinds below k are used up) after the sets kinds/tiles[0..n) and the pair."""
    while k < 34 and c[k] == 0:
        k += 1
    if k == 34:
        if pair >= 0:
            add_split(out, kinds, tiles, n, pair)
        return
    if c[k] >= 2 and pair < 0:
        c[k] -= 2
        split_rec(c, k, kinds, tiles, n, k, out)
        c[k] += 2
    if c[k] >= 3:
        c[k] -= 3
        kinds[n] = G_PUNG
        tiles[n] = k
        split_rec(c, k, kinds, tiles, n + 1, pair, out)
        c[k] += 3
    if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
        c[k] -= 1
        c[k + 1] -= 1
        c[k + 2] -= 1
        kinds[n] = G_CHOW
        tiles[n] = k
        split_rec(c, k, kinds, tiles, n + 1, pair, out)
        c[k] += 1
        c[k + 1] += 1
        c[k + 2] += 1


cdef int split_cmp(const split_t* a, const split_t* b) noexcept nogil:
    cdef int i
    for i in range(a.n):
        if a.key[i] != b.key[i]:
            return -1 if a.key[i] < b.key[i] else 1
    return 0


cdef void splits_of(const int* counts, splits_t* out) noexcept nogil:
    """Every split of counts into sets and one pair, in the reference's order."""
    cdef int c[34]
    cdef int kinds[5]
    cdef int tiles[5]
    cdef int i, j, n = 0
    cdef split_t tmp
    out.n = 0
    for i in range(34):
        c[i] = counts[i]
        n += c[i]
    if n % 3 != 2:
        return
    split_rec(c, 0, kinds, tiles, 0, -1, out)
    for i in range(1, out.n):
        j = i
        while j > 0 and split_cmp(&out.s[j - 1], &out.s[j]) > 0:
            tmp = out.s[j]
            out.s[j] = out.s[j - 1]
            out.s[j - 1] = tmp
            j -= 1


# ------------------------------------------------------------------------------------------
# the hand being scored

ctypedef struct ctx_t:
    int standing[34]          # standing tiles with the winning tile
    int declared_counts[34]
    int n_decl
    int decl_kind[4]          # G_CHOW / G_PUNG / G_KONG
    int decl_tile[4]
    int decl_exposed[4]
    int win
    int self_drawn
    int last_tile
    int kong
    int last_of_wall
    int seat_wind
    int prevalent_wind
    int unique                # -1: not computed yet
    const mj_tables_t* T
    # what depends only on the tiles present, not on the decomposition (computed once)
    int n_trait               # the suit, trait and rank fans: trait_fan[i] counts trait_val[i] times
    int trait_fan[12]
    int trait_val[12]
    int fours                 # kinds held four times (standing and melds)
    uint64_t present          # kinds in the hand (standing or melds)
    int distinct              # kinds in the standing tiles
    int odd                   # kinds held an odd number of times in the standing tiles


cdef bint ctx_unique_wait(ctx_t* x) noexcept nogil:
    cdef uint8_t before[40]
    cdef int k
    if x.unique < 0:
        for k in range(34):
            before[k] = <uint8_t>x.standing[k]
        for k in range(34, 40):
            before[k] = 0
        before[x.win] -= 1
        x.unique = unique_wait(before, x.n_decl == 0, x.win, x.T)
    return x.unique


cdef inline void trait_add(ctx_t* x, int f, int v) noexcept nogil:
    x.trait_fan[x.n_trait] = f
    x.trait_val[x.n_trait] = v
    x.n_trait += 1


cdef void prepare_traits(ctx_t* x) noexcept nogil:
    """The suit, trait and rank fans of the tiles present (as suit_fans, trait_fans and
    rank_fans count them, on 34-bit masks), and the kinds held four times."""
    cdef uint64_t p = x.present
    cdef int n_suits = 0, missing, ranks
    cdef bint honors = (p & M_HONOR) != 0, simples
    x.n_trait = 0
    # suits
    n_suits = ((p & M_SUIT[0]) != 0) + ((p & M_SUIT[1]) != 0) + ((p & M_SUIT[2]) != 0)
    missing = 3 - n_suits
    if missing == 2:
        trait_add(x, F_HALF_FLUSH if honors else F_FULL_FLUSH, 1)
    else:
        if not honors:
            trait_add(x, F_NO_HONORS, 1)
        if missing:
            trait_add(x, F_ONE_VOIDED_SUIT, missing)
    if n_suits == 3 and (p & M_WIND) and (p & M_DRAGON):
        trait_add(x, F_ALL_TYPES, 1)
    # traits
    simples = (p & (M_TERMINAL | M_HONOR)) == 0
    if simples:
        trait_add(x, F_ALL_SIMPLES, 1)
    if (p & ~M_REVERSIBLE) == 0:
        trait_add(x, F_REVERSIBLE_TILES, 1)
    if (p & ~M_GREEN) == 0:
        trait_add(x, F_ALL_GREEN, 1)
    if not simples:
        if (p & ~M_HONOR) == 0:
            trait_add(x, F_ALL_HONORS, 1)
        elif (p & ~M_TERMINAL) == 0:
            trait_add(x, F_ALL_TERMINALS, 1)
        elif (p & ~(M_TERMINAL | M_HONOR)) == 0:
            trait_add(x, F_ALL_TERMINALS_AND_HONORS, 1)
    # ranks (number tiles only)
    if not honors:
        ranks = <int>(((p & M_SUIT[0]) | ((p & M_SUIT[1]) >> 9) | ((p & M_SUIT[2]) >> 18)) << 1)
        if (ranks & ~0b11110) == 0:
            trait_add(x, F_LOWER_FOUR if ranks & (1 << 4) else F_LOWER_TILES, 1)
        elif (ranks & ~0b1111000000) == 0:
            trait_add(x, F_UPPER_FOUR if ranks & (1 << 6) else F_UPPER_TILES, 1)
        elif (ranks & ~0b1110000) == 0:
            trait_add(x, F_MIDDLE_TILES, 1)


cdef inline void add_traits(const ctx_t* x, int* table) noexcept nogil:
    cdef int i
    for i in range(x.n_trait):
        table[x.trait_fan[i]] += x.trait_val[i]


cdef inline int fan_total(const int* t) noexcept nogil:
    cdef int i, s = 0
    for i in range(N_FANS):
        s += FAN_VALUE[i] * t[i]
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


cdef int PAIRWISE[4]
PAIRWISE[:] = [F_PURE_DOUBLE_CHOW, F_MIXED_DOUBLE_CHOW, F_SHORT_STRAIGHT, F_TWO_TERMINAL_CHOWS]


cdef void cap_pairwise(const int* fans, int n, int cap, int* table) noexcept nogil:
    """Add the pairwise chow fans (n of them, NONE skipped), keeping at most cap: while over it,
    first cut repeated fans to one each, then drop fans, both times Two Terminal Chows first,
    then Short Straight, Mixed Double Chow, Pure Double Chow."""
    cdef int cnt[4]
    cdef int i, j, total = 0, keep
    for j in range(4):
        cnt[j] = 0
    for i in range(n):
        for j in range(4):
            if fans[i] == PAIRWISE[j]:
                cnt[j] += 1
                total += 1
    for keep in range(1, -1, -1):
        for j in range(3, -1, -1):
            while total > cap and cnt[j] > keep:
                cnt[j] -= 1
                total -= 1
    for j in range(4):
        table[PAIRWISE[j]] += cnt[j]


cdef void chow_fans(const int* chows, int n, int* table) noexcept nogil:
    """Fans among n (2-4) chows (their lowest tiles)."""
    cdef int o[4]
    cdef int trio[3]
    cdef int fans[6]
    cdef int i, j, x, f, rest, m, lonely, cap, g, p
    cdef int pa[6]
    cdef int pb[6]
    for i in range(n):                         # ordered by the reference's code of the middle tile
        x = chows[i]
        j = i
        while j > 0 and REF_POS[o[j - 1] + 1] > REF_POS[x + 1]:
            o[j] = o[j - 1]
            j -= 1
        o[j] = x
    if n == 4:
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
            f = three_chows(trio[0], trio[1], trio[2])
            if f != NONE:
                table[f] += 1
                for j in range(4):             # at most one more, in the pairwise priority
                    for i in range(3):
                        if two_chows(trio[i], o[rest]) == PAIRWISE[j]:
                            table[PAIRWISE[j]] += 1
                            return
                return
        p = 0
        for i in range(4):
            for j in range(i + 1, 4):
                pa[p] = i
                pb[p] = j
                fans[p] = two_chows(o[i], o[j])
                p += 1
        lonely = 0
        for i in range(4):
            g = 1
            for j in range(6):
                if (pa[j] == i or pb[j] == i) and fans[j] != NONE:
                    g = 0
            lonely += g
        cap = 3 - lonely
        if cap > 0:
            cap_pairwise(fans, 6, cap, table)
        return
    if n == 3:
        f = three_chows(o[0], o[1], o[2])
        if f != NONE:
            table[f] += 1
            return
        fans[0] = two_chows(o[0], o[1])
        fans[1] = two_chows(o[0], o[2])
        fans[2] = two_chows(o[1], o[2])
        cap_pairwise(fans, 3, 2, table)
        return
    if n == 2:
        f = two_chows(chows[0], chows[1])
        if f != NONE:
            table[f] += 1


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


cdef void pung_fans(const int* pungs, int n, int* table) noexcept nogil:
    """Fans among n (2-4) pungs and kongs (their tiles)."""
    cdef int o[4]
    cdef int trio[3]
    cdef int i, j, x, f, rest, m, g
    for i in range(n):
        x = pungs[i]
        j = i
        while j > 0 and REF_POS[o[j - 1]] > REF_POS[x]:
            o[j] = o[j - 1]
            j -= 1
        o[j] = x
    if n == 4:
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


cdef void kong_fans(int melded, int concealed, int concealed_pungs, int* table) noexcept nogil:
    """Kong fans and concealed-pung fans (concealed_pungs excludes the concealed kongs)."""
    cdef int kongs = melded + concealed, hidden
    if kongs == 3:
        table[F_THREE_KONGS] += 1
    elif kongs == 4:
        table[F_FOUR_KONGS] += 1
    elif kongs == 1:
        table[F_MELDED_KONG if melded else F_CONCEALED_KONG] += 1
    elif kongs == 2:
        if melded == 2:
            table[F_TWO_MELDED_KONGS] += 1
        elif melded == 1:
            table[F_CONCEALED_KONG_AND_MELDED_KONG] += 1
        else:
            table[F_TWO_CONCEALED_KONGS] += 1
    if melded == 0 and concealed == 2 and concealed_pungs == 0:
        return                                 # Two Concealed Kongs covers Two Concealed Pungs
    hidden = concealed_pungs + concealed
    if hidden == 2:
        table[F_TWO_CONCEALED_PUNGS] += 1
    elif hidden == 3:
        table[F_THREE_CONCEALED_PUNGS] += 1
    elif hidden == 4:
        table[F_FOUR_CONCEALED_PUNGS] += 1


# ------------------------------------------------------------------------------------------
# whole-hand traits (over the distinct kinds of the hand)

cdef void suit_fans(const int* present, int* table) noexcept nogil:
    cdef int k, suits = 0, missing, n = 0
    cdef bint honors, winds = False, dragons = False
    for k in range(34):
        if present[k]:
            suits |= 1 << suit_of(k)
            if is_wind(k):
                winds = True
            elif is_dragon(k):
                dragons = True
    honors = (suits & 8) != 0
    if not honors:
        table[F_NO_HONORS] += 1
    for k in range(3):
        if suits & (1 << k):
            n += 1
    missing = 3 - n
    if missing == 2:
        table[F_HALF_FLUSH if honors else F_FULL_FLUSH] += 1
        if not honors:
            table[F_NO_HONORS] -= 1
    elif missing:
        table[F_ONE_VOIDED_SUIT] += missing    # 3 for an all-honors hand: All Honors clears it
    if suits == 15 and winds and dragons:
        table[F_ALL_TYPES] += 1


cdef void trait_fans(const int* present, int* table) noexcept nogil:
    cdef int k
    cdef bint simples = True, reversible = True, green = True, honors = True, terms = True, th = True
    for k in range(34):
        if not present[k]:
            continue
        if is_terminal(k) or is_honor(k):
            simples = False
        else:
            th = False
        if not is_reversible(k):
            reversible = False
        if not is_green(k):
            green = False
        if not is_honor(k):
            honors = False
        if not is_terminal(k):
            terms = False
    if simples:
        table[F_ALL_SIMPLES] += 1
    if reversible:
        table[F_REVERSIBLE_TILES] += 1
    if green:
        table[F_ALL_GREEN] += 1
    if table[F_ALL_SIMPLES]:
        return
    if honors:
        table[F_ALL_HONORS] += 1
    elif terms:
        table[F_ALL_TERMINALS] += 1
    elif th:
        table[F_ALL_TERMINALS_AND_HONORS] += 1


cdef void rank_fans(const int* present, int* table) noexcept nogil:
    cdef int k, ranks = 0
    for k in range(34):
        if present[k]:
            if is_honor(k):
                return
            ranks |= 1 << rank_of(k)
    if (ranks & ~0b11110) == 0:                # ranks within 1-4
        table[F_LOWER_FOUR if ranks & (1 << 4) else F_LOWER_TILES] += 1
    elif (ranks & ~0b1111000000) == 0:         # 6-9
        table[F_UPPER_FOUR if ranks & (1 << 6) else F_UPPER_TILES] += 1
    elif (ranks & ~0b1110000) == 0:            # 4-6
        table[F_MIDDLE_TILES] += 1


cdef void situation_fans(const ctx_t* x, int* table) noexcept nogil:
    if x.last_tile:
        table[F_LAST_TILE] += 1
    if x.self_drawn:
        if x.last_of_wall:
            table[F_LAST_TILE_DRAW] += 1
        if x.kong:
            table[F_OUT_WITH_REPLACEMENT_TILE] += 1
        if not x.last_of_wall and not x.kong:
            table[F_SELF_DRAWN] += 1
    else:
        if x.last_of_wall:
            table[F_LAST_TILE_CLAIM] += 1
        if x.kong:
            table[F_ROBBING_THE_KONG] += 1
            table[F_LAST_TILE] = 0


cdef void apply_exclusions(int* table) noexcept nogil:
    cdef int r, j, f
    for r in range(N_EXCL):
        if not table[EXCL[r][0]]:
            continue
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


cdef void wind_fans(const int* wind_pungs, int n, const ctx_t* x, int* table) noexcept nogil:
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


cdef void present_kinds(const ctx_t* x, int* present) noexcept nogil:
    cdef int k
    for k in range(34):
        present[k] = x.standing[k] > 0 or x.declared_counts[k] > 0


# ------------------------------------------------------------------------------------------
# one standard decomposition

cdef int score_standard(ctx_t* x, const split_t* sp, int* table) noexcept nogil:
    """Fans of one decomposition (declared melds + the split's sets + its pair) into table;
    returns the total."""
    cdef int gk[5]
    cdef int gt[5]
    cdef int ge[5]
    cdef int chows[4]
    cdef int pungs[4]
    cdef int winds[4]
    cdef int n = 0, nc = 0, np_ = 0, nw = 0, i, j, win = x.win, pair = sp.pair, concealed_pungs = 0
    cdef int melded_kongs = 0, concealed_kongs = 0, kongs = 0, exposed = 0, outside, five, even, t, r, s
    cdef int fours, r1, r7, cs_ok
    cdef bint chow_covers = False
    memset(table, 0, N_FANS * sizeof(int))
    for i in range(x.n_decl):
        gk[n] = x.decl_kind[i]
        gt[n] = x.decl_tile[i]
        ge[n] = x.decl_exposed[i]
        n += 1
    for i in range(sp.n):
        gk[n] = sp.kind[i]
        gt[n] = sp.tile[i]
        ge[n] = 0
        n += 1
    for i in range(n):
        if gk[i] == G_CHOW:
            chows[nc] = gt[i]
            nc += 1
            if not ge[i] and gt[i] <= win <= gt[i] + 2:
                chow_covers = True
        else:
            pungs[np_] = gt[i]
            np_ += 1
            if gk[i] == G_PUNG and not ge[i]:
                concealed_pungs += 1
            if gk[i] == G_KONG:
                kongs += 1
                if ge[i]:
                    melded_kongs += 1
                else:
                    concealed_kongs += 1
            if is_wind(gt[i]):
                winds[nw] = gt[i]
                nw += 1

    situation_fans(x, table)

    # on a discard, a concealed pung of the winning tile is exposed unless a concealed chow holds it
    if not x.self_drawn and not chow_covers:
        for i in range(n):
            if gk[i] != G_CHOW and gt[i] == win and not ge[i]:
                concealed_pungs -= 1
    if np_:
        kong_fans(melded_kongs, concealed_kongs, concealed_pungs, table)
        if np_ == 4 and not table[F_FOUR_KONGS] and not table[F_FOUR_CONCEALED_PUNGS]:
            table[F_ALL_PUNGS] += 1
        for i in range(np_):
            if is_dragon(pungs[i]):
                table[F_DRAGON_PUNG] += 1
            elif is_terminal(pungs[i]) or is_wind(pungs[i]):
                table[F_PUNG_OF_TERMINALS_OR_HONORS] += 1

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

    for i in range(x.n_decl):
        exposed += x.decl_exposed[i]
    if exposed == 0:
        table[F_FULLY_CONCEALED_HAND if x.self_drawn else F_CONCEALED_HAND] += 1
    elif exposed == 4 and not x.self_drawn:
        table[F_MELDED_HAND] += 1

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
    outside = five = even = 0
    for i in range(n + 1):
        if i == n:
            t = pair
            if is_honor(t):
                outside += 1
            else:
                outside += rank_of(t) == 1 or rank_of(t) == 9
                five += rank_of(t) == 5
                even += rank_of(t) % 2 == 0
            continue
        t = gt[i]
        if is_honor(t):
            outside += 1
        elif gk[i] == G_CHOW:
            outside += rank_of(t) == 1 or rank_of(t) == 7
            five += 3 <= rank_of(t) <= 5
        else:
            outside += rank_of(t) == 1 or rank_of(t) == 9
            five += rank_of(t) == 5
            even += rank_of(t) % 2 == 0
    if outside == 5:
        table[F_OUTSIDE_HAND] += 1
    elif five == 5:
        table[F_ALL_FIVE] += 1
    elif even == 5:
        table[F_ALL_EVEN_PUNGS] += 1

    add_traits(x, table)
    if not table[F_QUADRUPLE_CHOW]:
        table[F_TILE_HOG] += x.fours - kongs

    if not table[F_MELDED_HAND] and not table[F_FOUR_KONGS] and ctx_unique_wait(x):
        r = 0
        for i in range(x.n_decl, n):           # the sets formed from the standing tiles
            if gk[i] == G_CHOW and (win == gt[i] or win == gt[i] + 2):
                r = 1
        if r:
            table[F_EDGE_WAIT] += 1
        else:
            for i in range(x.n_decl, n):
                if gk[i] == G_CHOW and win == gt[i] + 1:
                    r = 1
            if r:
                table[F_CLOSED_WAIT] += 1
            elif pair == win:
                table[F_SINGLE_WAIT] += 1

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

cdef int seven_pairs_form(ctx_t* x, int* table) noexcept nogil:
    cdef int k, s, r, lo = 99, hi = -1, n = 0, all2 = 1
    for k in range(34):
        if x.standing[k] & 1:
            return 0
    memset(table, 0, N_FANS * sizeof(int))
    s = suit_of(x.win)
    if s < 3:
        for r in range(9):
            if x.standing[9 * s + r]:
                n += 1
                if x.standing[9 * s + r] != 2:
                    all2 = 0
                lo = r if r < lo else lo
                hi = r if r > hi else hi
        if all2 and n == 7 and hi - lo == 6:
            table[F_SEVEN_SHIFTED_PAIRS] += 1
            if lo == 1:
                table[F_ALL_SIMPLES] += 1
            situation_fans(x, table)
            return 1
    table[F_SEVEN_PAIRS] += 1
    add_traits(x, table)
    for k in range(34):
        table[F_TILE_HOG] += x.standing[k] == 4
    situation_fans(x, table)
    apply_exclusions(table)
    return 1


cdef int KNITTED[6][9]


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
        for s in range(3):
            r = perms[p][s]
            while r < 9:
                KNITTED[p][m] = 9 * s + r
                m += 1
                r += 3


init_knitted()


cdef int honors_knitted_form(ctx_t* x, int* table) noexcept nogil:
    cdef int k, n = 0, nums = 0, p, j, ok, inside
    for k in range(34):
        if x.standing[k] or x.declared_counts[k]:
            n += 1
            if k < 27:
                nums += 1
    if n != 14 or nums < 7 or nums > 9:
        return 0
    ok = 0
    for p in range(6):
        inside = 0
        for j in range(9):
            if x.standing[KNITTED[p][j]] or x.declared_counts[KNITTED[p][j]]:
                inside += 1
        if inside == nums:
            ok = 1
            break
    if not ok:
        return 0
    memset(table, 0, N_FANS * sizeof(int))
    if nums == 7:
        table[F_GREATER_HONORS_AND_KNITTED_TILES] += 1
    else:
        table[F_LESSER_HONORS_AND_KNITTED_TILES] += 1
        if nums == 9:
            table[F_KNITTED_STRAIGHT] += 1
    situation_fans(x, table)
    return 1


cdef int thirteen_orphans_form(ctx_t* x, int* table) noexcept nogil:
    cdef int k
    cdef bint want
    for k in range(34):
        want = is_terminal(k) or is_honor(k)
        if (x.standing[k] > 0 or x.declared_counts[k] > 0) != want:
            return 0
    memset(table, 0, N_FANS * sizeof(int))
    table[F_THIRTEEN_ORPHANS] = 1
    situation_fans(x, table)
    return 1


cdef bint has_knitted(const int* standing) noexcept nogil:
    cdef int p, j
    for p in range(6):
        for j in range(9):
            if not standing[KNITTED[p][j]]:
                break
        else:
            return True
    return False


cdef int knitted_straight_form(ctx_t* x, int* table, splits_t* sp) noexcept nogil:
    """Knitted straight (in the standing tiles) + one set (standing, or the only meld) + pair."""
    cdef int p = -1, q, j, k, pair, fkind, ftile, fexp, win = x.win, r
    cdef int rest[34]
    cdef uint8_t outside[40]
    cdef int total[34]
    cdef const int* ks
    for q in range(6):
        r = 1
        for j in range(9):
            if not x.standing[KNITTED[q][j]]:
                r = 0
                break
        if r:
            p = q
            break
    if p < 0:
        return 0
    ks = KNITTED[p]
    for k in range(34):
        rest[k] = x.standing[k]
        total[k] = x.standing[k] + x.declared_counts[k]
    for j in range(9):
        rest[ks[j]] -= 1
    splits_of(rest, sp)
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
    memset(table, 0, N_FANS * sizeof(int))
    table[F_KNITTED_STRAIGHT] = 1
    if fkind == G_CHOW:
        if not is_honor(pair):
            table[F_ALL_CHOWS] += 1
        if total[pair] == 4:
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
        if fkind != G_KONG and total[ftile] == 4:
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
        # the wait test looks at the 5 tiles outside the knitted straight only
        if rest[win]:
            for k in range(34):
                outside[k] = <uint8_t>rest[k]
            for k in range(34, 40):
                outside[k] = 0
            outside[win] -= 1
            if unique_wait(outside, False, win, x.T):
                if fkind == G_CHOW and (win == ftile or win == ftile + 2):
                    table[F_EDGE_WAIT] += 1
                elif fkind == G_CHOW and win == ftile + 1:
                    table[F_CLOSED_WAIT] += 1
                elif pair == win:
                    table[F_SINGLE_WAIT] += 1
    else:
        r = 0
        for j in range(9):
            if ks[j] == win:
                r = 1
        if not r or x.standing[win] == 3:
            table[F_SINGLE_WAIT] += 1
    apply_exclusions(table)
    return 1


cdef int nine_gates_form(ctx_t* x, int* table) noexcept nogil:
    cdef int s = suit_of(x.win), k, r, want
    if x.n_decl or s == 3:
        return 0
    for k in range(34):
        want = 0
        if suit_of(k) == s:
            r = k % 9
            want = 3 if (r == 0 or r == 8) else 1
        if x.standing[k] - (k == x.win) != want:
            return 0
    memset(table, 0, N_FANS * sizeof(int))
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

cdef int mcr_fan(const fan_in_t* inp, fan_out_t* out, const mj_tables_t* T) noexcept nogil:
    """Score one hand (valid input: the wrapper checks it) into out; returns out.total
    (FAN_NOT_WIN when the hand is not complete)."""
    cdef ctx_t x
    cdef splits_t sp
    cdef int table[82]
    cdef int best[82]
    cdef int i, k, t, best_total = 0, special = 0, seven = 0, win = inp.win, any_kong = 0
    x.T = T
    x.win = win
    x.n_decl = inp.n_melds
    x.unique = -1
    for k in range(34):
        x.standing[k] = inp.hand[k]
        x.declared_counts[k] = 0
    x.standing[win] += 1
    for i in range(inp.n_melds):
        x.decl_kind[i] = inp.meld_kind[i]
        x.decl_tile[i] = inp.meld_tile[i]
        x.decl_exposed[i] = inp.meld_exposed[i] != 0
        if inp.meld_kind[i] == MK_CHOW:
            x.declared_counts[inp.meld_tile[i]] += 1
            x.declared_counts[inp.meld_tile[i] + 1] += 1
            x.declared_counts[inp.meld_tile[i] + 2] += 1
        else:
            x.declared_counts[inp.meld_tile[i]] += 4 if inp.meld_kind[i] == MK_KONG else 3
            if inp.meld_kind[i] == MK_KONG:
                any_kong = 1
    x.present = 0
    x.distinct = 0
    x.odd = 0
    x.fours = 0
    for k in range(34):
        if x.standing[k]:
            x.distinct += 1
            x.odd += x.standing[k] & 1
            x.present |= (<uint64_t>1) << k
        elif x.declared_counts[k]:
            x.present |= (<uint64_t>1) << k
        x.fours += x.standing[k] + x.declared_counts[k] == 4
    x.self_drawn = inp.self_drawn != 0
    x.last_of_wall = inp.last_of_wall != 0
    x.seat_wind = inp.seat_wind
    x.prevalent_wind = inp.prevalent_wind
    # flag corrections
    x.last_tile = (inp.fourth_tile != 0 and x.standing[win] == 1) or x.declared_counts[win] == 3
    x.kong = inp.kong != 0
    if x.kong and x.self_drawn and not any_kong:
        x.kong = 0
    if x.kong and not x.self_drawn and (x.declared_counts[win] or x.standing[win] != 1):
        x.kong = 0
    prepare_traits(&x)

    # the special forms (cheap tests first: pairs, distinct kinds, the knitted kinds, one suit)
    if x.n_decl == 0:
        if x.odd == 0:
            special = seven_pairs_form(&x, best)
            if special:
                seven = best[F_SEVEN_PAIRS]
        if not special and x.distinct == 14:
            special = honors_knitted_form(&x, best)
        if not special and x.distinct == 13:
            special = thirteen_orphans_form(&x, best)
    if not special and x.n_decl <= 1 and x.distinct >= 9 and has_knitted(x.standing):
        special = knitted_straight_form(&x, best, &sp)
    if not special and x.n_decl == 0 and x.win < 27 and (x.present & ~M_SUIT[x.win // 9]) == 0:
        special = nine_gates_form(&x, best)
    if special:
        best_total = fan_total(best)
    if not special or seven:
        splits_of(x.standing, &sp)
        for i in range(sp.n):
            t = score_standard(&x, &sp.s[i], table)
            if t > best_total or (t == best_total and (seven or table[F_PURE_TRIPLE_CHOW] or table[F_TRIPLE_PUNG])):
                best_total = t
                memcpy(best, table, sizeof(table))
    memset(out.count, 0, N_FANS)
    if not best_total:
        out.total = FAN_NOT_WIN
        return FAN_NOT_WIN
    for i in range(N_FANS):
        out.count[i] = <int8_t>best[i]
    out.count[F_FLOWER_TILES] = <int8_t>inp.flowers
    out.total = best_total + inp.flowers
    return out.total


# ------------------------------------------------------------------------------------------
# batch and test entry points

cdef int fan_row(const uint8_t* hand, const uint8_t* melds, const int32_t* flags, int8_t* counts,
                 const mj_tables_t* T) noexcept nogil:
    """One row of fan_batch (its own locals: private to the thread)."""
    cdef fan_in_t x
    cdef fan_out_t o
    cdef int j, m = 0
    memcpy(x.hand, hand, 34)
    for j in range(4):
        if melds[3 * j] > 0:
            x.meld_kind[m] = melds[3 * j] - 1
            x.meld_tile[m] = melds[3 * j + 1]
            x.meld_exposed[m] = melds[3 * j + 2]
            m += 1
    x.n_melds = m
    x.win = flags[0]
    x.self_drawn = flags[1]
    x.fourth_tile = flags[2]
    x.kong = flags[3]
    x.last_of_wall = flags[4]
    x.seat_wind = flags[5]
    x.prevalent_wind = flags[6]
    x.flowers = flags[7]
    mcr_fan(&x, &o, T)
    memcpy(counts, o.count, N_FANS)
    return o.total


def fan_batch(const uint8_t[:, ::1] hand, const uint8_t[:, ::1] melds, const int32_t[:, ::1] flags,
              int32_t[::1] total, int8_t[:, ::1] counts, int threads):
    """Score hand[i] (34 standing counts without the winning tile) with melds[i] (4 x 3: kind
    MK_* + 1 (0: none), first tile, exposed) and flags[i] (win, self_drawn, fourth_tile, kong,
    last_of_wall, seat_wind, prevalent_wind, flowers) into total[i] and counts[i] (N_FANS)."""
    cdef Py_ssize_t i, n = hand.shape[0]
    cdef const mj_tables_t* T = mj_get_tables()
    if n == 0:
        return
    with nogil:
        for i in prange(n, schedule="dynamic", chunksize=256, num_threads=max(threads, 1)):
            total[i] = fan_row(&hand[i, 0], &melds[i, 0], &flags[i, 0], &counts[i, 0], T)
