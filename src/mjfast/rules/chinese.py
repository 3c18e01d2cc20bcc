"""The Chinese family of rule sets: classical (seed 000), basic (seed 001) and Chinese
Official (MCR), played by one engine (``mjfast._kernels.chinese_game``).

``"classical"`` (seed 000)
    136 tiles (``flowers=True``: 144, bonus tiles set aside and replaced from the back end);
    standard hands only (``special_forms=("seven_pairs", "thirteen_orphans")`` adds them);
    dead wall = the stacks counted by the dice (``dead_wall="dice"``, or a tile count), used up
    by replacements before the live wall shortens (``refill_dead_wall``);
    20 points for going out, each loser pays 20 (``payment="discarder"``: the discarder pays
    all three shares of a discard win).
``"basic"`` (seed 001)
    136 tiles, standard hands, no dead wall, and the "Stop" rule: a player must declare a ready
    hand to win and may not change it afterwards (``ready_declaration=False`` turns it off).
``"mcr"`` (Chinese Official, scored as the Botzone MCR competition scores it)
    144 tiles with bonus replacement (``flowers=False``: 136); winning forms: standard, seven
    pairs (a kong counts as two pairs), thirteen orphans, honors-and-knitted, knitted straight
    (closed, or with one called set). Every win is scored with the fan calculator
    (:mod:`mjfast.mcr`) and is valid only with at least ``min_fan`` (default 8) fan not
    counting flowers; payment ``scoring="fan"``: base 8 + fan F (flowers included), a
    self-drawn win is paid 8 + F by each of the three others, a win on a discard 8 + F by the
    discarder and 8 by the other two; a player may rob an added kong (its owner pays as the
    discarder) and win on a kong's replacement tile; seat winds from the dealer (East),
    prevalent wind by round. A false win (a declared hand that is not complete or is below
    ``min_fan``: only Python policies can make one) costs the declarer 30, 10 to each other
    player, and ends the hand (``false_win="penalty"``), or raises IllegalActionError
    (``false_win="error"``). ``scoring="basic", min_fan=0`` is the engine before fan scoring:
    any complete hand wins ``base_points`` from each loser, no kong robbing.
``"mcr-botzone"`` (the Botzone Chinese-Standard-Mahjong judge)
    Chinese Official as the Botzone judge plays it (docs/mcr.md, "mcr-botzone"): 136 tiles
    (``flowers=True``: 144), four private walls of ``n_tiles / 4``: seat i's wall is tiles
    ``[34 i, 34 i + 34)`` of the shuffled set and every tile seat i receives (deal, draws,
    flower and kong replacements) is the last one left in its own wall; seats deal 13 each,
    seat 0 is always the dealer and its 14th tile is its first draw; seat wind = seat, the
    prevalent wind is the option ``quan`` (0 East .. 3 North) for every hand; a game is
    ``rounds`` hands (default 1: one Botzone match); the hand is drawn when the seat that must
    draw has an empty own wall; Last Tile (妙手回春 / 海底捞月) when the own wall of the seat
    after the drawer (or discarder) is empty, and then no chow, pung or kong on that discard;
    a concealed or added kong needs the declarer's own wall and the next seat's non-empty.
    Fans, the 8-fan minimum, payments and the false-win penalty are those of ``"mcr"``.

Two readings that the seed texts leave open are options:

``refill_dead_wall`` (default False, seed 000's reading)
    The dead wall is the stacks counted off by the dice (``dead_wall``), "reserved as the
    replacement tiles": kong and bonus replacements use it up, and the live wall keeps its
    length until the dead wall is empty; only then do replacements come from the end of the
    live wall. ``True``: the dead wall keeps its size, each replacement taking the live wall's
    last tile into it (as in Japanese riichi), so every replacement shortens the live wall by
    one. The two differ only when ``dead_wall`` is not 0.
``added_kong`` (default ``"any"``)
    Which copy may be added to one's exposed pung on one's own turn: ``"any"`` held copy (seed
    000: "if the tile is from the wall the Kong can be formed using the exposed Pung", a tile
    held since an earlier turn came from the wall too; common practice) or only the tile
    ``"drawn"`` this turn (a strict reading of "adding a drawn tile").
"""
from __future__ import annotations

import dataclasses
import numbers
from typing import Any, ClassVar

from .. import _core
from ._base import FORMS, Option, RuleSet, TileSet, check_bool, check_choice, check_int

#: every scoring option is bounded so that no game's score can overflow the engine's 32-bit
#: counters (a game is at most 16 rounds x 4 hands, each moving at most 3 * base_points)
MAX_BASE_POINTS = 10**6
SPECIAL_FORMS = FORMS[1:]


def _check_special_forms(v) -> tuple:
    if not isinstance(v, (list, tuple)):
        raise TypeError(f"special_forms must be a tuple of form names, not {type(v).__name__}")
    for f in v:
        if not isinstance(f, str) or f not in SPECIAL_FORMS:
            raise ValueError(f"unknown special form {f!r}")
    return tuple(v)


