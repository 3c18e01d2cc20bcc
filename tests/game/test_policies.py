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
        # "classical+special": classical with seven pairs and thirteen orphans also winning
        self.rules = "mcr" if rules == "mcr" else None
        self.form = "all" if rules in ("mcr", "classical+special") else "standard"

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


# Under "mcr" PyGreedy is the fan-blind greedy. With the default fan minimum it plays as the
# built-in "greedy_blind" (which also declares only valid wins: PyGreedy wins only when "win" is
# offered); without a minimum the built-in "greedy" is fan-blind: with flat scoring it plays as
# before fans, with fan scoring it also robs kongs.
_MCR_BLIND = {"policy": "greedy_blind"}
_MCR_FLAT = {"policy": "greedy", "scoring": "basic", "min_fan": 0}
_MCR_NO_MIN = {"policy": "greedy", "min_fan": 0}


@pytest.mark.parametrize("rules,games,opts", [
    ("classical", 3, {}), ("basic", 3, {}),
    pytest.param("mcr", 2, _MCR_BLIND, id="mcr-blind-2"), pytest.param("mcr", 2, _MCR_FLAT, id="mcr-flat-2"),
    pytest.param("mcr", 1, _MCR_NO_MIN, id="mcr-no-min-1"),
    pytest.param("mcr", 60, _MCR_BLIND, marks=pytest.mark.slow, id="mcr-blind-60"),
    pytest.param("mcr", 30, _MCR_FLAT, marks=pytest.mark.slow, id="mcr-flat-30"),
    pytest.param("classical", 40, {}, marks=pytest.mark.slow)])
def test_builtin_greedy_equals_documented_rules(rules, games, opts):
    opts = dict(opts)
    builtin = opts.pop("policy", "greedy")
    for g in range(games):
        fast = mjfast.replay(40 + g, g, rules=rules, policies=builtin, **opts)
        slow = mjfast.replay(40 + g, g, rules=rules, policies=[PyGreedy(rules) for _ in range(4)], **opts)
        assert slow.events == fast.events, f"game {g}: first difference at event " + str(
            next(i for i, (a, b) in enumerate(zip(slow.events, fast.events)) if a != b))
        assert slow.header["scores"] == fast.header["scores"]


def test_mixed_table_and_python_policy_agree_with_builtin_seat():
    """One seat played by PyGreedy, the others built-in: the same game as four built-ins."""
    fast = mjfast.replay(5, 1, policies="greedy")
    mixed = mjfast.replay(5, 1, policies=["greedy", PyGreedy("classical"), "greedy", "greedy"])
    assert mixed.events == fast.events


def test_mixed_mcr_table_with_blind_builtin_seats():
    """Under "mcr" with the fan minimum, one PyGreedy seat among "greedy_blind" seats (the Python
    seat is also asked, without options, when its hand is complete below min_fan)."""
    fast = mjfast.replay(5, 1, rules="mcr", policies="greedy_blind")
    mixed = mjfast.replay(5, 1, rules="mcr", policies=["greedy_blind", "greedy_blind", PyGreedy("mcr"), "greedy_blind"])
    assert mixed.events == fast.events


# ----------------------------------------------------------------------------------------
# The greedy discard on single hands, against PyGreedy, with hands drawn towards the shapes
# whose effective tiles take the engine's special-form paths (seven pairs, thirteen orphans,
# honors-and-knitted, knitted straight), where whole games rarely go.

from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjfast import rules as _rules
from mjfast._kernels import chinese_game as _game

_ORPHANS = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
_KNIT_PERMS = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]


@st.composite
def _greedy_positions(draw):
    """(hand, visible): a closed 14-tile hand biased towards one shape, and seen tiles."""
    shape = draw(st.sampled_from(["any", "knitted", "pairs", "orphans"]))
    if shape == "knitted":
        perm = draw(st.sampled_from(_KNIT_PERMS))
        favoured = [9 * s + r for s in range(3) for r in range(perm[s], 9, 3)] + list(range(27, 34))
    elif shape == "pairs":
        favoured = draw(st.lists(st.integers(0, 33), min_size=4, max_size=7, unique=True)) * 2
    elif shape == "orphans":
        favoured = _ORPHANS
    else:
        favoured = list(range(34))
    hand = np.zeros(34, np.uint8)
    n_random = draw(st.integers(0, 4))
    if shape == "knitted" and draw(st.booleans()):
        # distinct knitted tiles and honors: honors-and-knitted territory
        for k in draw(st.permutations(favoured))[:14 - n_random]:
            hand[k] += 1
    while hand.sum() < 14:
        if hand.sum() < 14 - n_random:
            k = draw(st.sampled_from(favoured))
        else:
            k = draw(st.integers(0, 33))
        if hand[k] < 4:
            hand[k] += 1
    room = (4 - hand).tolist()
    visible = np.array([draw(st.integers(0, r)) if draw(st.booleans()) else 0 for r in room], np.uint8)
    if draw(st.integers(0, 9)) == 0:
        # more copies accounted for than exist (no valid game gets there): the engine clamps
        # the unseen count at 0 like the reference
        visible[draw(st.integers(0, 33))] += 1
    return hand, visible


def _kernel(rules):
    if rules == "mcr":
        # the hook's seat is fan-aware under a fan minimum: PyGreedy is the fan-blind greedy
        return _rules.get("mcr", min_fan=0).kernel()
    if rules == "classical+special":
        return _rules.get("classical", special_forms=("seven_pairs", "thirteen_orphans")).kernel()
    return _rules.get(rules).kernel()


@pytest.mark.parametrize("rules", ["mcr", "classical", "classical+special"])
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(position=_greedy_positions())
def test_greedy_scores_equal_documented_rules_on_single_hands(rules, position):
    """Shanten after each discard and effective-tile count of each tied discard, as the
    engine computes them, equal PyGreedy's plain recomputation; so does the discard."""
    hand, visible = position
    sh, counts, choice = _game._greedy_scores_of(_kernel(rules), hand, visible)
    ref = PyGreedy(rules)
    h = hand.astype(np.int64)
    ref_sh = {}
    for k in np.flatnonzero(h):
        h[k] -= 1
        ref_sh[k] = ref.sh(h)
        h[k] += 1
    best = min(ref_sh.values())
    for k in range(34):
        if k not in ref_sh:
            assert sh[k] == 99
        elif ref_sh[k] <= best + 1:       # the engine resolves discards up to best + 1 only
            assert sh[k] == ref_sh[k], k
        else:
            assert sh[k] > best + 1, k
    for k in range(34):
        if sh[k] != best:
            assert counts[k] == -1
            continue
        h[k] -= 1
        u = 0
        for t in range(34):
            unseen = 4 - h[t] - int(visible[t]) - (1 if t == k else 0)
            if h[t] < 4 and unseen > 0:
                h[t] += 1
                u += unseen if ref.sh(h) < best else 0
                h[t] -= 1
        h[k] += 1
        assert counts[k] == u, tiles.tile_name(k)
    view = SimpleNamespace(hand=hand.copy(), visible=visible.copy())
    assert tiles.tile_name(choice) == ref.discard(view)
