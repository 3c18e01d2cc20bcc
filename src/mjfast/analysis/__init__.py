"""Analysis on top of the hand kernels and the simulator: one hand's options
(:func:`analyze`, :mod:`.hand`), win-by-turn odds (:mod:`.winturn`), odds tables
(:mod:`.odds`) and plots (:mod:`.plot`, matplotlib imported only when drawing)."""
from __future__ import annotations

from .hand import DiscardOption, HandAnalysis, HandInput, WaitFan, analyze, read_hand

__all__ = ["DiscardOption", "HandAnalysis", "HandInput", "WaitFan", "analyze", "read_hand"]
