"""Slow, obviously right references for American play (used by the tests only).

Kinds: 0-33 standard, 34 flower (8 copies), 35 joker.
"""
from __future__ import annotations

from itertools import combinations

COPIES = [4] * 34 + [8]


def distance(hand, exposed_kinds=(), all_joker_sets: bool = True) -> int:
    """Tiles missing for the beginner hand (3 sets of four + a pair, 4 different kinds),
    given the concealed ``hand`` (36 counts) and the kinds of the exposed sets of four.

    Tries every target: a pair kind and ``3 - len(exposed_kinds)`` set kinds, all different
    and none of them exposed, among the held kinds plus a few empty ones (every empty kind is
    alike). The overlap of a target: natural tiles it uses (at most 2 of the pair kind, 4 of
    each set kind) plus the jokers that fit in its concealed sets (never in the pair). The
    joker reading: with ``all_joker_sets`` (the default) a concealed set may be all jokers;
    without it each set keeps one place for a natural tile, which no joker may take. (The
    exposed sets are not in the hand: each holds the natural tile it was called with.)
    """
    natural_only = 0 if all_joker_sets else 1       # places of a set only a natural tile may take
    excl = set(int(k) for k in exposed_kinds)
    need_sets = 3 - len(excl)
    held = [k for k in range(35) if hand[k] and k not in excl]
    empty = [k for k in range(35) if not hand[k] and k not in excl][:4]
    cands = held + empty
    jokers = int(hand[35])
    best = 0
    for pair in cands:
        rest = [k for k in cands if k != pair]
        for sets in combinations(rest, need_sets):
            natural = min(int(hand[pair]), 2)
            room = 0
            for k in sets:
                q = min(int(hand[k]), 4)
                natural += q
                room += 4 - max(q, natural_only)
            best = max(best, natural + min(jokers, room))
    return 14 - 4 * len(excl) - best


def is_complete(hand, exposed_kinds=(), all_joker_sets: bool = True) -> bool:
    """A complete beginner hand: the concealed tiles fill the rest of the target exactly."""
    n = sum(int(x) for x in hand)
    return n == 14 - 4 * len(tuple(exposed_kinds)) and distance(hand, exposed_kinds, all_joker_sets) == 0
