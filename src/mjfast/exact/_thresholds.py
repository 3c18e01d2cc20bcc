"""Thresholds with state reduction, for the joint MCR forms of :mod:`mjfast.exact`: the number of
hands at each shanten or more, with each group's features replaced by a representative of
their class.
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np

from .._runtime import progress as _progress
from ._features import NO_CAP, SUIT_LETTERS, factorize
from ._merge import (
    States,
    apply_maps,
    capped_states,
    components,
    count_passing,
    distance_counts,
    merge_mapped,
    merge_states,
    suit_states,
)

# ---------------------------------------------------------------------------
# thresholds with state reduction (for the joint MCR forms)
# ---------------------------------------------------------------------------
# P(shanten >= t - 1) = P(every form has distance >= t). With every vector capped at t, the
# joint features of a group of suits can still be too many to merge; but only their effect on
# the final test matters. For each form separately, two values of a group's feature are
# equivalent when they pass the test (distance >= t) against exactly the same feature values
# of the complementary group (all of them, computed by that form's own small DP); states that
# can never pass are dropped. Replacing each feature by a representative of its class keeps
# every count exact (the test is an AND over the forms, and merging respects the classes), and
# leaves a few thousand states where there were millions.

def _group_key(letters: str, suits: str) -> tuple:
    """Canonical form of a group of suits: number suits are interchangeable."""
    nums = tuple(sorted((ch in suits for ch in letters if ch != "z"), reverse=True))
    return nums, (None if "z" not in letters else "z" in suits)


@functools.lru_cache(maxsize=512)
def _single_form_states(form: str, kong, tiles: int, cap: int, key: tuple) -> States:
    """States of one form alone for a canonical group of suits (see :func:`_group_key`)."""
    nums, z = key
    comps = components((form,), kong, tiles, cap)
    if cap < NO_CAP:
        return capped_states(_single_form_states(form, kong, tiles, NO_CAP, key), comps)
    if z is not None:
        last = suit_states(True, z, (form,), kong, tiles, cap)
        rest = (nums, None)
    else:
        last = suit_states(False, nums[-1], (form,), kong, tiles, cap)
        rest = (nums[:-1], None)
    if not rest[0]:
        return last
    return merge_states(_single_form_states(form, kong, tiles, cap, rest), last, comps, tiles)


def _signature_classes(comp, X, Y, nnum_x, nnum_y, t):
    """Class of each value of X by its pass/fail row against all of Y; -1 = never passes.

    Returns (class per X value, representative X index per class).

    The rows are built packed, 8 values of Y a byte: the distance is a minimum of terms
    (:meth:`distance_terms`; a knitted form has one per assignment, each a function of one
    slot of each side), so a row is the AND of one packed row per term, looked up by the
    term's value of x: nothing of size len(X) * len(Y) is ever unpacked.
    """
    bits = None
    for x, y, dist in comp.distance_terms(X, Y, nnum_x, nnum_y):
        ux, ix = factorize(x)
        uy, iy = factorize(y)
        ok = (dist(np.repeat(ux, len(uy)), np.tile(uy, len(ux))) >= t).reshape(len(ux), len(uy))
        rows = np.packbits(ok[:, iy], axis=1)[ix]
        bits = rows if bits is None else np.bitwise_and(bits, rows, out=bits)
    bits = np.ascontiguousarray(bits)
    view = bits.view(np.dtype((np.void, bits.shape[1]))).ravel()
    _, first, cls = np.unique(view, return_index=True, return_inverse=True)
    cls = cls.ravel()
    alive = bits[first].any(axis=1)
    return np.where(alive[cls], cls, -1), first


@functools.lru_cache(maxsize=512)
def _class_map(form: str, kong, tiles: int, t: int, group: tuple, partner: tuple) -> dict:
    """Representatives of one form's feature values for a group of suits (see above).

    Returns {size: (values, reps)}: every reachable value of the group at that size, sorted,
    and its representative, or -1 when it can never pass (distance >= t) whatever the
    complementary group holds.
    """
    comp = components((form,), kong, tiles, t)[0]
    G = _single_form_states(form, kong, tiles, t, group)
    P = _single_form_states(form, kong, tiles, t, partner)
    out = {}
    for size in np.unique(G.size).tolist():
        lo, hi = G.rows(size, size)
        p0, p1 = P.rows(tiles - size, tiles - size)
        X = np.unique(G.feats[0][lo:hi])
        if p0 == p1:
            rep = np.full(len(X), -1, dtype=np.int64)
        else:
            cls, first = _signature_classes(comp, X, np.unique(P.feats[0][p0:p1]), G.nnum, P.nnum, t)
            rep = np.where(cls >= 0, X[first[np.maximum(cls, 0)]], -1)
        out[size] = (X, rep)
    return out


def _count_at_least(forms: tuple, kong, tiles: int, suits: str, t: int) -> int:
    """Number of tile subsets of ``tiles`` tiles of ``suits`` with every form at distance >= t."""
    comps = components(forms, kong, tiles, t)

    def maps(letters):
        rest = "".join(ch for ch in SUIT_LETTERS if ch not in letters)
        g, p = _group_key(letters, suits), _group_key(rest, suits)
        return [_class_map(f, kong, tiles, t, g, p) for f in forms]

    def suit(ch):
        S = suit_states(ch == "z", ch in suits, forms, kong, tiles, t)
        return S if ch == "z" else apply_maps(S, maps(ch))

    m = suit("m")
    p = m if ("m" in suits) == ("p" in suits) else suit("p")  # the same states: a symmetric merge
    left = merge_mapped(m, p, comps, tiles, maps("mp"))
    right = merge_mapped(suit("s"), suit("z"), comps, tiles, maps("sz"))
    return count_passing(left, right, comps, tiles, t)


@functools.cache
def _distance_counts_by_threshold(forms: tuple, kong, tiles: int, suits: str, t_max: int) -> tuple:
    """Like :func:`distance_counts`, from the counts of distance >= t for t = 1 .. t_max
    (``t_max`` bounds the distance: no hand has distance above it)."""
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    at_least = [comb(4 * kinds, tiles)]
    _progress.add_steps(t_max - 1)
    for t in range(1, t_max + 1):
        at_least.append(_count_at_least(forms, kong, tiles, suits, t) if at_least[-1] else 0)
        _progress.step()
    at_least.append(0)
    return tuple((d, at_least[d] - at_least[d + 1]) for d in range(t_max + 1) if at_least[d] != at_least[d + 1])


_DIRECT_LIMIT = 3  # forms carried jointly by the direct method; more go through thresholds


def hand_distance_counts(forms: tuple, kong, tiles: int, suits: str) -> tuple:
    """Distance counts by the direct method, or by thresholds for many joint forms."""
    if len(forms) <= _DIRECT_LIMIT:
        return distance_counts(forms, kong, tiles, suits)
    # the minimum over more forms is at most the minimum over the first three (standard,
    # seven pairs, thirteen orphans), whose direct distribution is cheap: that bounds t
    bound = max(d for d, _ in distance_counts(forms[:_DIRECT_LIMIT], kong, tiles, suits))
    return _distance_counts_by_threshold(forms, kong, tiles, suits, bound)


def no_four_count(tiles: int, kinds: int) -> int:
    """Tile subsets of size ``tiles`` holding no kind four times: [x^tiles] ((1+x)^4 - x^4)^kinds."""
    poly = [1]
    per_kind = [comb(4, c) for c in range(4)]
    for _ in range(kinds):
        nxt = [0] * min(len(poly) + 3, tiles + 1)
        for i, a in enumerate(poly):
            if a:
                for c, m in enumerate(per_kind):
                    if i + c <= tiles:
                        nxt[i + c] += a * m
        poly = nxt
    return poly[tiles] if tiles < len(poly) else 0
