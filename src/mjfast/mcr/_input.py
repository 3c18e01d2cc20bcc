"""Reading the input of the fan functions (private: :mod:`mjfast.mcr` and the hand analyses
that score waits use these): winds, flags, the minimum fan, sets as :class:`mjfast.tiles.Meld`,
tuples or text, and one hand's checked kernel input."""
from __future__ import annotations

import functools
import numbers
from collections.abc import Sequence

import numpy as np

from .. import tiles

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3, "1z": 0, "2z": 1, "3z": 2, "4z": 3}
KIND = {name: k for k, name in enumerate(tiles.KIND_NAMES)}     # "1m" -> 0 ... "7z" -> 33
MELD_CODE = {"chow": 1, "pung": 2, "kong": 3}      # fan_batch's meld kind codes (0: no meld)
MELD_STATE = {"exposed": 1, "concealed": 0}


@functools.lru_cache(maxsize=4096)
def parse_text(text: str) -> tuple:
    """(34 concealed counts, sets as (code, first tile, exposed), flowers) of hand text
    (cached: programs score the same texts many times)."""
    parsed = tiles.parse_tiles(text, max_tiles=None)
    if parsed.jokers:
        raise ValueError("jokers are not tiles of the Chinese Official rules")
    return (tuple(int(c) for c in parsed.concealed), tuple(meld_row(m) for m in parsed.melds),
            int(np.asarray(parsed.bonus).sum()))


def check_wind(w, name: str) -> int:
    if type(w) is str and w in WINDS:        # (the common cases first: fan() per call)
        return WINDS[w]
    if type(w) is int and 0 <= w <= 3:
        return w
    if isinstance(w, numbers.Integral) and not isinstance(w, bool) and 0 <= int(w) <= 3:
        return int(w)
    raise ValueError(f"{name} must be 'E', 'S', 'W', 'N' (or 0-3); got {w!r}")


def wind_letter(w, name: str) -> str:
    """A seat or prevalent wind (as :func:`fan` takes it) as its letter "E", "S", "W" or "N"."""
    return "ESWN"[check_wind(w, name)]


def check_flag(v, name: str) -> int:
    if v is False or v is True:
        return 1 if v else 0
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, not {type(v).__name__}")
    return int(bool(v))


def check_min_fan(v) -> int:
    """A minimum for a valid win: a non-negative int (8 in the Chinese Official rules)."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"min_fan must be an int, not {type(v).__name__}")
    if not 0 <= int(v) <= 1000:
        raise ValueError(f"min_fan must be between 0 and 1000; got {v}")
    return int(v)


def meld_row(m) -> tuple:
    """(fan_batch kind code, first tile, exposed) of one meld: a tiles.Meld or a tuple
    (kind, tile, "exposed" | "concealed" | supplier 1-3), tile = a chow's lowest."""
    if isinstance(m, tiles.Meld):
        return MELD_CODE[m.kind], min(m.tiles), 0 if m.concealed else 1
    if type(m) is tuple and len(m) == 3 and type(m[1]) is int and m[2] in MELD_STATE and m[0] in MELD_CODE:
        kind, t = m[0], m[1]                   # (the common case: fan() per call)
        if 0 <= t < 34 and (kind != "chow" or (t < 27 and t % 9 <= 6)):
            return MELD_CODE[kind], t, MELD_STATE[m[2]]
    if not isinstance(m, (tuple, list)) or len(m) not in (2, 3):
        raise ValueError(f"a meld is a mjfast.tiles.Meld or (kind, tile, 'exposed' | 'concealed'); got {m!r}")
    kind, tile = m[0], m[1]
    state = m[2] if len(m) == 3 else "exposed"
    if kind not in MELD_CODE:
        raise ValueError(f"meld kind must be 'chow', 'pung' or 'kong'; got {kind!r}")
    if isinstance(state, numbers.Integral) and not isinstance(state, bool):
        if not 1 <= int(state) <= 3:
            raise ValueError(f"a meld's supplier is 1-3 (relative seat, or the claimed tile of a chow); got {state!r}")
        state = "exposed"
    if state not in ("exposed", "concealed"):
        raise ValueError(f"a meld is 'exposed', 'concealed' or supplied by 1-3; got {state!r}")
    if isinstance(tile, str):
        t = tiles.tile_index(tile)
        if not 0 <= t < 34:             # a bonus tile or the joker: no set of the Chinese Official rules
            raise ValueError(f"a meld's tile is a tile name or kind 0-33; got {tile!r}")
    elif isinstance(tile, numbers.Integral) and not isinstance(tile, bool) and 0 <= int(tile) < 34:
        t = int(tile)
    else:
        raise ValueError(f"a meld's tile is a tile name or kind 0-33; got {tile!r}")
    if kind == "chow" and (t >= 27 or t % 9 > 6):
        raise ValueError(f"{tiles.KIND_NAMES[t]} is not a chow's lowest tile (1-7 of a suit)")
    return MELD_CODE[kind], t, 0 if state == "concealed" else 1


