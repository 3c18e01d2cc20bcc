"""American play (seed 002, beginner hand): rules, policies, simulation statistics, replay.

Entry points: ``mjfast.simulate(..., rules="american")`` (dispatched here), :func:`charleston_effect`,
``mjfast.replay``/``mjfast.sim.play_walls`` with ``rules="american"``.

The rules as played (RULES.md "American" and seed 002; choices where the seed is silent are
marked *choice*):

- Tiles: 144 + ``jokers`` (default 8). The 8 flowers are one kind ("f") of 8 identical tiles.
  Kinds are numbered 0-33 (standard), 34 (flower), 35 (joker).
- Deal (*choice* of order): the shuffled wall is dealt from the front, the dealer's 14 tiles
  first, then 13 to each next seat in turn order; draws come from the front. No dice, no dead
  wall: the hand is a wall game when the last tile is gone.
- Directions: seats play E -> S -> W -> N; "right" is the next player in turn order (seed 002:
  "Play passes to the player on her RIGHT"), "left" the previous one, "across" the opposite.
- Charleston: pass three tiles right, across, left. A second Charleston (left, across, right)
  follows when ``second_charleston=True``, never when False, and under "policy" when any
  player wants it (each player votes after the first Charleston). Then, with ``courtesy=True``,
  each player offers 0-3 tiles to the opposite player; the number exchanged is the smaller of
  the two offers (*choice*, the common reading of "if this player agrees"). Jokers are never
  passed.
- Blind pass (``blind_pass=True``): on the last pass of each Charleston a player may pass on 1-3
  of the tiles she receives, unseen, and give only 3 - b of her own. The tiles arriving at a
  player fill her 3 - b places in order of arrival (the passer's own tiles first, in her order,
  then tiles forwarded to her), the rest go on to the next player unseen (*choice*: a
  well-defined reading of simultaneous blind passes; if all four blind-pass 3, nothing moves).
- Play: the dealer starts (with 14 tiles she may go Mahjong at once, counted as self-drawn).
  A turn is: draw, then any joker exchanges (swap a natural tile of kind k from hand for a
  joker in any exposed set of k; not after a call: *choice*, the seed allows it "after you
  complete your draw"), then discard (a joker may be discarded; it cannot be called).
- Calls: a discard can be called to complete an exposed set of four of a kind the caller has
  not exposed yet (at most three sets), using as many natural tiles from hand as possible and
  jokers for the rest (*choice*), or to go Mahjong (the only way to take a tile for the pair).
  Mahjong beats a call; otherwise, and between two Mahjong calls, the caller next in turn
  order after the discarder wins. The caller then discards; play passes to her right.
- Dead hands: the engine keeps every tile count right, so a hand goes dead by a false
  Mahjong (a Python policy declaring "win" that is not offered). The player is out: she no
  longer draws, discards or calls, the others play on; she still pays a winner. Other illegal
  actions (a tile not held, passing a joker) raise IllegalActionError.
- Scoring: every player starts each game with ``start_points`` (650); the winner collects
  ``base_points`` (50) from each of the three others, doubled if self-drawn, doubled again if
  her hand (concealed tiles and exposed sets) holds no joker. Scores always sum to 4 x 650.
- A game is ``rounds`` deals per seat (default 1: four hands); the deal passes after every hand.

Built-in policies (both documented rules are reproduced by a pure-Python policy in the tests):

``"greedy"``
    *Distance* = tiles missing for the beginner hand, exposed sets included
    (:func:`american_distance`). Discard: the tile whose removal leaves the lowest distance,
    then the kind with the fewest copies in hand, then the fewest unseen copies
    (8 for flowers, else 4, minus own and visible), then the lowest kind; a joker only when
    discarding it is strictly better. Charleston: the same choice made three times in a row
    (never a joker); on a pass that allows it, the tiles from the first one whose removal
    raises the distance on are blind-passed instead. Votes for the second Charleston when
    its three tiles cost no distance; courtesy offer = how many of those first three cost
    none. Goes Mahjong whenever possible; calls a set of four when the distance after the
    call and its best discard is lower than before; after a draw exchanges a tile for an
    exposed joker when that does not raise the distance (first exposure: own sets first, then
    in turn order, each player's sets in the order exposed), repeatedly.
``"random"``
    Discards and passes uniformly random tiles (never jokers in passes), votes and offers
    at random, goes Mahjong whenever possible, never calls or exchanges.
"""
from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Any, Sequence

import numpy as np

from . import tiles
from ._runtime import dask as _dask
from ._kernels import american_game as _amgame
from ._kernels import engine as _engine
from ._runtime.threads import resolve_threads
from ._runtime.progress import Progress
from ._runtime.seeding import root_key, seed_to_json
from .sim import (
    LOG_VERSION, Comparison, GameLog, Mean, Policy, SimResult, _check_count, _check_walls, _Context, _policy_name,
    _resolve_policies, _tile_of_id,
)
from .stats import Estimate, Z95, exact_square_sums

AMERICAN_POLICIES = {k: _engine.POLICY_CODES[k] for k in ("random", "greedy")}
_PY = _engine.POLICY_CODES["external"]
_OUT = dict(_engine.OUT_COMMON, **_amgame.OUT_COLUMNS)   # per-game output columns of the engine
N_DIST = 15                      # distances 0..14
PASS_NAMES = ("right", "across", "left", "left", "across", "right", "courtesy")
OPTIONAL_PASSES = ("second_charleston", "courtesy", "blind_pass")


# ---------------------------------------------------------------------------------------------
# tiles

def am_tile_name(k: int) -> str:
    """Name of an American kind: 0-33 as in tiles ("5p", "7z"), 34 "f" (flower), 35 "j" (joker)."""
    return "f" if k == 34 else "j" if k == 35 else tiles.tile_name(k)


def am_tile_index(name) -> int:
    """Kind of an American tile name or index (accepts "f", "f1".."f8", "j")."""
    if isinstance(name, (numbers.Integral, np.integer)) and not isinstance(name, bool):
        k = int(name)
        if not 0 <= k <= 35:
            raise ValueError(f"tile index must be 0-35, got {k}")
        return k
    if not isinstance(name, str):
        raise TypeError(f"a tile is a name such as '5p', 'f' or 'j', not {type(name).__name__}")
    if name == "j":
        return 35
    if name == "f" or (len(name) == 2 and name[0] == "f" and name[1] in "12345678"):
        return 34
    return tiles.tile_index(name)


_NAMES = tuple(am_tile_name(k) for k in range(36))


# ---------------------------------------------------------------------------------------------
# rules

