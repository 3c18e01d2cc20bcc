"""Tile notation, count vectors and the packed hand layout of mjfast.

This module is pure Python + numpy. It converts between three forms of a hand:
text (``"123m456p789s1122z"``), count vectors (one count per tile kind) and
packed words (3 bits per kind, used by the fast kernels).

Tile kinds
----------
There are 34 standard kinds, each with 4 physical copies:

=========  ==========  ===================================================
index      text        tiles
=========  ==========  ===================================================
0 - 8      1m - 9m     characters (man)
9 - 17     1p - 9p     circles / dots (pin)
18 - 26    1s - 9s     bamboos (sou)
27 - 33    1z - 7z     honors: East, South, West, North, White, Green, Red
=========  ==========  ===================================================

Rule sets that need them use an *extended* model of 43 kinds:

=========  ==========  ===================================================
34 - 41    f1 - f8     bonus tiles: f1-f4 flowers, f5-f8 seasons (1 copy each)
42         j           joker (American rules; several copies)
=========  ==========  ===================================================

A *count vector* is an integer array of shape ``(34,)`` (standard) or
``(43,)`` (extended) holding how many copies of each kind a hand has:
0-4 for standard kinds, 0-1 for each bonus tile, 0-255 for jokers.

Text notation
-------------
Tiles are written in the compact form: one or more rank digits followed by a
suit letter, e.g. ``123m456p789s1122z``.

* Ranks are 1-9 for ``m``, ``p`` and ``s`` and 1-7 for ``z``. The digit ``0``
  (used elsewhere for red fives) is rejected, as are ``8z`` and ``9z``.
* A suit may appear in several groups (``12m3m`` is ``123m``); the digits of a
  group may be in any order (``321m`` is ``123m``).
* Whitespace between groups is ignored. Inside a group (``12 m``) it is an
  error, as are digits with no suit letter after them and a suit letter with
  no digits before it. Letters are lower case; any other character is an
  error.
* Bonus tiles are accepted in two spellings: ``f1f2`` (``f`` then one digit
  1-8, repeatable) and ``12f`` (digits then ``f``). A digit right after the
  ``f1`` form (``f12``) is rejected as ambiguous. **Canonical output uses the
  ``f1f2`` form**, matching :func:`tile_name`.
* Jokers are written as repeated ``j`` (``jj`` = two jokers). Digits before
  ``j`` (``2j``) are rejected: digits always mean ranks.
* A called (exposed) set is written in square brackets, anywhere between the
  concealed groups: ``123m11z [456p] [789s] [2222z]``. A bracket holds exactly
  one set of standard tiles: a chow (three consecutive ranks of one number
  suit, in any order: ``[546p]`` is ``[456p]``), a pung (three identical) or
  a kong (four identical). A concealed (declared) kong is written in
  parentheses, ``(2222z)``; only kongs are allowed there.

Canonical text is what the ``format_*`` functions produce:

* concealed tiles: suits in the order m, p, s, z, digits ascending within a
  group, empty groups omitted, no spaces: ``123m456p789s1122z``;
* :func:`format_hand` of an extended vector appends the bonus tiles in
  ``f1f2`` form and then the jokers as ``j`` repeated, still without spaces:
  ``123m11zf1f5jj``;
* :func:`format_tiles` joins, with single spaces: the concealed tiles, the
  exposed sets ``[...]``, the concealed kongs ``(...)``, the bonus tiles
  (``f1f5``) and the jokers (``jj``), omitting empty parts:
  ``123m11z [456p] (2222z) f1f5 jj``. Sets are listed in canonical order
  (exposed before concealed, then by their tiles), not in input order.

Limits checked by the parsers: at most 4 copies of a standard kind (counting
concealed tiles and sets together), each bonus tile at most once, at most
``max_jokers`` jokers (default 8), and at most ``max_tiles`` tiles (default
14; ``None`` for no limit, e.g. to read the tiles visible on a table), where a
hand's size is its concealed standard tiles + its jokers + 3 per set (a kong
counts 3, as its fourth tile is replaced from the wall). Bonus tiles are not
counted.

Packed layout
-------------
A standard count vector packs into 4 ``uint32`` words:

* word 0 = characters (m), word 1 = circles (p), word 2 = bamboos (s),
  word 3 = honors (z);
* the kind of 0-based rank ``r`` within its suit occupies bits ``3r .. 3r+2``
  of its word and holds the count 0-4 (``1m`` is bits 0-2 of word 0, ``9m``
  bits 24-26 of word 0, ``7z`` bits 18-20 of word 3);
* bits 27-31 of words 0-2 and bits 21-31 of word 3 are always 0.

An extended vector (43 kinds) packs into 5 words: words 0-3 as above, and
word 4 holds bonus tile ``f(i+1)`` in bit ``i`` (bits 0-7) and the joker
count (0-255) in bits 8-15; bits 16-31 are always 0.

:func:`pack` accepts counts of any integer dtype whose values are in range;
:func:`unpack` accepts words of any integer dtype whose values are in
``0 .. 2**32-1`` (``uint32`` normally) and rejects fields holding more than 4
and nonzero padding bits. Both work on a single hand (1-D) or a batch of
hands (2-D, one hand per row) without a Python loop over hands.

Examples
--------
>>> counts = parse_hand("19m 19p 19s 1234567z 5m")
>>> int(counts.sum())
14
>>> format_hand(counts)
'159m19p19s1234567z'
>>> [int(w) for w in pack(counts)]
[16781313, 16777217, 16777217, 299593]
>>> format_hand(unpack(pack(counts)))
'159m19p19s1234567z'
>>> hand = parse_tiles("11z 546p f3 [777s] j (2222z)")
>>> str(hand)
'456p11z [777s] (2222z) f3 j'
>>> hand.n_tiles
12
"""

