"""The text parsers of :mod:`mjfast.tiles`: :func:`parse_hand`, :func:`parse_tiles` and the fast
reader of plain concealed text (:func:`plain_counts`).
"""

from __future__ import annotations

import operator
import re

import numpy as np

from ._hand import Meld, ParsedHand, check_copies, classify_set
from ._names import DIGITS, MAX_JOKERS, MAX_TILES, N_BONUS, N_COPIES, N_KINDS, SUIT_BASE, SUIT_MAX

# ---------------------------------------------------------------------------
# parser


class _Scan:
    """Raw result of scanning a text (no count limits checked yet)."""

    __slots__ = ("concealed", "bonus", "jokers", "melds", "extra")

    def __init__(self) -> None:
        self.concealed = [0] * N_KINDS
        self.bonus: list[tuple[int, int]] = []  # (bonus number 1-8, position)
        self.jokers = 0
        self.melds: list[Meld] = []
        self.extra: str | None = None  # first non-concealed token, for parse_hand


def _scan(text: str) -> _Scan:
    res = _Scan()
    n = len(text)
    digits_at = -1  # start of the pending digit run, or -1
    group_open = ""  # "[" or "(" while inside a set
    group_at = -1
    group_tiles: list[int] = []
    i = 0

    def where(pos: int) -> str:
        return f"at position {pos} of {text!r}" if n <= 80 else f"at position {pos}"

    def no_suit(end: int) -> ValueError:
        run = text[digits_at:end]
        return ValueError(
            f"digits {run!r} {where(digits_at)} have no suit letter after them "
            "(expected m, p, s, z or f)"
        )

    while i < n:
        c = text[i]
        if c in DIGITS:
            if digits_at < 0:
                digits_at = i
            i += 1
            continue
        if c in SUIT_MAX:  # m p s z f
            if digits_at < 0:
                if c != "f":
                    raise ValueError(
                        f"suit letter {c!r} {where(i)} has no rank digits before it"
                    )
                # prefix bonus form: f1 .. f8
                d = text[i + 1] if i + 1 < n else ""
                if d == "" or d not in DIGITS:
                    raise ValueError(
                        f"'f' {where(i)} must be followed by a bonus number 1-8 "
                        "(f1-f8) or preceded by digits (12f)"
                    )
                if d not in "12345678":
                    raise ValueError(
                        f"bonus tile 'f{d}' {where(i)} does not exist: bonus tiles are f1-f8"
                    )
                if i + 2 < n and text[i + 2] in DIGITS:
                    raise ValueError(
                        f"ambiguous bonus token {text[i:i + 3]!r} {where(i)}: "
                        f"write 'f{d}f{text[i + 2]}' or '{d}{text[i + 2]}f'"
                    )
                if group_open:
                    raise ValueError(
                        f"bonus tile 'f{d}' {where(i)} cannot be part of a set"
                    )
                res.bonus.append((int(d), i))
                if res.extra is None:
                    res.extra = f"bonus tile 'f{d}'"
                i += 2
                continue
            token = text[digits_at:i + 1]
            top = SUIT_MAX[c]
            for pos in range(digits_at, i):
                r = ord(text[pos]) - 48
                if r == 0:
                    raise ValueError(
                        f"rank 0 in {token!r} {where(digits_at)} is not a tile: "
                        f"ranks are 1-{top} (red fives are not supported)"
                    )
                if r > top:
                    what = "honors are 1z-7z" if c == "z" else "bonus tiles are 1f-8f"
                    raise ValueError(
                        f"rank {r} in {token!r} {where(digits_at)} is not a tile: {what}"
                    )
                if c == "f":
                    if group_open:
                        raise ValueError(
                            f"bonus tiles {token!r} {where(digits_at)} cannot be part of a set"
                        )
                    res.bonus.append((r, digits_at))
                    if res.extra is None:
                        res.extra = f"bonus tiles {token!r}"
                else:
                    k = SUIT_BASE[c] + r - 1
                    if group_open:
                        group_tiles.append(k)
                    else:
                        res.concealed[k] += 1
            digits_at = -1
            i += 1
            continue
        if not (c == "j" or c in "[]()" or c.isspace()):
            hint = " (tile letters are lower case)" if c.lower() in "mpszfj" else ""
            raise ValueError(f"unknown character {c!r} {where(i)}{hint}")
        if digits_at >= 0:
            if c == "j":
                raise ValueError(
                    f"jokers take no number: {text[digits_at:i + 1]!r} {where(digits_at)}; "
                    "write one 'j' per joker, e.g. 'jj' for two"
                )
            raise no_suit(i)
        if c == "j":
            if group_open:
                raise ValueError(f"joker 'j' {where(i)} cannot be part of a set")
            res.jokers += 1
            if res.extra is None:
                res.extra = "joker 'j'"
        elif c.isspace():
            pass
        elif c in "[(":
            if group_open:
                raise ValueError(
                    f"{c!r} {where(i)} opens a set inside the set opened at position "
                    f"{group_at}; sets cannot be nested"
                )
            group_open, group_at, group_tiles = c, i, []
        else:  # "]" or ")"
            want = "]" if group_open == "[" else ")"
            if not group_open:
                raise ValueError(f"{c!r} {where(i)} closes a set that was never opened")
            if c != want:
                raise ValueError(
                    f"{c!r} {where(i)} does not match the {group_open!r} at position {group_at}"
                )
            token = text[group_at:i + 1]
            tiles = tuple(sorted(group_tiles))
            kind = classify_set(tiles)
            if group_open == "(":
                if kind != "kong":
                    raise ValueError(
                        f"{token!r} {where(group_at)} is not a concealed kong: parentheses "
                        "hold exactly four identical tiles, e.g. (2222z)"
                    )
            elif kind is None:
                raise ValueError(
                    f"{token!r} {where(group_at)} is not a valid set: a bracket holds exactly "
                    "one chow (3 consecutive ranks of one suit), pung (3 identical) or "
                    "kong (4 identical)"
                )
            res.melds.append(Meld(kind, tiles, concealed=group_open == "("))
            if res.extra is None:
                res.extra = f"{'declared kong' if group_open == '(' else 'called set'} {token!r}"
            group_open = ""
        i += 1
    if digits_at >= 0:
        raise no_suit(n)
    if group_open:
        raise ValueError(
            f"{text[group_at:]!r} {where(group_at)}: set opened with {group_open!r} "
            "is never closed"
        )
    return res


