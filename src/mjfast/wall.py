"""The physical wall: building it, breaking it with the dice, and the deal.

This module reproduces, tile for tile, what a real table deals from a given
wall order and dice (docs/rules.md, "The wall"; seeds 000 and 004). It is pure
Python + numpy and is meant as the reference that the fast dealing path
(which deals from a uniformly shuffled array) is checked against.

Physical tile ids
-----------------
Every physical tile has an integer id:

==========  =========================================================
id          tile
==========  =========================================================
0 - 135     standard tiles; kind = id // 4 (0-8 = 1m-9m, 9-17 = 1p-9p,
            18-26 = 1s-9s, 27-33 = East South West North White Green Red)
136 - 143   bonus tiles f1 - f8 (f1-f4 flowers, f5-f8 seasons)
144 - 151   jokers (American sets)
==========  =========================================================

A tile set is one of :data:`TILE_SETS`: 136 ids (no bonus tiles), 144
(with bonus tiles) or 152 (American: 144 + 8 jokers). :func:`tile_kind` maps
ids to the extended kind index of :mod:`mjfast.tiles` (0-33 standard,
34-41 bonus, 42 joker).

Layout of the walls
-------------------
Seats are numbered 0-3 = East, South, West, North; play passes
E -> S -> W -> N, i.e. counterclockwise seen from above, so South sits on
East's right and North on East's left. Each seat builds a wall of
``S`` stacks (:func:`stacks_per_wall`: 17, 18 or 19 for 136, 144 or 152
tiles), two tiles high, in front of itself.

* **Stacks of a wall** are numbered ``0 .. S-1`` from the wall's *right end*
  to its *left end*, as seen by the wall's owner. This is the direction in
  which the dice are counted and in which dealing proceeds.
* **The walls form a ring.** The left end of a seat's wall touches the right
  end of the wall of the player on its left, so along the dealing direction
  the walls follow each other East -> North -> West -> South -> East
  (clockwise; the wall after seat ``w`` is seat ``(w + 3) % 4``).
* **Wall order to positions.** Entry ``i`` of a wall order (the shuffled
  sequence of all ids) lies in wall ``w = i // (2 S)``, stack
  ``j = (i // 2) % S``, level ``i % 2`` (0 = top, 1 = bottom). In other
  words ``wall_order`` reshaped to ``(4, S, 2)`` *is* the table:
  ``walls[w, j, 0]`` is the top tile of stack ``j`` of seat ``w``'s wall.
  See :func:`build_walls`.

Breaking the wall
-----------------
``dice = (t1, t2)`` are the totals of East's throw and of the second throw
(each the sum of two dice, 2-12).

1. ``t1`` counted counterclockwise from East as 1 picks the wall:
   seat ``(t1 - 1) % 4`` (1, 5, 9 East; 2, 6, 10 South; 3, 7, 11 West;
   4, 8, 12 North).
2. The owner of that wall throws ``t2``; ``t1 + t2`` stacks (4-24) are
   counted from the right end of the chosen wall, in the dealing direction.
   **If the count passes the left end of the wall it simply continues into
   the next wall of the ring** (the wall of the player on the owner's left),
   as a player keeps counting along the square. Two throws can total up to
   24 > ``S``, so this does happen.
3. The wall is broken after the counted stacks. The stack just beyond the
   break (to its left) is the front of the **live wall**; it is stack
   ``break_stack`` of seat ``break_wall``'s wall (``break_stack`` is also
   the number of that wall's stacks lying to the right of the break; a
   break that falls exactly at a wall's left end is reported as stack 0 of
   the next wall).
4. The counted stacks, to the right of the break, are the **dead wall**
   (seed 000; seed 004's "back end of the wall"). Replacement tiles are
   taken from it starting at the stack next to the break and moving away
   from it (against the dealing direction), the top tile of a stack before
   its bottom tile. The dead wall holds ``2 (t1 + t2) >= 8`` tiles, enough
   for the (at most 8) bonus replacements of the deal.

Live draws take the live wall from its front, stack after stack, top tile
before bottom tile. The live wall and the dead wall are the two ends of one
ring: ``live + dead[::-1]`` is the whole remaining wall from its front to its
back end. A rule set with no reserved dead wall (play until the whole wall
is used) draws normal tiles from the front and replacement tiles from the
back of that one sequence.

The deal
--------
Let ``L0, L1, ...`` be the live stacks from the front.

1. Three rounds: East takes two stacks (``L0, L1``: top, bottom, top,
   bottom), then South (``L2, L3``), West (``L4, L5``) and North
   (``L6, L7``); the second round uses ``L8 .. L15``, the third
   ``L16 .. L23``. Everyone holds 12 tiles.
2. East "jumps" (seed 004): he takes the top tiles of the next first and
   third stacks, ``L24`` top and ``L26`` top. Then South, West and North
   each take the next tile at the front of the wall: South the bottom of
   ``L24``, West the top of ``L25``, North the bottom of ``L25``. East holds
   14 tiles, the others 13; the bottom of ``L26`` is the first live tile
   after the deal.
3. Bonus replacement (when ``flowers`` is on): East first, then South, West,
   North. A seat sets aside every bonus tile it was dealt and replaces each
   one from the dead wall; a replacement that is itself a bonus tile is set
   aside and replaced at once, so a seat finishes all of its replacements,
   chains included, before the next seat starts (seed 004: "he immediately
   takes supplement tiles for these"). Jokers are never replaced. Concealed
   kongs are not declared during the deal (that is the game engine's
   business).

American sets
-------------
The American game (seed 002) has no dice-and-break procedure of its own
("deals 13 to each player, 14 to herself"). :func:`deal_from_wall` still
accepts a 152-id wall: 19 stacks per wall (``152 = 4 x 19 x 2``) and exactly
the same break and deal, but by default **no bonus replacement**: flowers
are ordinary tiles in the American game, so they stay in the hand and are
reported in ``bonus``, and jokers are reported in ``jokers``.

Distribution
------------
For fixed dice, the deal reads fixed, distinct positions of the wall order
(:func:`deal_positions`). A uniformly shuffled wall order therefore gives
every seat a uniformly random set of tiles whatever the dice are, which is
why a fast path that deals from a uniformly shuffled array (front for the
deal and live draws, back for replacements) has the same distribution.

Examples
--------
>>> import numpy as np
>>> d = deal_from_wall(np.arange(136), (3, 8))
>>> [len(h) for h in d.hand_ids]
[14, 13, 13, 13]
>>> d.break_wall, d.break_stack
(2, 11)
>>> d.hand_ids[0]
(90, 91, 92, 93, 38, 39, 40, 41, 54, 55, 56, 57, 2, 6)
>>> d.live[:3], d.dead[:3]
((7, 8, 9), (88, 89, 86))
"""

