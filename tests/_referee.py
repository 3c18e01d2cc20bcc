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
  is always declared (built-in policies never pass a win; under a fan minimum both apply to
  valid wins only);
* tile conservation after every event (all 136/144 tiles are in the wall, a hand, a meld, on
  the table or set aside), and kind by kind at the end of every hand;
* scores: four score events after each win (none after an exhaustive draw), the payments of
  the ``payment`` option, each hand summing to zero, running totals, and the header's final
  scores;
* Chinese Official fans (``rules="mcr"`` with ``scoring="fan"`` or ``min_fan`` > 0): the referee
  rebuilds the fan context of every complete hand from the events alone (concealed tiles and
  declared sets, the winning tile: the discard, the robbed tile or the tile just drawn, and on
  the dealer's first turn the held kind scoring most, the first such kind on a tie;
  self-drawn; the fourth tile: the other three copies shown in discards, claimed ones included,
  and exposed sets, not concealed kongs; a kong's replacement, bonus replacements after it
  included, or a robbed added kong; the last live tile; seat wind (seat - dealer) % 4 and
  prevalent wind (hand // 4) % 4; the winner's bonus tiles) and scores it with the plain-Python
  specification ``tests/oracles/mcr_fan.py``. A win is valid only with at least ``min_fan`` fan
  without flowers; every win must be valid and is preceded by one "fan" event per fan, which
  must be exactly the oracle's fan list (names, counts, values); with built-in policies only
  valid wins must be taken (a complete hand below the minimum is played on). Payments with
  ``scoring="fan"``: self-drawn 8 + F from each other player, on a discard (or a robbed kong)
  8 + F from the discarder (the kong's owner) and 8 from the others, F the fan total with
  flowers; with ``scoring="basic"`` the flat payments above;
* robbing the kong (``scoring="fan"``): after an added kong the seats after its owner, in turn
  order, may win on the added tile before the owner's replacement (built-in policies: the first
  who validly can must); the kong is then not completed;
* false wins (Python policies only, ``false_win="penalty"``): the declarer's hand is not a
  valid win, the event carries its fan without flowers (0 when it is not complete) and
  ``min_fan``, then -30 for the declarer and +10 for each other player, and the hand ends.

It returns a :class:`Stats` of what it saw so tests can check the referee was exercised.
"""
from __future__ import annotations

import collections
import dataclasses

from mjfast import tiles
from oracles import mcr_fan as MF
from oracles import reference as REF

FIRST_BONUS = 136
#: the built-in policies' names (the header names Python policies by their ``name``)
BUILTIN_POLICIES = ("random", "greedy", "defensive", "greedy_blind")


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
    # Chinese Official fans
    fan_wins: int = 0              # wins whose fan events were checked against the oracle
    robbed_kongs: int = 0          # wins by robbing an added kong
    rob_chances: int = 0           # added kongs some player could validly rob
    replacement_wins: int = 0      # self-drawn wins on a kong's replacement tile (kong flag set)
    last_tile_wins: int = 0        # wins with no live tile left (last_of_wall)
    fourth_tile_wins: int = 0      # wins whose tile's other three copies were shown
    dealer_first_turn_wins: int = 0   # self-drawn wins on the dealer's first turn (no drawn tile)
    below_min: int = 0             # complete hands below min_fan (a win a player could not take)
    false_wins: int = 0
    kinds: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    fans: collections.Counter = dataclasses.field(default_factory=collections.Counter)   # wins per fan

    def __iadd__(self, other: Stats) -> Stats:
        for f in dataclasses.fields(self):
            if f.type in (int, "int"):
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        self.kinds.update(other.kinds)
        self.fans.update(other.fans)
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
        # fan context: the player on turn's latest tile is a kong's replacement (a kong's
        # replacement chain through bonus tiles included; a live draw clears it)
        self.after_kong = False
        self.kong_pending = False                      # the replacement now due follows a kong
        self.fans = None                               # the "fan" events before a win
        self._pushed = None                            # an event read ahead, to be read again

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

    def tenpai(self, s: int) -> bool:
        """Some tile completes the hand (candidates: kinds held or within two ranks of a held
        tile, plus the terminals and honors for the special forms)."""
        c = list(self.conc[s])
        cand = set(REF.ORPHANS) if self.ref._forms != ["standard"] else set()
        if self.ref._forms is None:
            cand = set(range(34))     # MCR: a knitted straight waits on a kind three ranks from the nearest held one
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

    # -- wins under Chinese Official fans ---------------------------------------------------
    def shown(self, k: int) -> int:
        """Copies of kind k shown: discards on the table and exposed sets (claimed discards are in
        the sets; concealed kongs are not shown)."""
        n = self.table[k]
        for s in range(4):
            for typ, t in self.melds[s]:
                if typ == "chow":
                    n += t <= k <= t + 2 and k < 27 and t // 9 == k // 9
                elif typ == "pung":
                    n += 3 * (t == k)
                elif typ in ("kong", "added_kong"):
                    n += 4 * (t == k)
        return n

    def fan_context(self, s: int, win: int, self_drawn: bool, robbing: bool):
        """The calculator's input for seat s's hand (conc[s] holds the winning tile `win`)."""
        hand = list(self.conc[s])
        hand[win] -= 1
        melds = []
        for typ, t in self.melds[s]:
            kind = {"chow": "chow", "pung": "pung"}.get(typ, "kong")
            melds.append((kind, t, 0 if typ == "concealed_kong" else 1))
        # on a discard or a robbed kong the winning tile itself is among the shown copies
        fourth = self.shown(win) - (0 if self_drawn else 1) == 3
        ctx = dict(self_drawn=self_drawn, fourth_tile=fourth,
                   kong=self.after_kong if self_drawn else robbing,
                   last_of_wall=self.live_left() <= 0 and not robbing,
                   seat_wind=(s - self.dealer) % 4, prevalent_wind=(self.h // 4) % 4,
                   flowers=len(self.aside[s]))
        return hand, melds, ctx

    def judge(self, s: int, win: int, self_drawn: bool, robbing: bool = False):
        """(status, fan result, context) of seat s's concealed tiles (the winning tile among them):
        status "none" (not complete), "false" (complete, below min_fan) or "valid"."""
        if not self.complete(self.conc[s]):
            return "none", None, None
        if not self.ref.uses_fans:
            return "valid", None, None
        hand, melds, ctx = self.fan_context(s, win, self_drawn, robbing)
        r = self.ref.fan(hand, melds, win, ctx)
        if r is None:
            self.fail(f"seat {s}'s hand {tiles.format_hand(self.conc[s])} with sets {self.melds[s]} is complete "
                      f"(reference.is_winning) but mcr_fan.fan finds no win on {tiles.tile_name(win)}: the oracles disagree")
        status = "valid" if r.total - ctx["flowers"] >= self.ref.min_fan else "false"
        return status, r, ctx

    def judge_self(self, s: int):
        """The self-drawn win status of the player on turn: the winning tile is the one just drawn;
        on the dealer's first turn (nothing drawn) the held kind scoring most (the first on a tie)."""
        if self.ref.opts["ready_declaration"] and not self.ready[s]:
            return "none", None, None
        k = self.last_drawn[s]
        if k is not None or not self.ref.uses_fans:
            return self.judge(s, k if k is not None else 0, True)
        best = None
        for k in range(34):
            if self.conc[s][k]:
                j = self.judge(s, k, True)
                if j[0] == "none":
                    return j
                if best is None or j[1].total > best[1].total:
                    best = j + (k,)
        return best[:3]

    def judge_on(self, s: int, k: int, robbing: bool = False):
        """The win status of seat s on the discard (or robbed added kong tile) k."""
        if self.conc[s][k] >= 4 or (self.ref.opts["ready_declaration"] and not self.ready[s]):
            return "none", None, None
        self.conc[s][k] += 1
        try:
            return self.judge(s, k, False, robbing)
        finally:
            self.conc[s][k] -= 1

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

        def raw():
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

        def nxt():
            """The next event; "fan" events are collected into self.fans and must precede a win."""
            if self._pushed is not None:
                e, self._pushed = self._pushed, None
                return e
            e = raw()
            if e["type"] == "fan":
                fans = []
                while e["type"] == "fan":
                    fans.append(e)
                    e = raw()
                if e["type"] != "win":
                    self.fail(f"fan events {[f['fan'] for f in fans]} not followed by a win", e)
                self.fans = fans
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
        state = "own"                 # own | claimed | replace | rob | after_discard
        cur = self.dealer
        entered_own = True
        own = ("none", None, None)    # the self-drawn win status of the player on turn
        rob_kind = -1                 # the kind of the added kong that may be robbed (state rob)
        while True:
            if state == "own" and entered_own:
                entered_own = False
                if self.size(cur) != 14:
                    self.fail(f"seat {cur} on turn with {self.size(cur)} tiles")
                own = self.judge_self(cur)
                must_win = ref.builtin and own[0] == "valid"
                if own[0] == "false":
                    stats.below_min += 1
            e = nxt()
            typ, s = e["type"], e["seat"]

            if state == "rob":
                # robbing the kong: seat cur added the tile k to its exposed pung
                k = rob_kind
                robbers = [(cur + i) % 4 for i in range(1, 4) if self.judge_on((cur + i) % 4, k, True)[0] == "valid"]
                if robbers:
                    stats.rob_chances += 1
                if typ in ("win", "false_win"):
                    if s == cur or typ == "win" and (e["self_drawn"] or e["discarder"] != cur):
                        self.fail(f"bad fields of a {typ} on seat {cur}'s added kong of {tiles.tile_name(k)}", e)
                    j = self.judge_on(s, k, True)
                    if typ == "false_win":
                        self.false_win(e, s, j, nxt, stats, k)
                        break
                    if ref.builtin and robbers and s != robbers[0]:
                        self.fail(f"seats {robbers} can rob the kong of {tiles.tile_name(k)}; seat {robbers[0]} "
                                  f"must win it, got seat {s}", e)
                    if j[0] != "valid":
                        self.fail(f"seat {s} robbed the kong of {tiles.tile_name(k)} without a valid win "
                                  f"({self.describe(s, k, j)})", e)
                    # the kong is not completed: the owner keeps its pung, the tile goes to the robber
                    i = self.melds[cur].index(("added_kong", k))
                    self.melds[cur][i] = ("pung", k)
                    self.pung_exposed[cur].add(k)
                    self.conc[s][k] += 1
                    self.check_conservation(e)
                    stats.discard_wins += 1
                    stats.robbed_kongs += 1
                    self.settle(nxt, s, cur, j, stats)
                    break
                if ref.builtin and robbers:
                    self.fail(f"seats {robbers} can rob seat {cur}'s added kong of {tiles.tile_name(k)}; "
                              f"seat {robbers[0]} must win it, got {typ} by seat {s}", e)
                self._pushed = e            # the owner's replacement
                state = "replace"
                continue

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
                    self.after_kong = self.kong_pending
                    state, entered_own = "own", True
                self.check_conservation(e)
                continue

            if state in ("own", "claimed"):
                if s != cur:
                    self.fail(f"seat {s} acts on seat {cur}'s turn", e)
                if state == "own" and must_win and typ != "win":
                    what = " of at least min_fan" if ref.uses_fans else ""
                    self.fail(f"seat {cur} holds a complete hand{what} after a draw but a built-in policy did not win "
                              f"({self.describe(cur, None, own)})", e)
                if typ == "false_win":
                    if state != "own":
                        self.fail("a false win after a chow or pung claim", e)
                    self.false_win(e, s, own, nxt, stats)
                    break
                if typ == "win":
                    if state != "own" or not e["self_drawn"] or e["discarder"] is not None:
                        self.fail("a self-drawn win only on the own turn after a draw", e)
                    if ref.opts["ready_declaration"] and not self.ready[s]:
                        self.fail("win without a ready declaration (Stop rule)", e)
                    if not self.complete(self.conc[s]):
                        self.fail(f"self-drawn win with an incomplete hand {tiles.format_hand(self.conc[s])}", e)
                    if own[0] != "valid":
                        self.fail(f"self-drawn win below min_fan: {self.describe(s, None, own)}", e)
                    if self.last_drawn[s] is None:
                        stats.dealer_first_turn_wins += 1
                    stats.self_drawn += 1
                    self.settle(nxt, s, None, own, stats)
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
                    state = "rob" if typ == "added_kong" and ref.fan_scoring else "replace"
                    rob_kind = k
                    self.kong_pending = True
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
                self.after_kong = False
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
                judged = {}
                for i in range(1, 4):
                    w = (s + i) % 4
                    judged[w] = self.judge_on(w, k)
                    stats.below_min += judged[w][0] == "false"
                winners = [w for w in judged if judged[w][0] == "valid"]
                if winners:
                    stats.priority_checks += 1
                    if len(winners) > 1:
                        stats.contested_wins += 1
                typ, s2 = e["type"], e["seat"]
                if ref.builtin and winners and (typ != "win" or s2 != winners[0]):
                    self.fail(f"seats {winners} can win on the discard {tiles.tile_name(k)} of seat {s}; "
                              f"seat {winners[0]} must win it, got {typ} by seat {s2}", e)
                discarder = s
                if typ == "false_win":
                    if s2 == discarder:
                        self.fail("a false win by the discarder on its own discard", e)
                    self.false_win(e, s2, judged[s2], nxt, stats, k)
                    break
                if typ == "win":
                    if e["self_drawn"] or e["discarder"] != discarder or s2 == discarder:
                        self.fail("bad discard win fields", e)
                    if not self.can_win_on(s2, k):
                        c = list(self.conc[s2]); c[k] += 1
                        self.fail(f"win on discard with an incomplete hand {tiles.format_hand(c)}"
                                  + (" (not ready)" if ref.opts['ready_declaration'] and not self.ready[s2] else ""), e)
                    if judged[s2][0] != "valid":
                        self.fail(f"win on the discard {tiles.tile_name(k)} below min_fan: "
                                  f"{self.describe(s2, k, judged[s2])}", e)
                    self.table[k] -= 1
                    self.conc[s2][k] += 1
                    self.check_conservation(e)
                    stats.discard_wins += 1
                    self.settle(nxt, s2, discarder, judged[s2], stats)
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
                        self.kong_pending = True
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
                self.after_kong = False
                if t >= FIRST_BONUS:
                    if not flowers:
                        self.fail("bonus tile in a 136-tile game", e)
                    e = nxt()
                    if e["type"] != "bonus" or e["seat"] != cur or e["id"] != t:
                        self.fail("a drawn bonus tile must be set aside at once", e)
                    self.aside[cur].append(t)
                    state = "replace"
                    self.kong_pending = False
                else:
                    self.conc[cur][t // 4] += 1
                    self.last_drawn[cur] = t // 4
                    state, entered_own = "own", True
                self.check_conservation(e)
                continue
            self.fail(f"referee in unknown state {state}", e)   # pragma: no cover

        self.check_kinds()
        # nothing else may follow in this hand
        if self._pushed is not None:                                 # pragma: no cover
            self.fail("events after the end of the hand", self._pushed)
        try:
            i, e = next(ev)
        except StopIteration:
            return pos + 1
        self.fail("events after the end of the hand", e)

    def describe(self, s: int, k, judged) -> str:
        """Seat s's hand (with k added: a claimed tile) and its fan, for messages."""
        c = list(self.conc[s])
        if k is not None:
            c[k] += 1
        text = f"{tiles.format_hand(c)} sets {[(t, tiles.tile_name(x)) for t, x in self.melds[s]]}"
        status, r, ctx = judged
        if r is not None:
            text += (f", fan {r.total} ({r.total - ctx['flowers']} without flowers, min_fan {self.ref.min_fan}): "
                     f"{list(r.fans)}, context {ctx}")
        return text + f", status {status}"

    def read_scores(self, nxt, want: list):
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

    def check_fans(self, winner: int, judged, stats: Stats):
        """The "fan" events before the win are exactly the oracle's fans of the hand."""
        fans, self.fans = self.fans, None
        status, r, ctx = judged
        if not self.ref.uses_fans:
            if fans:
                self.fail(f"fan events {[f['fan'] for f in fans]} without fan scoring or a fan minimum")
            return 0
        if not fans:
            self.fail(f"a win of seat {winner} without fan events")
        for f in fans:
            if f["seat"] != winner:
                self.fan_fail(f"fan event of seat {f['seat']} before seat {winner}'s win", fans, judged, winner)
            ref = MF.FAN_BY_NAME.get(f["fan"])
            if ref is None or f["value"] != ref.value or f["chinese"] != ref.chinese or f["count"] < 1:
                self.fan_fail(f"bad fan event {f}", fans, judged, winner)
        got = sorted((f["fan"], f["count"]) for f in fans)
        if len({n for n, _ in got}) != len(got):
            self.fan_fail("a fan logged twice", fans, judged, winner)
        if got != sorted(r.fans):
            self.fan_fail("the fan events differ from the oracle's fans", fans, judged, winner)
        total = sum(f["count"] * f["value"] for f in fans)
        if total != r.total:
            self.fan_fail(f"fan events total {total}, the oracle's {r.total}", fans, judged, winner)
        stats.fan_wins += 1
        for n, _ in r.fans:
            stats.fans[n] += 1
        stats.replacement_wins += ctx["self_drawn"] and ctx["kong"]
        stats.last_tile_wins += ctx["last_of_wall"]
        stats.fourth_tile_wins += ctx["fourth_tile"]
        return total

    def fan_fail(self, msg: str, fans, judged, winner):
        status, r, ctx = judged
        got = [(f["fan"], f["count"]) for f in fans]
        self.fail(f"{msg}: seat {winner} logged {got}; the oracle: {list(r.fans)} (total {r.total}) "
                  f"for {self.describe(winner, None, judged)}")

    def settle(self, nxt, winner: int, discarder, judged, stats: Stats):
        """The win's fans and payments (the winning tile is in the winner's concealed tiles)."""
        stats.wins += 1
        fan = self.check_fans(winner, judged, stats)
        base = self.ref.opts["base_points"]
        payment = self.ref.opts["payment"]
        want = [0] * 4
        for s in range(4):
            if s == winner:
                continue
            if self.ref.fan_scoring:
                pay = 8 + fan if discarder is None or s == discarder else 8
            elif discarder is None or payment == "each":
                pay = base
            else:
                pay = 3 * base if s == discarder else 0
            want[s] -= pay
            want[winner] += pay
        self.read_scores(nxt, want)

    def false_win(self, e, s: int, judged, nxt, stats: Stats, k=None):
        """A false win (Python policies only): the declared hand is not a valid win; -30 for the
        declarer, +10 for each other player; the hand ends."""
        ref = self.ref
        if not ref.uses_fans or ref.opts.get("false_win", "penalty") != "penalty":
            self.fail("a false_win event without a fan minimum or with false_win='error'", e)
        if ref.header["policies"][s] in BUILTIN_POLICIES:
            self.fail(f"a false win by built-in policy {ref.header['policies'][s]!r} of seat {s}", e)
        status, r, ctx = judged
        if status == "valid":
            self.fail(f"a false win by seat {s} whose hand is a valid win: {self.describe(s, k, judged)}", e)
        want_fan = r.total - ctx["flowers"] if status == "false" else 0
        if e["fan"] != want_fan or e["min_fan"] != ref.min_fan:
            self.fail(f"false win fields fan={e['fan']} min_fan={e['min_fan']}, expected {want_fan} and {ref.min_fan}", e)
        if self.fans:
            self.fail("fan events before a false win", e)
        stats.false_wins += 1
        self.read_scores(nxt, [-30 if x == s else 10 for x in range(4)])


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
        self._fan_cache: dict = {}
        mcr = self.rules == "mcr"
        self.fan_scoring = mcr and self.opts.get("scoring", "basic") == "fan"
        self.min_fan = int(self.opts.get("min_fan", 0)) if mcr else 0
        # every win is scored with the fan calculator (fan scoring or a fan minimum)
        self.uses_fans = self.fan_scoring or self.min_fan > 0
        if self.rules == "mcr":
            self._forms = None
        else:
            self._forms = ["standard"] + list(self.opts.get("special_forms") or [])

    def fan(self, hand, melds, win: int, ctx: dict):
        """tests/oracles/mcr_fan.py's fan of a hand (memoised)."""
        key = (tuple(hand), tuple(melds), win, tuple(sorted(ctx.items())))
        if key not in self._fan_cache:
            self._fan_cache[key] = MF.fan(hand, melds, win, **ctx)
        return self._fan_cache[key]

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
        builtin = all(p in BUILTIN_POLICIES for p in header["policies"])
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
