"""The tile kinds of :mod:`mjfast.tiles`: the constants, the kind names and the single-tile
conversions (:func:`tile_index`, :func:`tile_name`).
"""

from __future__ import annotations

import operator

import numpy as np

# ---------------------------------------------------------------------------
# constants

N_KINDS = 34
"""Number of standard tile kinds (1m..9m, 1p..9p, 1s..9s, 1z..7z)."""
N_EXTENDED = 43
"""Number of kinds in the extended model (standard + 8 bonus tiles + joker)."""
N_COPIES = 4
"""Physical copies of each standard kind."""
N_BONUS = 8
"""Number of bonus tiles f1..f8 (one copy each)."""
SUITS = "mps"
"""Letters of the three number suits, in index order."""
HONOR = "z"
"""Letter of the honor suit."""
BONUS_FIRST = 34
"""Index of bonus tile f1 in the extended model (f8 is 41)."""
JOKER = 42
"""Index of the joker in the extended model."""
MAX_JOKERS = 8
"""Default ``max_jokers`` of :func:`parse_tiles`."""
MAX_TILES = 14
"""Largest hand size accepted by the parsers."""
PACKED_WORDS = 4
"""Words of a packed standard hand."""
PACKED_WORDS_EXTENDED = 5
"""Words of a packed extended hand."""

TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""Indices of the 13 terminal and honor kinds (1m 9m 1p 9p 1s 9s 1z..7z)."""
KIND_NAMES = tuple(
    [f"{r}{s}" for s in SUITS for r in range(1, 10)] + [f"{r}{HONOR}" for r in range(1, 8)]
)
"""Text name of each standard kind, ``KIND_NAMES[13] == "5p"``."""
HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
"""English names of 1z..7z."""

DIGITS = "0123456789"
SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
SUIT_MAX = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
GROUP_LETTERS = ("m", "p", "s", "z")
_MAX_JOKER_FIELD = 255  # joker count must fit bits 8..15 of the fifth packed word

# per-kind upper bound on counts, extended model
COUNT_LIMIT_PY = (N_COPIES,) * N_KINDS + (1,) * N_BONUS + (_MAX_JOKER_FIELD,)

# packed word (= suit) of each standard kind
WORD_OF = tuple(min(k // 9, 3) for k in range(N_KINDS))

def kind_name(k: int) -> str:
    if k < N_KINDS:
        return KIND_NAMES[k]
    if k < JOKER:
        return f"f{k - BONUS_FIRST + 1}"
    return "j"


# ---------------------------------------------------------------------------
# single-tile helpers


def tile_index(name: str) -> int:
    """Return the index of one tile given by name.

    Parameters
    ----------
    name : str
        ``"1m"`` .. ``"9m"``, ``"1p"`` .. ``"9p"``, ``"1s"`` .. ``"9s"``,
        ``"1z"`` .. ``"7z"`` (standard, 0-33), ``"f1"`` .. ``"f8"`` (also
        written ``"1f"`` .. ``"8f"``; bonus, 34-41) or ``"j"`` (joker, 42).
        Surrounding whitespace is ignored.

    Returns
    -------
    int
        The kind index.

    Raises
    ------
    TypeError
        If `name` is not a str.
    ValueError
        If `name` is not one tile.

    Examples
    --------
    >>> tile_index("5p")
    13
    >>> tile_index("7z"), tile_index("f3"), tile_index("3f"), tile_index("j")
    (33, 36, 36, 42)
    """
    if not isinstance(name, str):
        raise TypeError(f"tile_index expects a str such as '5p', got {type(name).__name__}")
    s = name.strip()
    if s == "j":
        return JOKER
    if len(s) == 2:
        a, b = s[0], s[1]
        if a == "f" and b in "12345678":
            return BONUS_FIRST + int(b) - 1
        if a in "123456789" and b in SUIT_MAX and int(a) <= SUIT_MAX[b]:
            if b == "f":
                return BONUS_FIRST + int(a) - 1
            return SUIT_BASE[b] + int(a) - 1
    raise ValueError(
        f"{name!r} is not a tile name: expected 1m-9m, 1p-9p, 1s-9s, 1z-7z, f1-f8 or j"
    )


def tile_name(index: int) -> str:
    """Return the text name of a tile kind index.

    Parameters
    ----------
    index : int
        0-33 for standard kinds, 34-41 for bonus tiles, 42 for the joker.

    Returns
    -------
    str
        ``"1m"`` .. ``"7z"``, ``"f1"`` .. ``"f8"`` or ``"j"``.

    Raises
    ------
    TypeError
        If `index` is not an integer (``bool`` is rejected).
    ValueError
        If `index` is outside 0-42.

    Examples
    --------
    >>> tile_name(13)
    '5p'
    >>> tile_name(27), tile_name(36), tile_name(42)
    ('1z', 'f3', 'j')
    """
    if isinstance(index, (bool, np.bool_)):
        raise TypeError("tile_name expects an integer index, got bool")
    try:
        k = operator.index(index)
    except TypeError:
        raise TypeError(
            f"tile_name expects an integer index, got {type(index).__name__}"
        ) from None
    if not 0 <= k < N_EXTENDED:
        raise ValueError(f"tile index {k} out of range 0-{N_EXTENDED - 1}")
    return kind_name(k)
