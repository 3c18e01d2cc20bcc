"""The bounds of the environments' observations, for the Gymnasium and PettingZoo spaces: every
scalar of ``cn-v0`` and ``am-v0`` between finite bounds that the rules guarantee.

Scores move by at most a rule set's largest payment per hand (``hand_swing``) for each hand of
a game: classical and basic, 3 x ``base_points``; Chinese Official with fan scoring, 3 x
(8 + the fan bound) (a false win moves 30); American, 12 x ``base_points`` (self-drawn and
jokerless: 4 x each of three), with a card 6 x its most valuable line (self-drawn doubles it,
the jokerless multiplier where the line allows).
"""
from __future__ import annotations

import numpy as np

from .. import rules as _rules
from ..mcr import FANS

# a hand's fan total is at most 8 x the sum of the fan values (no fan is counted more than 8
# times: 8 flowers, at most 4 sets and a pair): a loose, safe bound
_FAN_BOUND_CACHE: list = []


def _fan_bound() -> int:
    if not _FAN_BOUND_CACHE:
        _FAN_BOUND_CACHE.append(8 * sum(v for _, _, v in FANS))
    return _FAN_BOUND_CACHE[0]


def hand_swing(rules: _rules.RuleSet) -> int:
    """The most a seat's score moves in one hand (up or down) under ``rules``."""
    k = rules.kernel()
    if rules.family == "chinese":
        if k.get("fan_scoring"):
            return max(3 * (8 + _fan_bound()), 30)
        return 3 * int(k["base_points"])
    card = k.get("card")
    if card is None:
        return 12 * int(k["base_points"])
    mult = max(int(card["multiplier"]), 1)
    value = [int(p) * (mult if b else 1) for p, b in zip(card["points"], card["bonus"])]
    return 6 * max(value, default=0)


def scalar_bounds(rules: _rules.RuleSet, n_scalars: int) -> tuple:
    """(low, high) float32 arrays: the bounds of every scalar of the rule family's encoding
    (with the derived scalar when ``n_scalars`` has it)."""
    k = rules.kernel()
    hands = int(rules.hands_per_game)
    n_tiles = int(rules.n_tiles)
    swing = hand_swing(rules) * hands
    lo = np.zeros(n_scalars, np.float64)
    hi = np.ones(n_scalars, np.float64)              # one-hot and flag entries: 0 or 1
    lo[0], hi[0] = 0, n_tiles                        # tiles left in the (live) wall
    lo[1], hi[1] = 0, 2 * n_tiles                    # turns of the hand (a draw or a claim each)
    if rules.family == "chinese":
        lo[6:10], hi[6:10] = -swing, swing           # scores (from 0)
        hi[10:14] = 8                                # bonus tiles
        hi[14:18] = 4                                # declared concealed kongs
        hi[22] = hands                               # hand number (hands at the game's end)
        hi[27] = hands                               # hands per game
        if n_scalars > 28:
            lo[28], hi[28] = -1, 13                  # derived: own shanten
    else:
        start = int(k["start_points"])
        lo[6:10], hi[6:10] = start - swing, start + swing
        hi[14] = hands
        hi[15] = hands
        hi[23] = 3                                   # tiles still to choose in a pass
        hi[24] = 3                                   # tiles passed blind
        hi[33] = int(k["jokers"])
        if n_scalars > 34:
            hi[34] = 127                             # derived: own distance (to the card: 127 = dead)
    return lo.astype(np.float32), hi.astype(np.float32)
