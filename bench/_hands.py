"""Fixed-seed hand sets shared by the pytest benchmarks, report.py and check_agreement.py."""
from __future__ import annotations

import numpy as np

from mjfast import pack
from mjfast.hands._random import random_hands

#: name -> (tiles per hand, suits of the wall, seed)
HAND_SETS = {
    "random14": (14, "mpsz", 1401),
    "random13": (13, "mpsz", 1301),
    "flush14": (14, "m", 1402),
}

DESCRIPTIONS = {
    "random14": "14 tiles drawn uniformly from the 136-tile wall",
    "random13": "13 tiles drawn uniformly from the 136-tile wall",
    "flush14": "14 tiles drawn from the 36 characters (one-suit hands, hardest for decomposition)",
}


def make_hands(name: str, n: int) -> np.ndarray:
    """(n, 34) uint8 counts for the hand set ``name`` (deterministic)."""
    size, suits, seed = HAND_SETS[name]
    return random_hands(n, size, seed=seed, suits=suits)


def make_packed(counts: np.ndarray) -> np.ndarray:
    """(n, 4) uint32 packed form of a count batch."""
    return np.ascontiguousarray(pack(counts))


def quad_hands(n: int, size: int, *, seed: int, quads: int = 1, suits: str = "mpsz") -> np.ndarray:
    """Hands of ``size`` tiles holding at least ``quads`` four-of-a-kinds.

    The quad kinds are drawn uniformly from the kinds of ``suits``; the other tiles are drawn
    uniformly from what is left of the wall. Used to stress four-copy handling.
    """
    rng = np.random.default_rng(seed)
    kinds = np.concatenate([np.arange(9 * "mpsz".index(s), 9 * "mpsz".index(s) + (7 if s == "z" else 9)) for s in suits])
    out = np.zeros((n, 34), dtype=np.uint8)
    rest = size - 4 * quads
    if rest < 0:
        raise ValueError("too many quads for the hand size")
    for i in range(n):
        q = rng.choice(kinds, size=quads, replace=False)
        out[i, q] = 4
        wall = np.repeat(kinds, 4 - out[i, kinds].astype(np.int64))
        extra = rng.choice(wall, size=rest, replace=False)
        np.add.at(out[i], extra, 1)
    return out
