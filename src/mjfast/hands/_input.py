"""Hands as the kernels read them (private): one normaliser for both hand models.

Every hand function takes one hand or a batch of any leading shape -- text, a list / tuple /
array of texts, an integer array whose last axis is one hand, or a :class:`~mjfast.Deals` --
and turns it into C-contiguous rows for the kernels, validated once: :func:`as_batch` returns a
:class:`HandBatch` (the rows, their layout, the batch's shape). What differs between the hand
models is how one row reads, a :class:`Layout` each:

- ``STANDARD``: 34 counts (0-4) or 4 packed uint32 words; text may hold called sets
  (``[111z]``, ``(2222m)``), whose tiles the batch keeps beside the concealed counts;
- ``AMERICAN``: 43 counts (34 kinds, the flowers f1-f8, the joker) or 5 packed words, 34
  counts or 4 words widened to them; text with ``f1``..``f8`` and ``j``, fully concealed.

The size masks (bit s set: a hand of s tiles is allowed) of the standard model are here too:
its hand functions and the analyses pass them to :func:`as_batch`.
"""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .. import _core, tiles
from .._kernels import american_batch as _american_batch
from .._kernels import onehand as _onehand
from .._runtime.validation import count_rows, hand_label, text_batch

#: sizes 3k+1 and 3k+2 up to 14 tiles (bit s: a hand of s tiles)
SIZES_ALL = sum(1 << s for s in range(1, 15) if s % 3)
#: a closed hand of 13 or 14 tiles (the special forms)
SIZES_CLOSED = (1 << 13) | (1 << 14)
#: the knitted straight with one called set: 10 or 11 concealed tiles
SIZES_CALLED_KNIT = (1 << 10) | (1 << 11)
#: complete sizes 3k+2
SIZES_COMPLETE = sum(1 << s for s in range(2, 15) if s % 3 == 2)
#: waiting sizes 3k+1
SIZES_TENPAI = sum(1 << s for s in range(1, 14) if s % 3 == 1)

_N = tiles.N_EXTENDED
_FLOWERS = slice(tiles.BONUS_FIRST, tiles.JOKER)


class HandBatch:
    """A validated batch for the kernels. A plain class with slots, not a frozen dataclass: its
    construction is on the path of every call (a frozen dataclass cost ~2 us of a one-hand call)."""

    __slots__ = ("data", "packed", "single", "called", "shape", "checked")

    def __init__(self, data: np.ndarray, packed: bool, single: bool, called: np.ndarray | None = None,
                 shape: tuple = (), checked: bool = True) -> None:
        self.data = data          # (n, width) uint8 or (n, words) uint32, C-contiguous
        self.packed = packed
        self.single = single
        self.called = called      # standard model: (34,) tiles in the hand's called sets (one hand as text),
        #                           or (n, 34) per row (a batch of texts); None otherwise
        self.shape = shape        # the batch's leading shape (the output's shape); () for one hand
        self.checked = checked    # False: counts not validated yet (the kernel's fused check does it)

    @property
    def has_called(self) -> bool:
        return self.called is not None and bool(self.called.any())

    def shaped(self, out: np.ndarray):
        """A kernel's (n,) output in the caller's form: a scalar for one hand, else an
        array of the batch's shape."""
        return out[0].item() if self.single else out.reshape(self.shape)


# -- the Deals type -------------------------------------------------------------------------------

#: mjfast.deals.Deals, registered by mjfast.deals when it is imported: the deals build on the hand
#: functions (form_bits), so these never import them, yet accept a Deals as a batch of hands
_DEALS_TYPES: tuple[type, ...] = ()


def register_deals(deals_type: type) -> None:
    """Called by :mod:`mjfast.deals`: the type of its results, which hand functions accept."""
    global _DEALS_TYPES
    _DEALS_TYPES = (deals_type,)


def is_deals(obj: Any) -> bool:
    """Whether ``obj`` is a :class:`~mjfast.Deals`."""
    return isinstance(obj, _DEALS_TYPES)


def deal_counts(deals) -> np.ndarray:
    """The (n, 4, 43) extended counts of a :class:`~mjfast.Deals`: its standard tiles, the
    flowers f1..f8 and the jokers each seat holds (the full American hands)."""
    return np.concatenate([deals.hands, np.minimum(deals.bonus, 1), deals.jokers[..., None]], axis=-1)


