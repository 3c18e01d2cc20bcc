"""Oracle for sampled worlds: the exact distribution of hidden-tile assignments, by enumeration.

What a seat has not seen is a multiset of tile ids; the hidden slots are the other seats'
concealed tiles (whose counts are known) and the positions of the walls not yet drawn. A
*consistent assignment* puts every unseen id in one hidden slot, respecting the facts: no bonus
tile (flower, season) in a concealed hand when bonus tiles are replaced at once. The sampler's
promise is: uniform over consistent assignments of ids.

What a world shows is coarser than the ids: a concealed hand is a multiset of kinds (the engine
keeps counts), a wall is a sequence of ids (bonus ids differ, and the engine draws ids). This
module enumerates every consistent assignment of a small position and returns the exact
probability of each outcome, for chi-square tests of the sampler.

Slow and obviously right: itertools.permutations over every slot order, no cleverness.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction


def exact_outcomes(unseen: Sequence[int], hands: Sequence[int], walls: Sequence[int],
                   kind: Callable[[int], int], is_bonus: Callable[[int], bool] = lambda i: False
                   ) -> dict[tuple, Fraction]:
    """Exact outcome probabilities of a uniform consistent assignment.

    ``unseen``: the unseen tile ids (len = sum(hands) + sum(walls)); ``hands``: the sizes of the
    concealed hands to fill (no bonus id may go there); ``walls``: the sizes of the ordered wall
    segments. An outcome is ``(kinds of hand 0 sorted, ..., ids of wall 0 in order, ...)``."""
    ids = list(unseen)
    if len(ids) != sum(hands) + sum(walls):
        raise ValueError("the unseen tiles must fill the hidden slots exactly")
    counts: Counter = Counter()
    total = 0
    for perm in itertools.permutations(range(len(ids))):
        pos = 0
        parts = []
        ok = True
        for size in hands:
            group = [ids[perm[pos + j]] for j in range(size)]
            pos += size
            if any(is_bonus(t) for t in group):
                ok = False
                break
            parts.append(tuple(sorted(kind(t) for t in group)))
        if not ok:
            continue
        for size in walls:
            parts.append(tuple(ids[perm[pos + j]] for j in range(size)))
            pos += size
        counts[tuple(parts)] += 1
        total += 1
    if total == 0:
        raise ValueError("no consistent assignment")
    return {k: Fraction(v, total) for k, v in counts.items()}


def exact_outcomes_weighted(unseen: Sequence[int], hands: Sequence[int], walls: Sequence[int],
                            kind: Callable[[int], int], weight: Callable[[int, int], Fraction],
                            is_bonus: Callable[[int], bool] = lambda i: False) -> dict[tuple, Fraction]:
    """Exact outcome probabilities of the weighted redraw: hand h's slots (hands in order, slot
    by slot) are each filled by an unseen id not placed yet, id i with probability
    ``weight(h, kind(i))`` over the total weight of the ids left (a bonus id weighs 0 when
    ``is_bonus`` says it may not be held); the walls then get the ids left in a uniform order.

    Every ordering of all the ids into the slots is enumerated with its probability (the
    product of the hand draws' probabilities, times 1 / (ids left)! for the walls' order);
    outcomes as in :func:`exact_outcomes`."""
    ids = list(unseen)
    if len(ids) != sum(hands) + sum(walls):
        raise ValueError("the unseen tiles must fill the hidden slots exactly")
    need = sum(hands)
    rest_orders = math.factorial(len(ids) - need)
    owner = [h for h, size in enumerate(hands) for _ in range(size)]

    def w(h: int, t: int) -> Fraction:
        return Fraction(0) if is_bonus(t) else Fraction(weight(h, kind(t)))

    probs: dict[tuple, Fraction] = {}
    for perm in itertools.permutations(range(len(ids))):
        p = Fraction(1, rest_orders)
        left = [ids[i] for i in perm]
        for slot in range(need):
            h = owner[slot]
            total = sum(w(h, t) for t in left[slot:])
            p *= w(h, left[slot]) / total if total else Fraction(0)
            if p == 0:
                break
        if p == 0:
            continue
        pos = 0
        parts = []
        for size in hands:
            parts.append(tuple(sorted(kind(ids[perm[pos + j]]) for j in range(size))))
            pos += size
        for size in walls:
            parts.append(tuple(ids[perm[pos + j]] for j in range(size)))
            pos += size
        key = tuple(parts)
        probs[key] = probs.get(key, Fraction(0)) + p
    if not probs:
        raise ValueError("no consistent assignment")
    return probs


def chi_square(observed: Counter, exact: dict[tuple, Fraction]) -> tuple[float, int]:
    """(statistic, degrees of freedom) of observed outcome counts against the exact
    probabilities; an observed outcome with probability 0 gives an infinite statistic."""
    n = sum(observed.values())
    stat = 0.0
    for k in observed:
        if k not in exact:
            return float("inf"), len(exact) - 1
    for k, p in exact.items():
        e = n * float(p)
        stat += (observed.get(k, 0) - e) ** 2 / e
    return stat, len(exact) - 1
