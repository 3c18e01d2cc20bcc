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
