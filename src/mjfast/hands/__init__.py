"""Public hand analysis: winning check, shanten, waits, effective tiles, decompositions.

The batch functions (:func:`shanten`, :func:`is_winning`) accept one hand (text, or a
``(34,)`` count vector) or a batch of any leading shape: a list / tuple / array of texts, a
``(..., 34)`` count array, a ``(..., 4)`` uint32 array in the packed layout of
:mod:`mjfast.tiles`, or a :class:`~mjfast.Deals`; the output has the batch's shape. The
one-hand functions (:func:`waits`, :func:`effective_tiles`, :func:`decompose`) map over such
a batch, giving nested lists. Input is validated here, once (reshaped to the kernels' rows);
the Cython kernels trust it. One hand as text or 34 counts takes a shorter way (about 0.3 us a
call): :mod:`mjfast._kernels.onehand` reads and checks it and calls the kernel itself, and
leaves anything else -- including every invalid hand -- to the general path and its errors.

Forms and rules
---------------
``form`` picks the winning shape:

``"standard"``
    k sets (chow or pung) + 1 pair, k = tiles // 3 (4 for 13- and 14-tile hands).
``"seven_pairs"``
    seven pairs of seven different kinds (``rules="mcr"``: a four-of-a-kind counts as two).
``"thirteen_orphans"``
    one of each terminal and honor plus a duplicate of one of them.
``"honors_knitted"``, ``"knitted_straight"``
    the Chinese Official knitted shapes (see ``docs`` in the README).
``"all"``
    the minimum over the forms the rule set allows: ``rules=None`` -> standard, seven pairs,
    thirteen orphans; ``"classical"``/``"basic"`` -> standard only; ``"mcr"`` -> all five
    (seven pairs counting a four-of-a-kind as two pairs).

Every form except ``"standard"`` needs a closed hand of 13 or 14 tiles, except the knitted
straight, which Chinese Official rules also allow with one called set (the knitted nine and a
pair in hand: 10 or 11 concealed tiles); under ``"all"`` the special forms are simply skipped
for other sizes.

``rules="american"`` (see :mod:`mjfast.hands._american`) has one form, ``"beginner"`` (``"all"``
means the same): three sets of four identical tiles + a pair, of four different kinds, 14
tiles. The flowers f1-f8 are one kind; jokers stand in for tiles of a set of four (each set
keeps at least one natural tile), never in the pair. Its hands are 13 or 14 concealed tiles
given as text with ``f1``..``f8`` and ``j``, 43-count vectors of the extended model of
:mod:`mjfast.tiles` (or 34 standard counts) or 5-word packed rows (or 4 standard words).

Shanten is exact and four-copy aware: the number of tiles still missing from the nearest
complete hand that never uses a fifth copy of a kind, minus one (so -1 = complete,
0 = tenpai). A hand given as text with its called sets (``[111z]``, ``(2222m)``) holds those
tiles too: the concealed part may then use only the copies its own sets left
(``"123m456p789s1z [111z]"`` is 1-shanten, not tenpai on a fifth 1z), waits never name a kind
all of whose copies the hand holds, and unseen counts leave them out. A batch of count rows
knows nothing of its called sets (four copies of every kind are available). Tiles in discards
or other hands are not subtracted from the shanten (pass them as ``visible`` to
:func:`effective_tiles` for unseen-copy counts).
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .. import _core, tiles
from .. import rules as _rules
from .._kernels import onehand as _onehand
from .._runtime.threads import resolve_threads
from .._runtime.validation import count_rows, hand_label, text_batch
from . import _american as _american_hands
from . import _called
from ._american import american_distance

__all__ = ["Improvement", "american_distance", "decompose", "effective_tiles", "is_winning", "shanten", "waits"]

FORMS = _rules.FORMS
AMERICAN_FORMS = _american_hands.FORMS

_FORM_BITS = _core.FORM_BITS
# sizes 3k+1 and 3k+2 up to 14 tiles
_SIZES_ALL = sum(1 << s for s in range(1, 15) if s % 3)
_SIZES_CLOSED = (1 << 13) | (1 << 14)
_SIZES_CALLED_KNIT = (1 << 10) | (1 << 11)   # the knitted straight with one called set
_SIZES_COMPLETE = sum(1 << s for s in range(2, 15) if s % 3 == 2)
_SIZES_TENPAI = sum(1 << s for s in range(1, 14) if s % 3 == 1)


def _is_american(rules) -> bool:
    """``rules`` reads hands by the American model (raises for unknown rules)."""
    return _rules.hand_facts(rules).model == "american"


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
    forms, kong_two_pairs, model = dataclasses.astuple(_rules.hand_facts(rules))
    name = rules.name if isinstance(rules, _rules.RuleSet) else rules
    if model == "american":
        raise ValueError(f"rules={name!r} has no form bits: its beginner hand has its own kernels "
                         f"(mjfast.shanten / is_winning / waits / effective_tiles with rules={name!r})")
    if not isinstance(form, str):
        raise TypeError(f"form must be a str, not {type(form).__name__}")
    if form in AMERICAN_FORMS:
        raise ValueError(f"form {form!r} is the American beginner hand; it needs rules='american' "
                         f"(got rules={name!r})")
    if form == "all":
        bits = 0
        for f in forms:
            bits |= _FORM_BITS[f]
        return bits | (_core.KONG_TWO_PAIRS if kong_two_pairs else 0)
    if form not in _FORM_BITS:
        raise ValueError(f"unknown form {form!r}; choose 'all' or one of {FORMS}")
    bits = _FORM_BITS[form]
    if form == "seven_pairs" and kong_two_pairs:
        bits |= _core.KONG_TWO_PAIRS
    return bits


class _Batch:
    """A validated batch for the kernels. A plain class with slots, not a frozen dataclass: its
    construction is on the path of every call (a frozen dataclass cost ~2 us of a one-hand call)."""

    __slots__ = ("data", "packed", "single", "called", "shape", "checked")

    def __init__(self, data: np.ndarray, packed: bool, single: bool, called: np.ndarray | None = None,
                 shape: tuple = (), checked: bool = True) -> None:
        self.data = data          # (n, 34) uint8 or (n, 4) uint32, C-contiguous
        self.packed = packed
        self.single = single
        self.called = called      # (34,) tiles in the hand's called sets (one hand as text), or (n, 34)
        #                           per row (a batch of texts)
        self.shape = shape        # the batch's leading shape (the output's shape); () for one hand
        self.checked = checked    # False: counts not validated yet (the kernel's fused check does it)

    @property
    def has_called(self) -> bool:
        return self.called is not None and bool(self.called.any())

    def shaped(self, out: np.ndarray):
        """A kernel's (n,) output in the caller's form: a scalar for one hand, else an
        array of the batch's shape."""
        return out[0].item() if self.single else out.reshape(self.shape)


