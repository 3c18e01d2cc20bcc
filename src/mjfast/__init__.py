"""mjfast: very fast mahjong hands, deals and simulations with a Cython core.

Quick start
-----------
>>> import mjfast
>>> mjfast.shanten("123m456p789s1122z")
0
>>> mjfast.is_winning("123m456p789s11222z")
True
>>> mjfast.waits("123m456p789s1122z")
['1z', '2z']

See the README for the tile notation, the forms and rule sets, and the batch API.
"""
from ._version import __version__

from . import wall
from ._runtime.threads import show_config
from .deals import DealStats, Deals, deal, deal_stats
from .exact import exact_deal_odds, exact_deal_odds_table
from . import rules
from . import amsim, sim  # compatibility modules (mjfast.sim.play_walls, mjfast.amsim.american_distance)
from .game import (
    AmericanPolicy, AmericanRules, AmericanSimResult, AmericanView, Comparison, GameLog, GameRules,
    IllegalActionError, PassEffect, Policy, SeatView, SimResult, charleston_effect, compare, game_rules, replay,
    rerun, simulate,
)
from .hands import Improvement, decompose, effective_tiles, is_winning, shanten, waits
from .tiles import Meld, ParsedHand, format_hand, format_tiles, pack, parse_hand, parse_tiles, unpack
from .analysis import DiscardOption, HandAnalysis, analyze
from .winturn import WinByTurn, win_by_turn, win_by_turn_random
from .odds import OddsTable, odds_table
from . import plot  # matplotlib is imported only when a plot is drawn

__all__ = [
    "__version__",
    "AmericanPolicy",
    "AmericanRules",
    "AmericanSimResult",
    "AmericanView",
    "PassEffect",
    "charleston_effect",
    "Comparison",
    "DealStats",
    "GameLog",
    "GameRules",
    "IllegalActionError",
    "Policy",
    "SeatView",
    "SimResult",
    "Deals",
    "Improvement",
    "Meld",
    "ParsedHand",
    "compare",
    "deal",
    "game_rules",
    "replay",
    "rerun",
    "simulate",
    "deal_stats",
    "decompose",
    "effective_tiles",
    "exact_deal_odds",
    "exact_deal_odds_table",
    "format_hand",
    "format_tiles",
    "is_winning",
    "pack",
    "parse_hand",
    "parse_tiles",
    "shanten",
    "show_config",
    "unpack",
    "waits",
    "wall",
    # hand analysis, win-by-turn odds, odds tables, plots
    "DiscardOption",
    "HandAnalysis",
    "OddsTable",
    "WinByTurn",
    "analyze",
    "odds_table",
    "plot",
    "win_by_turn",
    "win_by_turn_random",
]
