# cython: language_level=3
# The Chinese Official (MCR) fan calculator (mcr_fan.pyx): one hand in, its fans out, without
# the GIL. Agrees with PyMahjongGB 1.4.0 (total and fan list); the plain-Python specification is
# tests/oracles/mcr_fan.py and docs/mcr.md says what it counts.
from libc.stdint cimport uint8_t, int8_t

from mjfast._kernels.hand_types cimport mj_tables_t

cdef enum:
    N_FANS = 82              # 80 hand fans, Flower Tiles, Concealed Kong and Melded Kong (in FANS order)
    FAN_NOT_WIN = 0          # mcr_fan's total for a hand that is not complete

cdef enum:
    # meld kinds of fan_in_t.meld_kind
    MK_CHOW = 0
    MK_PUNG = 1
    MK_KONG = 2

ctypedef struct fan_in_t:
    uint8_t hand[34]         # the concealed standing tiles, without the winning tile
    int n_melds              # declared sets (0-4)
    uint8_t meld_kind[4]     # MK_*
    uint8_t meld_tile[4]     # the set's lowest tile kind
    uint8_t meld_exposed[4]  # 1: claimed (exposed), 0: concealed (a concealed kong)
    int win                  # the winning tile kind
    int self_drawn
    int fourth_tile          # the winning tile is the last copy (three already shown)
    int kong                 # self-drawn: on a kong's replacement; on a discard: robbing a kong
    int last_of_wall         # the last tile of the live wall
    int seat_wind            # 0-3 = E S W N
    int prevalent_wind
    int flowers              # 0-8 (1 fan each, never towards a win by itself)
    int judge2018            # 1: the 2018 calculator of the Botzone judge (knitted-straight waits, ties)

ctypedef struct fan_out_t:
    int total                # fans including flowers; FAN_NOT_WIN (0) when the hand is not a win
    int8_t count[N_FANS]     # how many times each fan counts (FANS order)

cdef int mcr_fan(const fan_in_t* x, fan_out_t* out, const mj_tables_t* T) noexcept nogil