@dataclasses.dataclass(frozen=True)
class AmericanRules:
    """American rule options (see the module docstring and :func:`mjfast.game_rules`)."""

    name: str
    jokers: int
    second_charleston: Any      # "policy", True or False
    courtesy: bool
    blind_pass: bool
    base_points: int
    start_points: int
    rounds: int

    @property
    def n_tiles(self) -> int:
        return 144 + self.jokers

    @property
    def hands_per_game(self) -> int:
        return 4 * self.rounds

    def kernel(self) -> dict:
        sc = self.second_charleston
        return {"jokers": self.jokers, "second": 2 if sc == "policy" else int(bool(sc)),
                "courtesy": int(self.courtesy), "blind": int(self.blind_pass), "base_points": self.base_points,
                "start_points": self.start_points, "hands_per_game": self.hands_per_game}

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["tiles"] = self.n_tiles
        return d


_AM_DEFAULTS = dict(jokers=8, second_charleston="policy", courtesy=True, blind_pass=True, base_points=50,
                    start_points=650, rounds=1)


def american_rules(base: AmericanRules | None = None, **options) -> AmericanRules:
    """Resolve American options (called by :func:`mjfast.game_rules` for ``"american"``).

    Examples
    --------
    ``hands_per_game`` (a multiple of 4) may be given instead of ``rounds``.

    >>> r = american_rules(jokers=10, second_charleston=False)
    >>> r.n_tiles, r.kernel()["second"]
    (154, 0)
    >>> american_rules(hands_per_game=8).rounds
    2
    """
    merged = dict(_AM_DEFAULTS) if base is None else {k: v for k, v in dataclasses.asdict(base).items() if k != "name"}
    hpg = options.pop("hands_per_game", None)
    if hpg is not None:
        if isinstance(hpg, bool) or not isinstance(hpg, numbers.Integral) or hpg % 4 or not 4 <= hpg <= 64:
            raise ValueError(f"hands_per_game must be 4, 8, ..., 64 (every seat deals equally often), got {hpg!r}")
        rd = options.get("rounds")
        if rd is not None and not (isinstance(rd, numbers.Integral) and not isinstance(rd, bool) and rd == hpg // 4):
            raise ValueError("give rounds or hands_per_game, not both")
        options["rounds"] = hpg // 4
    for key, value in options.items():
        if value is None:
            continue
        if key not in merged:
            raise ValueError(f"unknown rule option {key!r} for rules='american'; options are {sorted(merged)}")
        merged[key] = value
    j = merged["jokers"]
    if isinstance(j, bool) or not isinstance(j, numbers.Integral) or not 0 <= j <= 10:
        raise ValueError(f"jokers must be an int from 0 to 10, got {j!r}")
    sc = merged["second_charleston"]
    if not (isinstance(sc, str) and sc == "policy") and not isinstance(sc, (bool, np.bool_)):
        raise ValueError(f"second_charleston must be 'policy', True or False, got {sc!r}")
    for key in ("courtesy", "blind_pass"):
        if not isinstance(merged[key], (bool, np.bool_)):
            raise TypeError(f"{key} must be True or False, not {merged[key]!r}")
    for key, lo in (("base_points", 1), ("start_points", 0)):
        v = merged[key]
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < lo or v > 10**6:
            raise ValueError(f"{key} must be an int from {lo} to 10**6, got {v!r}")
    rd = merged["rounds"]
    if isinstance(rd, bool) or not isinstance(rd, numbers.Integral) or not 1 <= rd <= 16:
        raise ValueError(f"rounds must be an int from 1 to 16, got {rd!r}")
    return AmericanRules("american", int(j), sc if isinstance(sc, str) else bool(sc), bool(merged["courtesy"]),
                         bool(merged["blind_pass"]), int(merged["base_points"]), int(merged["start_points"]), int(rd))


# ---------------------------------------------------------------------------------------------
# distance (the kernel behind the greedy policy), for users and tests

def american_distance(hand, exposures=()) -> int:
    """Tiles missing for the beginner hand, counting exposed sets of four.

    Parameters
    ----------
    hand : array_like of shape (36,)
        Concealed tiles by American kind (0-33 standard, 34 flower, 35 joker).
    exposures : sequence of (kind, jokers)
        The player's exposed sets of four (each a different kind), as in ``AmericanView.exposures``.

    Examples
    --------
    >>> h = np.zeros(36, int); h[0] = 4; h[1] = 4; h[2] = 3; h[35] = 1; h[3] = 2
    >>> american_distance(h)
    0
    >>> h2 = h.copy(); h2[0] = 0
    >>> american_distance(h2, exposures=[(0, 0)])
    0
    """
    h = np.asarray(hand)
    if h.shape != (36,) or h.dtype.kind not in "iu" or h.min() < 0:
        raise ValueError("hand must be 36 non-negative integer counts (34 kinds, flower, joker)")
    if h[:34].max() > 4 or h[34] > 8 or h[35] > 16:
        raise ValueError("a hand holds at most 4 of a kind, 8 flowers and 16 jokers")
    exposures = list(exposures)
    kinds_ = [int(k) for k, _j in exposures]
    if len(exposures) > 3 or len(set(kinds_)) != len(kinds_) or not all(0 <= k <= 34 for k in kinds_):
        raise ValueError("exposures: at most 3 sets of four, of different kinds 0-34")
    excl = np.zeros((1, 35), np.uint8)
    for k in kinds_:
        excl[0, k] = 1
    out = np.zeros(1, np.int32)
    _amgame.distance_batch(np.ascontiguousarray(h[None, :], dtype=np.uint8), excl,
                           np.array([len(exposures)], np.int32), out)
    return int(out[0])


# ---------------------------------------------------------------------------------------------
# Python policies

@dataclasses.dataclass(frozen=True)
class AmericanView:
    """What one seat sees in an American game (copies; changing them changes nothing).

    Attributes
    ----------
    seat, dealer, hand_number, turn : int
    hand : ndarray (36,) uint8
        Concealed tiles by kind: 0-33 standard, 34 flowers, 35 jokers.
    exposures : tuple of 4 tuples
        Every player's exposed sets of four, as (tile name, jokers in the set).
    discards : tuple of 4 tuples of str
        Every player's discards in order (called ones included; "j" = joker).
    visible : ndarray (36,) uint8
        Discards and exposed tiles seen by everyone (exposed jokers under 35).
    dead : tuple of 4 bool
    wall_left : int
    drawn : str or None
        The tile just drawn (None after a call and in the Charleston).
    """

    seat: int
    dealer: int
    hand_number: int
    turn: int
    hand: np.ndarray
    exposures: tuple
    discards: tuple
    visible: np.ndarray
    dead: tuple
    wall_left: int
    drawn: str | None

    def unseen(self) -> np.ndarray:
        """Copies of each kind (0-34) this seat has not seen: 4 (8 flowers) - own - visible."""
        total = np.full(35, 4, np.int64)
        total[34] = 8
        return total - self.hand[:35].astype(np.int64) - self.visible[:35]

    def distance(self) -> int:
        """:func:`american_distance` of this seat's hand and exposed sets."""
        return american_distance(self.hand, [(am_tile_index(t), j) for t, j in self.exposures[self.seat]])


class AmericanPolicy(Policy):
    """Base class for a Python bot in American games (any :class:`mjfast.Policy` works too).

    The engine calls, with an :class:`AmericanView` (tiles as names: "5p", "f", "j"):
    ``discard(view)`` (required), ``claim(view, tile, options)`` with options from
    ("win", "quad"), ``own_turn(view, options)`` with options "win" and
    "exchange:<tile>:<seat>" (swap that tile from hand for a joker in that seat's exposed set),
    and the Charleston hooks below. Returning None from a Charleston hook means "the built-in
    greedy choice". Returning "win" when it is not offered is a false Mahjong: the hand is dead.

    Examples
    --------
    >>> import mjfast
    >>> class FirstTile(AmericanPolicy):
    ...     def discard(self, view):
    ...         return am_tile_name(int(np.flatnonzero(view.hand)[0]))
    >>> res = mjfast.simulate(2, rules="american", policies=[FirstTile(), "greedy", "greedy", "greedy"],
    ...                       seed=1, progress=False)
    >>> int(res.points.sum())
    5200
    """

    name = "python-american"

    def claim(self, view, tile: str, options: Sequence[str]) -> str | None:
        """Call the discard ``tile``: "win" (Mahjong), "quad" (expose a set of four) or None."""
        return "win" if "win" in options else None

    def own_turn(self, view, options: Sequence[str]) -> str | None:
        """After a draw: "win", an "exchange:..." option, or None to go on to the discard."""
        return "win" if "win" in options else None

    def charleston(self, view, direction: str, blind: bool):
        """Tiles to pass ("right", "across" or "left"): a list of 3 tile names, or fewer when
        ``blind`` is True (the rest are blind-passed); never "j". None: built-in choice."""
        return None

    def second_charleston(self, view) -> bool | None:
        """Vote for a second Charleston (None: built-in choice)."""
        return None

    def courtesy_offer(self, view) -> int | None:
        """Tiles (0-3) to offer the opposite player in the courtesy pass (None: built-in)."""
        return None

    def courtesy(self, view, n: int):
        """The ``n`` tiles to give in the courtesy pass (None: built-in choice)."""
        return None


class _AmContext(_Context):
    """Bridges engine callbacks to the Python policies of one table (errors as in _Context)."""

    def __init__(self, policies: list, rules: AmericanRules):
        super().__init__(policies)
        self.rules = rules
        # hooks a seat leaves at their defaults are not called (same result, no view to build):
        # bit 0 own_turn ("win" if offered; not asked when nothing is offered), bits 1-4
        # charleston, second_charleston, courtesy_offer, courtesy (None: the built-in choice)
        self.quiet_own_turn = [self._quiet(p) for p in policies]

    @staticmethod
    def _quiet(p) -> int:
        if isinstance(p, str):
            return 0
        t = type(p)
        bits = int(getattr(t, "own_turn", None) in (Policy.own_turn, AmericanPolicy.own_turn))
        for i, name in enumerate(("charleston", "second_charleston", "courtesy_offer", "courtesy")):
            if getattr(t, name, None) in (None, getattr(AmericanPolicy, name)):
                bits |= 2 << i
        return bits

    def _view(self, v: dict) -> AmericanView:
        names = _NAMES
        ex = tuple(tuple((names[k], j) for k, j in seat) for seat in v["exposures"])
        disc = tuple(tuple(names[k] for k in seat) for seat in v["discards"])
        drawn = names[v["drawn"]] if v["drawn"] >= 0 else None
        return AmericanView(v["seat"], v["dealer"], v["hand_number"], v["turn"], v["hand"], ex, disc, v["visible"],
                            v["dead"], v["wall_left"], drawn)

    def _tiles(self, seat, view, choice, n, blind_ok, what):
        try:
            ks = [am_tile_index(t) for t in choice]
        except (TypeError, ValueError):
            self._raise(seat, view, choice, f"a list of tile names to {what}")
        held = view.hand.astype(np.int64).copy()
        for k in ks:
            held[k] -= 1
        if 35 in ks:
            self._raise(seat, view, choice, f"tiles other than jokers to {what} (jokers are never passed)")
        if held.min() < 0:
            self._raise(seat, view, choice, f"tiles in hand to {what}")
        if len(ks) > n or (len(ks) < n and not blind_ok):
            self._raise(seat, view, choice, f"{n} tiles to {what}" + (" (fewer: the rest blind)" if blind_ok else ""))
        code = n - len(ks)
        for i, k in enumerate(ks):
            code |= k << (2 + 6 * i)
        return code

    def ask(self, v: dict, what: int, tile: int, options: list) -> int:
        seat = v["seat"]
        self.last = (seat, v["hand_number"])
        view = self._view(v)
        pol = self.policies[seat]
        if what == 0:
            choice = pol.discard(view)
            try:
                k = am_tile_index(choice)
            except (TypeError, ValueError):
                k = -1
            if not 0 <= k < 36 or view.hand[k] == 0:
                self._raise(seat, view, choice, "a tile in hand")
            return k
        if what == 1:
            labels = ["win" if options[0] == 1 else None, "quad" if options[1] == 2 else None]
            choice = pol.claim(view, am_tile_name(tile), [x for x in labels if x])
            if choice is None:
                return -1
            if choice == "win" and "win" not in labels:
                return -2                                   # false Mahjong: dead hand
            if choice not in labels:
                self._raise(seat, view, choice, [x for x in labels if x] + [None])
            return labels.index(choice)
        if what == 2:
            labels = ["win" if options[0] == 1000 else None]
            labels += [f"exchange:{am_tile_name(c >> 2)}:{c & 3}" for c in options[1:]]
            choice = pol.own_turn(view, [x for x in labels if x])
            if choice is None:
                return -1
            if choice == "win" and labels[0] is None:
                return -2
            if choice not in labels:
                self._raise(seat, view, choice, [x for x in labels if x] + [None])
            return labels.index(choice)
        if what in (4, 7):
            n = options[0]
            if what == 4:
                f = getattr(pol, "charleston", None)
                blind_ok = self.rules.blind_pass and tile in (2, 5)
                choice = f(view, PASS_NAMES[tile], blind_ok) if f else None
                return -1 if choice is None else self._tiles(seat, view, choice, n, blind_ok, "pass")
            f = getattr(pol, "courtesy", None)
            choice = f(view, n) if f else None
            return -1 if choice is None else self._tiles(seat, view, choice, n, False, "give in the courtesy pass")
        if what == 5:
            f = getattr(pol, "second_charleston", None)
            choice = f(view) if f else None
            return -1 if choice is None else int(bool(choice))
        f = getattr(pol, "courtesy_offer", None)
        choice = f(view) if f else None
        if choice is None:
            return -1
        if isinstance(choice, bool) or not isinstance(choice, numbers.Integral) or not 0 <= choice <= 3:
            self._raise(seat, view, choice, "a courtesy offer of 0-3 tiles")
        return int(choice)

    def _kind_name(self, kind: int):
        return am_tile_name(kind) if 0 <= kind < 36 else kind


def _resolve(policies) -> list:
    return _resolve_policies(policies, AMERICAN_POLICIES, " for rules='american'")


def _codes(policies: list) -> np.ndarray:
    return np.array([AMERICAN_POLICIES[p] if isinstance(p, str) else _PY for p in policies], dtype=np.intc)


# ---------------------------------------------------------------------------------------------
# results
#
# per-game engine columns (int32): final scores 0-3, wins 4-7, self-drawn wins 8-11, deal-ins
# 12-15, jokerless wins 16-19, dead hands 20-23, calls for sets of four 24-27, joker exchanges
# 28-31, hands 32, turns 33, wall games 34, second Charlestons danced 35, courtesy tiles given
# 36, distance histograms before the Charleston 40 + 15 * player + d and after it 100 + ...

@dataclasses.dataclass(eq=False)
class AmericanSimResult(SimResult):
    """:class:`~mjfast.SimResult` of American games, with the American statistics.

    ``claims`` holds per player (calls for a set of four, joker exchanges);
    ``distance_before``/``distance_after`` are (4, 15) histograms of the distance to Mahjong of
    each player's hand right after the deal and after the whole Charleston (courtesy pass
    included); ``exhaustive_draws`` counts wall games.
    """

    jokerless_wins: np.ndarray = None
    dead_hands: np.ndarray = None
    distance_before: np.ndarray = None
    distance_after: np.ndarray = None
    second_charlestons: int = 0
    courtesy_tiles: int = 0

    def jokerless_share(self, seat=None, policy=None) -> Estimate:
        """Share of wins whose hand held no joker."""
        j, _ = self._pick("jokerless_wins", seat, policy)
        w, _ = self._pick("wins", seat, policy)
        return Estimate.from_counts(j, w)

    def dead_hand_rate(self, seat=None, policy=None) -> Estimate:
        """Share of hands in which this player's hand went dead."""
        d, h = self._pick("dead_hands", seat, policy)
        return Estimate.from_counts(d, h)

    def wall_game_rate(self) -> Estimate:
        """Share of hands ended by an empty wall (the same as :meth:`exhaustive_draw_rate`)."""
        return self.exhaustive_draw_rate()

    def second_charleston_rate(self) -> Estimate:
        return Estimate.from_counts(self.second_charlestons, self.hands)

    def distance_distribution(self, when: str = "after", seat: int | None = None) -> list:
        """Share of hands at each distance 0..14 (``when`` "before" or "after" the Charleston),
        for player ``seat`` or all players pooled; a list of 15 Estimates."""
        h = self._hist(when, seat)
        n = int(h.sum())
        return [Estimate.from_counts(int(c), n) for c in h]

    def mean_distance(self, when: str = "after", seat: int | None = None) -> Mean:
        """Mean distance to Mahjong before or after the Charleston (hands are independent)."""
        h = self._hist(when, seat).astype(np.float64)
        n = int(h.sum())
        d = np.arange(N_DIST)
        if n == 0:
            return Mean(math.nan, math.nan, 0)
        m = float((h * d).sum() / n)
        var = float((h * (d - m) ** 2).sum() / (n - 1)) if n > 1 else math.nan
        return Mean(m, math.sqrt(var / n) if n > 1 else math.nan, n)

    def _hist(self, when, seat):
        if when not in ("before", "after"):
            raise ValueError(f"when must be 'before' or 'after', got {when!r}")
        h = self.distance_before if when == "before" else self.distance_after
        if seat is None:
            return h.sum(axis=0)
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0-3, got {seat!r}")
        return h[seat]

    def claims_per_hand(self, seat=None, policy=None) -> dict:
        """Mean calls for a set of four ("quad") and joker exchanges per hand."""
        if policy is not None:
            c, h = self.by_policy[policy]["claims"], self.by_policy[policy]["hands"]
        else:
            c, h = self.claims[seat], self.hands
        return {k: (float(c[i]) / h if h else math.nan) for i, k in enumerate(("quad", "joker_exchange"))}

    def __add__(self, other):
        if not isinstance(other, AmericanSimResult):
            return NotImplemented
        base = SimResult.__add__(self, other)
        return AmericanSimResult(**{f.name: getattr(base, f.name) for f in dataclasses.fields(SimResult)},
                                 jokerless_wins=self.jokerless_wins + other.jokerless_wins,
                                 dead_hands=self.dead_hands + other.dead_hands,
                                 distance_before=self.distance_before + other.distance_before,
                                 distance_after=self.distance_after + other.distance_after,
                                 second_charlestons=self.second_charlestons + other.second_charlestons,
                                 courtesy_tiles=self.courtesy_tiles + other.courtesy_tiles)

    def to_dict(self) -> dict:
        """The JSON schema of the other rule sets plus the American keys (see the README)."""
        seats = []
        for s in range(4):
            seats.append({
                "seat": s,
                "policy": _policy_name(self.policies[s]) if not self.duplicate else None,
                "wins": int(self.wins[s]), "self_draw_wins": int(self.self_draw_wins[s]),
                "discard_wins": int(self.discard_wins[s]), "deal_ins": int(self.deal_ins[s]),
                "points": int(self.points[s]),
                "win_rate": self.win_rate(s).to_dict(), "deal_in_rate": self.deal_in_rate(s).to_dict(),
                "self_draw_share": self.self_draw_share(s).to_dict(),
                "mean_points": self.mean_points(s).to_dict(),
                "points_distribution": {str(k): v for k, v in sorted(self.points_hist[s].items())},
                "claims": {"quad": int(self.claims[s, 0]), "joker_exchange": int(self.claims[s, 1])},
                "jokerless_wins": int(self.jokerless_wins[s]),
                "jokerless_share": self.jokerless_share(s).to_dict(),
                "dead_hands": int(self.dead_hands[s]), "dead_hand_rate": self.dead_hand_rate(s).to_dict(),
                "distance_before": self.distance_before[s].tolist(),
                "distance_after": self.distance_after[s].tolist(),
                "mean_distance_before": self.mean_distance("before", s).to_dict(),
                "mean_distance_after": self.mean_distance("after", s).to_dict(),
            })
        pols = {}
        for name, c in self.by_policy.items():
            pols[name] = {
                "hands": int(c["hands"]), "games": int(c["games"]), "wins": int(c["wins"]),
                "self_draw_wins": int(c["self_draw_wins"]), "deal_ins": int(c["deal_ins"]),
                "points": int(c["points"]), "jokerless_wins": int(c["jokerless_wins"]),
                "dead_hands": int(c["dead_hands"]),
                "win_rate": self.win_rate(policy=name).to_dict(),
                "deal_in_rate": self.deal_in_rate(policy=name).to_dict(),
                "mean_points": self.mean_points(policy=name).to_dict(),
                "claims": {"quad": int(c["claims"][0]), "joker_exchange": int(c["claims"][1])},
            }
        mt = self.mean_turns()
        return {
            "rules": self.rules.name, "options": self.rules.to_dict(), "games": self.games, "hands": self.hands,
            "seed": seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(s) for s in self.seeds],
            "duplicate": self.duplicate,
            "seats": seats, "policies": pols,
            "exhaustive_draws": self.exhaustive_draws,
            "exhaustive_draw_rate": self.exhaustive_draw_rate().to_dict(),
            "mean_turns": mt.mean, "mean_turns_se": mt.se,
            "wall_games": self.exhaustive_draws, "wall_game_rate": self.wall_game_rate().to_dict(),
            "jokerless_wins": int(self.jokerless_wins.sum()), "dead_hands": int(self.dead_hands.sum()),
            "second_charlestons": self.second_charlestons, "courtesy_tiles": self.courtesy_tiles,
            "distance_before": self.distance_before.sum(axis=0).tolist(),
            "distance_after": self.distance_after.sum(axis=0).tolist(),
            "mean_distance_before": self.mean_distance("before").to_dict(),
            "mean_distance_after": self.mean_distance("after").to_dict(),
        }

    def table(self) -> str:
        """Readable table with 95% intervals."""
        def fmt(e: Estimate) -> str:
            return f"{e.p:6.4f} [{e.low:6.4f}, {e.high:6.4f}]"

        lines = [f"mjfast simulate: rules=american games={self.games:,} hands={self.hands:,} "
                 f"seed={seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(x) for x in self.seeds]}"
                 + ("  (duplicate)" if self.duplicate else "")]
        lines.append(f"{'':<14}{'win rate':>26}{'self-draw share':>26}{'jokerless share':>26}"
                     f"{'dead-hand rate':>26}{'mean points':>22}")
        rows = [(f"seat {s} {'' if self.duplicate else _policy_name(self.policies[s])}", dict(seat=s)) for s in range(4)]
        if len(self.by_policy) > 1 or self.duplicate:
            rows += [(f"policy {name}", dict(policy=name)) for name in sorted(self.by_policy)]
        for label, kw in rows:
            mp = self.mean_points(**kw)
            lines.append(f"{label:<14}{fmt(self.win_rate(**kw)):>26}{fmt(self.self_draw_share(**kw)):>26}"
                         f"{fmt(self.jokerless_share(**kw)):>26}{fmt(self.dead_hand_rate(**kw)):>26}"
                         f"{mp.mean:>12.2f} ± {Z95 * mp.se:<7.2f}")
        mt = self.mean_turns()
        lines.append(f"wall games {fmt(self.wall_game_rate())}   mean turns per hand {mt.mean:.2f} ± {Z95 * mt.se:.2f}")
        b, a = self.mean_distance("before"), self.mean_distance("after")
        lines.append(f"distance to Mahjong: before the Charleston {b.mean:.3f} ± {Z95 * b.se:.3f}, "
                     f"after {a.mean:.3f} ± {Z95 * a.se:.3f}; second Charleston in "
                     f"{self.second_charleston_rate().p:.3f} of hands, courtesy tiles per hand "
                     f"{self.courtesy_tiles / max(self.hands, 1):.3f}")
        for when in ("before", "after"):
            h = self.distance_before if when == "before" else self.distance_after
            tot = h.sum(axis=0)
            lines.append(f"distance {when:<6}: " + " ".join(f"{d}:{tot[d] / max(tot.sum(), 1):.3f}"
                                                             for d in range(N_DIST) if tot[d]))
        c = self.claims.sum(axis=0)
        lines.append(f"per hand: calls {c[0] / max(self.hands, 1):.3f}, joker exchanges {c[1] / max(self.hands, 1):.3f}")
        return "\n".join(lines)


