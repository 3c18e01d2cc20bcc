"""A Botzone hand played again on mjfast's engine: scripted walls and scripted answers.

The engine plays one wall, dealer 14 tiles, replacements from the back; a Botzone hand is
four walls of the players' own. Nothing of that matters to a replay: every tile a player
drew is put where mjfast's engine draws it (the deal from the front, the dealer's 14th tile
in its deal, later draws from the front, replacements after a kong or a flower from the
back), and every question the engine asks is answered with what the hand did. Tiles a player
did not see (the others' draws, a concealed kong's tile) are filled in: each tile another
player discarded or melded is put into one of its own earlier draws (or its deal), the rest
with the tiles nobody saw.

The prevalent wind of the hand is mjfast's rule (hand ``h`` has the wind ``h // 4``): a hand
with prevalent wind ``q`` is hand ``4q`` of a game whose first ``4q`` hands end at once (each
dealer wins with the same seven pairs on its first turn, so every score is back to 0).
Player ``p`` sits at seat ``p`` (hand ``4q`` is dealt by seat 0).

Used by the bot (:mod:`._bot`, which stops at the question it must answer) and by the log
converter (:mod:`._logs`, which plays to the end and reads the engine's verdict).
"""
from __future__ import annotations

import numpy as np

from .. import _core
from .. import rules as _rules
from .._kernels import engine as _engine
from ..game import chinese as _chinese
from . import _tiles
from ._hand import ANGANG, BUGANG, BUHUA, CHI, DRAW, GANG, HU, PENG, PLAY, EventReader, Hand

EXTERNAL = _engine.POLICY_CODES["external"]
ST = _engine.STATUS
ASK = _engine.ASK
A_CHOW, A_PUNG, A_KONG, A_OWN_KONG, A_WIN, A_PASS = 34, 37, 38, 39, 73, 74
_DUMMY = [0, 0, 1, 1, 9, 9, 10, 10, 18, 18, 19, 19, 33, 33]      # seven pairs (no wind: every dealer scores alike)
LOG_CAPACITY = 8192


class ScriptError(ValueError):
    """The hand cannot be played on the engine (it contradicts itself or mjfast's rules)."""


class FalseWin(ScriptError):
    """The hand's ``Hu`` (action ``action`` by ``player``) is not a win on mjfast's engine."""

    def __init__(self, action: int, player: int):
        super().__init__(f"action {action}: player {player}'s Hu is not a win on mjfast's engine")
        self.action, self.player = action, player


def _k(name: str) -> int:
    return _tiles.kind(name)


# tile codes of the layout: kinds 0-33, the bonus tiles 34-41 (tile id 136-143), -1 unknown
_CODE: dict = dict(_tiles.KIND_OF)
_CODE.update({name: 34 + tid - 136 for name, tid in _tiles.BONUS_ID.items()})
_CODE[None] = -1
_NAME = _tiles.KIND_NAMES + tuple(_tiles.BONUS_NAMES)
_FREE = -2                                         # a place of the wall not given a tile yet
_KIND_CODES = (PLAY, CHI, PENG, GANG, ANGANG, BUGANG)


