"""Shanten lookup tables: built on first use (or read from the on-disk cache of
:mod:`mjfast._kernels.table_cache`), kept in memory, thread-safe.

Design (the class-compression idea popularised by Cryolite's nyanten, our own code):

1. For every count pattern of one number suit (5**9 base-5 codes) and of the honors
   (5**7), ``tablegen.distance_vectors`` gives 10 numbers: the tiles missing to hold k sets
   (k = 0..4) plus p pairs (p = 0/1) inside that suit, never using a fifth copy.
2. Patterns with identical vectors form a *class*; ``SUIT_CLASS``/``HONOR_CLASS`` map a
   pattern code to its class id (one byte each).
3. Merging two suits is a min-plus convolution of their vectors, whose result depends only
   on the two classes. ``PAIR_MP`` maps (class m, class p) to a merged class, ``PAIR_SZ``
   maps (class s, class z) to another, and ``FINAL[c_mp, c_sz, k]`` holds the whole hand's
   distance to k sets + 1 pair. Shanten = distance - 1.

A query is thus four base-5 codes, four class loads and three small-table loads, with no
run-time dynamic programme; everything the hot loop touches is about 2.2 MB, mostly the
1.95 MB suit class array of which random hands touch a small part.
"""
from __future__ import annotations

import hashlib
import threading

import numpy as np

_LOCK = threading.Lock()
_TABLES: dict | None = None

N_SETS = 5  # k = 0..4


def _vector_keys(vecs: np.ndarray) -> np.ndarray:
    """Pack rows of 10 small values (< 16) into one uint64 key per row."""
    keys = np.zeros(len(vecs), dtype=np.uint64)
    for j in range(vecs.shape[1]):
        keys |= vecs[:, j].astype(np.uint64) << np.uint64(4 * j)
    return keys


def _key_vectors(keys: np.ndarray) -> np.ndarray:
    """Inverse of ``_vector_keys``: (n,) uint64 -> (n, 10) uint8."""
    shifts = np.arange(10, dtype=np.uint64) * np.uint64(4)
    return ((keys[:, None] >> shifts[None, :]) & np.uint64(15)).astype(np.uint8)


