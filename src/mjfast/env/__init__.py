"""Environments for training agents: every rule set mjfast plays, stepped at engine speed.

- :class:`VecTables`: N tables stepped together without the GIL (numpy in, numpy out), one
  decision per table per step; a Gymnasium ``VectorEnv`` when Gymnasium is installed
  (``gymnasium.make_vec("mjfast/Classical-v0", num_envs=N)``, one id per rule set).
- :class:`MahjongAEC`: one table as a PettingZoo AEC environment, :class:`MahjongParallel` the
  same with PettingZoo's parallel API (need PettingZoo; PettingZoo's ``env()``, ``raw_env()``
  and ``parallel_env()`` factories are in :mod:`mjfast.env.aec`).
- :func:`decisions`: (observation, mask, action, seat, reward) arrays of every decision
  built-in policies take, or of the decisions in game logs: behaviour-cloning data.
- the versioned action and observation encodings (``cn-v0``, ``am-v0``) are
  :mod:`mjfast.game.encodings` (the engine's decisions are what they encode).

Gymnasium and PettingZoo are optional (``pip install mjfast[env]``); without them
:class:`VecTables` and :func:`decisions` work on plain numpy.
"""
from __future__ import annotations

from .. import _gym_ids
from ._decisions import Decisions, decisions
from ._vec import VecTables

__all__ = ["Decisions", "MahjongAEC", "MahjongParallel", "VecTables", "decisions", "register_envs"]


def register_envs() -> None:
    """Register the Gymnasium ids (``mjfast/Classical-v0``, ``mjfast/Basic-v0``,
    ``mjfast/MCR-v0``, ``mjfast/American-v0``; imports Gymnasium). ``import mjfast`` already
    registers them when Gymnasium is imported, before or after it."""
    _gym_ids.register()


def __getattr__(name: str):
    if name == "MahjongAEC":
        from ._aec import MahjongAEC

        return MahjongAEC
    if name == "MahjongParallel":
        from .parallel import MahjongParallel

        return MahjongParallel
    if name == "MahjongVectorEnv":
        from .gym import MahjongVectorEnv

        return MahjongVectorEnv
    raise AttributeError(f"module 'mjfast.env' has no attribute {name!r}")

