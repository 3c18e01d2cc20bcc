"""American play (compatibility module): the rules live in :mod:`mjfast.rules.american`, the
simulator in :mod:`mjfast.game` (its adapter :mod:`mjfast.game.american` documents the rules as
played and the built-in policies); these names keep working."""
from __future__ import annotations

from .game import (
    OPTIONAL_PASSES,
    AmericanPolicy,
    AmericanRules,
    AmericanSimResult,
    AmericanView,
    PassEffect,
    american_rules,
    charleston_effect,
)
from .game.american import PASS_NAMES
from .game.results import N_DIST
from .hands._american import american_distance
from .tiles import american_kind_index as am_tile_index
from .tiles import american_kind_name as am_tile_name

__all__ = ["N_DIST", "OPTIONAL_PASSES", "PASS_NAMES", "AmericanPolicy", "AmericanRules", "AmericanSimResult",
           "AmericanView", "PassEffect", "am_tile_index", "am_tile_name", "american_distance", "american_rules",
           "charleston_effect"]
