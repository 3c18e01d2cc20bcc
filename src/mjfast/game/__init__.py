"""The game simulator: complete games of every rule family on the resumable engine.

- :func:`simulate`, :func:`compare`, :func:`replay`, :func:`rerun`, :func:`play_walls`,
  :func:`charleston_effect` (:mod:`.runner`, :mod:`.charleston`);
- Python policies: :class:`Policy`, :class:`AmericanPolicy` and what they see, :class:`BatchPolicy`
  (many tables per call),
  :class:`SeatView`, :class:`AmericanView` (:mod:`.policy`);
- results: :class:`SimResult`, :class:`AmericanSimResult`, :class:`Comparison`,
  :class:`PassEffect` (:mod:`.results`); event logs: :class:`GameLog` (:mod:`.log`);
- one adapter per rule family (:mod:`.chinese`, :mod:`.american`): its engine, built-in
  policies, bridge to Python policies, output columns and events.

Rule sets are values of :mod:`mjfast.rules` (``mjfast.rules.get("mcr", min_fan=0)``), taken by
every function here as ``rules=``.

Examples
--------
>>> from mjfast import game, rules
>>> res = game.simulate(100, rules=rules.get("basic", rounds=1), seed=1, progress=False)
>>> res.games, res.hands
(100, 400)
"""
from __future__ import annotations

from .charleston import OPTIONAL_PASSES, charleston_effect
from .extensions import AmericanSimResult
from .log import LOG_VERSION, GameLog
from .policy import AmericanPolicy, AmericanView, BatchPolicy, IllegalActionError, Policy, SeatView
from .results import AMERICAN_CLAIMS, CLAIM_KINDS, Comparison, PassEffect, SimResult
from .runner import compare, play_walls, replay, rerun, simulate

__all__ = [
    "AMERICAN_CLAIMS", "AmericanPolicy", "AmericanSimResult", "AmericanView", "BatchPolicy", "CLAIM_KINDS",
    "Comparison", "GameLog", "IllegalActionError", "LOG_VERSION", "OPTIONAL_PASSES", "PassEffect", "Policy",
    "SeatView", "SimResult", "charleston_effect", "compare", "play_walls", "replay", "rerun", "simulate",
]