from __future__ import annotations

import dataclasses
import numbers
import operator
from typing import Any

import numpy as np

from .tiles import BONUS_FIRST, JOKER, N_BONUS, N_KINDS

__all__ = [
    "N_STANDARD",
    "N_WITH_BONUS",
    "N_AMERICAN",
    "FIRST_BONUS_ID",
    "FIRST_JOKER_ID",
    "TILE_SETS",
    "SEATS",
    "tile_kind",
    "stacks_per_wall",
    "next_wall",
    "build_walls",
    "DealPositions",
    "deal_positions",
    "WallDeal",
    "deal_from_wall",
]

N_STANDARD = 136
"""Number of standard tiles (ids 0..135, kind = id // 4)."""
N_WITH_BONUS = 144
"""Size of a tile set with the 8 bonus tiles (ids 136..143 = f1..f8)."""
N_AMERICAN = 152
"""Size of an American set: 144 + 8 jokers (ids 144..151)."""
FIRST_BONUS_ID = 136
"""Id of bonus tile f1 (f8 is 143)."""
FIRST_JOKER_ID = 144
"""Id of the first joker."""
TILE_SETS = (N_STANDARD, N_WITH_BONUS, N_AMERICAN)
"""Tile-set sizes accepted by the wall functions."""
SEATS = ("E", "S", "W", "N")
"""Seat letters in seat order 0..3 (play order)."""

_STACKS = {N_STANDARD: 17, N_WITH_BONUS: 18, N_AMERICAN: 19}
_N_DEAL_ROUNDS = 3
_STACKS_PER_TAKE = 2


# ---------------------------------------------------------------------------
# small helpers


