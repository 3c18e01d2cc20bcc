"""Uniform random hands drawn from the 136-tile set (for demos, tests, benchmarks)."""
from __future__ import annotations

import numpy as np

from .._kernels.deal import random_hands_batch
from .._runtime.seeding import root_key
from .._runtime.threads import resolve_threads
from .._runtime.validation import check_count

#: mixed into the seed's key, so that these hands are not the first hands ``mjfast.deal`` deals
#: with the same seed (both draw from per-index streams of the key)
_STREAM_TAG = 0x52414E44484E4453      # "RANDHNDS"


def random_hands(n: int, size: int = 14, *, seed=None, suits: str = "mpsz", threads: int | None = None) -> np.ndarray:
    """``n`` hands of ``size`` tiles drawn without replacement from the tiles of ``suits``.

    Dealt by the compiled dealer of :func:`mjfast.deal` (hand i from its own random stream of
    the seed, a partial Fisher-Yates shuffle of the wall): about 10 million hands a second per
    core, and the same hands for a seed whatever ``threads`` is.

    Parameters
    ----------
    n : int
        Number of hands.
    size : int
        Tiles per hand (0 up to the number of tiles of ``suits``).
    seed : None, int, SeedSequence or Generator
        Anything :func:`numpy.random.default_rng` takes.
    suits : str
        Which suits make up the wall: ``"mpsz"`` (all 136 tiles), ``"m"`` (a flush wall of 36
        characters), ...
    threads : int or None
        Threads that deal (None = all CPUs; the hands never depend on it).

    Returns
    -------
    ndarray of shape (n, 34) and dtype uint8

    Examples
    --------
    >>> h = random_hands(3, 13, seed=1)
    >>> h.shape, h.sum(axis=1).tolist()
    ((3, 34), [13, 13, 13])
    >>> bool((random_hands(1000, 14, seed=2, suits="m")[:, 9:] == 0).all())     # characters only
    True
    """
    n = check_count(n, "n")
    if not isinstance(suits, str) or not suits or any(s not in "mpsz" for s in suits) or len(set(suits)) < len(suits):
        raise ValueError(f"suits must be some of 'm', 'p', 's', 'z' (each once), e.g. 'mpsz'; got {suits!r}")
    kinds = np.concatenate([np.arange(9 * "mpsz".index(s), 9 * "mpsz".index(s) + (7 if s == "z" else 9)) for s in suits])
    wall = np.ascontiguousarray(np.repeat(kinds, 4).astype(np.uint8))
    size = check_count(size, "size")
    if size > len(wall):
        raise ValueError(f"size must be at most the {len(wall)} tiles of suits={suits!r}; got {size}")
    key = root_key(seed)
    out = np.zeros((n, 34), dtype=np.uint8)
    random_hands_batch(n, key.k0 ^ _STREAM_TAG, key.k1, wall, size, out, resolve_threads(threads))
    return out
