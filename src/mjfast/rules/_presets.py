"""The rule sets by name: :func:`names`, :func:`get` (the one constructor of rule sets) and
:func:`family` (the record of the family that plays one), for :mod:`mjfast.rules`."""
from __future__ import annotations

from typing import Literal, TypeVar, overload

from . import american, chinese
from ._base import RuleSet
from ._family import FAMILIES, Family
from .american import AmericanRules

_PRESETS = {r.name: r for r in chinese.PRESETS + american.PRESETS}


def names() -> tuple:
    """The names of the rule sets, in the order the documentation gives them.

    Examples
    --------
    >>> names()
    ('classical', 'basic', 'mcr', 'mcr-botzone', 'american')
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
