"""Slow, obviously right reference of the ``cn-v0`` environment encoding (the observation and
the legal actions of the Chinese rule sets), written from the encoding's specification and
built only from what a seat sees: the view dict (``ChineseVec.view`` / the dict behind
``mjfast.SeatView``), the decision context, and the engine's question.

Nothing here reads the Cython encoder; the tests compare the two on every decision of many
games.

The specification (docs/environments.md, ``mjfast.game.encodings``)
-------------------------------------------------------------------
Seats are relative to the observer: ``r = (s - seat) & 3`` (0 self, 1 next, 2 opposite,
3 previous). "Thermometer" of a count c on planes p .. p+3 means plane p+j is 1 where
c >= j + 1 (counts above 4 clamp to 4).

Planes (48 x 34, uint8)

- 0-3: the observer's concealed tiles, thermometer.
- 4: the tile just drawn, one-hot; only in the "own_turn" context (the observer is then the
  player on turn) and only when a tile was drawn (not at the dealer's first turn).
- 5: the discard offered, one-hot; only in the "claim" context.
- 6 + 4r .. 9 + 4r: the tiles of seat r's sets (a chow counts one of each of its three kinds,
  a pung three, every kong four, concealed kongs included), thermometer.
- 22 + 4r .. 25 + 4r: seat r's discards (claimed ones included), thermometer.
- 38 + r: seat r's latest discard, one-hot.
- 42-45: unseen copies, ``4 - own concealed - visible - 4 x (declared concealed kongs of that
  kind, any seat)`` clamped at 0, thermometer.
- 46: the observer's seat wind, one-hot at kind ``27 + ((seat - dealer) & 3)``.
- 47: the prevalent wind, one-hot at kind ``27 + ((hand_number >> 2) & 3)``.

Scalars (28, float32)

- 0 live tiles left; 1 turn; 2-5 the dealer, one-hot at ``2 + ((dealer - seat) & 3)``;
  6-9 scores, 10-13 bonus tiles, 14-17 concealed kongs declared, 18-21 ready flags (all by
  relative seat); 22 hand number; 23-26 the decision context one-hot (own_turn, after_claim,
  claim, ready; none without a decision); 27 hands per game.

Actions (76 ids)

- 0-33 discard kind k; 34 / 35 / 36 chow with the claimed tile lowest / middle / highest;
  37 pung; 38 exposed kong of the discard; 39-72 concealed or added kong of kind k - 39;
  73 win; 74 pass; 75 declare a ready hand.
"""
from __future__ import annotations

import numpy as np

N_ACTIONS = 76
N_PLANES = 48
N_SCALARS = 28
CONTEXTS = ("own_turn", "after_claim", "claim", "ready")

# the engine's question kinds (mjfast._kernels.engine.ASK) and claim option codes
ASK_DISCARD, ASK_CLAIM, ASK_OWN_TURN, ASK_READY = 0, 1, 2, 3
C_NONE, C_WIN, C_KONG, C_PUNG = 0, 1, 2, 3

# action ids
DISCARD = 0
CHOW_LOW, CHOW_MID, CHOW_HIGH = 34, 35, 36
PUNG, KONG, OWN_KONG, WIN, PASS, READY = 37, 38, 39, 73, 74, 75

# plane ids
P_HAND, P_DRAWN, P_OFFERED, P_MELDS, P_DISCARDS, P_LAST, P_UNSEEN, P_SEAT_WIND, P_ROUND_WIND = (
    0, 4, 5, 6, 22, 38, 42, 46, 47)
# scalar ids
S_WALL, S_TURN, S_DEALER, S_SCORES, S_BONUS, S_CKONGS, S_READY, S_HAND_NO, S_CONTEXT, S_HANDS = (
    0, 1, 2, 6, 10, 14, 18, 22, 23, 27)

MELD_TILES = {
    "chow": lambda t: [t, t + 1, t + 2],
    "pung": lambda t: [t] * 3,
    "kong": lambda t: [t] * 4,
    "concealed_kong": lambda t: [t] * 4,
    "added_kong": lambda t: [t] * 4,
}


def thermometer(planes: np.ndarray, first: int, counts) -> None:
    """Write the counts (34 of them) as planes first .. first+3 (count >= 1 .. >= 4)."""
    c = np.asarray(counts, dtype=np.int64).reshape(34)
    for j in range(4):
        planes[first + j] = c >= j + 1


def relative(s: int, seat: int) -> int:
    return (s - seat) % 4