#: what the batch hand functions accept, for error messages
ACCEPTED = ("a str (one hand), a list / tuple / array of str (a batch of any shape), a Deals, or an integer "
            "array of shape (..., 34) (tile counts; any integer dtype, uint8 fastest) or (..., 4) of dtype uint32 "
            "(packed rows); the leading shape is the batch's")


def _size_text(mask: int) -> str:
    return ", ".join(str(s) for s in range(64) if (mask >> s) & 1)


def _text_rows(texts: np.ndarray, what: str) -> tuple:
    """(concealed counts, called-set counts), each (n, 34) uint8, of a batch of hand texts."""
    flat = texts.reshape(-1).tolist()
    counts = np.zeros((len(flat), 34), np.uint8)
    called = np.zeros((len(flat), 34), np.uint8)
    for i in _onehand.text_rows(flat, counts, called):   # the texts its reader does not take, in order
        t = flat[i]
        label = hand_label(what, i, texts.shape)
        try:
            parsed = tiles.parse_tiles(t)
        except ValueError as exc:
            raise ValueError(f"{label}: {exc}") from None
        if parsed.bonus.any() or parsed.jokers:
            raise ValueError(f"{label}: bonus tiles and jokers are not part of a hand here; remove them from {t!r}")
        counts[i] = parsed.concealed
        called[i] = parsed.counts_all() - parsed.concealed
    return counts, called


