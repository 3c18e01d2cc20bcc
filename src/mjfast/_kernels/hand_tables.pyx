# cython: language_level=3
"""The shanten and winning lookup tables bound as C pointers (private).

``tables.py`` builds the tables lazily (or loads them from the table cache) as numpy arrays;
this module keeps them alive and hands every kernel one `mj_tables_t` of pointers into them
(``c_tables()``, hand_tables.pxd). ``mjfast._core`` re-exports ``ensure_tables`` and wraps
``c_tables`` as its documented C API (``mj_get_tables``).
"""
import numpy as np
from libc.stdint cimport uint8_t, uint32_t

cdef mj_tables_t _T
cdef bint _T_ready = False
_T_keep = None


def ensure_tables():
    """Build (first call) and bind the lookup tables; returns the table dict."""
    global _T_ready, _T_keep
    if _T_ready:
        return _T_keep[0]
    from mjfast._kernels import tables as _tables
    tables = _tables.get_tables()
    chunk = np.zeros((3, 512), dtype=np.uint32)
    v = np.arange(512, dtype=np.uint32)
    base = (v & 7) + 5 * ((v >> 3) & 7) + 25 * ((v >> 6) & 7)
    for j in range(3):
        chunk[j] = base * (125 ** j)
    chunk.setflags(write=False)
    cdef const uint8_t[::1] sc = tables["suit_class"]
    cdef const uint8_t[::1] hc = tables["honor_class"]
    cdef const uint8_t[:, ::1] pmp = tables["pair_mp"]
    cdef const uint8_t[:, ::1] psz = tables["pair_sz"]
    cdef const uint8_t[:, :, ::1] fin = tables["final"]
    cdef const uint32_t[:, ::1] ch = chunk
    cdef const uint8_t[::1] sw = tables["suit_win"]
    cdef const uint8_t[::1] hw = tables["honor_win"]
    cdef const uint8_t[::1] swl = tables["suit_win_lo"]
    cdef const uint8_t[::1] swh = tables["suit_win_hi"]
    _T.suit_win = &sw[0]
    _T.suit_win_lo = &swl[0]
    _T.suit_win_hi = &swh[0]
    _T.honor_win = &hw[0]
    _T.suit_class = &sc[0]
    _T.honor_class = &hc[0]
    _T.pair_mp = &pmp[0, 0]
    _T.pair_sz = &psz[0, 0]
    _T.final = &fin[0, 0, 0]
    _T.chunk5 = &ch[0, 0]
    _T.n_suit = pmp.shape[0]
    _T.n_honor = psz.shape[1]
    _T.n_mp = fin.shape[0]
    _T.n_sz = fin.shape[1]
    _T_keep = (tables, chunk)
    _T_ready = True
    return tables


cdef const mj_tables_t* c_tables() except NULL:
    if not _T_ready:
        ensure_tables()
    return &_T
