"""The American rule set (seed 002, the beginner hand), played by its own engine
(``mjfast._kernels.american_game``).

- Tiles: 144 (3 suits, winds, dragons, 8 flowers) + ``jokers`` (default 8) = 152. The flowers
  are one kind of their own; jokers stand in for tiles of a set of four, never in the pair.
- Jokers (``all_joker_sets``): True (the default, the common NMJL reading): a concealed set of
  four may be all jokers; False: each set keeps at least one natural tile (mjfast's earlier
  reading). Either way an exposed set holds the natural tile it was called with, and jokers
  never fill a pair. With a card, the card's own ``all_joker_sets`` reads its lines, and this
  option follows it.
- A winning hand: three sets of four identical tiles + a pair, of four different kinds.
- Play: the Charleston (3 passes right, across, left; an optional second Charleston in the
  opposite order, decided by the players' vote unless ``second_charleston`` fixes it; an
  optional courtesy pass of 0-3 tiles with the opposite player; blind passes on the last pass
  of each Charleston when ``blind_pass``), then draws and discards; a discard may be called
  only for a set of four (exposed at once) or for Mahjong; joker exchanges on one's turn.
- Scoring: every player starts each game with ``start_points`` (650); the winner collects
  ``base_points`` (50) from each of the three others, doubled if self-drawn, doubled again if
  the hand holds no joker. A false Mahjong makes a hand dead.
- With ``card`` (an :class:`mjfast.card.Card`, or a card file / mapping to load): a win needs a
  complete line of the card and is paid the line's points instead of ``base_points`` (doubled
  when self-drawn; multiplied by the card's jokerless multiplier when jokerless, unless the line
  is exempt); calls are allowed only for exposures (pung, kong, quint, sextet) that a line can
  use; a hand whose every line is out of reach is dead. ``discarder_pays_double``: on a win by
  discard the discarder pays double (with or without a card).
"""
from __future__ import annotations

import dataclasses
import importlib
import numbers
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from ._base import Option, RuleSet, TileSet, check_bool, check_int

#: jokers in play: the sets sold hold 8 or 10 (docs/rules.md). Deal statistics and exact odds take
#: any TileSet up to TileSet.MAX_JOKERS (16) through their own ``jokers`` argument.
MAX_PLAY_JOKERS = 10


@runtime_checkable
class CardLike(Protocol):
    """What the ``card`` option takes: a card of lines (:class:`mjfast.card.Card` is one) with
    its name, line ids and lines, its joker reading, and the engine's tables of its lines."""

    name: str
    ids: tuple
    lines: Sequence[Any]
    all_joker_sets: bool

    def kernel_tables(self) -> Any: ...


def _check_card(card):
    if card is None:
        return None
    if not isinstance(card, CardLike):
        # a card file or mapping: mjfast.card reads it (it builds on the hand functions, which
        # build on the rules, so the rules import it only when a card is to be read)
        card = importlib.import_module("mjfast.card").load_card(card)
    if any(line.structural for line in card.lines):
        raise ValueError("card: the beginner hand as a card line is for card queries; play it with "
                         "rules='american' and no card")
    return card


def _check_second(sc):
    if not (isinstance(sc, str) and sc == "policy") and not isinstance(sc, (bool, np.bool_)):
        raise ValueError(f"second_charleston must be 'policy', True or False, got {sc!r}")
    return sc if isinstance(sc, str) else bool(sc)


