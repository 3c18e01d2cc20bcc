# cython: language_level=3
# C helpers of card.h: one variation's shortfalls and its dead test (see card.h).
from libc.stdint cimport uint8_t, uint16_t, int32_t

cdef extern from "card.h" nogil:
    int MJ_CARD_ROW
    void mj_card_short(const uint8_t* R, const uint8_t* F, const uint8_t* h, int* sr, int* sf)
    int mj_card_dead(const uint8_t* R, const uint8_t* F, const uint8_t* h, const uint8_t* u, int J)
    int mj_card_eval(const uint8_t* R, const uint8_t* F, const uint8_t* sR, const uint8_t* sF,
                     const uint8_t* h, const uint8_t* u, int J, int* sr, int* sf)
    void mj_card_delta(uint8_t* sr, uint8_t* sf, const uint8_t* rt, const uint8_t* ft, int sRk, int sFk,
                       int h, int up, int nvar)
    int mj_card_dv(const uint8_t* sr, const uint8_t* sf, int J, uint8_t* dv, int nvar)
    int mj_card_level(const uint8_t* dv, int nvar, int L, int32_t* idx)
    void mj_card_blocks_dv(const uint8_t* data, const uint16_t* kind16, const int32_t* off, int nblocks,
                           const uint8_t* h, uint8_t* dv)
    int mj_card_min(const uint8_t* dv, int lo, int hi)
