"""Tests of mjfast.wall: the physical wall, the dice, the deal and bonus replacement."""
from __future__ import annotations

import dataclasses
import doctest
import itertools

import numpy as np
import pytest

import mjfast.wall
from mjfast.tiles import format_hand, parse_hand
from mjfast.wall import (
    FIRST_BONUS_ID,
    FIRST_JOKER_ID,
    N_STANDARD,
    TILE_SETS,
    WallDeal,
    build_walls,
    deal_from_wall,
    deal_positions,
    next_wall,
    stacks_per_wall,
    tile_kind,
)

ALL_DICE = list(itertools.product(range(2, 13), repeat=2))


def swapped(n, *pairs):
    """Identity order of ``n`` ids with the given pairs of ids exchanged."""
    order = np.arange(n)
    for a, b in pairs:
        order[[a, b]] = order[[b, a]]
    return order


def check_conservation(order, d: WallDeal):
    got = [t for h in d.hand_ids for t in h]
    got += [t for b in d.bonus_ids for t in b] + list(d.live) + list(d.dead)
    assert sorted(got) == sorted(int(t) for t in order)


def check_counts_match_ids(d: WallDeal):
    for seat in range(4):
        held = np.array(d.hand_ids[seat], dtype=np.int64)
        kinds = tile_kind(held) if held.size else held
        np.testing.assert_array_equal(d.hands[seat], np.bincount(kinds[kinds < 34], minlength=34))
        assert d.jokers[seat] == int((kinds == 42).sum())
        bonus = np.zeros(8, dtype=np.uint8)
        for t in list(held[(held >= FIRST_BONUS_ID) & (held < FIRST_JOKER_ID)]) + list(d.bonus_ids[seat]):
            bonus[t - FIRST_BONUS_ID] += 1
        np.testing.assert_array_equal(d.bonus[seat], bonus)


# ---------------------------------------------------------------------------
# hand-worked literal examples


def test_identity_136_hand_worked():
    # Identity order, 136 tiles, S = 17 stacks per wall. By build_walls, seat w's
    # wall holds ids 34w .. 34w+33 and its stack j is (34w + 2j top, 34w + 2j + 1 bottom),
    # stacks counted from the wall's right end, i.e. in the dealing direction.
    # Walls follow each other E -> N -> W -> S in the dealing direction.
    #
    # Dice (3, 8): 3 -> West (seat 2). Count 3 + 8 = 11 stacks from the right end of
    # West's wall: W0..W10 (ids 68..89) are the dead wall; the break is between W10 and
    # W11, and the live wall starts at W11 = ids 90, 91.
    # Live stacks L0.. : W11..W16 (ids 90..101), then South's wall (ids 34..67), then
    # East's (0..33), then North's (102..135).
    #   round 1: E L0,L1 = 90-93    S L2,L3 = 94-97    W L4,L5 = 98-101   N L6,L7 = 34-37
    #   round 2: E 38-41            S 42-45            W 46-49            N 50-53
    #   round 3: E 54-57            S 58-61            W 62-65            N L22,L23 = 66,67,0,1
    #   jump: L24 = (2,3), L25 = (4,5), L26 = (6,7): E takes tops 2 and 6; S 3; W 4; N 5.
    # Live after the deal: 7 (bottom of L26), 8..33, 102..135  (61 tiles).
    # Dead, replacement order: W10 top, bottom = 88, 89; W9 = 86, 87; ...; W0 = 68, 69.
    # Kinds (id // 4): E 90,91=5s 92,93=6s 38,39=1p 40,41=2p 54,55=5p 56,57=6p 2=1m 6=2m.
    d = deal_from_wall(np.arange(136), (3, 8))
    assert (d.break_wall, d.break_stack) == (2, 11)
    assert d.hand_ids == (
        (90, 91, 92, 93, 38, 39, 40, 41, 54, 55, 56, 57, 2, 6),
        (94, 95, 96, 97, 42, 43, 44, 45, 58, 59, 60, 61, 3),
        (98, 99, 100, 101, 46, 47, 48, 49, 62, 63, 64, 65, 4),
        (34, 35, 36, 37, 50, 51, 52, 53, 66, 67, 0, 1, 5),
    )
    expected = ["12m11225566p5566s", "1m22336677p6677s", "2m33447788p7788s", "11299m11445588p"]
    for seat, text in enumerate(expected):
        np.testing.assert_array_equal(d.hands[seat], parse_hand(text))
        assert format_hand(d.hands[seat]) == text
    assert d.live == (7, *range(8, 34), *range(102, 136))
    assert d.dead == tuple(t for j in range(10, -1, -1) for t in (68 + 2 * j, 69 + 2 * j))
    assert d.dead[:4] == (88, 89, 86, 87) and d.dead[-2:] == (68, 69)
    assert not d.bonus.any() and not d.jokers.any()
    assert d.bonus_ids == ((), (), (), ())
    check_conservation(np.arange(136), d)