def _classify(vecs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (class id per row, class vectors) for rows of distance vectors."""
    classes, uniq = _classify_keys(_vector_keys(vecs))
    return classes, _key_vectors(uniq)


def _classify_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Class id per key (classes numbered in increasing key order) and the distinct keys.

    Keys equal to ``NO_PATTERN`` (patterns no valid hand reaches) get class 0. (What
    ``np.unique(..., return_inverse=True)`` gives, in one hashed pass of the generator module.)
    """
    from .tablegen import NO_PATTERN, classify_keys

    return classify_keys(np.ascontiguousarray(keys, dtype=np.uint64), NO_PATTERN)


def _merge(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus convolution of every row of ``a`` with every row of ``b``.

    ``a`` is (A, 10), ``b`` is (B, 10) with entry 2k + p; returns (A, B, 10) with
    ``out[i, j, 2k + p] = min over k1 + k2 = k, p1 + p2 = p of a[i, 2k1 + p1] + b[j, 2k2 + p2]``.
    """
    a = a.astype(np.int16)
    b = b.astype(np.int16)
    out = np.full((len(a), len(b), 10), 255, dtype=np.int16)
    for k in range(N_SETS):
        for p in range(2):
            for k1 in range(k + 1):
                for p1 in range(p + 1):
                    s = a[:, None, 2 * k1 + p1] + b[None, :, 2 * (k - k1) + (p - p1)]
                    np.minimum(out[:, :, 2 * k + p], s, out=out[:, :, 2 * k + p])
    return out


def _pattern_sizes(n_kinds: int) -> np.ndarray:
    """Number of tiles of every base-5 pattern code of ``n_kinds`` kinds: the code of counts
    h is sum(h[i] * 5**i), so the sizes of n kinds are those of n - 1 kinds plus 0..4 for
    the top kind, block by block."""
    sizes = np.zeros(1, dtype=np.int64)
    for _ in range(n_kinds):
        sizes = (np.arange(5, dtype=np.int64)[:, None] + sizes[None, :]).ravel()
    return sizes


def _win_values(classes: np.ndarray, class_vecs: np.ndarray, n_kinds: int) -> np.ndarray:
    """Per pattern code: 1 = complete as sets only, 2 = complete as sets + one pair, 0 = neither.

    "Complete" is judged for the pattern's own size: 3k tiles forming k sets, or 3k + 2 tiles
    forming k sets and a pair. The value depends only on the pattern's class and size, so it
    is read from a (classes, sizes) table.
    """
    sizes = _pattern_sizes(n_kinds)
    by_size = np.zeros((len(class_vecs), 15), dtype=np.uint8)   # [class, size 0..14]
    for size in range(15):
        k, rem = divmod(size, 3)
        if rem == 0:
            by_size[class_vecs[:, min(2 * k, 9)] == 0, size] = 1
        elif rem == 2:
            by_size[class_vecs[:, min(2 * k + 1, 9)] == 0, size] = 2
    ok = sizes <= 14
    value = np.zeros(len(sizes), dtype=np.uint8)
    value[ok] = by_size[classes[ok], sizes[ok]]
    return value


def _pack_win(value: np.ndarray) -> np.ndarray:
    """2 bits per pattern code: code c sits in byte c // 4 at bits 2 * (c % 4). A whole hand is
    a standard complete hand exactly when the product of its four 2-bit values is 2."""
    padded = np.zeros(-(-len(value) // 4) * 4, dtype=np.uint8)
    padded[: len(value)] = value
    quads = padded.reshape(-1, 4)
    return (quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6).astype(np.uint8)


WIN_SPLIT = 6  # the factored suit winning table splits a suit's ranks into 0-5 and 6-8


def _factor_win(value: np.ndarray, n_kinds: int = 9, split: int = WIN_SPLIT) -> tuple[np.ndarray, np.ndarray]:
    """Factor the 2-bit suit values (``value``: one per code, :func:`_win_values`) into two
    small tables that stay in the L1 cache.

    A code is ``lo + 5**split * hi`` (``lo`` the ranks below ``split``, ``hi`` the rest).
    Prefixes ``lo`` with the same value for every ``hi`` are merged into one class (a
    Myhill-Nerode quotient, 98 classes for ``split=6``), so ``value(code) ==
    hi_table[lo_class[lo] * 5**(n_kinds - split) + hi]`` exactly: ``lo_class`` has 15,625
    bytes and ``hi_table`` 12,250, against 488 KB for the 2-bit table of every code. Classes
    are numbered in the lexicographic order of their rows (``np.unique(..., axis=0)``'s order),
    found by grouping the rows' bytes in a dict (25x faster than that sort).
    """
    n_lo, n_hi = 5**split, 5 ** (n_kinds - split)
    by_prefix = np.ascontiguousarray(value.reshape(n_hi, n_lo).T)     # [lo, hi]
    raw = by_prefix.tobytes()
    rows = [raw[i * n_hi:(i + 1) * n_hi] for i in range(n_lo)]
    distinct = sorted(set(rows))
    if len(distinct) > 255:  # pragma: no cover - would need uint16 class ids
        raise RuntimeError(f"mjfast: {len(distinct)} winning prefix classes do not fit in uint8")
    class_of = {row: c for c, row in enumerate(distinct)}
    lo_class = np.fromiter((class_of[row] for row in rows), dtype=np.uint8, count=n_lo)
    return lo_class, np.frombuffer(b"".join(distinct), dtype=np.uint8).copy()


def _build() -> dict:
    from . import tablegen as _tablegen

    suit_class, suit_keys = _classify_keys(_tablegen.distance_vectors(9, True))
    honor_class, honor_keys = _classify_keys(_tablegen.distance_vectors(7, False))
    suit_cv, honor_cv = _key_vectors(suit_keys), _key_vectors(honor_keys)

    mp = _merge(suit_cv, suit_cv)  # (Cs, Cs, 10)
    mp_class, mp_cv = _classify(mp.reshape(-1, 10))
    sz = _merge(suit_cv, honor_cv)  # (Cs, Ch, 10)
    sz_class, sz_cv = _classify(sz.reshape(-1, 10))
    whole = _merge(mp_cv, sz_cv)  # (Cmp, Csz, 10)
    final = np.zeros((len(mp_cv), len(sz_cv), 8), dtype=np.uint8)
    final[:, :, :N_SETS] = whole[:, :, 1::2]  # k sets + exactly one pair

    for name, n in (("suit", len(suit_cv)), ("honor", len(honor_cv)), ("mp", len(mp_cv)), ("sz", len(sz_cv))):
        if n > 255:  # pragma: no cover - would need uint16 class ids
            raise RuntimeError(f"mjfast: {name} class count {n} does not fit in uint8")

    suit_value = _win_values(suit_class, suit_cv, 9)
    suit_win = _pack_win(suit_value)
    win_lo, win_hi = _factor_win(suit_value)
    tables = {
        "suit_win": suit_win,
        "suit_win_lo": win_lo,
        "suit_win_hi": win_hi,
        "honor_win": _pack_win(_win_values(honor_class, honor_cv, 7)),
        "suit_class": suit_class.astype(np.uint8),
        "honor_class": honor_class.astype(np.uint8),
        "pair_mp": mp_class.astype(np.uint8).reshape(len(suit_cv), len(suit_cv)),
        "pair_sz": sz_class.astype(np.uint8).reshape(len(suit_cv), len(honor_cv)),
        "final": final,
        "suit_vectors": suit_cv.astype(np.uint8),
        "honor_vectors": honor_cv.astype(np.uint8),
    }
    for arr in tables.values():
        arr.setflags(write=False)
    return tables


#: the tables :func:`_build` returns, in its order (what a cache file must hold)
NAMES = ("suit_win", "suit_win_lo", "suit_win_hi", "honor_win", "suit_class", "honor_class", "pair_mp", "pair_sz",
         "final", "suit_vectors", "honor_vectors")


def _load_or_build() -> dict:
    """The tables from the on-disk cache when it holds an intact copy; else built here (and
    written to the cache for the next process)."""
    from . import table_cache

    tables = table_cache.load(NAMES)
    if tables is None:
        tables = _build()
        table_cache.store(tables)
    return tables


def get_tables() -> dict:
    """Return the shanten tables, reading or building them on first call (thread-safe,
    double-checked)."""
    global _TABLES
    tables = _TABLES
    if tables is None:
        with _LOCK:
            if _TABLES is None:
                _TABLES = _load_or_build()
            tables = _TABLES
    return tables


def is_built() -> bool:
    """Whether the tables are in memory yet (read or built by :func:`get_tables`)."""
    return _TABLES is not None


def checksums() -> dict[str, str]:
    """sha256 of each table's bytes, for the pinning test and ``show_config``."""
    return {name: hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest() for name, arr in get_tables().items()}