def _check_dead_wall(dw):
    if not (isinstance(dw, str) and dw == "dice") and (
            isinstance(dw, bool) or not isinstance(dw, numbers.Integral) or not 0 <= dw <= 40):
        raise ValueError(f"dead_wall must be 'dice' or a tile count 0-40, got {dw!r}")
    return dw if isinstance(dw, str) else int(dw)


@dataclasses.dataclass(frozen=True)
class ChineseRules(RuleSet):
    """A rule set of the Chinese family (see :mod:`mjfast.rules.chinese`); also known by its
    earlier name ``GameRules``."""

    flowers: bool = False
    special_forms: tuple = ()
    dead_wall: Any = "dice"
    ready_declaration: bool = False
    base_points: int = 20
    payment: str = "each"
    rounds: int = 1
    chow: bool = True
    kong: bool = True
    refill_dead_wall: bool = False
    added_kong: str = "any"
    scoring: str = "basic"
    min_fan: int = 0
    false_win: str = "penalty"
    quan: int = 0
    # preset facts, not options
    kong_two_pairs: bool = dataclasses.field(default=False, repr=False)
    botzone: bool = dataclasses.field(default=False, repr=False)   # the Botzone judge's walls and seats
    fixed: tuple = dataclasses.field(default=(), repr=False)   # options the preset does not let change

    family: ClassVar[str] = "chinese"
    OPTIONS: ClassVar[dict] = {o.name: o for o in (
        Option("flowers", check_bool("flowers"), "play with the 8 bonus tiles (144 tiles)"),
        Option("special_forms", _check_special_forms, "special forms that also win, beside the standard form"),
        Option("dead_wall", _check_dead_wall, "tiles reserved at the back: 'dice' (2 x the dice total) or 0-40"),
        Option("ready_declaration", check_bool("ready_declaration"),
               "the Stop rule: a player must declare a ready hand to win and keeps it fixed"),
        Option("base_points", check_int("base_points", 1, MAX_BASE_POINTS, "1 to 10**6"),
               "points for going out, paid by each loser (1 to 10**6)"),
        Option("payment", check_choice("payment", ("each", "discarder")),
               "'each' loser pays base_points, or the 'discarder' pays all three shares of a discard win"),
        Option("rounds", check_int("rounds", 1, 16), "deals per seat in a game (1-16)"),
        Option("chow", check_bool("chow"), "chow claims allowed"),
        Option("kong", check_bool("kong"), "kongs allowed"),
        Option("refill_dead_wall", check_bool("refill_dead_wall"),
               "the dead wall keeps its size (each replacement shortens the live wall); default: it is used up first"),
        Option("added_kong", check_choice("added_kong", ("any", "drawn")),
               "the copy added to an exposed pung: 'any' held copy or only the tile just 'drawn'"),
        Option("scoring", check_choice("scoring", ("fan", "basic")),
               "mcr: 'fan' (8 + fan, the competition's payment; kong robbing) or 'basic' (flat base_points)"),
        Option("min_fan", check_int("min_fan", 0, 88), "mcr: fan a win needs, flowers not counted (0-88)"),
        Option("false_win", check_choice("false_win", ("penalty", "error")),
               "mcr: a false win by a Python policy costs 30 ('penalty') or raises IllegalActionError ('error')"),
        Option("quan", check_int("quan", 0, 3),
               "mcr-botzone: the prevalent wind of every hand (0 East, 1 South, 2 West, 3 North)"),
    )}
    #: options that only the Chinese Official presets have
    MCR_ONLY: ClassVar[tuple] = ("scoring", "min_fan", "false_win")
    #: the presets scored with Chinese Official fans
    MCR_NAMES: ClassVar[tuple] = ("mcr", "mcr-botzone")
    #: options of the Botzone preset only
    BOTZONE_ONLY: ClassVar[tuple] = ("quan",)
    #: options the Botzone judge fixes (mcr-botzone refuses another value)
    BOTZONE_FIXED: ClassVar[tuple] = ("special_forms", "dead_wall", "ready_declaration", "base_points", "payment",
                                      "chow", "kong", "refill_dead_wall", "added_kong", "scoring")

    @property
    def tile_set(self) -> TileSet:
        return TileSet(flowers=self.flowers, jokers=0, replace_bonus=self.flowers)

    def accepts(self, option: str) -> bool:
        """As :meth:`RuleSet.accepts`; the Chinese Official options only under ``"mcr"`` and
        ``"mcr-botzone"``, ``quan`` only under ``"mcr-botzone"``, which fixes what its judge fixes."""
        if option not in self.OPTIONS:
            return False
        if self.botzone:
            return option not in self.BOTZONE_FIXED
        return option not in self.BOTZONE_ONLY and (option not in self.MCR_ONLY or self.name in self.MCR_NAMES)

    @property
    def hands_per_game(self) -> int:
        """Hands in a game: 4 x ``rounds`` (each seat deals ``rounds`` times); mcr-botzone:
        ``rounds`` (seat 0 deals every hand, one Botzone match each)."""
        return self.rounds if self.botzone else 4 * self.rounds

    @property
    def forms(self) -> tuple:
        return ("standard",) + tuple(f for f in SPECIAL_FORMS if f in self.special_forms)

    def form_bits(self) -> int:
        """The kernels' bit set of the winning forms (with the kong-as-two-pairs flag)."""
        bits = 0
        for f in self.forms:
            bits |= _core.FORM_BITS[f]
        return bits | (_core.KONG_TWO_PAIRS if self.kong_two_pairs else 0)

    def _build(self, values: dict) -> ChineseRules:
        if not isinstance(values["special_forms"], (list, tuple)):
            raise TypeError(f"special_forms must be a tuple of form names, not {type(values['special_forms']).__name__}")
        for key in ("flowers", "ready_declaration", "chow", "kong", "refill_dead_wall"):
            values[key] = self.OPTIONS[key].check(values[key])
        values["special_forms"] = _check_special_forms(values["special_forms"])
        if "flowers" in self.fixed and values["flowers"] != self.flowers:
            raise ValueError(f"rules={self.name!r} is played with the 144-tile set (flowers=True)")
        if "special_forms" in self.fixed and values["special_forms"] != self.special_forms:
            raise ValueError(f"rules={self.name!r} always allows its special forms")
        for key in ("dead_wall", "base_points", "payment", "rounds", "added_kong") + self.MCR_ONLY + self.BOTZONE_ONLY:
            values[key] = self.OPTIONS[key].check(values[key])
        if not self.botzone and values["quan"] != self.quan:
            raise ValueError(f"quan applies to rules='mcr-botzone' (the Botzone judge's prevalent wind), "
                             f"not to rules={self.name!r}")
        if self.botzone:
            for key in self.BOTZONE_FIXED:
                if values[key] != getattr(self, key):
                    raise ValueError(f"rules={self.name!r} plays the Botzone judge's rules: {key} is fixed "
                                     f"({key}={getattr(self, key)!r})")
        if self.name not in self.MCR_NAMES:
            for key in self.MCR_ONLY:
                if values[key] != getattr(self, key):
                    raise ValueError(f"{key} applies to rules='mcr' (Chinese Official fans), not to rules={self.name!r}")
        elif values["scoring"] == "fan":
            if values["base_points"] != MCR.base_points:
                raise ValueError("base_points applies to scoring='basic'; fan scoring pays 8 + fan (the competition's base)")
            if values["payment"] != "each":
                raise ValueError("payment applies to scoring='basic'; fan scoring has its own payment "
                                 "(self-drawn: 8 + fan from each; discard: the discarder 8 + fan, the others 8)")
        return dataclasses.replace(self, **values)

    def kernel(self) -> dict:
        return {
            "n_tiles": self.n_tiles, "replace_bonus": int(self.flowers), "forms": self.form_bits(),
            "dead_wall": -1 if self.dead_wall == "dice" else int(self.dead_wall),
            "ready_rule": int(self.ready_declaration), "base_points": self.base_points,
            "payment": 0 if self.payment == "each" else 1, "hands_per_game": self.hands_per_game,
            "allow_chow": int(self.chow), "allow_kong": int(self.kong),
            "refill_dead_wall": int(self.refill_dead_wall), "added_kong_drawn": int(self.added_kong == "drawn"),
            "fan_scoring": int(self.scoring == "fan"), "min_fan": self.min_fan,
            "false_win_error": int(self.false_win == "error"),
            **({"botzone": 1, "quan": self.quan} if self.botzone else {}),
        }

    @property
    def uses_fans(self) -> bool:
        """Wins are scored with the fan calculator (fan scoring or a fan minimum)."""
        return self.scoring == "fan" or self.min_fan > 0

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"name": self.name}
        d.update({k: getattr(self, k) for k in self.OPTIONS
                  if (self.name in self.MCR_NAMES or k not in self.MCR_ONLY)
                  and (self.botzone or k not in self.BOTZONE_ONLY)})
        d["special_forms"] = list(self.special_forms)
        d["tiles"] = self.n_tiles
        return d


CLASSICAL = ChineseRules("classical")
BASIC = ChineseRules("basic", dead_wall=0, ready_declaration=True)
MCR = ChineseRules("mcr", flowers=True, special_forms=SPECIAL_FORMS, dead_wall=0, kong_two_pairs=True,
                   scoring="fan", min_fan=8, fixed=("special_forms",))
MCR_BOTZONE = ChineseRules("mcr-botzone", special_forms=SPECIAL_FORMS, dead_wall=0, kong_two_pairs=True,
                           scoring="fan", min_fan=8, botzone=True, fixed=("special_forms",))
PRESETS = (CLASSICAL, BASIC, MCR, MCR_BOTZONE)