def size_text(mask: int) -> str:
    """The sizes of a size mask, as "1, 2, 4"."""
    return ", ".join(str(s) for s in range(64) if (mask >> s) & 1)


# -- the two layouts ------------------------------------------------------------------------------

class Layout(Protocol):
    """How one hand model's rows read: its text, its Deals rows, its array widths, its checks."""

    name: str
    accepted: str            #: what the batch functions accept, for error messages
    one_hand: str            #: one hand's array forms, for error messages

    def read_text(self, text: str, what: str, fused: bool) -> HandBatch: ...

    def read_texts(self, texts: np.ndarray, what: str) -> tuple: ...

    def deal_rows(self, deals) -> np.ndarray: ...

    def rows(self, arr: np.ndarray, shape: tuple, what: str, given: Any) -> tuple: ...

    def check(self, arr: np.ndarray, packed: bool, sizes: int, what: str, shape: tuple, threads: int,
              standard_only: bool = False) -> None: ...


class _Standard:
    name = "standard"
    accepted = ("a str (one hand), a list / tuple / array of str (a batch of any shape), a Deals, or an integer "
                "array of shape (..., 34) (tile counts; any integer dtype, uint8 fastest) or (..., 4) of dtype uint32 "
                "(packed rows); the leading shape is the batch's")
    one_hand = "34 counts or 4 packed words"

    def read_text(self, text: str, what: str, fused: bool) -> HandBatch:
        if fused and (plain := tiles.plain_counts(text)) is not None:
            # one hand in the plain notation: no called sets, bonus tiles or jokers to look for
            return HandBatch(plain.reshape(1, 34), False, True, None, (), checked=False)
        parsed = tiles.parse_tiles(text)
        if parsed.bonus.any() or parsed.jokers:
            raise ValueError(f"{what}: bonus tiles and jokers are not part of a hand here; remove them from {text!r}")
        called = (parsed.counts_all() - parsed.concealed).astype(np.uint8)
        return HandBatch(parsed.concealed.reshape(1, 34), False, True, called, ())

    def read_texts(self, texts: np.ndarray, what: str) -> tuple:
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

    def deal_rows(self, deals) -> np.ndarray:
        return deals.hands

    def rows(self, arr: np.ndarray, shape: tuple, what: str, given: Any) -> tuple:
        width = arr.shape[1]
        if width == 4 and arr.dtype == np.uint32:
            return arr, True
        if width == 4:
            raise TypeError(f"{what}: packed hands (last axis of 4 words) must have dtype uint32, got {arr.dtype}; "
                            f"accepted: {self.accepted}")
        if width != 34:
            raise ValueError(f"{what} must have 34 counts per hand (or 4 packed uint32 words) on the last axis; "
                             f"got shape {np.shape(given)}. Accepted: {self.accepted}")
        if arr.dtype != np.uint8:
            if arr.size and (arr.min() < 0 or arr.max() > 4):
                bad = np.argwhere((arr < 0) | (arr > 4))[0]
                raise ValueError(f"{hand_label(what, int(bad[0]), shape)} holds {int(arr[bad[0], bad[1]])} copies "
                                 f"of {tiles.tile_name(int(bad[1]))}; counts must be 0-4")
            arr = arr.astype(np.uint8)
        return arr, False

    def check(self, arr: np.ndarray, packed: bool, sizes: int, what: str, shape: tuple, threads: int,
              standard_only: bool = False) -> None:
        raise_bad_row(arr, packed, sizes, what, shape, threads)


