"""The Chinese family's adapter (classical, basic, Chinese Official): its engine, built-in
policies, the bridge to Python policies, its output columns and its events."""
from __future__ import annotations

import itertools

import numpy as np

from .. import tiles
from .._kernels import chinese_env as _env_kernel
from .._kernels import chinese_game as _kernel
from .._kernels import engine as _engine
from ..mcr import FANS as _FANS
from .policy import Bridge as BridgeBase
from .policy import Policy, SeatView
from .results import CLAIM_KINDS, Counters, SimResult

NAME = "chinese"
KERNEL = _kernel
BUILTIN = {k: _engine.POLICY_CODES[k] for k in ("random", "greedy", "defensive", "greedy_blind")}
VEC = _env_kernel.ChineseVec        # the batched tables of environments and BatchPolicy play
ENCODING = "cn-v0"                  # their action and observation encoding (mjfast.game.encodings)
WHERE = ""                                       # qualifies "unknown policy" messages
OUT = dict(_engine.OUT_COMMON, **_kernel.OUT_COLUMNS)
DICE = True                                      # hands break the wall with dice
SCRIPTED_SEED = None                             # play_walls games: the built-in policies' key is (0, 0)
NAMED_OUT_IN_SCRIPTED_LOGS = False
_ASK = _engine.ASK
_C_WIN, _C_KONG, _C_PUNG, _C_CHOW = 1, 2, 3, 100   # claim option codes (chows: 100 + first kind)


def _claims(o: np.ndarray) -> np.ndarray:
    return o[:, OUT["claims"]:OUT["claims"] + 20].reshape(-1, 4, 5)


COUNTERS = Counters(OUT, _claims, CLAIM_KINDS, result=SimResult,
                    fan_columns={k: OUT[k] for k in ("fan_sum", "fan_sq", "fan_total", "fan_total_sq", "false_wins",
                                                     "fan_counts", "fan_hist")}
                    | {"n_fans": len(_FANS), "n_hist": _kernel.FAN_HIST_BINS})


def claim_label(code: int) -> str | None:
    if code == 0:
        return None
    if code == _C_WIN:
        return "win"
    if code == _C_KONG:
        return "kong"
    if code == _C_PUNG:
        return "pung"
    return "chow:" + _chow_tiles(code - _C_CHOW)


def _chow_tiles(start: int) -> str:
    """The three tiles of the chow that starts at kind ``start``, as text."""
    return tiles.format_hand(np.bincount([start, start + 1, start + 2], minlength=34))


def own_label(code: int) -> str:
    kind, k = divmod(code, 1000)
    return "win" if kind == 1 else ("concealed_kong:" if kind == 2 else "added_kong:") + tiles.tile_name(k)


