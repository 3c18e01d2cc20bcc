"""The standard hand model (private; :mod:`mjfast.hands` dispatches here for every rule set but
the American one): k sets + a pair and the special forms of the Chinese rule sets, on the
compiled tables of :mod:`mjfast._core`; hands with their called sets through the capped
computation of :mod:`._called`; the waits' fans under the Chinese Official rules.

The model functions (:func:`shanten`, :func:`is_winning`, :func:`waits`,
:func:`effective_tiles`, :func:`decompose`) take one hand or a batch already past the checks
the public functions make; :func:`form_bits`, :func:`forms_sizes` and :func:`shanten_rows` are
what the deals and the analyses build on.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core, tiles
from .. import rules as _rules
from .._runtime.threads import resolve_threads
from . import _called
from ._american import FORMS as _AMERICAN_FORMS
from ._input import (
    SIZES_ALL,
    SIZES_CALLED_KNIT,
    SIZES_CLOSED,
    SIZES_COMPLETE,
    SIZES_TENPAI,
    STANDARD,
    as_batch,
    raise_bad_row,
    single_hand,
)
from ._types import Improvement

LAYOUT = STANDARD
_FORM_BITS = _core.FORM_BITS

_BITS_NO_RULES: dict = {}   # form -> bits under rules=None (the common call; fixed: no registry behind it)


def form_bits(form: str = "all", rules=None) -> int:
    """Kernel bit set for a form under ``rules`` (a name, a RuleSet or None); raises for
    unknown names. ``"all"`` is the rule set's winning forms."""
    if rules is None and isinstance(form, str):
        bits = _BITS_NO_RULES.get(form)
        if bits is None:
            bits = _BITS_NO_RULES[form] = _form_bits(form, None)
        return bits
    return _form_bits(form, rules)


def _form_bits(form, rules) -> int:
    facts = _rules.hand_facts(rules)
    forms, kong_two_pairs, model = facts.forms, facts.kong_two_pairs, facts.model
    name = rules.name if isinstance(rules, _rules.RuleSet) else rules
    if model == "american":
        raise ValueError(f"rules={name!r} has no form bits: its beginner hand has its own kernels "
                         f"(mjfast.shanten / is_winning / waits / effective_tiles with rules={name!r})")
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form in _AMERICAN_FORMS:
        raise ValueError(f"form {form!r} is the American beginner hand; it needs rules='american' "
                         f"(got rules={name!r})")
    if form == "all":
        bits = 0
        for f in forms:
            bits |= _FORM_BITS[f]
        return bits | (_core.KONG_TWO_PAIRS if kong_two_pairs else 0)
    if form not in _FORM_BITS:
        raise ValueError(f"unknown form {form!r}; choose 'all' or one of {_rules.FORMS}")
    bits = _FORM_BITS[form]
    if form == "seven_pairs" and kong_two_pairs:
        bits |= _core.KONG_TWO_PAIRS
    return bits


def forms_sizes(bits: int, base_sizes: int) -> int:
    """Allowed sizes: special-only form sets need closed 13/14-tile hands; the knitted
    straight also 10/11 concealed tiles (with one called set)."""
    if bits & _FORM_BITS["standard"]:
        return base_sizes
    if bits & _FORM_BITS["knitted_straight"]:
        return base_sizes & (SIZES_CLOSED | SIZES_CALLED_KNIT)
    return base_sizes & SIZES_CLOSED


def _run_kernel(batch, bits: int, sizes: int, out: np.ndarray, threads: int, checked, counts, packed) -> None:
    """``out`` = a kernel over ``batch``: the one with validation fused in (``checked``, which
    returns False on a bad row, then named by :func:`raise_bad_row`) for a batch not checked
    yet, else the kernel of its layout (``counts`` or ``packed``)."""
    if not batch.checked:
        if not checked(batch.data, bits, sizes, out, threads):
            raise_bad_row(batch.data, False, sizes, "hands", batch.shape, threads)
    else:
        (packed if batch.packed else counts)(batch.data, bits, out, threads)


