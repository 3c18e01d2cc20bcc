# cython: language_level=3
# The C-level types every hand kernel shares: the winning-form bits and the lookup tables'
# pointers (types only; hand_tables.pyx binds the tables, hand.pxd holds the kernels).
# mjfast/_core.pxd re-exports them as the documented C API (``cimport mjfast``).
from libc.stdint cimport uint8_t, uint32_t

cdef enum:
    FORM_STANDARD = 1
    FORM_SEVEN_PAIRS = 2
    FORM_THIRTEEN_ORPHANS = 4
    FORM_HONORS_KNITTED = 8
    FORM_KNITTED_STRAIGHT = 16
    FLAG_KONG_TWO_PAIRS = 32      # seven pairs: a four-of-a-kind counts as two pairs (MCR)
    FORMS_SPECIAL = 2 | 4 | 8 | 16
    FORMS_DEFAULT = 1 | 2 | 4     # form="all" with rules=None

ctypedef struct mj_tables_t:
    const uint8_t* suit_class     # [5**9] class id of a number-suit pattern (base-5 code)
    const uint8_t* honor_class    # [5**7] class id of an honor pattern
    const uint8_t* pair_mp        # [n_suit * n_suit] (class m, class p) -> merged class
    const uint8_t* pair_sz        # [n_suit * n_honor] (class s, class z) -> merged class
    const uint8_t* final          # [n_mp * n_sz * 8] -> tiles missing for k sets + 1 pair
    const uint32_t* chunk5        # [3 * 512] base-5 value of a 9-bit chunk of a packed word
    const uint8_t* suit_win       # [5**9 / 4] 2 bits per code: 1 complete as sets, 2 sets + pair
    const uint8_t* honor_win      # [5**7 / 4] same for the honors
    const uint8_t* suit_win_lo    # [5**6] class of ranks 0-5 of a suit code (suit_win factored)
    const uint8_t* suit_win_hi    # [classes * 125] value (0/1/2 as suit_win) of (class, ranks 6-8)
    int n_suit
    int n_honor
    int n_mp
    int n_sz
