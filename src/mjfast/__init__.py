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

The layers, bottom up (the README's "Layout" section says where each piece lives):

- :mod:`mjfast.tiles` (notation), :mod:`mjfast.wall` (the physical wall), :mod:`mjfast.rules`
  (rule sets as data), :mod:`mjfast.stats` (estimates with their uncertainty);
- :mod:`mjfast.hands` (shanten, the winning check, waits, effective tiles: batch kernels);
  :mod:`mjfast.mcr` (Chinese Official fan scoring, one hand or a batch); :mod:`mjfast.card`
  (American cards of hands: user-supplied lines, distances, play);
- :mod:`mjfast.deals` and :mod:`mjfast.exact` (random deals, their statistics, exact odds);
- :mod:`mjfast.game` (the simulator: simulate, compare, replay, policies, results);
- :mod:`mjfast.analysis` (one hand's analysis, win-by-turn odds, odds tables, plots);
- :mod:`mjfast.env` (environments for training agents: VecTables, the Gymnasium and PettingZoo
  fronts, teacher data; imported on first use);
- :mod:`mjfast.cli` (the ``mjfast`` command).
"""
# compatibility modules (documented import paths: mjfast.sim.play_walls, mjfast.amsim.american_distance, ...)
from . import (  # noqa: E402  (plot: matplotlib only when drawing)
    amsim,
    card,  # noqa: E402
    mcr,
    odds,
    plot,
    rules,
    sim,
    tiles,
    wall,
    winturn,
)
from ._runtime.options import get_options, set_options
from ._runtime.threads import show_config
from ._version import __version__
from .analysis import DiscardOption, HandAnalysis, WaitFan, analyze
from .analysis.odds import OddsTable, odds_table
from .analysis.winturn import WinByTurn, win_by_turn, win_by_turn_random
from .card import Card, load_card
from .deals import Deals, DealStats, deal, deal_stats
from .exact import exact_deal_odds, exact_deal_odds_table
from .game import (
    AmericanPolicy,
    AmericanRules,
    AmericanSimResult,
    AmericanView,
    BatchPolicy,
    Comparison,
    GameLog,
    GameRules,
    IllegalActionError,
    PassEffect,
    Policy,
    SeatView,
    SimResult,
    charleston_effect,
    compare,
    game_rules,
    replay,
    rerun,
    simulate,
)
from .hands import Improvement, decompose, effective_tiles, is_winning, shanten, waits
from .tiles import Meld, ParsedHand, format_hand, format_tiles, pack, parse_hand, parse_tiles, unpack

__all__ = [
    "__version__",
    # rules, tiles, the wall
    "rules", "tiles", "wall",
    # Chinese Official fans; American cards
    "mcr", "card", "Card", "load_card",
    "Meld", "ParsedHand", "format_hand", "format_tiles", "pack", "parse_hand", "parse_tiles", "unpack",
    # hands
    "Improvement", "decompose", "effective_tiles", "is_winning", "shanten", "waits",
    # deals and exact odds
    "DealStats", "Deals", "deal", "deal_stats", "exact_deal_odds", "exact_deal_odds_table",
    # the game simulator
    "AmericanPolicy", "AmericanRules", "AmericanSimResult", "AmericanView", "BatchPolicy", "Comparison", "GameLog",
    "GameRules", "IllegalActionError", "PassEffect", "Policy", "SeatView", "SimResult", "charleston_effect", "compare",
    "game_rules", "replay", "rerun", "simulate",
    # analysis
    "DiscardOption", "HandAnalysis", "OddsTable", "WaitFan", "WinByTurn", "analyze", "odds_table", "plot",
    "win_by_turn", "win_by_turn_random",
    # configuration
    "get_options", "set_options", "show_config",
    # environments (imported on first use)
    "env",
]


class _GymIdsHook:
    """On ``sys.meta_path`` until ``import gymnasium``: then registers mjfast's Gymnasium ids
    right after Gymnasium's own import (:mod:`mjfast._gym_ids`, imported only then)."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        from ._gym_ids import gymnasium_spec

        return gymnasium_spec(name, path, target)


def _register_gym_ids() -> None:
    """The Gymnasium ids: registered now if Gymnasium is imported, else as soon as it is."""
    import sys

    if sys.modules.get("gymnasium") is not None:
        from ._gym_ids import register

        register()
    elif not any(type(f).__name__ == "_GymIdsHook" for f in sys.meta_path):
        sys.meta_path.insert(0, _GymIdsHook())


_register_gym_ids()


def __getattr__(name: str):
    if name == "env":   # lazily (environments are imported on first use)
        import importlib

        return importlib.import_module(".env", __name__)
    raise AttributeError(f"module 'mjfast' has no attribute {name!r}")