def test_bonus_chain_144_hand_worked():
    # 144 tiles, S = 18: seat w's wall holds ids 36w .. 36w+35, stack j = (36w+2j, 36w+2j+1).
    # Dice (12, 12): 12 -> North (seat 3); count 24 > 18, so the count runs through all
    # 18 stacks of North's wall (ids 108..143) and goes on into the next wall in the
    # dealing direction, West's (seat 2), for 6 more stacks: W0..W5 (ids 72..83).
    # The live wall starts at W6 = ids 84, 85: break_wall 2, break_stack 6.
    # Live stacks: W6..W17 (84..107), South's wall (36..71), East's wall (0..35).
    #   round 1: E 84-87   S 88-91    W 92-95   N 96-99
    #   round 2: E 100-103 S 104-107  W 36-39   N 40-43
    #   round 3: E 44-47   S 48-51    W 52-55   N 56-59
    #   jump: L24 = (60,61), L25 = (62,63), L26 = (64,65): E 60, 64; S 61; W 62; N 63.
    # Dead wall positions in replacement order: W5 (82, 83), W4 (80, 81), ..., W0 (72, 73),
    # then N17 (142, 143), N16 (140, 141), ..., N0 (108, 109).
    #
    # Swaps put bonus tiles in the deal and at the front of the dead wall:
    #   f1=136 -> position 84 (East's first tile), f2=137 -> position 88 (South's first),
    #   f4=139 -> position 63 (North's last), f3=138 -> position 82 (1st replacement),
    #   f5=140 -> position 83 (2nd replacement); the displaced 84, 88, 63, 82, 83 go to
    #   positions 136, 137, 139, 138, 140 (deep in the dead wall).
    # Replacements (dead in order: 138, 140, 80, 81, 78, 79, ...):
    #   East sets f1 aside, draws f3 (bonus: aside), draws f5 (bonus: aside), draws 80.
    #   South sets f2 aside, draws 81. West has none. North sets f4 aside, draws 78.
    order = swapped(144, (84, 136), (88, 137), (63, 139), (82, 138), (83, 140))
    d = deal_from_wall(order, (12, 12))
    assert (d.break_wall, d.break_stack) == (2, 6)
    assert d.hand_ids == (
        (85, 86, 87, 100, 101, 102, 103, 44, 45, 46, 47, 60, 64, 80),
        (89, 90, 91, 104, 105, 106, 107, 48, 49, 50, 51, 61, 81),
        (92, 93, 94, 95, 36, 37, 38, 39, 52, 53, 54, 55, 62),
        (96, 97, 98, 99, 40, 41, 42, 43, 56, 57, 58, 59, 78),
    )
    assert d.bonus_ids == ((136, 138, 140), (137,), (), (139,))
    assert d.bonus.tolist() == [
        [1, 0, 1, 0, 1, 0, 0, 0],
        [0, 1, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 0, 0, 0],
    ]
    # kinds: E 85-87=4s x3, 100-103=8s x4, 44-47=3p x4, 60=7p, 64=8p, 80=3s
    #        S 89-91=5s x3, 104-107=9s x4, 48-51=4p x4, 61=7p, 81=3s
    #        W 92-95=6s x4, 36-39=1p x4, 52-55=5p x4, 62=7p
    #        N 96-99=7s x4, 40-43=2p x4, 56-59=6p x4, 78=2s
    expected = ["333378p34448888s", "44447p35559999s", "111155557p6666s", "22226666p27777s"]
    for seat, text in enumerate(expected):
        np.testing.assert_array_equal(d.hands[seat], parse_hand(text))
    assert d.hands.sum(axis=1).tolist() == [14, 13, 13, 13]
    assert d.live == (65, *range(66, 72), *range(0, 36))
    assert d.dead[:15] == (79, 76, 77, 74, 75, 72, 73, 142, 143, 83, 141, 82, 63, 84, 88)
    assert d.dead[15:] == tuple(t for j in range(13, -1, -1) for t in (108 + 2 * j, 109 + 2 * j))
    check_conservation(order, d)
    check_counts_match_ids(d)