def shanten(hands: Any, form: str, rules, threads):
    """Shanten of one hand or a batch (see :func:`mjfast.shanten`)."""
    bits = form_bits(form, rules)
    threads = resolve_threads(threads)
    sizes = forms_sizes(bits, SIZES_ALL)
    batch = as_batch(hands, sizes, threads=threads, fused=True)
    called = batch.called if batch.has_called else None
    if batch.single and called is not None:   # text with called sets: they count against four copies
        return int(_called.shanten_rows(batch.data, bits, called)[0])
    out = np.empty(len(batch.data), dtype=np.int8)
    _run_kernel(batch, bits, sizes, out, threads, _core.shanten_counts_checked, _core.shanten_counts_batch,
                _core.shanten_packed_batch)
    if called is not None:                    # a batch of texts: the rows with called sets, capped
        for i in np.flatnonzero(called.any(axis=1)).tolist():
            out[i] = _called.shanten_rows(batch.data[i : i + 1], bits, called[i])[0]
    return batch.shaped(out)


def is_winning(hands: Any, form: str, rules, threads):
    """Whether each hand is complete (see :func:`mjfast.is_winning`)."""
    bits = form_bits(form, rules)
    threads = resolve_threads(threads)
    sizes = forms_sizes(bits, SIZES_ALL)
    batch = as_batch(hands, sizes, threads=threads, fused=True)
    out = np.empty(len(batch.data), dtype=np.uint8)
    _run_kernel(batch, bits, sizes, out, threads, _core.winning_counts_checked, _core.winning_counts_batch,
                _core.winning_packed_batch)
    return batch.shaped(out.view(np.bool_))


def is_mcr(rules) -> bool:
    """``rules`` (None, a name or a RuleSet) is the Chinese Official rule set, whose wins are
    scored in fans (raises for unknown names)."""
    return rules is not None and _rules.get(rules).name == "mcr"


def mcr_only(rules, **options) -> None:
    """ValueError naming the first of ``options`` given (not None) when ``rules`` is not the
    Chinese Official rule set: these options only mean something with fans."""
    if is_mcr(rules):
        return
    for name, value in options.items():
        if value is not None:
            label = rules.name if isinstance(rules, _rules.RuleSet) else rules
            raise ValueError(f"{name} is an option of rules='mcr' only (the Chinese Official fans); "
                             f"got rules={label!r}")


def no_jokers_option(jokers, rules) -> None:
    if jokers is not None:
        raise ValueError(f"jokers is an option of rules='american' only (got rules={rules!r})")


def shanten_rows(rows: np.ndarray, bits: int, called: np.ndarray) -> np.ndarray:
    """Shanten of each row of concealed counts (N, 34) held beside the called tiles ``called``
    (34 counts, zeros for none): the batch kernel, or the capped computation of
    :mod:`mjfast.hands._called` when called sets hold copies."""
    if called.any():
        return _called.shanten_rows(rows, bits, called)
    out = np.empty(len(rows), dtype=np.int8)
    _core.shanten_counts_batch(np.ascontiguousarray(rows, dtype=np.uint8), bits, out, 1)
    return out


def visible_array(visible: Any, extras_ok: bool = True) -> np.ndarray:
    """34 int64 counts of the visible tiles (None, text, or 34 counts); with ``extras_ok=False``
    bonus tiles and jokers in the text are refused instead of ignored."""
    if visible is None or (isinstance(visible, str) and not visible.strip()):
        return np.zeros(34, dtype=np.int64)
    if isinstance(visible, str):
        parsed = tiles.parse_tiles(visible, max_tiles=None)
        if not extras_ok and (parsed.bonus.any() or parsed.jokers):
            raise ValueError("visible: bonus tiles and jokers do not change the unseen counts; remove them")
        return parsed.counts_all().astype(np.int64)
    arr = np.asarray(visible)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"visible must be text or 34 integer counts, got dtype {arr.dtype}")
    if arr.shape != (34,):
        raise ValueError(f"visible must be text or 34 counts; got shape {arr.shape}")
    if arr.min() < 0:
        raise ValueError("visible counts must be non-negative")
    return arr.astype(np.int64)


