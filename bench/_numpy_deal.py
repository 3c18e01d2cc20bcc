"""What a user would write with plain numpy: shuffle the 136 tiles per deal, count each seat's tiles.

Used by the deal benchmarks as the baseline mjfast is compared with in the same run.
"""
from __future__ import annotations

import numpy as np


def numpy_deal(n: int, seed: int = 0) -> np.ndarray:
    """(n, 4, 34) uint8 counts of East (14 tiles) and South, West, North (13) from shuffled walls."""
    rng = np.random.default_rng(seed)
    kinds = np.repeat(np.arange(34), 4)
    walls = rng.permuted(np.broadcast_to(kinds, (n, 136)), axis=1)[:, :53]
    seat = np.repeat(np.arange(4), [14, 13, 13, 13])
    flat = (np.arange(n)[:, None] * 4 + seat[None, :]) * 34 + walls
    return np.bincount(flat.ravel(), minlength=n * 4 * 34).reshape(n, 4, 34).astype(np.uint8)


def numpy_dealer_hands(n: int, seed: int = 0) -> np.ndarray:
    """(n, 34) counts of 14 random tiles per hand: argpartition of random keys (a common idiom)."""
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 136))
    pick = np.argpartition(keys, 13, axis=1)[:, :14] // 4
    out = np.zeros((n, 34), np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), 14), pick.ravel()), 1)
    return out
