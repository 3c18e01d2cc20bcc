"""Tile names of American play and of a wall's physical tiles, for :mod:`mjfast.tiles`.

American play has 36 kinds: 0-33 standard, 34 = flower (the 8 flowers are one kind), 35 = joker.
"""

from __future__ import annotations

import numpy as np

from ._names import tile_index, tile_name


def american_kind_name(k: int) -> str:
    """Name of an American kind: 0-33 as :func:`tile_name` ("5p", "7z"), 34 "f" (flower),
    35 "j" (joker).

    Examples
    --------
    >>> american_kind_name(13), american_kind_name(34), american_kind_name(35)
    ('5p', 'f', 'j')
    """
    return "f" if k == 34 else "j" if k == 35 else tile_name(k)


def american_kind_index(name) -> int:
    """Kind of an American tile name or index (accepts "f", "f1".."f8", "j", or 0-35).

    Examples
    --------
    >>> american_kind_index("5p"), american_kind_index("f3"), american_kind_index("j")
    (13, 34, 35)
    """
    if isinstance(name, (int, np.integer)) and not isinstance(name, bool):
        k = int(name)
        if not 0 <= k <= 35:
            raise ValueError(f"tile index must be 0-35, got {k}")
        return k
    if not isinstance(name, str):
        raise TypeError(f"a tile is a name such as '5p', 'f' or 'j', not {type(name).__name__}")
    if name == "j":
        return 35
    if name == "f" or (len(name) == 2 and name[0] == "f" and name[1] in "12345678"):
        return 34
    return tile_index(name)


def physical_tile_name(i: int) -> str:
    """Name of a physical tile id of a wall: 0-135 the standard tiles (kind i // 4), 136-143
    the bonus tiles f1-f8, 144 on jokers.

    Examples
    --------
    >>> physical_tile_name(13), physical_tile_name(137), physical_tile_name(150)
    ('4m', 'f2', 'j')
    """
    if i < 136:
        return tile_name(i // 4)
    if i < 144:
        return f"f{i - 135}"
    return "j"
