"""Full-hand game simulation: rule presets, policies, statistics, duplicate play, replay.

A *game* is one hand dealt by each seat (``rounds=1``; ``rounds=k`` plays 4k hands); the deal
passes after every hand, won or drawn. Players keep their seat index 0..3 (player 0 deals
first); statistics "per seat" are per player index, "per policy" pool the players that use a
policy. Game ``g`` is a pure function of (seed, g) and of the policies: hand ``h`` shuffles
its wall with its own random stream, and built-in policies draw from a second stream of the
game, so results are identical whatever the thread count or chunking.

Rule presets (each a set of documented options a user can change):

``"classical"`` (seed 000)
    136 tiles (``flowers=True``: 144, bonus tiles set aside and replaced from the back end);
    standard hands only (``special_forms=("seven_pairs", "thirteen_orphans")`` adds them);
    dead wall = the stacks counted by the dice (``dead_wall="dice"``, or a tile count), used up
    by replacements before the live wall shortens (``refill_dead_wall``, see :func:`game_rules`);
    20 points for going out, each loser pays 20 (``payment="discarder"``: the discarder pays
    all three shares of a discard win).
``"basic"`` (seed 001)
    136 tiles, standard hands, no dead wall, and the "Stop" rule: a player must declare a ready
    hand to win and may not change it afterwards (``ready_declaration=False`` turns it off).
``"mcr"`` (Chinese Official, its wall and replacement order; fan scoring not modelled)
    144 tiles with bonus replacement; winning forms: standard, seven pairs (a kong counts as
    two pairs), thirteen orphans, honors-and-knitted, knitted straight (closed, or with one
    called set); basic 20-point scoring.
"""
from __future__ import annotations

import dataclasses
import json
import math
import numbers
from typing import Any, Sequence

import numpy as np

from . import _core, tiles
from ._kernels import chinese_game as _game
from ._kernels import engine as _engine
from ._runtime.threads import resolve_threads
from ._runtime import dask as _dask
from ._runtime.progress import Progress, timed_chunks
from ._runtime.seeding import root_key, seed_to_json
from .hands import form_bits
from .stats import Estimate, Z95, exact_square_sums

GAME_RULES = ("classical", "basic", "mcr", "american")
BUILTIN_POLICIES = {k: v for k, v in _engine.POLICY_CODES.items() if k != "external"}
CLAIM_KINDS = ("chow", "pung", "kong", "concealed_kong", "added_kong")
MAX_BASE_POINTS = 10**6    # every scoring option is bounded so 32-bit game scores cannot overflow
# Event-log header version. 2: the options hold refill_dead_wall and added_kong (mjfast 0.2);
# a version-1 header lacks them and was played under these readings:
LOG_VERSION = 2
_V1_OPTIONS = {"refill_dead_wall": True, "added_kong": "any"}
_PY = _engine.POLICY_CODES["external"]
_OUT = dict(_engine.OUT_COMMON, **_game.OUT_COLUMNS)   # per-game output columns of the engine


class IllegalActionError(ValueError):
    """A policy chose an action the rules do not allow (names the seat, turn and action)."""


# ---------------------------------------------------------------------------------------------
# rules

@dataclasses.dataclass(frozen=True)
class GameRules:
    """A rule preset with its options resolved (see the module docstring)."""

    name: str
    flowers: bool
    special_forms: tuple
    dead_wall: Any
    ready_declaration: bool
    base_points: int
    payment: str
    rounds: int
    chow: bool
    kong: bool
    refill_dead_wall: bool = False
    added_kong: str = "any"

    @property
    def n_tiles(self) -> int:
        return 144 if self.flowers else 136

    @property
    def hands_per_game(self) -> int:
        return 4 * self.rounds

    def kernel(self) -> dict:
        if self.name == "mcr":
            forms = form_bits("all", "mcr")
        else:
            forms = form_bits("standard")
            for f in self.special_forms:
                forms |= form_bits(f)
        return {
            "n_tiles": self.n_tiles, "replace_bonus": int(self.flowers), "forms": forms,
            "dead_wall": -1 if self.dead_wall == "dice" else int(self.dead_wall),
            "ready_rule": int(self.ready_declaration), "base_points": self.base_points,
            "payment": 0 if self.payment == "each" else 1, "hands_per_game": self.hands_per_game,
            "allow_chow": int(self.chow), "allow_kong": int(self.kong),
            "refill_dead_wall": int(self.refill_dead_wall), "added_kong_drawn": int(self.added_kong == "drawn"),
        }

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["special_forms"] = list(self.special_forms)
        d["tiles"] = self.n_tiles
        return d


_PRESETS = {
    "classical": dict(flowers=False, special_forms=(), dead_wall="dice", ready_declaration=False),
    "basic": dict(flowers=False, special_forms=(), dead_wall=0, ready_declaration=True),
    "mcr": dict(flowers=True, special_forms=("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"),
                dead_wall=0, ready_declaration=False),
}


