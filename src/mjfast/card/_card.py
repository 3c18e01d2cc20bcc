"""The compiled card and its queries (see :mod:`mjfast.card`)."""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import tiles
from .._kernels import card as _kern
from .._runtime.threads import resolve_threads
from .._runtime.validation import hand_label, text_batch
from ..hands._american import set_jokers
from ..hands._input import AMERICAN, as_batch, is_deals
from . import _load, _pattern
from ._pattern import FLOWER, JOKER, SET_NAMES, kind_text

DEAD = 127
"""Distance reported for a line that can no longer be completed (see :meth:`Card.distance`)."""
_ROW = 48
_FLAG_CONCEALED = 1
_FLAG_STRUCTURAL = 2
_MAX_EXP = 4
_SIZES_ANY = (1 << 15) - 1        # hands of 0-14 concealed tiles


@dataclasses.dataclass(frozen=True)
class CardLine:
    """One line of a card: ``id``, ``section``, its pattern string(s), ``points``, whether it must
    stay ``concealed``, whether a jokerless win doubles it (``jokerless_bonus``), the variable
    domains and how many concrete ``variations`` it compiled to (0 for the structural beginner
    hand)."""
    id: str
    section: str
    pattern: tuple[str, ...]
    points: int
    concealed: bool
    jokerless_bonus: bool
    vars: dict | None
    structural: bool
    variations: int


@dataclasses.dataclass(frozen=True)
class LineDistance:
    """A row of :meth:`Card.best`: how far a hand is from one line.

    ``missing`` is the tiles the line's nearest variation still lacks before the held jokers are
    placed (``f`` = any flower); ``jokers_used`` of its places in sets of three or more are filled
    by jokers, so ``distance = len(missing tiles) - jokers_used``. ``variation`` is that variation
    written out. ``dead`` lines cannot be completed any more (``distance`` is then
    :data:`DEAD`)."""
    id: str
    section: str
    points: int
    distance: int
    missing: str
    jokers_used: int
    concealed: bool
    dead: bool
    variation: str

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Match:
    """A complete hand's line (:meth:`Card.match`): the highest-scoring complete line, its
    ``points``, whether the hand is ``jokerless``, and ``value`` = points, multiplied by the
    card's jokerless multiplier when the hand is jokerless and the line is not exempt (before
    any self-draw doubling)."""
    id: str
    section: str
    points: int
    jokerless: bool
    value: int
    variation: str

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Call:
    """A legal call of a discard (:meth:`Card.callable`): ``kind`` is ``"pung"``, ``"kong"``,
    ``"quint"``, ``"sextet"`` or ``"mahjong"``; ``size`` tiles exposed (0 for a Mahjong by a pair
    or single), of which ``jokers`` come from the hand; ``lines`` the open lines that can use the
    exposure and ``distance`` the best of them afterwards (0 for Mahjong)."""
    kind: str
    size: int
    jokers: int
    lines: tuple[str, ...]
    distance: int

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _set_text(kind: int, size: int) -> str:
    if kind == FLOWER:
        return "f" * size
    name = kind_text(kind)
    return name[0] * size + name[1]


def _variation_text(sets: Sequence[tuple[int, int]]) -> str:
    return " ".join(_set_text(k, s) for k, s in sorted(sets, key=lambda ks: (ks[0] == FLOWER, ks[0], -ks[1])))


def _tiles_text(counts: np.ndarray) -> str:
    out = []
    for k in np.flatnonzero(counts):
        out.append(_set_text(int(k), int(counts[k])))
    return " ".join(out)


#: the hand layouts of the card queries, for error messages
_HAND_FORMS = ("text (with f1..f8 and j), 43 counts (34 kinds, f1..f8, jokers), 36 counts (34 kinds, flowers, "
               "jokers), 5 packed uint32 words or a Deals of rules='american'; a batch as rows of any leading shape")


def _count_array(hands: Any) -> np.ndarray | None:
    """``hands`` as an integer array when it is one (or a list of numbers), else None (text,
    a Deals, anything the shared validation should name)."""
    if isinstance(hands, np.ndarray):
        arr = hands
    elif isinstance(hands, (list, tuple)) and hands and text_batch(hands) is None:
        try:
            arr = np.asarray(hands)
        except (ValueError, TypeError):                      # ragged: let the shared checks say so
            return None
    else:
        return None
    return arr if arr.dtype.kind in "iu" and arr.ndim >= 1 else None


def _rows36(arr: np.ndarray, what: str) -> tuple[np.ndarray, tuple]:
    """(n, 48) rows from counts in the cards' 36-kind model (34 kinds 0-4, flowers 0-8, jokers)."""
    shape = arr.shape[:-1]
    flat = arr.reshape(-1, 36)
    limits = np.array(list(_pattern.COPIES) + [16], dtype=np.int64)          # 16: the most jokers a set has
    bad = (flat < 0) | (flat > limits)
    if bad.any():
        i, k = (int(x) for x in np.argwhere(bad)[0])
        name = {FLOWER: "flowers", JOKER: "jokers"}.get(k, tiles.tile_name(k) if k < 34 else "")
        raise ValueError(f"{hand_label(what, i, shape)} holds {int(flat[i, k])} {name}; 36 counts hold 0-4 of each "
                         "of the 34 kinds, 0-8 flowers and 0-16 jokers")
    out = np.zeros((len(flat), _ROW), dtype=np.uint8)
    out[:, :36] = flat
    return out, shape


