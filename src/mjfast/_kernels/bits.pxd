# C helpers from _bits.h (unaligned loads, SWAR on byte lanes and on 3-bit fields).
from libc.stdint cimport uint8_t, uint32_t, uint64_t

cdef extern from "bits.h" nogil:
    int mj_popcount64(uint64_t x)
    int mj_popcount32(uint32_t x)
    int mj_ctz64(uint64_t x)
    void mj_prefetch(const void* p)
    int MJ_PREFETCH_BYTES
    uint64_t mj_load64(const uint8_t* p)
    void mj_store64(uint8_t* p, uint64_t x)
    void mj_thermo34(uint8_t* out, const uint8_t* c)
    void mj_zero144(void* p)
    void mj_zero136(void* p)
    uint64_t mj_ones_ge(uint64_t x, int k)
    uint32_t mj_base5_8(uint64_t x)
    uint32_t mj_lane_sum(uint64_t x)
    uint32_t MJ_F0
    uint32_t mj_fields_ge1(uint32_t w)
    uint32_t mj_fields_ge2(uint32_t w)
    uint32_t mj_fields_ge3(uint32_t w)
    uint32_t mj_fields_ge4(uint32_t w)
    uint32_t mj_fields_sum(uint32_t w)