def game_rules(rules: str | GameRules = "classical", **options) -> GameRules:
    """Resolve a rule preset and option overrides into a :class:`GameRules`.

    Options: ``flowers`` (bool), ``special_forms`` (tuple of form names that also win;
    classical/basic only), ``dead_wall`` ("dice" or a tile count 0-40), ``ready_declaration``
    (bool), ``base_points`` (int 1 to 10**6), ``payment`` ("each" or "discarder"), ``rounds``
    (1-16 deals per seat), ``chow`` and ``kong`` (allow those claims), ``refill_dead_wall`` and
    ``added_kong`` (two readings of the seeds, see below).
    ``"american"`` returns an :class:`~mjfast.AmericanRules` with its own options:
    ``jokers`` (0-10, default 8), ``second_charleston`` ("policy", True, False),
    ``courtesy`` and ``blind_pass`` (bool), ``base_points`` (50), ``start_points`` (650),
    ``rounds`` (see :mod:`mjfast.amsim`).

    Two readings that the seed texts leave open are options:

    ``refill_dead_wall`` (default False, seed 000's reading)
        The dead wall is the stacks counted off by the dice (``dead_wall``), "reserved as the
        replacement tiles": kong and bonus replacements use it up, and the live wall keeps
        its length until the dead wall is empty; only then do replacements come from the end
        of the live wall. ``True``: the dead wall keeps its size, each replacement taking the
        live wall's last tile into it (as in Japanese riichi), so every replacement shortens
        the live wall by one. The two differ only when ``dead_wall`` is not 0.
    ``added_kong`` (default ``"any"``)
        Which copy may be added to one's exposed pung on one's own turn: ``"any"`` held copy
        (seed 000: "if the tile is from the wall the Kong can be formed using the exposed
        Pung", a tile held since an earlier turn came from the wall too; common practice) or
        only the tile ``"drawn"`` this turn (a strict reading of "adding a drawn tile").

    Examples
    --------
    >>> game_rules("basic").ready_declaration
    True
    >>> game_rules("classical", payment="discarder", rounds=2).hands_per_game
    8
    >>> game_rules("american", jokers=10).n_tiles
    154
    """
    if (isinstance(rules, str) and rules == "american") or _is_american(rules):
        from .amsim import american_rules
        return american_rules(rules if _is_american(rules) else None, **options)
    if isinstance(rules, GameRules):
        base = rules
        if not options:
            return base
        rules = base.name
        merged = dataclasses.asdict(base)
        merged.pop("name")
    else:
        if not isinstance(rules, str):
            raise TypeError(f"rules must be a str, not {type(rules).__name__}")
        if rules not in _PRESETS:
            raise ValueError(f"unknown rules {rules!r}; choose one of {GAME_RULES}")
        merged = dict(_PRESETS[rules], base_points=20, payment="each", rounds=1, chow=True, kong=True,
                      refill_dead_wall=False, added_kong="any")
    for key, value in options.items():
        if value is None:
            continue
        if key not in merged:
            raise ValueError(f"unknown rule option {key!r}; options are {sorted(merged)}")
        merged[key] = value
    if not isinstance(merged["special_forms"], (list, tuple)):
        raise TypeError(f"special_forms must be a tuple of form names, not {type(merged['special_forms']).__name__}")
    for key in ("flowers", "ready_declaration", "chow", "kong", "refill_dead_wall"):
        if not isinstance(merged[key], (bool, np.bool_)):
            raise TypeError(f"{key} must be True or False, not {merged[key]!r}")
    sf = tuple(merged["special_forms"])
    for f in sf:
        if not isinstance(f, str) or f not in ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"):
            raise ValueError(f"unknown special form {f!r}")
    if rules == "mcr" and not merged["flowers"]:
        raise ValueError("rules='mcr' is played with the 144-tile set (flowers=True)")
    if rules == "mcr" and tuple(merged["special_forms"]) != _PRESETS["mcr"]["special_forms"]:
        raise ValueError("rules='mcr' always allows its special forms")
    dw = merged["dead_wall"]
    if not (isinstance(dw, str) and dw == "dice") and (isinstance(dw, bool) or not isinstance(dw, numbers.Integral) or not 0 <= dw <= 40):
        raise ValueError(f"dead_wall must be 'dice' or a tile count 0-40, got {dw!r}")
    bp = merged["base_points"]
    if isinstance(bp, bool) or not isinstance(bp, numbers.Integral) or not 1 <= bp <= MAX_BASE_POINTS:
        # the bound keeps every game's score inside the engine's 32-bit counters (a game is at
        # most 16 rounds x 4 hands, each moving at most 3 * base_points to one player)
        raise ValueError(f"base_points must be an int from 1 to 10**6, got {bp!r}")
    if not isinstance(merged["payment"], str) or merged["payment"] not in ("each", "discarder"):
        raise ValueError(f"payment must be 'each' or 'discarder', got {merged['payment']!r}")
    rd = merged["rounds"]
    if isinstance(rd, bool) or not isinstance(rd, numbers.Integral) or not 1 <= rd <= 16:
        raise ValueError(f"rounds must be an int from 1 to 16, got {rd!r}")
    if not isinstance(merged["added_kong"], str) or merged["added_kong"] not in ("any", "drawn"):
        raise ValueError(f"added_kong must be 'any' or 'drawn', got {merged['added_kong']!r}")
    return GameRules(rules, bool(merged["flowers"]), sf, dw, bool(merged["ready_declaration"]), int(bp),
                     merged["payment"], int(rd), bool(merged["chow"]), bool(merged["kong"]),
                     bool(merged["refill_dead_wall"]), merged["added_kong"])


def _is_american(rules) -> bool:
    return type(rules).__name__ == "AmericanRules"


# ---------------------------------------------------------------------------------------------
# Python policies

@dataclasses.dataclass(frozen=True)
class SeatView:
    """What one seat can see when it decides (all copies; changing them changes nothing).

    Attributes
    ----------
    seat : int
        This player (0-3; player 0 deals the first hand).
    dealer, hand_number, turn : int
    hand : ndarray (34,) uint8
        This player's concealed tiles.
    melds : tuple of 4 tuples
        Every player's exposed sets and declared kongs, as (kind, first tile name), kind in
        "chow", "pung", "kong", "concealed_kong", "added_kong".
    discards : tuple of 4 tuples of str
        Every player's discards in order (claimed ones included).
    visible : ndarray (34,) uint8
        Tiles seen by everyone: discards still on the table and exposed sets.
    ready : tuple of 4 bool
        Declared ready hands (``ready_declaration`` rule).
    bonus : tuple of 4 int
        Bonus tiles set aside.
    wall_left : int
        Live tiles left to draw.
    drawn : str or None
        The tile just drawn by this player (None after a claim).
    """

    seat: int
    dealer: int
    hand_number: int
    turn: int
    hand: np.ndarray
    melds: tuple
    discards: tuple
    visible: np.ndarray
    ready: tuple
    bonus: tuple
    wall_left: int
    drawn: str | None

    def unseen(self) -> np.ndarray:
        """Copies of each kind this seat has not seen (4 - own - visible)."""
        return 4 - self.hand.astype(np.int64) - self.visible


class Policy:
    """Base class for a Python bot. Subclass it and override :meth:`discard` (at least).

    The engine calls the methods with a :class:`SeatView`; tiles are names such as ``"5p"``.
    Returning anything not offered raises :class:`IllegalActionError` naming the seat, turn
    and action, and the simulation stops (no partial game is counted).

    Examples
    --------
    >>> import mjfast
    >>> class Tsumogiri(mjfast.Policy):
    ...     name = "tsumogiri"
    ...     def discard(self, view):
    ...         return view.drawn or next(t for t in mjfast.tiles.KIND_NAMES if view.hand[mjfast.tiles.tile_index(t)])
    >>> res = mjfast.simulate(4, policies=[Tsumogiri(), "greedy", "greedy", "greedy"], seed=1, progress=False)
    >>> res.games
    4
    """

    name = "python"

    def discard(self, view: SeatView) -> str:
        """The tile to discard (name or kind index); it must be in ``view.hand``."""
        raise NotImplementedError("a Policy must implement discard(view)")

    def claim(self, view: SeatView, tile: str, options: Sequence[str]) -> str | None:
        """Claim the discard ``tile``: one of ``options`` ("win", "kong", "pung", "chow:345m"), or None."""
        return "win" if "win" in options else None

    def own_turn(self, view: SeatView, options: Sequence[str]) -> str | None:
        """After a draw: "win", "concealed_kong:5p", "added_kong:7z" from ``options``, or None to discard."""
        return "win" if "win" in options else None

    def declare_ready(self, view: SeatView) -> bool:
        """Declare a ready hand (only asked under the ``ready_declaration`` rule, when tenpai)."""
        return True


def _policy_name(p) -> str:
    return p if isinstance(p, str) else getattr(p, "name", type(p).__name__)


