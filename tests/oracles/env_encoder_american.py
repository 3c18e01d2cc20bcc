"""Plain-Python reference of the am-v0 encoding (observation planes, scalars, legal actions),
built only from what an American Policy sees (the view dict behind AmericanView), the pending
question and, for a Charleston pass chosen step by step, the tiles chosen so far.

Written from the specification in docs/environments.md, independently of american_env.pyx.
"""
from __future__ import annotations

import numpy as np

from mjfast._kernels import engine

ASK = engine.ASK
KINDS = 36
FLOWER, JOKER = 34, 35
CONTEXTS = ("own_turn", "after_call", "call", "blind_count", "pass_tile", "vote", "courtesy_offer")


def legal_actions(request, view, pass_state) -> set:
    """The legal am-v0 ids of the pending question (seat, what, tile, options)."""
    _, what, _, options = request
    hand = view["hand"]
    stage, _, _, chosen = pass_state
    held = {k for k in range(KINDS) if hand[k] > 0}
    if what == ASK["discard"]:
        return held
    if what == ASK["own_turn"]:
        acts = set(held)
        if options[0] == 1000:
            acts.add(46)
        acts |= {48 + (o >> 2) for o in options[1:]}
        return acts
    if what in (ASK["pass"], ASK["courtesy"]):
        if stage == 1:
            return {36, 37, 38, 39}
        return {k for k in range(JOKER) if hand[k] > chosen.count(k)}
    if what == ASK["claim"]:
        acts = {47}
        if options[0] == 1:
            acts.add(46)
        if options[1] == 2:
            acts.add(45)
        return acts
    if what == ASK["second_charleston"]:
        return {44, 47}
    if what == ASK["courtesy_offer"]:
        return {40, 41, 42, 43}
    raise AssertionError(f"unknown question {what}")


def encode_am_v0(view: dict, context: str | None, request, pass_state, blind_rule: bool):
    """(planes (28, 36) uint8, scalars (34,) float32) of the observer ``view["seat"]``."""
    seat = view["seat"]
    o = np.zeros((28, KINDS), np.int64)
    sc = np.zeros(34, np.float64)
    hand = np.asarray(view["hand"], np.int64)
    for j in range(8):
        o[j] = hand >= j + 1
    _, what, tile, _ = request if request is not None else (None, None, None, None)
    if context == "own_turn" and view["drawn"] >= 0:
        o[8, view["drawn"]] = 1
    if context == "call":
        o[9, tile] = 1
    stage, need, blind, chosen = pass_state
    if context in ("pass_tile", "blind_count"):
        for k in chosen:
            o[10, k] += 1
    for s in range(4):
        r = (s - seat) % 4
        for kind, jokers in view["exposures"][s]:
            o[11 + r, kind] += 4 - jokers
            o[15 + r, kind] += jokers
        for k in view["discards"][s]:
            o[19 + r, k] += 1
        if view["discards"][s]:
            o[23 + r, view["discards"][s][-1]] = 1
        sc[6 + r] = view["scores"][s]
        sc[10 + r] = view["dead"][s]
    copies = np.full(KINDS, 4)
    copies[FLOWER] = 8
    copies[JOKER] = view["jokers"]
    o[27] = np.maximum(copies - hand - np.asarray(view["visible"], np.int64), 0)
    sc[0] = view["wall_left"]
    sc[1] = view["turn"]
    sc[2 + (view["dealer"] - seat) % 4] = 1
    sc[14] = view["hand_number"]
    sc[15] = view["hands_per_game"]
    if context in ("pass_tile", "blind_count", "vote", "courtesy_offer"):
        if what == ASK["pass"]:
            sc[16 + tile] = 1
        elif what == ASK["courtesy"] or context == "courtesy_offer":
            sc[22] = 1
        if context in ("pass_tile", "blind_count"):
            sc[23] = (need if stage == 2 else 3) - len(chosen)
            sc[24] = blind
            sc[25] = float(what == ASK["pass"] and tile in (2, 5) and blind_rule)
    if context is not None:
        sc[26 + CONTEXTS.index(context)] = 1
    sc[33] = view["jokers"]
    return o.astype(np.uint8), sc.astype(np.float32)
