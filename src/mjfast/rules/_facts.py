"""What the hand functions need of a rule set (:class:`HandFacts`, :func:`hand_facts`), for
:mod:`mjfast.rules`."""
from __future__ import annotations

import dataclasses
import warnings

from ._base import DEFAULT_FORMS, RuleSet
from ._presets import get


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
