"""An independent referee for mjfast game logs (used by test_sim_invariants.py).

``check_log(log)`` replays a :class:`mjfast.GameLog` from its header alone (each hand's wall
order ``wall_ids``, the dice, the rule options) and checks every event against the rules in
``docs/rules.md`` as the engine documents them:

* the deal: the dealer of hand h is seat h % 4; dealer 14 tiles, then 13 each in turn order,
  all from the front of the wall; bonus tiles (flower sets only) set aside at once and replaced
  from the back after the deal, dealer first, chains included;
* every draw is the next tile at the front and only from the live wall (``dead_wall`` tiles at
  the back are never drawn live; replacements use them up first, or with
  ``refill_dead_wall=True`` each one moves the live wall's end); every replacement (bonus tile,
  kong) is the next tile at the back; an added kong uses the tile just drawn under
  ``added_kong="drawn"``; an exhaustive draw happens exactly when a live draw is due and the live wall is empty
  (or a kong finds no tile left for its replacement);
* every discard is held by the player on turn, who holds 14 tiles (kongs counting 3);
* claims: chow only by the seat after the discarder, with the two other tiles held; pung with
  two held; exposed kong with three held (then a replacement); concealed kong with four held;
  added kong only on the player's own turn with an exposed pung and the tile in hand; never a
  claim by a player with a declared ready hand;
* every win is a complete hand (``tests/oracles/reference.py.is_winning`` on the concealed tiles plus
  the claimed tile, with the rule set's forms); under the ready rule only after a declaration,
  which itself needs a ready (tenpai) hand; after it, every drawn tile that does not win is
  discarded;
* with built-in policies only (``builtin=True``): a discard that some players can win on is
  won by the first of them in turn order after the discarder, and a complete hand after a draw
  is always declared (built-in policies never pass a win);
* tile conservation after every event (all 136/144 tiles are in the wall, a hand, a meld, on
  the table or set aside), and kind by kind at the end of every hand;
* scores: four score events after each win (none after an exhaustive draw), the payments of
  the ``payment`` option, each hand summing to zero, running totals, and the header's final
  scores.

It returns a :class:`Stats` of what it saw so tests can check the referee was exercised.
"""
from __future__ import annotations

import collections
import dataclasses

from mjfast import tiles
from oracles import reference as REF

FIRST_BONUS = 136


class RefereeError(AssertionError):
    pass


def kind_of(name: str) -> int:
    return tiles.tile_index(name)


def chow_start(set_text: str) -> int:
    """'345m' -> kind of 3m."""
    return kind_of(set_text[0] + set_text[-1])


