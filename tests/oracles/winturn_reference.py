"""Slow, obviously right reference for the win-by-turn model (tests only).

The model (see :mod:`mjfast.analysis.winturn`): one player, a 3k+1 concealed hand, a pool of unseen
tiles in uniformly random order, ``T`` draws, no calls, discards leave play. The policy
(:func:`policy_discard`):

* ``"greedy"``: after a draw, win if the hand is complete. Otherwise look at every discard;
  if the best reachable shanten is lower than before the draw, discard (among the discards
  reaching it) the tile leaving the most unseen effective tiles, the lowest index on ties;
  if not, discard the drawn tile.
* ``"first"``: the same with the lowest index among the best discards.
* ``"greedy_swap"``: after every draw (that does not win) the greedy choice among all 14
  discards, the drawn tile included: it may trade tiles at equal shanten.

Everything here is plain Python over 34-count lists; shanten comes from
:func:`mjfast._reference.shanten` (memoised), so nothing is shared with the kernels or the
dynamic programme of :mod:`mjfast.analysis.winturn`.
"""
from __future__ import annotations

from fractions import Fraction

from . import reference as _reference


class RefShanten:
    """Memoised reference shanten for one rule set."""

    def __init__(self, rules):
        self.rules = rules
        self.memo: dict = {}

    def __call__(self, h) -> int:
        key = tuple(h)
        v = self.memo.get(key)
        if v is None:
            v = _reference.shanten(list(key), rules=self.rules)
            self.memo[key] = v
        return v


def effective_count(h: list, pool: list, shanten) -> int:
    """Unseen copies (pool) of the kinds that lower the shanten of the 3k+1 hand h."""
    base = shanten(h)
    total = 0
    for e in range(34):
        if pool[e] > 0 and h[e] < 4:
            h[e] += 1
            if shanten(h) < base:
                total += pool[e]
            h[e] -= 1
    return total


def policy_discard(h14: list, pool: list, shanten, policy: str = "greedy") -> tuple:
    """(kind to discard, shanten after) for the 3k+2 hand h14; pool = unseen counts."""
    after = {}
    for d in range(34):
        if h14[d]:
            h14[d] -= 1
            after[d] = shanten(h14)
            h14[d] += 1
    best = min(after.values())
    cands = [d for d in sorted(after) if after[d] == best]
    if policy == "first":
        return cands[0], best
    scores = []
    for d in cands:
        h14[d] -= 1
        scores.append((-effective_count(h14, pool, shanten), d))
        h14[d] += 1
    return min(scores)[1], best


def play(hand13, pool, draws, shanten, policy: str = "greedy") -> tuple:
    """Play one draw sequence; returns (win_turn, tenpai_turn) as in the kernel.

    win_turn: first draw (1-based) completing the hand, len(draws) + 1 if none; tenpai_turn:
    first draw after which the shanten is <= 0 (0 if it already is), len(draws) + 1 if never.
    """
    h = [int(c) for c in hand13]
    pool = [int(c) for c in pool]
    T = len(draws)
    s = shanten(h)
    win, ten = T + 1, (0 if s <= 0 else T + 1)
    for i, x in enumerate(draws):
        x = int(x)
        assert pool[x] > 0, "a draw the pool does not hold"
        pool[x] -= 1
        h[x] += 1
        if shanten(h) == -1:
            return i + 1, min(ten, i + 1)
        if policy == "greedy_swap":
            d, s = policy_discard(h, pool, shanten, "greedy")
            h[d] -= 1
            if s <= 0:
                ten = min(ten, i + 1)
            continue
        after = min(_after(h, d, shanten) for d in range(34) if h[d])
        if after < s:
            d, s = policy_discard(h, pool, shanten, policy)
            h[d] -= 1
            if s <= 0:
                ten = min(ten, i + 1)
        else:
            h[x] -= 1
    return win, ten


def _after(h, d, shanten):
    h[d] -= 1
    v = shanten(h)
    h[d] += 1
    return v


def brute_force(hand13, pool, T: int, shanten, policy: str = "greedy") -> tuple:
    """Exact (win_by, tenpai_by) lists of Fractions for t = 1..T, by enumerating every
    sequence of drawn kinds with its probability (no merging of states)."""
    pool = [int(c) for c in pool]
    N = sum(pool)
    win = [Fraction(0)] * T
    ten = [Fraction(0)] * T
    seq: list = []

    def rec(prob: Fraction, left: list, n: int):
        if len(seq) == T:
            w, t = play(hand13, pool, seq, shanten, policy)
            for j in range(T):
                if w <= j + 1:
                    win[j] += prob
                if t <= j + 1:
                    ten[j] += prob
            return
        for x in range(34):
            if left[x]:
                p = prob * Fraction(left[x], n)
                left[x] -= 1
                seq.append(x)
                rec(p, left, n - 1)
                seq.pop()
                left[x] += 1

    rec(Fraction(1), list(pool), N)
    return win, ten
