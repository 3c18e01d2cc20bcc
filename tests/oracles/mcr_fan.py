"""Slow, obviously-right Chinese Official (MCR) fan calculator: the test oracle and the specification.

It reproduces the reference calculator PyMahjongGB 1.4.0 (``from MahjongGB import MahjongFanCalculator``),
total and fan list, on every valid input; ``docs/mcr.md`` describes that reference and its choices.
Everything here is plain Python over 34-count lists, written for clarity, not speed.

Tile kinds (mjfast order)
-------------------------
0-8 = 1m-9m (characters), 9-17 = 1p-9p (dots), 18-26 = 1s-9s (bamboo), 27-30 = East South West North,
31 = White, 32 = Green, 33 = Red.  The reference's codes: ``W`` characters, ``B`` dots, ``T`` bamboo,
``F1-F4`` winds, ``J1`` Red, ``J2`` Green, ``J3`` White (see :data:`REF_CODE`).

Input of :func:`fan`
--------------------
* ``hand``: 34 counts of the concealed standing tiles *without* the winning tile;
* ``melds``: declared sets ``(kind, first_tile, supplier)``, kind ``"chow"``/``"pung"``/``"kong"``,
  ``first_tile`` the set's lowest tile, ``supplier`` 0 = concealed (a concealed kong; a concealed chow or
  pung is allowed too, as the reference allows offer 0 for them) or 1-3 = the relative seat of the player
  who supplied the claimed tile.  Any nonzero supplier means "exposed"; nothing else depends on it.  (For a
  chow the reference's offer says which of its tiles was claimed; no fan depends on it, so no separate
  field: :func:`to_reference` passes the supplier as the chow's offer.)
* ``win_tile``, the situational flags, the seat and prevalent winds (0-3 = E S W N) and the flower count.

Valid input: ``3 * len(melds) + sum(hand) == 13``, at most 4 melds, at most 4 copies of a kind counting the
standing tiles, the winning tile and the melds, chows starting at ranks 1-7 of a suit, winds 0-3, flowers
0-8.  Anything else raises ValueError (the reference rejects some of it and silently scores the rest: see
*Differences* below).  :func:`fan` returns None exactly when the reference raises ``ERROR_NOT_WIN``.

How a hand is scored
--------------------
1. **Flag corrections.**  Last Tile ("fourth tile") is dropped when the standing tiles hold another copy of
   the winning tile and forced on when the melds hold three copies.  The kong flag is dropped on a
   self-draw without any kong meld, and on a discard when the melds hold the winning tile or the standing
   tiles hold another copy of it.
2. **Special forms**, in this order, the first match is final: with no melds, seven pairs (a quad is two
   pairs; Seven Shifted Pairs when the pairs are seven consecutive ranks of the winning tile's suit),
   Greater/Lesser Honors and Knitted Tiles (14 distinct kinds), Thirteen Orphans; then, with 0 or 1 meld,
   knitted straight + one set + pair; then, with no melds, Nine Gates (standing tiles 1112345678999 of the
   winning tile's suit).  Each has its own fixed fan list (below).
3. **Standard decompositions** when no special form matched, or when it was plain Seven Pairs: every split
   of the standing tiles (winning tile included) into sets and one pair is scored and the highest total
   wins.  Ties: a decomposition replaces an earlier one of equal total only if it has Pure Triple Chow or
   Triple Pung (with Seven Pairs as the special form, every equal-total decomposition replaces it and the
   earlier ones).  The decompositions are visited in the reference's order: each one's sets sorted by
   (reference tile order of the first tile, pung before chow), the lists in lexicographic order; the
   reference's tile order is characters, bamboo, dots, E S W N, Red, Green, White (:data:`REF_ORDER`).
   (Only the order within a suit, rank ascending and pung before chow, can ever decide: the pair's suit is
   fixed by the tile counts and a 14-tile hand has room for an ambiguous block, 9 tiles at least without
   the pair, in one suit only.)
4. **Per decomposition** (:func:`_score_standard`): situational fans; a concealed pung counts as exposed on
   a discard win of its tile unless a concealed chow could hold that tile; kongs and concealed pungs;
   All Pungs; per pung Dragon Pung / Pung of Terminals or Honors; chow and pung combinations (a four-set
   fan stops there; a three-set fan leaves at most one two-set fan for the remaining set; otherwise the
   pairwise fans, for chows capped by "use each set once", :func:`_cap_pairwise`); Concealed / Fully
   Concealed / Melded Hand; pair-dependent fans; Outside Hand / All Five / All Even Pungs; suits; tile
   traits; rank ranges; Tile Hog; the unique-wait fans; the "not counted" rules (:data:`_EXCLUSIONS`);
   Seat and Prevalent Wind (replacing a Pung of Terminals or Honors); Chicken Hand when nothing else.
5. Flowers: 1 fan each, added after everything (so a hand with nothing but flowers is not a win).

The unique-wait fans (Edge > Closed > Single) need the 13 standing tiles to wait on exactly one kind, under
the standard shape (and seven pairs when there are no melds), exhausted kinds included; the fan itself then
comes from the chosen decomposition: Edge when the winning tile is an *end* tile of one of its standing
chows (any end, not only 12-3 / 7-89), Closed when it is the middle tile of one, Single when it is the pair.

Differences from rules as written (all reproduced; see the report in ``tests/test_mcr_fan_reference.py``):
the 5-fan "Concealed Kong and Melded Kong" (明暗杠) replaces Melded Kong + Concealed Kong; Big Three Dragons
and other 88/64 hands still count One Voided Suit, Full Flush and the like; Nine Gates adds fixed fans by
the winning tile's rank; a concealed chow *meld* (supplier 0) counts as "could hold the winning tile" even
though it cannot; waits count exhausted tiles.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Sequence

__all__ = [
    "FANS",
    "Fan",
    "FanResult",
    "fan",
    "to_reference",
    "reference_fan",
    "REF_CODE",
    "REF_ORDER",
]

# --------------------------------------------------------------------------------------------------
# Fan table
# --------------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Fan:
    name: str
    chinese: str
    value: int


def _fans(rows):
    return tuple(Fan(n, c, v) for v, group in rows for n, c in group)


FANS: tuple[Fan, ...] = _fans([
    (88, [("Big Four Winds", "大四喜"), ("Big Three Dragons", "大三元"), ("All Green", "绿一色"),
          ("Nine Gates", "九莲宝灯"), ("Four Kongs", "四杠"), ("Seven Shifted Pairs", "连七对"),
          ("Thirteen Orphans", "十三幺")]),
    (64, [("All Terminals", "清幺九"), ("Little Four Winds", "小四喜"), ("Little Three Dragons", "小三元"),
          ("All Honors", "字一色"), ("Four Concealed Pungs", "四暗刻"), ("Pure Terminal Chows", "一色双龙会")]),
    (48, [("Quadruple Chow", "一色四同顺"), ("Four Pure Shifted Pungs", "一色四节高")]),
    (32, [("Four Pure Shifted Chows", "一色四步高"), ("Three Kongs", "三杠"),
          ("All Terminals and Honors", "混幺九")]),
    (24, [("Seven Pairs", "七对"), ("Greater Honors and Knitted Tiles", "七星不靠"), ("All Even Pungs", "全双刻"),
          ("Full Flush", "清一色"), ("Pure Triple Chow", "一色三同顺"), ("Pure Shifted Pungs", "一色三节高"),
          ("Upper Tiles", "全大"), ("Middle Tiles", "全中"), ("Lower Tiles", "全小")]),
    (16, [("Pure Straight", "清龙"), ("Three-Suited Terminal Chows", "三色双龙会"), ("Pure Shifted Chows", "一色三步高"),
          ("All Five", "全带五"), ("Triple Pung", "三同刻"), ("Three Concealed Pungs", "三暗刻")]),
    (12, [("Lesser Honors and Knitted Tiles", "全不靠"), ("Knitted Straight", "组合龙"), ("Upper Four", "大于五"),
          ("Lower Four", "小于五"), ("Big Three Winds", "三风刻")]),
    (8, [("Mixed Straight", "花龙"), ("Reversible Tiles", "推不倒"), ("Mixed Triple Chow", "三色三同顺"),
         ("Mixed Shifted Pungs", "三色三节高"), ("Chicken Hand", "无番和"), ("Last Tile Draw", "妙手回春"),
         ("Last Tile Claim", "海底捞月"), ("Out with Replacement Tile", "杠上开花"), ("Robbing The Kong", "抢杠和")]),
    (6, [("All Pungs", "碰碰和"), ("Half Flush", "混一色"), ("Mixed Shifted Chows", "三色三步高"),
         ("All Types", "五门齐"), ("Melded Hand", "全求人"), ("Two Concealed Kongs", "双暗杠"),
         ("Two Dragons Pungs", "双箭刻")]),
    (4, [("Outside Hand", "全带幺"), ("Fully Concealed Hand", "不求人"), ("Two Melded Kongs", "双明杠"),
         ("Last Tile", "和绝张")]),
    (2, [("Dragon Pung", "箭刻"), ("Prevalent Wind", "圈风刻"), ("Seat Wind", "门风刻"), ("Concealed Hand", "门前清"),
         ("All Chows", "平和"), ("Tile Hog", "四归一"), ("Double Pung", "双同刻"), ("Two Concealed Pungs", "双暗刻"),
         ("Concealed Kong", "暗杠"), ("All Simples", "断幺")]),
    (1, [("Pure Double Chow", "一般高"), ("Mixed Double Chow", "喜相逢"), ("Short Straight", "连六"),
         ("Two Terminal Chows", "老少副"), ("Pung of Terminals or Honors", "幺九刻"), ("Melded Kong", "明杠"),
         ("One Voided Suit", "缺一门"), ("No Honors", "无字"), ("Edge Wait", "独听・边张"),
         ("Closed Wait", "独听・嵌张"), ("Single Wait", "独听・单钓"), ("Self-Drawn", "自摸"),
         ("Flower Tiles", "花牌")]),
    (5, [("Concealed Kong and Melded Kong", "明暗杠")]),
])
"""The 82 fans the reference can report, in its enum order: 80 hand fans, Flower Tiles, 明暗杠."""

FAN_BY_NAME = {f.name: f for f in FANS}
_ORDER = {f.name: i for i, f in enumerate(FANS)}
assert len(FANS) == 82 and len(FAN_BY_NAME) == 82


@dataclasses.dataclass(frozen=True)
class FanResult:
    """``total`` (flowers included) and ``fans``: ``(english_name, count)`` in :data:`FANS` order."""

    total: int
    fans: tuple[tuple[str, int], ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.fans)

    def count(self, name: str) -> int:
        return dict(self.fans).get(name, 0)

    def __contains__(self, name: str) -> bool:
        return self.count(name) > 0

    @property
    def total_without_flowers(self) -> int:
        return self.total - self.count("Flower Tiles")


def _result(table: Counter, flowers: int) -> FanResult:
    fans = [(n, c) for n, c in table.items() if c]
    if flowers:
        fans.append(("Flower Tiles", flowers))
    fans.sort(key=lambda nc: _ORDER[nc[0]])
    return FanResult(sum(FAN_BY_NAME[n].value * c for n, c in fans), tuple(fans))


def _total(table: Counter) -> int:
    return sum(FAN_BY_NAME[n].value * c for n, c in table.items() if c)


# --------------------------------------------------------------------------------------------------
# Tiles
# --------------------------------------------------------------------------------------------------

N_KINDS = 34
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)


def suit(k: int) -> int:
    """0 = characters, 1 = dots, 2 = bamboo, 3 = honors."""
    return min(k // 9, 3)


def rank(k: int) -> int:
    """1-9 for number tiles, 0 for honors."""
    return k % 9 + 1 if k < 27 else 0


def is_honor(k: int) -> bool:
    return k >= 27


def is_terminal(k: int) -> bool:
    return k < 27 and rank(k) in (1, 9)


def is_wind(k: int) -> bool:
    return 27 <= k <= 30


def is_dragon(k: int) -> bool:
    return k >= 31


def is_terminal_or_honor(k: int) -> bool:
    return is_terminal(k) or is_honor(k)


def _kinds(text: str) -> frozenset[int]:
    base = {"m": 0, "p": 9, "s": 18}
    out, digits = set(), ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out |= {base[ch] + int(d) - 1 for d in digits} if ch in base else {27 + int(d) - 1 for d in digits}
            digits = ""
    return frozenset(out)


GREEN_TILES = _kinds("23468s6z")          # 6z = Green dragon
REVERSIBLE_TILES = _kinds("1234589p245689s5z")  # 5z = White dragon

REF_CODE: tuple[str, ...] = tuple(
    [f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)
"""Reference tile code of each mjfast kind (W = characters, B = dots, T = bamboo, J1 Red, J2 Green, J3 White)."""

REF_ORDER: tuple[int, ...] = tuple(
    list(range(0, 9)) + list(range(18, 27)) + list(range(9, 18)) + [EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE]
)
"""The kinds in the reference's internal order (characters, bamboo, dots, winds, Red, Green, White)."""
REF_POS = {k: i for i, k in enumerate(REF_ORDER)}