def as_batch(hands: Any, sizes: int = _SIZES_ALL, what: str = "hands", threads: int = 1,
             fused: bool = False) -> _Batch:
    """Validate ``hands`` and return it as a C-contiguous batch for the kernels.

    ``hands``: one hand (text, 34 counts or 4 packed words) or a batch of any leading shape
    (a list / tuple / array of texts, an integer array (..., 34) or packed (..., 4) uint32,
    or a :class:`~mjfast.Deals`: its (n, 4, 34) hands). ``sizes`` is a bit set of allowed
    tile totals. Raises TypeError for wrong types or dtypes and ValueError (naming the first
    bad hand by its index in the batch) for wrong shapes, counts or sizes; both say what is
    accepted.

    ``fused=True`` leaves the counts of a uint8 count batch unchecked (``checked=False``): the
    caller runs a kernel that validates in the same pass (``_core.*_checked``) and calls
    :func:`raise_bad_row` when it reports a bad row. Everything else is checked here as before.
    """
    called = None
    if isinstance(hands, str) and fused and (plain := tiles.plain_counts(hands)) is not None:
        # one hand in the plain notation: no called sets, bonus tiles or jokers to look for
        return _Batch(plain.reshape(1, 34), False, True, None, (), checked=False)
    if isinstance(hands, str):
        parsed = tiles.parse_tiles(hands)
        if parsed.bonus.any() or parsed.jokers:
            raise ValueError(f"{what}: bonus tiles and jokers are not part of a hand here; remove them from {hands!r}")
        arr = parsed.concealed.reshape(1, 34)
        called = (parsed.counts_all() - parsed.concealed).astype(np.uint8)
        single, packed, shape = True, False, ()
    else:
        texts = text_batch(hands, what)
        if texts is not None:
            arr, called = _text_rows(texts, what)
            shape, single, packed = texts.shape, False, False
        else:
            deals = _deals_hands(hands)
            arr, shape = count_rows(hands if deals is None else deals, what, ACCEPTED)
            single = shape == ()
            width = arr.shape[1]
            if width == 4 and arr.dtype == np.uint32:
                packed = True
            elif width == 4:
                raise TypeError(f"{what}: packed hands (last axis of 4 words) must have dtype uint32, got {arr.dtype}; "
                                f"accepted: {ACCEPTED}")
            elif width == 34:
                packed = False
            else:
                raise ValueError(f"{what} must have 34 counts per hand (or 4 packed uint32 words) on the last axis; "
                                 f"got shape {np.shape(hands)}. Accepted: {ACCEPTED}")
            if not packed and arr.dtype != np.uint8:
                if arr.size and (arr.min() < 0 or arr.max() > 4):
                    bad = np.argwhere((arr < 0) | (arr > 4))[0]
                    raise ValueError(f"{hand_label(what, int(bad[0]), shape)} holds {int(arr[bad[0], bad[1]])} copies "
                                     f"of {tiles.tile_name(int(bad[1]))}; counts must be 0-4")
                arr = arr.astype(np.uint8)
            arr = np.ascontiguousarray(arr)
            if fused and not packed:
                return _Batch(arr, packed, single, called, shape, checked=False)
    raise_bad_row(arr, packed, sizes, what, shape, threads)
    return _Batch(arr, packed, single, called, shape)


def raise_bad_row(arr: np.ndarray, packed: bool, sizes: int, what: str, shape: tuple, threads: int = 1) -> None:
    """Raise the ValueError naming the first invalid hand of a batch (nothing when all are valid)."""
    check = _core.check_packed_batch if packed else _core.check_counts_batch
    row, reason = check(arr, sizes, threads)
    if row >= 0:
        label = hand_label(what, row, shape)
        if reason == 1:
            if packed:
                raise ValueError(f"{label}: a packed 3-bit count is above 4")
            k = int(np.flatnonzero(arr[row] > 4)[0])
            raise ValueError(f"{label} holds {int(arr[row, k])} copies of {tiles.tile_name(k)}; counts must be 0-4")
        if reason == 3:
            raise ValueError(f"{label}: packed word has bits set outside the 3-bit count fields")
        total = int(tiles.unpack(arr[row]).sum()) if packed else int(arr[row].sum())
        raise ValueError(f"{label} has {total} tiles; allowed sizes here: {_size_text(sizes)}")


def _run_kernel(batch: _Batch, bits: int, sizes: int, out: np.ndarray, threads: int, checked, counts, packed) -> None:
    """``out`` = a kernel over ``batch``: the one with validation fused in (``checked``, which
    returns False on a bad row, then named by :func:`raise_bad_row`) for a batch not checked
    yet, else the kernel of its layout (``counts`` or ``packed``)."""
    if not batch.checked:
        if not checked(batch.data, bits, sizes, out, threads):
            raise_bad_row(batch.data, False, sizes, "hands", batch.shape, threads)
    else:
        (packed if batch.packed else counts)(batch.data, bits, out, threads)


def _deals_hands(hands: Any):
    """The hands of a :class:`~mjfast.Deals` (None for anything else)."""
    return hands.hands if _american_hands.is_deals(hands) else None