def _visible_counts(visible: Any, hand: np.ndarray, called: np.ndarray | None = None) -> np.ndarray:
    """Tiles seen outside the concealed hand: ``visible`` plus the hand's own called sets."""
    seen = visible_array(visible)
    own = hand.astype(np.int64) + (0 if called is None else called.astype(np.int64))
    total = seen + own
    if total.max() > 4:
        k = int(np.argmax(total))
        where = f"{int(own[k])} in hand" if called is None or not called[k] else \
            f"{int(hand[k])} in hand + {int(called[k])} in called sets"
        raise ValueError(f"{tiles.tile_name(k)}: {where} + {int(seen[k])} visible = "
                         f"{int(total[k])} copies; only 4 exist")
    return seen + (0 if called is None else called.astype(np.int64))


def waits(hand: Any, form: str, rules, jokers, min_fan, self_drawn, seat_wind, prevalent_wind) -> list[str]:
    """The waits of one 3k+1 hand (see :func:`mjfast.waits`; the options are checked there)."""
    no_jokers_option(jokers, rules)
    bits = form_bits(form, rules)
    counts, called = single_hand(hand, forms_sizes(bits, SIZES_TENPAI), "hand")
    cand = np.flatnonzero(counts + called < 4)      # no fifth copy, called sets included
    rows = np.repeat(counts[None, :], len(cand), axis=0)
    rows[np.arange(len(cand)), cand] += 1
    out = np.empty(len(cand), dtype=np.uint8)
    _core.winning_counts_batch(rows, bits, out, 1)
    found = cand[out.astype(bool)]
    if min_fan is not None:
        found = _reaching_min_fan(hand, counts, found, min_fan, self_drawn, seat_wind, prevalent_wind)
    return [tiles.tile_name(int(k)) for k in found]


def _reaching_min_fan(hand: Any, counts: np.ndarray, found: np.ndarray, min_fan, self_drawn, seat_wind,
                      prevalent_wind) -> np.ndarray:
    """The waits ``found`` of a 13-tile hand whose win scores at least ``min_fan`` fans."""
    # imported here for start-up time: the fan scorer (mjfast.mcr and its result display) loads
    # only when a call asks for fans, not with every hand function
    from ..mcr._fan import win_fans
    from ..mcr._input import check_flag, check_min_fan, check_wind, melds_array

    min_fan = check_min_fan(min_fan)
    drawn = bool(check_flag(False if self_drawn is None else self_drawn, "self_drawn"))
    seat = check_wind("E" if seat_wind is None else seat_wind, "seat_wind")
    prevalent = check_wind("E" if prevalent_wind is None else prevalent_wind, "prevalent_wind")
    melds = tiles.parse_tiles(hand).melds if isinstance(hand, str) else ()
    size = int(counts.sum()) + 3 * len(melds)
    if size != 13:
        raise ValueError(f"min_fan needs a hand of 13 tiles (counting 3 per called set) to score its wins; got {size}")
    rows = np.repeat(counts[None, :], len(found), axis=0)
    on_discard, on_draw = win_fans(rows, found, melds_array(melds), seat_wind=seat, prevalent_wind=prevalent)
    return found[(on_draw if drawn else on_discard) >= min_fan]


