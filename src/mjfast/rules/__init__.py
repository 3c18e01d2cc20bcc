"""Rule sets as data.

A rule set is a frozen, hashable :class:`RuleSet` value with a readable repr: its tile set,
its winning forms, its play and scoring options with their documented defaults. Every public
function that takes ``rules=`` accepts a name or a RuleSet::

    >>> import mjfast
    >>> mjfast.rules.names()
    ('classical', 'basic', 'mcr', 'american')
    >>> r = mjfast.rules.get("classical", flowers=True, payment="discarder")
    >>> r.n_tiles, r.forms, r.family
    (144, ('standard',), 'chinese')
    >>> r.replace(rounds=2).hands_per_game
    8
    >>> mjfast.rules.get("mcr").forms[-1]
    'knitted_straight'

Families (one module each; a family is played by one engine):

- :mod:`mjfast.rules.chinese`: ``"classical"`` (seed 000), ``"basic"`` (seed 001), ``"mcr"``
  (Chinese Official), all :class:`ChineseRules`;
- :mod:`mjfast.rules.american`: ``"american"`` (seed 002, the beginner hand), :class:`AmericanRules`.

Each family has one record, :class:`Family` (:func:`family`, :data:`FAMILIES`): its hand
model, encoding, result extensions and the parts of its engine. What the hand functions need
of a rule set is :func:`hand_facts`. Adding a rule family means adding its module here (a
RuleSet subclass and its presets), its record in ``_family.py``, and its engine (kernels and
an adapter module whose ``ENGINE`` is an :class:`EngineParts`); adding a preset of a family
means adding a value.
"""
from __future__ import annotations

import dataclasses
import warnings
from typing import Literal, TypeVar, overload

from . import american, chinese
from ._base import DEFAULT_FORMS, FORMS, Option, RuleSet, TileSet
from ._cli import FLAGS, ExtraFlag, Flag, add_rule_flags, rule_options
from ._family import FAMILIES, EngineParts, Family
from .american import MAX_PLAY_JOKERS, AmericanRules
from .chinese import MAX_BASE_POINTS, ChineseRules

__all__ = ["AmericanRules", "ChineseRules", "DEFAULT_FORMS", "EngineParts", "ExtraFlag", "FAMILIES", "FLAGS", "FORMS",
           "Family", "Flag", "HandFacts", "MAX_BASE_POINTS", "MAX_PLAY_JOKERS", "Option", "RuleSet", "TileSet",
           "add_rule_flags", "family", "get", "hand_facts", "names", "rule_options"]

_PRESETS = {r.name: r for r in chinese.PRESETS + american.PRESETS}


def names() -> tuple:
    """The names of the rule sets, in the order the documentation gives them.

    Examples
    --------
    >>> names()
    ('classical', 'basic', 'mcr', 'american')
    """
    return tuple(_PRESETS)


_R = TypeVar("_R", bound=RuleSet)


@overload
def get(rules: Literal["american"], **options) -> AmericanRules: ...
@overload
def get(rules: _R, **options) -> _R: ...
@overload
def get(rules: str = "classical", **options) -> RuleSet: ...


def get(rules: str | RuleSet = "classical", **options) -> RuleSet:
    """A rule set by name (or a RuleSet), with option overrides.

    Parameters
    ----------
    rules : str or RuleSet
        One of :func:`names`, or a RuleSet (returned as it is without options).
    **options
        Option values (see the family's ``OPTIONS``; None leaves an option at its value).

    Raises
    ------
    TypeError
        ``rules`` is neither a str nor a RuleSet; an option of the wrong type.
    ValueError
        An unknown name (the valid ones are listed), an unknown option (likewise) or a value
        out of range.

    Examples
    --------
    >>> get("basic").ready_declaration
    True
    >>> get("american", jokers=10).n_tiles
    154
    >>> get(get("mcr"), rounds=2).rounds
    2
    """
    if isinstance(rules, RuleSet):
        return rules.replace(**options) if options else rules
    if not isinstance(rules, str):
        raise TypeError(f"rules must be a str or a mjfast.rules.RuleSet, not {type(rules).__name__}")
    if rules not in _PRESETS:
        raise ValueError(f"unknown rules {rules!r}; choose one of {names()}")
    base = _PRESETS[rules]
    return base.replace(**options) if options else base


def family(rules: str | RuleSet) -> Family:
    """The record of the rule family that plays ``rules`` (a rule set or its name).

    Examples
    --------
    >>> family("classical") is family("mcr") is FAMILIES["chinese"]
    True
    >>> family("american").extensions
    ('american', 'lines')
    """
    return FAMILIES[get(rules).family]


@dataclasses.dataclass(frozen=True)
class HandFacts:
    """What the hand functions (shanten, winning checks, waits, odds) need of a rule set.

    Attributes
    ----------
    forms : tuple of str
        The winning forms (names of :data:`FORMS`; ``("beginner",)`` for American).
    kong_two_pairs : bool
        Seven pairs may count a four-of-a-kind as two pairs.
    model : str
        The hand model: ``"standard"`` or ``"american"`` (:attr:`Family.hand_model`).
    """

    forms: tuple
    kong_two_pairs: bool
    model: str


#: the hand functions' rules=None: the ecosystem's default forms, read with the standard model
DEFAULT_HAND = HandFacts(DEFAULT_FORMS, False, "standard")


def hand_facts(rules: str | RuleSet | None) -> HandFacts:
    """What the hand functions need of ``rules`` (a rule set, its name, or None: the
    ecosystem's default of standard hands, seven pairs and thirteen orphans).

    Examples
    --------
    >>> hand_facts(None).forms
    ('standard', 'seven_pairs', 'thirteen_orphans')
    >>> hand_facts("mcr").kong_two_pairs, hand_facts("american").model
    (True, 'american')
    """
    if rules is None:
        return DEFAULT_HAND
    r = get(rules)
    return HandFacts(r.forms, r.kong_two_pairs, r.hand_model)


def facts(rules) -> tuple:
    """Deprecated: :func:`hand_facts` (a record with named fields). The tuple (forms,
    kong_two_pairs, model)."""
    warnings.warn("mjfast.rules.facts() is deprecated; use mjfast.rules.hand_facts(), whose fields are named",
                  DeprecationWarning, stacklevel=2)
    h = hand_facts(rules)
    return h.forms, h.kong_two_pairs, h.model
