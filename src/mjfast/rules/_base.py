"""What every rule set is: its tile set, winning forms, play options with their defaults and
checks, and what the engines and kernels need of it."""
from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import numpy as np

from ._family import FAMILIES

#: the forms a hand can win in; each rule set allows some of them
FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
#: hand functions with ``rules=None``: the widespread default of the mahjong ecosystem
DEFAULT_FORMS = ("standard", "seven_pairs", "thirteen_orphans")

#: a rule set's own class: replace() and _build() return the family's class
_R = TypeVar("_R", bound="RuleSet")


@dataclasses.dataclass(frozen=True)
class TileSet:
    """The physical tiles of a rule set.

    Attributes
    ----------
    flowers : bool
        The 8 bonus tiles (flowers and seasons) are in the set.
    jokers : int
        American jokers (0 for the Chinese sets).
    replace_bonus : bool
        Bonus tiles are set aside when drawn and replaced from the back of the wall (Chinese
        sets); in the American set the flowers are a kind of their own.
    """

    flowers: bool
    jokers: int = 0
    replace_bonus: bool = False

    #: the kernels deal and count sets of up to 144 + 16 tiles
    MAX_JOKERS: ClassVar[int] = 16

    @property
    def n_tiles(self) -> int:
        return 136 + 8 * self.flowers + self.jokers


@dataclasses.dataclass(frozen=True)
class Option:
    """A play option of a rule family: its default is the preset's field value; ``check``
    normalises a value or raises ValueError/TypeError naming the option; ``doc`` says what it
    means."""

    name: str
    check: Callable[[Any], Any]
    doc: str


def check_bool(name: str) -> Callable[[Any], bool]:
    def check(v):
        if not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, not {v!r}")
        return bool(v)
    return check


def check_int(name: str, lo: int, hi: int, text: str | None = None) -> Callable[[Any], int]:
    def check(v):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not lo <= v <= hi:
            raise ValueError(f"{name} must be an int from {text or f'{lo} to {hi}'}, got {v!r}")
        return int(v)
    return check


def check_choice(name: str, choices: tuple) -> Callable[[Any], str]:
    def check(v):
        if not isinstance(v, str) or v not in choices:
            raise ValueError(f"{name} must be {' or '.join(repr(c) for c in choices)}, got {v!r}")
        return v
    return check


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """A rule set as data: a frozen, hashable value with a readable repr.

    Every family subclasses it with its option fields (their preset values are the defaults)
    and answers what the rest of the library asks of a rule set: the tile set, the winning
    forms, the engine family, what the kernels need, and the JSON form of its options. Make
    one with :func:`mjfast.rules.get`; change options with :meth:`replace`.
    """

    name: str

    #: the engine family that plays this rule set ("chinese" or "american"; its record:
    #: :func:`mjfast.rules.family`)
    family: ClassVar[str] = ""
    #: the option schema: field name -> Option
    OPTIONS: ClassVar[dict] = {}

    # -- what the rule set says ------------------------------------------------------------
    @property
    def hand_model(self) -> str:
        """How hands are read: "standard" (34 kinds, sets and a pair) or "american" (jokers,
        the flowers one kind); the family's (:attr:`Family.hand_model`)."""
        return FAMILIES[self.family].hand_model

    @property
    def tile_set(self) -> TileSet:
        raise NotImplementedError

    @property
    def n_tiles(self) -> int:
        return self.tile_set.n_tiles

    @property
    def forms(self) -> tuple:
        """The winning forms (names of :data:`FORMS`, or ``("beginner",)`` for American)."""
        raise NotImplementedError

    @property
    def kong_two_pairs(self) -> bool:
        """Seven pairs may count a four-of-a-kind as two pairs."""
        return False

    @property
    def hands_per_game(self) -> int:
        return 4 * getattr(self, "rounds", 1)

    def kernel(self) -> dict:
        """What the family's game engine needs (a plain dict)."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The options as JSON (the ``"options"`` of results and event logs)."""
        raise NotImplementedError

    # -- options ---------------------------------------------------------------------------
    @classmethod
    def option_names(cls) -> tuple:
        return tuple(sorted(cls.OPTIONS))

    def accepts(self, option: str) -> bool:
        """This rule set lets ``option`` be changed (the command line's flags apply where it does)."""
        return option in self.OPTIONS

    def replace(self: _R, **options) -> _R:
        """This rule set with some options changed (None leaves an option as it is); each
        value checked. Raises ValueError naming an unknown option and listing the valid ones."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}
        for key, value in options.items():
            if value is None:
                continue
            if key not in self.OPTIONS:
                raise ValueError(self._unknown(key))
            values[key] = value
        return self._build(values)

    def _unknown(self, key: str) -> str:
        return f"unknown rule option {key!r}; options are {sorted(self.OPTIONS)}"

    def _build(self: _R, values: dict) -> _R:
        """Check every option value and make the rule set (families add cross-checks)."""
        checked = {k: self.OPTIONS[k].check(v) for k, v in values.items()}
        return dataclasses.replace(self, **checked)
