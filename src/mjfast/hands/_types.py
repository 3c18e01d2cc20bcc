"""The result type of the hand functions (a leaf: both hand models build it)."""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Improvement:
    """Tiles that lower the shanten of a hand (after ``discard``, if any).

    Attributes
    ----------
    discard : str or None
        The tile discarded from a 3k+2 hand first; None for a 3k+1 hand.
    shanten : int
        Shanten of the 3k+1 hand (after the discard).
    tiles : dict of str to int
        Each tile kind whose draw lowers the shanten -> copies still unseen (4 minus those
        in hand, those visible and the discard), at least 1.
    count : int
        Total unseen copies over ``tiles``: how many live draws improve the hand. Kinds with
        no unseen copy left are not listed (they cannot be drawn).
    """

    discard: str | None
    shanten: int
    tiles: dict
    count: int
