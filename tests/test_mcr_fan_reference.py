"""The pure-Python MCR fan oracle (tests/oracles/mcr_fan.py) against the reference PyMahjongGB 1.4.0.

* Literal hands, one or more per fan, with their fan lists worked out by hand: checked on the oracle
  alone (no reference needed) and, when MahjongGB is installed, against the reference too.
* Seeded generated hands of every kind (tests/oracles/mcr_hands.py): total and fan list (as a multiset of
  (name, count)) must agree exactly with the reference, a few thousand per kind by default, hundreds of
  thousands under ``-m slow`` (plus every complete one-suit hand with every winning tile).

Surprises in the reference (all reproduced by the oracle, documented in its module docstring):
the 5-fan 明暗杠 (one concealed + one melded kong) instead of Melded Kong + Concealed Kong; One Voided Suit,
Half Flush and the like still count under Big Three Dragons and other big hands (no "strict 98" rules);
Nine Gates adds fixed fans by the winning tile's rank (e.g. 5 -> Two Concealed Pungs + Pung of Terminals
or Honors); a concealed chow *declared* as a meld with supplier 0 keeps a pung of the winning tile
concealed on a discard; unique waits count exhausted tiles; among equal totals the reference prefers the
decomposition with Pure Triple Chow or Triple Pung, and prefers a standard split to Seven Pairs; it scores
5th copies and wraps flowers modulo 256 (the oracle rejects both as invalid input).
"""
from __future__ import annotations

import collections
import functools
import itertools
import time

import pytest

from mjfast.tiles import parse_hand, tile_index
from oracles import mcr_fan, mcr_hands
from oracles.mcr_fan import FANS, fan, reference_fan

DEFAULT_N = 5000
SLOW_N = 40000


@pytest.fixture(scope="module")
def gb():
    return pytest.importorskip("MahjongGB")


def _key(r):
    return None if r is None else (r.total, sorted(r.fans))


def _compare(cases):
    """(number of cases, number of wins, the disagreements)."""
    bad, wins = [], 0
    for c in cases:
        mine, ref = fan(**c), reference_fan(**c)
        wins += ref is not None
        if _key(mine) != _key(ref):
            bad.append((c, mine, ref))
    return len(cases), wins, bad


def _report(kind, n, wins, bad):
    lines = [f"{kind}: {len(bad)} of {n} disagree ({wins} wins)"]
    for c, mine, ref in bad[:3]:
        lines += [f"  case {c}", f"    oracle    {mine}", f"    reference {ref}"]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# Literal hands
# --------------------------------------------------------------------------------------------------

def _melds(text: str) -> list[tuple[str, int, int]]:
    """``[123m]`` exposed chow (supplier 3), ``[111z]`` exposed pung (supplier 1), ``[1111z]`` exposed kong
    (supplier 2), ``(1111m)`` concealed kong, ``{123m}`` / ``{111z}`` a chow / pung declared concealed."""
    out = []
    for group in text.split():
        kinds = sorted(int(d) - 1 + {"m": 0, "p": 9, "s": 18, "z": 27}[group[-2]] for d in group[1:-2])
        kind = "chow" if kinds[0] != kinds[1] else ("kong" if len(kinds) == 4 else "pung")
        supplier = 0 if group[0] in "({" else {"chow": 3, "pung": 1, "kong": 2}[kind]
        out.append((kind, kinds[0], supplier))
    return out



def L(fans: dict[str, int], hand: str, win: str, melds: str = "", **flags):
    """A literal case: expected fans ``{name: count}`` (its first entry is the fan it illustrates), the
    standing tiles without the winning tile, the winning tile, the melds (see :func:`_melds`), flags.
    Winds default to North / North (no wind pung below is North unless a wind fan is meant)."""
    flags.setdefault("seat_wind", 3)
    flags.setdefault("prevalent_wind", 3)
    case = dict(hand=[int(x) for x in parse_hand(hand)], melds=_melds(melds), win_tile=tile_index(win), **flags)
    return pytest.param(fans, case, id=next(iter(fans)))


BASE = dict(hand="67m22z", win="8m", melds="[234m] [567p] [345s]")  # nothing at all: a Chicken Hand