from __future__ import annotations

import dataclasses
import operator
import re
from typing import Any

import numpy as np

__all__ = [
    "N_KINDS",
    "N_EXTENDED",
    "N_COPIES",
    "N_BONUS",
    "SUITS",
    "HONOR",
    "BONUS_FIRST",
    "JOKER",
    "MAX_JOKERS",
    "MAX_TILES",
    "PACKED_WORDS",
    "PACKED_WORDS_EXTENDED",
    "TERMINALS_AND_HONORS",
    "KIND_NAMES",
    "HONOR_NAMES",
    "tile_index",
    "tile_name",
    "Meld",
    "ParsedHand",
    "parse_hand",
    "parse_tiles",
    "format_hand",
    "format_tiles",
    "pack",
    "unpack",
    "american_kind_name",
    "american_kind_index",
    "physical_tile_name",
]

# ---------------------------------------------------------------------------
# constants

N_KINDS = 34
"""Number of standard tile kinds (1m..9m, 1p..9p, 1s..9s, 1z..7z)."""
N_EXTENDED = 43
"""Number of kinds in the extended model (standard + 8 bonus tiles + joker)."""
N_COPIES = 4
"""Physical copies of each standard kind."""
N_BONUS = 8
"""Number of bonus tiles f1..f8 (one copy each)."""
SUITS = "mps"
"""Letters of the three number suits, in index order."""
HONOR = "z"
"""Letter of the honor suit."""
BONUS_FIRST = 34
"""Index of bonus tile f1 in the extended model (f8 is 41)."""
JOKER = 42
"""Index of the joker in the extended model."""
MAX_JOKERS = 8
"""Default ``max_jokers`` of :func:`parse_tiles`."""
MAX_TILES = 14
"""Largest hand size accepted by the parsers."""
PACKED_WORDS = 4
"""Words of a packed standard hand."""
PACKED_WORDS_EXTENDED = 5
"""Words of a packed extended hand."""

TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""Indices of the 13 terminal and honor kinds (1m 9m 1p 9p 1s 9s 1z..7z)."""
KIND_NAMES = tuple(
    [f"{r}{s}" for s in SUITS for r in range(1, 10)] + [f"{r}{HONOR}" for r in range(1, 8)]
)
"""Text name of each standard kind, ``KIND_NAMES[13] == "5p"``."""
HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
"""English names of 1z..7z."""

_DIGITS = "0123456789"
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_SUIT_MAX = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_GROUP_LETTERS = ("m", "p", "s", "z")
_MAX_JOKER_FIELD = 255  # joker count must fit bits 8..15 of the fifth packed word

# per-kind upper bound on counts, extended model
_COUNT_LIMIT_PY = (N_COPIES,) * N_KINDS + (1,) * N_BONUS + (_MAX_JOKER_FIELD,)
_COUNT_LIMIT = np.array(_COUNT_LIMIT_PY, dtype=np.int64)

# packed word (= suit) of each standard kind
_WORD_OF = tuple(min(k // 9, 3) for k in range(N_KINDS))
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


def _kind_name(k: int) -> str:
    if k < N_KINDS:
        return KIND_NAMES[k]
    if k < JOKER:
        return f"f{k - BONUS_FIRST + 1}"
    return "j"


# ---------------------------------------------------------------------------
# single-tile helpers


def tile_index(name: str) -> int:
    """Return the index of one tile given by name.

    Parameters
    ----------
    name : str
        ``"1m"`` .. ``"9m"``, ``"1p"`` .. ``"9p"``, ``"1s"`` .. ``"9s"``,
        ``"1z"`` .. ``"7z"`` (standard, 0-33), ``"f1"`` .. ``"f8"`` (also
        written ``"1f"`` .. ``"8f"``; bonus, 34-41) or ``"j"`` (joker, 42).
        Surrounding whitespace is ignored.

    Returns
    -------
    int
        The kind index.

    Raises
    ------
    TypeError
        If `name` is not a str.
    ValueError
        If `name` is not one tile.

    Examples
    --------
    >>> tile_index("5p")
    13
    >>> tile_index("7z"), tile_index("f3"), tile_index("3f"), tile_index("j")
    (33, 36, 36, 42)
    """
    if not isinstance(name, str):
        raise TypeError(f"tile_index expects a str such as '5p', got {type(name).__name__}")
    s = name.strip()
    if s == "j":
        return JOKER
    if len(s) == 2:
        a, b = s[0], s[1]
        if a == "f" and b in "12345678":
            return BONUS_FIRST + int(b) - 1
        if a in "123456789" and b in _SUIT_MAX and int(a) <= _SUIT_MAX[b]:
            if b == "f":
                return BONUS_FIRST + int(a) - 1
            return _SUIT_BASE[b] + int(a) - 1
    raise ValueError(
        f"{name!r} is not a tile name: expected 1m-9m, 1p-9p, 1s-9s, 1z-7z, f1-f8 or j"
    )


def tile_name(index: int) -> str:
    """Return the text name of a tile kind index.

    Parameters
    ----------
    index : int
        0-33 for standard kinds, 34-41 for bonus tiles, 42 for the joker.

    Returns
    -------
    str
        ``"1m"`` .. ``"7z"``, ``"f1"`` .. ``"f8"`` or ``"j"``.

    Raises
    ------
    TypeError
        If `index` is not an integer (``bool`` is rejected).
    ValueError
        If `index` is outside 0-42.

    Examples
    --------
    >>> tile_name(13)
    '5p'
    >>> tile_name(27), tile_name(36), tile_name(42)
    ('1z', 'f3', 'j')
    """
    if isinstance(index, (bool, np.bool_)):
        raise TypeError("tile_name expects an integer index, got bool")
    try:
        k = operator.index(index)
    except TypeError:
        raise TypeError(
            f"tile_name expects an integer index, got {type(index).__name__}"
        ) from None
    if not 0 <= k < N_EXTENDED:
        raise ValueError(f"tile index {k} out of range 0-{N_EXTENDED - 1}")
    return _kind_name(k)


# ---------------------------------------------------------------------------
# sets and parsed hands

_MELD_KINDS = ("chow", "pung", "kong")


def _group_text(tiles: tuple[int, ...]) -> str:
    """Compact text of standard tiles all of one suit (sorted)."""
    letter = _GROUP_LETTERS[_WORD_OF[tiles[0]]]
    return "".join(str(t - _SUIT_BASE[letter] + 1) for t in tiles) + letter


def _classify_set(tiles: tuple[int, ...]) -> str | None:
    """Return 'chow' / 'pung' / 'kong' for sorted standard tiles, or None."""
    if len(tiles) == 4 and tiles[0] == tiles[3]:
        return "kong"
    if len(tiles) == 3:
        a, b, c = tiles
        if a == c:
            return "pung"
        if a < 27 and b == a + 1 and c == a + 2 and a // 9 == c // 9:
            return "chow"
    return None


@dataclasses.dataclass(frozen=True)
class Meld:
    """One set outside the concealed hand: a called chow/pung/kong or a declared kong.

    Parameters
    ----------
    kind : {"chow", "pung", "kong"}
        The type of set.
    tiles : tuple of int
        The standard tile indices (0-33) of the set, 3 for a chow or pung and
        4 for a kong. Any order is accepted; they are stored sorted.
    concealed : bool, default False
        True for a concealed (declared) kong, written ``(2222z)``. Only kongs
        can be concealed.

    Raises
    ------
    ValueError
        If the tiles do not form a set of the given kind.

    Examples
    --------
    >>> m = Meld("chow", (14, 12, 13))
    >>> m.tiles
    (12, 13, 14)
    >>> str(m)
    '[456p]'
    >>> str(Meld("kong", (28, 28, 28, 28), concealed=True))
    '(2222z)'
    """

    kind: str
    tiles: tuple[int, ...]
    concealed: bool = False

    def __post_init__(self) -> None:
        if self.kind not in _MELD_KINDS:
            raise ValueError(f"meld kind must be 'chow', 'pung' or 'kong', got {self.kind!r}")
        try:
            raw = list(self.tiles)
        except TypeError:
            raise TypeError("meld tiles must be a sequence of tile indices") from None
        norm = []
        for t in raw:
            if isinstance(t, (bool, np.bool_)):
                raise TypeError("meld tiles must be integer tile indices, got bool")
            try:
                k = operator.index(t)
            except TypeError:
                raise TypeError(
                    f"meld tiles must be integer tile indices, got {type(t).__name__}"
                ) from None
            if not 0 <= k < N_KINDS:
                raise ValueError(f"meld tile index {k} is not a standard tile (0-33)")
            norm.append(k)
        tiles = tuple(sorted(norm))
        found = _classify_set(tiles)
        if found != self.kind:
            names = " ".join(KIND_NAMES[t] for t in tiles) or "no tiles"
            raise ValueError(f"{names} is not a {self.kind}")
        concealed = bool(self.concealed)
        if concealed and self.kind != "kong":
            raise ValueError(f"only a kong can be concealed, not a {self.kind}")
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "concealed", concealed)

    def __str__(self) -> str:
        body = _group_text(self.tiles)
        return f"({body})" if self.concealed else f"[{body}]"


def _meld_key(m: Meld) -> tuple[bool, tuple[int, ...]]:
    return (m.concealed, m.tiles)


def _as_count_array(value: Any, shape: tuple[int, ...], limit: int, what: str) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must be an integer array, got dtype {arr.dtype}")
    if arr.shape != shape:
        raise ValueError(f"{what} must have shape {shape}, got {arr.shape}")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > limit):
        k = int(np.flatnonzero((arr < 0) | (arr > limit))[0])
        raise ValueError(f"{what}[{k}] = {int(arr[k])} is out of range 0-{limit}")
    out = arr.astype(np.uint8)
    out.flags.writeable = False
    return out


@dataclasses.dataclass(frozen=True, eq=False)
class ParsedHand:
    """A hand with called sets, bonus tiles and jokers, as read by :func:`parse_tiles`.

    Parameters
    ----------
    concealed : array_like of int, shape (34,)
        Counts of the concealed standard tiles (not including declared kongs).
    bonus : array_like of int, shape (8,), optional
        1 for each bonus tile f1..f8 held, else 0. Default: none.
    jokers : int, optional
        Number of jokers held. Default 0.
    melds : tuple of Meld, optional
        Called sets and declared kongs. Stored in canonical order: exposed
        sets before concealed kongs, then by their tiles.

    Attributes
    ----------
    concealed, bonus : numpy.ndarray of uint8
        Read-only copies of the inputs.
    jokers : int
    melds : tuple of Meld
    n_tiles : int
        Hand size: concealed tiles + jokers + 3 per meld (a kong counts 3).

    Raises
    ------
    ValueError
        A count out of range, or more than 4 copies of a kind (concealed and
        melds together).

    Notes
    -----
    Equality and hashing compare all four fields. ``str()`` gives the
    canonical text of :func:`format_tiles`. The hand size is not limited
    here; :func:`parse_tiles` checks it (``max_tiles``).

    Examples
    --------
    >>> import numpy as np
    >>> c = np.zeros(34, dtype=np.uint8); c[27] = 2
    >>> h = ParsedHand(c, melds=(Meld("pung", (4, 4, 4)),), jokers=1)
    >>> str(h)
    '11z [555m] j'
    >>> h.n_tiles
    6
    >>> h == parse_tiles("j [555m] 11z")
    True
    """

    concealed: np.ndarray
    bonus: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(N_BONUS, np.uint8))
    jokers: int = 0
    melds: tuple[Meld, ...] = ()

    def __post_init__(self) -> None:
        conc = _as_count_array(self.concealed, (N_KINDS,), N_COPIES, "concealed")
        bonus = _as_count_array(self.bonus, (N_BONUS,), 1, "bonus")
        if isinstance(self.jokers, (bool, np.bool_)):
            raise TypeError("jokers must be an int, got bool")
        try:
            jokers = operator.index(self.jokers)
        except TypeError:
            raise TypeError(f"jokers must be an int, got {type(self.jokers).__name__}") from None
        if jokers < 0:
            raise ValueError(f"jokers must be >= 0, got {jokers}")
        melds = tuple(self.melds)
        for m in melds:
            if not isinstance(m, Meld):
                raise TypeError(f"melds must be Meld instances, got {type(m).__name__}")
        melds = tuple(sorted(melds, key=_meld_key))
        object.__setattr__(self, "concealed", conc)
        object.__setattr__(self, "bonus", bonus)
        object.__setattr__(self, "jokers", jokers)
        object.__setattr__(self, "melds", melds)
        _check_copies(conc.tolist(), melds)

    @property
    def n_tiles(self) -> int:
        """Hand size: concealed standard tiles + jokers + 3 per meld.

        Examples
        --------
        >>> parse_tiles("123m [2222z] f1").n_tiles
        6
        """
        return int(self.concealed.sum()) + self.jokers + 3 * len(self.melds)

    def counts_all(self) -> np.ndarray:
        """Counts of all standard tiles: concealed plus every tile of the melds.

        Returns
        -------
        numpy.ndarray
            Shape (34,), dtype uint8, a new writeable array. A kong adds 4.

        Examples
        --------
        >>> h = parse_tiles("11z [456p] (2222z)")
        >>> format_hand(h.counts_all())
        '456p112222z'
        """
        out = self.concealed.copy()
        for m in self.melds:
            for t in m.tiles:
                out[t] += 1
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ParsedHand):
            return NotImplemented
        return (
            self.jokers == other.jokers
            and self.melds == other.melds
            and np.array_equal(self.concealed, other.concealed)
            and np.array_equal(self.bonus, other.bonus)
        )

    def __hash__(self) -> int:
        return hash((self.concealed.tobytes(), self.bonus.tobytes(), self.jokers, self.melds))

    def __str__(self) -> str:
        return format_tiles(self)

    def __repr__(self) -> str:
        return f"<ParsedHand {format_tiles(self)!r}>"


def _check_copies(conc: list[int], melds: tuple[Meld, ...]) -> None:
    total = list(conc)
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    for k, n in enumerate(total):
        if n > N_COPIES:
            in_sets = n - conc[k]
            detail = f" ({conc[k]} concealed, {in_sets} in sets)" if in_sets else ""
            raise ValueError(
                f"{n} copies of {KIND_NAMES[k]}{detail}; only {N_COPIES} exist"
            )


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
        if c in _DIGITS:
            if digits_at < 0:
                digits_at = i
            i += 1
            continue
        if c in _SUIT_MAX:  # m p s z f
            if digits_at < 0:
                if c != "f":
                    raise ValueError(
                        f"suit letter {c!r} {where(i)} has no rank digits before it"
                    )
                # prefix bonus form: f1 .. f8
                d = text[i + 1] if i + 1 < n else ""
                if d == "" or d not in _DIGITS:
                    raise ValueError(
                        f"'f' {where(i)} must be followed by a bonus number 1-8 "
                        "(f1-f8) or preceded by digits (12f)"
                    )
                if d not in "12345678":
                    raise ValueError(
                        f"bonus tile 'f{d}' {where(i)} does not exist: bonus tiles are f1-f8"
                    )
                if i + 2 < n and text[i + 2] in _DIGITS:
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
            top = _SUIT_MAX[c]
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
                    k = _SUIT_BASE[c] + r - 1
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
            kind = _classify_set(tiles)
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
    _check_copies(res.concealed, ())
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
    _check_copies(res.concealed, melds)
    n = sum(res.concealed) + res.jokers + 3 * len(melds)
    if max_tiles is not None and n > max_tiles:
        raise ValueError(
            f"{n} tiles (concealed + jokers + 3 per set); at most max_tiles={max_tiles} "
            "are allowed"
        )
    return ParsedHand(np.array(res.concealed, dtype=np.uint8), bonus, res.jokers, melds)


# ---------------------------------------------------------------------------
# formatting


def _format_standard(counts: list[int]) -> str:
    parts = []
    for w, letter in enumerate(_GROUP_LETTERS):
        base = 9 * w
        digits = "".join(
            str(r + 1) * counts[base + r] for r in range(9 if w < 3 else 7)
        )
        if digits:
            parts.append(digits + letter)
    return "".join(parts)


def _format_bonus(bonus: list[int]) -> str:
    return "".join(f"f{i + 1}" for i, b in enumerate(bonus) if b)


def format_hand(counts: Any) -> str:
    """Canonical compact text of a count vector.

    Parameters
    ----------
    counts : array_like of int, shape (34,) or (43,)
        Counts per kind (0-4). A length-43 extended vector also holds the
        bonus tiles (0-1 each) and the joker count (0-255); they are appended
        as ``f1f2`` and ``jj``. Any number of tiles is accepted (only the
        parsers limit the hand size).

    Returns
    -------
    str
        Suits in the order m, p, s, z, ranks ascending, empty groups
        omitted, no spaces.

    Raises
    ------
    TypeError
        If the values are not integers.
    ValueError
        Wrong shape, or a count out of range.

    Examples
    --------
    >>> format_hand(parse_hand("1122z 789s 456p 123m"))
    '123m456p789s1122z'
    >>> ext = [0] * 43
    >>> ext[0] = ext[33] = 1; ext[34] = ext[38] = 1; ext[42] = 2
    >>> format_hand(ext)
    '1m7zf1f5jj'
    >>> format_hand([0] * 34)
    ''
    """
    arr = np.asarray(counts)
    if arr.dtype.kind not in "iu":
        raise TypeError(
            f"format_hand expects an integer count vector, got dtype {arr.dtype} "
            "(to canonicalise text use format_tiles(parse_tiles(text)))"
        )
    if arr.ndim != 1 or arr.shape[0] not in (N_KINDS, N_EXTENDED):
        raise ValueError(
            f"format_hand expects shape (34,) or (43,), got {arr.shape}"
        )
    vals = arr.tolist()
    for k, v in enumerate(vals):
        top = _COUNT_LIMIT_PY[k]
        if not 0 <= v <= top:
            raise ValueError(
                f"count {v} for {_kind_name(k)} (index {k}) is out of range 0-{top}"
            )
    text = _format_standard(vals[:N_KINDS])
    if len(vals) == N_EXTENDED:
        text += _format_bonus(vals[BONUS_FIRST:JOKER]) + "j" * vals[JOKER]
    return text


def format_tiles(parsed: ParsedHand) -> str:
    """Canonical text of a :class:`ParsedHand`; :func:`parse_tiles` reads it back.

    Parameters
    ----------
    parsed : ParsedHand

    Returns
    -------
    str
        Space-separated parts, empty parts omitted: concealed tiles (as
        :func:`format_hand`), exposed sets ``[...]``, concealed kongs
        ``(...)``, bonus tiles ``f1f2``, jokers ``jj``.

    Raises
    ------
    TypeError
        If `parsed` is not a ParsedHand.

    Examples
    --------
    >>> h = parse_tiles("jj 13f (2222z) [546p] 11z 321m")
    >>> format_tiles(h)
    '123m11z [456p] (2222z) f1f3 jj'
    >>> parse_tiles(format_tiles(h)) == h
    True
    """
    if not isinstance(parsed, ParsedHand):
        raise TypeError(f"format_tiles expects a ParsedHand, got {type(parsed).__name__}")
    parts = []
    conc = _format_standard(parsed.concealed.tolist())
    if conc:
        parts.append(conc)
    parts.extend(str(m) for m in parsed.melds)
    bonus = _format_bonus(parsed.bonus.tolist())
    if bonus:
        parts.append(bonus)
    if parsed.jokers:
        parts.append("j" * parsed.jokers)
    return " ".join(parts)


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
        f"{_kind_name(k)} (index {k}) is out of range 0-{int(limit[k])}"
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


# ---------------------------------------------------------------------------------------------
# American play's 36 kinds: 0-33 standard, 34 = flower (the 8 flowers are one kind), 35 = joker

def american_kind_name(k: int) -> str:
    """Name of an American kind: 0-33 as :func:`tile_name` ("5p", "7z"), 34 "f" (flower),
    35 "j" (joker).

    Examples
    --------
    >>> american_kind_name(13), american_kind_name(34), american_kind_name(35)
    ('5p', 'f', 'j')
    """
    return "f" if k == 34 else "j" if k == 35 else tile_name(k)


def american_kind_index(name) -> int:
    """Kind of an American tile name or index (accepts "f", "f1".."f8", "j", or 0-35).

    Examples
    --------
    >>> american_kind_index("5p"), american_kind_index("f3"), american_kind_index("j")
    (13, 34, 35)
    """
    if isinstance(name, (int, np.integer)) and not isinstance(name, bool):
        k = int(name)
        if not 0 <= k <= 35:
            raise ValueError(f"tile index must be 0-35, got {k}")
        return k
    if not isinstance(name, str):
        raise TypeError(f"a tile is a name such as '5p', 'f' or 'j', not {type(name).__name__}")
    if name == "j":
        return 35
    if name == "f" or (len(name) == 2 and name[0] == "f" and name[1] in "12345678"):
        return 34
    return tile_index(name)


def physical_tile_name(i: int) -> str:
    """Name of a physical tile id of a wall: 0-135 the standard tiles (kind i // 4), 136-143
    the bonus tiles f1-f8, 144 on jokers.

    Examples
    --------
    >>> physical_tile_name(13), physical_tile_name(137), physical_tile_name(150)
    ('4m', 'f2', 'j')
    """
    if i < 136:
        return tile_name(i // 4)
    if i < 144:
        return f"f{i - 135}"
    return "j"