class _AmAccumulator:
    """Running counters over chunks of per-game engine rows (bounded memory)."""

    KEYS = ("hands", "games", "wins", "self_draw_wins", "deal_ins", "points", "points_sq", "jokerless_wins", "dead_hands")

    def __init__(self):
        self.games = 0
        self.hands = 0
        self.c = {k: np.zeros(4, np.int64) for k in ("wins", "self", "deal", "jl", "dead", "points")}
        self.c["points_sq"] = np.zeros(4, object)    # Python ints: exact however many games
        self.claims = np.zeros((4, 2), np.int64)
        self.hist = [dict() for _ in range(4)]
        self.draws = 0
        self.turns = 0
        self.turns_sq = 0            # exact integer: merged pieces give the same total in any order
        self.second = 0
        self.courtesy = 0
        self.dist_b = np.zeros((4, N_DIST), np.int64)
        self.dist_a = np.zeros((4, N_DIST), np.int64)
        self.by_policy: dict = {}

    def add(self, out: np.ndarray, names: np.ndarray) -> None:
        o = out.astype(np.int64)
        sc, hands, calls, exch = _OUT["score"], _OUT["hands"], _OUT["calls"], _OUT["exchanges"]
        db, da = _OUT["distance_before"], _OUT["distance_after"]
        self.games += len(o)
        self.hands += int(o[:, hands].sum())
        for key, col in (("points", "score"), ("wins", "wins"), ("self", "self_drawn"), ("deal", "deal_ins"),
                         ("jl", "jokerless"), ("dead", "dead")):
            self.c[key] += o[:, _OUT[col]:_OUT[col] + 4].sum(axis=0)
        self.c["points_sq"] += np.array(exact_square_sums(o[:, sc:sc + 4]), object)
        self.claims[:, 0] += o[:, calls:calls + 4].sum(axis=0)
        self.claims[:, 1] += o[:, exch:exch + 4].sum(axis=0)
        for s in range(4):
            vals, counts = np.unique(o[:, sc + s], return_counts=True)
            for v, c in zip(vals.tolist(), counts.tolist()):
                self.hist[s][v] = self.hist[s].get(v, 0) + c
        self.draws += int(o[:, _OUT["draws"]].sum())
        self.turns += int(o[:, _OUT["turns"]].sum())
        self.turns_sq += int((o[:, _OUT["turns"]] ** 2).sum())
        self.second += int(o[:, _OUT["second_charleston"]].sum())
        self.courtesy += int(o[:, _OUT["courtesy_tiles"]].sum())
        self.dist_b += o[:, db:db + 4 * N_DIST].reshape(-1, 4, N_DIST).sum(axis=0)
        self.dist_a += o[:, da:da + 4 * N_DIST].reshape(-1, 4, N_DIST).sum(axis=0)
        for name in np.unique(names):
            mask = names == name
            c = self.by_policy.setdefault(str(name), {k: 0 for k in self.KEYS} | {"claims": np.zeros(2, np.int64)})
            c["games"] += int(mask.sum())
            c["hands"] += int((mask * o[:, hands:hands + 1]).sum())
            for key, col in (("wins", "wins"), ("self_draw_wins", "self_drawn"), ("deal_ins", "deal_ins"),
                             ("jokerless_wins", "jokerless"), ("dead_hands", "dead"), ("points", "score")):
                c[key] += int((o[:, _OUT[col]:_OUT[col] + 4] * mask).sum())
            c["points_sq"] += exact_square_sums(o[:, sc:sc + 4], mask)[0]
            c["claims"] = c["claims"] + np.array([int((o[:, calls:calls + 4] * mask).sum()),
                                                  int((o[:, exch:exch + 4] * mask).sum())])

    def merge(self, other: "_AmAccumulator") -> "_AmAccumulator":
        """Add the counters of ``other`` (a disjoint piece of the run) into self; exact."""
        self.games += other.games
        self.hands += other.hands
        for k in self.c:
            self.c[k] = self.c[k] + other.c[k]
        self.claims = self.claims + other.claims
        for mine, theirs in zip(self.hist, other.hist):
            for v, n in theirs.items():
                mine[v] = mine.get(v, 0) + n
        self.draws += other.draws
        self.turns += other.turns
        self.turns_sq += other.turns_sq
        self.second += other.second
        self.courtesy += other.courtesy
        self.dist_b = self.dist_b + other.dist_b
        self.dist_a = self.dist_a + other.dist_a
        for name, theirs in other.by_policy.items():
            mine = self.by_policy.setdefault(name, {k: 0 for k in self.KEYS} | {"claims": np.zeros(2, np.int64)})
            for k, v in theirs.items():
                mine[k] = mine[k] + v
        return self

    def result(self, rules, policies, duplicate, seed) -> AmericanSimResult:
        c = self.c
        return AmericanSimResult(rules, self.games, self.hands, tuple(policies), duplicate, (seed,), c["wins"],
                                 c["self"], c["deal"], self.claims, c["points"], c["points_sq"], self.hist,
                                 self.draws, self.turns, self.turns_sq, self.by_policy,
                                 jokerless_wins=c["jl"], dead_hands=c["dead"], distance_before=self.dist_b,
                                 distance_after=self.dist_a, second_charlestons=self.second,
                                 courtesy_tiles=self.courtesy)


