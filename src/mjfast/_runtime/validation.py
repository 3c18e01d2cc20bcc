"""The argument checks every public function shares: one place for their rules and messages.

Each check raises TypeError for a value of the wrong type and ValueError for one out of range,
naming the argument; it returns the value normalised (a Python int, a bool).
"""
from __future__ import annotations

import numbers

import numpy as np

#: games and game indices stay below 2**40 (a run's unit index times 4 and the engine's random
#: streams stay exact in 64 bits)
MAX_GAMES = 2**40
#: deals and samples stay below 2**62
MAX_COUNT = 2**62


def check_games(n, name: str) -> int:
    """A number of games or a game index: an int from 0 to below 2**40."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    v = int(n)
    if v < 0 or v >= MAX_GAMES:
        raise ValueError(f"{name} must be between 0 and 2**40, got {n}")
    return v


def check_count(n, name: str = "n", lo: int = 0) -> int:
    """A count (deals, samples, states): an int from ``lo`` to below 2**62."""
    if isinstance(n, bool) or not isinstance(n, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    v = int(n)
    if v < lo:
        raise ValueError(f"{name} must be >= {lo}, got {n}")
    if v >= MAX_COUNT:
        raise ValueError(f"{name}={n} is too large")
    return v


def check_flag(name: str, value) -> bool:
    """True or False (numpy bools too)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return bool(value)


def check_choice(name: str, value, choices) -> str:
    """One of the names in ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"unknown {name} {value!r}; choose one of {tuple(choices)}")
    return value


# -- batches of hands -------------------------------------------------------------------------
# The batch hand functions take one hand or any batch of them, as numpy users expect: text, a
# list / tuple / array of texts of any shape, or an integer array whose last axis is one hand
# (any leading shape, kept in the output). These helpers turn the batch into the (N, width)
# rows the kernels read and name a bad hand by its index in the caller's shape.


def text_batch(hands, what: str = "hands"):
    """``hands`` as an object array of str with the batch's shape when it is a list, tuple or
    array of hand texts (nested lists give more axes); None when it is not text.

    Examples
    --------
    >>> text_batch(["123m", "456p"]).shape, text_batch([["1m", "2m"], ["3m", "4m"]]).shape
    ((2,), (2, 2))
    >>> text_batch([[1, 2]]) is None
    True
    """
    if isinstance(hands, np.ndarray):
        if hands.dtype.kind in "US":
            return hands.astype(str).astype(object)
        if hands.dtype == object and hands.size and any(isinstance(x, str) for x in hands.flat):
            arr = hands
        else:
            return None
    elif isinstance(hands, (list, tuple)) and hands:
        first = hands
        while isinstance(first, (list, tuple)) and first:
            first = first[0]
        if not isinstance(first, str):
            return None
        arr = np.array(hands, dtype=object)
    else:
        return None
    bad = next((x for x in arr.flat if not isinstance(x, str)), None)
    if bad is not None or arr.ndim == 0:
        raise TypeError(f"{what}: a batch of hands as text must be a list, tuple or array of str of one shape "
                        f"(nested lists of equal length), not a mix with {type(bad).__name__}")
    return arr


def hand_label(what: str, row: int, shape: tuple) -> str:
    """How an error names hand ``row`` (a flat index) of a batch of ``shape``: ``"hands"``
    for a single hand, ``"hands: hand 3"`` in a 1-D batch, ``"hands: hand (1, 2)"`` beyond.

    Examples
    --------
    >>> hand_label("hands", 0, ()), hand_label("hands", 3, (5,)), hand_label("hands", 6, (2, 4))
    ('hands', 'hands: hand 3', 'hands: hand (1, 2)')
    """
    if not shape:
        return what
    if len(shape) == 1:
        return f"{what}: hand {row}"
    return f"{what}: hand {tuple(int(i) for i in np.unravel_index(row, shape))}"


def count_rows(hands, what: str, accepted: str) -> tuple:
    """(rows, shape): an integer array whose last axis is one hand, as 2-D rows (N, width),
    and its leading (batch) shape. Raises TypeError for non-integer data (bools included) and
    ValueError for a scalar; ``accepted`` describes the inputs in both messages."""
    if isinstance(hands, (bytes, bytearray, memoryview)) or hands is None:
        raise TypeError(f"{what} must be {accepted}; not {type(hands).__name__}")
    if isinstance(hands, (list, tuple)) and len(hands) == 0:
        raise ValueError(f"{what}: an empty list holds no hand and has no shape; for an empty batch pass an array of "
                         f"shape (0, 34). Accepted: {accepted}")
    arr = np.asarray(hands)
    if arr.dtype.kind == "b":
        raise TypeError(f"{what} must hold integer tile counts, not booleans; accepted: {accepted}")
    if arr.dtype.kind not in "iu":
        if arr.size == 0 and arr.dtype.kind == "f" and arr.ndim >= 2:
            arr = arr.astype(np.uint8)
        else:
            raise TypeError(f"{what} must hold integer tile counts, got dtype {arr.dtype}; accepted: {accepted}")
    if arr.ndim == 0:
        raise ValueError(f"{what} must have shape (..., 34) (one hand per row of the last axis); got a scalar. "
                         f"Accepted: {accepted}")
    return arr.reshape(-1, arr.shape[-1]), arr.shape[:-1]