class Bridge(BridgeBase):
    """The Chinese family's questions to Python policies, their answers checked.

    A policy with a ``follow_events(game, events, seats, final)`` method (mjfast.botzone's
    Program) follows every event of the game, not only its questions: before each of its
    questions, and once more when the game ends (``final``: True when it ended normally,
    False when an error stopped it), it gets the game's serial number (unique in the process),
    the engine's event rows so far ((m, 5) int32: type, hand, seat, a, b) and the seats it
    plays. Its table then keeps an event log (:func:`table`)."""

    def __init__(self, policies: list, rules=None):
        super().__init__(policies)
        self.min_fan = getattr(rules, "min_fan", 0)
        self.uses_fans = getattr(rules, "uses_fans", False)
        self.false_win = getattr(rules, "false_win", "penalty")
        self.followers = {id(p): (p, [s for s in range(4) if policies[s] is p]) for p in policies
                          if callable(getattr(p, "follow_events", None))}
        self.table: _kernel.ChineseTable | None = None
        self.game = -1

    def game_started(self, table) -> None:
        self.table = table
        self.game = next(_GAMES)

    def game_ended(self, ok: bool) -> None:
        if self.table is None:
            return
        for p, seats in self.followers.values():
            p.follow_events(self.game, self.table.events(), seats, ok)

    def _false_win(self, seat: int, view: SeatView, labels: list) -> int:
        """A "win" that was not offered: under Chinese Official fan rules the engine decides
        (a false win: the penalty, or IllegalActionError with false_win="error"; a valid win
        declined earlier on the same tile: IllegalActionError); otherwise illegal."""
        if not self.uses_fans:
            self._raise(seat, view, "win", labels)
        return _kernel.FALSE_WIN_ANSWER

    def _view(self, v: dict) -> SeatView:
        melds = tuple(tuple((kind, tiles.tile_name(int(t))) for kind, t in seat) for seat in v["melds"])
        discards = tuple(tuple(tiles.tile_name(int(t)) for t in seat) for seat in v["discards"])
        drawn = tiles.tile_name(v["drawn"]) if v["drawn"] >= 0 else None
        return SeatView(v["seat"], v["dealer"], v["hand_number"], v["turn"], v["hand"], melds, discards,
                        v["visible"], v["ready"], v["bonus"], v["wall_left"], drawn, v["scores"],
                        v["hands_per_game"])

    def ask(self, v: dict, what: int, tile: int, options: list) -> int:
        seat = v["seat"]
        self.last = (seat, v["hand_number"])
        view = self._view(v)
        pol = self.policies[seat]
        if id(pol) in self.followers and self.table is not None:
            pol.follow_events(self.game, self.table.events(), self.followers[id(pol)][1], None)
        if what == _ASK["discard"]:
            choice = pol.discard(view)
            try:
                k = tiles.tile_index(choice) if isinstance(choice, str) else int(choice)
            except (ValueError, TypeError):
                k = -1
            if not 0 <= k < 34 or view.hand[k] == 0:
                self._raise(seat, view, choice, "a tile in hand: " + tiles.format_hand(view.hand))
            return k
        if what == _ASK["claim"]:
            labels = [claim_label(c) for c in options]
            choice = pol.claim(view, tiles.tile_name(tile), [x for x in labels if x is not None])
            if choice == "win" and "win" not in labels:
                return self._false_win(seat, view, labels)
            if choice not in labels:
                self._raise(seat, view, choice, labels)
            return labels.index(choice)
        if what == _ASK["own_turn"]:
            labels = [own_label(c) for c in options]
            choice = pol.own_turn(view, labels)
            if choice is None:
                return -1
            if choice == "win" and "win" not in labels:
                return self._false_win(seat, view, labels + [None])
            if choice not in labels:
                self._raise(seat, view, choice, labels + [None])
            return labels.index(choice)
        return 1 if pol.declare_ready(view) else 0

    def _kind_name(self, kind: int):
        return tiles.tile_name(kind) if 0 <= kind < 34 else kind


_GAMES = itertools.count()      # serial numbers of the games followed (see Bridge)
FOLLOWED_LOG = 65536            # events a followed table logs


class _FollowedTable(_kernel.ChineseTable):
    """A table whose Bridge has followers: it tells the Bridge when each game starts and ends."""

    bridge: Bridge

    def start(self, *args, **kwargs):
        super().start(*args, **kwargs)
        self.bridge.game_started(self)

    def run(self, ctx):
        try:
            r = super().run(ctx)
        except BaseException:
            self.bridge.game_ended(False)
            raise
        try:
            self.bridge.game_ended(r != _engine.ADVANCE["error"])
        except Exception as exc:        # (a follower's late verdict stops the run as a policy error does)
            ctx.fail(exc)
            return _engine.ADVANCE["error"]
        return r


def table(kern: dict, bridge, capacity: int = 0):
    """An engine table for these kernel rules (its event log of `capacity` events; a bridge
    with followers gets a logged table that reports each game's start and end)."""
    if bridge is not None and bridge.followers:
        t = _FollowedTable(kern, max(capacity, FOLLOWED_LOG))
        t.bridge = bridge
        return t
    return _kernel.ChineseTable(kern, capacity)


def event_fields(name: str, seat: int, a: int, b: int) -> dict:
    """The fields of one event of the family's log."""
    if name == "hand":
        return {"dealer": seat, "dice": [a, b]}
    if name in ("deal", "draw", "bonus", "replacement"):
        return {"tile": tiles.physical_tile_name(a), "id": a}
    if name in ("discard", "pung", "kong", "concealed_kong", "added_kong"):
        return {"tile": tiles.tile_name(a)}
    if name == "chow":
        return {"tile": tiles.tile_name(a), "set": _chow_tiles(b)}
    if name == "win":
        return {"self_drawn": bool(a), "discarder": None if b < 0 else b}
    if name == "score":
        return {"delta": a, "total": b}
    if name == "fan":
        name_en, name_zh, value = _FANS[a]
        return {"fan": name_en, "chinese": name_zh, "count": b, "value": value}
    if name == "false_win":
        return {"fan": a, "min_fan": b}
    return {}


def is_python(p) -> bool:
    return isinstance(p, Policy)