def tile_kind(ids: Any, *, n_tiles: int | None = None) -> Any:
    """Extended kind index of physical tile ids.

    Parameters
    ----------
    ids : int or array_like of int
        Physical tile ids (non-negative).
    n_tiles : int or None, default=None
        If given, ids must also be smaller than `n_tiles` (the tile-set
        size). Without it any id of 144 or more counts as a joker.

    Returns
    -------
    int or ndarray of dtype intp
        ``id // 4`` (0-33) for standard ids 0-135, ``34 + (id - 136)``
        (34-41 = f1-f8) for bonus ids 136-143, 42 for jokers (144 and up).
        A scalar in gives a Python int out; an array keeps its shape.

    Raises
    ------
    TypeError
        If `ids` holds non-integers (bools and floats included).
    ValueError
        If an id is negative (or not below `n_tiles`).

    Examples
    --------
    >>> tile_kind(0), tile_kind(135), tile_kind(136), tile_kind(143), tile_kind(150)
    (0, 33, 34, 41, 42)
    >>> tile_kind([4, 5, 108, 137]).tolist()
    [1, 1, 27, 35]
    """
    scalar = np.ndim(ids) == 0
    arr = _as_int_array(ids, "ids")
    if n_tiles is not None:
        n_tiles = _as_int(n_tiles, "n_tiles")
    if arr.size:
        if int(arr.min()) < 0:
            raise ValueError("tile ids must be non-negative")
        if n_tiles is not None and int(arr.max()) >= n_tiles:
            raise ValueError(f"tile ids must be below n_tiles={n_tiles}")
    out = np.where(
        arr < N_STANDARD,
        arr // 4,
        np.where(arr < FIRST_JOKER_ID, arr - FIRST_BONUS_ID + BONUS_FIRST, JOKER),
    ).astype(np.intp)
    return int(out) if scalar else out


def stacks_per_wall(n_tiles: int) -> int:
    """Number of stacks in each of the four walls of a tile set.

    Parameters
    ----------
    n_tiles : int
        Tile-set size: 136, 144 or 152.

    Returns
    -------
    int
        17, 18 or 19 (``n_tiles == 4 * 2 * stacks``).

    Raises
    ------
    TypeError
        If `n_tiles` is not an integer.
    ValueError
        If `n_tiles` is not one of :data:`TILE_SETS`.

    Examples
    --------
    >>> [stacks_per_wall(n) for n in (136, 144, 152)]
    [17, 18, 19]
    """
    n = _as_int(n_tiles, "n_tiles")
    if n not in _STACKS:
        raise ValueError(f"n_tiles must be one of {TILE_SETS}, got {n}")
    return _STACKS[n]


def next_wall(seat: int) -> int:
    """The wall that follows seat `seat`'s wall in the dealing direction.

    The left end of a wall touches the right end of the wall of the player
    on the owner's left, so dealing runs East -> North -> West -> South.

    Parameters
    ----------
    seat : int
        Seat 0-3 (East, South, West, North).

    Returns
    -------
    int
        ``(seat + 3) % 4``.

    Examples
    --------
    >>> [SEATS[next_wall(s)] for s in range(4)]
    ['N', 'E', 'S', 'W']
    """
    s = _as_int(seat, "seat")
    if not 0 <= s < 4:
        raise ValueError(f"seat must be 0..3, got {s}")
    return (s + 3) % 4


def _as_int(x: Any, name: str) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(x).__name__}")
    return operator.index(x)


def _as_int_array(x: Any, name: str) -> np.ndarray:
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must hold integers, got {type(x).__name__}")
    arr = np.asarray(x)
    if arr.size == 0 and arr.dtype.kind in "iufO":  # an empty list is float64
        return arr.astype(np.int64)
    if arr.dtype == object:
        for v in arr.flat:
            _as_int(v, name)
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)


def _check_order(wall_order: Any) -> np.ndarray:
    arr = _as_int_array(wall_order, "wall_order")
    if arr.ndim != 1:
        raise ValueError(f"wall_order must be 1-D, got shape {arr.shape}")
    n = arr.shape[0]
    if n not in _STACKS:
        raise ValueError(f"wall_order must have length 136, 144 or 152, got {n}")
    if n and (int(arr.min()) < 0 or int(arr.max()) >= n):
        raise ValueError(f"wall_order must be a permutation of 0..{n - 1}: id out of range")
    seen = np.bincount(arr, minlength=n)
    if seen.max() != 1:
        dup = int(np.flatnonzero(seen > 1)[0])
        raise ValueError(f"wall_order must be a permutation of 0..{n - 1}: id {dup} repeated")
    return arr


