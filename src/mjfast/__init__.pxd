# cython: language_level=3
# The public C-level surface of mjfast, for other Cython code (numpy.random's __init__.pxd habit):
#
#     cimport mjfast
#     from libc.stdint cimport uint8_t
#
#     def shanten(const uint8_t[::1] counts):          # 34 uint8 counts, validated by the caller
#         cdef const mjfast.mj_tables_t* t = mjfast.mj_get_tables()   # with the GIL, once
#         cdef int s
#         with nogil:
#             s = mjfast.mj_shanten(&counts[0], mjfast.FORMS_DEFAULT, t)
#         return s
#
# or ``from mjfast cimport mj_shanten, mj_get_tables, FORMS_DEFAULT``. The same names stay
# cimportable from ``mjfast._core`` (its .pxd holds the declarations; the types and form bits
# are declared once, in mjfast/_kernels/hand_types.pxd). Build against the installed package
# with ``include_path=[<the folder holding mjfast>]`` (cythonize) and link nothing: the
# functions are reached through mjfast._core's C-API capsule when the extension imports.
#
# Hands are 34 uint8 counts (0..4 each, 1..14 tiles, size 3k+1 or 3k+2) or 4 packed uint32
# words (3 bits per kind). The functions trust their input: validate before calling.
from mjfast._core cimport (
    mj_tables_t, mj_get_tables, mj_shanten, mj_shanten_packed, mj_is_winning,
    FORM_STANDARD, FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS, FORM_HONORS_KNITTED,
    FORM_KNITTED_STRAIGHT, FLAG_KONG_TWO_PAIRS, FORMS_SPECIAL, FORMS_DEFAULT,
)