def _claim_label(code: int) -> str | None:
    if code == 0:
        return None
    if code == 1:
        return "win"
    if code == 2:
        return "kong"
    if code == 3:
        return "pung"
    start = code - 100
    return "chow:" + tiles.format_hand(np.bincount([start, start + 1, start + 2], minlength=34))


def _own_label(code: int) -> str:
    kind, k = divmod(code, 1000)
    return "win" if kind == 1 else ("concealed_kong:" if kind == 2 else "added_kong:") + tiles.tile_name(k)


class _Context:
    """Bridges the engine's callbacks to the Python policies of one table."""

    def __init__(self, policies: list):
        self.policies = policies
        self.error: BaseException | None = None
        self.last = (0, 0)

    def _view(self, v: dict) -> SeatView:
        melds = tuple(tuple((kind, tiles.tile_name(int(t))) for kind, t in seat) for seat in v["melds"])
        discards = tuple(tuple(tiles.tile_name(int(t)) for t in seat) for seat in v["discards"])
        drawn = tiles.tile_name(v["drawn"]) if v["drawn"] >= 0 else None
        return SeatView(v["seat"], v["dealer"], v["hand_number"], v["turn"], v["hand"], melds, discards,
                        v["visible"], v["ready"], v["bonus"], v["wall_left"], drawn)

    def _raise(self, seat: int, view: SeatView, action, allowed) -> None:
        raise IllegalActionError(f"seat {seat} ({_policy_name(self.policies[seat])}), hand {view.hand_number}, "
                                 f"turn {view.turn}: {action!r} is not allowed; choose {allowed}")

    def ask(self, v: dict, what: int, tile: int, options: list) -> int:
        seat = v["seat"]
        self.last = (seat, v["hand_number"])
        view = self._view(v)
        pol = self.policies[seat]
        if what == 0:
            choice = pol.discard(view)
            try:
                k = tiles.tile_index(choice) if isinstance(choice, str) else int(choice)
            except (ValueError, TypeError):
                k = -1
            if not 0 <= k < 34 or view.hand[k] == 0:
                self._raise(seat, view, choice, "a tile in hand: " + tiles.format_hand(view.hand))
            return k
        if what == 1:
            labels = [_claim_label(c) for c in options]
            choice = pol.claim(view, tiles.tile_name(tile), [x for x in labels if x is not None])
            if choice not in labels:
                self._raise(seat, view, choice, labels)
            return labels.index(choice)
        if what == 2:
            labels = [_own_label(c) for c in options]
            choice = pol.own_turn(view, labels)
            if choice is None:
                return -1
            if choice not in labels:
                self._raise(seat, view, choice, labels + [None])
            return labels.index(choice)
        return 1 if pol.declare_ready(view) else 0

    def fail(self, exc: BaseException) -> None:
        if self.error is None:
            self.error = exc

    def _kind_name(self, kind: int):
        return tiles.tile_name(kind) if 0 <= kind < 34 else kind

    def illegal(self, turn: int, message: str, kind: int) -> None:
        seat, hand = self.last
        self.fail(IllegalActionError(f"seat {seat} ({_policy_name(self.policies[seat])}), hand {hand}, "
                                     f"turn {turn}: {message} ({self._kind_name(kind)})"))


def _resolve_policies(policies, builtin=None, where: str = "") -> list:
    """Four policies (one name or Policy for every seat, or a list of four), each a built-in
    name of ``builtin`` (default: this engine's) or a Policy; ``where`` qualifies the message."""
    builtin = tuple(BUILTIN_POLICIES if builtin is None else builtin)
    if isinstance(policies, (str, Policy)) or not isinstance(policies, Sequence):
        policies = [policies] * 4
    policies = list(policies)
    if len(policies) != 4:
        raise ValueError(f"policies must be one policy or a list of 4 (one per seat), got {len(policies)}")
    for p in policies:
        if isinstance(p, str):
            if p not in builtin:
                raise ValueError(f"unknown policy {p!r}{where}; built-in policies are {builtin}, "
                                 "or pass a mjfast.Policy instance")
        elif not isinstance(p, Policy):
            raise TypeError(f"a policy must be a name {builtin} or a mjfast.Policy, not {type(p).__name__}")
    return policies


def _codes(policies: list) -> np.ndarray:
    return np.array([BUILTIN_POLICIES[p] if isinstance(p, str) else _PY for p in policies], dtype=np.intc)


# ---------------------------------------------------------------------------------------------
# results

# per-game output columns of the engine (int32): scores 0-3, wins 4-7, self-drawn wins 8-11,
# deal-ins 12-15, (16-19 unused), claims 20-39 (player * 5 + kind), hands 40, turns 41,
# exhaustive draws 42.