class Layout:
    """Where each tile of the hand goes in mjfast's wall, the unknown tiles filled in."""

    def __init__(self, hand: Hand, n_tiles: int):
        self.hand = hand
        self.n = n_tiles
        self.pos: list = [_FREE] * n_tiles           # tile codes (_FREE: still free)
        self.front = 53
        self.back = n_tiles - 1
        self.slots: list = [[], [], [], []]           # per player: (time, position) of unknown tiles received
        self.lead = 0                                 # actions the deal covers (the dealer's flowers and 14th tile)
        self.kong_kind: dict = {}                     # action index -> kind chosen for an unknown concealed kong
        code = _CODE
        try:
            self._codes = [code[a.tile] for a in hand.actions]
        except KeyError:
            self._codes = [_code(a.tile) for a in hand.actions]
        self._place_deal()
        self._place_draws()

    # -- where the tiles go
    def _take(self, from_back: bool) -> int:
        if self.front > self.back:
            raise ScriptError("the hand draws more tiles than a wall holds")
        if from_back:
            self.back -= 1
            return self.back + 1
        self.front += 1
        return self.front - 1

    def _put(self, player: int, time: int, at: int, tile: int) -> None:
        if tile < 0:
            self.slots[player].append((time, at))
        else:
            self.pos[at] = tile

    def _place_deal(self) -> None:
        h = self.hand
        acts = h.actions
        codes = self._codes
        lead_flowers = []
        i = 0
        while i < len(acts) and acts[i].kind == BUHUA and acts[i].player == 0:
            lead_flowers.append(codes[i])
            i += 1
        if i >= len(acts) or acts[i].kind != DRAW or acts[i].player != 0:
            raise ScriptError("the dealer's first draw is missing")
        first = codes[i]
        self.lead = i + 1
        starts = (0, 14, 27, 40)
        deal_back: list = []
        for p in range(4):
            deal = [_code(t) for t in h.deals[p]]
            flowers = [t for t in deal if t >= 34]
            plain = [t for t in deal if t < 34]
            if len(plain) != 13:
                raise ScriptError(f"player {p}'s deal holds {len(plain)} tiles that are not flowers, not 13")
            if p == 0:
                flowers += lead_flowers
                plain = plain + [first]
            size = 14 if p == 0 else 13
            if len(flowers) > size:
                raise ScriptError(f"player {p} has more flowers in the deal than mjfast's deal can replace")
            front = flowers + plain[:size - len(flowers)]
            for j, t in enumerate(front):
                self._put(p, -1, starts[p] + j, t)
            deal_back.append((p, plain[size - len(flowers):]))
        for p, rest in deal_back:
            for t in rest:
                self._put(p, -1, self._take(True), t)

    def _place_draws(self) -> None:
        from_back = [False] * 4
        codes = self._codes
        for i, a in enumerate(self.hand.actions):
            if i < self.lead:
                continue
            k = a.kind
            if k == DRAW or k == BUHUA:
                self._put(a.player, i, self._take(from_back[a.player]), codes[i])
                from_back[a.player] = k == BUHUA
            elif k in (GANG, ANGANG, BUGANG):
                from_back[a.player] = True

    # -- the unknown tiles
    def fill(self) -> None:
        """Give every free place a tile: each other player's discarded and melded tiles go into
        its earlier unknown draws, the rest are the tiles nobody saw."""
        pool = [4] * 34
        flowers_left = set(range(34, 42)) if self.n == 144 else set()
        for t in self.pos:
            if t >= 0:
                self._use(pool, flowers_left, t)
        needs = self._needs()
        pos = self.pos
        for p in range(4):
            free = sorted(self.slots[p])
            if not free:
                continue
            want = sorted(needs[p])
            for k, (time, kind) in enumerate(want):
                # the earliest unknown tile not used yet (all later needs may use the later ones)
                if k >= len(free) or free[k][0] >= time:
                    raise ScriptError(f"player {p} melds or discards {_tiles.KIND_NAMES[kind]} (action {time}) "
                                      "without enough tiles drawn before it")
                pos[free[k][1]] = kind
                pool[kind] -= 1
                if pool[kind] < 0:
                    raise ScriptError(f"more than four {_tiles.KIND_NAMES[kind]} in the hand")
            self.slots[p] = free[len(want):]
        rest = [k for k in range(34) for _ in range(pool[k])]
        rest.reverse()
        for p in range(4):
            for _, at in self.slots[p]:
                if not rest:
                    raise ScriptError("not enough unseen tiles to fill the players' hidden tiles")
                pos[at] = rest.pop()
            self.slots[p] = []
        flowers = sorted(flowers_left, key=_NAME.__getitem__)       # (by Botzone name: the last first)
        rest += [-1] * len(flowers)
        for at in range(self.n):
            if pos[at] == _FREE:
                if not rest:
                    raise ScriptError("the wall's tiles do not add up")
                k = rest.pop()
                pos[at] = k if k >= 0 else flowers.pop()
        if rest:
            raise ScriptError("the wall's tiles do not add up")

    def _use(self, pool, flowers_left, t: int) -> None:
        if t >= 34:
            if t not in flowers_left:
                raise ScriptError(f"the flower {_NAME[t]} appears twice (or in a hand without flowers)")
            flowers_left.discard(t)
            return
        pool[t] -= 1
        if pool[t] < 0:
            raise ScriptError(f"more than four {_NAME[t]} in the hand")

    def _needs(self) -> list:
        """Per player whose tiles are unknown: (action index, kind) of each tile it must hold."""
        h = self.hand
        codes = self._codes
        unknown = [bool(self.slots[p]) for p in range(4)]
        seen = [0] * 42
        for t in self.pos:
            if t >= 0:
                seen[t] += 1
        needs: list = [[], [], [], []]
        last = None
        for i, a in enumerate(h.actions):
            k = a.kind
            if k not in _KIND_CODES:
                continue
            p, t = a.player, codes[i]
            if t >= 34:
                raise ValueError(f"{_NAME[t]!r} is not a Botzone tile kind (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3)")
            need: list = []
            if k == PLAY:
                need = [t]
                last = t
            elif k == CHI:
                need = [t - 1, t, t + 1]
                if last is None or last not in need:
                    raise ScriptError(f"action {i}: a chow around {a.tile} cannot take the discard "
                                      f"{'(none)' if last is None else _tiles.KIND_NAMES[last]}")
                need.remove(last)
            elif k == PENG:
                need = [last, last]
            elif k == GANG:
                need = [last] * 3
            elif k == BUGANG:
                need = [t]
                last = t
            elif k == ANGANG:
                need = [t] * 4 if t >= 0 else []
            if unknown[p]:
                needs[p] += [(i, k) for k in need]
                for k in need:
                    seen[k] += 1
        for i, a in enumerate(h.actions):             # hidden concealed kongs: a kind nobody saw
            if a.kind == ANGANG and a.tile is None:
                free = [k for k in range(34) if seen[k] == 0 and k not in self.kong_kind.values()]
                if not free:
                    raise ScriptError(f"action {i}: no kind is left for player {a.player}'s concealed kong")
                k = free[-1]
                self.kong_kind[i] = k
                seen[k] += 4
                if unknown[a.player]:
                    needs[a.player] += [(i, k)] * 4
        return needs

    def ids(self) -> np.ndarray:
        """The wall as mjfast tile ids."""
        next_id = list(range(0, 136, 4)) + list(range(136, 144))
        out = bytearray(self.n)
        for at, t in enumerate(self.pos):
            out[at] = next_id[t]
            next_id[t] += 1
        return np.frombuffer(bytes(out), np.uint8).copy()