def _check_dice(dice: Any) -> tuple[int, int]:
    if isinstance(dice, (str, bytes)):
        raise TypeError("dice must be a pair of integers")
    try:
        pair = tuple(dice)
    except TypeError:
        raise TypeError(f"dice must be a pair of integers, got {type(dice).__name__}") from None
    if len(pair) != 2:
        raise ValueError(f"dice must be (first throw, second throw), got {len(pair)} values")
    t1, t2 = (_as_int(t, "dice") for t in pair)
    for t in (t1, t2):
        if not 2 <= t <= 12:
            raise ValueError(f"each throw is the total of two dice, 2..12, got {t}")
    return t1, t2


# ---------------------------------------------------------------------------
# walls


def build_walls(wall_order: Any) -> np.ndarray:
    """Lay a wall order out as the four walls of the table.

    Parameters
    ----------
    wall_order : array_like of int, shape (n,)
        A permutation of the ids ``0 .. n-1`` of a tile set, ``n`` = 136,
        144 or 152.

    Returns
    -------
    ndarray of shape (4, S, 2) and dtype int64
        ``walls[w, j, level]`` is the id at stack ``j`` of the wall in front
        of seat ``w`` (0-3 = E, S, W, N), ``level`` 0 = top, 1 = bottom.
        Stacks are numbered from the wall's right end (as seen by its owner)
        towards its left end, the direction in which dice are counted and
        tiles dealt; ``S`` = 17, 18 or 19. This is
        ``wall_order.reshape(4, S, 2)``: entries ``2k`` and ``2k + 1`` of the
        order form stack ``k % S`` of wall ``k // S``, top then bottom. The
        wall after seat ``w``'s in the dealing direction is seat
        ``(w + 3) % 4``'s (:func:`next_wall`).

    Raises
    ------
    TypeError
        If `wall_order` holds non-integers.
    ValueError
        If `wall_order` is not 1-D, has the wrong length or is not a
        permutation of ``0 .. n-1``.

    Examples
    --------
    >>> import numpy as np
    >>> walls = build_walls(np.arange(136))
    >>> walls.shape
    (4, 17, 2)
    >>> walls[0, 0].tolist(), walls[1, 0].tolist(), walls[3, 16].tolist()
    ([0, 1], [34, 35], [134, 135])
    """
    arr = _check_order(wall_order)
    s = _STACKS[arr.shape[0]]
    return arr.reshape(4, s, 2).copy()


@dataclasses.dataclass(frozen=True)
class DealPositions:
    """Which positions of a wall order the deal reads, for given dice.

    Positions are indices into the wall order (0 .. n-1), see
    :func:`build_walls` for the layout.

    Attributes
    ----------
    hands : tuple of 4 tuples of int
        Positions dealt to E, S, W, N (14, 13, 13, 13), in the order
        received, before any bonus replacement.
    live : tuple of int
        The rest of the live wall, in draw order (front first).
    dead : tuple of int
        The dead wall (the counted stacks), in replacement-draw order
        (the stack next to the break first, top before bottom).
    break_wall : int
        Seat (0-3) whose wall holds the front stack of the live wall.
    break_stack : int
        Index of that stack in its wall (= number of that wall's stacks to
        the right of the break).
    """

    hands: tuple[tuple[int, ...], ...]
    live: tuple[int, ...]
    dead: tuple[int, ...]
    break_wall: int
    break_stack: int


