"""Full-hand game simulation (compatibility module): the simulator lives in :mod:`mjfast.game`;
these names keep working.

See :mod:`mjfast.rules` for the rule sets (:mod:`mjfast.rules.chinese` for classical, basic and
Chinese Official) and :mod:`mjfast.game` for simulate, compare, replay, rerun, play_walls,
policies and results.
"""
from __future__ import annotations

from .game import (
    LOG_VERSION,
    Comparison,
    GameLog,
    GameRules,
    IllegalActionError,
    Policy,
    SeatView,
    SimResult,
    compare,
    game_rules,
    play_walls,
    replay,
    rerun,
    simulate,
)
from .game.results import CLAIM_KINDS
from .rules import MAX_BASE_POINTS
from .stats import Mean

GAME_RULES = ("classical", "basic", "mcr", "american")

__all__ = ["CLAIM_KINDS", "GAME_RULES", "LOG_VERSION", "MAX_BASE_POINTS", "Comparison", "GameLog", "GameRules",
           "IllegalActionError", "Mean", "Policy", "SeatView", "SimResult", "compare", "game_rules", "play_walls",
           "replay", "rerun", "simulate"]