def _code(name) -> int:
    """The layout's code of a Botzone tile name (None: -1); ValueError for anything else."""
    c = _CODE.get(name)
    if c is None:
        _tiles.kind(name)                          # (its ValueError names the tile)
        raise ValueError(f"{name!r} is not a Botzone tile")
    return c


def dummy_wall(n_tiles: int, dealer: int) -> np.ndarray:
    """A wall whose dealer wins at once with seven pairs (the hands before a prevalent wind)."""
    ids = list(range(136))
    first = []
    for k in _DUMMY:
        first.append(ids.pop(ids.index(next(i for i in ids if i >> 2 == k))))
    others = ids[:39]
    rest = ids[39:] + list(range(136, n_tiles))
    return np.array(first + others + rest, np.uint8)


class BotzoneLayout(Layout):
    """Where each tile goes on the judge's own walls (``mcr-botzone``): player p's tiles, deal
    and draws (flowers and kong replacements included) in the order it received them, go to
    ``wall[part p + part - 1]``, ``wall[part p + part - 2]``, ... (part = n_tiles / 4): every
    player draws from the end of its own part, as the judge does."""

    def _own(self, p: int) -> int:
        if self.next[p] < p * (self.n // 4):
            raise ScriptError(f"player {p} receives more tiles than its wall holds")
        self.next[p] -= 1
        return self.next[p] + 1

    def _place_deal(self) -> None:
        part = self.n // 4
        self.next = [part * p + part - 1 for p in range(4)]
        self.lead = 0
        for p in range(4):
            deal = [_code(t) for t in self.hand.deals[p]]          # (layout codes: flowers >= 34)
            if sum(1 for t in deal if t < 34) != 13:
                raise ScriptError(f"player {p}'s deal does not hold 13 tiles that are not flowers")
            for t in deal:
                self._put(p, -1, self._own(p), t)

    def _place_draws(self) -> None:
        codes = self._codes
        for i, a in enumerate(self.hand.actions):
            if a.kind in (DRAW, BUHUA):
                self._put(a.player, i, self._own(a.player), codes[i])


class Replay:
    """The hand on mjfast's engine (``mcr``), all four seats answered by the script.

    ``dead_wall``: tiles kept at the back (the live wall then ends that much sooner);
    ``last_tile``: keep every tile the hand did not draw at the back, so that the live wall
    ends with the hand's last draw. ``rules_options``: more options of the ``mcr`` rule set.
    """

    def __init__(self, hand: Hand, *, dead_wall: int = 0, last_tile: bool = False, derived: bool = False,
                 rules: str = "mcr", **rules_options):
        flowers = any(_tiles.is_flower(t) for d in hand.deals for t in d if t is not None) or any(
            a.kind == BUHUA for a in hand.actions)
        self.botzone = rules == "mcr-botzone"
        self.hand = hand
        if self.botzone:        # the judge's own walls, seat 0 dealing, the match's prevalent wind
            self.rules = _rules.get("mcr-botzone", flowers=flowers, quan=hand.quan, **rules_options)
            self.layout: Layout = BotzoneLayout(hand, self.rules.n_tiles)
            self.layout.fill()
            walls = [self.layout.ids()]
            self.first_hand = 0
            kern = self.rules.kernel()
        else:
            self.rules = _rules.get("mcr", flowers=flowers, **rules_options)
            self.layout = Layout(hand, self.rules.n_tiles)
            self.layout.fill()
            q = hand.quan
            walls = [dummy_wall(self.rules.n_tiles, h & 3) for h in range(4 * q)] + [self.layout.ids()]
            self.first_hand = 4 * q
            kern = self.rules.kernel()
            kern["dead_wall"] = int(self.rules.n_tiles - self.layout.front if last_tile else dead_wall)
        self.walls = np.stack(walls)
        _core.ensure_tables()
        self.core = _chinese.ENGINE.vec(kern, 1, True, bool(derived), False)
        self.core.set_log(0, LOG_CAPACITY)       # (the replay follows the engine through its events)
        self.core.start(np.zeros(1, np.int64), np.zeros(1, np.uint64), 0, 0, np.full((1, 4), EXTERNAL, np.intc),
                        True, self.walls, np.full((len(walls), 2), 2, np.int32))
        n = self.core.n_planes
        self.obs = np.zeros((1, n, self.core.kinds), np.uint8)
        self.scal = np.zeros((1, self.core.n_scalars), np.float32)
        self.mask = np.zeros((1, self.core.n_actions), np.uint8)
        self.seat = np.zeros(1, np.int8)
        self.rew = np.zeros((1, 4), np.float32)
        self.status = np.zeros(1, np.uint8)
        self.hand_no = np.zeros(1, np.int32)
        self.reader: EventReader | None = None
        self.read_upto = 0
        self.lead = 0                # actions of the engine's reader its deal covers
        self.act = np.full(1, -1, np.int64)
        self.steps = 0

    # -- stepping
    def step(self, action: int = -1) -> int:
        self.act[0] = action
        self.core.step(self.act, self.obs, self.scal, self.mask, self.seat, self.rew, self.status, 1)
        self.steps += 1
        return int(self.status[0])

    def in_real_hand(self) -> bool:
        self.core.hand_numbers(self.hand_no)
        return int(self.hand_no[0]) >= self.first_hand

    def performed(self) -> int:
        """The hand's actions the engine has played (its events read into a Hand)."""
        ev = self.core.events(0)
        if self.reader is None:
            for j in range(self.read_upto, len(ev)):
                if ev[j, 0] == _EV_HAND and ev[j, 1] == self.first_hand:
                    self.reader = EventReader(self.first_hand, int(ev[j, 2]))
                    self.read_upto = j
                    break
            else:
                self.read_upto = len(ev)
                return 0
        for row in ev[self.read_upto:].tolist():
            typ, hno, seat, a, b = row
            if typ == _EV_HAND:
                continue
            self.reader.feed(typ, seat, a, b)
        self.read_upto = len(ev)
        if self.reader.in_deal:
            return 0
        got = self.reader.hand.actions
        if not self.lead and not self.botzone:
            j = 0
            while j < len(got) and got[j].kind == BUHUA and got[j].player == 0:
                j += 1
            self.lead = j + 1
        return len(got) - self.lead

    def check(self, done: int) -> None:
        """The engine's actions so far agree with the hand's."""
        assert self.reader is not None
        got = self.reader.hand.actions[self.lead:self.lead + done]
        want = self.hand.actions[self.layout.lead:self.layout.lead + done]
        for j, (g, w) in enumerate(zip(got, want)):
            if g.kind != w.kind or g.player != w.player or (w.tile is not None and g.tile != w.tile):
                raise ScriptError(f"action {self.layout.lead + j} ({w.kind} by player {w.player}"
                                  f"{' ' + w.tile if w.tile else ''}) is {g.kind} by player {g.player}"
                                  f"{' ' + str(g.tile) if g.tile else ''} on mjfast's engine")

    def answer(self, seat: int, what: int, tile: int, done: int) -> int | None:
        """The hand's answer to the engine's question (None: the hand has no more actions)."""
        acts = self.hand.actions
        i = self.layout.lead + done
        nxt = acts[i] if i < len(acts) else None
        if what in (ASK["own_turn"], ASK["discard"]):
            if nxt is None:
                return None
            if nxt.player != seat or nxt.kind not in (PLAY, ANGANG, BUGANG, HU):
                raise ScriptError(f"mjfast's engine asks player {seat} to play, but action {i} is {nxt.kind} by "
                                  f"player {nxt.player}")
            if nxt.kind == PLAY:
                return _k(nxt.tile)
            if nxt.kind == HU:
                return A_WIN
            k = self.layout.kong_kind.get(i) if nxt.tile is None else _k(nxt.tile)
            if k is None:
                raise ScriptError(f"action {i}: a concealed kong whose tile is not known")
            return A_OWN_KONG + k
        if what == ASK["claim"]:
            if nxt is None:
                return None
            if nxt.player != seat:
                return A_PASS
            if nxt.kind == HU:
                return A_WIN
            if nxt.kind == PENG:
                return A_PUNG
            if nxt.kind == GANG:
                return A_KONG
            if nxt.kind == CHI:
                return A_CHOW + (tile - (_k(nxt.tile) - 1))
            return A_PASS
        raise ScriptError(f"mjfast's engine asks a question Botzone has no answer for ({what})")

    def run(self, stop_at_end: bool = True) -> int:
        """Play the hand's actions. Returns the status: at a question once the actions are
        used up (``stop_at_end``), or at the end of the game."""
        st = self.step(-1)
        while True:
            if st == ST["game_end"]:
                self.check(self.performed())
                return st
            if st == ST["hand_end"]:
                st = self.step(-1)
                continue
            if st != ST["decide"]:
                raise ScriptError("mjfast's engine refused an answer of the hand")
            seat, what, tile, _ = self.core.request(0)
            if not self.in_real_hand():
                if not self.mask[0, A_WIN]:
                    raise ScriptError("internal: a dummy hand's dealer cannot win")
                st = self.step(A_WIN)
                continue
            done = self.performed()
            self.check(done)
            a = self.answer(seat, what, tile, done)
            if a is None and not stop_at_end and what == ASK["claim"]:
                a = A_PASS              # the hand ended with that discard passed (an exhaustive draw)
            if a is None:
                if stop_at_end:
                    return st
                raise ScriptError(f"the hand ends after action {len(self.hand.actions) - 1}, but mjfast's engine "
                                  f"goes on (it asks player {seat})")
            if not self.mask[0, a]:
                if a == A_WIN:
                    raise FalseWin(self.layout.lead + done, seat)
                raise ScriptError(f"action {self.layout.lead + done} of the hand is not legal on mjfast's engine "
                                  f"(action id {a})")
            st = self.step(a)

    def events(self) -> np.ndarray:
        """The engine's events of the hand (the hands before it left out)."""
        ev = self.core.events(0)
        start = next(j for j in range(len(ev)) if ev[j, 0] == _EV_HAND and ev[j, 1] == self.first_hand)
        out = ev[start:].copy()
        out[:, 1] = 0
        return out


_EV_HAND = next(c for c, n in _engine.EVENTS.items() if n == "hand")