def deal_positions(n_tiles: int, dice: Any) -> DealPositions:
    """Positions of the wall order read by the deal, for given dice.

    Together the positions in ``hands``, ``live`` and ``dead`` are every
    position ``0 .. n_tiles-1`` exactly once; for fixed dice they do not
    depend on the wall order. The deal of :func:`deal_from_wall` is
    ``wall_order[p]`` for these positions, followed by bonus replacements
    taken from ``dead`` in order.

    Parameters
    ----------
    n_tiles : int
        Tile-set size: 136, 144 or 152.
    dice : pair of int
        ``(t1, t2)``: East's throw (picks the wall) and the wall owner's
        throw; each the total of two dice, 2..12. ``t1 + t2`` stacks are
        counted from the right end of the picked wall, continuing into the
        next wall if the count passes its left end.

    Returns
    -------
    DealPositions

    Raises
    ------
    TypeError
        If `n_tiles` or a throw is not an integer.
    ValueError
        If `n_tiles` is not 136, 144 or 152, `dice` is not a pair, or a
        throw is outside 2..12.

    Examples
    --------
    Dice (3, 8): wall 3 = West's, 11 stacks counted, so the live wall starts
    at West's stack 11, i.e. positions 90 (top) and 91 (bottom).

    >>> p = deal_positions(136, (3, 8))
    >>> p.break_wall, p.break_stack
    (2, 11)
    >>> p.hands[0][:4], p.dead[:4]
    ((90, 91, 92, 93), (88, 89, 86, 87))
    >>> len(p.live), len(p.dead)
    (61, 22)
    """
    s = stacks_per_wall(n_tiles)
    t1, t2 = _check_dice(dice)
    count = t1 + t2
    ring = 4 * s
    chosen = (t1 - 1) % 4
    # ring position of stack (w, j): ((-w) % 4) * s + j; stack of ring position r:
    # wall (-(r // s)) % 4, stack r % s.
    front = ((-chosen) % 4) * s + count

    def stack_pos(r: int) -> int:
        r %= ring
        return 2 * (((-(r // s)) % 4) * s + r % s)  # position of the top tile

    live_stacks = [stack_pos(front + k) for k in range(ring - count)]
    hands: list[list[int]] = [[], [], [], []]
    k = 0
    for _ in range(_N_DEAL_ROUNDS):
        for seat in range(4):
            for st in live_stacks[k : k + _STACKS_PER_TAKE]:
                hands[seat] += [st, st + 1]
            k += _STACKS_PER_TAKE
    a, b, c = live_stacks[k : k + 3]
    hands[0] += [a, c]  # East jumps: top of the 1st and of the 3rd stack
    hands[1].append(a + 1)  # South: bottom of the 1st
    hands[2].append(b)  # West: top of the 2nd
    hands[3].append(b + 1)  # North: bottom of the 2nd
    live = [c + 1]
    for st in live_stacks[k + 3 :]:
        live += [st, st + 1]
    dead: list[int] = []
    for d in range(1, count + 1):
        st = stack_pos(front - d)
        dead += [st, st + 1]
    fr = front % ring
    return DealPositions(
        hands=tuple(tuple(h) for h in hands),
        live=tuple(live),
        dead=tuple(dead),
        break_wall=(-(fr // s)) % 4,
        break_stack=fr % s,
    )


# ---------------------------------------------------------------------------
# the deal


@dataclasses.dataclass(frozen=True)
class WallDeal:
    """The result of :func:`deal_from_wall`.

    Attributes
    ----------
    hands : ndarray of shape (4, 34) and dtype uint8
        Concealed standard-tile counts of E, S, W, N after bonus
        replacement. With replacement on (136/144 sets) they sum to
        14, 13, 13, 13; in an American deal held flowers and jokers are not
        counted here (see ``bonus`` and ``jokers``).
    bonus : ndarray of shape (4, 8) and dtype uint8
        ``bonus[seat, i]`` = 1 if the seat has bonus tile f(i+1): set aside
        when replacement is on, held in the hand when it is off (American).
    jokers : ndarray of shape (4,) and dtype uint8
        Jokers held (zeros for sets without jokers).
    hand_ids : tuple of 4 tuples of int
        Physical ids held by each seat, in the order received (dealt tiles
        first, then replacement tiles in draw order). Includes held flowers
        and jokers of an American deal.
    bonus_ids : tuple of 4 tuples of int
        Bonus ids each seat set aside, in the order set aside (empty when
        replacement is off).
    live : tuple of int
        Remaining live-wall ids in draw order.
    dead : tuple of int
        Remaining dead-wall (back-end) ids in replacement-draw order.
    break_wall : int
        Seat (0-3) whose wall holds the front stack of the live wall.
    break_stack : int
        Index of that stack in its wall, counted from the wall's right end
        (= number of that wall's stacks to the right of the break).
    """

    hands: np.ndarray
    bonus: np.ndarray
    jokers: np.ndarray
    hand_ids: tuple[tuple[int, ...], ...]
    bonus_ids: tuple[tuple[int, ...], ...]
    live: tuple[int, ...]
    dead: tuple[int, ...]
    break_wall: int
    break_stack: int


def deal_from_wall(wall_order: Any, dice: Any, *, flowers: bool | None = None) -> WallDeal:
    """Deal exactly as a real table would from a wall order and dice.

    See the module docstring for the layout, the break, the deal and the
    replacement order.

    Parameters
    ----------
    wall_order : array_like of int, shape (n,)
        The shuffled tiles: a permutation of ``0 .. n-1``, ``n`` = 136,
        144 or 152, laid out as by :func:`build_walls`.
    dice : pair of int
        ``(t1, t2)``: East's throw, which picks the wall (counted
        counterclockwise from East as 1), and the wall owner's throw; each
        2..12. ``t1 + t2`` stacks are counted from the right end of that
        wall (continuing into the next wall if needed) and the wall is
        broken there.
    flowers : bool or None, default=None
        Whether bonus tiles in the deal are set aside and replaced from the
        dead wall. None = by tile set: on for 136 and 144 tiles, off for an
        American 152-tile set (flowers are ordinary tiles there). When off,
        bonus tiles stay in the hand.

    Returns
    -------
    WallDeal

    Raises
    ------
    TypeError
        If `wall_order` or a throw holds non-integers, or `flowers` is not
        a bool or None.
    ValueError
        If `wall_order` is not a permutation of ``0 .. n-1`` for ``n`` in
        136, 144, 152, or the dice are not two throws in 2..12.

    Examples
    --------
    With the identity order and dice (3, 8), West's wall is broken after 11
    stacks; East's first two stacks are West's stacks 11 and 12 (ids 90-93)
    and his last two tiles are the tops of East's stacks 1 and 3 (ids 2, 6).

    >>> import numpy as np
    >>> from mjfast.tiles import format_hand
    >>> d = deal_from_wall(np.arange(136), (3, 8))
    >>> d.hand_ids[0]
    (90, 91, 92, 93, 38, 39, 40, 41, 54, 55, 56, 57, 2, 6)
    >>> format_hand(d.hands[0])
    '12m11225566p5566s'
    >>> d.hands.sum(axis=1).tolist()
    [14, 13, 13, 13]

    A bonus tile in the deal is set aside and replaced from the dead wall:

    >>> order = np.arange(144)
    >>> order[[84, 136]] = order[[136, 84]]   # f1 becomes East's first tile
    >>> d = deal_from_wall(order, (12, 12))
    >>> d.bonus_ids[0], d.bonus[0].tolist(), d.hand_ids[0][-1]
    ((136,), [1, 0, 0, 0, 0, 0, 0, 0], 82)
    """
    arr = _check_order(wall_order)
    n = arr.shape[0]
    if flowers is None:
        replace = n != N_AMERICAN
    elif isinstance(flowers, (bool, np.bool_)):
        replace = bool(flowers)
    else:
        raise TypeError(f"flowers must be a bool or None, got {type(flowers).__name__}")
    pos = deal_positions(n, dice)
    ids = arr.tolist()
    dead = [ids[p] for p in pos.dead]
    d = 0
    hand_ids: list[tuple[int, ...]] = []
    bonus_ids: list[tuple[int, ...]] = []
    hands = np.zeros((4, N_KINDS), dtype=np.uint8)
    bonus = np.zeros((4, N_BONUS), dtype=np.uint8)
    jokers = np.zeros(4, dtype=np.uint8)
    for seat in range(4):
        queue = [ids[p] for p in pos.hands[seat]]
        held: list[int] = []
        aside: list[int] = []
        i = 0
        while i < len(queue):
            t = queue[i]
            i += 1
            if replace and FIRST_BONUS_ID <= t < FIRST_JOKER_ID:
                aside.append(t)
                queue.append(dead[d])  # cannot run out: 2 * (t1 + t2) >= 8 >= bonus tiles
                d += 1
            else:
                held.append(t)
        for t in held:
            if t < N_STANDARD:
                hands[seat, t >> 2] += 1
            elif t < FIRST_JOKER_ID:
                bonus[seat, t - FIRST_BONUS_ID] = 1
            else:
                jokers[seat] += 1
        for t in aside:
            bonus[seat, t - FIRST_BONUS_ID] = 1
        hand_ids.append(tuple(held))
        bonus_ids.append(tuple(aside))
    for a in (hands, bonus, jokers):
        a.flags.writeable = False
    return WallDeal(
        hands=hands,
        bonus=bonus,
        jokers=jokers,
        hand_ids=tuple(hand_ids),
        bonus_ids=tuple(bonus_ids),
        live=tuple(ids[p] for p in pos.live),
        dead=tuple(dead[d:]),
        break_wall=pos.break_wall,
        break_stack=pos.break_stack,
    )