THIRTEEN_ORPHANS = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])


def _knitted_straights() -> tuple[frozenset[int], ...]:
    """The six knitted straights (147 of one suit, 258 of another, 369 of the third)."""
    out = []
    for perm in itertools.permutations(range(3)):  # perm[s] = residue group of suit s
        out.append(frozenset(9 * s + r for s in range(3) for r in range(perm[s], 9, 3)))
    return tuple(out)


KNITTED_STRAIGHTS = _knitted_straights()

# --------------------------------------------------------------------------------------------------
# Sets and decompositions
# --------------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Group:
    """A set or the pair of a decomposition. ``tile`` is the lowest kind; ``exposed`` = claimed meld;
    ``declared`` = one of the input melds (exposed or concealed), else formed from the standing tiles."""

    kind: str  # "chow", "pung", "kong", "pair"
    tile: int
    exposed: bool = False
    declared: bool = False

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * {"pung": 3, "kong": 4, "pair": 2}[self.kind]

    @property
    def is_pung(self) -> bool:  # pungs and kongs
        return self.kind in ("pung", "kong")

    def ref_key(self) -> tuple[int, int]:
        """Order of the reference's enumeration: first tile in reference order, pung before chow."""
        return (REF_POS[self.tile], 0 if self.kind == "pung" else 1)


