"""Seed normalisation: every random entry point takes ``seed`` = None, an int, a sequence of
ints, a SeedSequence, a BitGenerator or a Generator (everything ``numpy.random.default_rng``
accepts), or the JSON form of a seed that mjfast writes into results and logs."""
from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

_DEFAULT_POOL = 4        # numpy's SeedSequence pool size


@dataclass(frozen=True)
class RootKey:
    """128-bit key of a run plus what is needed to repeat it.

    ``entropy`` is the SeedSequence entropy (an int, or a tuple of ints when the seed was a
    sequence) when the seed was None, an int, a sequence or a SeedSequence: passing
    :meth:`seed_value` back as ``seed`` repeats the run. It is None when the key was drawn from
    a Generator or BitGenerator (whose state moves on).
    """

    k0: int
    k1: int
    entropy: int | tuple | None
    spawn_key: tuple = ()
    pool_size: int = _DEFAULT_POOL

    def seed_value(self):
        """What to pass as ``seed`` to repeat the run (None if it came from a Generator): the
        int itself for a plain int seed, else an equivalent SeedSequence."""
        if self.entropy is None:
            return None
        if isinstance(self.entropy, int) and not self.spawn_key and self.pool_size == _DEFAULT_POOL:
            return self.entropy
        entropy = self.entropy if isinstance(self.entropy, int) else list(self.entropy)
        return np.random.SeedSequence(entropy, spawn_key=self.spawn_key, pool_size=self.pool_size)


def seed_to_json(seed):
    """The JSON form of a seed value (see :meth:`RootKey.seed_value`): None and ints as they
    are, a SeedSequence as ``{"entropy": int or [ints], "spawn_key": [ints]}`` (plus
    ``"pool_size"`` when it is not numpy's default). :func:`root_key` accepts that form back.

    Examples
    --------
    >>> import numpy as np
    >>> seed_to_json(7), seed_to_json(np.random.SeedSequence([1, 2]))
    (7, {'entropy': [1, 2], 'spawn_key': []})
    """
    if seed is None or (isinstance(seed, numbers.Integral) and not isinstance(seed, bool)):
        return None if seed is None else int(seed)
    if isinstance(seed, np.random.SeedSequence):
        e = seed.entropy
        d = {"entropy": int(e) if isinstance(e, numbers.Integral) else [int(x) for x in e],
             "spawn_key": [int(x) for x in seed.spawn_key]}
        if seed.pool_size != _DEFAULT_POOL:
            d["pool_size"] = int(seed.pool_size)
        return d
    if isinstance(seed, Mapping):
        return dict(seed)
    return str(seed)


_SEED_KINDS = ("None, a non-negative int, a sequence of non-negative ints, a numpy SeedSequence, "
               "BitGenerator or Generator")


def _seed_sequence(seed) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, Mapping):                     # the JSON form written by seed_to_json
        unknown = set(seed) - {"entropy", "spawn_key", "pool_size"}
        if "entropy" not in seed or unknown:
            raise ValueError(f"a seed mapping needs 'entropy' (and optionally 'spawn_key', 'pool_size'); "
                             f"got keys {sorted(seed)}")
        ss = _seed_sequence(seed["entropy"])
        spawn = seed.get("spawn_key", ())
        pool = seed.get("pool_size", _DEFAULT_POOL)
        try:
            return np.random.SeedSequence(ss.entropy, spawn_key=tuple(int(x) for x in spawn), pool_size=int(pool))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"invalid seed mapping {dict(seed)!r}: {exc}") from None
    if isinstance(seed, bool) or isinstance(seed, (str, bytes, float, complex)):
        raise TypeError(f"seed must be {_SEED_KINDS}; got {type(seed).__name__}")
    if isinstance(seed, numbers.Integral):
        if seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {seed}")
        return np.random.SeedSequence(int(seed))
    try:                                                 # a sequence (or array) of ints
        arr = np.asarray(seed)
    except Exception:                                    # noqa: BLE001 - reported below
        arr = None
    if arr is None or arr.dtype == object or arr.ndim != 1 or arr.size == 0:
        raise TypeError(f"seed must be {_SEED_KINDS}; got {type(seed).__name__}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"a seed sequence must hold ints, got dtype {arr.dtype}")
    if (arr < 0).any():
        raise ValueError(f"a seed sequence must hold non-negative ints, got {arr.tolist()}")
    return np.random.SeedSequence([int(x) for x in arr])


def root_key(seed) -> RootKey:
    """Turn a user ``seed`` into the (k0, k1) root key of the kernels' per-unit streams."""
    if isinstance(seed, np.random.BitGenerator):
        seed = np.random.Generator(seed)
    if isinstance(seed, np.random.Generator):
        k = seed.integers(0, 2**64, size=2, dtype=np.uint64, endpoint=False)
        return RootKey(int(k[0]), int(k[1]), None)
    ss = _seed_sequence(seed)
    state = ss.generate_state(2, np.uint64)
    e = ss.entropy
    # a constructed SeedSequence always holds its entropy (numpy draws it when given None):
    # an int, or else a sequence of ints
    entropy = int(e) if isinstance(e, numbers.Integral) else tuple(int(x) for x in cast("Sequence[int]", e))
    return RootKey(int(state[0]), int(state[1]), entropy, tuple(int(x) for x in ss.spawn_key), int(ss.pool_size))