@dataclasses.dataclass(frozen=True)
class AmericanRules(RuleSet):
    """The American rule set's options (see :mod:`mjfast.rules.american`)."""

    jokers: int = 8
    second_charleston: Any = "policy"      # "policy", True or False
    courtesy: bool = True
    blind_pass: bool = True
    base_points: int = 50
    start_points: int = 650
    rounds: int = 1
    card: Any = None
    discarder_pays_double: bool = False
    all_joker_sets: bool = True

    family: ClassVar[str] = "american"
    OPTIONS: ClassVar[dict] = {o.name: o for o in (
        Option("jokers", check_int("jokers", 0, MAX_PLAY_JOKERS), "jokers in the set (0-10)"),
        Option("second_charleston", _check_second,
               "the second Charleston: 'policy' (danced if any player votes for it), True or False"),
        Option("courtesy", check_bool("courtesy"), "the courtesy pass of 0-3 tiles with the opposite player"),
        Option("blind_pass", check_bool("blind_pass"), "blind passes on the last pass of each Charleston"),
        Option("base_points", check_int("base_points", 1, 10**6, "1 to 10**6"),
               "what each loser pays the winner (doubled when self-drawn, again when jokerless)"),
        Option("start_points", check_int("start_points", 0, 10**6, "0 to 10**6"), "every player's points at the start"),
        Option("rounds", check_int("rounds", 1, 16), "deals per seat in a game (1-16)"),
        Option("card", _check_card, "a card of lines (mjfast.card.Card, a card file or mapping); None = the "
                                    "beginner hand"),
        Option("discarder_pays_double", check_bool("discarder_pays_double"),
               "on a win by discard the discarder pays double, the others single"),
        Option("all_joker_sets", check_bool("all_joker_sets"),
               "True (default): a concealed set of four may be all jokers; False: each set keeps a natural "
               "tile (an exposure always holds its called tile); with a card, the card's own value"),
    )}

    @property
    def tile_set(self) -> TileSet:
        return TileSet(flowers=True, jokers=self.jokers, replace_bonus=False)

    @property
    def forms(self) -> tuple:
        return ("beginner",)

    def _unknown(self, key: str) -> str:
        return f"unknown rule option {key!r} for rules={self.name!r}; options are {sorted(self.OPTIONS)}"

    def replace(self, **options) -> AmericanRules:
        """As :meth:`RuleSet.replace`; ``hands_per_game`` (a multiple of 4) may be given
        instead of ``rounds``. A ``card`` given without ``all_joker_sets`` brings its own joker
        reading (its ``all_joker_sets``)."""
        if options.get("card") is not None and options.get("all_joker_sets") is None:
            card = _check_card(options["card"])
            options["card"] = card
            options["all_joker_sets"] = card.all_joker_sets
        hpg = options.pop("hands_per_game", None)
        if hpg is not None:
            if isinstance(hpg, bool) or not isinstance(hpg, numbers.Integral) or hpg % 4 or not 4 <= int(hpg) <= 64:
                raise ValueError(f"hands_per_game must be 4, 8, ..., 64 (every seat deals equally often), got {hpg!r}")
            rd = options.get("rounds")
            if rd is not None and not (isinstance(rd, numbers.Integral) and not isinstance(rd, bool) and rd == hpg // 4):
                raise ValueError("give rounds or hands_per_game, not both")
            options["rounds"] = hpg // 4
        return super().replace(**options)

    def _build(self, values: dict) -> AmericanRules:
        built = super()._build(values)
        if built.card is not None and built.card.all_joker_sets != built.all_joker_sets:
            raise ValueError(f"all_joker_sets={built.all_joker_sets} disagrees with the card, whose lines read "
                             f"all_joker_sets={built.card.all_joker_sets} (its file's key, default True): give the "
                             "same value, or leave all_joker_sets out and the card's applies")
        return built

    def kernel(self) -> dict:
        sc = self.second_charleston
        k = {"jokers": self.jokers, "second": 2 if sc == "policy" else int(bool(sc)),
             "courtesy": int(self.courtesy), "blind": int(self.blind_pass), "base_points": self.base_points,
             "start_points": self.start_points, "hands_per_game": self.hands_per_game,
             "all_joker_sets": int(self.all_joker_sets)}
        if self.discarder_pays_double:
            k["discarder_double"] = 1
        if self.card is not None:
            k["card"] = self.card.kernel_tables()
        return k

    def to_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        # the card options appear only when used, so results without them keep their JSON
        if self.card is None:
            del d["card"]
        else:
            d["card"] = {"name": self.card.name, "lines": list(self.card.ids)}
        if not self.discarder_pays_double:
            del d["discarder_pays_double"]
        if self.all_joker_sets:                 # the default reading: results keep their JSON
            del d["all_joker_sets"]
        d["tiles"] = self.n_tiles
        return d


AMERICAN = AmericanRules("american")
PRESETS = (AMERICAN,)