def _decompositions(counts: list[int]) -> set[tuple[tuple[str, int], ...]]:
    """Every split of ``counts`` into sets (pungs, chows) and exactly one pair, as sorted tuples."""
    out: set[tuple[tuple[str, int], ...]] = set()
    n = sum(counts)
    if n % 3 != 2:
        return out

    def rec(c: list[int], groups: list[tuple[str, int]], pair_used: bool) -> None:
        k = next((i for i in range(N_KINDS) if c[i]), None)
        if k is None:
            if pair_used:
                out.add(tuple(sorted(groups)))
            return
        if c[k] >= 2 and not pair_used:
            c[k] -= 2
            rec(c, groups + [("pair", k)], True)
            c[k] += 2
        if c[k] >= 3:
            c[k] -= 3
            rec(c, groups + [("pung", k)], pair_used)
            c[k] += 3
        if k < 27 and rank(k) <= 7 and c[k + 1] and c[k + 2]:
            for t in (k, k + 1, k + 2):
                c[t] -= 1
            rec(c, groups + [("chow", k)], pair_used)
            for t in (k, k + 1, k + 2):
                c[t] += 1

    rec(list(counts), [], False)
    return out


@functools.cache
def _suit_shapes(c: tuple[int, ...]) -> tuple[bool, bool]:
    """(splits into sets only, splits into sets + one pair) for one number suit's counts (no copy limit)."""
    i = next((j for j, x in enumerate(c) if x), None)
    if i is None:
        return (True, False)
    sets_only = with_pair = False
    if c[i] >= 3:
        a, b = _suit_shapes(c[:i] + (c[i] - 3,) + c[i + 1:])
        sets_only, with_pair = sets_only or a, with_pair or b
    if i <= 6 and c[i + 1] and c[i + 2]:
        d = list(c)
        d[i] -= 1
        d[i + 1] -= 1
        d[i + 2] -= 1
        a, b = _suit_shapes(tuple(d))
        sets_only, with_pair = sets_only or a, with_pair or b
    if c[i] >= 2:
        a, _ = _suit_shapes(c[:i] + (c[i] - 2,) + c[i + 1:])
        with_pair = with_pair or a
    return (sets_only, with_pair)


def _is_standard(counts: Sequence[int]) -> bool:
    """Whether counts (any number of copies) split into sets and exactly one pair."""
    shapes = [_suit_shapes(tuple(counts[9 * s: 9 * s + 9])) for s in range(3)]
    shapes += [(c % 3 == 0, c % 3 == 2) for c in counts[27:]]
    if not all(a or b for a, b in shapes):
        return False
    # exactly one group takes the pair, every other one splits into sets only
    return any(b and all(a for j, (a, _) in enumerate(shapes) if j != i) for i, (_, b) in enumerate(shapes))


def _waits(standing: Sequence[int], seven_pairs: bool) -> list[int]:
    """Kinds completing the standing tiles (without the winning tile) under the standard shape, and the
    seven-pairs shape when ``seven_pairs``; exhausted kinds (5th copies) included, as in the reference."""
    out = []
    for x in range(N_KINDS):
        c = list(standing)
        c[x] += 1
        if _is_standard(c) or (seven_pairs and all(v % 2 == 0 for v in c)):
            out.append(x)
    return out


# --------------------------------------------------------------------------------------------------
# Set-combination fans
# --------------------------------------------------------------------------------------------------

def _two_chows(a: int, b: int) -> str | None:
    """Fan of two chows (lowest tiles a, b)."""
    if suit(a) != suit(b):
        return "Mixed Double Chow" if rank(a) == rank(b) else None
    if abs(a - b) == 3:
        return "Short Straight"
    if {rank(a), rank(b)} == {1, 7}:
        return "Two Terminal Chows"
    if a == b:
        return "Pure Double Chow"
    return None


