"""The built-in greedy policy does exactly what its documentation says.

A plain Python re-implementation of the documented rules (``PyGreedy``, using only
``mjfast.shanten`` on count vectors and the read-only SeatView) plays the same seeded games as
the Cython policy; the two event logs must be identical, decision for decision.
"""
from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import tiles


class PyGreedy(mjfast.Policy):
    """Greedy, as documented: lowest shanten, then most unseen effective tiles, then lowest tile."""

    name = "py-greedy"

    def __init__(self, rules):
        self.rules = "mcr" if rules == "mcr" else None
        self.form = "all" if rules == "mcr" else "standard"

    def sh(self, counts) -> int:
        return mjfast.shanten(np.asarray(counts, dtype=np.uint8), form=self.form, rules=self.rules)

    def best_after_discard(self, h) -> int:
        best = 99
        for k in range(34):
            if h[k]:
                h[k] -= 1
                best = min(best, self.sh(h))
                h[k] += 1
        return best

    def discard(self, view):
        h = view.hand.astype(np.int64).copy()
        scores = {}
        for k in range(34):
            if h[k]:
                h[k] -= 1
                scores[k] = self.sh(h)
                h[k] += 1
        best = min(scores.values())
        best_k, best_u = None, -1
        for k in sorted(scores):
            if scores[k] != best:
                continue
            h[k] -= 1
            u = 0
            for t in range(34):
                unseen = 4 - h[t] - int(view.visible[t]) - (1 if t == k else 0)
                if h[t] >= 4 or unseen <= 0:
                    continue
                h[t] += 1
                if self.sh(h) < best:
                    u += unseen
                h[t] -= 1
            h[k] += 1
            if u > best_u:
                best_k, best_u = k, u
        return tiles.tile_name(best_k)

    def claim(self, view, tile, options):
        if "win" in options:
            return "win"
        h = view.hand.astype(np.int64).copy()
        k = tiles.tile_index(tile)
        base = best_s = self.sh(h)
        choice = None
        if "kong" in options:
            h[k] -= 3
            s = self.sh(h)
            h[k] += 3
            if s <= best_s:
                best_s, choice = s, "kong"
        if "pung" in options:
            h[k] -= 2
            s = self.best_after_discard(h)
            h[k] += 2
            if s < best_s:
                best_s, choice = s, "pung"
        for opt in options:
            if opt.startswith("chow:"):
                start = tiles.tile_index(opt[5] + opt[-1])
                for j in range(3):
                    h[start + j] -= 1
                h[k] += 1
                s = self.best_after_discard(h)
                h[k] -= 1
                for j in range(3):
                    h[start + j] += 1
                if s < best_s:
                    best_s, choice = s, opt
        assert base >= best_s
        return choice

    def own_turn(self, view, options):
        if "win" in options:
            return "win"
        h = view.hand.astype(np.int64).copy()
        if not any(o.startswith(("concealed_kong", "added_kong")) for o in options):
            return None
        base = self.best_after_discard(h)
        for k in range(34):
            name = tiles.tile_name(k)
            if f"concealed_kong:{name}" in options:
                h[k] -= 4
                s = self.sh(h)
                h[k] += 4
                if s <= base:
                    return f"concealed_kong:{name}"
            elif f"added_kong:{name}" in options:
                h[k] -= 1
                s = self.sh(h)
                h[k] += 1
                if s <= base:
                    return f"added_kong:{name}"
        return None


@pytest.mark.parametrize("rules,games", [("classical", 3), ("basic", 3), ("mcr", 2)])
def test_builtin_greedy_equals_documented_rules(rules, games):
    for g in range(games):
        fast = mjfast.replay(40 + g, g, rules=rules, policies="greedy")
        slow = mjfast.replay(40 + g, g, rules=rules, policies=[PyGreedy(rules) for _ in range(4)])
        assert slow.events == fast.events, f"game {g}: first difference at event " + str(
            next(i for i, (a, b) in enumerate(zip(slow.events, fast.events)) if a != b))
        assert slow.header["scores"] == fast.header["scores"]


def test_mixed_table_and_python_policy_agree_with_builtin_seat():
    """One seat played by PyGreedy, the others built-in: the same game as four built-ins."""
    fast = mjfast.replay(5, 1, policies="greedy")
    mixed = mjfast.replay(5, 1, policies=["greedy", PyGreedy("classical"), "greedy", "greedy"])
    assert mixed.events == fast.events
