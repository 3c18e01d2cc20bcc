"""Called sets and parsed hands (:class:`Meld`, :class:`ParsedHand`) and the canonical text of
hands (:func:`format_hand`, :func:`format_tiles`), for :mod:`mjfast.tiles`.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

import numpy as np

from ._names import (
    BONUS_FIRST,
    COUNT_LIMIT_PY,
    GROUP_LETTERS,
    JOKER,
    KIND_NAMES,
    N_BONUS,
    N_COPIES,
    N_EXTENDED,
    N_KINDS,
    SUIT_BASE,
    WORD_OF,
    kind_name,
)

# ---------------------------------------------------------------------------
# sets and parsed hands

_MELD_KINDS = ("chow", "pung", "kong")


def _group_text(tiles: tuple[int, ...]) -> str:
    """Compact text of standard tiles all of one suit (sorted)."""
    letter = GROUP_LETTERS[WORD_OF[tiles[0]]]
    return "".join(str(t - SUIT_BASE[letter] + 1) for t in tiles) + letter


def classify_set(tiles: tuple[int, ...]) -> str | None:
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
        found = classify_set(tiles)
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
    >>> from mjfast.tiles import parse_tiles
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
        check_copies(conc.tolist(), melds)

    @property
    def n_tiles(self) -> int:
        """Hand size: concealed standard tiles + jokers + 3 per meld.

        Examples
        --------
        >>> from mjfast.tiles import parse_tiles
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
        >>> from mjfast.tiles import parse_tiles
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


def check_copies(conc: list[int], melds: tuple[Meld, ...]) -> None:
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
# formatting


def _format_standard(counts: list[int]) -> str:
    parts = []
    for w, letter in enumerate(GROUP_LETTERS):
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
    >>> from mjfast.tiles import parse_hand
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
        top = COUNT_LIMIT_PY[k]
        if not 0 <= v <= top:
            raise ValueError(
                f"count {v} for {kind_name(k)} (index {k}) is out of range 0-{top}"
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
    >>> from mjfast.tiles import parse_tiles
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
