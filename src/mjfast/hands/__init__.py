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

Layout (private modules): the public functions in :mod:`._functions` dispatch to a hand model
by the rule set's ``hand_model`` -- :mod:`._standard` (k sets + a pair, the special forms) or
:mod:`._american` (the beginner hand, with :func:`american_distance`); :mod:`._input` reads
and validates every input form for both; :mod:`._types` holds :class:`Improvement`.

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

``rules="american"`` (see :mod:`._american`) has one form, ``"beginner"`` (``"all"``
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

Examples
--------
>>> from mjfast import hands
>>> hands.shanten("123m456p789s1122z"), hands.waits("123m456p789s1122z")
(0, ['1z', '2z'])
"""
from __future__ import annotations

from ._american import american_distance
from ._functions import decompose, effective_tiles, is_winning, shanten, waits
from ._types import Improvement

__all__ = ["Improvement", "american_distance", "decompose", "effective_tiles", "is_winning", "shanten", "waits"]