def test_american_152_hand_worked():
    # 152 tiles, S = 19: seat w's wall holds ids 38w .. 38w+37.
    # Dice (2, 2): 2 -> South (seat 1), count 4: S0..S3 (ids 38..45) are the dead wall,
    # the live wall starts at S4 = (46, 47); after South's wall comes East's (0..37).
    #   round 1: E 46-49  S 50-53  W 54-57  N 58-61
    #   round 2: E 62-65  S 66-69  W 70-73  N 74,75,0,1
    #   round 3: E 2-5    S 6-9    W 10-13  N 14-17
    #   jump: L24 = (18,19), L25 = (20,21), L26 = (22,23): E 18, 22; S 19; W 20; N 21.
    # Swaps: joker 144 -> position 46, f1 136 -> position 47 (both East's).
    order = swapped(152, (46, 144), (47, 136))
    d = deal_from_wall(order, (2, 2))
    assert (d.break_wall, d.break_stack) == (1, 4)
    # American default: no replacement; the flower and the joker stay in East's hand.
    assert d.hand_ids[0] == (144, 136, 48, 49, 62, 63, 64, 65, 2, 3, 4, 5, 18, 22)
    assert d.hand_ids[3] == (58, 59, 60, 61, 74, 75, 0, 1, 14, 15, 16, 17, 21)
    assert d.bonus_ids == ((), (), (), ())
    assert d.bonus[0].tolist() == [1, 0, 0, 0, 0, 0, 0, 0] and d.jokers.tolist() == [1, 0, 0, 0]
    assert d.hands.sum(axis=1).tolist() == [12, 13, 13, 13]
    assert d.dead == (44, 45, 42, 43, 40, 41, 38, 39)
    check_conservation(order, d)
    check_counts_match_ids(d)
    # Replacement can be switched on: f1 is replaced by the dead wall's first tile,
    # the joker is never replaced.
    r = deal_from_wall(order, (2, 2), flowers=True)
    assert r.hand_ids[0] == (144, 48, 49, 62, 63, 64, 65, 2, 3, 4, 5, 18, 22, 44)
    assert r.bonus_ids[0] == (136,) and r.jokers[0] == 1 and r.dead == (45, 42, 43, 40, 41, 38, 39)
    check_conservation(order, r)
    # ...and off for a 144 set: bonus tiles are held.
    h = deal_from_wall(swapped(144, (84, 136)), (12, 12), flowers=False)
    assert h.hand_ids[0][0] == 136 and h.bonus[0, 0] == 1 and h.hands[0].sum() == 13


def test_count_ending_exactly_at_wall_end_and_overflow():
    # (5, 12): 5 -> East, count 17 = all of East's wall; the live wall starts at the
    # right end of the next wall, North's (seat 3): stack 0 = positions 102, 103.
    p = deal_positions(136, (5, 12))
    assert (p.break_wall, p.break_stack) == (3, 0)
    assert p.hands[0][:4] == (102, 103, 104, 105)
    assert p.dead[:2] == (32, 33) and p.dead[-2:] == (0, 1) and len(p.dead) == 34
    # (12, 12): North, count 24 = 17 of North + 7 of West; live starts at W7 = 2*(34+7).
    p = deal_positions(136, (12, 12))
    assert (p.break_wall, p.break_stack) == (2, 7)
    assert p.hands[0][:2] == (82, 83)
    # dead: W6 (80, 81) .. W0 (68, 69) = 7 stacks, then N16 (134, 135) .. N0 (102, 103)
    assert p.dead[:2] == (80, 81) and p.dead[12:14] == (68, 69) and p.dead[14:16] == (134, 135)
    assert p.dead[-2:] == (102, 103) and len(p.dead) == 48
    # (2, 12): South, count 14 (no overflow): South's stacks 0..13 (positions 34..61) are
    # the dead wall, back end first at S13 = (60, 61); the live wall runs S14..S16, East's,
    # North's and West's walls and ends at West's stack 16 = positions 100, 101.
    p = deal_positions(136, (2, 12))
    assert (p.break_wall, p.break_stack) == (1, 14)
    assert p.hands[0][:2] == (62, 63)
    assert p.live[-2:] == (100, 101) and p.dead[:2] == (60, 61) and p.dead[-2:] == (34, 35)


