"""The public functions of :mod:`mjfast.exact` (:func:`exact_deal_odds`,
:func:`exact_deal_odds_table`), their argument checks and cached results.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from math import comb

import numpy as np

from .. import rules as _rules
from .._runtime import progress as _progress
from ._american import american_odds_dict
from ._features import MAX_TILES, SUIT_LETTERS
from ._thresholds import hand_distance_counts, no_four_count

RULES = (None,) + _rules.names()
#: the forms :func:`exact_deal_odds_table` reports for each rule set: its winning forms and
#: "all" (a RuleSet with other options reports its own forms)
TABLE_FORMS = {None: _rules.DEFAULT_FORMS + ("all",), **{n: _rules.get(n).forms + ("all",) for n in _rules.names()}}
# ---------------------------------------------------------------------------
# argument handling
# ---------------------------------------------------------------------------

def _check_rules(rules) -> tuple:
    """(what results record, the forms of "all", a four-of-a-kind counts as two pairs, the
    hand model) of None, a rule-set name or a RuleSet."""
    h = _rules.hand_facts(rules)
    forms, kong_two_pairs, model = h.forms, h.kong_two_pairs, h.model
    label = rules.name if isinstance(rules, _rules.RuleSet) else rules
    return label, forms, kong_two_pairs, model


def _check_suits(suits) -> str:
    if not isinstance(suits, str):
        raise TypeError(f"suits must be a str such as 'mpsz', not {type(suits).__name__}")
    if not suits or any(ch not in SUIT_LETTERS for ch in suits) or len(set(suits)) != len(suits):
        raise ValueError(f"suits must be distinct letters from 'mpsz' (e.g. 'mpsz', 'm', 'mz'); got {suits!r}")
    return "".join(ch for ch in SUIT_LETTERS if ch in suits)


def _check_tiles(tiles) -> int:
    if isinstance(tiles, bool) or not isinstance(tiles, (int, np.integer)):
        raise TypeError(f"tiles must be an int, not {type(tiles).__name__}")
    tiles = int(tiles)
    if tiles < 1 or tiles > MAX_TILES or tiles % 3 == 0:
        raise ValueError(f"tiles must be 13 or 14 (or, when only the standard form is involved, any "
                         f"3k+1 / 3k+2 size from 1 to 14); got {tiles}")
    return tiles


def _forms_for(all_forms: tuple, form, tiles: int) -> tuple:
    """The forms whose minimum is asked for (``"all"`` is the standard form alone below 13)."""
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form == "all":
        return all_forms if tiles in (13, 14) else ("standard",)
    if form not in _rules.FORMS:
        raise ValueError(f"unknown form {form!r}; choose 'all' or one of {_rules.FORMS}")
    if form != "standard" and tiles not in (13, 14):
        raise ValueError(f"form {form!r} needs a dealt hand of 13 or 14 tiles; got {tiles}")
    return (form,)


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------

@functools.cache
def _odds(all_forms: tuple, kong_two_pairs: bool, tiles: int, form: str, suits: str) -> tuple:
    kinds = sum(7 if ch == "z" else 9 for ch in suits)
    forms = _forms_for(all_forms, form, tiles)
    # only seven pairs depends on the rule set beyond its forms (MCR: a four-of-a-kind is two pairs)
    counts = hand_distance_counts(forms, bool(kong_two_pairs and "seven_pairs" in forms), tiles, suits)
    total = comb(4 * kinds, tiles)
    if sum(n for _, n in counts) != total:  # pragma: no cover - an internal consistency check
        raise AssertionError("exact deal odds: weights do not add up to C(tiles in world, tiles)")
    shanten = {int(d) - 1: Fraction(n, total) for d, n in counts if n}
    four = 1 - Fraction(no_four_count(tiles, kinds), total)
    return tuple(sorted(shanten.items())), four


def exact_deal_odds(rules="classical", tiles=14, form="all", *, suits="mpsz", jokers=None,
                    progress: bool = True) -> dict:
    """Exact shanten distribution of a freshly dealt hand.

    The hand is ``tiles`` tiles drawn uniformly from the standard tiles of ``suits`` (136 for
    ``"mpsz"``); bonus tiles are set aside and replaced, which leaves the standard tiles a
    uniform random subset, so the odds also hold for the 144-tile sets. The computation is
    exact: per-suit generating functions are combined by dynamic programming over merged
    suit features (see the module docstring), in integers until one final division.

    Parameters
    ----------
    rules : {"classical", None, "basic", "mcr", "american"}
        What ``form="all"`` means, as for :func:`mjfast.shanten`: None -> min(standard,
        seven pairs, thirteen orphans); "classical"/"basic" -> standard; "mcr" -> all five
        forms, seven pairs counting a four-of-a-kind as two pairs. Also sets the seven
        pairs rule when ``form="seven_pairs"``. "american": the beginner hand (its one form;
        ``"all"`` is the same) dealt from the American set: the standard tiles of `suits`,
        the 8 flowers and `jokers` jokers (152 tiles by default), read with the rules' joker
        reading (a RuleSet with ``all_joker_sets=False``: each set of four keeps a natural tile).
    tiles : int
        Hand size: 14 (dealer, before the first discard) or 13 (non-dealer). The standard
        form also takes any 3k+1 / 3k+2 size from 1 to 14, and so does ``"all"``, which
        then means the standard form under every rule set (the special forms need 13 or 14
        tiles, as in :func:`mjfast.shanten`).
    form : {"all", "standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight", "beginner"}
        The winning shape, or "all" for the minimum over the forms ``rules`` allows
        ("beginner" only with ``rules="american"``).
    suits : str, keyword-only
        The tile world, a subset of ``"mpsz"`` (e.g. ``"m"``: the 36 characters only). The
        probability of a count vector ``c`` is ``prod_i C(4, c_i) / C(4 * kinds, tiles)``.
    jokers : int, keyword-only
        ``rules="american"`` only: jokers in the set, 0-16 (default 8), as for
        :func:`mjfast.deal_stats`.
    progress : bool, keyword-only
        A progress bar on stderr (in steps: MCR ``form="all"`` takes one per threshold) when
        the computation takes more than half a second; see :func:`mjfast.set_options`.

    Returns
    -------
    dict
        ``"rules"``, ``"tiles"``, ``"form"``, ``"suits"`` (the arguments);
        ``"shanten"``: {shanten: Fraction} for every shanten with nonzero probability
        (-1 = complete), summing to exactly 1; ``"complete"``: P(shanten == -1);
        ``"tenpai"``: P(shanten == 0) -- exactly 0, so complete hands are not counted;
        ``"four_of_a_kind"``: P(some kind is held four times), which does not depend on
        the form. Each value is a :class:`fractions.Fraction`. ``rules="american"`` adds
        ``"options"`` (``{"flowers": True, "jokers": J, "tiles": 144 + J}``, and
        ``"all_joker_sets": False`` under that reading) and the exact
        distributions ``"bonus_tiles"`` {flowers held: Fraction} and ``"jokers"`` {jokers
        held: Fraction}; ``"four_of_a_kind"`` counts standard kinds only, as in
        :func:`mjfast.deal_stats`. Only 13 and 14 tiles.

    Raises
    ------
    ValueError
        Unknown ``rules``, ``form`` or ``suits``; a hand size that is not 13 or 14 for a
        form other than the standard one (or not 3k+1 / 3k+2 from 1 to 14); a size larger
        than the tile world.
    TypeError
        Arguments of the wrong type.

    Notes
    -----
    Results are cached (per rules, tiles, form and suits). First-call run times for the 136
    tiles on one core, after mjfast's shanten tables are built (about 0.7 s once per
    process): 0.2-0.4 s for the standard form and for ``form="all"`` under None /
    "classical" / "basic"; 0.1-0.25 s for seven pairs, thirteen orphans and honors and
    knitted tiles; 0.5-1 s for the knitted straight; 1.5-2.5 s for MCR ``form="all"``
    (computed through thresholds, see the module docstring).

    Examples
    --------
    >>> from mjfast.exact import exact_deal_odds
    >>> r = exact_deal_odds("classical", 14)
    >>> sum(r["shanten"].values())
    Fraction(1, 1)
    >>> float(r["complete"]) > 0, max(r["shanten"])
    (True, 8)
    >>> exact_deal_odds(tiles=2, suits="z")["complete"]  # 2 of the 28 honor tiles make a pair
    Fraction(1, 9)
    >>> am = exact_deal_odds("american", 14)
    >>> am["options"], f"{float(am['complete']):.3g}", am["jokers"][0] == Fraction(comb(144, 14), comb(152, 14))
    ({'flowers': True, 'jokers': 8, 'tiles': 152}, '8.93e-09', True)
    >>> from mjfast.rules import get
    >>> f"{float(exact_deal_odds(get('american', all_joker_sets=False), 14)['complete']):.3g}"  # no set of jokers only
    '8.91e-09'
    """
    label, all_forms, kong_two_pairs, model = _check_rules(rules)
    suits = _check_suits(suits)
    with _progress.shared_bar(progress, _progress.exact_odds_label(label), 1) as bar:
        before = bar.done
        if model == "american":
            res = american_odds_dict(tiles, form, suits, jokers, bool(getattr(rules, "all_joker_sets", True)))
        else:
            res = _exact_odds(label, all_forms, kong_two_pairs, tiles, form, suits, jokers)
        if bar.done == before:      # one step, unless it went through thresholds
            _progress.step()
    return res


def _exact_odds(label, all_forms, kong_two_pairs, tiles, form, suits, jokers) -> dict:
    if jokers is not None:
        raise ValueError(f"jokers is an option of rules='american' only (got rules={label!r})")
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form == "beginner":
        raise ValueError("form 'beginner' is the American beginner hand; it needs rules='american'")
    if form != "all" and form not in _rules.FORMS:
        raise ValueError(f"unknown form {form!r}; choose 'all' or one of {_rules.FORMS}")
    tiles = _check_tiles(tiles)
    _forms_for(all_forms, form, tiles)
    shanten, four = _odds(all_forms, kong_two_pairs, tiles, form, suits)
    dist = dict(shanten)
    return {
        "rules": label,
        "tiles": tiles,
        "form": form,
        "suits": suits,
        "shanten": dist,
        "complete": dist.get(-1, Fraction(0)),
        "tenpai": dist.get(0, Fraction(0)),
        "four_of_a_kind": four,
    }


def exact_deal_odds_table(rules="classical", tiles=14, *, suits="mpsz", jokers=None,
                          progress: bool = True) -> dict:
    """:func:`exact_deal_odds` for every form the rule set allows.

    Parameters
    ----------
    rules : {None, "classical", "basic", "mcr", "american"}
        None -> standard, seven_pairs, thirteen_orphans, all; "classical"/"basic" ->
        standard, all; "mcr" -> the five forms and all; "american" -> beginner, all.
    tiles : int
        13 or 14 (under "classical"/"basic" also any size :func:`exact_deal_odds` takes).
    suits : str, keyword-only
        The tile world, as for :func:`exact_deal_odds`.
    jokers : int, keyword-only
        ``rules="american"`` only, as for :func:`exact_deal_odds`.
    progress : bool, keyword-only
        One progress bar for the whole table, as for :func:`exact_deal_odds`.

    Returns
    -------
    dict
        {form: result dict of :func:`exact_deal_odds`}, in the order above.

    Examples
    --------
    >>> from mjfast.exact import exact_deal_odds_table
    >>> table = exact_deal_odds_table("classical", 13)
    >>> list(table)
    ['standard', 'all']
    >>> table["all"]["shanten"] == table["standard"]["shanten"]
    True
    """
    label, all_forms = _check_rules(rules)[:2]
    with _progress.shared_bar(progress, _progress.exact_odds_label(label), len(all_forms) + 1):
        return {f: exact_deal_odds(rules, tiles, f, suits=suits, jokers=jokers) for f in all_forms + ("all",)}