def _three_chows(a: int, b: int, c: int) -> str | None:
    suits = {suit(a), suit(b), suit(c)}
    ranks = sorted((rank(a), rank(b), rank(c)))
    if len(suits) == 3:
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return "Mixed Shifted Chows"
        if ranks[0] == ranks[2]:
            return "Mixed Triple Chow"
        if ranks == [1, 4, 7]:
            return "Mixed Straight"
        return None
    if len(suits) == 1:
        d1, d2 = ranks[1] - ranks[0], ranks[2] - ranks[1]
        if d1 == d2 == 3:
            return "Pure Straight"
        if d1 == d2 and d1 in (1, 2):
            return "Pure Shifted Chows"
        if d1 == d2 == 0:
            return "Pure Triple Chow"
    return None


def _four_chows(tiles: Sequence[int]) -> str | None:
    if len({suit(t) for t in tiles}) != 1:
        return None
    r = sorted(rank(t) for t in tiles)
    steps = {r[i + 1] - r[i] for i in range(3)}
    if steps in ({1}, {2}):
        return "Four Pure Shifted Chows"
    if steps == {0}:
        return "Quadruple Chow"
    return None


_PAIRWISE_CHOW_FANS = ("Pure Double Chow", "Mixed Double Chow", "Short Straight", "Two Terminal Chows")


def _cap_pairwise(fans: list[str], cap: int) -> Counter:
    """Keep at most ``cap`` of the pairwise chow fans ("each set combines once"): while over the cap, first
    cut repeated fans down to one each, then drop fans, both times Two Terminal Chows first, then Short
    Straight, Mixed Double Chow, Pure Double Chow."""
    count = Counter(fans)
    total = sum(count.values())
    for keep in (1, 0):
        for name in reversed(_PAIRWISE_CHOW_FANS):
            while total > cap and count[name] > keep:
                count[name] -= 1
                total -= 1
    return count


def _chow_fans(chows: list[int], table: Counter) -> None:
    """Fans among the chows (lowest tiles), 2-4 chows."""
    ordered = sorted(chows, key=lambda t: REF_POS[t + 1])  # the reference sorts by middle tile code
    if len(chows) == 4:
        f = _four_chows(ordered)
        if f:
            table[f] += 1
            return
        for rest in (3, 2, 1, 0):  # triples 012, 013, 023, 123, the first with a fan
            trio = [t for i, t in enumerate(ordered) if i != rest]
            f = _three_chows(*trio)
            if f:
                table[f] += 1
                extra = {_two_chows(t, ordered[rest]) for t in trio}
                for name in _PAIRWISE_CHOW_FANS:  # at most one more, in this priority
                    if name in extra:
                        table[name] += 1
                        break
                return
        pairs = list(itertools.combinations(range(4), 2))
        fans = {p: _two_chows(ordered[p[0]], ordered[p[1]]) for p in pairs}
        lonely = sum(all(fans[p] is None for p in pairs if i in p) for i in range(4))
        cap = 3 - lonely
        if cap > 0:
            table.update(_cap_pairwise([f for f in fans.values() if f], cap))
        return
    if len(chows) == 3:
        f = _three_chows(*ordered)
        if f:
            table[f] += 1
            return
        fans = [_two_chows(a, b) for a, b in itertools.combinations(ordered, 2)]
        table.update(_cap_pairwise([f for f in fans if f], 2))
        return
    if len(chows) == 2:
        f = _two_chows(*chows)
        if f:
            table[f] += 1


def _two_pungs(a: int, b: int) -> str | None:
    if not is_honor(a) and not is_honor(b):
        return "Double Pung" if rank(a) == rank(b) else None
    if is_dragon(a) and is_dragon(b):
        return "Two Dragons Pungs"
    return None


def _three_pungs(a: int, b: int, c: int) -> str | None:
    trio = (a, b, c)
    if not any(is_honor(t) for t in trio):
        ranks = sorted(rank(t) for t in trio)
        suits = {suit(t) for t in trio}
        consecutive = ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1
        if len(suits) == 3:
            if consecutive:
                return "Mixed Shifted Pungs"
            if ranks[0] == ranks[2]:
                return "Triple Pung"
        elif len(suits) == 1 and consecutive:
            return "Pure Shifted Pungs"
        return None
    if all(is_wind(t) for t in trio):
        return "Big Three Winds"
    if all(is_dragon(t) for t in trio):
        return "Big Three Dragons"
    return None


def _four_pungs(tiles: Sequence[int]) -> str | None:
    if not any(is_honor(t) for t in tiles) and len({suit(t) for t in tiles}) == 1:
        r = sorted(rank(t) for t in tiles)
        if r == list(range(r[0], r[0] + 4)):
            return "Four Pure Shifted Pungs"
    if all(is_wind(t) for t in tiles):
        return "Big Four Winds"
    return None


def _pung_fans(pungs: list[int], table: Counter) -> None:
    """Fans among the pungs and kongs (their tiles), 2-4 of them."""
    ordered = sorted(pungs, key=lambda t: REF_POS[t])
    if len(pungs) == 4:
        f = _four_pungs(ordered)
        if f:
            table[f] += 1
            return
        for rest in (3, 2, 1, 0):
            trio = [t for i, t in enumerate(ordered) if i != rest]
            f = _three_pungs(*trio)
            if f:
                table[f] += 1
                for t in trio:  # the fourth combines with one of the three at most
                    g = _two_pungs(t, ordered[rest])
                    if g:
                        table[g] += 1
                        break
                return
    if len(pungs) == 3:
        f = _three_pungs(*ordered)
        if f:
            table[f] += 1
            return
    for a, b in itertools.combinations(ordered, 2):
        g = _two_pungs(a, b)
        if g:
            table[g] += 1


def _kong_fans(melded_kongs: int, concealed_kongs: int, concealed_pungs: int, table: Counter) -> None:
    """Kong fans and concealed-pung fans; ``concealed_pungs`` excludes the concealed kongs."""
    kongs = melded_kongs + concealed_kongs
    by_kongs = {
        (1, 0): "Melded Kong", (0, 1): "Concealed Kong", (2, 0): "Two Melded Kongs",
        (1, 1): "Concealed Kong and Melded Kong", (0, 2): "Two Concealed Kongs",
    }
    if kongs == 3:
        table["Three Kongs"] += 1
    elif kongs == 4:
        table["Four Kongs"] += 1
    elif kongs:
        table[by_kongs[(melded_kongs, concealed_kongs)]] += 1
    hidden = concealed_pungs + concealed_kongs
    if (melded_kongs, concealed_kongs, concealed_pungs) == (0, 2, 0):
        return  # Two Concealed Kongs already covers Two Concealed Pungs
    name = {2: "Two Concealed Pungs", 3: "Three Concealed Pungs", 4: "Four Concealed Pungs"}.get(hidden)
    if name:
        table[name] += 1


