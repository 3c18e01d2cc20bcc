"""The 2018 fan calculator of the Botzone judge (``mcr-botzone``) beside the 2024 one mjfast
scores ``mcr`` with: the knitted-straight waits and the tie-break between equal divisions
(docs/mcr.md, "The Botzone judge's rules"; the cases are those of the two calculators'
knitted-straight code, one hand per case)."""
from __future__ import annotations

import numpy as np

from mjfast._kernels.mcr_fan import fan_one
from mjfast.mcr import FANS

KNITTED = [0, 3, 6, 10, 13, 16, 20, 23, 26]          # 147m 258p 369s
EAST, WHITE = 27, 33
SINGLE = next(i for i, f in enumerate(FANS) if "Single Wait" in str(f))


def _score(standing, win, *, pung=None, judge2018):
    h = np.zeros(34, np.uint8)
    for k in standing:
        h[k] += 1
    melds = bytearray(12)
    if pung is not None:
        melds[0:3] = bytes([2, pung, 1])                # an exposed pung (MK_PUNG + 1)
    total, fans = fan_one(h.tobytes(), bytes(melds), win, 0, 0, 0, 0, 0, 0, 0, judge2018)
    return total, dict(fans)


def test_concealed_knitted_straight_won_inside_the_nine():
    # 1m pair + East pung outside the knitted nine, won on 1m (also one of the nine): 2024 judges
    # the wait on the five tiles outside (a single wait on the pair), 2018 counts no wait at all
    hand = [0] + KNITTED + [EAST] * 3
    t24, f24 = _score(hand, 0, judge2018=0)
    t18, f18 = _score(hand, 0, judge2018=1)
    assert f24.get(SINGLE) == 1 and SINGLE not in f18
    assert t24 == t18 + 1


def test_knitted_straight_with_a_set_won_inside_the_nine_on_a_held_copy():
    # an exposed East pung; 4m held besides the nine and won on 4m: 2024 gives Single Wait (the
    # hand held a copy of the winning tile), 2018 never does inside the nine
    hand = [k for k in KNITTED] + [3]
    t24, f24 = _score(hand, 3, pung=EAST, judge2018=0)
    t18, f18 = _score(hand, 3, pung=EAST, judge2018=1)
    assert f24.get(SINGLE) == 1 and SINGLE not in f18 and t24 == t18 + 1


def test_knitted_straight_with_a_set_won_outside_the_nine():
    # won on the pair tile outside the nine: Single Wait in both
    hand = KNITTED + [WHITE]
    for j in (0, 1):
        assert _score(hand, WHITE, pung=EAST, judge2018=j)[1].get(SINGLE) == 1


def test_the_calculators_agree_away_from_knitted_straights():
    # the flag changes nothing on ordinary hands: a random sample of complete hands
    rng = np.random.default_rng(3)
    tiles = np.repeat(np.arange(34), 4)
    seen = 0
    for _ in range(4000):
        rng.shuffle(tiles)
        hand, win = list(tiles[:13]), int(tiles[13])
        a = _score(hand, win, judge2018=0)
        if a[0] <= 0:
            continue
        seen += 1
        assert a == _score(hand, win, judge2018=1)
    # and on seven-pairs-shaped hands (where the tie-break differs only for equal totals)
    for _ in range(3000):
        kinds = rng.choice(9, 7, replace=True) + 9 * rng.integers(0, 3)
        hand = sorted([int(k) for k in kinds for _ in (0, 1)])
        if max(hand.count(k) for k in hand) > 4:
            continue
        win = hand.pop(rng.integers(len(hand)))
        a, b = _score(hand, win, judge2018=0), _score(hand, win, judge2018=1)
        assert a[0] == b[0]                         # totals never differ; lists may on ties
        seen += 1
    assert seen > 100


def test_a_tie_with_seven_pairs_goes_to_seven_pairs_in_2018():
    # 44 5555 66m 55 66 77p, won on 6p: seven pairs and a standard split both score 51; the 2024
    # calculator lists the standard split's fans, the 2018 one keeps seven pairs (found first)
    full = [3, 3, 4, 4, 4, 4, 5, 5, 12, 12, 13, 13, 14, 14]
    hand = list(full)
    hand.remove(13)
    t24, f24 = _score(hand, 13, judge2018=0)
    t18, f18 = _score(hand, 13, judge2018=1)
    pairs = next(i for i, f in enumerate(FANS) if "Seven Pairs" in str(f))
    assert t24 == t18 == 51
    assert pairs in f18 and pairs not in f24
