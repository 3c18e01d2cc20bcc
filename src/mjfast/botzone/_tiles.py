"""Botzone tile names and mjfast's: W/B/T/F/J/H to m/p/s/z/f.

Botzone writes a tile as a capital letter and a digit: ``W1``-``W9`` characters, ``B1``-``B9``
dots, ``T1``-``T9`` bamboos, ``F1``-``F4`` the winds East, South, West, North, ``J1``-``J3``
the dragons **Red, Green, White** (the judge's honor order East, South, West, North, Red,
Green, White), and ``H1``-``H8`` the bonus tiles, seasons (``H1``-``H4``) then flowers
(``H5``-``H8``). mjfast's dragons run the other way (``5z`` White, ``6z`` Green, ``7z`` Red)
and its bonus tiles are flowers first (``f1``-``f4``) then seasons (``f5``-``f8``).
"""
from __future__ import annotations

from .. import tiles

_SUITS = (("W", "m"), ("B", "p"), ("T", "s"))

#: Botzone name -> mjfast name, every tile (34 kinds and 8 bonus tiles)
TILES: dict[str, str] = {}
for _b, _m in _SUITS:
    for _r in range(1, 10):
        TILES[f"{_b}{_r}"] = f"{_r}{_m}"
for _r in range(1, 5):
    TILES[f"F{_r}"] = f"{_r}z"
TILES.update({"J1": "7z", "J2": "6z", "J3": "5z"})
for _r in range(1, 5):
    TILES[f"H{_r}"] = f"f{_r + 4}"          # seasons
    TILES[f"H{_r + 4}"] = f"f{_r}"          # flowers

#: mjfast name -> Botzone name
NAMES: dict[str, str] = {m: b for b, m in TILES.items()}

#: Botzone name of each of the 34 kinds, by mjfast kind index
KIND_NAMES: tuple[str, ...] = tuple(NAMES[tiles.tile_name(k)] for k in range(34))
#: kind index of each Botzone kind name (bonus tiles excluded)
KIND_OF: dict[str, int] = {b: k for k, b in enumerate(KIND_NAMES)}
#: Botzone name of mjfast's bonus tile ids 136-143 (f1-f8)
BONUS_NAMES: tuple[str, ...] = tuple(NAMES[f"f{i}"] for i in range(1, 9))
#: mjfast tile id (136-143) of each Botzone bonus tile
BONUS_ID: dict[str, int] = {b: 136 + i for i, b in enumerate(BONUS_NAMES)}


def is_flower(name: str) -> bool:
    """Whether a Botzone tile name is a bonus tile (``H1``-``H8``)."""
    return name in BONUS_ID


def to_botzone(tile) -> str:
    """Botzone's name of an mjfast tile: a name such as ``"5p"``, ``"7z"`` or ``"f3"``, or a
    kind index 0-33.

    Examples
    --------
    >>> from mjfast.botzone import to_botzone
    >>> to_botzone("5p"), to_botzone("7z"), to_botzone("5z"), to_botzone(27), to_botzone("f1")
    ('B5', 'J1', 'J3', 'F1', 'H5')
    """
    if isinstance(tile, bool):
        raise TypeError("a tile is a name such as '5p' or a kind index 0-33, not a bool")
    if isinstance(tile, int):
        if not 0 <= tile < 34:
            raise ValueError(f"a kind index is 0-33, got {tile}")
        return KIND_NAMES[tile]
    if not isinstance(tile, str):
        raise TypeError(f"a tile is a name such as '5p' or a kind index 0-33, not {type(tile).__name__}")
    if tile not in NAMES:
        raise ValueError(f"{tile!r} is not one mjfast tile (1m-9m, 1p-9p, 1s-9s, 1z-7z, f1-f8)")
    return NAMES[tile]


def from_botzone(name: str) -> str:
    """mjfast's name of a Botzone tile (``W1``-``W9``, ``B1``-``B9``, ``T1``-``T9``,
    ``F1``-``F4``, ``J1``-``J3``, ``H1``-``H8``).

    Examples
    --------
    >>> from mjfast.botzone import from_botzone
    >>> from_botzone("J1"), from_botzone("J3"), from_botzone("F4"), from_botzone("H1")
    ('7z', '5z', '4z', 'f5')
    """
    if not isinstance(name, str):
        raise TypeError(f"a Botzone tile is a name such as 'W5', not {type(name).__name__}")
    if name not in TILES:
        raise ValueError(f"{name!r} is not a Botzone tile (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3, H1-H8)")
    return TILES[name]


def kind(name: str) -> int:
    """The mjfast kind index (0-33) of a Botzone kind name; ValueError for anything else."""
    k = KIND_OF.get(name)
    if k is None:
        raise ValueError(f"{name!r} is not a Botzone tile kind (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3)")
    return k