# --------------------------------------------------------------------------------------------------
# Whole-hand traits
# --------------------------------------------------------------------------------------------------

def _suit_fans(kinds: set[int], table: Counter) -> None:
    """No Honors, One Voided Suit, Half Flush, Full Flush, All Types (over the distinct kinds of the hand)."""
    suits = {suit(k) for k in kinds}
    honors = 3 in suits
    if not honors:
        table["No Honors"] += 1
    missing = 3 - len(suits - {3})
    if missing == 2:
        table["Half Flush" if honors else "Full Flush"] += 1
        if not honors:
            table["No Honors"] -= 1
    elif missing:
        table["One Voided Suit"] += missing  # 3 for an all-honors hand; All Honors drops it later
    if suits == {0, 1, 2, 3} and any(is_wind(k) for k in kinds) and any(is_dragon(k) for k in kinds):
        table["All Types"] += 1


def _trait_fans(kinds: set[int], table: Counter) -> None:
    """All Simples, Reversible Tiles, All Green, All Honors, All Terminals, All Terminals and Honors."""
    if not any(is_terminal_or_honor(k) for k in kinds):
        table["All Simples"] += 1
    if kinds <= REVERSIBLE_TILES:
        table["Reversible Tiles"] += 1
    if kinds <= GREEN_TILES:
        table["All Green"] += 1
    if table["All Simples"]:
        return
    if all(is_honor(k) for k in kinds):
        table["All Honors"] += 1
    elif all(is_terminal(k) for k in kinds):
        table["All Terminals"] += 1
    elif all(is_terminal_or_honor(k) for k in kinds):
        table["All Terminals and Honors"] += 1


def _rank_fans(kinds: set[int], table: Counter) -> None:
    """Lower Four / Lower Tiles, Upper Four / Upper Tiles, Middle Tiles (number tiles only)."""
    if any(is_honor(k) for k in kinds):
        return
    ranks = {rank(k) for k in kinds}
    if ranks <= {1, 2, 3, 4}:
        table["Lower Four" if 4 in ranks else "Lower Tiles"] += 1
    elif ranks <= {6, 7, 8, 9}:
        table["Upper Four" if 6 in ranks else "Upper Tiles"] += 1
    elif ranks <= {4, 5, 6}:
        table["Middle Tiles"] += 1


def _situation_fans(ctx: _Context, table: Counter) -> None:
    """Last Tile, Self-Drawn, Last Tile Draw / Claim, Out with Replacement Tile, Robbing The Kong."""
    if ctx.last_tile:
        table["Last Tile"] += 1
    if ctx.self_drawn:
        if ctx.last_of_wall:
            table["Last Tile Draw"] += 1
        if ctx.kong:
            table["Out with Replacement Tile"] += 1
        if not ctx.last_of_wall and not ctx.kong:
            table["Self-Drawn"] += 1
    else:
        if ctx.last_of_wall:
            table["Last Tile Claim"] += 1
        if ctx.kong:
            table["Robbing The Kong"] += 1
            table["Last Tile"] = 0


# The "not counted" rules, applied in this order: when the first fan is present, the others are cleared.
_EXCLUSIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Big Four Winds", ("All Pungs", "Pung of Terminals or Honors")),
    ("Big Three Dragons", ("Dragon Pung",)),
    ("All Green", ("Half Flush", "One Voided Suit")),
    ("Four Kongs", ("Single Wait",)),
    ("All Terminals", ("All Pungs", "Outside Hand", "Pung of Terminals or Honors", "No Honors", "Double Pung")),
    ("Little Four Winds", ("Pung of Terminals or Honors",)),
    ("Little Three Dragons", ("Dragon Pung",)),
    ("All Honors", ("All Pungs", "Outside Hand", "Pung of Terminals or Honors", "One Voided Suit")),
    ("Four Concealed Pungs", ("All Pungs", "Concealed Hand", "*fully concealed becomes self-drawn")),
    ("Pure Terminal Chows", ("Full Flush", "All Chows", "No Honors")),
    ("Four Pure Shifted Pungs", ("All Pungs",)),
    ("All Terminals and Honors", ("All Pungs", "Outside Hand", "Pung of Terminals or Honors")),
    ("All Even Pungs", ("All Pungs", "All Simples", "No Honors")),
    ("Upper Tiles", ("No Honors",)),
    ("Middle Tiles", ("All Simples", "No Honors")),
    ("Lower Tiles", ("No Honors",)),
    ("Three-Suited Terminal Chows", ("All Chows", "No Honors")),
    ("All Five", ("All Simples", "No Honors")),
    ("Upper Four", ("No Honors",)),
    ("Lower Four", ("No Honors",)),
    ("Big Three Winds", ("*three of the pungs of terminals or honors",)),
    ("Reversible Tiles", ("One Voided Suit",)),
    ("Last Tile Draw", ("Self-Drawn",)),
    ("Out with Replacement Tile", ("Self-Drawn",)),
    ("Melded Hand", ("Single Wait",)),
    ("Two Dragons Pungs", ("Dragon Pung",)),
    ("Fully Concealed Hand", ("Self-Drawn",)),
    ("All Chows", ("No Honors",)),
    ("All Simples", ("No Honors",)),
)


def _apply_exclusions(table: Counter) -> None:
    for present, cleared in _EXCLUSIONS:
        if not table[present]:
            continue
        for name in cleared:
            if name == "*fully concealed becomes self-drawn":
                if table["Fully Concealed Hand"]:
                    table["Fully Concealed Hand"] = 0
                    table["Self-Drawn"] = 1
            elif name == "*three of the pungs of terminals or honors":
                if not table["All Honors"] and not table["All Terminals and Honors"]:
                    table["Pung of Terminals or Honors"] -= 3
            else:
                table[name] = 0


