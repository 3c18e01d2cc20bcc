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

The names below are imported on first use (``mjfast.shanten`` imports :mod:`mjfast.hands` when
it is first read), so that ``import mjfast`` and a one-hand command start quickly; every name
of ``__all__`` is there all the same (``dir``, ``from mjfast import ...``, ``import *``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._version import __version__

#: the subpackages and modules read as attributes (``mjfast.tiles``); the compatibility modules
#: among them keep documented import paths (``mjfast.sim.play_walls``, ``mjfast.amsim.american_distance``)
_MODULES = frozenset({"amsim", "analysis", "card", "cli", "deals", "env", "exact", "game", "hands", "mcr", "odds",
                      "plot", "rules", "sim", "stats", "tiles", "wall", "winturn",
                      "_core", "_kernels", "_runtime"})   # (private, but reachable as attributes as before)

#: public name -> the module that defines it (imported when the name is first read)
_ORIGIN = {
    "get_options": "._runtime.options", "set_options": "._runtime.options", "show_config": "._runtime.threads",
    "DiscardOption": ".analysis", "HandAnalysis": ".analysis", "WaitFan": ".analysis", "analyze": ".analysis",
    "OddsTable": ".analysis.odds", "odds_table": ".analysis.odds",
    "WinByTurn": ".analysis.winturn", "win_by_turn": ".analysis.winturn", "win_by_turn_random": ".analysis.winturn",
    "Card": ".card", "load_card": ".card", "calibration": ".calibration",
    "Deals": ".deals", "DealStats": ".deals", "deal": ".deals", "deal_stats": ".deals",
    "exact_deal_odds": ".exact", "exact_deal_odds_table": ".exact",
    **{name: ".game" for name in (
        "AmericanPolicy", "AmericanRules", "AmericanSimResult", "AmericanView", "BatchPolicy", "Comparison", "GameLog",
        "GameRules", "IllegalActionError", "PassEffect", "Policy", "SeatView", "SimResult", "charleston_effect",
        "compare", "game_rules", "replay", "rerun", "simulate")},
    **{name: ".hands" for name in ("Improvement", "decompose", "effective_tiles", "is_winning", "shanten", "waits")},
    **{name: ".tiles" for name in ("Meld", "ParsedHand", "format_hand", "format_tiles", "pack", "parse_hand",
                                   "parse_tiles", "unpack")},
}

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
    "calibration", "DiscardOption", "HandAnalysis", "OddsTable", "WaitFan", "WinByTurn", "analyze", "odds_table", "plot",
    "win_by_turn", "win_by_turn_random",
    # configuration
    "get_options", "set_options", "show_config",
    # environments (imported on first use; importing mjfast.env registers the Gymnasium ids)
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
    """Import a public name's module when the name is first read (then it is a plain attribute)."""
    origin = _ORIGIN.get(name)
    if origin is not None:
        value = getattr(importlib.import_module(origin, __name__), name)
    elif name in _MODULES:
        value = importlib.import_module("." + name, __name__)
    else:
        raise AttributeError(f"module 'mjfast' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:   # what the names are, for type checkers and editors (nothing is imported at run time)
    from . import amsim, card, env, mcr, odds, plot, rules, sim, tiles, wall, winturn  # noqa: F401
    from ._runtime.options import get_options, set_options  # noqa: F401
    from ._runtime.threads import show_config  # noqa: F401
    from .analysis import DiscardOption, HandAnalysis, WaitFan, analyze  # noqa: F401
    from .analysis.odds import OddsTable, odds_table  # noqa: F401
    from .analysis.winturn import WinByTurn, win_by_turn, win_by_turn_random  # noqa: F401
    from .card import Card, load_card  # noqa: F401
    from .deals import Deals, DealStats, deal, deal_stats  # noqa: F401
    from .exact import exact_deal_odds, exact_deal_odds_table  # noqa: F401
    from .game import (  # noqa: F401
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
    from .hands import Improvement, decompose, effective_tiles, is_winning, shanten, waits  # noqa: F401
    from .tiles import Meld, ParsedHand, format_hand, format_tiles, pack, parse_hand, parse_tiles, unpack  # noqa: F401