# ---------------------------------------------------------------------------
# layout, positions, the fast-path equivalence


def test_build_walls_layout():
    rng = np.random.default_rng(5)
    for n in TILE_SETS:
        order = rng.permutation(n)
        walls = build_walls(order)
        s = stacks_per_wall(n)
        assert walls.shape == (4, s, 2)
        for w, j, lev in [(0, 0, 0), (1, 3, 1), (3, s - 1, 1), (2, 7, 0)]:
            assert walls[w, j, lev] == order[2 * (w * s + j) + lev]
        walls[0, 0, 0] = -1  # a copy: the input is untouched
        assert order.min() == 0
    assert [next_wall(s) for s in range(4)] == [3, 0, 1, 2]
    assert [stacks_per_wall(n) for n in TILE_SETS] == [17, 18, 19]


@pytest.mark.parametrize("n", TILE_SETS)
def test_positions_partition_every_dice(n):
    s = stacks_per_wall(n)
    for dice in ALL_DICE:
        p = deal_positions(n, dice)
        allpos = [q for h in p.hands for q in h] + list(p.live) + list(p.dead)
        assert sorted(allpos) == list(range(n)), dice
        assert [len(h) for h in p.hands] == [14, 13, 13, 13]
        assert len(p.dead) == 2 * sum(dice) and len(p.live) == n - 53 - 2 * sum(dice)
        # the chosen wall and the break: counting t1 + t2 stacks along the ring
        chosen = (dice[0] - 1) % 4
        walls = np.arange(n).reshape(4, s, 2)
        ring = [walls[(-k) % 4, j] for k in range(4) for j in range(s)]
        start = ((-chosen) % 4) * s + sum(dice)
        front = ring[start % (4 * s)]
        assert p.hands[0][:2] == tuple(front)
        assert tuple(walls[p.break_wall, p.break_stack]) == tuple(front)
        assert p.dead[:2] == tuple(ring[(start - 1) % (4 * s)])
        # live, then dead reversed, is the remaining ring from front to back
        # the counting started at the right end of the chosen wall: its stack 0 is the
        # far end of the dead wall
        assert p.dead[-2:] == tuple(walls[chosen, 0])
        # East's jump: tops of the 25th and 27th live stacks
        l24, l26 = ring[(start + 24) % (4 * s)], ring[(start + 26) % (4 * s)]
        assert p.hands[0][12:] == (l24[0], l26[0])
        assert (p.hands[1][12], p.hands[2][12], p.hands[3][12]) == (
            l24[1], *ring[(start + 25) % (4 * s)])
        assert p.live[0] == l26[1]


def naive_fast_deal(arr, n):
    """A 'fast path': deal from the front of a flat array, replace from its back."""
    arr = [int(t) for t in arr]
    front, back = 53, len(arr) - 1
    starts = [0, 14, 27, 40, 53]
    hands, asides = [], []
    for seat in range(4):
        queue, held, aside = arr[starts[seat]:starts[seat + 1]], [], []
        i = 0
        while i < len(queue):
            t = queue[i]
            i += 1
            if n != 152 and FIRST_BONUS_ID <= t < FIRST_JOKER_ID:
                aside.append(t)
                queue.append(arr[back])
                back -= 1
            else:
                held.append(t)
        hands.append(tuple(held))
        asides.append(tuple(aside))
    return tuple(hands), tuple(asides), tuple(arr[front:back + 1])


@pytest.mark.parametrize("n", TILE_SETS)
def test_wall_deal_is_a_relabelled_flat_deal(n):
    # For fixed dice the wall deal reads fixed distinct positions, so it equals the flat
    # deal of a permuted array: a uniform wall order gives the flat deal's distribution.
    rng = np.random.default_rng(11 + n)
    for _ in range(200):
        order = rng.permutation(n)
        dice = tuple(int(x) for x in rng.integers(2, 13, size=2))
        p = deal_positions(n, dice)
        perm = [q for h in p.hands for q in h] + list(p.live) + list(p.dead[::-1])
        hands, asides, rest = naive_fast_deal(order[perm], n)
        d = deal_from_wall(order, dice)
        assert d.hand_ids == hands and d.bonus_ids == asides
        assert d.live + d.dead[::-1] == rest
        # before replacement, each seat's dealt tiles are order[positions]
        for seat in range(4):
            dealt = [int(order[q]) for q in p.hands[seat]]
            kept = [t for t in dealt if not (n != 152 and FIRST_BONUS_ID <= t < FIRST_JOKER_ID)]
            assert list(d.hand_ids[seat][:len(kept)]) == kept