def _flower_names(hand: Any) -> list[str]:
    """The names of a single hand's flowers (``f1``-``f8``; ``f`` each from 36 counts)."""
    arr = _count_array(hand)
    if arr is not None and arr.shape[-1] == 36:
        return ["f"] * int(arr.reshape(-1)[FLOWER])
    batch = as_batch(hand, _SIZES_ANY, "hand", layout=AMERICAN)
    full = tiles.unpack(batch.data) if batch.packed else batch.data
    return [tiles.tile_name(34 + int(k)) for k in np.flatnonzero(full[0, 34:42])]


class Card:
    """A compiled ``mjfast-card/1`` card: its lines, their concrete variations and the queries.

    Build one with :func:`mjfast.load_card`. Hands are American hands as everywhere in mjfast
    (text with ``f1``-``f8`` and ``j``, 43 counts, or 5 packed words; a batch as rows of any
    leading shape, or a :class:`~mjfast.Deals` of ``rules="american"``), or 36 counts of the card
    model (34 kinds, flowers, jokers), holding the *concealed* tiles; the exposed sets are given
    apart as ``exposures``. Standard counts (34 kinds, or 4 packed words) are refused: they hold
    no flowers or jokers.

    Attributes
    ----------
    name : str
    lines : tuple of CardLine
    ids : tuple of str
        The line ids, in card order: the columns of :meth:`distance`.
    variations : numpy structured array
        One row per concrete variation: ``line`` (index), ``id``, ``pattern`` (which of the line's
        patterns), ``text`` (the 14 tiles), ``natural`` and ``flexible`` (36 counts: tiles that must
        be natural, and places a joker may fill).
    jokerless_multiplier : int
    all_joker_sets : bool
        The joker reading (the file's ``all_joker_sets``). True (the default, the common NMJL
        reading): a concealed set of three or more may be all jokers; False: each set of three
        or more keeps one natural tile. Either way an exposure holds at least one natural tile
        (the called one) and jokers never fill singles or pairs.
    """

    def __init__(self, data: dict, *, jokers: int = 8, _expand_structural: bool = False):
        data = _load.check_card(data)
        jokers = set_jokers(jokers)
        self._data = data
        self.name: str = data["name"]
        self.jokerless_multiplier: int = data["jokerless_multiplier"]
        self.all_joker_sets: bool = data["all_joker_sets"]
        lines, all_sets, line_of, alt_of = [], [], [], []
        flags = []
        parsed = [_pattern.parse_line(line["id"], line["pattern"], line["vars"]) for line in data["lines"]]
        _pattern.check_card_choices(parsed)           # the cost bound, before any line is expanded
        for li, (line, pl) in enumerate(zip(data["lines"], parsed)):
            comp = _pattern.expand_line(pl, all_joker_sets=self.all_joker_sets, jokers=jokers)
            if comp.structural and _expand_structural:       # tests: the beginner hand written out
                comp = _pattern.CompiledLine(_pattern.beginner_variations(), [], False)
                comp.alternative = [0] * len(comp.variations)
            lines.append(CardLine(line["id"], line["section"], tuple(line["pattern"]), line["points"],
                                  line["concealed"], line["jokerless_bonus"],
                                  dict(line["vars"]) if line["vars"] else None, comp.structural,
                                  len(comp.variations)))
            flags.append((_FLAG_CONCEALED if line["concealed"] else 0)
                         | (_FLAG_STRUCTURAL if comp.structural else 0))
            all_sets.extend(comp.variations)
            line_of.extend([li] * len(comp.variations))
            alt_of.extend(comp.alternative)
        self.lines: tuple[CardLine, ...] = tuple(lines)
        self.ids: tuple[str, ...] = tuple(line.id for line in lines)
        self._flags = np.array(flags, dtype=np.uint8)
        self._line_start = np.zeros(len(lines) + 1, dtype=np.int32)
        np.cumsum([line.variations for line in lines], out=self._line_start[1:])
        self._sets = all_sets
        self._kernel: dict | None = None
        self._build_tables(all_sets, line_of, alt_of)

    def _build_tables(self, all_sets, line_of, alt_of) -> None:
        v = len(all_sets)
        rows = np.zeros((v, 2 * _ROW), dtype=np.uint8)
        xk = np.full((v, _MAX_EXP), -1, dtype=np.int8)
        xs = np.zeros((v, _MAX_EXP), dtype=np.int8)
        keep = 0 if self.all_joker_sets else 1
        for i, sets in enumerate(all_sets):
            j = 0
            for k, s in sets:
                if s < 3:
                    rows[i, k] += s
                else:
                    rows[i, k] += keep
                    rows[i, _ROW + k] += s - keep
                    xk[i, j], xs[i, j] = k, s
                    j += 1
        self._rows, self._xk, self._xs = rows, xk, xs
        self._blocks = _kern.CardBlocks(rows, self._line_start)    # the rows in blocks of 16 (the batch kernel's)
        # ids as references to each line's one str (a fixed-width text field would give every
        # variation the longest id's width)
        dtype = np.dtype([("line", np.int32), ("id", object), ("pattern", np.int16),
                          ("text", "U64"), ("natural", np.uint8, 36), ("flexible", np.uint8, 36)])
        var = np.zeros(v, dtype=dtype)
        var["line"] = line_of
        var["id"] = np.array(self.ids, dtype=object)[np.asarray(line_of, dtype=np.intp)]
        var["pattern"] = alt_of
        var["text"] = [_variation_text(s) for s in all_sets]
        var["natural"] = rows[:, :36]
        var["flexible"] = rows[:, _ROW:_ROW + 36]
        var.flags.writeable = False
        self.variations = var

    # ------------------------------------------------------------------ description
    def __repr__(self) -> str:
        return (f"<Card {self.name!r}: {len(self.lines)} lines, {len(self.variations)} variations"
                f"{', beginner hand' if self._flags.any() and (self._flags & _FLAG_STRUCTURAL).any() else ''}>")

    def __len__(self) -> int:
        return len(self.lines)

    def to_dict(self) -> dict:
        """The card as an ``mjfast-card/1`` mapping (what :func:`load_card` reads back)."""
        d = dict(self._data)
        d["lines"] = [dict(line, pattern=line["pattern"][0] if len(line["pattern"]) == 1 else list(line["pattern"]))
                      for line in self._data["lines"]]
        for line in d["lines"]:
            if line["vars"] is None:
                del line["vars"]
        return d

    def line_index(self, line_id: str) -> int:
        """Column of ``line_id`` in :meth:`distance` (ValueError naming the ids when unknown)."""
        try:
            return self.ids.index(line_id)
        except ValueError:
            raise ValueError(f"no line {line_id!r} on this card; its lines are {', '.join(self.ids)}") from None

    # ------------------------------------------------------------------ inputs
    def _hands(self, hands: Any, what: str = "hands") -> tuple[np.ndarray, tuple]:
        """(n, 48) uint8 rows of the 36-kind model and the batch's leading shape (() for one hand)."""
        if is_deals(hands) and hands.rules != "american":
            raise ValueError(f"{what}: a card reads American deals (mjfast.deal(n, rules='american')), not a Deals "
                             f"of rules={hands.rules!r}")
        arr = _count_array(hands)
        if arr is not None and arr.shape[-1] == 36:
            return _rows36(arr, what)
        if arr is not None and (arr.shape[-1] == 34 or (arr.shape[-1] == 4 and arr.dtype == np.uint32)):
            raise ValueError(f"{what}: standard counts of shape {arr.shape} hold no flowers or jokers, which the lines "
                             f"of a card use; give {_HAND_FORMS} (for mjfast.deal(..., rules='american') pass the "
                             "Deals itself, not its .hands)")
        batch = as_batch(hands, _SIZES_ANY, what, layout=AMERICAN)
        data = tiles.unpack(batch.data) if batch.packed else batch.data
        out = np.zeros((len(data), _ROW), dtype=np.uint8)
        out[:, :34] = data[:, :34]
        out[:, FLOWER] = data[:, 34:42].sum(axis=1)
        out[:, JOKER] = data[:, 42]
        return out, batch.shape

    @staticmethod
    def _one_exposure(e: Any, what: str) -> tuple[int, int, int]:
        """(kind, size, jokers) of one exposure: text like ``"444p"``/``"777sj"``/``"f1f2f3"`` or a
        tuple ``(tile, size)`` / ``(tile, size, jokers)`` with tile a name or a 36-model kind."""
        if isinstance(e, str):
            try:
                p = tiles.parse_tiles(e, max_jokers=6, max_tiles=None)
            except ValueError as exc:
                raise ValueError(f"{what}: {exc}") from None
            if p.melds:
                raise ValueError(f"{what}: write an exposure without brackets, like '4444p' or '777sj'")
            kinds = [int(k) for k in np.flatnonzero(p.concealed)] + ([FLOWER] if p.bonus.sum() else [])
            size = int(p.concealed.sum()) + int(p.bonus.sum()) + int(p.jokers)
            if len(kinds) != 1:
                raise ValueError(f"{what}: {e!r} must be one kind of tile (plus jokers), like '4444p' or '777sj'")
            kind, jokers = kinds[0], int(p.jokers)
        elif isinstance(e, (tuple, list)) and len(e) in (2, 3):
            t = e[0]
            if isinstance(t, str):
                kind = FLOWER if t in ("f",) or (t.startswith("f") and t[1:].isdigit()) else tiles.tile_index(t)
            elif isinstance(t, (int, np.integer)) and not isinstance(t, bool) and 0 <= int(t) <= 34:
                kind = int(t)
            else:
                raise ValueError(f"{what}: the tile of an exposure is a name ('4p', 'f') or a kind 0-34, not {t!r}")
            size = e[1]
            if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
                raise TypeError(f"{what}: the size of an exposure is an int 3-6, not {size!r}")
            size, jokers = int(size), int(e[2]) if len(e) == 3 else 0
            if not 0 <= jokers < size:
                raise ValueError(f"{what}: an exposure of {size} holds 0-{size - 1} jokers, not {jokers}")
        else:
            raise TypeError(f"{what}: an exposure is text like '4444p' or a tuple (tile, size[, jokers]), "
                            f"not {e!r}")
        if not 3 <= size <= 6:
            raise ValueError(f"{what}: {e!r} exposes {size} tiles; an exposure is a pung, kong, quint or sextet (3-6)")
        if kind > 34:
            raise ValueError(f"{what}: jokers alone are not an exposure")
        return kind, size, jokers

    def _exposures(self, exposures: Any, n: int, shape: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(n, 8) int8 (kind, size) pairs, (n,) counts and (n, 4) jokers in each exposure."""
        single = not shape
        exps = np.zeros((n, 2 * _MAX_EXP), dtype=np.int8)
        n_exp = np.zeros(n, dtype=np.int8)
        jok = np.zeros((n, _MAX_EXP), dtype=np.int32)
        if exposures is None:
            return exps, n_exp, jok
        if isinstance(exposures, np.ndarray) and exposures.dtype.kind in "iu":
            arr = exposures
            if single and arr.ndim == 2:
                arr = arr[None]
            elif len(shape) > 1 and arr.shape[:-2] == shape:          # the batch's leading shape
                arr = arr.reshape((n,) + arr.shape[-2:])
            if arr.ndim != 3 or arr.shape[0] != n or arr.shape[2] != 2 or arr.shape[1] > _MAX_EXP:
                raise ValueError(f"exposures as an array must have shape (N, E, 2) or (*shape, E, 2) = (kind, size) "
                                 f"pairs with E <= 4 and N = {n} hands (size 0 = no exposure); got {arr.shape}")
            kinds, sizes = arr[..., 0], arr[..., 1]
            bad = (sizes != 0) & ((sizes < 3) | (sizes > 6) | (kinds < 0) | (kinds > 34))
            if bad.any():
                i, j = np.argwhere(bad)[0]
                raise ValueError(f"exposures: hand {i} exposure {j} is ({int(kinds[i, j])}, {int(sizes[i, j])}); "
                                 "kinds are 0-34 and sizes 3-6 (0 = none)")
            per = [[(int(k), int(s), 0) for k, s in zip(kinds[i], sizes[i]) if s] for i in range(n)]
        else:
            seqs = [exposures] if single else list(exposures)
            if len(seqs) != n:
                raise ValueError(f"exposures: {len(seqs)} lists for {n} hands")
            per = []
            for i, seq in enumerate(seqs):
                if isinstance(seq, str):
                    seq = seq.split()
                what = "exposures" if single else f"exposures of hand {i}"
                per.append([self._one_exposure(e, what) for e in seq])
        for i, lst in enumerate(per):
            if len(lst) > _MAX_EXP:
                raise ValueError(f"exposures: hand {i} has {len(lst)} exposures; 14 tiles hold at most 4")
            for j, (k, s, jk) in enumerate(lst):
                exps[i, 2 * j], exps[i, 2 * j + 1] = k, s
                jok[i, j] = jk
            n_exp[i] = len(lst)
        return exps, n_exp, jok

    @staticmethod
    def _jokers(jokers: Any) -> int:
        return set_jokers(jokers)

    def _unseen(self, visible: Any, hands: np.ndarray, exps: np.ndarray, n_exp: np.ndarray, jok: np.ndarray,
                n_jokers: int, single: bool = True) -> np.ndarray:
        """(n, 48) unseen counts: copies minus the hand, the player's exposures and ``visible``."""
        n = len(hands)
        if isinstance(visible, str):
            p = tiles.parse_tiles(visible, max_jokers=16, max_tiles=None)
            vis = np.zeros((1, 36), np.int64)
            vis[0, :34] = p.concealed
            vis[0, FLOWER] = p.bonus.sum()
            vis[0, JOKER] = p.jokers
            for m in p.melds:
                for t in m.tiles:
                    vis[0, t] += 1
        else:
            arr = np.asarray(visible)
            if arr.dtype.kind not in "iu":
                raise TypeError(f"visible must hold integer tile counts, got dtype {arr.dtype}")
            if arr.ndim == 1:
                arr = arr[None]
            if arr.ndim != 2 or arr.shape[1] not in (36, 43):
                raise ValueError("visible must be text or counts of shape (36,), (43,), (N, 36) or (N, 43); "
                                 f"got {np.shape(visible)}")
            if arr.shape[1] == 43:
                arr = np.concatenate([arr[:, :34], arr[:, 34:42].sum(axis=1, keepdims=True), arr[:, 42:43]], axis=1)
            vis = arr.astype(np.int64)
            if vis.min(initial=0) < 0:
                raise ValueError("visible counts must be non-negative")
        if len(vis) == 1 and n != 1:
            vis = np.repeat(vis, n, axis=0)
        if len(vis) != n:
            raise ValueError(f"visible: {len(vis)} rows for {n} hands")
        copies = np.array(list(_pattern.COPIES) + [n_jokers], dtype=np.int64)
        used = hands[:, :36].astype(np.int64) + vis
        # each exposure's naturals of its kind (empty slots: kind 0, size 0, no jokers: adds 0) ...
        np.add.at(used, (np.arange(n)[:, None], exps[:, 0::2].astype(np.intp)),
                  exps[:, 1::2].astype(np.int64) - jok)
        used[:, JOKER] += jok.sum(axis=1)                                  # ... and its jokers
        over = used > copies
        if over.any():
            i, k = np.argwhere(over)[0]
            label = "the hand" if single else f"hand {i}"
            raise ValueError(f"{label}: {int(used[i, k])} {kind_text(int(k))} between the hand, its exposures and "
                             f"the visible tiles; the set has {int(copies[k])}")
        out = np.zeros((n, _ROW), dtype=np.uint8)
        out[:, :36] = copies - used
        return out

    # ------------------------------------------------------------------ queries
    def _run(self, rows: np.ndarray, exps: np.ndarray, n_exp: np.ndarray, unseen: np.ndarray | None,
             threads: Any = 1, want_arg: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        n = len(rows)
        out = np.empty((n, len(self.lines)), dtype=np.int8)
        arg = np.empty((n if want_arg else 0, len(self.lines)), dtype=np.int32)
        un = unseen if unseen is not None else np.zeros((0, _ROW), np.uint8)
        _kern.line_distance_batch(self._rows, self._line_start, self._flags, self._xk, self._xs, rows, exps,
                                  n_exp, un, self.all_joker_sets, out, arg, resolve_threads(threads),
                                  self._blocks)
        return out, (arg if want_arg else None)

    def _check_sizes(self, rows: np.ndarray, n_exp_sizes: np.ndarray, single: bool) -> None:
        total = rows[:, :36].sum(axis=1).astype(np.int64) + n_exp_sizes
        bad = total > 14
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            label = "the hand" if single else f"hand {i}"
            raise ValueError(f"{label} holds {int(total[i])} tiles with its exposures; a hand has at most 14")

    def _prepare(self, hands, exposures, visible, jokers, what="hands"):
        """Checked kernel inputs: rows, the batch's leading shape (() for one hand), exposures,
        their counts, the jokers in them and the unseen counts."""
        if jokers is None and is_deals(hands):
            jokers = hands.options.get("jokers")                  # the set the deals were dealt from
        n_jokers = self._jokers(jokers)
        rows, shape = self._hands(hands, what)
        single = not shape
        exps, n_exp, jok = self._exposures(exposures, len(rows), shape)
        if visible is not None and not isinstance(visible, str) and len(shape) > 1:
            vis = np.asarray(visible)
            if vis.ndim == len(shape) + 1 and vis.shape[:-1] == shape:
                visible = vis.reshape(len(rows), vis.shape[-1])   # one row per hand of the batch's shape
        sizes = exps[:, 1::2].astype(np.int64).sum(axis=1)
        self._check_sizes(rows, sizes, single)
        held = rows[:, JOKER].astype(np.int64) + jok.sum(axis=1)
        if (held > n_jokers).any():
            i = int(np.flatnonzero(held > n_jokers)[0])
            label = "the hand" if single else f"hand {i}"
            raise ValueError(f"{label} holds {int(held[i])} jokers with its exposures; the set has {n_jokers}")
        unseen = self._unseen(np.zeros(36, np.int64) if visible is None else visible, rows, exps, n_exp, jok,
                              n_jokers, single)        # checks the copies of every kind
        return rows, shape, exps, n_exp, jok.sum(axis=1), unseen

    def distance(self, hands: Any, *, exposures: Any = None, visible: Any = None, jokers: Any = None,
                 threads: Any = None) -> np.ndarray:
        """Tiles each hand still needs for each line of the card.

        Parameters
        ----------
        hands : str, array_like, list of str or Deals
            Concealed tiles: one hand (text, 43 counts, 36 counts, 5 packed words) or a batch of
            any leading shape (``(..., 43)`` or ``(..., 36)`` counts, ``(..., 5)`` packed words,
            nested lists of texts, or a :class:`~mjfast.Deals` of ``rules="american"``: its
            ``(n, 4)`` hands with their flowers and jokers). Any size up to 14 with the exposures.
            36 counts are the card model: 34 kinds, the flowers (0-8, one kind) and the jokers.
        exposures : optional
            For one hand, a sequence of exposures, each text like ``"444p"`` or ``"777sj"`` (jokers
            included) or a tuple ``(tile, size)``; for a batch, one such sequence per hand (in
            row-major order) or an int array of shape (N, E, 2) or (..., E, 2) with the batch's
            leading shape, holding ``(kind, size)`` pairs (kinds 0-33, 34 = flower; size 0 = none).
            An exposure counts only as a whole set of a line (a pung never becomes a kong); a
            concealed line is dead after any exposure.
        visible : optional
            Tiles the player can see outside their own hand and exposures (discards, the others'
            exposures): text, or counts of shape (36,)/(43,) or one row per hand ((N, 36|43) or the
            batch's leading shape). With it, lines that the unseen tiles can no longer complete are
            dead.
        jokers : int, optional
            Jokers in the set (default 8; for a Deals, the jokers it was dealt with): bounds the
            unseen jokers.
        threads : int, optional
            Threads for a batch (default: all cores); the result does not depend on it.

        Returns
        -------
        numpy.ndarray of int8, shape (L,) for one hand, else the batch's leading shape + (L,)
            Column ``l`` is line ``card.ids[l]``; 0 = the line is complete (14 tiles), 127
            (:data:`DEAD`) = it cannot be completed. Jokers count only in sets of three or more.
            A Deals of n deals gives shape (n, 4, L): deal, seat (0 = East), line.

        Examples
        --------
        >>> card = toy_card()
        >>> card.distance("1111m 4444p 7777s 44z")[:4]
        array([ 0, 10, 10,  9], dtype=int8)
        >>> int(card.distance("1111m 4444p j 44z", exposures=["777s"])[0])    # a pung never becomes a kong
        127
        >>> import mjfast
        >>> d = mjfast.deal(5, rules="american", seed=1)
        >>> card.distance(d).shape                                          # deal, seat, line
        (5, 4, 10)
        >>> bool((card.distance(d)[2, 0] == card.distance(d.hand_text(2, 0))).all())
        True
        """
        rows, shape, exps, n_exp, _jok, unseen = self._prepare(hands, exposures, visible, jokers)
        out, _ = self._run(rows, exps, n_exp, None if visible is None else unseen, threads)
        return out.reshape(shape + (len(self.lines),))

    def dead(self, hands: Any, *, exposures: Any = None, visible: Any = None, jokers: Any = None,
             threads: Any = None) -> np.ndarray:
        """Which lines can no longer be completed (True = dead); same inputs as :meth:`distance`.

        A line is dead when an exposure is not one of its sets, when it is concealed and the hand
        has exposed, or (with ``visible``) when the tiles it still needs are not among the unseen
        tiles (naturals for singles and pairs; naturals or jokers for the rest).

        Examples
        --------
        >>> card = toy_card()
        >>> bool(card.dead("2222m 8888m 555z 1p", visible="f1f2f3f4f5f6f7f8")[card.line_index("toy-7")])
        True
        """
        return self.distance(hands, exposures=exposures, visible=visible, jokers=jokers, threads=threads) == DEAD

    def best(self, hand: Any, k: int | None = 5, *, exposures: Any = None, visible: Any = None,
             jokers: Any = None) -> list[LineDistance]:
        """The ``k`` nearest lines of one hand (all lines with ``k=None``), nearest first.

        Ties are broken by higher points, then card order; dead lines come last.

        Examples
        --------
        >>> card = toy_card()
        >>> row = card.best("111m 444p 777s 4z jj 5z 9p", k=1)[0]
        >>> row.id, row.distance, row.missing, row.jokers_used
        ('toy-1', 2, '1m 4p 7s 4z', 2)
        """
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise ValueError(f"k must be a positive int or None, not {k!r}")
        rows, shape, exps, n_exp, _jok, unseen = self._prepare(hand, exposures, visible, jokers, "hand")
        if shape:
            raise ValueError("best() takes one hand; use distance() for a batch")
        dist, arg = self._run(rows, exps, n_exp, None if visible is None else unseen, 1, want_arg=True)
        assert arg is not None
        h = rows[0, :36].astype(np.int64)
        out = []
        for li, line in enumerate(self.lines):
            d, v = int(dist[0, li]), int(arg[0, li])
            missing, used, text = "", 0, ""
            if v >= 0:
                need = self._rows[v].astype(np.int64)
                for j in range(int(n_exp[0])):
                    kk, ss = int(exps[0, 2 * j]), int(exps[0, 2 * j + 1])
                    keep = 0 if self.all_joker_sets else 1
                    need[kk] -= keep
                    need[_ROW + kk] -= ss - keep
                r, f = need[:36], need[_ROW:_ROW + 36]
                sr = np.maximum(r - h, 0)
                sf = np.maximum(f - np.maximum(h - r, 0), 0)
                used = int(min(h[JOKER], sf.sum()))
                missing = _tiles_text(sr + sf)
                text = str(self.variations["text"][v])
            elif line.structural and d != DEAD:
                text = _pattern.BEGINNER
            out.append(LineDistance(line.id, line.section, line.points, d, missing, used,
                                    line.concealed, d == DEAD, text))
        order = sorted(range(len(out)), key=lambda i: (out[i].dead, out[i].distance, -out[i].points, i))
        rows_out = [out[i] for i in order]
        return rows_out if k is None else rows_out[:k]

    def match(self, hand: Any, exposures: Any = None) -> Match | None:
        """The highest-scoring line a complete 14-tile hand makes, or None.

        ``hand`` is the concealed tiles and ``exposures`` the exposed sets (14 tiles together).
        Jokers in exposures count against a jokerless bonus only when given (``"777sj"`` or
        ``(tile, size, jokers)``).

        Examples
        --------
        >>> card = toy_card()
        >>> m = card.match("1111m 4444p 7777s 44z")
        >>> m.id, m.points, m.jokerless, m.value
        ('toy-1', 25, True, 50)
        >>> card.match("1111m 4444p 777s j 44z").value
        25
        """
        rows, shape, exps, n_exp, jok, _ = self._prepare(hand, exposures, None, None, "hand")
        if shape:
            raise ValueError("match() takes one hand")
        total = int(rows[0, :36].sum()) + int(exps[0, 1::2].astype(np.int64).sum())
        if total != 14:
            raise ValueError(f"match() needs a complete hand of 14 tiles with its exposures, not {total}")
        dist, arg = self._run(rows, exps, n_exp, None, 1, want_arg=True)
        assert arg is not None
        done = np.flatnonzero(dist[0] == 0)
        if not len(done):
            return None
        li = max(done, key=lambda i: (self.lines[i].points, -i))
        line = self.lines[li]
        jokerless = int(rows[0, JOKER]) + int(jok[0]) == 0
        value = line.points * (self.jokerless_multiplier if jokerless and line.jokerless_bonus else 1)
        v = int(arg[0, li])
        return Match(line.id, line.section, line.points, jokerless, value,
                     str(self.variations["text"][v]) if v >= 0 else _pattern.BEGINNER)

    def waits(self, hand: Any, exposures: Any = None, *, visible: Any = None, jokers: Any = None) -> dict:
        """Tiles that complete a 13-tile hand, each with the lines it completes.

        Returns a dict ``{tile: [line ids]}`` in tile order; ``f`` is any flower and ``j`` a joker
        (drawn, since a discarded joker cannot be called). With ``visible``, tiles with no unseen
        copy are left out.

        Examples
        --------
        >>> toy_card().waits("1111m 4444p 7777s 4z")
        {'4z': ['toy-1']}
        """
        n_jokers = self._jokers(jokers)
        rows, shape, exps, n_exp, jok, unseen = self._prepare(hand, exposures, visible, n_jokers, "hand")
        if shape:
            raise ValueError("waits() takes one hand")
        total = int(rows[0, :36].sum()) + int(exps[0, 1::2].astype(np.int64).sum())
        if total != 13:
            raise ValueError(f"waits() needs a hand of 13 tiles with its exposures, not {total}")
        left = unseen[0, :36].astype(np.int64)        # without visible: copies minus hand and exposures
        cand = [k for k in range(36) if left[k] > 0]
        if not cand:
            return {}
        batch = np.repeat(rows, len(cand), axis=0)
        batch[np.arange(len(cand)), cand] += 1
        dist, _ = self._run(batch, np.repeat(exps, len(cand), axis=0), np.repeat(n_exp, len(cand)), None)
        out = {}
        for i, k in enumerate(cand):
            done = [self.ids[li] for li in np.flatnonzero(dist[i] == 0)]
            if done:
                out[kind_text(k)] = done
        return out

    def callable(self, hand: Any, tile: Any, exposures: Any = None) -> list[Call]:
        """The legal calls of a discarded ``tile`` for a 13-tile hand.

        An exposure (pung, kong, quint or sextet of the discarded tile, the rest from the hand's
        naturals and jokers) is legal when an open line (not concealed, not dead with the existing
        exposures) has that exposure as one of its sets; ``"mahjong"`` is listed when the tile
        completes a line (a pair or single may be called only for Mahjong). A joker cannot be
        called.

        Examples
        --------
        >>> [c.kind for c in toy_card().callable("111m 4444p 7777s 4z j", "1m")]   # the quint: toy-3, X = 1
        ['pung', 'kong', 'quint']
        """
        rows, shape, exps, n_exp, jok, unseen = self._prepare(hand, exposures, None, None, "hand")
        if shape:
            raise ValueError("callable() takes one hand")
        total = int(rows[0, :36].sum()) + int(exps[0, 1::2].astype(np.int64).sum())
        if total != 13:
            raise ValueError(f"callable() needs a hand of 13 tiles with its exposures, not {total}")
        if isinstance(tile, str):
            if tile in ("j", "J"):
                return []
            t = tiles.parse_tiles(tile, max_jokers=0, max_tiles=1)
            if int(t.concealed.sum()) + int(t.bonus.sum()) != 1:
                raise ValueError(f"tile must be one tile, not {tile!r}")
            kind = FLOWER if t.bonus.sum() else int(np.flatnonzero(t.concealed)[0])
        elif isinstance(tile, (int, np.integer)) and not isinstance(tile, bool) and 0 <= int(tile) <= 35:
            kind = int(tile)
            if kind == JOKER:
                return []
        else:
            raise ValueError(f"tile must be a tile name or a kind 0-34, not {tile!r}")
        if unseen[0, kind] == 0:
            copies, name = _pattern.COPIES[kind], "flowers" if kind == FLOWER else kind_text(kind)
            raise ValueError(f"the hand and its exposures hold all {copies} {name}; a discarded {kind_text(kind)} "
                             f"would be copy {copies + 1}")
        calls: list[Call] = []
        ne = int(n_exp[0])
        if ne < _MAX_EXP:
            h = int(rows[0, kind])
            J = int(rows[0, JOKER])
            for size in range(3, 7):
                best: tuple[int, int, tuple[str, ...]] | None = None
                for nat in range(min(h, size - 1), -1, -1):
                    jk = size - 1 - nat
                    if jk > J:
                        continue
                    after = rows.copy()
                    after[0, kind] -= nat
                    after[0, JOKER] -= jk
                    e2 = exps.copy()
                    e2[0, 2 * ne], e2[0, 2 * ne + 1] = kind, size
                    n2 = n_exp + 1
                    dist, _ = self._run(after, e2, n2, None)
                    open_ = [li for li in range(len(self.lines)) if dist[0, li] != DEAD]
                    if not open_:
                        continue
                    d = int(min(dist[0, li] for li in open_))
                    # distance counts the tile still to discard as held: one more than after the discard
                    if best is None or d < best[0]:
                        best = (d, jk, tuple(self.ids[li] for li in open_))
                if best is not None:
                    calls.append(Call(SET_NAMES[size], size, best[1], best[2], best[0]))
        won = rows.copy()
        won[0, kind] += 1
        dist, _ = self._run(won, exps, n_exp, None)
        done = tuple(self.ids[li] for li in np.flatnonzero(dist[0] == 0))
        if done:
            calls.append(Call("mahjong", 0, 0, done, 0))
        return calls

    def charleston(self, hand: Any, n: int = 3, *, blind: int = 0, exposures: Any = None) -> list[str]:
        """The tiles to pass in a Charleston: ``n - blind`` tiles of the hand, never a joker.

        ``blind`` tiles of the pass are passed on blind (the tiles just received, unseen), so
        ``n - blind`` come from the hand. The choice keeps the card's lines as near as possible:
        it minimises the list of per-line distances after the pass, sorted nearest first,
        compared lexicographically (first the nearest line, then the second nearest, ...); ties
        go to the lowest tiles in mjfast's order. Every choice of tiles is tried (a few hundred
        kind combinations), so this is exact for the rule.

        Returns
        -------
        list of str
            Tile names from the hand (a flower as the hand's own ``f1``-``f8``; ``f`` for a hand
            given as 36 counts, which do not say which flowers it holds).

        Examples
        --------
        >>> toy_card().charleston("1111m 444p 777s 2m 3m 6z")
        ['2m', '3m', '6z']
        """
        for name, val in (("n", n), ("blind", blind)):
            if isinstance(val, bool) or not isinstance(val, (int, np.integer)):
                raise TypeError(f"{name} must be an int, not {type(val).__name__}")
        if not 0 <= blind <= n <= 3:
            raise ValueError(f"pass 0-3 tiles (n={n}) of which 0-n blind (blind={blind})")
        rows, shape, exps, n_exp, _jok, _ = self._prepare(hand, exposures, None, None, "hand")
        if shape:
            raise ValueError("charleston() takes one hand")
        take = n - blind
        h36 = rows[0, :36].astype(np.int64)
        naturals = int(h36[:JOKER].sum())
        if naturals < take:
            raise ValueError(f"the hand holds {naturals} tiles other than jokers; it cannot pass {take}")
        if take == 0:
            return []
        kinds = [k for k in range(JOKER) if h36[k]]
        subsets = [c for c in itertools.combinations_with_replacement(kinds, take)
                   if all(c.count(k) <= h36[k] for k in set(c))]
        cand = np.repeat(rows, len(subsets), axis=0)
        for i, c in enumerate(subsets):
            for k in c:
                cand[i, k] -= 1
        dist, _ = self._run(cand, np.repeat(exps, len(subsets), axis=0), np.repeat(n_exp, len(subsets)), None)
        keys = np.sort(dist.astype(np.int16), axis=1)
        best = int(np.lexsort(keys.T[::-1])[0])         # lexicographic minimum; lexsort is stable: first subset
        chosen = subsets[best]
        out = []
        flowers = iter(_flower_names(hand))
        for k in chosen:
            out.append(next(flowers) if k == FLOWER else tiles.tile_name(k))
        return out

    def kernel_tables(self) -> dict:
        """The compiled tables the game engine reads (private layout; kept alive by the caller)."""
        if self._kernel is None:
            set_sizes = np.zeros(35, dtype=np.uint8)
            for k, s in zip(self._xk.ravel(), self._xs.ravel()):
                if s:
                    set_sizes[k] |= 1 << int(s)
            self._kernel = {
                "rows": self._rows, "line_start": self._line_start, "flags": self._flags,
                "xk": self._xk, "xs": self._xs,
                "points": np.array([ln.points for ln in self.lines], dtype=np.int32),
                "bonus": np.array([ln.jokerless_bonus for ln in self.lines], dtype=np.uint8),
                "set_sizes": set_sizes, "all_joker_sets": int(self.all_joker_sets),
                "rt": np.ascontiguousarray(self._rows[:, :36].T),
                "ft": np.ascontiguousarray(self._rows[:, _ROW:_ROW + 36].T),
                **self._set_index(),
                "vconc": np.repeat(self._flags & _FLAG_CONCEALED,
                                   [ln.variations for ln in self.lines]).astype(np.uint8),
                "multiplier": self.jokerless_multiplier,
            }
        return self._kernel

    def _set_index(self) -> dict:
        """For each (kind, size 3-6): the variations holding such a set (CSR arrays)."""
        lists: list[list[int]] = [[] for _ in range(35 * 4)]
        for v in range(len(self._xk)):
            seen = set()
            for k, sz in zip(self._xk[v], self._xs[v]):
                if sz and (k, sz) not in seen:
                    seen.add((int(k), int(sz)))
                    lists[int(k) * 4 + int(sz) - 3].append(v)
        off = np.zeros(35 * 4 + 1, dtype=np.int32)
        np.cumsum([len(x) for x in lists], out=off[1:])
        idx = np.array([v for x in lists for v in x], dtype=np.int32)
        return {"set_off": off, "set_idx": idx if len(idx) else np.zeros(1, np.int32)}

    def line_table(self) -> list[dict]:
        """One dict per line: id, section, points, concealed, jokerless_bonus, patterns, variations."""
        return [{"id": ln.id, "section": ln.section, "points": ln.points, "concealed": ln.concealed,
                 "jokerless_bonus": ln.jokerless_bonus, "pattern": list(ln.pattern),
                 "variations": ln.variations, "structural": ln.structural} for ln in self.lines]


def load_card(source: Any, *, jokers: int = 8) -> Card:
    """Load and compile an ``mjfast-card/1`` card.

    Parameters
    ----------
    source : str, os.PathLike or mapping
        A ``.json``, ``.toml`` or ``.yaml``/``.yml`` file (YAML needs PyYAML: the ``yaml`` extra),
        or the same content as a mapping.
    jokers : int, default 8
        Jokers in the set the card is played with: a line that needs more (a quint or sextet
        beyond the copies of its kind) is an error.

    Returns
    -------
    Card

    Raises
    ------
    ValueError (CardError)
        For a malformed card; the message names the line id and the column of the pattern (for a
        file that cannot be read, its line and column). Also for a line worth more than
        5,000,000 (points x jokerless multiplier, so that no payment or score of a game
        overflows), and for a line expanding to more than 250,000 combinations of alternatives,
        suits and variable values or a card to more than 500,000 (counted before expanding).

    Examples
    --------
    >>> card = load_card({"format": "mjfast-card/1", "name": "tiny", "lines": [
    ...     {"id": "kongs", "pattern": "1111a 4444b 7777c NN", "points": 25}]})
    >>> card
    <Card 'tiny': 1 lines, 6 variations>
    >>> bad = {"format": "mjfast-card/1", "lines": [{"id": "x", "pattern": "1111a 4444b 7777c QQ", "points": 25}]}
    >>> load_card(bad)
    Traceback (most recent call last):
    ...
    mjfast.card.CardError: line 'x', column 19: unknown symbol 'Q' (expected 1-9, 0, D, X/Y + offset, ...
    """
    return Card(_load.read(source), jokers=jokers)


TOY_CARD = {
    "format": "mjfast-card/1",
    "name": "mjfast toy card (made up for tests; not any published card)",
    "jokerless_multiplier": 2,
    "lines": [
        {"id": "toy-1", "section": "kongs", "pattern": "1111a 4444b 7777c NN", "points": 25},
        {"id": "toy-2", "section": "like numbers", "pattern": "FF XXXX0a XXX0b XXX0c DDa", "points": 25},
        {"id": "toy-3", "section": "runs", "pattern": "FFF XXXXX0a XX1b XXXX2c", "points": 35},
        {"id": "toy-4", "section": "winds", "pattern": "NEWS XXXX0a XXXX0b 00", "points": 30},
        {"id": "toy-5", "section": "pairs", "pattern": "11a 22a 33b 44b 55c 66c DDa", "points": 50,
         "concealed": True, "jokerless_bonus": False},
        {"id": "toy-6", "section": "sextets", "pattern": "XXXXXX0a 9999b FFFF", "points": 40},
        {"id": "toy-7", "section": "dragons", "pattern": "2222a DDDDb 8888a FF", "points": 25},
        {"id": "toy-8", "section": "evens", "pattern": "FF XXX0a XXX2a XXX4a DDDb", "points": 30,
         "vars": {"X": [2, 4]}},
        {"id": "toy-9", "section": "alternatives", "pattern": "FFFF 3333a|6666a 9999b 3c 6c", "points": 30},
        {"id": "toy-10", "section": "singles", "pattern": "123456789a FFFFF", "points": 50, "concealed": True},
    ],
}


def toy_card() -> Card:
    """The invented ten-line toy card (CC0) used by the tests and examples; not a published card.

    Examples
    --------
    >>> toy_card()
    <Card 'mjfast toy card (made up for tests; not any published card)': 10 lines, 195 variations>
    """
    return Card(TOY_CARD)
