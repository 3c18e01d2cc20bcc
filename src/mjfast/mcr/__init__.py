"""Chinese Official (MCR) fan scoring: the fans a winning hand counts, one hand or a batch.

:func:`fan` scores one hand (text or counts, with its called sets and the situation of the win);
:func:`fan_batch` scores arrays of hands in a nogil kernel on every core. Both count the 81
fans of the Chinese Official rules plus flowers exactly as the widely used calculator
PyMahjongGB 1.4.0 does, total and fan list, including its choices where the rules leave room
(docs/mcr.md lists them): the best-scoring decomposition with its tie-break, the "not counted"
rules, the 5-fan "Concealed Kong and Melded Kong", the corrections of the situational flags.
Unlike it, impossible input (a fifth copy, a wrong tile count, a malformed set) raises
ValueError naming the problem, and a hand the winning tile does not complete is "not a win"
(``is_win`` False, total 0).

Examples
--------
>>> from mjfast import mcr
>>> r = mcr.fan("123456789m123p55p", win_tile="5p")
>>> r.total, r.is_win
(23, True)
>>> [(f.name, f.count) for f in r.fans][:3]
[('Pure Straight', 1), ('Concealed Hand', 1), ('All Chows', 1)]
>>> r = mcr.fan("123m456p789s1122z", win_tile="2z")
>>> r.total, r.reaches(8)
(11, True)
"""
from __future__ import annotations

from ._fan import FAN_NAMES, FANS, FLOWER_COLUMN, Fan, FanResult, fan, fan_batch

__all__ = ["FANS", "FAN_NAMES", "FLOWER_COLUMN", "Fan", "FanResult", "fan", "fan_batch"]