# ---------------------------------------------------------------------------
# properties over random walls


@pytest.mark.parametrize("n", TILE_SETS)
def test_conservation_sizes_determinism(n):
    rng = np.random.default_rng(2024 + n)
    for _ in range(300):
        order = rng.permutation(n)
        dice = (int(rng.integers(2, 13)), int(rng.integers(2, 13)))
        d = deal_from_wall(order, dice)
        check_conservation(order, d)
        check_counts_match_ids(d)
        sizes = [len(h) for h in d.hand_ids]
        assert sizes == [14, 13, 13, 13]
        if n != 152:
            assert d.hands.sum(axis=1).tolist() == [14, 13, 13, 13]
            assert not any(FIRST_BONUS_ID <= t for h in d.hand_ids for t in h)
            assert d.bonus.sum() == sum(len(b) for b in d.bonus_ids)
        else:
            total = d.hands.sum(axis=1) + d.bonus.sum(axis=1) + d.jokers
            assert total.tolist() == [14, 13, 13, 13]
            assert len(d.dead) == 2 * sum(dice)
        assert d.hands.dtype == np.uint8 and d.bonus.dtype == np.uint8 and d.jokers.dtype == np.uint8
        assert d.hands.shape == (4, 34) and d.bonus.shape == (4, 8) and d.jokers.shape == (4,)
        # determinism: same input (also as a list), same output
        e = deal_from_wall(order.tolist(), list(dice))
        assert e.hand_ids == d.hand_ids and e.live == d.live and e.dead == d.dead
        np.testing.assert_array_equal(e.hands, d.hands)
        np.testing.assert_array_equal(e.bonus, d.bonus)


def test_all_eight_bonus_tiles_in_the_deal_with_the_smallest_dead_wall():
    # Dice (2, 2): the dead wall has exactly 8 tiles; put all 8 bonus tiles in hands.
    p = deal_positions(144, (2, 2))
    targets = [p.hands[0][0], p.hands[0][5], p.hands[1][3], p.hands[1][12],
               p.hands[2][0], p.hands[2][1], p.hands[3][7], p.hands[0][13]]
    order = np.zeros(144, dtype=np.int64)
    order[targets] = np.arange(136, 144)
    others = [q for q in range(144) if q not in targets]
    order[others] = np.arange(136)
    d = deal_from_wall(order, (2, 2))
    assert d.dead == () and d.bonus.sum() == 8
    assert d.hands.sum(axis=1).tolist() == [14, 13, 13, 13]
    check_conservation(order, d)


def test_east_kinds_uniform_chi_square():
    # Over many random walls and dice, each standard kind is equally frequent in East's
    # hand (after replacement, 144-tile set). Fixed seed; the bound (df = 33, mean 33,
    # sd 8.1) is loose: about 6 standard deviations.
    rng = np.random.default_rng(7)
    n_deals = 6000
    totals = np.zeros(34, dtype=np.int64)
    bonus_seen = np.zeros(8, dtype=np.int64)
    n_aside = np.zeros(n_deals)
    for i in range(n_deals):
        d = deal_from_wall(rng.permutation(144), tuple(rng.integers(2, 13, size=2)))
        totals += d.hands[0]
        bonus_seen += d.bonus[0]
        n_aside[i] = len(d.bonus_ids[0])
    assert totals.sum() == 14 * n_deals
    expected = totals.sum() / 34
    chi2 = float(((totals - expected) ** 2 / expected).sum())
    assert chi2 < 82, chi2
    # each bonus tile is set aside by East about equally often
    chi2b = float(((bonus_seen - bonus_seen.mean()) ** 2 / bonus_seen.mean()).sum())
    assert chi2b < 7 + 6 * 3.8, chi2b
    # Exact mean: East's tiles (dealt, then replacements) are the first tiles of a uniform
    # sequence of 136 standard + 8 bonus tiles, and he sets aside the bonus tiles before
    # his 14th standard tile. Each bonus tile falls in one of the 137 gaps between
    # standard tiles uniformly, so the mean is 8 * 14 / 137.
    exact = 8 * 14 / 137
    se = n_aside.std(ddof=1) / np.sqrt(n_deals)
    assert abs(n_aside.mean() - exact) < 4 * se, (n_aside.mean(), exact, se)


