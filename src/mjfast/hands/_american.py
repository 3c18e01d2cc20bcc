"""American hands (rules="american"): validation and the beginner-hand functions.

Private: :mod:`mjfast.hands` dispatches here when ``rules="american"`` (the model functions
take input past the public functions' checks; :mod:`._input` reads it). Hands use the
extended model of :mod:`mjfast.tiles` (43 kinds: 34 standard, f1..f8, the joker):

* text with ``f1``..``f8`` and ``j`` (``"1111m2222p3333s f1f2 jj"`` ...), fully concealed;
* a ``(43,)`` count vector or an ``(N, 43)`` array (standard counts 0-4, each flower 0-1,
  jokers limited only by the hand size), or ``(34,)`` / ``(N, 34)`` standard counts (no
  flowers, no jokers);
* an ``(N, 5)`` uint32 array in the packed layout (word 4: flowers in bits 0-7, jokers in
  bits 8-15), or ``(N, 4)`` standard packed words.

The beginner hand: 3 sets of four identical tiles + 1 pair, of four different kinds, 14
tiles. The 8 flowers are one kind ("flower"); jokers stand in for tiles of a set of four,
never in the pair. The rules' ``all_joker_sets`` (default True) lets a concealed set of four be
all jokers; with False each set keeps at least one natural tile. Distance = tiles still missing
(14 minus the largest overlap with a complete hand), shanten = distance - 1.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .. import tiles
from .._kernels import american_batch as _american_batch
from .._runtime.threads import resolve_threads
from ._input import AMERICAN, as_batch, single_hand
from ._types import Improvement

LAYOUT = AMERICAN
FORMS = ("beginner",)
SIZES_SHANTEN = (1 << 13) | (1 << 14)
SIZES_WINNING = 1 << 14
SIZES_WAITING = 1 << 13
_N = tiles.N_EXTENDED
_FLOWERS = slice(tiles.BONUS_FIRST, tiles.JOKER)


def reading(rules) -> bool:
    """The joker reading of American ``rules`` (a name or a RuleSet): its ``all_joker_sets``."""
    if isinstance(rules, str):
        return True                             # the preset's default
    return bool(getattr(rules, "all_joker_sets", True))


def check_form(form) -> None:
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form not in ("all",) + FORMS:
        raise ValueError(f"unknown form {form!r} for rules='american'; choose 'all' or 'beginner' "
                         "(the American beginner hand is its only form)")


def set_jokers(jokers) -> int:
    """Jokers in the tile set (default 8); validated like deal()'s option."""
    if jokers is None:
        return tiles.MAX_JOKERS
    if isinstance(jokers, bool) or not isinstance(jokers, numbers.Integral):
        raise TypeError(f"jokers must be an int, not {type(jokers).__name__}")
    if not 0 <= int(jokers) <= 16:
        raise ValueError(f"jokers must be between 0 and 16, got {jokers}")
    return int(jokers)


def shanten(hands: Any, form: str, rules, threads):
    """Shanten of one American hand or a batch (see :func:`mjfast.shanten`)."""
    threads = resolve_threads(threads)
    check_form(form)
    batch = as_batch(hands, SIZES_SHANTEN, layout=AMERICAN)
    out = np.empty(len(batch.data), dtype=np.int8)
    kernel = _american_batch.shanten_packed_batch if batch.packed else _american_batch.shanten_counts_batch
    kernel(batch.data, out, threads, reading(rules))
    return batch.shaped(out)


def is_winning(hands: Any, form: str, rules, threads):
    """Whether each American hand is complete (see :func:`mjfast.is_winning`)."""
    threads = resolve_threads(threads)
    check_form(form)
    batch = as_batch(hands, SIZES_WINNING, layout=AMERICAN)
    out = np.empty(len(batch.data), dtype=np.uint8)
    kernel = _american_batch.winning_packed_batch if batch.packed else _american_batch.winning_counts_batch
    kernel(batch.data, out, threads, reading(rules))
    return batch.shaped(out.view(np.bool_))


