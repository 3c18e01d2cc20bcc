"""mjfast: very fast mahjong hands, deals and simulations with a Cython core.

>>> import mjfast
>>> mjfast.shanten("123m456p789s1122z"), mjfast.is_winning("123m456p789s11222z"), mjfast.waits("123m456p789s1122z")
(0, True, ['1z', '2z'])

The layers, bottom up (the README's "Layout" says where each piece lives): :mod:`mjfast.tiles`,
:mod:`mjfast.wall`, :mod:`mjfast.rules`, :mod:`mjfast.stats` (notation, the physical wall, rule
sets as data, estimates); :mod:`mjfast.hands`, :mod:`mjfast.mcr`, :mod:`mjfast.card` (the hand
kernels, Chinese Official fans, American cards); :mod:`mjfast.deals`, :mod:`mjfast.exact`
(random deals, exact odds); :mod:`mjfast.game` (the simulator); :mod:`mjfast.analysis`,
:mod:`mjfast.plot` (one hand's analysis, odds tables, their plots); :mod:`mjfast.env`
(environments for training agents); :mod:`mjfast.cli` (the ``mjfast`` command).

Every name of ``__all__`` is imported on first use (``mjfast.shanten`` imports
:mod:`mjfast.hands` when it is first read), so ``import mjfast`` starts quickly.
"""

from __future__ import annotations

import importlib
import sys
import threading
import warnings
from typing import TYPE_CHECKING

from ._version import __version__

#: the subpackages and modules read as attributes (``mjfast.tiles``)
_MODULES = frozenset({"analysis", "card", "cli", "deals", "env", "exact", "game", "hands", "mcr", "plot", "rules",
                      "stats", "tiles", "wall", "_core", "_kernels", "_runtime"})   # (private ones reachable too)

#: each public name's defining module (imported when the name is first read), grouped by layer
_HOMES = {
    ".tiles": ("Meld", "ParsedHand", "format_hand", "format_tiles", "pack", "parse_hand", "parse_tiles", "unpack"),
    ".card": ("Card", "load_card"),
    ".hands": ("Improvement", "decompose", "effective_tiles", "is_winning", "shanten", "waits"),
    ".deals": ("DealStats", "Deals", "deal", "deal_stats"),
    ".exact": ("exact_deal_odds", "exact_deal_odds_table"),
    ".rules": ("AmericanRules",),
    ".game": ("AmericanPolicy", "AmericanSimResult", "AmericanView", "BatchPolicy", "Comparison", "GameLog",
              "IllegalActionError", "PassEffect", "Policy", "SeatView", "SimResult", "charleston_effect", "compare",
              "play_walls", "replay", "rerun", "simulate"),
    ".analysis": ("DiscardOption", "HandAnalysis", "WaitFan", "analyze"),
    ".analysis.odds": ("OddsTable", "odds_table"),
    ".analysis.winturn": ("WinByTurn", "win_by_turn", "win_by_turn_random"),
    ".analysis.calibration": ("Calibration", "calibration"),
    "._runtime.options": ("get_options", "set_options"),
    "._runtime.threads": ("show_config",),
}
_ORIGIN = {name: home for home, names in _HOMES.items() for name in names}
_FIRST_USE = threading.RLock()   # one thread at a time imports (threads importing modules that import each other deadlock)

#: the public names: the version, the public modules read as attributes, then each layer's names
__all__ = ["__version__", "rules", "tiles", "wall", "mcr", "card", "plot", "env", *_ORIGIN]


class _GymIdsHook:
    """On ``sys.meta_path`` until ``import gymnasium``: then registers mjfast's Gymnasium ids
    right after Gymnasium's own import (:mod:`mjfast._gym_ids`, imported only then)."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        from ._gym_ids import gymnasium_spec

        return gymnasium_spec(name, path, target)


# the Gymnasium ids: registered now if Gymnasium is imported, else as soon as it is
if sys.modules.get("gymnasium") is not None:
    from ._gym_ids import register as _register_gym_ids

    _register_gym_ids()
elif not any(type(f).__name__ == "_GymIdsHook" for f in sys.meta_path):
    sys.meta_path.insert(0, _GymIdsHook())


def __getattr__(name: str):
    """Import a public name's module when the name is first read (then it is a plain attribute)."""
    origin = _ORIGIN.get(name)
    if origin is not None:
        with _FIRST_USE:
            value = getattr(importlib.import_module(origin, __name__), name)
    elif name in _MODULES:
        with _FIRST_USE:
            value = importlib.import_module("." + name, __name__)
    elif name in _DEPRECATED_CLASSES:
        return _deprecated_class(name)      # (not kept as an attribute: it warns on every use)
    else:
        raise AttributeError(f"module 'mjfast' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


# -- deprecated aliases (as msprime keeps its 0.x names): each warns and forwards to mjfast.rules; unused here.

_DEPRECATED_CLASSES = {"GameRules": "ChineseRules"}     #: deprecated class alias -> its name in mjfast.rules


def _deprecated_class(name: str):
    new = _DEPRECATED_CLASSES[name]
    warnings.warn(f"mjfast.{name} is deprecated; use mjfast.rules.{new} (the same class)", DeprecationWarning,
                  stacklevel=3)
    return getattr(importlib.import_module(".rules", __name__), new)


def game_rules(rules="classical", **options):
    """Deprecated: use :func:`mjfast.rules.get` (the same call)."""
    warnings.warn("mjfast.game_rules is deprecated; use mjfast.rules.get (the same call)", DeprecationWarning,
                  stacklevel=2)
    from .rules import get

    return get(rules, **options)


def american_rules(base=None, **options):
    """Deprecated: use ``mjfast.rules.get("american", **options)`` (or ``mjfast.rules.get(base,
    **options)`` to start from a rule set ``base``)."""
    warnings.warn('mjfast.american_rules is deprecated; use mjfast.rules.get("american", ...) (or '
                  "mjfast.rules.get(base, ...))", DeprecationWarning, stacklevel=2)
    from .rules import AmericanRules, get

    if base is not None and not isinstance(base, AmericanRules):
        raise TypeError(f"base must be an AmericanRules, not {type(base).__name__}")
    return get("american" if base is None else base, **options)


if TYPE_CHECKING:   # what the names are, for type checkers and editors (nothing is imported at run time)
    from . import card, env, mcr, plot, rules, tiles, wall
    from ._runtime.options import get_options, set_options
    from ._runtime.threads import show_config
    from .analysis import DiscardOption, HandAnalysis, WaitFan, analyze
    from .analysis.odds import OddsTable, odds_table
    from .analysis.winturn import WinByTurn, win_by_turn, win_by_turn_random
    from .card import Card, load_card
    from .deals import Deals, DealStats, deal, deal_stats
    from .exact import exact_deal_odds, exact_deal_odds_table
    # isort: off
    from .game import (AmericanPolicy, AmericanSimResult, AmericanView, BatchPolicy, Comparison, GameLog,
                       IllegalActionError, PassEffect, Policy, SeatView, SimResult, charleston_effect, compare,
                       play_walls, replay, rerun, simulate)
    # isort: on
    from .hands import Improvement, decompose, effective_tiles, is_winning, shanten, waits
    from .rules import AmericanRules
    from .tiles import Meld, ParsedHand, format_hand, format_tiles, pack, parse_hand, parse_tiles, unpack