def _wind_fans(wind_pungs: list[int], ctx: _Context, table: Counter) -> None:
    """Prevalent / Seat Wind for each wind pung, each replacing its Pung of Terminals or Honors (unless a
    bigger fan already dropped those)."""
    for t in wind_pungs:
        dropped = any(table[n] for n in ("Big Three Winds", "All Terminals and Honors", "All Honors",
                                          "Little Four Winds"))
        wind = t - EAST
        if wind == ctx.prevalent_wind:
            table["Prevalent Wind"] = 1
            if not dropped:
                table["Pung of Terminals or Honors"] -= 1
        if wind == ctx.seat_wind:
            table["Seat Wind"] = 1
            if ctx.seat_wind != ctx.prevalent_wind and not dropped:
                table["Pung of Terminals or Honors"] -= 1


# --------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------

@dataclasses.dataclass
class _Context:
    standing: list[int]       # standing tiles with the winning tile
    declared: list[Group]     # the input melds
    declared_counts: list[int]
    win: int
    self_drawn: bool
    last_tile: bool           # corrected "fourth tile" flag
    kong: bool                # corrected kong flag
    last_of_wall: bool
    seat_wind: int
    prevalent_wind: int
    _unique: bool | None = None

    @property
    def kinds(self) -> set[int]:
        return {k for k in range(N_KINDS) if self.standing[k] or self.declared_counts[k]}

    @property
    def unique_wait(self) -> bool:
        """The standing tiles without the winning tile wait on exactly one kind (standard shape, plus
        seven pairs without melds)."""
        if self._unique is None:
            before = list(self.standing)
            before[self.win] -= 1
            self._unique = len(_waits(before, seven_pairs=not self.declared)) == 1
        return self._unique


def _score_standard(ctx: _Context, groups: list[Group]) -> Counter:
    """Fans of one standard decomposition (declared melds + standing sets + pair)."""
    table: Counter = Counter()
    sets = [g for g in groups if g.kind != "pair"]
    pair = next(g.tile for g in groups if g.kind == "pair")
    chows = [g for g in sets if g.kind == "chow"]
    pungs = [g for g in sets if g.is_pung]
    win = ctx.win

    _situation_fans(ctx, table)

    # concealed pungs: on a discard, a concealed pung of the winning tile is exposed, unless a concealed
    # chow (a declared concealed chow counts too) covers the winning tile
    concealed_pungs = sum(1 for g in pungs if g.kind == "pung" and not g.exposed)
    if not ctx.self_drawn and not any(not g.exposed and win in g.tiles for g in chows):
        concealed_pungs -= sum(1 for g in pungs if g.tile == win and not g.exposed)
    if pungs:
        melded_kongs = sum(1 for g in pungs if g.kind == "kong" and g.exposed)
        concealed_kongs = sum(1 for g in pungs if g.kind == "kong" and not g.exposed)
        _kong_fans(melded_kongs, concealed_kongs, concealed_pungs, table)
        if len(pungs) == 4 and not table["Four Kongs"] and not table["Four Concealed Pungs"]:
            table["All Pungs"] += 1
        for g in pungs:
            if is_dragon(g.tile):
                table["Dragon Pung"] += 1
            elif is_terminal(g.tile) or is_wind(g.tile):
                table["Pung of Terminals or Honors"] += 1

    chow_tiles = [g.tile for g in chows]
    pung_tiles = [g.tile for g in pungs]
    if len(chows) == 4 and rank(pair) == 5 and sorted(rank(t) for t in chow_tiles) == [1, 1, 7, 7]:
        chow_suits = [suit(t) for t in chow_tiles]
        others = {0, 1, 2} - {suit(pair)}
        if all(s in others for s in chow_suits) and all(
                sorted(rank(t) for t in chow_tiles if suit(t) == s) == [1, 7] for s in others):
            table["Three-Suited Terminal Chows"] += 1
        elif set(chow_suits) == {suit(pair)}:
            table["Pure Terminal Chows"] += 1
    if not table["Three-Suited Terminal Chows"] and not table["Pure Terminal Chows"]:
        if len(chows) >= 2:
            _chow_fans(chow_tiles, table)
        if len(pungs) >= 2:
            _pung_fans(pung_tiles, table)

    exposed = sum(1 for g in ctx.declared if g.exposed)
    if exposed == 0:
        table["Fully Concealed Hand" if ctx.self_drawn else "Concealed Hand"] += 1
    elif exposed == 4 and not ctx.self_drawn:
        table["Melded Hand"] += 1

    if len(chows) == 4:
        if not is_honor(pair):
            table["All Chows"] += 1
    elif table["Two Dragons Pungs"]:
        if is_dragon(pair):
            table["Little Three Dragons"] = 1
            table["Two Dragons Pungs"] = 0
    elif table["Big Three Winds"]:
        if is_wind(pair):
            table["Little Four Winds"] = 1
            table["Big Three Winds"] = 0

    # Outside Hand / All Five / All Even Pungs: every set and the pair
    outside = five = even = 0
    for g in groups:
        if is_honor(g.tile):
            outside += 1
        elif g.kind == "chow":
            outside += rank(g.tile) in (1, 7)
            five += rank(g.tile) in (3, 4, 5)
        else:
            outside += rank(g.tile) in (1, 9)
            five += rank(g.tile) == 5
            even += rank(g.tile) % 2 == 0
    if outside == 5:
        table["Outside Hand"] += 1
    elif five == 5:
        table["All Five"] += 1
    elif even == 5:
        table["All Even Pungs"] += 1

    kinds = ctx.kinds
    _suit_fans(kinds, table)
    _trait_fans(kinds, table)
    _rank_fans(kinds, table)
    if not table["Quadruple Chow"]:
        fours = sum(1 for k in range(N_KINDS) if ctx.standing[k] + ctx.declared_counts[k] == 4)
        table["Tile Hog"] += fours - sum(1 for g in pungs if g.kind == "kong")

    if not table["Melded Hand"] and not table["Four Kongs"] and ctx.unique_wait:
        own = [g for g in groups if not g.declared]
        if any(g.kind == "chow" and win in (g.tile, g.tile + 2) for g in own):
            table["Edge Wait"] += 1
        elif any(g.kind == "chow" and win == g.tile + 1 for g in own):
            table["Closed Wait"] += 1
        elif pair == win:
            table["Single Wait"] += 1

    _apply_exclusions(table)
    if not table["Big Four Winds"]:
        _wind_fans([g.tile for g in pungs if is_wind(g.tile)], ctx, table)
    if not any(table.values()):
        table["Chicken Hand"] += 1
    return table