def test_break_wall_distribution_follows_first_throw():
    for t1 in range(2, 13):
        for t2 in range(2, 13):
            d = deal_positions(136, (t1, t2))
            chosen = (t1 - 1) % 4
            if t1 + t2 < 17:
                assert (d.break_wall, d.break_stack) == (chosen, t1 + t2)
            else:
                assert (d.break_wall, d.break_stack) == (next_wall(chosen), t1 + t2 - 17)


# ---------------------------------------------------------------------------
# tile ids


def test_tile_kind():
    ids = np.arange(152)
    k = tile_kind(ids)
    assert k.shape == (152,)
    np.testing.assert_array_equal(k[:136], np.arange(136) // 4)
    np.testing.assert_array_equal(k[136:144], np.arange(34, 42))
    assert (k[144:] == 42).all()
    assert tile_kind(np.int16(7)) == 1 and isinstance(tile_kind(7), int)
    assert tile_kind([[0, 136], [144, 135]]).tolist() == [[0, 34], [42, 33]]
    assert N_STANDARD == 136
    with pytest.raises(ValueError):
        tile_kind(-1)
    with pytest.raises(ValueError):
        tile_kind(144, n_tiles=144)
    for bad in (1.0, True, "3", [1, 2.5], np.array([1.0])):
        with pytest.raises(TypeError):
            tile_kind(bad)


# ---------------------------------------------------------------------------
# validation


@pytest.mark.parametrize(
    "order, exc",
    [
        (np.arange(135), ValueError),
        (np.arange(137), ValueError),
        (np.arange(0), ValueError),
        (np.r_[np.arange(135), 0], ValueError),  # duplicate
        (np.r_[np.arange(1, 136), 136], ValueError),  # out of the set's ids
        (np.r_[np.arange(135), -1], ValueError),
        (np.arange(136).reshape(8, 17), ValueError),
        (np.arange(136, dtype=float), TypeError),
        ([float(i) for i in range(136)], TypeError),
        ([*range(135), "a"], TypeError),
        (np.ones(136, dtype=bool), TypeError),
        ("0123", TypeError),
    ],
)
def test_wall_order_validation(order, exc):
    with pytest.raises(exc):
        deal_from_wall(order, (5, 5))
    with pytest.raises(exc):
        build_walls(order)


@pytest.mark.parametrize(
    "dice, exc",
    [
        ((1, 5), ValueError),
        ((5, 13), ValueError),
        ((13, 2), ValueError),
        ((0, 0), ValueError),
        ((5,), ValueError),
        ((5, 5, 5), ValueError),
        ((5.0, 5), TypeError),
        ((5, 2.5), TypeError),
        ((True, 5), TypeError),
        (7, TypeError),
        ("57", TypeError),
    ],
)
def test_dice_validation(dice, exc):
    with pytest.raises(exc):
        deal_from_wall(np.arange(136), dice)
    with pytest.raises(exc):
        deal_positions(136, dice)


def test_other_validation():
    for n in (135, 0, 160):
        with pytest.raises(ValueError):
            deal_positions(n, (5, 5))
    with pytest.raises(TypeError):
        deal_positions(136.0, (5, 5))
    with pytest.raises(TypeError):
        deal_from_wall(np.arange(136), (5, 5), flowers=1)
    with pytest.raises(ValueError):
        next_wall(4)
    # numpy integer inputs are accepted
    d = deal_from_wall(np.arange(136, dtype=np.uint8), (np.int64(3), np.int8(8)))
    assert d.break_wall == 2


def test_results_are_frozen():
    d = deal_from_wall(np.arange(136), (3, 8))
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.live = ()
    with pytest.raises(ValueError):
        d.hands[0, 0] = 1


def test_docstring_examples():
    res = doctest.testmod(mjfast.wall, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0 and res.attempted > 10
    for name in mjfast.wall.__all__:
        obj = getattr(mjfast.wall, name)
        if callable(obj) and not isinstance(obj, type):
            assert "Examples" in (obj.__doc__ or ""), name
