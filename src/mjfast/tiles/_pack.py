"""The packed layout of :mod:`mjfast.tiles`: :func:`pack` and :func:`unpack` (3 bits a kind, one
``uint32`` word a suit), vectorised over batches of hands.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._names import (
    BONUS_FIRST,
    COUNT_LIMIT_PY,
    JOKER,
    KIND_NAMES,
    N_BONUS,
    N_COPIES,
    N_EXTENDED,
    N_KINDS,
    PACKED_WORDS,
    PACKED_WORDS_EXTENDED,
    kind_name,
)

_COUNT_LIMIT = np.array(COUNT_LIMIT_PY, dtype=np.int64)
# number of value bits used in each packed word (the rest is zero padding)
_USED_BITS = (27, 27, 27, 21, 16)
_WORD_NAMES = ("m", "p", "s", "z", "bonus/joker")

_CHUNK = 32768  # rows per block in pack/unpack: keeps the working set in cache

# unpack: (word, shift, first output column) of each 12-bit / 4-field lookup.
# Overlapping columns (5-7 of a suit, 30 of the honors) are written twice with
# the same value.
_UNPACK_PLAN = tuple(
    [(w, sh, 9 * w + c0) for w in range(3) for sh, c0 in ((0, 0), (12, 4), (15, 5))]
    + [(3, 0, 27), (3, 9, 30)]
)
_v = np.arange(4096)
# 12 bits -> 4 bytes (one 3-bit field per byte), as raw memory
_NIBBLE_LUT = np.ascontiguousarray(
    np.stack([(_v >> (3 * i)) & 7 for i in range(4)], axis=1).astype(np.uint8)
).view("<u4").reshape(4096)
_v = np.arange(256)
# bonus byte -> 8 bytes of 0/1, as raw memory
_BONUS_LUT = np.ascontiguousarray(
    np.stack([(_v >> i) & 1 for i in range(8)], axis=1).astype(np.uint8)
).view("<u8").reshape(256)
del _v

# ---------------------------------------------------------------------------
# packing


def _int_array(value: Any, func: str) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{func} expects an integer array, got dtype {arr.dtype}")
    return arr


def _row_label(prefix: str, single: bool, row: int) -> str:
    return prefix if single else f"{prefix} {row}"


def _check_count_block(block: np.ndarray, start: int, single: bool) -> None:
    """Raise ValueError naming the first row/kind of `block` whose count is out of range."""
    width = block.shape[1]
    if block.dtype == np.uint8 and width == N_KINDS:
        if block.size == 0 or int(block.max()) <= N_COPIES:
            return
    limit = _COUNT_LIMIT[:width]
    bad = block > limit
    if block.dtype.kind == "i":
        bad |= block < 0
    if not bad.any():
        return
    row = int(np.flatnonzero(bad.any(axis=1))[0])
    k = int(np.flatnonzero(bad[row])[0])
    raise ValueError(
        f"{_row_label('hand', single, start + row)}: count {int(block[row, k])} for "
        f"{kind_name(k)} (index {k}) is out of range 0-{int(limit[k])}"
    )


def pack(counts: Any) -> np.ndarray:
    """Pack count vectors into 3-bit fields of uint32 words.

    Parameters
    ----------
    counts : array_like of int, shape (34,), (N, 34), (43,) or (N, 43)
        One hand or a batch of hands (one per row), any integer dtype.
        Standard counts must be 0-4, bonus 0-1 and jokers 0-255.

    Returns
    -------
    numpy.ndarray
        dtype uint32, C-contiguous, shape (4,) / (N, 4) for standard input and
        (5,) / (N, 5) for extended input; layout in the module docstring.

    Raises
    ------
    TypeError
        If the values are not integers.
    ValueError
        Wrong shape, or a count out of range (the message names the first
        offending hand and tile).

    Examples
    --------
    >>> from mjfast.tiles import parse_hand
    >>> [int(w) for w in pack(parse_hand("1m"))]
    [1, 0, 0, 0]
    >>> hex(int(pack(parse_hand("9m"))[0])), hex(int(pack(parse_hand("7777z"))[3]))
    ('0x1000000', '0x100000')
    >>> batch = np.stack([parse_hand("19m"), parse_hand("55p")])
    >>> pack(batch).tolist()
    [[16777217, 0, 0, 0], [0, 8192, 0, 0]]
    >>> ext = np.zeros(43, dtype=np.uint8); ext[34] = ext[36] = 1; ext[42] = 3
    >>> hex(int(pack(ext)[4]))
    '0x305'
    """
    arr = _int_array(counts, "pack")
    if arr.ndim not in (1, 2) or arr.shape[-1] not in (N_KINDS, N_EXTENDED):
        raise ValueError(
            f"pack expects shape (34,), (N, 34), (43,) or (N, 43), got {arr.shape}"
        )
    single = arr.ndim == 1
    a2 = arr.reshape(1, -1) if single else arr
    n, width = a2.shape
    extended = width == N_EXTENDED
    nwords = PACKED_WORDS_EXTENDED if extended else PACKED_WORDS
    out = np.empty((n, nwords), dtype=np.uint32)
    chunk = min(_CHUNK, max(n, 1))
    tbuf = np.empty((width, chunk), dtype=np.uint8)  # block transposed: one kind per row
    abuf = np.empty((nwords, chunk), dtype=np.uint32)
    tmp_buf = np.empty(chunk, dtype=np.uint32)
    for start in range(0, n, chunk):
        block = a2[start:start + chunk]
        m = block.shape[0]
        _check_count_block(block, start, single)
        t = tbuf[:, :m]
        np.copyto(t, block.T, casting="unsafe")  # values validated to fit uint8
        acc = abuf[:, :m]
        tmp = tmp_buf[:m]
        for w in range(4):
            base = 9 * w
            a = acc[w]
            np.copyto(a, t[base], casting="safe")
            for r in range(1, 9 if w < 3 else 7):
                np.left_shift(t[base + r], 3 * r, out=tmp, dtype=np.uint32)
                np.bitwise_or(a, tmp, out=a)
        if extended:
            a = acc[4]
            np.left_shift(t[JOKER], 8, out=a, dtype=np.uint32)
            for i in range(N_BONUS):
                np.left_shift(t[BONUS_FIRST + i], i, out=tmp, dtype=np.uint32)
                np.bitwise_or(a, tmp, out=a)
        np.copyto(out[start:start + m], acc.T)
    return out[0] if single else out


def _raise_bad_words(
    padding: np.ndarray, words: np.ndarray, fields: np.ndarray, start: int, single: bool
) -> None:
    """Raise ValueError for the first row of a block with padding bits or a field > 4."""
    pad_rows = np.flatnonzero(padding.any(axis=0))
    field_bad = fields > N_COPIES
    field_rows = np.flatnonzero(field_bad.any(axis=1))
    pad_row = int(pad_rows[0]) if pad_rows.size else fields.shape[0]
    field_row = int(field_rows[0]) if field_rows.size else fields.shape[0]
    label = _row_label("packed hand", single, start + min(pad_row, field_row))
    if pad_row <= field_row:
        w = int(np.flatnonzero(padding[:, pad_row])[0])
        raise ValueError(
            f"{label}: word {w} ({_WORD_NAMES[w]}) = {int(words[w, pad_row]):#010x} has "
            f"nonzero padding bits above bit {_USED_BITS[w] - 1}"
        )
    k = int(np.flatnonzero(field_bad[field_row])[0])
    raise ValueError(
        f"{label}: field of {KIND_NAMES[k]} holds {int(fields[field_row, k])}; "
        f"counts are 0-{N_COPIES}"
    )


def unpack(packed: Any) -> np.ndarray:
    """Unpack uint32 words into count vectors; the inverse of :func:`pack`.

    Parameters
    ----------
    packed : array_like of int, shape (4,), (N, 4), (5,) or (N, 5)
        Packed hands, normally uint32. Any integer dtype is accepted if every
        value lies in 0 .. 2**32-1.

    Returns
    -------
    numpy.ndarray
        dtype uint8, shape (34,) / (N, 34) for 4 words and (43,) / (N, 43)
        for 5 words.

    Raises
    ------
    TypeError
        If the values are not integers.
    ValueError
        Wrong shape, a value outside 32 bits, a 3-bit field holding more than
        4, or a nonzero padding bit. The message names the first offending
        hand (``packed hand N: ...``).

    Examples
    --------
    >>> from mjfast.tiles import format_hand
    >>> format_hand(unpack(np.array([1 << 24, 0, 0, 4 << 18], dtype=np.uint32)))
    '9m7777z'
    >>> unpack(np.array([[7, 0, 0, 0]], dtype=np.uint32))
    Traceback (most recent call last):
    ...
    ValueError: packed hand 0: field of 1m holds 7; counts are 0-4
    >>> format_hand(unpack([0, 0, 0, 0, 0x201]))
    'f1jj'
    """
    arr = _int_array(packed, "unpack")
    if arr.ndim not in (1, 2) or arr.shape[-1] not in (PACKED_WORDS, PACKED_WORDS_EXTENDED):
        raise ValueError(
            f"unpack expects shape (4,), (N, 4), (5,) or (N, 5), got {arr.shape}"
        )
    single = arr.ndim == 1
    a2 = arr.reshape(1, -1) if single else arr
    n, nwords = a2.shape
    extended = nwords == PACKED_WORDS_EXTENDED
    width = N_EXTENDED if extended else N_KINDS
    out = np.empty((n, width), dtype=np.uint8)
    if n == 0:
        return out
    # Each step of _UNPACK_PLAN decodes 12 bits (4 fields) of one word with a
    # table lookup giving 4 bytes, stored through an unaligned 4-byte view of
    # the output rows at the column of the first field.
    quads = [
        np.ndarray(shape=(n,), dtype="<u4", buffer=out, offset=col, strides=(width,))
        for _, _, col in _UNPACK_PLAN
    ]
    if extended:
        bonus_view = np.ndarray(
            shape=(n,), dtype="<u8", buffer=out, offset=BONUS_FIRST, strides=(width,)
        )
        joker_col = out[:, JOKER]
    chunk = min(_CHUNK, n)
    wbuf = np.empty((nwords, chunk), dtype=np.uint32)
    idx_buf = np.empty(chunk, dtype=np.uint32)
    val_buf = np.empty(chunk, dtype="<u4")
    bonus_buf = np.empty(chunk, dtype="<u8")
    pad_shift = np.array(_USED_BITS[:nwords], dtype=np.uint32).reshape(-1, 1)
    needs_range = a2.dtype != np.uint32
    for start in range(0, n, chunk):
        block = a2[start:start + chunk]
        m = block.shape[0]
        range_error = None
        if needs_range:
            bad = block < 0 if block.dtype.kind == "i" else np.zeros(block.shape, bool)
            if block.dtype.itemsize > 4:
                bad |= block > 0xFFFFFFFF
            if bad.any():
                row = int(np.flatnonzero(bad.any(axis=1))[0])
                w = int(np.flatnonzero(bad[row])[0])
                range_error = ValueError(
                    f"{_row_label('packed hand', single, start + row)}: word {w} = "
                    f"{int(block[row, w])} does not fit in 32 unsigned bits"
                )
                # check the rows before it first, so the first bad row is reported
                block = block[:row]
                m = row
        stop = start + m
        words = wbuf[:, :m]
        np.copyto(words, block.T, casting="unsafe")  # range checked above
        padding = words >> pad_shift
        idx = idx_buf[:m]
        val = val_buf[:m]
        for (w, shift, _), view in zip(_UNPACK_PLAN, quads):
            np.right_shift(words[w], shift, out=idx)
            np.bitwise_and(idx, 0xFFF, out=idx)
            np.take(_NIBBLE_LUT, idx, out=val)
            view[start:stop] = val
        fields = out[start:stop, :N_KINDS]
        if padding.any() or int(fields.max(initial=0)) > N_COPIES:
            _raise_bad_words(padding, words, fields, start, single)
        if extended:
            np.bitwise_and(words[4], 0xFF, out=idx)
            np.take(_BONUS_LUT, idx, out=bonus_buf[:m])
            bonus_view[start:stop] = bonus_buf[:m]
            np.right_shift(words[4], 8, out=idx)
            np.copyto(joker_col[start:stop], idx, casting="unsafe")  # < 256: padding checked
        if range_error is not None:
            raise range_error
    return out[0] if single else out