@dataclasses.dataclass(eq=False)
class SimResult:
    """Statistics of simulated games (see :func:`simulate`). Merge runs with ``a + b``.

    Counters per player index 0..3 (arrays of shape (4,)) and per policy name; every rate is
    an :class:`~mjfast.stats.Estimate` (count, n, p, se, 95% Wilson interval), every mean a
    :class:`Mean` (mean, se, 95% interval, n).
    """

    rules: GameRules
    games: int
    hands: int
    policies: tuple          # per seat, for non-duplicate runs; per rotation 0 in duplicate runs
    duplicate: bool
    seeds: tuple
    wins: np.ndarray
    self_draw_wins: np.ndarray
    deal_ins: np.ndarray
    claims: np.ndarray       # (4, 5)
    points: np.ndarray       # sum of final game points per player
    points_sq: np.ndarray
    points_hist: list        # per player {points: games}
    exhaustive_draws: int
    turns: int
    turns_sq_per_game: int   # sum over games of (turns in the game) squared
    by_policy: dict          # name -> dict of counters (seats pooled)

    # -- derived ---------------------------------------------------------------------------
    @property
    def discard_wins(self) -> np.ndarray:
        return self.wins - self.self_draw_wins

    def win_rate(self, seat: int | None = None, policy: str | None = None) -> Estimate:
        """Share of hands won (by player `seat`, or by all players using `policy`)."""
        w, h = self._pick("wins", seat, policy)
        return Estimate.from_counts(w, h)

    def self_draw_share(self, seat=None, policy=None) -> Estimate:
        """Share of wins that were self-drawn."""
        s, _ = self._pick("self_draw_wins", seat, policy)
        w, _ = self._pick("wins", seat, policy)
        return Estimate.from_counts(s, w)

    def discard_win_share(self, seat=None, policy=None) -> Estimate:
        s, _ = self._pick("self_draw_wins", seat, policy)
        w, _ = self._pick("wins", seat, policy)
        return Estimate.from_counts(w - s, w)

    def deal_in_rate(self, seat=None, policy=None) -> Estimate:
        """Share of hands in which this player discarded the winning tile."""
        d, h = self._pick("deal_ins", seat, policy)
        return Estimate.from_counts(d, h)

    def exhaustive_draw_rate(self) -> Estimate:
        return Estimate.from_counts(self.exhaustive_draws, self.hands)

    def mean_turns(self) -> "Mean":
        """Mean hand length in turns (a turn = a draw or claim, then a discard)."""
        per_hand = self.hands / self.games if self.games else 1
        m = self.turns / self.hands if self.hands else math.nan
        var_game = self.turns_sq_per_game / self.games - (self.turns / self.games) ** 2 if self.games > 1 else math.nan
        se = math.sqrt(max(var_game, 0) / (self.games - 1)) / per_hand if self.games > 1 else math.nan
        return Mean(m, se, self.hands)

    def mean_points(self, seat=None, policy=None) -> "Mean":
        """Mean final points per game."""
        if policy is not None:
            c = self.by_policy[policy]
            s, sq, n = c["points"], c["points_sq"], c["games"]
        else:
            s, sq, n = self.points[seat], self.points_sq[seat], self.games
        m = float(s / n) if n else math.nan
        var = (sq - n * m * m) / (n - 1) if n > 1 else math.nan
        return Mean(m, math.sqrt(max(var, 0) / n) if n > 1 else math.nan, n)

    def claims_per_hand(self, seat=None, policy=None) -> dict:
        """Mean claims per hand by kind (chow, pung, kong, concealed_kong, added_kong)."""
        if policy is not None:
            c, h = self.by_policy[policy]["claims"], self.by_policy[policy]["hands"]
        else:
            c, h = self.claims[seat], self.hands
        return {k: (float(c[i]) / h if h else math.nan) for i, k in enumerate(CLAIM_KINDS)}

    def _pick(self, field: str, seat, policy):
        if (seat is None) == (policy is None):
            raise ValueError("give exactly one of seat (0-3) or policy (a name)")
        if policy is not None:
            if policy not in self.by_policy:
                raise ValueError(f"no policy {policy!r} in this result; have {sorted(self.by_policy)}")
            c = self.by_policy[policy]
            return int(c[field]), int(c["hands"])
        if seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0-3, got {seat!r}")
        return int(getattr(self, field)[seat]), self.hands

    # -- merging -----------------------------------------------------------------------------
    def __add__(self, other: "SimResult") -> "SimResult":
        if not isinstance(other, SimResult):
            return NotImplemented
        if (self.rules, self.policies, self.duplicate) != (other.rules, other.policies, other.duplicate):
            raise ValueError("cannot merge results of different rules, policies or duplicate settings")
        hist = [_merge_hist(a, b) for a, b in zip(self.points_hist, other.points_hist)]
        byp = {}
        for name in set(self.by_policy) | set(other.by_policy):
            a, b = self.by_policy.get(name), other.by_policy.get(name)
            byp[name] = b if a is None else a if b is None else {k: a[k] + b[k] for k in a}
        return SimResult(self.rules, self.games + other.games, self.hands + other.hands, self.policies,
                         self.duplicate, self.seeds + other.seeds, self.wins + other.wins,
                         self.self_draw_wins + other.self_draw_wins, self.deal_ins + other.deal_ins,
                         self.claims + other.claims, self.points + other.points, self.points_sq + other.points_sq,
                         hist, self.exhaustive_draws + other.exhaustive_draws, self.turns + other.turns,
                         self.turns_sq_per_game + other.turns_sq_per_game, byp)

    # -- output --------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The stable JSON schema (see the README)."""
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
                "claims": {k: int(self.claims[s, i]) for i, k in enumerate(CLAIM_KINDS)},
            })
        pols = {}
        for name, c in self.by_policy.items():
            pols[name] = {
                "hands": int(c["hands"]), "games": int(c["games"]), "wins": int(c["wins"]),
                "self_draw_wins": int(c["self_draw_wins"]), "deal_ins": int(c["deal_ins"]),
                "points": int(c["points"]),
                "win_rate": self.win_rate(policy=name).to_dict(),
                "deal_in_rate": self.deal_in_rate(policy=name).to_dict(),
                "mean_points": self.mean_points(policy=name).to_dict(),
                "claims": {k: int(c["claims"][i]) for i, k in enumerate(CLAIM_KINDS)},
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
        }

    def table(self) -> str:
        """Readable win-rate table with 95% intervals."""
        def fmt(e: Estimate) -> str:
            return f"{e.p:6.4f} [{e.low:6.4f}, {e.high:6.4f}]"

        lines = [f"mjfast simulate: rules={self.rules.name} games={self.games:,} hands={self.hands:,} "
                 f"seed={seed_to_json(self.seeds[0]) if len(self.seeds) == 1 else [seed_to_json(x) for x in self.seeds]}"
                 + ("  (duplicate)" if self.duplicate else "")]
        lines.append(f"{'':<14}{'win rate':>26}{'self-draw share':>26}{'deal-in rate':>26}{'mean points':>22}")
        rows = [(f"seat {s} {'' if self.duplicate else _policy_name(self.policies[s])}", dict(seat=s)) for s in range(4)]
        if len(self.by_policy) > 1 or self.duplicate:
            rows += [(f"policy {name}", dict(policy=name)) for name in sorted(self.by_policy)]
        for label, kw in rows:
            mp = self.mean_points(**kw)
            lines.append(f"{label:<14}{fmt(self.win_rate(**kw)):>26}{fmt(self.self_draw_share(**kw)):>26}"
                         f"{fmt(self.deal_in_rate(**kw)):>26}{mp.mean:>12.2f} ± {Z95 * mp.se:<7.2f}")
        ed, mt = self.exhaustive_draw_rate(), self.mean_turns()
        lines.append(f"exhaustive draws {fmt(ed)}   mean turns per hand {mt.mean:.2f} ± {Z95 * mt.se:.2f}")
        claims = self.claims.sum(axis=0)
        lines.append("claims per hand: " + ", ".join(f"{k} {claims[i] / max(self.hands, 1):.3f}" for i, k in enumerate(CLAIM_KINDS)))
        return "\n".join(lines)


@dataclasses.dataclass(frozen=True)
class Mean:
    """A mean with its standard error and 95% normal interval."""

    mean: float
    se: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - Z95 * self.se

    @property
    def high(self) -> float:
        return self.mean + Z95 * self.se

    def to_dict(self) -> dict:
        return {"mean": self.mean, "se": self.se, "n": self.n, "ci95": [self.low, self.high]}