# ---------------------------------------------------------------------------------------------
# running games

def _play(rules: AmericanRules, pols: list, gi: np.ndarray, key, threads: int) -> np.ndarray:
    """Engine rows of games gi with the policies in seat order (Python policies on one thread)."""
    out = np.zeros((len(gi), _amgame.OUT_WIDTH), np.int32)
    codes = np.ascontiguousarray(np.tile(_codes(pols), (len(gi), 1)), dtype=np.intc)
    gi = np.ascontiguousarray(gi, dtype=np.uint64)
    if any(not isinstance(p, str) for p in pols):
        ctx = _AmContext(pols, rules)
        if _engine.run_games(_table(rules.kernel(), ctx), gi, key.k0, key.k1, codes, out, ctx) >= 0:
            raise ctx.error
    else:
        _amgame.simulate_batch(rules.kernel(), gi, key.k0, key.k1, codes, out, threads)
    return out


def _simulate_chunk(rules: AmericanRules, pols: list, k0: int, k1: int, start: int, count: int, duplicate: bool,
                    threads: int = 1) -> _AmAccumulator:
    """Exact counters of play units ``start .. start+count-1`` of the run keyed (k0, k1): game
    g = u (``duplicate=False``) or game u // 4 with the policies rotated by u % 4. A pure
    function of its arguments whatever ``threads`` is; the local loop and every Dask task
    call it, and disjoint pieces merge exactly (:meth:`_AmAccumulator.merge`)."""
    units = np.arange(start, start + count, dtype=np.uint64)
    if duplicate:
        gi, rot = units // np.uint64(4), (units % np.uint64(4)).astype(np.int64)
    else:
        gi, rot = units, np.zeros(count, dtype=np.int64)
    key = _Key(k0, k1)
    names = np.array([_policy_name(p) for p in pols], dtype=object)
    out = np.zeros((len(gi), _amgame.OUT_WIDTH), np.int32)
    seat_pol = (np.arange(4)[None, :] - rot[:, None]) % 4
    for r in np.unique(rot):
        sel = np.flatnonzero(rot == r)
        out[sel] = _play(rules, [pols[(s - r) % 4] for s in range(4)], gi[sel], key, threads)
    acc = _AmAccumulator()
    acc.add(out, names[seat_pol])
    return acc


