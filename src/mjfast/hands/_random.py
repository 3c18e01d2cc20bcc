"""Uniform random hands drawn from the 136-tile set (numpy only; for demos, tests, benchmarks)."""
from __future__ import annotations

import numpy as np


def random_hands(n: int, size: int = 14, *, seed=None, suits: str = "mpsz") -> np.ndarray:
    """``n`` hands of ``size`` tiles drawn without replacement from the tiles of ``suits``.

    Parameters
    ----------
    n : int
        Number of hands.
    size : int
        Tiles per hand (1-14).
    seed : None, int, SeedSequence or Generator
        Passed to :func:`numpy.random.default_rng`.
    suits : str
        Which suits make up the wall: ``"mpsz"`` (all 136 tiles), ``"m"`` (a flush wall of 36
        characters), ...

    Returns
    -------
    ndarray of shape (n, 34) and dtype uint8

    Examples
    --------
    >>> h = random_hands(3, 13, seed=1)
    >>> h.shape, h.sum(axis=1).tolist()
    ((3, 34), [13, 13, 13])
    """
    rng = np.random.default_rng(seed)
    kinds = np.concatenate([np.arange(9 * "mpsz".index(s), 9 * "mpsz".index(s) + (7 if s == "z" else 9)) for s in suits])
    wall = np.repeat(kinds, 4).astype(np.uint8)
    out = np.zeros((n, 34), dtype=np.uint8)
    chunk = 1 << 16
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        keys = rng.random((m, len(wall)))
        if size < len(wall):
            pick = np.argpartition(keys, size - 1, axis=1)[:, :size]
        else:
            pick = np.tile(np.arange(len(wall)), (m, 1))
        tiles = wall[pick]
        rows = np.repeat(np.arange(m), size)
        np.add.at(out[start : start + m], (rows, tiles.ravel()), 1)
    return out
