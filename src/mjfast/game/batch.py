"""Games with batch policies: the batched-table kernels (``ChineseVec``, ``AmericanVec``) driven
game by game for simulate, compare and replay (and, through mjfast.env, for environments).

A BatchPolicy seat is an external seat of a batched table; built-in seats play inline. Each
round steps every table to the next question of a BatchPolicy seat, then asks each BatchPolicy
once for all the tables where one of its seats must decide.
"""
from __future__ import annotations

import inspect

import numpy as np

from .. import rules as _rules
from .._kernels import engine as _engine
from . import encodings
from .policy import BatchPolicy, IllegalActionError, policy_name, search_layer

EXTERNAL = _engine.POLICY_CODES["external"]
ST = _engine.STATUS
SLOTS = 2048               # tables played side by side


def core_class(family: str):
    """The batched-table kernel class of a rule family."""
    return _rules.FAMILIES[family].vec


def encoding_name(family: str) -> str:
    """The action and observation encoding of a rule family."""
    return _rules.FAMILIES[family].encoding


def builtin_policies(family: str) -> dict:
    """The built-in policies of a rule family, by name -> engine code."""
    return dict(_rules.FAMILIES[family].builtin)


def _takes_scalars(p: BatchPolicy) -> bool:
    try:
        params = inspect.signature(p.act).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return False
    return "scalars" in params or any(q.kind == q.VAR_KEYWORD for q in params.values())


def action_names(family: str):
    return encodings.get(encoding_name(family)).action_names


class BatchDriver:
    """Plays games with BatchPolicy seats on `n` batched tables."""

    def __init__(self, rules: _rules.RuleSet, policies: list, n: int, log_capacity: int = 0):
        fam = rules.family
        self.rules = rules
        self.policies = policies
        builtin = builtin_policies(fam)
        self.codes = np.array([EXTERNAL if isinstance(p, BatchPolicy) else builtin[p] for p in policies], np.intc)
        derived = any(isinstance(p, BatchPolicy) and p.derived for p in policies)
        self.core = core_class(fam)(rules.kernel(), n, True, bool(derived), False)
        self.n = n
        if log_capacity:
            self.core.set_log(0, log_capacity)
        # each distinct BatchPolicy and the seats it plays
        self.groups: list = []
        for p in dict.fromkeys(p for p in policies if isinstance(p, BatchPolicy)):
            seats = np.array([s for s in range(4) if policies[s] is p], np.int8)
            self.groups.append((p, seats, _takes_scalars(p)))
        self.obs = np.zeros((n, self.core.n_planes, self.core.kinds), np.uint8)
        self.scal = np.zeros((n, self.core.n_scalars), np.float32)
        self.mask = np.zeros((n, self.core.n_actions), np.uint8)
        self.seat = np.zeros(n, np.int8)
        self.rew = np.zeros((n, 4), np.float32)
        self.status = np.full(n, ST["idle"], np.uint8)

    def play(self, game_index: np.ndarray, k0: int, k1: int, threads: int, walls=None, dice=None) -> np.ndarray:
        """The output rows of games ``game_index`` (in order)."""
        n_games = len(game_index)
        width = self.core.out.shape[1]
        out = np.zeros((n_games, width), np.int32)
        if n_games == 0:
            return out
        n = self.n
        pol = np.tile(self.codes, (n, 1)).astype(np.intc)
        slot_game = np.full(n, -1, np.int64)          # position in game_index of each table's game
        take = min(n, n_games)
        rows = np.arange(take, dtype=np.int64)
        self.core.start(rows, np.ascontiguousarray(game_index[:take], dtype=np.uint64), k0, k1,
                        np.ascontiguousarray(pol[:take]), False, walls, dice)
        slot_game[:take] = np.arange(take)
        nxt = take
        acts = np.full(n, -2, np.int64)
        acts[:take] = -1
        step_threads = max(1, min(threads, n // 64))
        names = action_names(self.rules.family)
        while True:
            self.core.step(acts, self.obs, self.scal, self.mask, self.seat, self.rew, self.status, step_threads)
            live = slot_game >= 0
            over = np.flatnonzero(live & (self.status == ST["game_end"]))
            if over.size:
                out[slot_game[over]] = self.core.out[over]
                k = min(over.size, n_games - nxt)
                slot_game[over] = -1
                if k:
                    new = over[:k]
                    self.core.start(new, np.ascontiguousarray(game_index[nxt:nxt + k], dtype=np.uint64), k0, k1,
                                    np.ascontiguousarray(pol[new]), False)
                    slot_game[new] = np.arange(nxt, nxt + k)
                    nxt += k
            bad = np.flatnonzero((slot_game >= 0) & (self.status == ST["error"]))
            if bad.size:   # pragma: no cover - actions are checked before the engine sees them
                raise RuntimeError(f"the engine refused an answer at table {int(bad[0])}")
            live = slot_game >= 0
            if not live.any():
                return out
            acts[:] = -2
            acts[live] = -1
            deciding = live & (self.status == ST["decide"])
            if over.size:
                deciding[over] = False               # (just started: run to their first question)
            for p, seats, scal in self.groups:
                sel = np.flatnonzero(deciding & np.isin(self.seat, seats))
                if sel.size == 0:
                    continue
                m = self.mask[sel].view(bool)
                kw: dict = {"scalars": self.scal[sel]} if scal else {}
                if getattr(p, "wants_states", False):     # issue 27: a search policy reads the tables' states
                    kw["states"] = search_layer("_states").save_rows(self.rules, self.core, sel)
                a = np.asarray(p.act(self.obs[sel], m, self.seat[sel], **kw))
                if a.shape != (sel.size,) or a.dtype.kind not in "iu":
                    raise TypeError(f"{policy_name(p)}.act must return {sel.size} integer action ids (one per "
                                    f"table asked); got an array of shape {a.shape} and dtype {a.dtype}")
                ok = (a >= 0) & (a < m.shape[1])
                ok[ok] = m[np.flatnonzero(ok), a[ok]]
                if not ok.all():
                    j = int(np.flatnonzero(~ok)[0])
                    t = int(sel[j])
                    what = names[int(a[j])] if 0 <= a[j] < len(names) else "not an action id"
                    legal = ", ".join(f"{i} ({names[i]})" for i in np.flatnonzero(m[j]))
                    raise IllegalActionError(
                        f"{policy_name(p)} at seat {int(self.seat[t])} (game {int(game_index[slot_game[t]])}): "
                        f"action {int(a[j])} ({what}) is not legal; legal: {legal}")
                acts[sel] = a


def play_batch(rules: _rules.RuleSet, policies: list, game_index: np.ndarray, k0: int, k1: int,
               threads: int) -> np.ndarray:
    """Output rows of games ``game_index`` with BatchPolicy seats (simulate's play_games)."""
    n = max(1, min(len(game_index), SLOTS))
    return BatchDriver(rules, policies, n).play(game_index, k0, k1, threads)


def play_batch_logged(rules: _rules.RuleSet, policies: list, gi: int, k0: int, k1: int, capacity: int,
                      walls=None, dice=None):
    """(events, out) of one game with BatchPolicy seats, logged."""
    d = BatchDriver(rules, policies, 1, capacity)
    out = d.play(np.array([gi], np.uint64), k0, k1, 1, walls, dice)
    return d.core.events(0), out[0]
