# The only place that touches omp.h (scikit-learn's _openmp_helpers pattern).
# MJFAST_HAVE_OPENMP is defined by setup.py: 1 when the compiler passed the OpenMP probe.
cdef extern from *:
    """
    #ifndef MJFAST_HAVE_OPENMP
    #define MJFAST_HAVE_OPENMP 0
    #endif
    #if MJFAST_HAVE_OPENMP
    #include <omp.h>
    static int mj_omp_max_threads(void) { return omp_get_max_threads(); }
    #else
    static int mj_omp_max_threads(void) { return 1; }
    #endif
    """
    int MJFAST_HAVE_OPENMP
    int mj_omp_max_threads() noexcept nogil