def encode_cn_v0(view: dict, context: int, offered: int | None = None) -> tuple:
    """The observation (planes (48, 34) uint8, scalars (28,) float32) of the seat the view
    belongs to, facing decision ``context`` (an index into CONTEXTS; -1: no decision).

    ``offered`` is the discard offered in a claim window (the engine's question's tile); it is
    required when ``context`` is the claim context and ignored otherwise.
    """
    seat = int(view["seat"])
    planes = np.zeros((N_PLANES, 34), np.uint8)
    scalars = np.zeros(N_SCALARS, np.float32)
    hand = [int(c) for c in view["hand"]]

    # own concealed tiles
    thermometer(planes, P_HAND, hand)
    # the tile just drawn: the observer's own turn only
    if context == CONTEXTS.index("own_turn") and int(view["drawn"]) >= 0:
        planes[P_DRAWN, int(view["drawn"])] = 1
    # the offered discard
    if context == CONTEXTS.index("claim"):
        if offered is None:
            raise ValueError("the claim context needs the offered tile")
        planes[P_OFFERED, int(offered)] = 1

    concealed_kongs_of_kind = [0] * 34
    for s in range(4):
        r = relative(s, seat)
        # the tiles in seat s's sets
        in_sets = [0] * 34
        for name, first in view["melds"][s]:
            for k in MELD_TILES[name](int(first)):
                in_sets[k] += 1
            if name == "concealed_kong":
                concealed_kongs_of_kind[int(first)] += 1
                scalars[S_CKONGS + r] += 1
        thermometer(planes, P_MELDS + 4 * r, in_sets)
        # discards (every one the seat made, claimed or not)
        discarded = [0] * 34
        for k in view["discards"][s]:
            discarded[int(k)] += 1
        thermometer(planes, P_DISCARDS + 4 * r, discarded)
        if len(view["discards"][s]) > 0:
            planes[P_LAST + r, int(view["discards"][s][-1])] = 1
        scalars[S_SCORES + r] = view["scores"][s]
        scalars[S_BONUS + r] = view["bonus"][s]
        scalars[S_READY + r] = 1.0 if view["ready"][s] else 0.0

    # copies this seat has not seen
    unseen = [max(0, 4 - hand[k] - int(view["visible"][k]) - 4 * concealed_kongs_of_kind[k]) for k in range(34)]
    thermometer(planes, P_UNSEEN, unseen)

    dealer = int(view["dealer"])
    planes[P_SEAT_WIND, 27 + relative(seat, dealer)] = 1
    planes[P_ROUND_WIND, 27 + (int(view["hand_number"]) // 4) % 4] = 1

    scalars[S_WALL] = view["wall_left"]
    scalars[S_TURN] = view["turn"]
    scalars[S_DEALER + relative(dealer, seat)] = 1
    scalars[S_HAND_NO] = view["hand_number"]
    if context >= 0:
        scalars[S_CONTEXT + context] = 1
    scalars[S_HANDS] = view["hands_per_game"]
    return planes, scalars


def privileged_planes(views: list, seat: int) -> np.ndarray:
    """The 12 privileged planes of `seat`: the concealed tiles of the relative seats 1, 2, 3
    (thermometers), from the four seats' views."""
    planes = np.zeros((12, 34), np.uint8)
    for r in range(1, 4):
        thermometer(planes, 4 * (r - 1), views[(seat + r) % 4]["hand"])
    return planes


def claim_action(code: int, tile: int) -> int:
    """The action id of claim option `code` on discard `tile`."""
    if code == C_WIN:
        return WIN
    if code == C_KONG:
        return KONG
    if code == C_PUNG:
        return PUNG
    if code == C_NONE:
        return PASS
    first = code - 100                   # a chow: its first kind
    place = tile - first                 # 0: the claimed tile is the lowest, 1 the middle, 2 the highest
    if not (0 <= first < 27 and 0 <= place <= 2 and first % 9 <= 6):
        raise ValueError(f"claim option {code} is no chow containing kind {tile}")
    return (CHOW_LOW, CHOW_MID, CHOW_HIGH)[place]


def legal_actions(request, view: dict) -> set:
    """The legal action ids of the engine's question ``request`` = (seat, what, tile,
    options), asked of the seat ``view`` belongs to."""
    seat, what, tile, options = request
    if int(view["seat"]) != int(seat):
        raise ValueError("the view must be the asked seat's")
    held = {k for k in range(34) if int(view["hand"][k]) > 0}
    if what == ASK_DISCARD:
        return held
    if what == ASK_OWN_TURN:
        # the discard merged with the own-turn options; a ready hand is fixed: only the drawn
        # tile may go
        acts = {int(view["drawn"])} if view["ready"][seat] else set(held)
        for code in options:
            if code == 1000:
                acts.add(WIN)
            elif code >= 2000:
                acts.add(OWN_KONG + code % 1000)
            else:
                raise ValueError(f"unknown own-turn option {code}")
        return acts
    if what == ASK_CLAIM:
        return {claim_action(int(c), int(tile)) for c in options}
    if what == ASK_READY:
        return {READY, PASS}
    raise ValueError(f"unknown question {what}")
