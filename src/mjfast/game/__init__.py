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
"""
from __future__ import annotations

from .. import rules as _rules
from ..rules import AmericanRules, RuleSet
from ..rules import ChineseRules as GameRules
from .charleston import OPTIONAL_PASSES, charleston_effect
from .extensions import AmericanSimResult
from .log import LOG_VERSION, GameLog
from .policy import AmericanPolicy, AmericanView, BatchPolicy, IllegalActionError, Policy, SeatView
from .results import AMERICAN_CLAIMS, CLAIM_KINDS, Comparison, PassEffect, SimResult
from .runner import compare, play_walls, replay, rerun, simulate

__all__ = [
    "AMERICAN_CLAIMS", "AmericanPolicy", "BatchPolicy", "AmericanRules", "AmericanSimResult", "AmericanView", "CLAIM_KINDS",
    "Comparison", "GameLog", "GameRules", "IllegalActionError", "LOG_VERSION", "OPTIONAL_PASSES", "PassEffect",
    "Policy", "SeatView", "SimResult", "american_rules", "charleston_effect", "compare", "game_rules",
    "play_walls", "replay", "rerun", "simulate",
]


def game_rules(rules: str | RuleSet = "classical", **options) -> RuleSet:
    """A rule set with its options resolved: :func:`mjfast.rules.get` under its earlier name.

    Options of the Chinese family (``"classical"``, ``"basic"``, ``"mcr"``): ``flowers``
    (bool), ``special_forms`` (tuple of form names that also win; classical/basic only),
    ``dead_wall`` ("dice" or a tile count 0-40), ``ready_declaration`` (bool),
    ``base_points`` (int 1 to 10**6), ``payment`` ("each" or "discarder"), ``rounds`` (1-16
    deals per seat), ``chow`` and ``kong`` (allow those claims), ``refill_dead_wall`` and
    ``added_kong`` (two readings of the seeds, see :mod:`mjfast.rules.chinese`).
    ``"american"``: ``jokers`` (0-10, default 8), ``second_charleston`` ("policy", True,
    False), ``courtesy`` and ``blind_pass`` (bool), ``base_points`` (50), ``start_points``
    (650), ``rounds`` (see :mod:`mjfast.rules.american`).

    Examples
    --------
    >>> game_rules("basic").ready_declaration
    True
    >>> game_rules("classical", payment="discarder", rounds=2).hands_per_game
    8
    >>> game_rules("american", jokers=10).n_tiles
    154
    """
    return _rules.get(rules, **options)


def american_rules(base: AmericanRules | None = None, **options) -> AmericanRules:
    """The American rule set with options (``base``: start from that one): an alias of
    ``mjfast.rules.get("american", **options)``; ``hands_per_game`` (a multiple of 4) may be
    given instead of ``rounds``.

    Examples
    --------
    >>> r = american_rules(jokers=10, second_charleston=False)
    >>> r.n_tiles, r.kernel()["second"]
    (154, 0)
    >>> american_rules(hands_per_game=8).rounds
    2
    """
    if base is not None and not isinstance(base, AmericanRules):
        raise TypeError(f"base must be an AmericanRules, not {type(base).__name__}")
    if base is not None:
        return _rules.get(base, **options)
    return _rules.get("american", **options)
