# cython: language_level=3
# The lookup tables as C pointers (hand_tables.pyx): what every kernel reads the shanten and
# winning tables through. Call c_tables() with the GIL (the first call builds or loads them).
from mjfast._kernels.hand_types cimport mj_tables_t

cdef const mj_tables_t* c_tables() except NULL