def _merge_hist(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


class _Accumulator:
    """Running counters over chunks of per-game engine output (bounded memory)."""

    def __init__(self):
        self.games = 0
        self.hands = 0
        self.wins = np.zeros(4, np.int64)
        self.self_wins = np.zeros(4, np.int64)
        self.deal_ins = np.zeros(4, np.int64)
        self.claims = np.zeros((4, 5), np.int64)
        self.points = np.zeros(4, np.int64)
        self.points_sq = np.zeros(4, object)   # Python ints: exact however many games
        self.hist = [dict() for _ in range(4)]
        self.draws = 0
        self.turns = 0
        self.turns_sq = 0
        self.by_policy: dict = {}

    def add(self, out: np.ndarray, names: np.ndarray) -> None:
        """out: (m, 43) engine rows; names: (m, 4) policy name of each player."""
        o = out.astype(np.int64)
        self.games += len(o)
        sc, wi, sd, di, cl = (_OUT[k] for k in ("score", "wins", "self_drawn", "deal_ins", "claims"))
        hands, turns, draws = (_OUT[k] for k in ("hands", "turns", "draws"))
        self.hands += int(o[:, hands].sum())
        self.wins += o[:, wi:wi + 4].sum(axis=0)
        self.self_wins += o[:, sd:sd + 4].sum(axis=0)
        self.deal_ins += o[:, di:di + 4].sum(axis=0)
        self.claims += o[:, cl:cl + 20].reshape(-1, 4, 5).sum(axis=0)
        self.points += o[:, sc:sc + 4].sum(axis=0)
        self.points_sq += np.array(exact_square_sums(o[:, sc:sc + 4]), object)
        for s in range(4):
            vals, counts = np.unique(o[:, sc + s], return_counts=True)
            for v, c in zip(vals.tolist(), counts.tolist()):
                self.hist[s][v] = self.hist[s].get(v, 0) + c
        self.draws += int(o[:, draws].sum())
        self.turns += int(o[:, turns].sum())
        self.turns_sq += int((o[:, turns] ** 2).sum())
        for name in np.unique(names):
            mask = names == name          # (m, 4)
            c = self.by_policy.setdefault(str(name), {k: 0 for k in ("hands", "games", "wins", "self_draw_wins",
                                                                       "deal_ins", "points", "points_sq")}
                                          | {"claims": np.zeros(5, np.int64)})
            c["games"] += int(mask.sum())
            c["hands"] += int((mask * o[:, hands:hands + 1]).sum())
            c["wins"] += int((o[:, wi:wi + 4] * mask).sum())
            c["self_draw_wins"] += int((o[:, sd:sd + 4] * mask).sum())
            c["deal_ins"] += int((o[:, di:di + 4] * mask).sum())
            c["points"] += int((o[:, sc:sc + 4] * mask).sum())
            c["points_sq"] += exact_square_sums(o[:, sc:sc + 4], mask)[0]
            c["claims"] = c["claims"] + (o[:, cl:cl + 20].reshape(-1, 4, 5) * mask[:, :, None]).sum(axis=(0, 1))

    def merge(self, other: "_Accumulator") -> "_Accumulator":
        """Add the counters of ``other`` (a disjoint piece of the run) into self; exact."""
        self.games += other.games
        self.hands += other.hands
        self.wins += other.wins
        self.self_wins += other.self_wins
        self.deal_ins += other.deal_ins
        self.claims += other.claims
        self.points += other.points
        self.points_sq += other.points_sq
        self.hist = [_merge_hist(a, b) for a, b in zip(self.hist, other.hist)]
        self.draws += other.draws
        self.turns += other.turns
        self.turns_sq += other.turns_sq
        for name, c in other.by_policy.items():
            mine = self.by_policy.get(name)
            self.by_policy[name] = dict(c) if mine is None else {k: mine[k] + c[k] for k in mine}
        return self

    def result(self, rules, policies, duplicate, seed) -> SimResult:
        return SimResult(rules, self.games, self.hands, tuple(policies), duplicate, (seed,), self.wins,
                         self.self_wins, self.deal_ins, self.claims, self.points, self.points_sq, self.hist,
                         self.draws, self.turns, self.turns_sq, self.by_policy)


# ---------------------------------------------------------------------------------------------
# running games

def _check_count(n, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name} must be an int, not {type(n).__name__}")
    if n < 0 or n >= 2**40:
        raise ValueError(f"{name} must be between 0 and 2**40, got {n}")
    return int(n)


def _play_units(rules: GameRules, policies: list, game_index: np.ndarray, rotation: np.ndarray, k0: int, k1: int,
                threads: int, acc: _Accumulator) -> None:
    """Play games game_index[i] with the policy list rotated by rotation[i]; accumulate."""
    kern = rules.kernel()
    codes = _codes(policies)
    names = np.array([_policy_name(p) for p in policies], dtype=object)
    gi = np.ascontiguousarray(game_index, dtype=np.uint64)
    rot = rotation
    seat_pol = (np.arange(4)[None, :] - rot[:, None]) % 4          # policy index at each seat
    pol_codes = np.ascontiguousarray(codes[seat_pol], dtype=np.intc)
    out = np.zeros((len(gi), _game.OUT_WIDTH), np.int32)
    if any(not isinstance(p, str) for p in policies):
        for r in np.unique(rot):
            ctx = _Context([policies[(s - r) % 4] for s in range(4)])
            sel = np.flatnonzero(rot == r)
            sub = np.zeros((len(sel), _game.OUT_WIDTH), np.int32)
            bad = _engine.run_games(_game.ChineseTable(kern), np.ascontiguousarray(gi[sel]), k0, k1,
                                    np.ascontiguousarray(pol_codes[sel]), sub, ctx)
            if bad >= 0:
                raise ctx.error
            out[sel] = sub
    else:
        _game.simulate_batch(kern, gi, k0, k1, pol_codes, out, threads)
    acc.add(out, names[seat_pol])


def _simulate_chunk(rules: GameRules, policies: list, k0: int, k1: int, start: int, count: int, duplicate: bool,
                    threads: int = 1) -> _Accumulator:
    """Exact counters of play units ``start .. start+count-1`` of the run keyed (k0, k1).

    A unit is game g (``duplicate=False``), or game g = u // 4 played with the policies rotated
    by u % 4 (``duplicate=True``). A pure function of its arguments whatever ``threads`` is:
    the local loop and every Dask task call it, and the counters of disjoint pieces merge
    exactly (:meth:`_Accumulator.merge`).
    """
    _core.ensure_tables()
    units = np.arange(start, start + count, dtype=np.uint64)
    if duplicate:
        gi, rot = units // np.uint64(4), (units % np.uint64(4)).astype(np.int64)
    else:
        gi, rot = units, np.zeros(count, dtype=np.int64)
    acc = _Accumulator()
    _play_units(rules, policies, gi, rot, k0, k1, threads, acc)
    return acc


def simulate(games: int, *, rules: str | GameRules = "classical", policies="greedy", seed=None,
             threads: int | None = None, duplicate: bool = False, progress: bool = True,
             chunk_size: int = 4096, backend: str = "local", client=None, **rule_options) -> SimResult:
    """Simulate complete games of four-player mahjong and collect win-rate statistics.

    Parameters
    ----------
    games : int
        Games to play (``duplicate=True``: wall sets, each played 4 times).
    rules : {"classical", "basic", "mcr", "american"} or GameRules or AmericanRules
        Rule preset; options (``flowers``, ``special_forms``, ``dead_wall``,
        ``ready_declaration``, ``base_points``, ``payment``, ``rounds``, ``chow``, ``kong``;
        American: ``jokers``, ``second_charleston``, ``courtesy``, ``blind_pass``, ...)
        may be given as keywords, see :func:`game_rules`. American games return an
        :class:`~mjfast.AmericanSimResult` (see :mod:`mjfast.amsim`).
    policies : str, Policy, or a list of 4
        "random", "greedy", "defensive" or a :class:`Policy` instance, for every seat or per seat.
    seed : None, int, SeedSequence or Generator
        Game g is a pure function of (seed, g) and the policies, whatever ``threads`` is.
    threads : int or None
        Threads for built-in policies (Python policies run on one thread).
    duplicate : bool
        Play every set of walls once per rotation of the policies around the table (common
        random numbers: each policy meets the same tiles from every seat).
    progress : bool
        Progress bar on stderr for runs longer than half a second.
    chunk_size : int
        At most this many games (duplicate: game rotations) per engine call; calls are also
        sized to take about 0.1 s so that Ctrl-C stops quickly. With ``backend="dask"``,
        exactly the games per Dask task. Never changes the result.
    backend : {"local", "dask"}
        ``"local"`` runs on this machine's threads; ``"dask"`` runs chunks of ``chunk_size``
        games as Dask tasks keyed by (seed, chunk) and merges their exact counters: the result
        is bit-identical to the local run with the same seed (needs
        ``pip install "mjfast[dask]"``; ``threads`` is then the threads per task, default 1;
        Python policies are pickled to the workers).
    client : distributed.Client, str or None
        ``backend="dask"`` only: the client (None = the current one) or a scheduler address.

    Returns
    -------
    SimResult

    Raises
    ------
    IllegalActionError
        A Python policy chose an action the rules do not allow.
    KeyboardInterrupt
        On Ctrl-C, after the current chunk (well under a second); the statistics so far are in
        ``exc.partial`` (Dask backend: outstanding tasks are cancelled).

    Examples
    --------
    >>> import mjfast
    >>> res = mjfast.simulate(200, seed=1, progress=False)
    >>> res.games, res.hands, int(res.points.sum())
    (200, 800, 0)
    >>> w = res.win_rate(seat=0)
    >>> w.low < w.p < w.high
    True
    """
    games = _check_count(games, "games")
    chunk_size = _check_count(chunk_size, "chunk_size")
    if chunk_size == 0:
        raise ValueError("chunk_size must be positive")
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be True or False, not {type(progress).__name__}")
    r = game_rules(rules, **rule_options)
    if _is_american(r):
        from . import amsim
        return amsim.simulate(games, rules=r, policies=policies, seed=seed, threads=threads, duplicate=duplicate,
                              progress=progress, chunk_size=chunk_size, backend=backend, client=client)
    pols = _resolve_policies(policies)
    if not isinstance(duplicate, (bool, np.bool_)):
        raise TypeError("duplicate must be True or False")
    backend = _dask.check_backend(backend, client)
    key = root_key(seed)
    duplicate = bool(duplicate)
    units = 4 * games if duplicate else games
    bar = Progress(units, label=f"simulate {r.name}", enabled=bool(progress))
    if backend == "dask":
        threads = 1 if threads is None else resolve_threads(threads)
        pieces = (((r, pols, key.k0, key.k1, lo, min(chunk_size, units - lo), duplicate, threads),
                   min(chunk_size, units - lo)) for lo in range(0, units, chunk_size))
        return _dask.run_chunks(client, _simulate_chunk, pieces, "mjfast-simulate", bar,
                                lambda acc, done: acc.result(r, pols, duplicate, key.seed_value()),
                                _Accumulator(), _Accumulator.merge)
    threads = resolve_threads(threads)
    _core.ensure_tables()
    acc = _Accumulator()
    try:
        for lo, m in timed_chunks(0, units, chunk_size, 2 * threads):
            acc.merge(_simulate_chunk(r, pols, key.k0, key.k1, lo, m, duplicate, threads))
            bar.update(acc.games)
    except KeyboardInterrupt as exc:
        bar.close()
        exc.partial = acc.result(r, pols, duplicate, key.seed_value())
        raise
    bar.close()
    return acc.result(r, pols, bool(duplicate), key.seed_value())


@dataclasses.dataclass(frozen=True)
class Comparison:
    """Paired difference of two policies on the same walls (see :func:`compare`)."""

    policy_a: str
    policy_b: str
    wall_sets: int
    points_diff: Mean        # mean points per game of A minus B in the same seat, same walls
    win_rate_diff: Mean      # share of hands won, A minus B
    a: SimResult
    b: SimResult

    def to_dict(self) -> dict:
        return {"policy_a": self.policy_a, "policy_b": self.policy_b, "wall_sets": self.wall_sets,
                "points_diff": self.points_diff.to_dict(), "win_rate_diff": self.win_rate_diff.to_dict()}


def compare(policy_a, policy_b, games: int, *, rules: str | GameRules = "classical", seed=None,
            threads: int | None = None, progress: bool = True, **rule_options) -> Comparison:
    """Compare two policies with common random numbers.

    For every wall set g and seat r, policy A plays seat r against three copies of B, and the
    same walls are also played by four copies of B. The difference in seat r's points (and in
    hands won) between the two tables is paired: walls, dice and seat are identical, so most of
    the luck cancels. Differences are averaged over the four seats of a wall set, and the mean
    and standard error are taken over wall sets.

    Examples
    --------
    >>> import mjfast
    >>> c = mjfast.compare("greedy", "random", 50, seed=3, progress=False)
    >>> c.points_diff.mean > 0
    True
    """
    games = _check_count(games, "games")
    r = game_rules(rules, **rule_options)
    if _is_american(r):
        from . import amsim
        return amsim.compare(policy_a, policy_b, games, rules=r, seed=seed, threads=threads, progress=progress)
    a, b = _resolve_policies([policy_a] * 4)[0], _resolve_policies([policy_b] * 4)[0]
    key = root_key(seed)
    threads = resolve_threads(threads)
    _core.ensure_tables()
    kern = r.kernel()
    diffs = np.zeros(games)
    wdiffs = np.zeros(games)
    acc_a, acc_b = _Accumulator(), _Accumulator()
    bar = Progress(5 * games, label="compare", enabled=bool(progress))
    base_pols = [b, b, b, b]
    try:
        # pieces of ~0.1 s (at most 4096 wall sets): bounded engine output, quick Ctrl-C; the
        # per-wall-set differences do not depend on the pieces
        for lo, m in timed_chunks(0, games, 4096, 2 * threads):
            gi = np.arange(lo, lo + m, dtype=np.uint64)
            out_b = _play_table(kern, base_pols, gi, key, threads)
            acc_b.add(out_b, np.array([[_policy_name(b)] * 4] * m, dtype=object))
            for seat in range(4):
                pols = [a if s == seat else b for s in range(4)]
                out_a = _play_table(kern, pols, gi, key, threads)
                acc_a.add(out_a, np.array([[_policy_name(p) for p in pols]] * m, dtype=object))
                sc, wi = _OUT["score"] + seat, _OUT["wins"] + seat
                diffs[lo : lo + m] += (out_a[:, sc].astype(np.float64) - out_b[:, sc]) / 4
                wdiffs[lo : lo + m] += (out_a[:, wi].astype(np.float64) - out_b[:, wi]) / out_a[:, _OUT["hands"]] / 4
            bar.update(5 * (lo + m))
    finally:
        bar.close()
    n = games

    def mean(x):
        return Mean(float(x.mean()) if n else math.nan, float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan, n)

    return Comparison(_policy_name(a), _policy_name(b), games, mean(diffs), mean(wdiffs),
                      acc_a.result(r, [a, b, b, b], True, key.seed_value()),
                      acc_b.result(r, base_pols, False, key.seed_value()))


def _play_table(kern: dict, pols: list, gi: np.ndarray, key, threads: int) -> np.ndarray:
    out = np.zeros((len(gi), _game.OUT_WIDTH), np.int32)
    codes = np.ascontiguousarray(np.tile(_codes(pols), (len(gi), 1)), dtype=np.intc)
    if any(not isinstance(p, str) for p in pols):
        ctx = _Context(pols)
        if _engine.run_games(_game.ChineseTable(kern), gi, key.k0, key.k1, codes, out, ctx) >= 0:
            raise ctx.error
    else:
        _game.simulate_batch(kern, gi, key.k0, key.k1, codes, out, threads)
    return out


# ---------------------------------------------------------------------------------------------
# replay and event logs

_EVENT_NAMES = _engine.EVENTS


def _play_logged(kern: dict, gi: int, k0: int, k1: int, codes: np.ndarray, ctx, walls=None, dice=None):
    """Play one game with its event log (scripted walls and dice, or the game's shuffles):
    (events, walls, dice, out); raises the policy error that stopped it."""
    table = _game.ChineseTable(kern, 65536)
    table.start(gi, k0, k1, codes, walls, dice)
    walls, dice = table.hand_walls()
    if ctx is None:
        table.advance()
    elif table.run(ctx) != _engine.ADVANCE["done"]:
        raise ctx.error
    return table.events(), walls, dice, table.out


def _tile_of_id(i: int) -> str:
    if i < 136:
        return tiles.tile_name(i // 4)
    if i < 144:
        return f"f{i - 135}"
    return "j"


@dataclasses.dataclass(frozen=True)
class GameLog:
    """Every event of one game, as JSON-ready dicts (see :func:`replay`).

    ``header`` holds what is needed to re-run the game (:func:`rerun`): seed, game index,
    rules and options, policies, and each hand's wall order (physical tile ids) and dice.
    """

    header: dict
    events: list

    def to_jsonl(self) -> str:
        """The log as JSON lines: the header first, then one event per line."""
        return "\n".join([json.dumps({"type": "header", **self.header})] + [json.dumps(e) for e in self.events]) + "\n"

    @classmethod
    def from_jsonl(cls, text: str) -> "GameLog":
        if not isinstance(text, str):
            raise TypeError(f"an event log is JSON-lines text, not {type(text).__name__}")
        try:
            lines = [json.loads(x) for x in text.splitlines() if x.strip()]
        except ValueError as exc:
            raise ValueError(f"not an mjfast event log (a line is not JSON: {exc})") from None
        if not lines or not all(isinstance(x, dict) for x in lines) or lines[0].get("type") != "header":
            raise ValueError("not an mjfast event log: it is JSON lines of objects, starting with the header line")
        header = dict(lines[0])
        header.pop("type")
        return cls(header, lines[1:])


def _decode(ev: np.ndarray, walls: np.ndarray) -> list:
    out = []
    for typ, hand, seat, a, b in ev.tolist():
        name = _EVENT_NAMES[typ]
        e = {"hand": hand, "type": name, "seat": seat}
        if name == "hand":
            e.update(dealer=seat, dice=[a, b])
        elif name in ("deal", "draw", "bonus", "replacement"):
            e.update(tile=_tile_of_id(a), id=a)
        elif name in ("discard", "pung", "kong", "concealed_kong", "added_kong"):
            e.update(tile=tiles.tile_name(a))
        elif name == "chow":
            e.update(tile=tiles.tile_name(a), set=_claim_label(100 + b)[5:])
        elif name == "win":
            e.update(self_drawn=bool(a), discarder=None if b < 0 else b)
        elif name == "score":
            e.update(delta=a, total=b)
        out.append(e)
    return out


def replay(seed, game_index: int, *, rules: str | GameRules = "classical", policies="greedy",
           **rule_options) -> GameLog:
    """Re-play game ``game_index`` of a run and return its full event log.

    The game is the same one :func:`simulate` played with this seed (the seed of a run is in
    ``SimResult.seeds``; a run seeded with None prints or stores it).

    Examples
    --------
    >>> import mjfast
    >>> log = mjfast.replay(1, 0)
    >>> log.events[0]["type"], sum(e["delta"] for e in log.events if e["type"] == "score")
    ('hand', 0)
    >>> mjfast.rerun(log).events == log.events
    True
    """
    r = game_rules(rules, **rule_options)
    if _is_american(r):
        from . import amsim
        return amsim.replay(seed, game_index, rules=r, policies=policies)
    pols = _resolve_policies(policies)
    gi = _check_count(game_index, "game_index")
    key = root_key(seed)
    _core.ensure_tables()
    ctx = _Context(pols) if any(not isinstance(p, str) for p in pols) else None
    ev, walls, dice, out = _play_logged(r.kernel(), gi, key.k0, key.k1, _codes(pols), ctx)
    seed_value = key.seed_value()
    header = {"version": LOG_VERSION, "seed": seed_to_json(seed_value),
              "game_index": gi, "rules": r.name, "options": r.to_dict(),
              "policies": [_policy_name(p) for p in pols],
              "walls": [[_tile_of_id(int(i)) for i in w] for w in walls], "wall_ids": walls.tolist(),
              "dice": dice.tolist(), "scores": out[_OUT["score"]:_OUT["score"] + 4].tolist()}
    return GameLog(header, _decode(ev, walls))


def play_walls(walls, dice=None, *, rules: str | GameRules = "classical", policies="greedy", **rule_options) -> GameLog:
    """Play one game on scripted walls: the event log of exactly what a table would do.

    Parameters
    ----------
    walls : array_like of shape (hands, n_tiles)
        Each hand's wall as physical tile ids (0-135: kind = id // 4; 136-143 bonus tiles), a
        permutation of the set, in draw order: the deal and live draws take tiles from the
        front, replacements from the back. ``hands`` is ``4 * rounds`` (the game's hands), or
        fewer: the game then stops after those hands.
    dice : array_like of shape (hands, 2), optional
        Dice totals (they size the dead wall under ``dead_wall="dice"``); default (2, 2).

    With ``rules="american"`` each wall holds the 144 + ``jokers`` ids (144.. are jokers), no
    dice are used, and the deal gives the dealer the first 14 tiles, then 13 to each next seat
    (see :func:`mjfast.amsim.play_walls`).

    Returns
    -------
    GameLog

    Examples
    --------
    >>> import numpy as np, mjfast
    >>> log = mjfast.sim.play_walls([np.arange(136)], rules="basic", rounds=1)
    >>> log.events[1]
    {'hand': 0, 'type': 'deal', 'seat': 0, 'tile': '1m', 'id': 0}
    """
    r = game_rules(rules, **rule_options)
    if _is_american(r):
        from . import amsim
        if dice is not None:
            raise ValueError("rules='american' deals without dice")
        return amsim.play_walls(walls, rules=r, policies=policies)
    w = _check_walls(walls, r)
    d = np.full((w.shape[0], 2), 2, np.int32) if dice is None else _check_dice(dice, w.shape[0])
    pols = _resolve_policies(policies)
    header = {"version": LOG_VERSION, "seed": None, "game_index": None, "rules": r.name, "options": r.to_dict(),
              "policies": [_policy_name(p) for p in pols], "wall_ids": w.tolist(), "dice": d.tolist()}
    return _play_scripted(r, w, d, pols, 0, 0, 0, header)


def _check_walls(walls, r, field: str = "walls") -> np.ndarray:
    """Scripted walls as an (hands, n_tiles) int array, each row a permutation of the tile ids."""
    try:
        w = np.asarray(walls)
    except (TypeError, ValueError):
        raise ValueError(f"{field} must be a (hands, tiles) array of integer tile ids") from None
    if w.dtype.kind not in "iu":
        raise TypeError(f"{field} must hold integer tile ids")
    if w.ndim != 2:
        raise ValueError(f"{field} must have shape (hands, tiles), got {w.shape}")
    if w.shape[1] != r.n_tiles:
        extra = f" with {r.jokers} jokers" if _is_american(r) else ""
        raise ValueError(f"each wall in {field} must hold the {r.n_tiles} tiles of rules={r.name!r}{extra}, "
                         f"got {w.shape[1]}")
    if not 1 <= w.shape[0] <= r.hands_per_game:
        raise ValueError(f"{field}: give 1 to {r.hands_per_game} walls, got {w.shape[0]}")
    for i, row in enumerate(w):
        if not np.array_equal(np.sort(row), np.arange(r.n_tiles)):
            raise ValueError(f"wall {i} of {field} is not a permutation of the tile ids 0..{r.n_tiles - 1}")
    return w


def _check_dice(dice, hands: int, field: str = "dice") -> np.ndarray:
    try:
        d = np.asarray(dice, dtype=np.int32)
    except (TypeError, ValueError):
        d = None
    if d is None or d.shape != (hands, 2) or d.min() < 2 or d.max() > 12:
        raise ValueError(f"{field} must be one (total, total) pair per wall, each total 2-12")
    return d


def _play_scripted(r: GameRules, w: np.ndarray, d: np.ndarray, pols: list, k0: int, k1: int, gi: int,
                   header: dict) -> GameLog:
    """Play game ``gi`` on the checked walls ``w`` and dice ``d``, the built-in policies' random
    stream keyed by (k0, k1); returns the log with ``header`` plus the final scores."""
    r = dataclasses.replace(r, rounds=1) if w.shape[0] < r.hands_per_game else r
    kern = r.kernel()
    kern["hands_per_game"] = w.shape[0]
    _core.ensure_tables()
    ctx = _Context(pols) if any(not isinstance(p, str) for p in pols) else None
    ev, walls_used, dice_used, out = _play_logged(kern, gi, k0, k1, _codes(pols), ctx, w, d)
    return GameLog(dict(header, scores=out[_OUT["score"]:_OUT["score"] + 4].tolist()), _decode(ev, walls_used))


def rerun(log: GameLog | str, *, policies=None) -> GameLog:
    """Re-run a logged game from its header and return the new log (equal for the same code).

    The game is played on the header's walls (``wall_ids``) and dice, with the header's rules,
    options and policies; the header's seed and game index key the built-in policies' random
    choices. A header whose walls or dice were edited therefore plays the edited game (a
    what-if); a header that contradicts itself (``walls`` naming other tiles than
    ``wall_ids``), an unknown ``version``, or malformed walls or dice raise ``ValueError``
    naming the field. Logs written by :func:`play_walls` re-run too.

    ``policies`` must be given when the logged game used Python policies (they are logged by
    name only).

    Examples
    --------
    >>> import mjfast
    >>> text = mjfast.replay(7, 3, rules="basic").to_jsonl()
    >>> mjfast.rerun(text).to_jsonl() == text
    True
    """
    if isinstance(log, str):
        log = GameLog.from_jsonl(log)
    if not isinstance(log, GameLog):
        raise TypeError(f"rerun expects a GameLog or its JSON-lines text, not {type(log).__name__}")
    h = log.header
    missing = [k for k in ("version", "seed", "game_index", "rules", "options", "policies", "wall_ids")
               if k not in h]
    if missing or not isinstance(h.get("options"), dict):
        raise ValueError(f"this event log header lacks {missing or ['options']}; it cannot be re-run")
    if h["version"] not in (1, LOG_VERSION):
        raise ValueError(f"the header's 'version' is {h['version']!r}; this mjfast reads event logs of "
                         f"versions 1 and {LOG_VERSION}")
    seed, gi = h["seed"], h["game_index"]
    if seed is None and gi is not None:
        raise ValueError("this log has no seed (the run was seeded from a Generator); it cannot be re-run")
    if gi is not None:
        gi = _check_count(gi, "the header's 'game_index'")
    opts = {k: v for k, v in h["options"].items() if k not in ("name", "tiles")}
    if h["rules"] != "american":
        opts["special_forms"] = tuple(opts.get("special_forms", ()))
        if h["version"] == 1:       # version-1 logs were played with the refilled dead wall
            opts = {**_V1_OPTIONS, **opts}
    r = game_rules(h["rules"], **opts)
    if h["options"].get("tiles", r.n_tiles) != r.n_tiles:
        raise ValueError(f"the header's options say 'tiles': {h['options']['tiles']!r}, but its rules use {r.n_tiles}")
    w = _check_walls(h["wall_ids"], r, "the header's 'wall_ids'")
    if "walls" in h and h["walls"] != [[_tile_of_id(int(i)) for i in row] for row in w]:
        raise ValueError("the header's 'walls' (tile names) do not match its 'wall_ids'")
    if _is_american(r):
        from . import amsim
        pols = amsim._resolve(policies if policies is not None else h["policies"])
        return amsim._play_scripted(r, w, pols, seed, gi, dict(h, policies=[_policy_name(p) for p in pols]))
    pols = _resolve_policies(policies if policies is not None else h["policies"])
    header = dict(h, policies=[_policy_name(p) for p in pols])
    if "dice" not in h:
        raise ValueError("this event log header lacks ['dice']; it cannot be re-run")
    d = _check_dice(h["dice"], w.shape[0], "the header's 'dice'")
    key = root_key(seed) if seed is not None else None
    return _play_scripted(r, w, d, pols, key.k0 if key else 0, key.k1 if key else 0, gi or 0, header)