@dataclasses.dataclass(frozen=True)
class _Key:
    k0: int
    k1: int


def simulate(games: int, *, rules: AmericanRules, policies="greedy", seed=None, threads: int | None = None,
             duplicate: bool = False, progress: bool = True, chunk_size: int = 4096, backend: str = "local",
             client=None) -> AmericanSimResult:
    """American games (called by :func:`mjfast.simulate` with ``rules="american"``).

    Examples
    --------
    >>> import mjfast
    >>> res = mjfast.simulate(100, rules="american", seed=1, progress=False)
    >>> res.hands, int(res.points.sum()) == 100 * 4 * 650
    (400, True)
    >>> e = res.jokerless_share(seat=0)
    >>> 0 <= e.low <= e.p <= e.high <= 1
    True
    """
    games = _check_count(games, "games")
    chunk_size = _check_count(chunk_size, "chunk_size") or 1
    pols = _resolve(policies)
    if not isinstance(duplicate, (bool, np.bool_)):
        raise TypeError("duplicate must be True or False")
    backend = _dask.check_backend(backend, client)
    key = root_key(seed)
    duplicate = bool(duplicate)
    units = 4 * games if duplicate else games
    bar = Progress(units, label="simulate american", enabled=bool(progress))
    if backend == "dask":
        threads = 1 if threads is None else resolve_threads(threads)
        pieces = (((rules, pols, key.k0, key.k1, lo, min(chunk_size, units - lo), duplicate, threads),
                   min(chunk_size, units - lo)) for lo in range(0, units, chunk_size))
        return _dask.run_chunks(client, _simulate_chunk, pieces, "mjfast-simulate-american", bar,
                                lambda acc, done: acc.result(rules, pols, duplicate, key.seed_value()),
                                _AmAccumulator(), _AmAccumulator.merge)
    threads = resolve_threads(threads)
    acc = _AmAccumulator()
    try:
        for lo in range(0, units, chunk_size):
            acc.merge(_simulate_chunk(rules, pols, key.k0, key.k1, lo, min(chunk_size, units - lo), duplicate,
                                      threads))
            bar.update(acc.games)
    except KeyboardInterrupt as exc:
        bar.close()
        exc.partial = acc.result(rules, pols, bool(duplicate), key.seed_value())
        raise
    bar.close()
    return acc.result(rules, pols, bool(duplicate), key.seed_value())


