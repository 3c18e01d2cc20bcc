"""Seed normalisation: every random entry point takes ``seed`` = None, int, SeedSequence or Generator."""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RootKey:
    """128-bit key of a run plus what is needed to repeat it.

    ``entropy`` is the SeedSequence entropy (an int) when the seed was None, an int or a
    SeedSequence: passing it back as ``seed`` repeats the run. It is None when the key was
    drawn from a Generator.
    """

    k0: int
    k1: int
    entropy: int | None
    spawn_key: tuple = ()

    def seed_value(self):
        """What to pass as ``seed`` to repeat the run (None if it came from a Generator)."""
        if self.entropy is None:
            return None
        if self.spawn_key:
            return np.random.SeedSequence(self.entropy, spawn_key=self.spawn_key)
        return self.entropy


def root_key(seed) -> RootKey:
    """Turn a user ``seed`` into the (k0, k1) root key of the kernels' per-unit streams."""
    if isinstance(seed, np.random.Generator):
        k = seed.integers(0, 2**64, size=2, dtype=np.uint64, endpoint=False)
        return RootKey(int(k[0]), int(k[1]), None)
    if isinstance(seed, np.random.SeedSequence):
        ss = seed
    elif seed is None:
        ss = np.random.SeedSequence()
    elif isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be None, an int, a numpy SeedSequence or a Generator; got {type(seed).__name__}")
    elif seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed}")
    else:
        ss = np.random.SeedSequence(int(seed))
    k = ss.generate_state(2, np.uint64)
    return RootKey(int(k[0]), int(k[1]), int(ss.entropy), tuple(ss.spawn_key))
