"""One table as a PettingZoo AEC environment (needs ``pettingzoo``: ``pip install mjfast[env]``):
:class:`MahjongAEC` and PettingZoo's factories ``raw_env()``, ``env()`` and ``parallel_env()``."""
from __future__ import annotations

from ._aec import MahjongAEC
from .parallel import MahjongParallel

__all__ = ["env", "parallel_env", "raw_env"]   # (MahjongAEC: exported by mjfast.env, importable here too)


def raw_env(**kwargs) -> MahjongAEC:
    """PettingZoo's ``raw_env()`` convention: a :class:`MahjongAEC` (keywords as its own)."""
    return MahjongAEC(**kwargs)


def env(**kwargs):
    """PettingZoo's ``env()`` convention: :func:`raw_env` wrapped in PettingZoo's
    ``OrderEnforcingWrapper`` (which refuses a step before reset, among others).

    Examples
    --------
    >>> from mjfast.env import aec
    >>> e = aec.env(rules="basic")
    >>> e.reset(seed=1)
    >>> e.agent_selection, e.unwrapped.rules.name
    ('player_0', 'basic')
    """
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


def parallel_env(**kwargs):
    """PettingZoo's ``parallel_env()`` convention: a :class:`~mjfast.env.parallel.MahjongParallel`."""
    return MahjongParallel(**kwargs)
