"""The one accumulator of simulation counters: it sums the engine's per-game output rows chunk
by chunk, exactly (integer sums; second moments as Python ints), and builds the
:class:`~mjfast.game.results.SimResult`.

What a rule family's rows hold is data (:class:`Counters`): the common columns by name, the
claims, and per extension (:class:`ExtensionColumns`) the columns it sums and how they become
its statistics. The accumulator loops over the extensions; it asks nothing of the rules.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping

import numpy as np

from ..rules import RuleSet
from ..stats import exact_square_sums
from .results import Extension, SimResult, merge_hist


@dataclasses.dataclass(frozen=True)
class ExtensionColumns:
    """Where an extension's counters are in the engine's output rows, and how they become its
    statistics.

    Attributes
    ----------
    key : str
        The extension's name (``SimResult.stats[key]``).
    sums : mapping of name -> (first column, shape)
        Columns summed over games: shape ``()`` one column (a Python int), ``(n,)`` n columns,
        ``(4, 15)`` 60 columns read as that array.
    per_policy : tuple of str
        Names in ``sums`` of shape ``(4,)`` (one column per player) that are also pooled per
        policy (``SimResult.by_policy``).
    tail : int
        The first column of a tail of variable width (the per-line columns of card play),
        summed when the rows have one (0: none).
    build : callable (sums, rules, hands) -> Extension or None
        The statistics from the sums (``sums["tail"]`` is the tail's, or None); None when the
        rule set has none (fans of rules scored without them, lines of play without a card).
    """

    key: str
    build: Callable[[dict, RuleSet, int], Extension | None]
    sums: Mapping[str, tuple[int, tuple[int, ...]]] = dataclasses.field(default_factory=dict)
    per_policy: tuple[str, ...] = ()
    tail: int = 0

    def zeros(self) -> dict:
        out: dict = {name: 0 if shape == () else np.zeros(shape, np.int64) for name, (_, shape) in self.sums.items()}
        if self.tail:
            out["tail"] = None
        return out

    def add(self, sums: dict, o: np.ndarray) -> None:
        """Add the counters of the int64 rows ``o`` into ``sums``."""
        for name, (col, shape) in self.sums.items():
            if shape == ():
                sums[name] += int(o[:, col].sum())
            else:
                width = math.prod(shape)
                sums[name] += o[:, col:col + width].reshape(-1, *shape).sum(axis=0)
        if self.tail and o.shape[1] > self.tail:
            extra = o[:, self.tail:].sum(axis=0)
            sums["tail"] = extra if sums["tail"] is None else sums["tail"] + extra

    @staticmethod
    def merge(a: dict, b: dict) -> dict:
        out = {}
        for name, x in a.items():
            y = b[name]
            out[name] = (y if x is None else x) if x is None or y is None else x + y
        return out


@dataclasses.dataclass(frozen=True)
class Counters:
    """Where a rule family's engine keeps its per-game counters (named output columns).

    ``out``: every column by name (the common ones of engine.OUT_COMMON and the family's);
    ``claims(o)``: the claims of each game as (m, 4 players, len(claim_kinds)) counts;
    ``claim_kinds``: their names; ``extensions``: the statistics the family adds, in the
    order their keys appear in results."""

    out: dict
    claims: Callable[[np.ndarray], np.ndarray]
    claim_kinds: tuple
    extensions: tuple[ExtensionColumns, ...] = ()


class Accumulator:
    """Running counters over chunks of per-game engine output (bounded memory); pieces of a
    run merge exactly, in any order (integer sums; second moments as Python ints)."""

    BASE_KEYS = ("hands", "games", "wins", "self_draw_wins", "deal_ins", "points", "points_sq")

    def __init__(self, spec: Counters):
        self.spec = spec
        self.games = 0
        self.hands = 0
        self.wins = np.zeros(4, np.int64)
        self.self_wins = np.zeros(4, np.int64)
        self.deal_ins = np.zeros(4, np.int64)
        self.claims = np.zeros((4, len(spec.claim_kinds)), np.int64)
        self.points = np.zeros(4, np.int64)
        self.points_sq = np.zeros(4, object)   # Python ints: exact however many games
        self.hist: list[dict[int, int]] = [dict() for _ in range(4)]
        self.draws = 0
        self.turns = 0
        self.turns_sq = 0
        self.ext = {e.key: e.zeros() for e in spec.extensions}
        self.by_policy: dict = {}
        self._pooled = tuple((name, e.sums[name][0]) for e in spec.extensions for name in e.per_policy)

    def _new_policy(self) -> dict:
        return ({k: 0 for k in self.BASE_KEYS + tuple(name for name, _ in self._pooled)}
                | {"claims": np.zeros(len(self.spec.claim_kinds), np.int64)})

    def add(self, out: np.ndarray, names: np.ndarray) -> None:
        """out: (m, width) engine rows; names: (m, 4) policy name of each player."""
        o = out.astype(np.int64)
        c = self.spec.out
        sc, wi, sd, di = c["score"], c["wins"], c["self_drawn"], c["deal_ins"]
        hands, turns = c["hands"], c["turns"]
        claims = self.spec.claims(o)                       # (m, 4, kinds)
        self.games += len(o)
        self.hands += int(o[:, hands].sum())
        self.wins += o[:, wi:wi + 4].sum(axis=0)
        self.self_wins += o[:, sd:sd + 4].sum(axis=0)
        self.deal_ins += o[:, di:di + 4].sum(axis=0)
        self.claims += claims.sum(axis=0)
        self.points += o[:, sc:sc + 4].sum(axis=0)
        self.points_sq += np.array(exact_square_sums(o[:, sc:sc + 4]), object)
        for s in range(4):
            vals, counts = np.unique(o[:, sc + s], return_counts=True)
            for v, k in zip(vals.tolist(), counts.tolist()):
                self.hist[s][v] = self.hist[s].get(v, 0) + k
        self.draws += int(o[:, c["draws"]].sum())
        self.turns += int(o[:, turns].sum())
        self.turns_sq += int((o[:, turns] ** 2).sum())
        for e in self.spec.extensions:
            e.add(self.ext[e.key], o)
        for name in np.unique(names):
            mask = names == name          # (m, 4)
            p = self.by_policy.setdefault(str(name), self._new_policy())
            p["games"] += int(mask.sum())
            p["hands"] += int((mask * o[:, hands:hands + 1]).sum())
            p["wins"] += int((o[:, wi:wi + 4] * mask).sum())
            p["self_draw_wins"] += int((o[:, sd:sd + 4] * mask).sum())
            p["deal_ins"] += int((o[:, di:di + 4] * mask).sum())
            p["points"] += int((o[:, sc:sc + 4] * mask).sum())
            p["points_sq"] += exact_square_sums(o[:, sc:sc + 4], mask)[0]
            for k, col in self._pooled:
                p[k] += int((o[:, col:col + 4] * mask).sum())
            p["claims"] = p["claims"] + (claims * mask[:, :, None]).sum(axis=(0, 1))

    def merge(self, other: Accumulator) -> Accumulator:
        """Add the counters of ``other`` (a disjoint piece of the run) into self; exact."""
        self.games += other.games
        self.hands += other.hands
        self.wins += other.wins
        self.self_wins += other.self_wins
        self.deal_ins += other.deal_ins
        self.claims += other.claims
        self.points += other.points
        self.points_sq += other.points_sq
        self.hist = [merge_hist(a, b) for a, b in zip(self.hist, other.hist)]
        self.draws += other.draws
        self.turns += other.turns
        self.turns_sq += other.turns_sq
        self.ext = {k: ExtensionColumns.merge(v, other.ext[k]) for k, v in self.ext.items()}
        for name, c in other.by_policy.items():
            mine = self.by_policy.get(name)
            self.by_policy[name] = dict(c) if mine is None else {k: mine[k] + c[k] for k in mine}
        return self

    def result(self, rules: RuleSet, policies, duplicate, seed) -> SimResult:
        stats = {}
        for e in self.spec.extensions:
            ext = e.build(self.ext[e.key], rules, self.hands)
            if ext is not None:
                stats[e.key] = ext
        return SimResult(rules, self.games, self.hands, tuple(policies), duplicate, (seed,), self.wins,
                         self.self_wins, self.deal_ins, self.claims, self.points, self.points_sq, self.hist,
                         self.draws, self.turns, self.turns_sq, self.by_policy, stats, self.spec.claim_kinds)
