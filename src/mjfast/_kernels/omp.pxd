# The only place that touches omp.h (scikit-learn's _openmp_helpers pattern), and the one loop
# over blocks of rows that every batch kernel runs (for_blocks).
# MJFAST_HAVE_OPENMP is defined by setup.py: 1 when the compiler passed the OpenMP probe.
from cython.parallel cimport prange

cdef extern from *:
    """
    #ifndef MJFAST_HAVE_OPENMP
    #define MJFAST_HAVE_OPENMP 0
    #endif
    #if MJFAST_HAVE_OPENMP
    #include <omp.h>
    static inline int mj_omp_max_threads(void) { return omp_get_max_threads(); }
    static inline int mj_omp_thread_num(void) { return omp_get_thread_num(); }
    #else
    static inline int mj_omp_max_threads(void) { return 1; }
    static inline int mj_omp_thread_num(void) { return 0; }
    #endif
    """
    int MJFAST_HAVE_OPENMP
    int mj_omp_max_threads() noexcept nogil
    int mj_omp_thread_num() noexcept nogil      # 0 outside a parallel region


# A batch kernel's loop over rows lo <= i < hi, written once: its arguments in `ctx` (the
# kernel's own struct), its result a bit set (the checked kernels: 1 = some row was invalid).
ctypedef int (*block_fn)(const void* ctx, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil


cdef inline int for_blocks(block_fn fn, const void* ctx, Py_ssize_t n, Py_ssize_t block, int threads) noexcept nogil:
    """fn(ctx, lo, hi) over [0, n) in blocks of `block` rows on `threads` threads (a dynamic
    schedule, one block at a time); the results OR-ed.

    One thread (or one block) is one call on the calling thread, outside any parallel region:
    entering a region costs a team start and two futex calls (about 1 us on Linux with libgomp)
    even when a single thread runs it, as prange(..., use_threads_if=False) still does, and a
    small batch would pay that on every call. A kernel that needs scratch per thread indexes
    it by mj_omp_thread_num() (0 on the calling thread)."""
    cdef Py_ssize_t b, nb
    cdef int r = 0
    if threads <= 1 or n <= block:
        return fn(ctx, 0, n)
    nb = (n + block - 1) // block
    for b in prange(nb, schedule="dynamic", chunksize=1, num_threads=threads):
        r |= fn(ctx, b * block, min(n, b * block + block))
    return r
