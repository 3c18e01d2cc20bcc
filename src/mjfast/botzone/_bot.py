"""mjfast as a Botzone bot: the answer of an mjfast policy to a Chinese-Standard-Mahjong
request history.

The seat's view is rebuilt by playing the hand again on mjfast's engine (:mod:`._table`):
the request history becomes a hand (its own tiles known, the others' hidden draws filled in
with tiles nobody saw), the engine plays it with every seat answered by the script, and stops
at the question the last request asks. There the policy answers exactly as it does at an
mjfast table: a built-in policy through the engine itself (the same code that plays it in
``simulate``), a :class:`~mjfast.BatchPolicy` with the table's ``cn-v0`` observation and mask,
a :class:`~mjfast.Policy` with its :class:`~mjfast.SeatView`. Requests that allow only
``PASS`` are answered without the engine.

The judge's own limits are kept: no chow, pung or exposed kong on a discard after which the
next player's wall is empty, no kong when the player's own wall or the next player's is empty;
the last tile of a wall counts for the fans (Last Tile Draw / Claim) when the judge counts it.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..game import chinese as _chinese
from ..game.policy import BatchPolicy, IllegalActionError, Policy
from . import _tiles
from ._hand import BUHUA, DRAW, RequestError, from_requests
from ._table import A_CHOW, A_KONG, A_OWN_KONG, A_PASS, A_PUNG, A_WIN, ASK, ST, Replay

_C_WIN, _C_KONG, _C_PUNG, _C_CHOW = 1, 2, 3, 100


@dataclasses.dataclass
class Situation:
    """What the last request asks of the player."""

    kind: str                 # "pass", "draw" (own draw), "claim" (another's discard), "rob" (an added kong)
    me: int
    other: int = -1           # the discarder or the kong's owner
    tile: str | None = None   # the discard or the added tile


def situation(requests: list) -> Situation:
    """What the last request asks (from its text; the player's id from the first request)."""
    first = requests[0].split(" ")
    me = int(first[1]) if len(first) == 3 and first[0] == "0" and first[1] in ("0", "1", "2", "3") else -1
    last = requests[-1].split(" ")
    n = len(requests)
    if n <= 2:
        return Situation("pass", me)
    if last[0] == "2":
        return Situation("draw", me)
    if last[0] == "3" and len(last) >= 3 and last[1] in ("0", "1", "2", "3") and int(last[1]) != me:
        if last[2] in ("PLAY", "PENG", "CHI"):
            return Situation("claim", me, int(last[1]), last[-1])
        if last[2] == "BUGANG" and len(last) == 4:
            return Situation("rob", me, int(last[1]), last[3])
    return Situation("pass", me)


def walls_left(hand, flowers: bool) -> list:
    """Tiles left in each player's own wall (34 each; 36 with the 144-tile wall)."""
    part = 36 if flowers else 34
    left = [part - len(hand.deals[p]) for p in range(4)]
    for a in hand.actions:
        if a.kind in (DRAW, BUHUA):
            left[a.player] -= 1
    return left


class Bot:
    """Answers a request history with ``policy``: a built-in policy's name, a
    :class:`~mjfast.Policy` or a :class:`~mjfast.BatchPolicy` (instances)."""

    def __init__(self, policy):
        if isinstance(policy, str):
            if policy not in _chinese.BUILTIN:
                raise ValueError(f"unknown policy {policy!r}; built-in policies are {tuple(_chinese.BUILTIN)}")
        elif not isinstance(policy, (Policy, BatchPolicy)):
            raise TypeError(f"a policy is a built-in name, a mjfast.Policy or a mjfast.BatchPolicy, not "
                            f"{type(policy).__name__}")
        self.policy = policy
        self.steps = 0          # engine steps of the last answer (for measurements)

    def respond(self, requests: list, responses: list) -> str:
        """The response to the last of ``requests`` (``responses``: the player's answers to
        the ones before it)."""
        if len(responses) != len(requests) - 1:
            raise RequestError(f"{len(requests)} requests need {len(requests) - 1} responses before the answer, "
                               f"got {len(responses)}")
        sit = situation(requests)
        hand, me = from_requests(requests, responses)
        self.steps = 0
        if sit.kind == "pass":
            return "PASS"
        flowers = any(_tiles.is_flower(t) for d in hand.deals for t in d if t is not None) or any(
            a.kind == BUHUA for a in hand.actions)
        left = walls_left(hand, flowers)
        if sit.kind == "draw":
            last_tile = left[(me + 1) & 3] == 0
            no_kong = left[me] == 0 or left[(me + 1) & 3] == 0
            no_claim = False
        else:
            last_tile = sit.kind == "claim" and left[(sit.other + 1) & 3] == 0
            no_kong = False
            no_claim = last_tile
        derived = isinstance(self.policy, BatchPolicy) and self.policy.derived
        rp = _replay(hand, last_tile, derived)
        st = rp.run(stop_at_end=True)
        try:
            if sit.kind == "draw":
                return self._own_turn(rp, st, me, no_kong, hand)
            return self._claim(rp, st, me, sit, no_claim)
        finally:
            self.steps = rp.steps

    # -- the questions
    def _own_turn(self, rp: Replay, st: int, me: int, no_kong: bool, hand) -> str:
        seat, what, tile, options = rp.core.request(0)
        if st != ST["decide"] or seat != me or what not in (ASK["own_turn"], ASK["discard"]):
            raise RequestError("internal: the replayed hand is not at the player's own turn")
        last = hand.actions[-1]
        a = self._decide(rp, me, no_kong=no_kong, no_claim=False, drawn=_tiles.kind(last.tile or ""))
        if isinstance(a, str):
            return a
        if a < 34:
            return f"PLAY {_tiles.KIND_NAMES[a]}"
        if a == A_WIN:
            return "HU"
        k = a - A_OWN_KONG
        view = rp.core.view(0, me)
        return f"{'GANG' if view['hand'][k] == 4 else 'BUGANG'} {_tiles.KIND_NAMES[k]}"

    def _claim(self, rp: Replay, st: int, me: int, sit: Situation, no_claim: bool) -> str:
        want = _tiles.kind(sit.tile or "")
        while True:
            if st != ST["decide"]:
                return "PASS"
            seat, what, tile, options = rp.core.request(0)
            if what != ASK["claim"] or tile != want:
                return "PASS"                      # the engine moved on: nothing to claim
            if seat == me:
                break
            st = rp.step(A_PASS)                   # the others answer at the same time: not known
        a = self._decide(rp, me, no_kong=False, no_claim=no_claim)
        if isinstance(a, str):
            return a
        if a == A_PASS:
            return "PASS"
        if a == A_WIN:
            return "HU"
        if a == A_KONG:
            return "GANG"
        st = rp.step(a)
        while True:                                # on to the discard after the chow or pung
            if st != ST["decide"]:
                raise RequestError("internal: the replayed claim did not lead to a discard")
            seat, what, tile, _ = rp.core.request(0)
            if seat == me and what == ASK["discard"]:
                break
            st = rp.step(A_PASS)
        d = self._decide(rp, me, no_kong=True, no_claim=True)
        if isinstance(d, str) or not 0 <= d < 34:
            raise IllegalActionError(f"the policy's discard after its claim is not a tile ({d!r})")
        x = _tiles.KIND_NAMES[d]
        if a == A_PUNG:
            return f"PENG {x}"
        start = want - (a - A_CHOW)
        return f"CHI {_tiles.KIND_NAMES[start + 1]} {x}"

    def _decide(self, rp: Replay, me: int, *, no_kong: bool, no_claim: bool, drawn: int = -1):
        """The policy's action id at the pending question, within the judge's limits (a str:
        a response the policy gave that has no action id, a false win). ``drawn``: the tile
        the player just drew (the dealer's first tile too: a draw on Botzone)."""
        mask = rp.mask[0].astype(bool)
        if no_kong:
            mask[A_OWN_KONG:A_OWN_KONG + 34] = False
        if no_claim:
            mask[A_CHOW:A_KONG + 1] = False
        pol = self.policy
        if isinstance(pol, str):
            out = np.zeros(1, np.int64)
            codes = np.full((1, 4), _chinese.BUILTIN[pol], np.intc)
            rp.core.expert(codes, out, 1)
            a = int(out[0])
            if not mask[a]:                        # the judge does not allow it: the nearest it does
                if A_CHOW <= a <= A_KONG:
                    return A_PASS
                return drawn if drawn >= 0 and mask[drawn] else int(np.flatnonzero(mask[:34])[0])
            return a
        if isinstance(pol, BatchPolicy):
            from ..game.batch import _takes_scalars

            kw = {"scalars": rp.scal.copy()} if _takes_scalars(pol) else {}
            got = np.asarray(pol.act(rp.obs.copy(), mask[None, :].copy(), rp.seat.copy(), **kw))
            if got.shape != (1,) or got.dtype.kind not in "iu":
                raise TypeError(f"{type(pol).__name__}.act must return 1 integer action id; got shape {got.shape}")
            a = int(got[0])
            if not (0 <= a < mask.shape[0] and mask[a]):
                raise IllegalActionError(f"{type(pol).__name__}: action {a} is not legal here "
                                         f"(legal: {np.flatnonzero(mask).tolist()})")
            return a
        return self._ask_policy(rp, me, no_kong, no_claim, drawn)

    def _ask_policy(self, rp: Replay, me: int, no_kong: bool, no_claim: bool, drawn: int):
        seat, what, tile, options = rp.core.request(0)
        if no_kong:
            options = [c for c in options if c // 1000 not in (2, 3)] if what == ASK["own_turn"] else options
        if no_claim and what == ASK["claim"]:
            options = [c for c in options if c in (0, _C_WIN)]
        bridge = _chinese.Bridge([self.policy] * 4, rp.rules)
        v = dict(rp.core.view(0, me), scores=(0, 0, 0, 0))
        if drawn >= 0:
            v["drawn"] = drawn
        if what == ASK["own_turn"] and not options:
            what = ASK["discard"]
        ans = bridge.ask(v, what, tile, options)
        if ans == _chinese._kernel.FALSE_WIN_ANSWER:
            return "HU"                             # a false win: the judge decides (WH)
        if what == ASK["discard"]:
            return int(ans)
        if what == ASK["own_turn"]:
            if ans < 0:
                return int(bridge.ask(v, ASK["discard"], -1, []))
            kind, k = divmod(options[ans], 1000)
            return A_WIN if kind == 1 else A_OWN_KONG + k
        code = options[ans]
        if code == 0:
            return A_PASS
        if code == _C_WIN:
            return A_WIN
        if code == _C_KONG:
            return A_KONG
        if code == _C_PUNG:
            return A_PUNG
        return A_CHOW + (tile - (code - _C_CHOW))


def _replay(hand, last_tile: bool, derived: bool) -> Replay:
    """The hand on the engine, its live wall ending now when the judge counts the last tile."""
    return Replay(hand, derived=derived, last_tile=last_tile)