def _check_max_tiles(max_tiles: int | None) -> int | None:
    if max_tiles is None:
        return None
    if isinstance(max_tiles, (bool, np.bool_)):
        raise TypeError("max_tiles must be an int or None, got bool")
    return operator.index(max_tiles)


def parse_hand(text: str, *, max_tiles: int | None = MAX_TILES) -> np.ndarray:
    """Parse the concealed standard tiles of a hand into a count vector.

    Parameters
    ----------
    text : str
        Compact notation, e.g. ``"123m456p789s1122z"`` (see the module
        docstring). The empty string is the empty hand.
    max_tiles : int or None, default 14
        Largest number of tiles accepted; None for no limit.

    Returns
    -------
    numpy.ndarray
        Shape (34,), dtype uint8: the count of each kind.

    Raises
    ------
    TypeError
        If `text` is not a str.
    ValueError
        If the text is malformed (unknown character, rank 0 or out of range,
        digits without a suit letter, ...), has a fifth copy of a kind or more
        than `max_tiles` tiles, or contains called sets, bonus tiles or jokers
        (use :func:`parse_tiles` for those).

    Examples
    --------
    >>> from mjfast.tiles import format_hand, tile_index
    >>> c = parse_hand("123m 456p 789s 1122z")
    >>> c.shape, c.dtype, int(c.sum())
    ((34,), dtype('uint8'), 13)
    >>> int(c[tile_index("1z")])
    2
    >>> format_hand(parse_hand("3m21m"))
    '123m'
    >>> parse_hand("11111m")
    Traceback (most recent call last):
    ...
    ValueError: 5 copies of 1m; only 4 exist
    >>> int(parse_hand("111122223333444455m", max_tiles=None).sum())
    18
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_hand expects a str, got {type(text).__name__}")
    max_tiles = _check_max_tiles(max_tiles)
    res = _scan(text)
    if res.extra is not None:
        raise ValueError(
            f"parse_hand reads concealed standard tiles only, but the text contains "
            f"{res.extra}; use parse_tiles for called sets, bonus tiles and jokers"
        )
    check_copies(res.concealed, ())
    total = sum(res.concealed)
    if max_tiles is not None and total > max_tiles:
        raise ValueError(f"{total} tiles; at most max_tiles={max_tiles} are allowed")
    return np.array(res.concealed, dtype=np.uint8)


_PLAIN = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")
_PLAIN_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}


def plain_counts(text: str) -> np.ndarray | None:
    """The (34,) uint8 counts of a hand in the plain notation -- runs of digits each closed by a
    suit letter, nothing else (``"123m456p789s1122z"``) -- or None for any other text.

    The fast path of the hand functions for one hand as text (a few microseconds where
    :func:`parse_tiles` takes tens): None also for a text holding a kind more than four times
    or more than 14 tiles, so that :func:`parse_tiles` reads every text it would reject and
    names the problem.

    Examples
    --------
    >>> int(plain_counts("19m19p19s1234567z").sum()), plain_counts("123m [456p]") is None
    (13, True)
    """
    if _PLAIN.fullmatch(text) is None:
        return None
    counts = [0] * N_KINDS
    start = 0
    for i, ch in enumerate(text):
        if ch in _PLAIN_BASE:
            base = _PLAIN_BASE[ch] - 1
            for d in text[start:i]:
                counts[base + ord(d) - 48] += 1
            start = i + 1
    if max(counts) > N_COPIES or sum(counts) > 14:
        return None
    return np.array(counts, dtype=np.uint8)


def parse_tiles(
    text: str, *, max_jokers: int = MAX_JOKERS, max_tiles: int | None = MAX_TILES
) -> ParsedHand:
    """Parse a full hand: concealed tiles, called sets, declared kongs, bonus tiles, jokers.

    Parameters
    ----------
    text : str
        Notation of the module docstring, e.g. ``"123m11z [456p] (2222z) f1 jj"``.
    max_jokers : int, default 8
        Largest number of jokers accepted.
    max_tiles : int or None, default 14
        Largest hand size accepted (concealed tiles + jokers + 3 per set);
        None for no limit.

    Returns
    -------
    ParsedHand

    Raises
    ------
    TypeError
        If `text` is not a str.
    ValueError
        Malformed text, a malformed set, more than 4 copies of a kind
        (concealed and sets together), a bonus tile twice, more than
        `max_jokers` jokers, or more than `max_tiles` tiles.

    Examples
    --------
    >>> h = parse_tiles("123m [546p] 11z (2222z) f2 13f jj")
    >>> [str(m) for m in h.melds]
    ['[456p]', '(2222z)']
    >>> h.melds[0]
    Meld(kind='chow', tiles=(12, 13, 14), concealed=False)
    >>> [int(b) for b in h.bonus], h.jokers, h.n_tiles
    ([1, 1, 1, 0, 0, 0, 0, 0], 2, 13)
    >>> str(h)
    '123m11z [456p] (2222z) f1f2f3 jj'
    >>> parse_tiles("[457p]")
    Traceback (most recent call last):
    ...
    ValueError: '[457p]' at position 0 of '[457p]' is not a valid set: a bracket holds exactly one chow ...
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_tiles expects a str, got {type(text).__name__}")
    max_jokers = operator.index(max_jokers)
    max_tiles = _check_max_tiles(max_tiles)
    res = _scan(text)
    bonus = np.zeros(N_BONUS, dtype=np.uint8)
    for b, pos in res.bonus:
        if bonus[b - 1]:
            raise ValueError(f"bonus tile f{b} appears twice (again at position {pos})")
        bonus[b - 1] = 1
    if res.jokers > max_jokers:
        raise ValueError(f"{res.jokers} jokers; at most max_jokers={max_jokers} are allowed")
    melds = tuple(res.melds)
    check_copies(res.concealed, melds)
    n = sum(res.concealed) + res.jokers + 3 * len(melds)
    if max_tiles is not None and n > max_tiles:
        raise ValueError(
            f"{n} tiles (concealed + jokers + 3 per set); at most max_tiles={max_tiles} "
            "are allowed"
        )
    return ParsedHand(np.array(res.concealed, dtype=np.uint8), bonus, res.jokers, melds)
