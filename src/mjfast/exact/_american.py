"""The exact deal odds of the American beginner hand (``rules="american"``), for :mod:`mjfast.exact`.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from math import comb

import numpy as np

from .._kernels import american_batch as _american_batch

#: the forms of rules="american": its one hand, the beginner hand
AMERICAN_FORMS = ("beginner",)
# ---------------------------------------------------------------------------
# American beginner hand (rules="american")
# ---------------------------------------------------------------------------
#
# The American set: 4 copies of each standard kind of ``suits``, the 8 flowers f1..f8 (one
# kind of 8 interchangeable tiles for building sets) and ``jokers`` jokers; a dealt hand is a
# uniform subset of ``tiles`` of them (nothing is replaced). The beginner-hand distance of a
# hand depends only on its four largest natural counts, each capped at 4 (the flower count
# too), and its joker count (see mjfast._american.pxd), so a DP over the kinds keeps, per
# (tiles so far, sorted capped top four, some standard kind held 4 times) the number of
# physical tile choices: prod C(4, c) over standard kinds, C(8, f) for f flowers, C(J, j) for
# j jokers. At most 15 * 70 * 2 states; each final state's distance comes from the kernel.

def _american_jokers(jokers) -> int:
    if jokers is None:
        return 8
    if isinstance(jokers, bool) or not isinstance(jokers, (int, np.integer)):
        raise TypeError(f"jokers must be an int, not {type(jokers).__name__}")
    if not 0 <= jokers <= 16:
        raise ValueError(f"jokers must be between 0 and 16, got {jokers}")
    return int(jokers)


def _insert_top(top: tuple, c: int) -> tuple:
    """The four largest of ``top`` (sorted, descending) and ``c``."""
    return tuple(sorted(top + (c,), reverse=True)[:4])


@functools.cache
def _american_counts(tiles: int, kinds: int, flowers: int, jokers: int, all_joker_sets: bool = True) -> tuple:
    """Exact counts of ``tiles``-tile subsets of a world of ``kinds`` standard kinds (4 copies),
    ``flowers`` flowers and ``jokers`` jokers; distances under the joker reading ``all_joker_sets``.

    Returns ((distance, subsets) ..., subsets holding a standard kind four times, total).
    """
    states = {(0, (0, 0, 0, 0), False): 1}
    for _ in range(kinds):
        nxt: dict = {}
        for (n, top, four), w in states.items():
            for c in range(min(4, tiles - n) + 1):
                key = (n + c, _insert_top(top, c) if c else top, four or c == 4)
                nxt[key] = nxt.get(key, 0) + w * comb(4, c)
        states = nxt
    finals: dict = {}
    for (n, top, four), w in states.items():
        for f in range(min(flowers, tiles - n) + 1):
            j = tiles - n - f
            if j > jokers:
                continue
            fkey = (_insert_top(top, min(f, 4)) if f else top, j, four)
            finals[fkey] = finals.get(fkey, 0) + w * comb(flowers, f) * comb(jokers, j)
    keys = list(finals)
    rows = np.zeros((len(keys), 43), dtype=np.uint8)
    for i, (top, j, _) in enumerate(keys):
        rows[i, :4] = top  # any four different kinds: the distance is symmetric in the kinds
        rows[i, 42] = j
    shanten = np.empty(len(keys), dtype=np.int8)
    _american_batch.shanten_counts_batch(rows, shanten, 1, all_joker_sets)
    hist: dict = {}
    four_count = 0
    for (top, j, four), s in zip(keys, shanten.tolist()):
        w = finals[(top, j, four)]
        hist[s + 1] = hist.get(s + 1, 0) + w
        four_count += w if four else 0
    total = comb(4 * kinds + flowers + jokers, tiles)
    if sum(hist.values()) != total:  # pragma: no cover - an internal consistency check
        raise AssertionError("exact American odds: weights do not add up to C(tiles in world, tiles)")
    return tuple(sorted(hist.items())), four_count, total


def american_odds_dict(tiles, form, suits: str, jokers, all_joker_sets: bool = True) -> dict:
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form not in ("all",) + AMERICAN_FORMS:
        raise ValueError(f"unknown form {form!r} for rules='american'; choose 'all' or 'beginner'")
    if isinstance(tiles, bool) or not isinstance(tiles, (int, np.integer)):
        raise TypeError(f"tiles must be an int, not {type(tiles).__name__}")
    if tiles not in (13, 14):
        raise ValueError(f"rules='american' deals hands of 13 or 14 tiles; got {tiles}")
    tiles = int(tiles)
    n_jokers = _american_jokers(jokers)
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    hist, four, total = _american_counts(tiles, kinds, 8, n_jokers, all_joker_sets)
    dist = {d - 1: Fraction(n, total) for d, n in hist if n}
    rest = 4 * kinds + n_jokers
    bonus = {f: Fraction(comb(8, f) * comb(rest, tiles - f), total) for f in range(min(8, tiles) + 1)}
    rest = 4 * kinds + 8
    jok = {j: Fraction(comb(n_jokers, j) * comb(rest, tiles - j), total) for j in range(min(n_jokers, tiles) + 1)}
    return {
        "rules": "american",
        "tiles": tiles,
        "form": form,
        "suits": suits,
        "options": {"flowers": True, "jokers": n_jokers, "tiles": 4 * kinds + 8 + n_jokers,
                    **({} if all_joker_sets else {"all_joker_sets": False})},
        "shanten": dist,
        "complete": dist.get(-1, Fraction(0)),
        "tenpai": dist.get(0, Fraction(0)),
        "four_of_a_kind": Fraction(four, total),
        "bonus_tiles": {k: v for k, v in bonus.items() if v},
        "jokers": {k: v for k, v in jok.items() if v},
    }