def _improvements(rows13: np.ndarray, discards: list, bits: int, seen: np.ndarray,
                  called: np.ndarray) -> list[Improvement]:
    """Effective tiles of each 3k+1 row (one batch call for all rows and candidates).

    ``seen`` is (len(rows13), 34): tiles visible outside each row (a discard and the hand's
    called sets included); ``called`` (34,): the hand's called tiles.
    """
    n = len(rows13)
    base = shanten_rows(rows13, bits, called)
    cand = np.repeat(rows13, 34, axis=0)
    kinds = np.tile(np.arange(34), n)
    ok = (rows13.astype(np.int64) + seen).reshape(-1) < 4  # at least one unseen copy
    cand[np.arange(len(cand)), kinds] += ok.astype(np.uint8)
    after = shanten_rows(cand, bits, called).reshape(n, 34)
    ok = ok.reshape(n, 34)
    result = []
    for i in range(n):
        better = np.flatnonzero(ok[i] & (after[i] < base[i]))
        unseen = {tiles.tile_name(int(k)): int(4 - rows13[i, k] - seen[i, k]) for k in better}
        result.append(Improvement(discards[i], int(base[i]), unseen, sum(unseen.values())))
    return result


def effective_tiles(hand: Any, visible: Any, form: str, rules, jokers):
    """The effective tiles of one hand (see :func:`mjfast.effective_tiles`)."""
    no_jokers_option(jokers, rules)
    bits = form_bits(form, rules)
    counts, called = single_hand(hand, forms_sizes(bits, SIZES_ALL), "hand")
    seen = _visible_counts(visible, counts, called)
    if int(counts.sum()) % 3 == 1:
        return _improvements(counts[None, :].copy(), [None], bits, seen[None, :], called)[0]
    held = np.flatnonzero(counts)
    rows = np.repeat(counts[None, :], len(held), axis=0)
    rows[np.arange(len(held)), held] -= 1
    seen_rows = np.repeat(seen[None, :], len(held), axis=0)
    seen_rows[np.arange(len(held)), held] += 1  # the discard is visible now
    imps = _improvements(rows, [tiles.tile_name(int(k)) for k in held], bits, seen_rows, called)
    order = sorted(range(len(imps)), key=lambda i: (imps[i].shanten, -imps[i].count, int(held[i])))
    return [imps[i] for i in order]


def _decompositions(counts: list, start: int, sets: list, pair: int | None, out: list) -> None:
    """Depth-first: the lowest held kind is a pair (once), a pung, or starts a chow."""
    k = start
    while k < 34 and counts[k] == 0:
        k += 1
    if k == 34:
        out.append((pair, tuple(sets)))
        return
    if pair is None and counts[k] >= 2:
        counts[k] -= 2
        _decompositions(counts, k, sets, k, out)
        counts[k] += 2
    if counts[k] >= 3:
        counts[k] -= 3
        _decompositions(counts, k, sets + [("pung", k)], pair, out)
        counts[k] += 3
    if k < 27 and k % 9 <= 6 and counts[k + 1] and counts[k + 2]:
        for j in (k, k + 1, k + 2):
            counts[j] -= 1
        _decompositions(counts, k, sets + [("chow", k)], pair, out)
        for j in (k, k + 1, k + 2):
            counts[j] += 1


def _set_text(kind: str, k: int) -> str:
    tiles_ = [k, k + 1, k + 2] if kind == "chow" else [k] * (2 if kind == "pair" else 3)
    c = np.zeros(34, dtype=np.uint8)
    np.add.at(c, tiles_, 1)
    return tiles.format_hand(c)


def decompose(hand: Any) -> list[tuple[str, ...]]:
    """The decompositions of one complete hand (see :func:`mjfast.decompose`)."""
    counts = single_hand(hand, SIZES_COMPLETE, "hand")[0]
    found: list = []
    _decompositions([int(c) for c in counts], 0, [], None, found)
    result = set()
    for pair, sets in found:
        ordered = sorted(sets, key=lambda s: (s[1], s[0]))
        result.add((_set_text("pair", pair),) + tuple(_set_text(kind, k) for kind, k in ordered))
    return sorted(result)