class _American:
    name = "american"
    accepted = ("a str (one hand, with f1..f8 and j), a list / tuple / array of str (a batch of any shape), a Deals of "
                "rules='american', or an integer array of shape (..., 43) (34 standard kinds, f1..f8, jokers) or "
                "(..., 34), or packed (..., 5) / (..., 4) of dtype uint32; the leading shape is the batch's")
    one_hand = "43 counts or 5 packed words"

    @staticmethod
    def _row(text: str, what: str) -> np.ndarray:
        parsed = tiles.parse_tiles(text, max_jokers=14, max_tiles=None)
        if parsed.melds:
            raise ValueError(f"{what}: rules='american' analyses fully concealed hands; remove the "
                             f"called sets from {text!r}")
        row = np.zeros((1, _N), dtype=np.uint8)
        row[0, :34] = parsed.concealed
        row[0, _FLOWERS] = parsed.bonus
        row[0, tiles.JOKER] = parsed.jokers
        return row

    def read_text(self, text: str, what: str, fused: bool) -> HandBatch:
        return HandBatch(self._row(text, what), False, True)

    def read_texts(self, texts: np.ndarray, what: str) -> tuple:
        rows = []
        for i, t in enumerate(texts.reshape(-1).tolist()):
            label = hand_label(what, i, texts.shape)
            try:
                rows.append(self._row(t, label))
            except ValueError as exc:
                msg = str(exc)
                raise ValueError(msg if msg.startswith(label) else f"{label}: {msg}") from None
        return (np.concatenate(rows) if rows else np.zeros((0, _N), np.uint8)), None

    def deal_rows(self, deals) -> np.ndarray:
        return deal_counts(deals)

    def rows(self, arr: np.ndarray, shape: tuple, what: str, given: Any) -> tuple:
        width = arr.shape[1]
        if width in (4, 5):
            if arr.dtype != np.uint32:
                raise TypeError(f"{what}: packed hands must have dtype uint32, got {arr.dtype}; accepted: {self.accepted}")
            if width == 4:
                arr = np.concatenate([arr, np.zeros((len(arr), 1), np.uint32)], axis=1)
            return arr, True
        if width not in (34, _N):
            raise ValueError(f"{what} must have 43 counts per hand (34 standard kinds, f1..f8, jokers) on the last "
                             f"axis, or 5 packed uint32 words; got shape {np.shape(given)}. Accepted: {self.accepted}")
        if arr.dtype != np.uint8 and arr.size and (arr.min() < 0 or arr.max() > 255):
            row, k = np.argwhere((arr < 0) | (arr > 255))[0]
            raise ValueError(f"{hand_label(what, int(row), shape)} holds {int(arr[row, k])} copies of "
                             f"{tiles.tile_name(int(k))}; counts must be 0-4 (flowers 0-1)")
        if width == 34:
            arr = np.concatenate([arr, np.zeros((len(arr), _N - 34), arr.dtype)], axis=1)
        return arr.astype(np.uint8, copy=False), False

    def check(self, arr: np.ndarray, packed: bool, sizes: int, what: str, shape: tuple, threads: int,
              standard_only: bool = False) -> None:
        check = _american_batch.check_packed_batch if packed else _american_batch.check_counts_batch
        row, reason = check(arr, sizes)
        if row < 0:
            return
        label = hand_label(what, row, shape)
        if reason == 1:
            if packed:
                raise ValueError(f"{label}: a packed 3-bit count is above 4")
            k = int(np.flatnonzero(arr[row, :34] > 4)[0])
            raise ValueError(f"{label} holds {int(arr[row, k])} copies of {tiles.tile_name(k)}; counts must be 0-4")
        if reason == 4:
            k = 34 + int(np.flatnonzero(arr[row, _FLOWERS] > 1)[0])
            raise ValueError(f"{label} holds {int(arr[row, k])} copies of {tiles.tile_name(k)}; each flower "
                             "f1-f8 exists once")
        if reason == 3:
            raise ValueError(f"{label}: packed word has bits set outside the count fields")
        total = int(tiles.unpack(arr[row]).astype(np.int64).sum()) if packed else int(arr[row].astype(np.int64).sum())
        hint = ("; these counts hold no flowers or jokers (for mjfast.deal(..., rules='american') pass the Deals "
                "itself, not its .hands)" if standard_only else "")
        raise ValueError(f"{label} has {total} tiles; American hands here hold {_american_sizes_text(sizes)} "
                         f"(flowers and jokers count){hint}")


def _american_sizes_text(mask: int) -> str:
    sizes = [s for s in range(64) if (mask >> s) & 1]
    if len(sizes) > 2 and sizes == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}-{sizes[-1]} tiles"
    return " or ".join(str(s) for s in sizes)


STANDARD: Layout = _Standard()
AMERICAN: Layout = _American()


# -- the normaliser -------------------------------------------------------------------------------