def _single(hand: Any, sizes: int, what: str) -> np.ndarray:
    """One hand's 43 counts (int64)."""
    return single_hand(hand, sizes, what, AMERICAN)[0].astype(np.int64)


def _limits(n_jokers: int) -> np.ndarray:
    """Physical copies of each of the 43 kinds in the American set."""
    lim = np.full(_N, 4, dtype=np.int64)
    lim[_FLOWERS] = 1
    lim[tiles.JOKER] = n_jokers
    return lim


def _visible(visible: Any, hand: np.ndarray, limits: np.ndarray) -> np.ndarray:
    if visible is None:
        seen = np.zeros(_N, dtype=np.int64)
    elif isinstance(visible, str):
        seen = np.zeros(_N, dtype=np.int64)
        if visible.strip():
            p = tiles.parse_tiles(visible, max_jokers=16, max_tiles=None)
            seen[:34] = p.counts_all()
            seen[_FLOWERS] = p.bonus
            seen[tiles.JOKER] = p.jokers
    else:
        arr = np.asarray(visible)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"visible must hold integer counts, got dtype {arr.dtype}")
        if arr.shape not in ((34,), (_N,)):
            raise ValueError(f"visible must be text, 34 or 43 counts; got shape {arr.shape}")
        if arr.size and arr.min() < 0:
            raise ValueError("visible counts must be non-negative")
        seen = np.zeros(_N, dtype=np.int64)
        seen[: arr.shape[0]] = arr
    total = seen + hand
    over = np.flatnonzero(total > limits)
    if over.size:
        k = int(over[0])
        raise ValueError(f"{tiles.tile_name(k)}: {int(hand[k])} in hand + {int(seen[k])} visible = "
                         f"{int(total[k])} copies; only {int(limits[k])} exist in the American set")
    return seen


def _shanten_rows(rows: np.ndarray, all_joker_sets: bool) -> np.ndarray:
    out = np.empty(len(rows), dtype=np.int8)
    _american_batch.shanten_counts_batch(np.ascontiguousarray(rows, dtype=np.uint8), out, 1, all_joker_sets)
    return out


def waits(hand: Any, form: str, rules, jokers, min_fan=None, self_drawn=None, seat_wind=None,
          prevalent_wind=None) -> list[str]:
    """The waits of one 13-tile American hand (see :func:`mjfast.waits`; the options of the
    Chinese Official fans are refused there)."""
    all_joker_sets = reading(rules)
    check_form(form)
    limits = _limits(set_jokers(jokers))
    counts = _single(hand, SIZES_WAITING, "hand")
    if counts[tiles.JOKER] > limits[tiles.JOKER]:
        raise ValueError(f"hand holds {int(counts[tiles.JOKER])} jokers; the set has {int(limits[tiles.JOKER])}")
    cand = np.flatnonzero(counts < limits)
    rows = np.repeat(counts[None, :], len(cand), axis=0)
    rows[np.arange(len(cand)), cand] += 1
    done = _shanten_rows(rows, all_joker_sets) == -1
    return [tiles.tile_name(int(k)) for k in cand[done]]


def effective_tiles(hand: Any, visible: Any, form: str, rules, jokers):
    """The effective tiles of one American hand (see :func:`mjfast.effective_tiles`)."""
    all_joker_sets = reading(rules)
    check_form(form)
    limits = _limits(set_jokers(jokers))
    counts = _single(hand, SIZES_SHANTEN, "hand")
    seen = _visible(visible, counts, limits)
    if int(counts.sum()) == 13:
        return _improvements(counts[None, :], [None], seen[None, :], limits, all_joker_sets)[0]
    held = np.flatnonzero(counts)
    rows = np.repeat(counts[None, :], len(held), axis=0)
    rows[np.arange(len(held)), held] -= 1
    seen_rows = np.repeat(seen[None, :], len(held), axis=0)
    seen_rows[np.arange(len(held)), held] += 1  # the discard is visible now
    imps = _improvements(rows, [tiles.tile_name(int(k)) for k in held], seen_rows, limits, all_joker_sets)
    order = sorted(range(len(imps)), key=lambda i: (imps[i].shanten, -imps[i].count, int(held[i])))
    return [imps[i] for i in order]


