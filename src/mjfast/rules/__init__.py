"""Rule sets as data.

A rule set is a frozen, hashable :class:`RuleSet` value with a readable repr: its tile set,
its winning forms, its play and scoring options with their documented defaults. Every public
function that takes ``rules=`` accepts a name or a RuleSet::

    >>> import mjfast
    >>> mjfast.rules.names()
    ('classical', 'basic', 'mcr', 'mcr-botzone', 'american')
    >>> r = mjfast.rules.get("classical", flowers=True, payment="discarder")
    >>> r.n_tiles, r.forms, r.family
    (144, ('standard',), 'chinese')
    >>> r.replace(rounds=2).hands_per_game
    8
    >>> mjfast.rules.get("mcr").forms[-1]
    'knitted_straight'

Families (one module each; a family is played by one engine):

- :mod:`mjfast.rules.chinese`: ``"classical"`` (seed 000), ``"basic"`` (seed 001), ``"mcr"``
  (Chinese Official) and ``"mcr-botzone"`` (the Botzone judge's Chinese Official), all
  :class:`ChineseRules`;
- :mod:`mjfast.rules.american`: ``"american"`` (seed 002, the beginner hand), :class:`AmericanRules`.

Each family has one record, :class:`Family` (:func:`family`, :data:`FAMILIES`): its hand
model, encoding, result extensions and the parts of its engine. What the hand functions need
of a rule set is :func:`hand_facts`. Adding a rule family means adding its module here (a
RuleSet subclass and its presets), its record in ``_family.py``, and its engine (kernels and
an adapter module whose ``ENGINE`` is an :class:`EngineParts`); adding a preset of a family
means adding a value.
"""
from __future__ import annotations

from ._base import DEFAULT_FORMS, FORMS, Option, RuleSet, TileSet
from ._cli import FLAGS, ExtraFlag, Flag, add_rule_flags, rule_options
from ._facts import DEFAULT_HAND as DEFAULT_HAND  # not in __all__: the hand functions' rules=None
from ._facts import HandFacts, hand_facts
from ._facts import facts as facts  # deprecated, not in __all__
from ._family import FAMILIES, EngineParts, Family
from ._presets import family, get, names
from .american import MAX_PLAY_JOKERS, AmericanRules
from .chinese import MAX_BASE_POINTS, ChineseRules

__all__ = ["AmericanRules", "ChineseRules", "DEFAULT_FORMS", "EngineParts", "ExtraFlag", "FAMILIES", "FLAGS", "FORMS",
           "Family", "Flag", "HandFacts", "MAX_BASE_POINTS", "MAX_PLAY_JOKERS", "Option", "RuleSet", "TileSet",
           "add_rule_flags", "family", "get", "hand_facts", "names", "rule_options"]