@dataclasses.dataclass
class Stats:
    hands: int = 0
    events: int = 0
    wins: int = 0
    self_drawn: int = 0
    discard_wins: int = 0
    exhaustive: int = 0
    priority_checks: int = 0       # discards somebody could win on
    contested_wins: int = 0        # discards two or more players could win on
    kinds: collections.Counter = dataclasses.field(default_factory=collections.Counter)

    def __iadd__(self, other: Stats) -> Stats:
        for f in ("hands", "events", "wins", "self_drawn", "discard_wins", "exhaustive", "priority_checks",
                  "contested_wins"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.kinds.update(other.kinds)
        return self


class _Hand:
    """The referee's state of one hand."""

    def __init__(self, ref: Referee, h: int, wall: list, dice: list):
        self.ref = ref
        self.h = h
        self.wall = list(wall)
        self.n = len(wall)
        self.dice = dice
        self.front = 0
        self.back = self.n - 1
        dw = ref.opts["dead_wall"]
        self.reserve = 2 * (dice[0] + dice[1]) if dw == "dice" else int(dw)
        # the live wall is wall[front .. live_end]. Seed 000's reading (refill_dead_wall=False):
        # replacements use up the reserved dead wall first and the live wall keeps its end until
        # the dead wall is empty; with refill_dead_wall=True the dead wall keeps its size, so
        # every replacement moves the live wall's end by one tile.
        self.refill = bool(ref.opts.get("refill_dead_wall", False))
        self.live_end = self.n - 1 - self.reserve
        self.conc = [[0] * 34 for _ in range(4)]
        self.melds = [[] for _ in range(4)]           # (type, kind) ; chow: kind = start
        self.pung_exposed = [set() for _ in range(4)]
        self.table = [0] * 34                          # unclaimed discards
        self.aside = [[] for _ in range(4)]            # bonus ids set aside
        self.ready = [False] * 4
        self.last_drawn = [None] * 4                   # kind drawn on the current turn (None after a claim)
        self.dealer = h % 4
        self.score_events = 0

    # -- helpers ---------------------------------------------------------------------------
    def fail(self, msg: str, e=None):
        raise RefereeError(f"hand {self.h}: {msg}" + (f" at event {e}" if e is not None else ""))

    def live_left(self) -> int:
        return min(self.live_end, self.back) - self.front + 1

    def size(self, s: int) -> int:
        return sum(self.conc[s]) + 3 * len(self.melds[s])

    def tiles_accounted(self) -> int:
        n = self.back - self.front + 1 + sum(self.table)
        for s in range(4):
            n += sum(self.conc[s]) + len(self.aside[s])
            n += sum(4 if t in ("kong", "concealed_kong", "added_kong") else 3 for t, _ in self.melds[s])
        return n

    def check_conservation(self, e):
        if self.tiles_accounted() != self.n:
            self.fail(f"tile conservation: {self.tiles_accounted()} tiles accounted for, not {self.n}", e)

    def check_kinds(self):
        kinds = [0] * 34
        bonus = []
        for i in range(self.front, self.back + 1):
            t = self.wall[i]
            if t >= FIRST_BONUS:
                bonus.append(t)
            else:
                kinds[t // 4] += 1
        for s in range(4):
            bonus += self.aside[s]
            for k in range(34):
                kinds[k] += self.conc[s][k]
            for typ, k in self.melds[s]:
                if typ == "chow":
                    for j in range(3):
                        kinds[k + j] += 1
                else:
                    kinds[k] += 4 if typ != "pung" else 3
        for k in range(34):
            kinds[k] += self.table[k]
        if kinds != [4] * 34:
            self.fail(f"kind conservation broken: {kinds}")
        if sorted(bonus) != list(range(FIRST_BONUS, self.n)):
            self.fail(f"bonus tiles lost or duplicated: {sorted(bonus)}")

    def complete(self, counts) -> bool:
        return self.ref.complete(counts)

    def can_win_on(self, s: int, k: int) -> bool:
        if self.conc[s][k] >= 4:
            return False
        if self.ref.opts["ready_declaration"] and not self.ready[s]:
            return False
        c = list(self.conc[s])
        c[k] += 1
        return self.complete(c)

    def can_win_self(self, s: int) -> bool:
        if self.ref.opts["ready_declaration"] and not self.ready[s]:
            return False
        return self.complete(self.conc[s])

    def tenpai(self, s: int) -> bool:
        """Some tile completes the hand (candidates: kinds held or within two ranks of a held
        tile, plus the terminals and honors for the special forms)."""
        c = list(self.conc[s])
        cand = set(REF.ORPHANS) if self.ref._forms != ["standard"] else set()
        for k in range(34):
            if c[k]:
                cand.add(k)
                if k < 27:
                    cand.update(j for j in range(k - 2, k + 3) if j // 9 == k // 9 and 0 <= j)
        for k in sorted(cand):
            if c[k] < 4:
                c[k] += 1
                if self.complete(c):
                    return True
                c[k] -= 1
        return False

    def take_front(self, e) -> int:
        if self.front > self.back:
            self.fail("draw from an empty wall", e)
        t = self.wall[self.front]
        if e["id"] != t:
            self.fail(f"expected tile id {t} from the front (index {self.front}), got {e['id']}", e)
        if e["tile"] != _tile_name_of_id(t):
            self.fail(f"tile name {e['tile']} does not match id {t}", e)
        self.front += 1
        return t

    def take_back(self, e) -> int:
        if self.back < self.front:
            self.fail("replacement from an empty wall", e)
        t = self.wall[self.back]
        if e["id"] != t:
            self.fail(f"expected tile id {t} from the back (index {self.back}), got {e['id']}", e)
        if e["tile"] != _tile_name_of_id(t):
            self.fail(f"tile name {e['tile']} does not match id {t}", e)
        self.back -= 1
        if self.refill:
            self.live_end -= 1
        return t

    # -- the hand --------------------------------------------------------------------------
    def run(self, events: list, stats: Stats):
        ref = self.ref
        flowers = ref.opts["flowers"]
        ev = iter(enumerate(events))
        pos = 0

        def nxt():
            nonlocal pos
            try:
                i, e = next(ev)
            except StopIteration:
                self.fail("log ends in the middle of the hand")
            pos = i
            stats.events += 1
            stats.kinds[e["type"]] += 1
            if e["hand"] != self.h:
                self.fail(f"event of hand {e['hand']} inside hand {self.h}", e)
            return e

        e = nxt()
        if e["type"] != "hand" or e["seat"] != self.dealer or e["dealer"] != self.dealer:
            self.fail(f"hand must start with a 'hand' event of dealer {self.dealer}", e)
        if list(e["dice"]) != list(self.dice):
            self.fail(f"dice {e['dice']} differ from the header's {self.dice}", e)

        # deal: dealer 14, then 13 each in turn order, from the front
        pending = [0] * 4
        for q in range(4):
            seat = (self.dealer + q) % 4
            for _ in range(14 if q == 0 else 13):
                e = nxt()
                if e["type"] != "deal" or e["seat"] != seat:
                    self.fail(f"expected a deal to seat {seat}", e)
                t = self.take_front(e)
                if t >= FIRST_BONUS:
                    if not flowers:
                        self.fail("bonus tile in a 136-tile game", e)
                    e2 = nxt()
                    if e2["type"] != "bonus" or e2["seat"] != seat or e2["id"] != t:
                        self.fail("a dealt bonus tile must be set aside at once", e2)
                    self.aside[seat].append(t)
                    pending[seat] += 1
                else:
                    self.conc[seat][t // 4] += 1
                self.check_conservation(e)
        # bonus replacements after the deal: dealer first, chains included
        for q in range(4):
            seat = (self.dealer + q) % 4
            while pending[seat]:
                e = nxt()
                if e["seat"] != seat or e["type"] not in ("bonus", "replacement"):
                    self.fail(f"expected the deal replacement of seat {seat}", e)
                t = self.take_back(e)
                if e["type"] == "bonus":
                    if t < FIRST_BONUS:
                        self.fail("'bonus' event for a standard tile", e)
                    self.aside[seat].append(t)
                else:
                    if t >= FIRST_BONUS:
                        self.fail("a bonus tile was kept as a replacement", e)
                    self.conc[seat][t // 4] += 1
                    pending[seat] -= 1
                self.check_conservation(e)
        for s in range(4):
            want = 14 if s == self.dealer else 13
            if sum(self.conc[s]) != want:
                self.fail(f"seat {s} holds {sum(self.conc[s])} tiles after the deal, not {want}")

        # play
        state = "own"                 # own | claimed | replace | after_discard
        cur = self.dealer
        entered_own = True
        while True:
            if state == "own" and entered_own:
                entered_own = False
                if self.size(cur) != 14:
                    self.fail(f"seat {cur} on turn with {self.size(cur)} tiles")
                must_win = ref.builtin and self.can_win_self(cur)
            e = nxt()
            typ, s = e["type"], e["seat"]

            if state == "replace":
                if typ == "exhaustive_draw":
                    if s != cur or self.back >= self.front:
                        self.fail("exhaustive draw while a replacement tile was left", e)
                    stats.exhaustive += 1
                    break
                if s != cur or typ not in ("bonus", "replacement"):
                    self.fail(f"expected a replacement for seat {cur}", e)
                t = self.take_back(e)
                if typ == "bonus":
                    if t < FIRST_BONUS or not flowers:
                        self.fail("bad bonus replacement", e)
                    self.aside[s].append(t)
                else:
                    if t >= FIRST_BONUS:
                        self.fail("a bonus tile was kept as a replacement", e)
                    self.conc[s][t // 4] += 1
                    self.last_drawn[s] = t // 4
                    state, entered_own = "own", True
                self.check_conservation(e)
                continue

            if state in ("own", "claimed"):
                if s != cur:
                    self.fail(f"seat {s} acts on seat {cur}'s turn", e)
                if state == "own" and must_win and typ != "win":
                    self.fail(f"seat {cur} holds a complete hand after a draw but a built-in policy did not win", e)
                if typ == "win":
                    if state != "own" or not e["self_drawn"] or e["discarder"] is not None:
                        self.fail("a self-drawn win only on the own turn after a draw", e)
                    if ref.opts["ready_declaration"] and not self.ready[s]:
                        self.fail("win without a ready declaration (Stop rule)", e)
                    if not self.complete(self.conc[s]):
                        self.fail(f"self-drawn win with an incomplete hand {tiles.format_hand(self.conc[s])}", e)
                    stats.self_drawn += 1
                    self.settle(events, nxt, s, None, stats)
                    break
                if typ in ("concealed_kong", "added_kong"):
                    if state != "own":
                        self.fail(f"{typ} after a chow or pung claim", e)
                    if self.ready[s]:
                        self.fail(f"{typ} by a player with a declared ready hand", e)
                    k = kind_of(e["tile"])
                    if typ == "concealed_kong":
                        if self.conc[s][k] != 4:
                            self.fail(f"concealed kong of {e['tile']} with {self.conc[s][k]} held", e)
                        self.conc[s][k] -= 4
                        self.melds[s].append(("concealed_kong", k))
                    else:
                        if k not in self.pung_exposed[s] or self.conc[s][k] < 1:
                            self.fail(f"added kong of {e['tile']} without an exposed pung and the tile", e)
                        if ref.opts.get("added_kong", "any") == "drawn" and self.last_drawn[s] != k:
                            self.fail(f"added kong of {e['tile']}, not the tile just drawn "
                                      f"({self.last_drawn[s]}), under added_kong='drawn'", e)
                        self.conc[s][k] -= 1
                        self.pung_exposed[s].discard(k)
                        i = self.melds[s].index(("pung", k))
                        self.melds[s][i] = ("added_kong", k)
                    state = "replace"
                    self.check_conservation(e)
                    continue
                if typ != "discard":
                    self.fail(f"unexpected {typ} on seat {cur}'s turn", e)
                k = kind_of(e["tile"])
                if self.conc[s][k] < 1:
                    self.fail(f"discard of {e['tile']} not held: {tiles.format_hand(self.conc[s])}", e)
                if self.ready[s] and state == "own" and self.last_drawn[s] is not None and k != self.last_drawn[s]:
                    self.fail(f"ready seat {s} discarded {e['tile']}, not the drawn {tiles.tile_name(self.last_drawn[s])}", e)
                self.conc[s][k] -= 1
                self.table[k] += 1
                self.check_conservation(e)
                state = "after_discard"
                # optional ready declaration by the discarder, then claims
                e = nxt()
                typ, s2 = e["type"], e["seat"]
                if typ == "ready":
                    if not ref.opts["ready_declaration"] or s2 != s or self.ready[s]:
                        self.fail("unexpected ready declaration", e)
                    if not self.tenpai(s):
                        self.fail(f"ready declared with a hand that is not ready: {tiles.format_hand(self.conc[s])}", e)
                    self.ready[s] = True
                    e = nxt()
                elif ref.check_ready and ref.builtin and ref.opts["ready_declaration"] and not self.ready[s] \
                        and self.tenpai(s):
                    self.fail(f"built-in seat {s} is ready ({tiles.format_hand(self.conc[s])}) but did not declare", e)
                winners = [(s + i) % 4 for i in range(1, 4) if self.can_win_on((s + i) % 4, k)]
                if winners:
                    stats.priority_checks += 1
                    if len(winners) > 1:
                        stats.contested_wins += 1
                typ, s2 = e["type"], e["seat"]
                if ref.builtin and winners and (typ != "win" or s2 != winners[0]):
                    self.fail(f"seats {winners} can win on the discard {tiles.tile_name(k)} of seat {s}; "
                              f"seat {winners[0]} must win it, got {typ} by seat {s2}", e)
                discarder = s
                if typ == "win":
                    if e["self_drawn"] or e["discarder"] != discarder or s2 == discarder:
                        self.fail("bad discard win fields", e)
                    if not self.can_win_on(s2, k):
                        c = list(self.conc[s2]); c[k] += 1
                        self.fail(f"win on discard with an incomplete hand {tiles.format_hand(c)}"
                                  + (" (not ready)" if ref.opts['ready_declaration'] and not self.ready[s2] else ""), e)
                    self.table[k] -= 1
                    self.conc[s2][k] += 1
                    self.check_conservation(e)
                    stats.discard_wins += 1
                    self.settle(events, nxt, s2, discarder, stats)
                    break
                if typ in ("chow", "pung", "kong"):
                    if s2 == discarder:
                        self.fail("claim of one's own discard", e)
                    if self.ready[s2]:
                        self.fail(f"{typ} by a player with a declared ready hand", e)
                    if kind_of(e["tile"]) != k:
                        self.fail("claim of a tile that is not the last discard", e)
                    if typ == "chow":
                        if s2 != (discarder + 1) % 4:
                            self.fail(f"chow by seat {s2}, not the next seat {(discarder + 1) % 4}", e)
                        if not ref.opts.get("chow", True):
                            self.fail("chow with chow claims disabled", e)
                        st = chow_start(e["set"])
                        if not (k < 27 and st // 9 == (st + 2) // 9 and st <= k <= st + 2):
                            self.fail(f"bad chow set {e['set']} for {e['tile']}", e)
                        for j in range(3):
                            if st + j != k:
                                if self.conc[s2][st + j] < 1:
                                    self.fail(f"chow without {tiles.tile_name(st + j)} in hand", e)
                                self.conc[s2][st + j] -= 1
                        self.melds[s2].append(("chow", st))
                        state = "claimed"
                    elif typ == "pung":
                        if self.conc[s2][k] < 2:
                            self.fail(f"pung with {self.conc[s2][k]} held", e)
                        self.conc[s2][k] -= 2
                        self.melds[s2].append(("pung", k))
                        self.pung_exposed[s2].add(k)
                        state = "claimed"
                    else:
                        if not ref.opts.get("kong", True):
                            self.fail("kong with kong claims disabled", e)
                        if self.conc[s2][k] != 3:
                            self.fail(f"exposed kong with {self.conc[s2][k]} held", e)
                        self.conc[s2][k] -= 3
                        self.melds[s2].append(("kong", k))
                        state = "replace"
                    self.table[k] -= 1
                    self.last_drawn[s2] = None
                    cur = s2
                    self.check_conservation(e)
                    continue
                nxt_seat = (discarder + 1) % 4
                if s2 != nxt_seat:
                    self.fail(f"after an unclaimed discard of seat {discarder} seat {nxt_seat} must draw", e)
                if typ == "exhaustive_draw":
                    if self.live_left() > 0:
                        self.fail(f"exhaustive draw with {self.live_left()} live tiles left", e)
                    stats.exhaustive += 1
                    break
                if typ != "draw":
                    self.fail(f"unexpected {typ} after a discard", e)
                if self.live_left() <= 0:
                    self.fail(f"live draw from the dead wall (live tiles left {self.live_left()}, "
                              f"reserve {self.reserve})", e)
                t = self.take_front(e)
                cur = nxt_seat
                if t >= FIRST_BONUS:
                    if not flowers:
                        self.fail("bonus tile in a 136-tile game", e)
                    e = nxt()
                    if e["type"] != "bonus" or e["seat"] != cur or e["id"] != t:
                        self.fail("a drawn bonus tile must be set aside at once", e)
                    self.aside[cur].append(t)
                    state = "replace"
                else:
                    self.conc[cur][t // 4] += 1
                    self.last_drawn[cur] = t // 4
                    state, entered_own = "own", True
                self.check_conservation(e)
                continue
            self.fail(f"referee in unknown state {state}", e)   # pragma: no cover

        self.check_kinds()
        # nothing else may follow in this hand
        try:
            i, e = next(ev)
        except StopIteration:
            return pos + 1
        self.fail("events after the end of the hand", e)

    def settle(self, events, nxt, winner: int, discarder, stats: Stats):
        stats.wins += 1
        base = self.ref.opts["base_points"]
        payment = self.ref.opts["payment"]
        want = [0] * 4
        for s in range(4):
            if s == winner:
                continue
            if discarder is None or payment == "each":
                pay = base
            else:
                pay = 3 * base if s == discarder else 0
            want[s] -= pay
            want[winner] += pay
        for s in range(4):
            e = nxt()
            if e["type"] != "score" or e["seat"] != s:
                self.fail(f"expected the score event of seat {s}", e)
            if e["delta"] != want[s]:
                self.fail(f"seat {s} score delta {e['delta']}, expected {want[s]}", e)
            self.ref.totals[s] += e["delta"]
            if e["total"] != self.ref.totals[s]:
                self.fail(f"seat {s} running total {e['total']}, expected {self.ref.totals[s]}", e)
        if sum(want) != 0:
            self.fail("scores of a hand do not sum to zero")


def _tile_name_of_id(i: int) -> str:
    if i < FIRST_BONUS:
        return tiles.tile_name(i // 4)
    return f"f{i - FIRST_BONUS + 1}"


class Referee:
    def __init__(self, header: dict, *, builtin: bool, check_ready: bool = False):
        self.header = header
        self.opts = dict(header["options"])
        self.rules = header["rules"]
        self.builtin = builtin
        self.check_ready = check_ready
        self.totals = [0, 0, 0, 0]
        self._cache: dict = {}
        if self.rules == "mcr":
            self._forms = None
        else:
            self._forms = ["standard"] + list(self.opts.get("special_forms") or [])

    def complete(self, counts) -> bool:
        """Complete per tests/oracles/reference.py.is_winning with the rule set's forms (memoised)."""
        key = tuple(counts)
        r = self._cache.get(key)
        if r is None:
            n = sum(key)
            if n % 3 != 2:
                r = False
            elif n != 14 and not _standard_possible(key) and not (self._forms is None and n == 11):
                r = False            # below 14 tiles only the standard form exists (and under MCR
                                     # the knitted straight with one called set, at 11)
            elif self._forms is None:
                r = REF.is_winning(key, "all", "mcr")
            else:
                r = any(REF.is_winning(key, f, None) for f in self._forms
                        if (f == "standard" and _standard_possible(key)) or (f != "standard" and n == 14))
            self._cache[key] = r
        return r


def _standard_possible(h: tuple) -> bool:
    """Necessary condition for sets + one pair: every suit holds 3k tiles except one with 3k+2,
    and every honor kind 0, 2 or 3 copies (a quick filter before the reference check)."""
    twos = 0
    for a in (0, 9, 18):
        m = sum(h[a:a + 9]) % 3
        if m == 1:
            return False
        twos += m == 2
    for k in range(27, 34):
        c = h[k]
        if c == 1 or c == 4:
            return False
        twos += c == 2
    return twos == 1


def check_log(log, *, builtin: bool | None = None, check_ready: bool = False) -> Stats:
    """Referee one game log; raises RefereeError on the first violation. Returns what it saw."""
    header = log.header
    if builtin is None:
        builtin = all(p in ("random", "greedy", "defensive") for p in header["policies"])
    ref = Referee(header, builtin=builtin, check_ready=check_ready)
    walls, dice = header["wall_ids"], header["dice"]
    n_tiles = 144 if header["options"]["flowers"] else 136
    by_hand = collections.defaultdict(list)
    last = -1
    for e in log.events:
        if e["hand"] < last:
            raise RefereeError(f"hand numbers go backwards at {e}")
        last = e["hand"]
        by_hand[e["hand"]].append(e)
    if sorted(by_hand) != list(range(len(walls))):
        raise RefereeError(f"hands {sorted(by_hand)} logged for {len(walls)} walls")
    stats = Stats()
    for h in range(len(walls)):
        if len(walls[h]) != n_tiles or sorted(walls[h]) != list(range(n_tiles)):
            raise RefereeError(f"wall {h} is not a permutation of {n_tiles} tile ids")
        _Hand(ref, h, walls[h], dice[h]).run(by_hand[h], stats)
        stats.hands += 1
    if list(header["scores"]) != ref.totals:
        raise RefereeError(f"header scores {header['scores']} differ from the score events' totals {ref.totals}")
    if sum(ref.totals) != 0:
        raise RefereeError(f"final scores {ref.totals} do not sum to zero")
    return stats