def as_batch(hands: Any, sizes: int = SIZES_ALL, what: str = "hands", threads: int = 1, fused: bool = False,
             layout: Layout = STANDARD) -> HandBatch:
    """Validate ``hands`` and return it as a C-contiguous batch for the kernels of ``layout``'s
    hand model.

    ``hands``: one hand (text, counts or packed words) or a batch of any leading shape (a list /
    tuple / array of texts, an integer array whose last axis is one hand, or a
    :class:`~mjfast.Deals`). ``sizes`` is a bit set of allowed tile totals. Raises TypeError for
    wrong types or dtypes and ValueError (naming the first bad hand by its index in the batch)
    for wrong shapes, counts or sizes; both say what is accepted.

    ``fused=True`` (standard model) leaves the counts of a uint8 count batch unchecked
    (``checked=False``): the caller runs a kernel that validates in the same pass
    (``_core.*_checked``) and calls :func:`raise_bad_row` when it reports a bad row. Everything
    else is checked here.
    """
    if isinstance(hands, str):
        batch = layout.read_text(hands, what, fused)
        if batch.checked:
            layout.check(batch.data, False, sizes, what, (), threads)
        return batch
    texts = text_batch(hands, what)
    if texts is not None:                 # a batch of texts (even of shape (): never one hand)
        arr, called = layout.read_texts(texts, what)
        layout.check(arr, False, sizes, what, texts.shape, threads)
        return HandBatch(arr, False, False, called, texts.shape)
    arr, shape = count_rows(layout.deal_rows(hands) if is_deals(hands) else hands, what, layout.accepted)
    standard_only = arr.shape[1] in (4, 34)       # (American: counts that cannot hold flowers or jokers)
    arr, packed = layout.rows(arr, shape, what, hands)
    arr = np.ascontiguousarray(arr)
    if fused and not packed and layout is STANDARD:
        return HandBatch(arr, packed, shape == (), None, shape, checked=False)
    layout.check(arr, packed, sizes, what, shape, threads, standard_only)
    return HandBatch(arr, packed, shape == (), None, shape)


def raise_bad_row(arr: np.ndarray, packed: bool, sizes: int, what: str, shape: tuple, threads: int = 1) -> None:
    """Raise the ValueError naming the first invalid hand of a standard batch (nothing when all
    are valid)."""
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
        raise ValueError(f"{label} has {total} tiles; allowed sizes here: {size_text(sizes)}")


def single_hand(hand: Any, sizes: int, what: str, layout: Layout = STANDARD) -> tuple[np.ndarray, np.ndarray]:
    """One hand's counts (unpacked; uint8) and the counts of its called sets (34; zeros unless
    standard text with sets). A batch is an error here (the one-hand functions map over batches
    before they get here)."""
    if not isinstance(hand, str) and np.ndim(hand) != 1:
        raise ValueError(f"{what} must be one hand (text, {layout.one_hand}), not shape {np.shape(hand)}")
    batch = as_batch(hand, sizes, what, layout=layout)
    if not batch.single:
        raise ValueError(f"{what} must be one hand (text, {layout.one_hand}), not a batch of shape {batch.shape}")
    counts = tiles.unpack(batch.data[0]) if batch.packed else batch.data[0].copy()
    called = batch.called if batch.called is not None else np.zeros(34, np.uint8)
    return counts, called


# -- batches given to the one-hand functions ------------------------------------------------------

def hand_batch(hand: Any, layout: Layout = STANDARD):
    """The hands of a batch given to a one-hand function (waits, effective_tiles, decompose),
    as (flat list of hands, leading shape); None when ``hand`` is one hand."""
    if isinstance(hand, str):
        return None
    texts = text_batch(hand, "hands")
    if texts is not None:
        return texts.reshape(-1).tolist(), texts.shape
    if is_deals(hand):
        hand = layout.deal_rows(hand)
    if isinstance(hand, (bytes, bytearray, memoryview)) or hand is None or np.ndim(hand) < 2:
        return None
    arr = np.asarray(hand)
    return list(arr.reshape(-1, arr.shape[-1])), arr.shape[:-1]


def nest(items: list, shape: tuple):
    """``items`` (row-major) as nested lists of ``shape``."""
    if len(shape) <= 1:
        return list(items)
    step = len(items) // shape[0] if shape[0] else 0
    return [nest(items[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def per_hand(fn, batch: tuple, **kw) -> list:
    """``fn`` on every hand of a batch (see :func:`hand_batch`): nested lists of the batch's
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
    return nest(out, shape)
