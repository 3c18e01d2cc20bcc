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

from ._american import american_kind_index, american_kind_name, physical_tile_name
from ._hand import Meld, ParsedHand, format_hand, format_tiles
from ._names import (
                     BONUS_FIRST,
                     HONOR,
                     HONOR_NAMES,
                     JOKER,
                     KIND_NAMES,
                     MAX_JOKERS,
                     MAX_TILES,
                     N_BONUS,
                     N_COPIES,
                     N_EXTENDED,
                     N_KINDS,
                     PACKED_WORDS,
                     PACKED_WORDS_EXTENDED,
                     SUITS,
                     TERMINALS_AND_HONORS,
                     tile_index,
                     tile_name,
)
from ._pack import pack, unpack
from ._parse import parse_hand, parse_tiles
from ._parse import plain_counts as plain_counts  # not in __all__: mjfast.hands reads plain text with it

__all__ = [
    "N_KINDS", "N_EXTENDED", "N_COPIES", "N_BONUS", "SUITS", "HONOR", "BONUS_FIRST", "JOKER", "MAX_JOKERS",
    "MAX_TILES", "PACKED_WORDS", "PACKED_WORDS_EXTENDED", "TERMINALS_AND_HONORS", "KIND_NAMES", "HONOR_NAMES",
    "tile_index", "tile_name", "Meld", "ParsedHand", "parse_hand", "parse_tiles", "format_hand", "format_tiles",
    "pack", "unpack", "american_kind_name", "american_kind_index", "physical_tile_name",
]
