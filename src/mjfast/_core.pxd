# C-level interface of mjfast._core, for other Cython code (also reachable as ``cimport mjfast``,
# mjfast/__init__.pxd):
#
#     from mjfast._core cimport mj_tables_t, mj_get_tables, mj_shanten, FORM_STANDARD
#     cdef const mj_tables_t* t = mj_get_tables()      # with the GIL, once (builds tables)
#     with nogil:
#         s = mj_shanten(counts_ptr, FORMS_DEFAULT, t)  # counts_ptr: 34 uint8 counts
#
# Hands are 34 uint8 counts (0..4 each, 1..14 tiles, size 3k+1 or 3k+2) or 4 packed uint32
# words (3 bits per kind). The functions trust their input: validate before calling.
# The types and form bits are declared once, in mjfast/_kernels/hand_types.pxd.
from libc.stdint cimport uint8_t, int8_t, uint32_t

from mjfast._kernels.hand_types cimport (
    mj_tables_t, FORM_STANDARD, FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS, FORM_HONORS_KNITTED,
    FORM_KNITTED_STRAIGHT, FLAG_KONG_TWO_PAIRS, FORMS_SPECIAL, FORMS_DEFAULT,
)

cdef const mj_tables_t* mj_get_tables() except NULL
cdef int mj_shanten(const uint8_t* counts, int forms, const mj_tables_t* t) noexcept nogil
cdef int mj_shanten_packed(const uint32_t* words, int forms, const mj_tables_t* t) noexcept nogil
cdef bint mj_is_winning(const uint8_t* counts, int forms, const mj_tables_t* t) noexcept nogil
