"""The American family's adapter (seed 002, the beginner hand): its engine, built-in
policies, the bridge to Python policies, its output columns and its events.

Entry points: ``mjfast.simulate(..., rules="american")``, :func:`mjfast.charleston_effect`,
``mjfast.replay``/``mjfast.play_walls`` with ``rules="american"``.

The rules as played (docs/rules.md "American" and seed 002; choices where the seed is silent are
marked *choice*):

- Tiles: 144 + ``jokers`` (default 8). The 8 flowers are one kind ("f") of 8 identical tiles.
  Kinds are numbered 0-33 (standard), 34 (flower), 35 (joker).
- Jokers fill places in sets of four, never the pair. ``all_joker_sets=True`` (the default, the
  common NMJL reading): a concealed set of four may be all jokers; ``False``: each set keeps at
  least one natural tile. An exposed set always holds the natural tile it was called with.
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

import numbers

import numpy as np

from .. import tiles
from .._kernels import american_env as _env_kernel
from .._kernels import american_game as _kernel
from .._kernels import engine as _engine
from ..rules import EngineParts
from . import log_answers
from .accumulate import Counters, ExtensionColumns
from .extensions import AmericanStats, LineStats
from .policy import AmericanPolicy, AmericanView, Policy
from .policy import Bridge as BridgeBase
from .results import AMERICAN_CLAIMS, N_DIST

BUILTIN = {k: _engine.POLICY_CODES[k] for k in ("random", "greedy")}
OUT = dict(_engine.OUT_COMMON, **_kernel.OUT_COLUMNS)
PASS_NAMES = ("right", "across", "left", "left", "across", "right", "courtesy")
_ASK = _engine.ASK
_NAMES = tuple(tiles.american_kind_name(k) for k in range(36))
_PER_PLAYER = ("score", "wins", "self_drawn", "deal_ins", "jokerless", "dead", "calls", "exchanges")


def _claims(o: np.ndarray) -> np.ndarray:
    calls, exch = OUT["calls"], OUT["exchanges"]
    return np.stack([o[:, calls:calls + 4], o[:, exch:exch + 4]], axis=2)


#: the counters of the rows, and the statistics they build: the American ones, and per line of
#: the card in card play (the columns after a row's OUT_WIDTH)
COUNTERS = Counters(OUT, _claims, AMERICAN_CLAIMS, extensions=(
    ExtensionColumns("american", AmericanStats.from_sums, sums={
        "jokerless_wins": (OUT["jokerless"], (4,)), "dead_hands": (OUT["dead"], (4,)),
        "distance_before": (OUT["distance_before"], (4, N_DIST)), "distance_after": (OUT["distance_after"], (4, N_DIST)),
        "second_charlestons": (OUT["second_charleston"], ()), "courtesy_tiles": (OUT["courtesy_tiles"], ())},
        per_policy=("jokerless_wins", "dead_hands")),
    ExtensionColumns("lines", LineStats.from_sums, tail=_kernel.OUT_WIDTH),
))


def named_out(out: np.ndarray) -> dict:
    """A game's engine counters by name: per player (lists of 4), per hand kind, and the
    distance histograms (4 x 15) before and after the Charleston."""
    o = [int(x) for x in out]
    d: dict[str, int | list[int] | list[list[int]]] = {k: o[OUT[k]:OUT[k] + 4] for k in _PER_PLAYER}
    d.update({k: o[OUT[k]] for k in ("hands", "turns", "draws", "second_charleston", "courtesy_tiles")})
    for k in ("distance_before", "distance_after"):
        d[k] = [o[OUT[k] + N_DIST * s:OUT[k] + N_DIST * (s + 1)] for s in range(4)]
    return d


class Bridge(BridgeBase):
    """The American family's questions to Python policies, their answers checked; hooks a
    policy leaves at their defaults are not asked (``quiet``: the engine's built-in choice)."""

    def __init__(self, policies: list, rules):
        super().__init__(policies)
        self.rules = rules
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
                            v["dead"], v["wall_left"], drawn, v["scores"], v["hands_per_game"], v["jokers"],
                            v["all_joker_sets"])

    def _tiles(self, seat, view, choice, n, blind_ok, what):
        try:
            ks = [tiles.american_kind_index(t) for t in choice]
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
        if what == _ASK["discard"]:
            choice = pol.discard(view)
            try:
                k = tiles.american_kind_index(choice)
            except (TypeError, ValueError):
                k = -1
            if not 0 <= k < 36 or view.hand[k] == 0:
                self._raise(seat, view, choice, "a tile in hand: " + _hand_text(view.hand))
            return k
        if what == _ASK["claim"]:
            labels = ["win" if options[0] == 1 else None, "quad" if options[1] == 2 else None]
            choice = pol.claim(view, tiles.american_kind_name(tile), [x for x in labels if x])
            if choice is None:
                return -1
            if choice == "win" and "win" not in labels:
                return -2                                   # false Mahjong: dead hand
            if choice not in labels:
                self._raise(seat, view, choice, [x for x in labels if x] + [None])
            return labels.index(choice)
        if what == _ASK["own_turn"]:
            labels = ["win" if options[0] == 1000 else None]
            labels += [f"exchange:{tiles.american_kind_name(c >> 2)}:{c & 3}" for c in options[1:]]
            choice = pol.own_turn(view, [x for x in labels if x])
            if choice is None:
                return -1
            if choice == "win" and labels[0] is None:
                return -2
            if choice not in labels:
                self._raise(seat, view, choice, [x for x in labels if x] + [None])
            return labels.index(choice)
        if what in (_ASK["pass"], _ASK["courtesy"]):
            n = options[0]
            if what == _ASK["pass"]:
                f = getattr(pol, "charleston", None)
                blind_ok = self.rules.blind_pass and tile in (2, 5)
                choice = f(view, PASS_NAMES[tile], blind_ok) if f else None
                return -1 if choice is None else self._tiles(seat, view, choice, n, blind_ok, "pass")
            f = getattr(pol, "courtesy", None)
            choice = f(view, n) if f else None
            return -1 if choice is None else self._tiles(seat, view, choice, n, False, "give in the courtesy pass")
        if what == _ASK["second_charleston"]:
            f = getattr(pol, "second_charleston", None)
            choice = f(view) if f else None
            return -1 if choice is None else int(bool(choice))
        f = getattr(pol, "courtesy_offer", None)
        choice = f(view) if f else None
        if choice is None:
            return -1
        if isinstance(choice, bool) or not isinstance(choice, numbers.Integral) or not 0 <= int(choice) <= 3:
            self._raise(seat, view, choice, "a courtesy offer of 0-3 tiles")
        return int(choice)

    def _kind_name(self, kind: int):
        return tiles.american_kind_name(kind) if 0 <= kind < 36 else kind