@functools.lru_cache(maxsize=1024)
def text_sets(text: str) -> tuple:
    """The sets of a text of sets in mjfast's notation (``"[789s]"``, ``"[123p] (2222z)"``), as
    :class:`mjfast.tiles.Meld` (cached: programs pass the same texts many times)."""
    parsed = tiles.parse_tiles(text, max_tiles=None)
    if not parsed.melds or parsed.concealed.any() or parsed.bonus.any() or parsed.jokers:
        raise ValueError("a set given as text is written in brackets (a called set, e.g. '[456p]') or parentheses "
                         f"(a concealed kong, e.g. '(2222z)'), with nothing else; got {text!r}")
    return parsed.melds


def expand_melds(melds) -> list:
    """``melds`` as :func:`fan` takes it -- a sequence of sets, each a Meld, a tuple or a text of
    one or more sets, or one such text -- as a list of Meld / tuples (texts read)."""
    if isinstance(melds, str):
        return list(text_sets(melds))
    out: list = []
    for m in melds:
        if isinstance(m, str):
            out.extend(text_sets(m))
        else:
            out.append(m)
    return out


def melds_array(melds: Sequence) -> np.ndarray:
    """The (4, 3) fan_batch rows (kind code, lowest tile, exposed) of up to four sets
    (:class:`mjfast.tiles.Meld`, tuples or texts, as :func:`fan` takes them); unused rows are 0."""
    out = np.zeros((4, 3), np.int64)
    melds = expand_melds(melds)
    if len(melds) > 4:
        raise ValueError(f"at most 4 sets besides the concealed tiles; got {len(melds)}")
    for j, m in enumerate(melds):
        out[j] = meld_row(m)
    return out


def prepare(hand, melds, win_tile) -> tuple:
    """fan()'s checked input: (standing counts without the winning tile as 34 bytes, the sets
    as one 12-byte fan_batch row, the winning kind, the flowers in the text)."""
    if isinstance(hand, str):
        counts, text_melds, text_flowers = parse_text(hand)
        counts = list(counts)
        mlds = list(text_melds) + [meld_row(m) for m in expand_melds(melds)]
    else:
        arr = np.asarray(hand)
        if arr.shape != (34,) or arr.dtype.kind not in "iu":
            raise ValueError("hand must be a str or 34 non-negative integer counts")
        counts = arr.tolist()
        if min(counts) < 0:
            raise ValueError("hand must be a str or 34 non-negative integer counts")
        mlds = [meld_row(m) for m in expand_melds(melds)]
        text_flowers = 0
    if len(mlds) > 4:
        raise ValueError(f"at most 4 sets besides the concealed tiles; got {len(mlds)}")
    win = tiles.tile_index(win_tile) if isinstance(win_tile, str) else win_tile
    if not (type(win) is int and 0 <= win < 34):
        if isinstance(win, bool) or not isinstance(win, numbers.Integral) or not 0 <= int(win) < 34:
            raise ValueError(f"win_tile must be a tile name or kind 0-33; got {win_tile!r}")
        win = int(win)
    need = 13 - 3 * len(mlds)
    n = sum(counts)
    if n == need + 1:
        if counts[win] == 0:
            raise ValueError(f"the hand holds {n} concealed tiles, so it should include the winning tile "
                             f"{tiles.KIND_NAMES[win]}, which it does not")
        counts[win] -= 1
    elif n != need:
        raise ValueError(f"with {len(mlds)} sets a hand holds {need} concealed tiles besides the winning tile "
                         f"(or {need + 1} with it); got {n}")
    total = counts.copy()
    total[win] += 1
    row = bytearray(12)
    for j, (code, t, exp) in enumerate(mlds):
        row[3 * j:3 * j + 3] = bytes((code, t, exp))
        if code == 1:
            total[t] += 1
            total[t + 1] += 1
            total[t + 2] += 1
        else:
            total[t] += 4 if code == 3 else 3
    most = max(total)
    if most > 4:
        k = total.index(most)
        raise ValueError(f"{most} copies of {tiles.KIND_NAMES[k]} (hand, sets and the winning tile); only 4 exist")
    return bytes(counts), bytes(row), win, text_flowers


@functools.lru_cache(maxsize=4096)
def prepare_text(hand: str, win_tile) -> tuple:
    """prepare of a hand text without extra sets (cached: programs score the same hands with
    several flags)."""
    return prepare(hand, (), win_tile)