def compare(policy_a, policy_b, games: int, *, rules: AmericanRules, seed=None, threads: int | None = None,
            progress: bool = True) -> Comparison:
    """:func:`mjfast.compare` for American rules: A in each seat against three B's, and four B's,
    on the same walls; paired differences of points and share of hands won.

    Examples
    --------
    >>> import mjfast
    >>> c = mjfast.compare("greedy", "random", 40, rules="american", seed=3, progress=False)
    >>> c.points_diff.mean > 0 and c.win_rate_diff.low > 0
    True
    """
    games = _check_count(games, "games")
    a, b = _resolve([policy_a] * 4)[0], _resolve([policy_b] * 4)[0]
    key = root_key(seed)
    threads = resolve_threads(threads)
    bar = Progress(5 * games, label="compare american", enabled=bool(progress))
    base = [b, b, b, b]
    acc_b, acc_a = _AmAccumulator(), _AmAccumulator()
    diffs = np.zeros(games)
    wdiffs = np.zeros(games)
    try:
        # pieces of at most _CHUNK wall sets: bounded engine output (640 bytes per game and table);
        # game g is a pure function of (seed, g), so the pieces do not change the result
        for lo in range(0, games, _CHUNK):
            m = min(_CHUNK, games - lo)
            gi = np.arange(lo, lo + m, dtype=np.uint64)
            out_b = _play(rules, base, gi, key, threads)
            acc_b.add(out_b, np.array([[_policy_name(b)] * 4] * m, dtype=object))
            for seat in range(4):
                pols = [a if s == seat else b for s in range(4)]
                out_a = _play(rules, pols, gi, key, threads)
                acc_a.add(out_a, np.array([[_policy_name(p) for p in pols]] * m, dtype=object))
                sc, wi = _OUT["score"] + seat, _OUT["wins"] + seat
                diffs[lo : lo + m] += (out_a[:, sc].astype(np.float64) - out_b[:, sc]) / 4
                wdiffs[lo : lo + m] += (out_a[:, wi].astype(np.float64) - out_b[:, wi]) / out_a[:, _OUT["hands"]] / 4
            bar.update(5 * (lo + m))
    finally:
        bar.close()
    return Comparison(_policy_name(a), _policy_name(b), games, _paired(diffs), _paired(wdiffs),
                      acc_a.result(rules, [a, b, b, b], True, key.seed_value()),
                      acc_b.result(rules, base, False, key.seed_value()))