LITERALS = [
    # 88
    L({"Big Four Winds": 1, "Half Flush": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
      "333444z5m", "5m", "[111z] [222z]"),
    L({"Big Three Dragons": 1, "Half Flush": 1, "Outside Hand": 1, "Single Wait": 1}, "777z1239m", "9m", "[555z] [666z]"),
    L({"All Green": 1, "Concealed Hand": 1, "Two Concealed Pungs": 1, "Pure Double Chow": 1, "Single Wait": 1},
      "223344666888s6z", "6z"),
    L({"Nine Gates": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1}, "1112345678999m", "5m"),
    L({"Nine Gates": 1, "Pure Straight": 1, "Tile Hog": 1, "Self-Drawn": 1}, "1112345678999p", "9p", self_drawn=True),
    L({"Four Kongs": 1, "Pung of Terminals or Honors": 2, "Dragon Pung": 1}, "5s", "5s",
      "(1111m) [5555p] [9999s] [7777z]"),
    L({"Seven Shifted Pairs": 1, "All Simples": 1}, "2233445566778p", "8p"),
    L({"Thirteen Orphans": 1}, "19m19p19s1234567z", "1m"),
    # 64
    L({"All Terminals": 1, "Two Concealed Pungs": 1, "Single Wait": 1}, "111p999s1s", "1s", "[111m] [999m]"),
    L({"Little Four Winds": 1, "Half Flush": 1}, "33344z56m", "7m", "[111z] [222z]"),
    L({"Little Three Dragons": 1, "Half Flush": 1, "Outside Hand": 1, "Two Terminal Chows": 1},
      "77z12378p", "9p", "[555z] [666z]"),
    L({"All Honors": 1, "Two Dragons Pungs": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
      "555666z4z", "4z", "[111z] [222z]"),
    L({"Four Concealed Pungs": 1, "Pung of Terminals or Honors": 2, "Dragon Pung": 1, "Single Wait": 1},
      "111m555p999s777z3s", "3s"),
    L({"Pure Terminal Chows": 1, "Concealed Hand": 1, "Single Wait": 1}, "1122337788995m", "5m"),
    # 48
    L({"Quadruple Chow": 1, "All Chows": 1, "All Simples": 1, "One Voided Suit": 1}, "23423p77s", "4p", "[234p] [234p]"),
    L({"Four Pure Shifted Pungs": 1, "Three Concealed Pungs": 1, "One Voided Suit": 1, "No Honors": 1, "Single Wait": 1},
      "444555666s9m", "9m", "[333s]"),
    # 32
    L({"Four Pure Shifted Chows": 1, "All Chows": 1, "One Voided Suit": 1, "Single Wait": 1},
      "456m9p", "9p", "[123m] [234m] [345m]"),
    L({"Three Kongs": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1}, "456m7p", "7p", "[1111z] [2222p] (3333s)"),
    L({"All Terminals and Honors": 1, "All Types": 1, "Dragon Pung": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
      "111555z1s", "1s", "[111m] [999p]"),
    # 24
    L({"Seven Pairs": 1, "All Types": 1}, "1133m5577p99s11z5z", "5z"),
    L({"Greater Honors and Knitted Tiles": 1}, "147m25p36s123456z", "7z"),
    L({"All Even Pungs": 1, "Two Concealed Pungs": 1, "Single Wait": 1}, "666888s4m", "4m", "[222m] [444p]"),
    L({"Full Flush": 1, "Pure Straight": 1, "Tile Hog": 1, "Pung of Terminals or Honors": 1, "Closed Wait": 1},
      "1114567895p", "5p", "[123p]"),
    L({"Pure Triple Chow": 1, "All Chows": 1, "Single Wait": 1}, "123m9p567567s", "9p", "[567s]"),
    L({"Pure Shifted Pungs": 1, "Two Concealed Pungs": 1, "All Simples": 1, "Single Wait": 1},
      "333444m678p5s", "5s", "[222m]"),
    L({"Upper Tiles": 1, "Mixed Double Chow": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1,
       "Single Wait": 1}, "777999s8m", "8m", "[789m] [789p]"),
    L({"Middle Tiles": 1, "Mixed Double Chow": 1, "Two Concealed Pungs": 1, "Single Wait": 1},
      "444666s5m", "5m", "[456m] [456p]"),
    L({"Lower Tiles": 1, "Mixed Double Chow": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1,
       "Single Wait": 1}, "111333s2m", "2m", "[123m] [123p]"),
    # 16
    L({"Pure Straight": 1, "No Honors": 1, "Single Wait": 1}, "456789s222m9p", "9p", "[123s]"),
    L({"Three-Suited Terminal Chows": 1, "Concealed Hand": 1, "Single Wait": 1}, "123789m123789p5s", "5s"),
    L({"Pure Shifted Chows": 1, "Pung of Terminals or Honors": 1, "One Voided Suit": 1, "Single Wait": 1},
      "567p111z6s", "6s", "[123p] [345p]"),
    L({"All Five": 1, "Mixed Shifted Chows": 1, "Tile Hog": 1, "Single Wait": 1}, "555567s5m", "5m", "[345m] [456p]"),
    L({"Triple Pung": 1, "No Honors": 1, "Single Wait": 1}, "222456s9m", "9m", "[222m] [222p]"),
    L({"Three Concealed Pungs": 1, "Dragon Pung": 1}, "222p555s777z4s", "4s", "[789m]"),  # also waits 3s, 6s
    # 12
    L({"Lesser Honors and Knitted Tiles": 1}, "147m258p36s12345z", "6z"),
    L({"Lesser Honors and Knitted Tiles": 1, "Knitted Straight": 1}, "147m258p369s1234z", "5z"),
    L({"Knitted Straight": 1, "Concealed Hand": 1}, "147m258p369s23m55z", "4m"),
    L({"Knitted Straight": 1, "Single Wait": 1}, "147m258p369s5z", "5z", "[789p]"),
    L({"Upper Four": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
      "666999s7m", "7m", "[678m] [789p]"),
    L({"Lower Four": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
      "111444s3m", "3m", "[234m] [123p]"),
    L({"Big Three Winds": 1, "One Voided Suit": 1, "Single Wait": 1}, "333z567m9p", "9p", "[111z] [222z]"),
    # 8
    L({"Mixed Straight": 1, "Dragon Pung": 1, "Single Wait": 1}, "789s555z9m", "9m", "[123m] [456p]"),
    L({"Reversible Tiles": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
      "888p999s5z", "5z", "[123p] [456s]"),
    L({"Mixed Triple Chow": 1, "Dragon Pung": 1, "Single Wait": 1}, "234s777z1m", "1m", "[234m] [234p]"),
    L({"Mixed Shifted Pungs": 1, "Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1},
      "333s789s5p", "5p", "[111m] [222p]"),
    L({"Chicken Hand": 1}, **BASE),
    L({"Last Tile Draw": 1}, **BASE, self_drawn=True, last_of_wall=True),
    L({"Last Tile Claim": 1}, **BASE, last_of_wall=True),
    L({"Out with Replacement Tile": 1, "Melded Kong": 1}, "67m22z", "8m", "[2222m] [567p] [345s]", self_drawn=True,
      kong=True),
    L({"Robbing The Kong": 1}, **BASE, kong=True),
    # 6
    L({"All Pungs": 1, "Two Concealed Pungs": 1, "No Honors": 1, "Single Wait": 1}, "444666s9m", "9m", "[222m] [555p]"),
    L({"Half Flush": 1, "Pure Straight": 1, "Pung of Terminals or Honors": 1}, "789m111z9m", "9m", "[123m] [456m]"),
    L({"Mixed Shifted Chows": 1, "Dragon Pung": 1, "Single Wait": 1}, "345s777z5m", "5m", "[123m] [234p]"),
    L({"All Types": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1}, "789s111z5z", "5z", "[123m] [567p]"),
    L({"Melded Hand": 1, "Mixed Straight": 1, "Pung of Terminals or Honors": 1}, "5z", "5z",
      "[123m] [456p] [789s] [999m]"),
    L({"Two Concealed Kongs": 1, "Concealed Hand": 1, "Pung of Terminals or Honors": 2, "Short Straight": 1,
       "No Honors": 1, "Single Wait": 1}, "456789s8m", "8m", "(1111m) (9999p)"),
    L({"Two Dragons Pungs": 1, "Short Straight": 1, "One Voided Suit": 1, "Single Wait": 1},
      "123456m9p", "9p", "[555z] [666z]"),
    # 4
    L({"Outside Hand": 1, "Two Concealed Pungs": 1, "Pung of Terminals or Honors": 2, "Single Wait": 1},
      "111999s1z", "1z", "[123m] [789p]"),
    L({"Fully Concealed Hand": 1}, "234m567p345s67m22z", "8m", self_drawn=True),
    L({"Two Melded Kongs": 1}, "67m22z", "8m", "[2222m] [5555p] [345s]"),
    L({"Last Tile": 1}, **BASE, fourth_tile=True),
    # 2
    L({"Dragon Pung": 1, "Single Wait": 1}, "777z8m", "8m", "[234m] [567p] [345s]"),
    L({"Prevalent Wind": 1, "Single Wait": 1}, "111z8m", "8m", "[234m] [567p] [345s]", seat_wind=1, prevalent_wind=0),
    L({"Seat Wind": 1, "Single Wait": 1}, "111z8m", "8m", "[234m] [567p] [345s]", seat_wind=0, prevalent_wind=1),
    L({"Concealed Hand": 1}, "234m567p345s67m22z", "8m"),
    L({"All Chows": 1}, "67m22s", "8m", "[234m] [789p] [345s]"),
    L({"Tile Hog": 1, "All Simples": 1, "Single Wait": 1}, "444m8m", "8m", "[234m] [567p] [345s]"),
    L({"Double Pung": 1}, "67m22z", "8m", "[555m] [555p] [345s]"),
    L({"Two Concealed Pungs": 1, "No Honors": 1, "Single Wait": 1}, "333s777s9m", "9m", "[234m] [567p]"),
    L({"Concealed Kong": 1}, "67m22z", "8m", "(2222m) [567p] [345s]"),
    L({"All Simples": 1, "All Chows": 1}, "67m22s", "8m", "[234m] [567p] [345s]"),
    # 1
    L({"Pure Double Chow": 1, "Mixed Double Chow": 1, "Single Wait": 1}, "789s5z", "5z", "[234m] [234m] [789p]"),
    L({"Mixed Double Chow": 1, "Pure Double Chow": 1, "Single Wait": 1}, "789s5z", "5z", "[234m] [234m] [789p]"),
    L({"Short Straight": 1, "Single Wait": 1}, "567s5z", "5z", "[123m] [456m] [789p]"),
    L({"Two Terminal Chows": 1, "Single Wait": 1}, "567s5z", "5z", "[123m] [789m] [456p]"),
    L({"Pung of Terminals or Honors": 1, "No Honors": 1, "Single Wait": 1}, "999s8m", "8m", "[234m] [567p] [345s]"),
    L({"Melded Kong": 1}, "67m22z", "8m", "[2222m] [567p] [345s]"),
    L({"One Voided Suit": 1}, "67m22z", "8m", "[234m] [567p] [345p]"),
    L({"No Honors": 1, "Pung of Terminals or Honors": 1}, "67m11s", "8m", "[234m] [567p] [999s]"),
    L({"Edge Wait": 1}, "12m22z", "3m", "[234m] [567p] [345s]"),
    L({"Closed Wait": 1}, "13m22z", "2m", "[234m] [567p] [345s]"),
    L({"Single Wait": 1}, "678m5z", "5z", "[234m] [567p] [345s]"),
    L({"Self-Drawn": 1}, **BASE, self_drawn=True),
    L({"Flower Tiles": 3, "Chicken Hand": 1}, **BASE, flowers=3),
    L({"Concealed Kong and Melded Kong": 1}, "67m22z", "8m", "(2222m) [5555p] [345s]"),
    # the reference's tie-breaks and quirks
    L({"Pure Triple Chow": 1, "Upper Four": 1, "Concealed Hand": 1, "All Chows": 1}, "789m77p66777888s", "6s"),  # not Pure Shifted Pungs
    L({"Triple Pung": 1, "Concealed Hand": 1, "Two Concealed Pungs": 1, "All Simples": 1}, "4445677m777p777s", "7m"),
    L({"Middle Tiles": 1, "All Five": 1, "Fully Concealed Hand": 1, "All Chows": 1, "Tile Hog": 1, "Pure Double Chow": 2,
       "Mixed Double Chow": 1, "One Voided Suit": 1}, "4455566m445566p", "5m", self_drawn=True),  # 52 = Seven Pairs
    L({"Knitted Straight": 1, "Concealed Hand": 1, "Tile Hog": 1, "No Honors": 1, "Single Wait": 1, "Flower Tiles": 4},
      "258m147p3666699s", "9s", flowers=4),  # the 4 outside tiles wait on 9s only
    L({"Knitted Straight": 1, "Tile Hog": 1, "Pung of Terminals or Honors": 1, "Single Wait": 1},
      "147m258s369p5z", "5z", "[999p]"),
    L({"Big Three Dragons": 1, "One Voided Suit": 1, "Concealed Hand": 1, "Single Wait": 1,
       "Three Concealed Pungs": 1}, "555666777z123m5p", "5p"),
    L({"Two Concealed Pungs": 1, "Tile Hog": 1, "No Honors": 1}, "22m555s99p", "2m", "{123m} [789p]"),  # {123m} "holds" the 2m
    L({"Tile Hog": 1, "No Honors": 1}, "22m555s99p", "2m", "[123m] [789p]"),  # 222m completed by the discard: exposed
    L({"Last Tile": 1, "Tile Hog": 1, "Edge Wait": 1}, "12m22z", "3m", "[333m] [567p] [345s]"),  # forced: 3 copies in the melds
    L({"Edge Wait": 1, "Self-Drawn": 1}, "12m22z", "3m", "[234m] [567p] [345s]", kong=True, self_drawn=True),  # no kong: flag dropped
]


@pytest.mark.parametrize("fans, case", LITERALS)
def test_literal_hand_oracle(fans, case):
    """Worked by hand: the oracle gives exactly these fans (flowers included) and their total."""
    res = fan(**case)
    assert res is not None
    name = next(iter(fans))
    assert res.count(name) == fans[name]
    assert mcr_fan.FAN_BY_NAME[name].value == {f.name: f.value for f in FANS}[name]
    assert dict(res.fans) == fans
    assert res.total == sum(mcr_fan.FAN_BY_NAME[n].value * c for n, c in fans.items())


@pytest.mark.parametrize("fans, case", LITERALS)
def test_literal_hand_reference(gb, fans, case):
    res = reference_fan(**case)
    assert res is not None and dict(res.fans) == fans


def test_every_fan_has_a_literal_hand():
    covered = {name for p in LITERALS for name in p.values[0]}
    assert covered == {f.name for f in FANS}


LITERAL_TOTALS = {  # a few totals spelled out
    "Big Four Winds": 97, "Big Three Dragons": 99, "All Green": 94, "Nine Gates": 91, "Four Kongs": 92,
    "Thirteen Orphans": 88, "Chicken Hand": 8, "Concealed Kong and Melded Kong": 5, "Flower Tiles": 11,
}


def test_literal_totals():
    seen = set()
    for p in LITERALS:
        fans, case = p.values
        name = next(iter(fans))
        if name in LITERAL_TOTALS and name not in seen:
            seen.add(name)
            assert fan(**case).total == LITERAL_TOTALS[name], name
    assert seen == set(LITERAL_TOTALS)


# --------------------------------------------------------------------------------------------------
# The fan table, input checks, non-wins
# --------------------------------------------------------------------------------------------------

def test_fan_table():
    assert len(FANS) == 82
    assert len({f.name for f in FANS}) == 82 and len({f.chinese for f in FANS}) == 82
    values = collections.Counter(f.value for f in FANS)
    assert values == {88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 9, 6: 7, 4: 4, 2: 10, 1: 13, 5: 1}
    assert (FANS[0].name, FANS[-3].name, FANS[-2].name, FANS[-1].name) == (
        "Big Four Winds", "Self-Drawn", "Flower Tiles", "Concealed Kong and Melded Kong")
    assert FANS[-1].chinese == "明暗杠"


def test_fan_names_match_reference(gb):
    """Every (English, Chinese, value) the reference reports on generated hands is a row of FANS."""
    rows = {(f.name, f.chinese, f.value) for f in FANS}
    seen = set()
    for c in mcr_hands.templates(600, 3):
        out = gb.MahjongFanCalculator(*mcr_fan.to_reference(**c), verbose=True)
        for value, _count, chinese, english in out:
            assert (english, chinese, value) in rows
            seen.add(english)
    assert len(seen) > 60


def test_to_reference():
    hand = [int(x) for x in parse_hand("12m5p9s567z")]
    args = mcr_fan.to_reference(hand, [("chow", tile_index("3s"), 2), ("kong", tile_index("1z"), 0)], tile_index("5z"),
                                self_drawn=True, seat_wind=2, prevalent_wind=1, flowers=3)
    assert args == ((("CHI", "T4", 2), ("GANG", "F1", 0)), ("W1", "W2", "B5", "T9", "J3", "J2", "J1"), "J3", 3,
                    True, False, False, False, 2, 1)


BAD_INPUTS = [
    dict(hand=parse_hand("123m456p789s11z"), win_tile=0),              # 14 standing tiles
    dict(hand=parse_hand("123m456p789s12z"), melds=[("pung", 5, 1)], win_tile=27),  # 14 tiles in all
    dict(hand=parse_hand("1111m456p789s11z"), win_tile=0),             # a 5th 1m
    dict(hand=parse_hand("111m456p789s1z"), melds=[("pung", 0, 1)], win_tile=27),
    dict(hand=parse_hand("456p789s1z"), melds=[("chow", 7, 1)], win_tile=27),      # chow 8-9-1?
    dict(hand=parse_hand("456p789s1z"), melds=[("sets", 0, 1)], win_tile=27),
    dict(hand=parse_hand("456p789s1z"), melds=[("pung", 0, 4)], win_tile=27),
    dict(hand=parse_hand("123m456p789s1z"), win_tile=34),
    dict(hand=parse_hand("123m456p789s1z"), win_tile=27, seat_wind=4),
    dict(hand=parse_hand("123m456p789s1z"), win_tile=27, flowers=9),
]


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_invalid_input(case):
    with pytest.raises(ValueError):
        fan(**case)


def test_reference_errors(gb):
    with pytest.raises(ValueError, match="WRONG_TILES_COUNT"):
        reference_fan(**BAD_INPUTS[0])
    with pytest.raises(ValueError, match="WRONG_TILES_COUNT"):
        reference_fan(**BAD_INPUTS[1])


@pytest.mark.parametrize("hand, win", [
    ("123m456p789s1234z", "5z"), ("19m19p19s1234566z", "8m"), ("1122m3344p5566s7z", "1z"), ("147m258p36s12345z", "5z"),
    ("1112345678999m", "1p"), ("147m258p369s23m55z", "6z"),
])
def test_not_a_win(hand, win):
    assert fan(hand=parse_hand(hand), win_tile=tile_index(win)) is None


# --------------------------------------------------------------------------------------------------
# Generated hands against the reference
# --------------------------------------------------------------------------------------------------

@functools.cache
def _generated(kind: str, n: int, seed: int):
    return mcr_hands.GENERATORS[kind](n, seed)


@pytest.mark.slow   # (the default run stays under ten minutes; .ci/run runs the slow tier)
def test_generators_are_valid_and_cover_every_fan():
    seen = collections.Counter()
    for kind in mcr_hands.GENERATORS:
        cases = _generated(kind, DEFAULT_N, 1)
        assert len(cases) == DEFAULT_N
        for c in cases:
            total = list(c["hand"])
            total[c["win_tile"]] += 1
            for kind_, t, supplier in c["melds"]:
                for x in mcr_hands.set_tiles(kind_, t):
                    total[x] += 1
                assert 0 <= supplier <= 3
            assert max(total) <= 4 and sum(c["hand"]) + 3 * len(c["melds"]) == 13 and 0 <= c["flowers"] <= 8
            res = fan(**c)
            if kind != "near_miss":
                assert res is not None, c
            if res is not None:
                seen.update(res.names)
    assert {f.name for f in FANS} <= set(seen), {f.name for f in FANS} - set(seen)
    assert mcr_hands.GENERATORS["random_weighted"](5, 9) == mcr_hands.GENERATORS["random_weighted"](5, 9)


@pytest.mark.parametrize("kind", list(mcr_hands.GENERATORS))
def test_agrees_with_reference(gb, kind):
    n, wins, bad = _compare(_generated(kind, DEFAULT_N, 1))
    assert not bad, _report(kind, n, wins, bad)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(mcr_hands.GENERATORS))
def test_agrees_with_reference_slow(gb, kind):
    start = time.perf_counter()
    total = bad_total = 0
    for seed in (101, 102):
        n, wins, bad = _compare(mcr_hands.GENERATORS[kind](SLOW_N // 2, seed))
        total += n
        bad_total += len(bad)
        assert not bad, _report(f"{kind} seed {seed}", n, wins, bad)
    print(f"{kind}: {total} hands agree ({time.perf_counter() - start:.0f} s)")


@pytest.mark.slow
def test_every_one_suit_hand(gb):
    """Every complete concealed hand of one suit (standard or seven pairs), every winning tile, on a discard
    and self-drawn: about 190,000 hands."""
    cases = []
    for combo in itertools.combinations_with_replacement(range(9), 14):
        counts = [0] * 34
        for r in combo:
            counts[r] += 1
        if max(counts) > 4 or not (mcr_hands._complete(counts) or all(c % 2 == 0 for c in counts)):
            continue
        for w in (k for k in range(9) if counts[k]):
            hand = list(counts)
            hand[w] -= 1
            for self_drawn in (False, True):
                cases.append(dict(hand=hand, melds=[], win_tile=w, self_drawn=self_drawn))
    n, wins, bad = _compare(cases)
    assert n > 150_000 and wins == n
    assert not bad, _report("one suit", n, wins, bad)
