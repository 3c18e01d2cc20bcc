"""Analysis on top of the hand kernels and the simulator: one hand's options
(:func:`analyze`, :mod:`.hand`), win-by-turn odds (:mod:`.winturn`) and odds tables
(:mod:`.odds`). Their plots are in :mod:`mjfast.plot`."""
from __future__ import annotations

from .hand import DiscardOption, HandAnalysis, HandInput, WaitFan, analyze, read_hand

__all__ = ["DiscardOption", "HandAnalysis", "HandInput", "WaitFan", "analyze", "read_hand"]