# ---------------------------------------------------------------------------------------------
# effect of each optional pass (common random numbers)

@dataclasses.dataclass(frozen=True)
class PassEffect:
    """Paired effect of one optional pass: the same games played with it (``on``) and without.

    Every difference is ``on - off`` per game on identical walls and policy streams, then the
    mean and standard error over games (:class:`~mjfast.sim.Mean`).
    """

    option: str
    games: int
    distance_after: Mean       # mean distance to Mahjong after the Charleston (all players)
    win_rate: Mean             # share of hands won (by anyone)
    wall_game_rate: Mean       # share of hands ending with an empty wall
    mean_turns: Mean           # turns per hand
    points: tuple              # per player: final points
    on: AmericanSimResult
    off: AmericanSimResult

    def to_dict(self) -> dict:
        return {"option": self.option, "games": self.games, "distance_after": self.distance_after.to_dict(),
                "win_rate": self.win_rate.to_dict(), "wall_game_rate": self.wall_game_rate.to_dict(),
                "mean_turns": self.mean_turns.to_dict(), "points": [m.to_dict() for m in self.points]}


_CHUNK = 4096   # games per engine call in compare() and charleston_effect()


def _paired(x: np.ndarray) -> Mean:
    n = len(x)
    if n == 0:
        return Mean(math.nan, math.nan, 0)
    return Mean(float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan, n)


def _game_stats(out: np.ndarray) -> dict:
    o = out.astype(np.float64)
    hands = o[:, _OUT["hands"]]
    d = np.arange(N_DIST)
    da, wi, sc = _OUT["distance_after"], _OUT["wins"], _OUT["score"]
    after = o[:, da:da + 4 * N_DIST].reshape(-1, 4, N_DIST)
    return {"distance_after": (after * d).sum(axis=(1, 2)) / after.sum(axis=(1, 2)),
            "win_rate": o[:, wi:wi + 4].sum(axis=1) / hands, "wall_game_rate": o[:, _OUT["draws"]] / hands,
            "mean_turns": o[:, _OUT["turns"]] / hands, "points": o[:, sc:sc + 4]}


def charleston_effect(games: int, *, options: Sequence[str] = OPTIONAL_PASSES, policies="greedy", seed=None,
                      threads: int | None = None, progress: bool = True, **rule_options) -> dict:
    """Effect of each optional pass of the Charleston, with common random numbers.

    For each option in ``options`` ("second_charleston", "courtesy", "blind_pass"; a list, or
    one name) the same
    ``games`` (same walls, same policy random streams, same seats) are played with that pass
    on (``second_charleston=True``: always danced) and off, the other options as in
    ``rule_options``. Per-game differences are paired, so most of the luck of the deal cancels.

    Returns
    -------
    dict of option name -> PassEffect

    Examples
    --------
    >>> import mjfast
    >>> eff = mjfast.charleston_effect(300, seed=2, progress=False)
    >>> sorted(eff)
    ['blind_pass', 'courtesy', 'second_charleston']
    >>> d = eff["second_charleston"].distance_after
    >>> d.mean < 0 and d.high < 0       # a second Charleston brings hands closer to Mahjong
    True
    """
    games = _check_count(games, "games")
    base = american_rules(**rule_options)
    pols = _resolve(policies)
    if isinstance(options, str):
        options = (options,)
    if not isinstance(options, (list, tuple)):
        raise TypeError(f"options must be a list of optional pass names, not {type(options).__name__}")
    opts = list(options)
    for o in opts:
        if not isinstance(o, str) or o not in OPTIONAL_PASSES:
            raise ValueError(f"unknown optional pass {o!r}; choose from {OPTIONAL_PASSES}")
    key = root_key(seed)
    threads = resolve_threads(threads)
    bar = Progress(2 * len(opts) * games, label="charleston effect", enabled=bool(progress))
    result = {}
    done = 0
    stat_names = ("distance_after", "win_rate", "wall_game_rate", "mean_turns")
    try:
        for o in opts:
            rules_of = {flag: american_rules(base, **{o: flag}) for flag in (True, False)}
            accs = {True: _AmAccumulator(), False: _AmAccumulator()}
            diff = {name: np.zeros(games) for name in stat_names}
            diff["points"] = np.zeros((games, 4))
            # pieces of at most _CHUNK games: bounded engine output; game g is a pure function
            # of (seed, g), so the pieces do not change the result
            for lo in range(0, games, _CHUNK):
                m = min(_CHUNK, games - lo)
                gi = np.arange(lo, lo + m, dtype=np.uint64)
                names = np.array([[_policy_name(p) for p in pols]] * m, dtype=object)
                stats = {}
                for flag in (True, False):
                    out = _play(rules_of[flag], pols, gi, key, threads)
                    accs[flag].add(out, names)
                    stats[flag] = _game_stats(out)
                    done += m
                    bar.update(done)
                for name in diff:
                    diff[name][lo : lo + m] = stats[True][name] - stats[False][name]
            runs = {flag: accs[flag].result(rules_of[flag], pols, False, key.seed_value()) for flag in (True, False)}
            result[o] = PassEffect(o, games, *(_paired(diff[name]) for name in stat_names),
                                   tuple(_paired(diff["points"][:, s]) for s in range(4)), runs[True], runs[False])
    finally:
        bar.close()
    return result


