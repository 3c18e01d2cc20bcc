"""The public hand functions (private module; :mod:`mjfast.hands` is their home): the checks
every hand model shares, then one call to the model of the rule set through :data:`_MODELS`.

:func:`shanten` and :func:`is_winning` first try the short way of one hand as text or 34
counts (:mod:`mjfast._kernels.onehand` reads, checks and scores it in one compiled call, about
0.3 us); anything it does not take -- a batch, another input form, an invalid hand -- goes the
general way, which raises the errors.
"""
from __future__ import annotations

from typing import Any

from .. import rules as _rules
from .._kernels import onehand as _onehand
from .._runtime.threads import resolve_threads
from . import _american, _standard
from ._input import SIZES_ALL, hand_batch, per_hand
from ._standard import form_bits, forms_sizes, mcr_only

#: hand model (a rule set's ``hand_model``) -> the module that reads and scores its hands
_MODELS = {"standard": _standard, "american": _american}


def _model(rules):
    """The hand model of ``rules`` (None, a name or a RuleSet; raises for unknown names)."""
    return _MODELS[_rules.hand_facts(rules).model]


_ONE_HAND: dict = {}   # (form, rules name or None) -> (form bits, allowed sizes); () for other hand models


def _one_hand(form: str, rules) -> tuple:
    """The kernel bits and allowed sizes of shanten / is_winning under ``form`` and ``rules``
    (None or a rule set's name), for the one-hand path; () for rules whose hands another model
    reads. Raises as the general path does, in its order (the rules, then the form); the entries
    of valid calls are kept (the names and forms are a fixed set)."""
    key = (form, rules)
    entry = _ONE_HAND.get(key)
    if entry is None:
        if _model(rules) is not _standard:
            entry = ()
        else:
            bits = form_bits(form, rules)
            entry = (bits, forms_sizes(bits, SIZES_ALL))
        _ONE_HAND[key] = entry
    return entry


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
    >>> import numpy as np, mjfast
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
    return _model(rules).shanten(hands, form, rules, threads)


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
    return _model(rules).is_winning(hands, form, rules, threads)


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
    model = _model(rules)
    batch = hand_batch(hand, model.LAYOUT)
    if batch is not None:
        return per_hand(waits, batch, form=form, rules=rules, jokers=jokers, min_fan=min_fan, self_drawn=self_drawn,
                        seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    mcr_only(rules, min_fan=min_fan, self_drawn=self_drawn, seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    if min_fan is None:
        for name, value in (("self_drawn", self_drawn), ("seat_wind", seat_wind), ("prevalent_wind", prevalent_wind)):
            if value is not None:
                raise ValueError(f"{name} only changes which waits reach min_fan; give min_fan= too")
    return model.waits(hand, form, rules, jokers, min_fan, self_drawn, seat_wind, prevalent_wind)


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
    model = _model(rules)
    batch = hand_batch(hand, model.LAYOUT)
    if batch is not None:
        return per_hand(lambda h, **kw: effective_tiles(h, visible, **kw), batch, form=form, rules=rules,
                        jokers=jokers)
    return model.effective_tiles(hand, visible, form, rules, jokers)


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
    batch = hand_batch(hand)
    if batch is not None:
        return per_hand(decompose, batch)
    return _standard.decompose(hand)