def _hand_batch(hand: Any, american: bool):
    """The hands of a batch given to a one-hand function (waits, effective_tiles, decompose),
    as (flat list of hands, leading shape); None when ``hand`` is one hand."""
    if isinstance(hand, str):
        return None
    texts = text_batch(hand, "hands")
    if texts is not None:
        return texts.reshape(-1).tolist(), texts.shape
    if _american_hands.is_deals(hand):
        hand = _american_hands.deal_counts(hand) if american else hand.hands
    if isinstance(hand, (bytes, bytearray, memoryview)) or hand is None or np.ndim(hand) < 2:
        return None
    arr = np.asarray(hand)
    return list(arr.reshape(-1, arr.shape[-1])), arr.shape[:-1]


def _nest(items: list, shape: tuple):
    """``items`` (row-major) as nested lists of ``shape``."""
    if len(shape) <= 1:
        return list(items)
    step = len(items) // shape[0] if shape[0] else 0
    return [_nest(items[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def _per_hand(fn, batch: tuple, **kw) -> list:
    """``fn`` on every hand of a batch (see :func:`_hand_batch`): nested lists of the batch's
    shape; an error names the hand by its index."""
    hands_, shape = batch
    out = []
    for i, h in enumerate(hands_):
        try:
            out.append(fn(h, **kw))
        except (ValueError, TypeError) as exc:
            msg, label = str(exc), hand_label("hands", i, shape)
            text = label + msg[4:] if msg.startswith("hand ") else f"{label}: {msg}"
            raise type(exc)(text) from None
    return _nest(out, shape)


_ONE_HAND: dict = {}   # (form, rules name or None) -> (form bits, allowed sizes); () for American rules


def _one_hand(form: str, rules) -> tuple:
    """The kernel bits and allowed sizes of shanten / is_winning under ``form`` and ``rules``
    (None or a rule set's name), for the one-hand path; () for rules that read hands by the
    American model. Raises as the general path does, in its order (the rules, then the form);
    the entries of valid calls are kept (the names and forms are a fixed set)."""
    key = (form, rules)
    entry = _ONE_HAND.get(key)
    if entry is None:
        if _is_american(rules):
            entry = ()
        else:
            bits = form_bits(form, rules)
            entry = (bits, _forms_sizes(bits, _SIZES_ALL))
        _ONE_HAND[key] = entry
    return entry


def _forms_sizes(bits: int, base_sizes: int) -> int:
    """Allowed sizes: special-only form sets need closed 13/14-tile hands; the knitted
    straight also 10/11 concealed tiles (with one called set)."""
    if bits & _FORM_BITS["standard"]:
        return base_sizes
    if bits & _FORM_BITS["knitted_straight"]:
        return base_sizes & (_SIZES_CLOSED | _SIZES_CALLED_KNIT)
    return base_sizes & _SIZES_CLOSED


def shanten(hands: Any, *, form: str = "all", rules: str | _rules.RuleSet | None = None, threads: int | None = None):
    """Shanten number: tile exchanges still needed to reach tenpai (-1 = complete hand).

    Exact and four-copy aware: a hand is never completed with a fifth copy of a kind, so
    ``123m456p789s1111z`` is 1-shanten, not tenpai.

    Parameters
    ----------
    hands : str, sequence of str, array_like of shape (..., 34), ndarray of shape (..., 4) and dtype uint32, or Deals
        One hand as text (called sets in brackets are allowed: they are complete, and their
        tiles count against the four copies of a kind) or as 34 counts; or a batch of any
        leading shape: a list / tuple / array of texts (nested lists for more axes), an
        integer array whose last axis holds 34 counts (any integer dtype; uint8 avoids a
        copy) or 4 packed uint32 words, or a :class:`~mjfast.Deals` (its ``hands``, shape
        (n, 4, 34)). Each hand must hold 1-14 tiles, 3k+1 or 3k+2 of them.
    form : {"all", "standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight", "beginner"}
        Winning shape; "all" takes the minimum over the forms `rules` allows. "beginner" is
        the American hand and needs ``rules="american"``.
    rules : {None, "classical", "basic", "mcr", "american"} or RuleSet
        None: all = standard, seven pairs, thirteen orphans. "classical"/"basic": standard
        only. "mcr" (Chinese Official): adds the knitted shapes, and seven pairs may use a
        four-of-a-kind as two pairs. "american": the beginner hand (3 sets of four + a pair of
        4 different kinds; flowers one kind; jokers only in the sets of four, each set keeping
        a natural tile). American hands are 13 or 14 concealed tiles: text with ``f1``-``f8``
        and ``j``, ``(43,)`` / ``(N, 43)`` extended counts (flowers 0-1 each; jokers limited
        only by the hand size), ``(34,)`` / ``(N, 34)`` standard counts, or packed ``(N, 5)``
        (or ``(N, 4)``) uint32 rows -- or any leading batch shape of these, or a Deals of
        ``rules="american"`` (its hands with their flowers and jokers).
    threads : int or None
        Threads for a batch (None = all CPUs, or OMP_NUM_THREADS; -1 = all; 1 = serial).
        The result never depends on it.

    Returns
    -------
    int, or ndarray of dtype int8 and the batch's shape
        A Python int for one hand; for a batch, an array of its leading shape: (N,) for N
        hands, (n, 4) for ``mjfast.deal(n).hands``.

    Raises
    ------
    TypeError
        Non-integer arrays, packed arrays that are not uint32, wrong argument types (the
        message lists what is accepted).
    ValueError
        Malformed text, counts outside 0-4, a hand size that cannot occur, a special form
        asked of a hand that is not 13 or 14 tiles, a last axis other than 34 (or 4 packed
        words), unknown form or rules. A bad hand of a batch is named by its index.

    Examples
    --------
    >>> import mjfast
    >>> mjfast.shanten("123m456p789s1122z")
    0
    >>> mjfast.shanten("123m456p789s1111z")
    1
    >>> mjfast.shanten("123m456p789s1z [111z]")   # the called pung holds three 1z
    1
    >>> mjfast.shanten("2458m369s147p", rules="mcr")  # knitted straight with a called set, waiting on 4m
    0
    >>> mjfast.shanten("1122m3344p5566s77z", form="standard")
    3
    >>> batch = np.stack([mjfast.parse_hand("19m19p19s1234567z"), mjfast.parse_hand("123m456p789s1122z")])
    >>> mjfast.shanten(batch)
    array([0, 0], dtype=int8)
    >>> mjfast.shanten(batch, form="standard", threads=1)
    array([8, 0], dtype=int8)
    >>> mjfast.shanten(["123m456p789s1122z", "123m456p789s1z [111z]"])    # a list of texts
    array([0, 1], dtype=int8)
    >>> mjfast.shanten(mjfast.deal(1000, seed=1).hands).shape           # (n, 4, 34) -> (n, 4)
    (1000, 4)
    >>> mjfast.shanten("1111m 2222p 333s 44z j", rules="american")    # j completes 333s
    -1
    >>> mjfast.shanten("1111m 2222p 3333s 4z j", rules="american")    # never in the pair
    0
    """
    if type(form) is str and (rules is None or type(rules) is str):
        # one hand as text or 34 counts: read and scored without the batch machinery (None:
        # not taken -- a batch, another input form, or invalid input, whose error the general
        # path below raises)
        fast = _ONE_HAND.get((form, rules)) or _one_hand(form, rules)
        if fast:
            if threads is not None:
                resolve_threads(threads)
            one = _onehand.shanten_one(hands, fast[0], fast[1])
            if one is not None:
                return one
    if _is_american(rules):
        return _american_hands.shanten(hands, form, resolve_threads(threads), _american_hands.reading(rules))
    bits = form_bits(form, rules)
    threads = resolve_threads(threads)
    sizes = _forms_sizes(bits, _SIZES_ALL)
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


def is_winning(hands: Any, *, form: str = "all", rules: str | _rules.RuleSet | None = None, threads: int | None = None):
    """Whether each hand is complete (a winning hand) in one of the allowed forms.

    Parameters
    ----------
    hands : str, sequence of str, array_like of shape (..., 34), ndarray of shape (..., 4) and dtype uint32, or Deals
        As for :func:`shanten` (one hand or a batch of any leading shape). A hand of 3k+1
        tiles is never complete (returns False). ``rules="american"`` needs hands of exactly
        14 tiles (see :func:`shanten` for its input forms).
    form, rules, threads
        As for :func:`shanten`.

    Returns
    -------
    bool, or ndarray of dtype bool and the batch's shape

    Examples
    --------
    >>> import mjfast
    >>> mjfast.is_winning("123m456p789s11222z")
    True
    >>> mjfast.is_winning("1122m3344p5566s77z"), mjfast.is_winning("1122m3344p5566s77z", rules="classical")
    (True, False)
    >>> mjfast.is_winning("f1f2f3f4 1111m 2p jjj 55z", rules="american")  # flowers form a set
    True
    >>> mjfast.is_winning([["123m456p789s11222z", "123m456p789s11223z"]])  # shape (1, 2) in, (1, 2) out
    array([[ True, False]])
    """
    if type(form) is str and (rules is None or type(rules) is str):
        fast = _ONE_HAND.get((form, rules)) or _one_hand(form, rules)     # (see shanten)
        if fast:
            if threads is not None:
                resolve_threads(threads)
            one = _onehand.winning_one(hands, fast[0], fast[1])
            if one is not None:
                return one
    if _is_american(rules):
        return _american_hands.is_winning(hands, form, resolve_threads(threads), _american_hands.reading(rules))
    bits = form_bits(form, rules)
    threads = resolve_threads(threads)
    sizes = _forms_sizes(bits, _SIZES_ALL)
    batch = as_batch(hands, sizes, threads=threads, fused=True)
    out = np.empty(len(batch.data), dtype=np.uint8)
    _run_kernel(batch, bits, sizes, out, threads, _core.winning_counts_checked, _core.winning_counts_batch,
                _core.winning_packed_batch)
    return batch.shaped(out.view(np.bool_))


def _is_mcr(rules) -> bool:
    """``rules`` (None, a name or a RuleSet) is the Chinese Official rule set, whose wins are
    scored in fans (raises for unknown names)."""
    return rules is not None and _rules.get(rules).name == "mcr"


def _mcr_only(rules, **options) -> None:
    """ValueError naming the first of ``options`` given (not None) when ``rules`` is not the
    Chinese Official rule set: these options only mean something with fans."""
    if _is_mcr(rules):
        return
    for name, value in options.items():
        if value is not None:
            label = rules.name if isinstance(rules, _rules.RuleSet) else rules
            raise ValueError(f"{name} is an option of rules='mcr' only (the Chinese Official fans); "
                             f"got rules={label!r}")


def _no_jokers_option(jokers, rules) -> None:
    if jokers is not None:
        raise ValueError(f"jokers is an option of rules='american' only (got rules={rules!r})")


def _single_counts(hand: Any, sizes: int, what: str) -> np.ndarray:
    return _single_hand(hand, sizes, what)[0]


def _single_hand(hand: Any, sizes: int, what: str) -> tuple[np.ndarray, np.ndarray]:
    """One hand's concealed counts and the counts of its called sets (zeros unless text)."""
    if not isinstance(hand, str) and np.ndim(hand) != 1:
        raise ValueError(f"{what} must be one hand (text, 34 counts or 4 packed words), not shape {np.shape(hand)}")
    batch = as_batch(hand, sizes, what)
    if not batch.single:
        raise ValueError(f"{what} must be one hand (text, 34 counts or 4 packed words), not a batch of shape "
                         f"{batch.shape}")
    counts = tiles.unpack(batch.data[0]) if batch.packed else batch.data[0].copy()
    called = batch.called if batch.called is not None else np.zeros(34, np.uint8)
    return counts, called


def shanten_rows(rows: np.ndarray, bits: int, called: np.ndarray) -> np.ndarray:
    """Shanten of each row of concealed counts (N, 34) held beside the called tiles ``called``
    (34 counts, zeros for none): the batch kernel, or the capped computation of
    :mod:`mjfast.hands._called` when called sets hold copies."""
    if called.any():
        return _called.shanten_rows(rows, bits, called)
    out = np.empty(len(rows), dtype=np.int8)
    _core.shanten_counts_batch(np.ascontiguousarray(rows, dtype=np.uint8), bits, out, 1)
    return out


def _visible_array(visible: Any, extras_ok: bool = True) -> np.ndarray:
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
    seen = _visible_array(visible)
    own = hand.astype(np.int64) + (0 if called is None else called.astype(np.int64))
    total = seen + own
    if total.max() > 4:
        k = int(np.argmax(total))
        where = f"{int(own[k])} in hand" if called is None or not called[k] else \
            f"{int(hand[k])} in hand + {int(called[k])} in called sets"
        raise ValueError(f"{tiles.tile_name(k)}: {where} + {int(seen[k])} visible = "
                         f"{int(total[k])} copies; only 4 exist")
    return seen + (0 if called is None else called.astype(np.int64))


def waits(hand: Any, *, form: str = "all", rules: str | _rules.RuleSet | None = None,
          jokers: int | None = None, min_fan: int | None = None, self_drawn: bool | None = None,
          seat_wind: str | int | None = None, prevalent_wind: str | int | None = None) -> list[str]:
    """Tiles that complete a hand of 3k+1 tiles (empty if it is not tenpai).

    A kind already held four times is never a wait (there is no fifth copy). Under
    ``rules="mcr"`` with ``min_fan``, only the waits whose win is a valid Chinese Official win
    are kept: at least ``min_fan`` fans (:func:`mjfast.mcr.fan`) without flowers.

    Parameters
    ----------
    hand : str or array_like of shape (34,), or a batch
        A hand of 1, 4, 7, 10 or 13 tiles (``rules="american"``: 13 tiles, any input form
        of :func:`shanten`). A batch -- a list / tuple / array of texts, an integer array of
        shape (..., 34) or a Deals -- gives nested lists of the batch's shape, one list of
        waits per hand (the other arguments apply to every hand).
    form, rules
        As for :func:`shanten`.
    jokers : int, optional
        ``rules="american"`` only: jokers in the tile set (default 8). A joker is a wait while
        the hand holds fewer; each flower f1-f8 not held is a wait of its own.
    min_fan : int, optional
        ``rules="mcr"`` only: keep the waits whose win scores at least this many fans without
        flowers (8 in the Chinese Official rules). The hand must hold 13 tiles counting 3 per
        called set; called sets and concealed kongs in the text (``[456p]``, ``(2222z)``)
        count in the fans. The win is on a discard unless ``self_drawn=True``; it is not the
        last copy of its kind (Last Tile) unless the hand's own sets show the other three.
        None (default): every wait, fans or not.
    self_drawn : bool, optional
        With ``min_fan``: score the win as self-drawn (default False: on a discard).
    seat_wind, prevalent_wind : {"E", "S", "W", "N"} or 0-3, optional
        With ``min_fan``: the winds of the win (default "E", "E").

    Returns
    -------
    list of str
        Tile names in index order (``mjfast.tiles.tile_index`` converts them); for a batch,
        nested lists of the batch's shape.

    Raises
    ------
    ValueError
        As for :func:`shanten`; ``min_fan``, ``self_drawn`` or a wind under rules other
        than "mcr", or ``self_drawn`` or a wind without ``min_fan``; ``min_fan`` for a hand
        that is not 13 tiles.

    Examples
    --------
    >>> import mjfast
    >>> mjfast.waits("123m456p789s1122z")
    ['1z', '2z']
    >>> mjfast.waits(["123m456p789s1122z", "1112345678999m"])       # a batch: one list per hand
    [['1z', '2z'], ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']]
    >>> len(mjfast.waits("19m19p19s1234567z"))
    13
    >>> mjfast.waits("1111m 2222p 333s 44z", rules="american")
    ['3s', 'j']

    Chinese Official: only 9m makes a valid win (Pure Straight, 16 fans); 3m and 6m score 3.

    >>> mjfast.waits("12345678m [999p] 11z", rules="mcr")
    ['3m', '6m', '9m']
    >>> mjfast.waits("12345678m [999p] 11z", rules="mcr", min_fan=8)
    ['9m']
    """
    batch = _hand_batch(hand, _is_american(rules))
    if batch is not None:
        return _per_hand(waits, batch, form=form, rules=rules, jokers=jokers, min_fan=min_fan, self_drawn=self_drawn,
                         seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    _mcr_only(rules, min_fan=min_fan, self_drawn=self_drawn, seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    if min_fan is None:
        for name, value in (("self_drawn", self_drawn), ("seat_wind", seat_wind), ("prevalent_wind", prevalent_wind)):
            if value is not None:
                raise ValueError(f"{name} only changes which waits reach min_fan; give min_fan= too")
    if _is_american(rules):
        return _american_hands.waits(hand, form, jokers, _american_hands.reading(rules))
    _no_jokers_option(jokers, rules)
    bits = form_bits(form, rules)
    counts, called = _single_hand(hand, _forms_sizes(bits, _SIZES_TENPAI), "hand")
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
    on_discard, on_draw = win_fans(rows, found, melds_array(melds), seat_wind=seat,
                                          prevalent_wind=prevalent)
    return found[(on_draw if drawn else on_discard) >= min_fan]


@dataclasses.dataclass(frozen=True)
class Improvement:
    """Tiles that lower the shanten of a hand (after ``discard``, if any).

    Attributes
    ----------
    discard : str or None
        The tile discarded from a 3k+2 hand first; None for a 3k+1 hand.
    shanten : int
        Shanten of the 3k+1 hand (after the discard).
    tiles : dict of str to int
        Each tile kind whose draw lowers the shanten -> copies still unseen (4 minus those
        in hand, those visible and the discard), at least 1.
    count : int
        Total unseen copies over ``tiles``: how many live draws improve the hand. Kinds with
        no unseen copy left are not listed (they cannot be drawn).
    """

    discard: str | None
    shanten: int
    tiles: dict
    count: int


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


def effective_tiles(hand: Any, visible: Any = None, *, form: str = "all", rules: str | _rules.RuleSet | None = None,
                    jokers: int | None = None):
    """Tiles that lower the shanten, with how many copies of each remain unseen.

    Parameters
    ----------
    hand : str or array_like of shape (34,), or a batch
        A 3k+1 hand (e.g. 13 tiles) or a 3k+2 hand (e.g. 14 tiles, before its discard). A
        batch -- a list / tuple / array of texts, an integer array of shape (..., 34) or a
        Deals -- gives nested lists of the batch's shape, one result per hand (``visible``
        and the other arguments apply to every hand).
    visible : str or array_like of shape (34,), optional
        Tiles seen elsewhere (discards, called sets, dora indicators...). They reduce the
        unseen counts; hand + visible may not exceed 4 copies of any kind.
    form, rules
        As for :func:`shanten`. Under ``rules="american"`` the hand is 13 or 14 tiles and
        `visible` may also be 43 counts or text with flowers and jokers; unseen copies are
        4 per standard kind, 1 per flower f1-f8 (each listed on its own) and `jokers` for
        the joker.
    jokers : int, optional
        ``rules="american"`` only: jokers in the tile set (default 8).

    Returns
    -------
    Improvement or list of Improvement
        For a 3k+1 hand, one :class:`Improvement`. For a 3k+2 hand, one per distinct discard
        (the discarded copy then counts as seen),
        best first (lowest shanten after the discard, then most unseen improving copies,
        then tile order). For a batch, nested lists of the batch's shape.

    Examples
    --------
    >>> import mjfast
    >>> imp = mjfast.effective_tiles("123m456p789s1122z", visible="1z")
    >>> imp.shanten, imp.tiles, imp.count
    (0, {'1z': 1, '2z': 2}, 3)
    >>> best = mjfast.effective_tiles("123m456p789s11223z")[0]
    >>> best.discard, best.shanten, best.count
    ('3z', 0, 4)
    >>> mjfast.effective_tiles("1111m 2222p 333s 44z", visible="3s jj", rules="american").tiles
    {'j': 6}
    """
    batch = _hand_batch(hand, _is_american(rules))
    if batch is not None:
        return _per_hand(lambda h, **kw: effective_tiles(h, visible, **kw), batch, form=form, rules=rules,
                         jokers=jokers)
    if _is_american(rules):
        return _american_hands.effective_tiles(hand, visible, form, jokers, Improvement, _american_hands.reading(rules))
    _no_jokers_option(jokers, rules)
    bits = form_bits(form, rules)
    counts, called = _single_hand(hand, _forms_sizes(bits, _SIZES_ALL), "hand")
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
    """Every way a complete standard hand splits into k sets and one pair.

    Parameters
    ----------
    hand : str or array_like of shape (34,), or a batch
        A hand of 3k+2 tiles (2, 5, 8, 11 or 14). A batch -- a list / tuple / array of texts,
        an integer array of shape (..., 34) or a Deals -- gives nested lists of the batch's
        shape, one result per hand.

    Returns
    -------
    list of tuple of str
        One tuple per decomposition: the pair first, then the sets (chows and pungs) in tile
        order, each in compact notation. Sorted; empty when the hand is not complete. For a
        batch, nested lists of the batch's shape.

    Examples
    --------
    >>> import mjfast
    >>> for d in mjfast.decompose("111222333m789p11z"):
    ...     print(d)
    ('11z', '111m', '222m', '333m', '789p')
    ('11z', '123m', '123m', '123m', '789p')
    """
    batch = _hand_batch(hand, False)
    if batch is not None:
        return _per_hand(decompose, batch)
    counts = _single_counts(hand, _SIZES_COMPLETE, "hand")
    found: list = []
    _decompositions([int(c) for c in counts], 0, [], None, found)
    result = set()
    for pair, sets in found:
        ordered = sorted(sets, key=lambda s: (s[1], s[0]))
        result.add((_set_text("pair", pair),) + tuple(_set_text(kind, k) for kind, k in ordered))
    return sorted(result)