def _hand_text(counts: np.ndarray) -> str:
    """36 American counts as text: the standard tiles, then ``f`` per flower, ``j`` per joker."""
    return tiles.format_hand(counts[:34]) + "f" * int(counts[34]) + "j" * int(counts[35])


def table(kern: dict, bridge, capacity: int = 0):
    """An engine table for these kernel rules (its event log of `capacity` events); a Python
    policy's default hooks are left to the engine."""
    t = _kernel.AmericanTable(kern, capacity)
    if bridge is not None:
        t.set_quiet(bridge.quiet_own_turn)
    return t


def event_fields(name: str, seat: int, a: int, b: int) -> dict:
    """The fields of one event of the family's log."""
    if name == "hand":
        return {"dealer": seat}
    if name in ("deal", "draw"):
        return {"tile": tiles.physical_tile_name(a), "id": a}
    if name in ("pass", "receive", "blind_pass"):
        return {"tile": tiles.american_kind_name(a), "pass_number": b, "direction": PASS_NAMES[b]}
    if name == "second_charleston":
        return {"danced": bool(a)}
    if name == "discard":
        return {"tile": tiles.american_kind_name(a)}
    if name == "call":
        if b >= 256:                     # card play: the exposure's size is logged too
            return {"tile": tiles.american_kind_name(a), "jokers": b & 255, "size": b >> 8}
        return {"tile": tiles.american_kind_name(a), "jokers": b}
    if name == "dead" and a == 2:
        return {"reason": "no line of the card can be completed"}
    if name == "joker_exchange":
        return {"tile": tiles.american_kind_name(a), "owner": b}
    if name == "win":
        return {"self_drawn": bool(a), "discarder": None if b < 0 else b}
    if name == "score":
        return {"delta": a, "total": b}
    if name == "courtesy_offer":
        return {"tiles": a}
    return {}


def log_defaults(version: int, base, options: dict) -> dict:
    """Options of a logged game that its header does not say: none (every American log's
    header says them all)."""
    return {}


#: the American family's engine parts (its record: mjfast.rules.family("american"))
ENGINE = EngineParts(
    engine=_kernel.AmericanTable, table=table, play_batch=_kernel.simulate_batch, out_width=_kernel.out_width,
    vec=_env_kernel.AmericanVec, builtin=BUILTIN, out=OUT, counters=COUNTERS, bridge=Bridge,
    event_fields=event_fields, named_out=named_out, log_defaults=log_defaults, log_reader=log_answers.american)