def _seven_pairs(ctx: _Context) -> Counter | None:
    c = ctx.standing
    if any(v % 2 for v in c):
        return None
    table: Counter = Counter()
    s = suit(ctx.win)
    if s < 3:
        ranks = [r for r in range(1, 10) if c[9 * s + r - 1]]
        if all(c[9 * s + r - 1] == 2 for r in ranks) and len(ranks) == 7 and ranks[-1] - ranks[0] == 6:
            table["Seven Shifted Pairs"] += 1
            if ranks[0] == 2:
                table["All Simples"] += 1
            _situation_fans(ctx, table)
            return table
    table["Seven Pairs"] += 1
    kinds = ctx.kinds
    _suit_fans(kinds, table)
    _trait_fans(kinds, table)
    _rank_fans(kinds, table)
    table["Tile Hog"] += sum(1 for v in c if v == 4)
    _situation_fans(ctx, table)
    _apply_exclusions(table)
    return table


def _honors_and_knitted(ctx: _Context) -> Counter | None:
    kinds = ctx.kinds
    if len(kinds) != 14:
        return None
    numbers = {k for k in kinds if not is_honor(k)}
    if not 7 <= len(numbers) <= 9 or not any(numbers <= ks for ks in KNITTED_STRAIGHTS):
        return None
    table: Counter = Counter()
    if len(numbers) == 7:
        table["Greater Honors and Knitted Tiles"] += 1
    else:
        table["Lesser Honors and Knitted Tiles"] += 1
        if len(numbers) == 9:
            table["Knitted Straight"] += 1
    _situation_fans(ctx, table)
    return table


def _thirteen_orphans(ctx: _Context) -> Counter | None:
    if ctx.kinds != THIRTEEN_ORPHANS:
        return None
    table: Counter = Counter({"Thirteen Orphans": 1})
    _situation_fans(ctx, table)
    return table


def _knitted_straight(ctx: _Context) -> Counter | None:
    """Knitted straight (in the standing tiles) + one set (standing, or the only meld) + pair."""
    knitted = next((ks for ks in KNITTED_STRAIGHTS if all(ctx.standing[k] for k in ks)), None)
    if knitted is None:
        return None
    rest = list(ctx.standing)
    for k in knitted:
        rest[k] -= 1
    splits = _decompositions(rest)
    if len(splits) != 1:
        return None
    (split,) = splits
    pair = next(t for kind, t in split if kind == "pair")
    if ctx.declared:
        (fourth,) = ctx.declared
    else:
        kind, t = next(g for g in split if g[0] != "pair")
        fourth = Group(kind, t)
    total = [ctx.standing[k] + ctx.declared_counts[k] for k in range(N_KINDS)]

    table: Counter = Counter({"Knitted Straight": 1})
    if fourth.kind == "chow":
        if not is_honor(pair):
            table["All Chows"] += 1
        if total[pair] == 4:
            table["Tile Hog"] += 1
    elif is_wind(fourth.tile):
        table["Pung of Terminals or Honors"] += 1
        _wind_fans([fourth.tile], ctx, table)
        if is_dragon(pair):
            table["All Types"] += 1
    elif is_dragon(fourth.tile):
        table["Dragon Pung"] += 1
        if is_wind(pair):
            table["All Types"] += 1
    else:
        if is_terminal(fourth.tile):
            table["Pung of Terminals or Honors"] += 1
        if not is_honor(pair):
            table["No Honors"] += 1
        if fourth.kind != "kong" and total[fourth.tile] == 4:
            table["Tile Hog"] += 1

    _situation_fans(ctx, table)
    if fourth.exposed:
        if fourth.kind == "kong":
            table["Melded Kong"] += 1
    else:
        if fourth.kind == "kong":
            table["Concealed Kong"] += 1
        if ctx.self_drawn:
            table["Fully Concealed Hand"] += 1
            table["Self-Drawn"] = 0
        else:
            table["Concealed Hand"] += 1

    win = ctx.win
    if not ctx.declared:
        # the wait test looks at the 5 tiles outside the knitted straight only; a winning tile that is not
        # among them can be no edge/closed/single wait of the fourth set or the pair
        if rest[win]:
            outside = list(rest)
            outside[win] -= 1
            if len(_waits(outside, seven_pairs=False)) == 1:
                if fourth.kind == "chow" and win in (fourth.tile, fourth.tile + 2):
                    table["Edge Wait"] += 1
                elif fourth.kind == "chow" and win == fourth.tile + 1:
                    table["Closed Wait"] += 1
                elif pair == win:
                    table["Single Wait"] += 1
    elif win not in knitted or ctx.standing[win] == 3:
        table["Single Wait"] += 1  # with a meld: a pair wait, also when the pair is a knitted kind

    _apply_exclusions(table)
    return table


def _nine_gates(ctx: _Context) -> Counter | None:
    s = suit(ctx.win)
    if ctx.declared or s == 3:
        return None
    before = list(ctx.standing)
    before[ctx.win] -= 1
    gates = [0] * N_KINDS
    for r, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)):
        gates[9 * s + r] = n
    if before != gates:
        return None
    table: Counter = Counter({"Nine Gates": 1})
    extra = {
        1: ("Pure Straight", "Tile Hog"), 9: ("Pure Straight", "Tile Hog"),
        2: ("Two Concealed Pungs", "Short Straight", "Pung of Terminals or Honors"),
        8: ("Two Concealed Pungs", "Short Straight", "Pung of Terminals or Honors"),
        5: ("Two Concealed Pungs", "Pung of Terminals or Honors"),
        3: ("Short Straight",), 4: ("Short Straight",), 6: ("Short Straight",), 7: ("Short Straight",),
    }[rank(ctx.win)]
    for name in extra:
        table[name] += 1
    _situation_fans(ctx, table)
    return table