# ---------------------------------------------------------------------------------------------
# event logs

_EVENTS = _engine.EVENTS
_PER_PLAYER = ("score", "wins", "self_drawn", "deal_ins", "jokerless", "dead", "calls", "exchanges")


def _named_out(out: np.ndarray) -> dict:
    """A game's engine counters by name: per player (lists of 4), per hand kind, and the
    distance histograms (4 x 15) before and after the Charleston."""
    o = [int(x) for x in out]
    d = {k: o[_OUT[k]:_OUT[k] + 4] for k in _PER_PLAYER}
    d.update({k: o[_OUT[k]] for k in ("hands", "turns", "draws", "second_charleston", "courtesy_tiles")})
    for k in ("distance_before", "distance_after"):
        d[k] = [o[_OUT[k] + N_DIST * s:_OUT[k] + N_DIST * (s + 1)] for s in range(4)]
    return d


def _table(kern: dict, ctx, capacity: int = 0):
    """An engine table for Python policies (their default hooks left to the engine)."""
    table = _amgame.AmericanTable(kern, capacity)
    if ctx is not None:
        table.set_quiet(ctx.quiet_own_turn)
    return table


def _play_logged(kern: dict, gi: int, k0: int, k1: int, codes: np.ndarray, ctx, walls=None):
    """Play one game with its event log (scripted walls or the game's shuffles): (events,
    walls, out); raises the policy error that stopped it."""
    table = _table(kern, ctx, 65536)
    table.start(gi, k0, k1, codes, walls)
    walls, _ = table.hand_walls()
    if ctx is None:
        table.advance()
    elif table.run(ctx) != _engine.ADVANCE["done"]:
        raise ctx.error
    return table.events(), walls, table.out


def _decode(ev: np.ndarray) -> list:
    out = []
    for typ, hand, seat, a, b in ev.tolist():
        name = _EVENTS[typ]
        e = {"hand": hand, "type": name, "seat": seat}
        if name == "hand":
            e.update(dealer=seat)
        elif name in ("deal", "draw"):
            e.update(tile=_tile_of_id(a), id=a)
        elif name in ("pass", "receive", "blind_pass"):
            e.update(tile=am_tile_name(a), pass_number=b, direction=PASS_NAMES[b])
        elif name == "second_charleston":
            e.update(danced=bool(a))
        elif name == "discard":
            e.update(tile=am_tile_name(a))
        elif name == "call":
            e.update(tile=am_tile_name(a), jokers=b)
        elif name == "joker_exchange":
            e.update(tile=am_tile_name(a), owner=b)
        elif name == "win":
            e.update(self_drawn=bool(a), discarder=None if b < 0 else b)
        elif name == "score":
            e.update(delta=a, total=b)
        elif name == "courtesy_offer":
            e.update(tiles=a)
        out.append(e)
    return out


def _header(r, pols, walls, out, seed, gi):
    return {"version": LOG_VERSION, "seed": seed, "game_index": gi, "rules": r.name, "options": r.to_dict(),
            "policies": [_policy_name(p) for p in pols], "walls": [[_tile_of_id(int(i)) for i in w] for w in walls],
            "wall_ids": np.asarray(walls).tolist(), "scores": out[_OUT["score"]:_OUT["score"] + 4].tolist()}


def replay(seed, game_index: int, *, rules: AmericanRules, policies="greedy") -> GameLog:
    """Event log of game ``game_index`` of an American run (called by :func:`mjfast.replay`).

    Examples
    --------
    >>> import mjfast
    >>> log = mjfast.replay(1, 0, rules="american")
    >>> sum(e["delta"] for e in log.events if e["type"] == "score")
    0
    """
    pols = _resolve(policies)
    gi = _check_count(game_index, "game_index")
    key = root_key(seed)
    ctx = _AmContext(pols, rules) if any(not isinstance(p, str) for p in pols) else None
    ev, walls, out = _play_logged(rules.kernel(), gi, key.k0, key.k1, _codes(pols), ctx)
    sv = key.seed_value()
    return GameLog(_header(rules, pols, walls, out, seed_to_json(sv), gi),
                   _decode(ev))


def play_walls(walls, *, rules: AmericanRules, policies="greedy", seed=0) -> GameLog:
    """One American game on scripted walls (called by :func:`mjfast.sim.play_walls`).

    ``walls`` has shape (hands, 144 + jokers): physical ids in draw order (the deal takes the
    dealer's 14, then 13 per seat in turn order, then the draws). ``seed`` keys the built-in
    policies' random stream (random policy only).

    Examples
    --------
    >>> import numpy as np, mjfast
    >>> log = mjfast.sim.play_walls([np.arange(152)], rules="american")
    >>> log.events[1]
    {'hand': 0, 'type': 'deal', 'seat': 0, 'tile': '1m', 'id': 0}
    """
    w = _check_walls(walls, rules)
    pols = _resolve(policies)
    return _play_scripted(rules, w, pols, seed, None, {})


def _play_scripted(rules: AmericanRules, w: np.ndarray, pols: list, seed, gi, header: dict) -> GameLog:
    """Play game ``gi`` (None: a play_walls game, played as game 0) on the checked walls ``w``,
    the built-in policies' random stream keyed by ``seed`` (None: play_walls' default, 0). A
    non-empty ``header`` (a re-run) is kept with the new scores; else play_walls' header."""
    kern = rules.kernel()
    kern["hands_per_game"] = w.shape[0]
    key = root_key(seed if seed is not None else 0)
    ctx = _AmContext(pols, rules) if any(not isinstance(p, str) for p in pols) else None
    ev, used, out = _play_logged(kern, gi or 0, key.k0, key.k1, _codes(pols), ctx, w)
    if header:
        header = dict(header, scores=out[_OUT["score"]:_OUT["score"] + 4].tolist())
        if "out" in header:
            header["out"] = _named_out(out)
    else:
        header = _header(rules, pols, used, out, None, None)
        header["out"] = _named_out(out)
    return GameLog(header, _decode(ev))