def _improvements(rows13, discards, seen, limits, all_joker_sets: bool) -> list:
    """Effective tiles of each 13-tile row: kinds whose draw lowers the shanten, unseen copies."""
    n = len(rows13)
    base = _shanten_rows(rows13, all_joker_sets)
    unseen = limits[None, :] - rows13 - seen               # (n, 43)
    cand = np.repeat(rows13, _N, axis=0)
    kinds = np.tile(np.arange(_N), n)
    ok = unseen.reshape(-1) > 0
    cand[np.arange(len(cand)), kinds] += ok
    after = _shanten_rows(cand, all_joker_sets).reshape(n, _N)
    ok = ok.reshape(n, _N)
    result = []
    for i in range(n):
        better = np.flatnonzero(ok[i] & (after[i] < base[i]))
        tl = {tiles.tile_name(int(k)): int(unseen[i, k]) for k in better}
        result.append(Improvement(discards[i], int(base[i]), tl, sum(tl.values())))
    return result


def american_distance(hand, exposures=(), *, all_joker_sets: bool = True) -> int:
    """Tiles missing for the beginner hand, counting exposed sets of four.

    Parameters
    ----------
    hand : array_like of shape (36,)
        Concealed tiles by American kind (0-33 standard, 34 flower, 35 joker).
    exposures : sequence of (kind, jokers)
        The player's exposed sets of four (each a different kind), as in ``AmericanView.exposures``.
    all_joker_sets : bool
        The joker reading (the rules' option): True (default), a concealed set of four may be
        all jokers; False, each set keeps a natural tile.

    Examples
    --------
    >>> h = np.zeros(36, int); h[0] = 4; h[1] = 4; h[2] = 3; h[35] = 1; h[3] = 2
    >>> american_distance(h)
    0
    >>> h2 = h.copy(); h2[0] = 0
    >>> american_distance(h2, exposures=[(0, 0)])
    0
    >>> h3 = np.zeros(36, int); h3[0] = 4; h3[1] = 4; h3[3] = 2; h3[35] = 4   # a kong of four jokers
    >>> american_distance(h3), american_distance(h3, all_joker_sets=False)
    (0, 1)
    """
    h = np.asarray(hand)
    if h.shape != (36,) or h.dtype.kind not in "iu" or h.min() < 0:
        raise ValueError("hand must be 36 non-negative integer counts (34 kinds, flower, joker)")
    if h[:34].max() > 4 or h[34] > 8 or h[35] > 16:
        raise ValueError("a hand holds at most 4 of a kind, 8 flowers and 16 jokers")
    exposures = list(exposures)
    kinds_ = [int(k) for k, _j in exposures]
    if len(exposures) > 3 or len(set(kinds_)) != len(kinds_) or not all(0 <= k <= 34 for k in kinds_):
        raise ValueError("exposures: at most 3 sets of four, of different kinds 0-34")
    if not all(0 <= int(j) <= 3 for _k, j in exposures):
        raise ValueError("exposures: an exposed set of four holds 0-3 jokers (the called tile is natural)")
    excl = np.zeros((1, 35), np.uint8)
    for k in kinds_:
        excl[0, k] = 1
    out = np.zeros(1, np.int32)
    if not isinstance(all_joker_sets, (bool, np.bool_)):
        raise TypeError(f"all_joker_sets must be True or False, not {all_joker_sets!r}")
    _american_batch.distance_batch(np.ascontiguousarray(h[None, :], dtype=np.uint8), excl,
                                   np.array([len(exposures)], np.int32), out, bool(all_joker_sets))
    return int(out[0])