# --------------------------------------------------------------------------------------------------
# Input checks and the entry point
# --------------------------------------------------------------------------------------------------

def _check(hand, melds, win_tile, seat_wind, prevalent_wind, flowers) -> tuple[list[int], list[Group]]:
    counts = [int(x) for x in hand]
    if len(counts) != N_KINDS or any(x < 0 for x in counts):
        raise ValueError("hand must be 34 non-negative counts")
    if not 0 <= int(win_tile) < N_KINDS:
        raise ValueError(f"win_tile {win_tile} is not a tile kind")
    if len(melds) > 4:
        raise ValueError("at most 4 melds")
    groups = []
    for m in melds:
        if len(m) != 3:
            raise ValueError(f"meld {m!r} must be (kind, first_tile, supplier)")
        kind, t, supplier = m[0], int(m[1]), int(m[2])
        if kind not in ("chow", "pung", "kong"):
            raise ValueError(f"meld kind {kind!r} must be chow, pung or kong")
        if not 0 <= t < N_KINDS or (kind == "chow" and (is_honor(t) or rank(t) > 7)):
            raise ValueError(f"bad first tile {t} for a {kind}")
        if not 0 <= supplier <= 3:
            raise ValueError(f"supplier {supplier} must be 0-3")
        groups.append(Group(kind, t, exposed=supplier != 0, declared=True))
    if 3 * len(groups) + sum(counts) != 13:
        raise ValueError("3 * len(melds) + sum(hand) must be 13")
    total = list(counts)
    total[int(win_tile)] += 1
    for g in groups:
        for t in g.tiles:
            total[t] += 1
    if max(total) > 4:
        raise ValueError("more than 4 copies of a kind")
    for w in (seat_wind, prevalent_wind):
        if w not in (0, 1, 2, 3):
            raise ValueError(f"wind {w!r} must be 0-3")
    if not 0 <= flowers <= 8:
        raise ValueError(f"flowers {flowers!r} must be 0-8")
    return counts, groups


def fan(hand, melds=(), win_tile: int = 0, *, self_drawn: bool = False, fourth_tile: bool = False,
        kong: bool = False, last_of_wall: bool = False, seat_wind: int = 0, prevalent_wind: int = 0,
        flowers: int = 0) -> FanResult | None:
    """Score an MCR hand exactly as PyMahjongGB 1.4.0 does; None when it is not a win."""
    counts, declared = _check(hand, melds, win_tile, seat_wind, prevalent_wind, flowers)
    win = int(win_tile)
    standing = list(counts)
    standing[win] += 1
    declared_counts = [0] * N_KINDS
    for g in declared:
        for t in g.tiles:
            declared_counts[t] += 1

    last_tile = bool(fourth_tile) and standing[win] == 1 or declared_counts[win] == 3
    kong_flag = bool(kong)
    if kong_flag and self_drawn and not any(g.kind == "kong" for g in declared):
        kong_flag = False
    if kong_flag and not self_drawn and (declared_counts[win] or standing[win] != 1):
        kong_flag = False
    ctx = _Context(standing, declared, declared_counts, win, bool(self_drawn), last_tile, kong_flag,
                   bool(last_of_wall), seat_wind, prevalent_wind)

    special = None
    if not declared:
        special = _seven_pairs(ctx) or _honors_and_knitted(ctx) or _thirteen_orphans(ctx)
    if special is None and len(declared) <= 1:
        special = _knitted_straight(ctx)
    if special is None and not declared:
        special = _nine_gates(ctx)

    best, best_total = special, (_total(special) if special else 0)
    if special is None or special["Seven Pairs"]:
        seven_pairs = special is not None
        splits = sorted(
            ([Group(kind, t) for kind, t in split] for split in _decompositions(standing)),
            key=lambda gs: [g.ref_key() for g in sorted((g for g in gs if g.kind != "pair"), key=Group.ref_key)],
        )
        for split in splits:
            table = _score_standard(ctx, declared + split)
            t = _total(table)
            if t > best_total or (t == best_total and (
                    seven_pairs or table["Pure Triple Chow"] or table["Triple Pung"])):
                best, best_total = table, t
    if not best_total:
        return None
    return _result(best, int(flowers))


# --------------------------------------------------------------------------------------------------
# The reference
# --------------------------------------------------------------------------------------------------

def to_reference(hand, melds=(), win_tile: int = 0, *, self_drawn: bool = False, fourth_tile: bool = False,
                 kong: bool = False, last_of_wall: bool = False, seat_wind: int = 0, prevalent_wind: int = 0,
                 flowers: int = 0) -> tuple:
    """The same input as the positional arguments of ``MahjongGB.MahjongFanCalculator`` (no checks)."""
    pack = []
    for kind, t, supplier in melds:
        t, supplier = int(t), int(supplier)
        if kind == "chow":
            pack.append(("CHI", REF_CODE[t + 1], supplier))
        else:
            pack.append(({"pung": "PENG", "kong": "GANG"}[kind], REF_CODE[t], supplier))
    tiles = tuple(REF_CODE[k] for k in range(N_KINDS) for _ in range(int(hand[k])))
    return (tuple(pack), tiles, REF_CODE[int(win_tile)], int(flowers), bool(self_drawn), bool(fourth_tile),
            bool(kong), bool(last_of_wall), int(seat_wind), int(prevalent_wind))


def reference_fan(hand, melds=(), win_tile: int = 0, **kwargs) -> FanResult | None:
    """Score with PyMahjongGB (imported here); None on ``ERROR_NOT_WIN``, ValueError on other errors."""
    from MahjongGB import MahjongFanCalculator

    args = to_reference(hand, melds, win_tile, **kwargs)
    try:
        out = MahjongFanCalculator(*args, verbose=True)
    except TypeError as e:
        if str(e) == "ERROR_NOT_WIN":
            return None
        raise ValueError(str(e)) from e
    fans = tuple((en, count) for _value, count, _zh, en in out)
    return FanResult(sum(v * c for v, c, _zh, _en in out), fans)
