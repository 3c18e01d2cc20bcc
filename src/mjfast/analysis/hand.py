"""Analysis of one hand: shanten per form, waits, and the effective tiles of every discard.

:func:`analyze` is the one-hand counterpart of the batch kernels: every number it shows comes
from the same kernels (:func:`mjfast.shanten`, :func:`mjfast.waits`,
:func:`mjfast.effective_tiles`), so it always agrees with them.

Unseen copies of a kind = 4 - copies in the concealed hand - copies in the hand's called sets
and declared kongs - copies in ``visible`` (discards, other players' exposures...). A hand
whose tiles and visible tiles together hold a fifth copy of a kind is rejected.

Under ``rules="mcr"`` every wait also carries the Chinese Official fans its win would score
(:class:`WaitFan`, from the kernel of :func:`mjfast.mcr.fan_batch`), on a discard and
self-drawn, and whether that reaches ``min_fan``.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np

from .. import hands, tiles
from .. import rules as _rules
from .._display import Display, Displayed, Table, frame
from ..hands._input import SIZES_ALL, single_hand
from ..hands._standard import form_bits, forms_sizes, is_mcr, mcr_only, shanten_rows, visible_array
from ..mcr._fan import win_fans
from ..mcr._input import check_min_fan, melds_array, wind_letter


def check_rules(rules):
    """``rules`` (None, a name or a RuleSet) checked for hand analysis: any rule set whose
    hands are read by the standard model."""
    if _rules.hand_facts(rules).model != "standard":
        raise ValueError(f"rules={rules_label(rules)!r} is not supported by hand analysis yet (American hands are "
                         f"matched against the card, not by shanten); choose None or one of "
                         f"{tuple(n for n in _rules.names() if _rules.get(n).hand_model == 'standard')}")
    return rules


def rules_label(rules):
    """What results record of ``rules``: its name (None stays None)."""
    return rules.name if isinstance(rules, _rules.RuleSet) else rules


@dataclasses.dataclass(frozen=True)
class HandInput:
    """A validated hand: concealed counts, melds, and the counts seen outside the hand."""

    text: str
    concealed: np.ndarray      # (34,) uint8
    melds: tuple
    seen: np.ndarray           # (34,) int64: meld tiles + visible
    called: np.ndarray         # (34,) uint8: the tiles of the hand's called sets and kongs

    @property
    def unseen(self) -> np.ndarray:
        """Copies of each kind in no known place: 4 - concealed - seen."""
        return (4 - self.concealed.astype(np.int64) - self.seen).astype(np.int64)


def read_hand(hand: Any, visible: Any = None) -> HandInput:
    """Validate a hand (text with optional called sets, or 34 counts) and the visible tiles."""
    if isinstance(hand, str):
        parsed = tiles.parse_tiles(hand)
        if parsed.bonus.any() or parsed.jokers:
            raise ValueError(f"hand: bonus tiles and jokers are not part of a hand here; remove them from {hand!r}")
        concealed = parsed.concealed.astype(np.uint8)
        melds = parsed.melds
        meld_counts = parsed.counts_all().astype(np.int64) - concealed
    elif isinstance(hand, tiles.ParsedHand):
        concealed, melds = hand.concealed.astype(np.uint8), hand.melds
        meld_counts = hand.counts_all().astype(np.int64) - concealed
        if hand.bonus.any() or hand.jokers:
            raise ValueError("hand: bonus tiles and jokers are not part of a hand here")
    else:
        concealed = single_hand(hand, SIZES_ALL, "hand")[0]
        melds = ()
        meld_counts = np.zeros(34, np.int64)
    n = int(concealed.sum())
    if n == 0 or n % 3 == 0 or n > 14:
        raise ValueError(f"hand: the concealed part has {n} tiles; it must hold 3k+1 or 3k+2 tiles (1-14)")
    if n + 3 * len(melds) > 14:
        raise ValueError(f"hand: {n} concealed tiles and {len(melds)} sets make more than 14 tiles")
    total_hand = concealed.astype(np.int64) + meld_counts
    vis = visible_array(visible, extras_ok=False)
    total = total_hand + vis
    if total.max() > 4:
        k = int(np.argmax(total))
        raise ValueError(f"{tiles.tile_name(k)}: {int(total_hand[k])} in the hand (with its sets) + {int(vis[k])} "
                         f"visible = {int(total[k])} copies; only 4 exist")
    text = hand if isinstance(hand, str) else str(tiles.ParsedHand(concealed, melds=tuple(melds)))
    return HandInput(text.strip(), concealed, tuple(melds), meld_counts + vis, meld_counts.astype(np.uint8))


def _repr_without(obj, unset: tuple) -> str:
    """The dataclass repr of ``obj`` without the fields of ``unset`` that are None (the fan
    fields outside the Chinese Official rules), so that other rule sets read as before."""
    parts = [f"{f.name}={getattr(obj, f.name)!r}" for f in dataclasses.fields(obj)
             if not (f.name in unset and getattr(obj, f.name) is None)]
    return f"{type(obj).__name__}({', '.join(parts)})"


@dataclasses.dataclass(frozen=True)
class WaitFan:
    """The Chinese Official fans of one wait (``analyze(..., rules="mcr")``).

    Attributes
    ----------
    wait : str
        The winning tile.
    unseen : int
        Its unseen copies (0: every copy is in sight, the win cannot happen).
    fan_discard, fan_self_drawn : int
        The fans of the win on a discard and self-drawn (:func:`mjfast.mcr.fan`, no flowers;
        0 if the tile does not complete the hand in the fan calculator). Last Tile counts when
        the visible tiles and the hand's sets show the other three copies; the other
        situational fans (replacement tile, robbing a kong, last tile of the wall) are not
        assumed.
    valid_discard, valid_self_drawn : bool
        Whether that reaches the minimum ``min_fan`` (flowers never count towards it).
    """

    wait: str
    unseen: int
    fan_discard: int
    fan_self_drawn: int
    valid_discard: bool
    valid_self_drawn: bool

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class DiscardOption:
    """One discard of a 3k+2 hand: shanten after it, its effective tiles, its waits.

    Attributes
    ----------
    discard : str
    shanten : int
        Shanten of the hand left (0 = tenpai).
    tiles : dict of str to int
        Effective tiles -> unseen copies (the discarded copy counts as seen).
    count : int
        Unseen effective copies in total.
    waits : list of str
        Winning tiles when the hand left is tenpai (empty otherwise), including kinds with no
        unseen copy left.
    fans : list of WaitFan or None
        ``rules="mcr"``: the fans of each wait, in the order of ``waits``; None under other
        rules (and for hands that are not 14 tiles counting 3 per set).
    """

    discard: str
    shanten: int
    tiles: dict
    count: int
    waits: list
    fans: list | None = None

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        if self.fans is None:
            del d["fans"]
        return d

    def __repr__(self) -> str:
        return _repr_without(self, ("fans",))


_FAN_KEYS = ("min_fan", "seat_wind", "prevalent_wind", "fans")


@dataclasses.dataclass(frozen=True, repr=False)
class HandAnalysis(Displayed):
    """Result of :func:`analyze` (see there). ``str()`` and ``table()`` give a readable table,
    ``repr`` (and Jupyter) a summary table; ``to_dict()`` a JSON-ready dict and
    ``to_pandas()`` one row per (discard, tile that improves or wins).

    Under ``rules="mcr"`` it also holds ``min_fan``, ``seat_wind``, ``prevalent_wind`` and, for
    a 13-tile hand, ``fans`` (one :class:`WaitFan` per wait); each discard option of a 14-tile
    hand has its own ``fans``. These are None (and left out of ``to_dict()``) under other
    rules; ``fans`` is also None for a hand that is not 13 or 14 tiles counting 3 per set.
    """

    hand: str
    rules: str | None
    tiles: int
    concealed: int
    melds: tuple
    visible: dict
    shanten: int
    shanten_by_form: dict
    complete: bool
    decompositions: list
    waits: list
    effective: dict
    effective_count: int
    discards: list
    min_fan: int | None = None
    seat_wind: str | None = None
    prevalent_wind: str | None = None
    fans: list | None = None

    @property
    def best(self):
        """The best discard (a :class:`DiscardOption`), or None for a 3k+1 hand."""
        return self.discards[0] if self.discards else None

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["melds"] = [str(m) for m in self.melds]
        d["shanten_by_form"] = dict(self.shanten_by_form)
        d["discards"] = [o.to_dict() for o in self.discards]
        if self.min_fan is None:       # not the Chinese Official rules: no fan keys
            for key in _FAN_KEYS:
                del d[key]
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    # -- notebooks: repr, HTML, pandas ------------------------------------------------------
    def _options_list(self) -> list:
        """(discard, shanten, effective tiles, waits, fans) per option: the discards of a 3k+2
        hand, or the hand itself (discard None) for a 3k+1 hand."""
        if self.concealed % 3 == 1:
            return [(None, self.shanten, self.effective, self.waits, self.fans)]
        return [(o.discard, o.shanten, o.tiles, o.waits, o.fans) for o in self.discards]

    def _records(self) -> list:
        fan_cols = self.min_fan is not None
        rows = []
        for discard, sh, eff, waits, fans in self._options_list():
            by_wait = {f.wait: f for f in fans or ()}
            kinds = sorted(set(eff) | set(waits), key=lambda k: _KIND[k]) or [None]
            for k in kinds:
                r = {"discard": discard, "shanten": sh, "tile": k, "unseen": eff.get(k, by_wait[k].unseen
                                                                                   if k in by_wait else 0) if k else 0,
                     "wait": k in waits}
                if fan_cols:
                    f = by_wait.get(k)
                    r.update({"fan_discard": f.fan_discard if f else None, "fan_self_drawn": f.fan_self_drawn if f else None,
                              "valid_discard": f.valid_discard if f else None,
                              "valid_self_drawn": f.valid_self_drawn if f else None})
                rows.append(r)
        return rows

    def to_pandas(self):
        """The options as a tidy DataFrame: one row per discard (None for a 3k+1 hand) and
        kind that lowers the shanten or wins: ``discard``, ``shanten`` (after the discard),
        ``tile``, ``unseen`` (its unseen copies), ``wait`` (it completes the hand); under
        ``rules="mcr"`` also ``fan_discard``, ``fan_self_drawn``, ``valid_discard``,
        ``valid_self_drawn`` (missing for tiles that are not waits). ``df.attrs`` holds the
        hand, rules, shanten by form and visible tiles (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> df = mjfast.analyze("123m456p789s11223z").to_pandas()   # doctest: +SKIP
        >>> df[df["discard"] == "3z"][["tile", "unseen", "wait"]].to_dict("list")   # doctest: +SKIP
        {'tile': ['1z', '2z'], 'unseen': [2, 2], 'wait': [True, True]}
        """
        cols = ("discard", "shanten", "tile", "unseen", "wait")
        if self.min_fan is not None:
            cols += ("fan_discard", "fan_self_drawn", "valid_discard", "valid_self_drawn")
        attrs = {"hand": self.hand, "rules": self.rules, "tiles": self.tiles, "shanten": self.shanten,
                 "shanten_by_form": dict(self.shanten_by_form), "complete": self.complete, "visible": dict(self.visible)}
        if self.min_fan is not None:
            attrs.update(min_fan=self.min_fan, seat_wind=self.seat_wind, prevalent_wind=self.prevalent_wind)
        return frame(cols, self._records(), what="HandAnalysis.to_pandas()", attrs=attrs,
                     dtypes={"discard": "text", "tile": "text", "unseen": "int64", "wait": "bool",
                             "fan_discard": "Int64", "fan_self_drawn": "Int64", "valid_discard": "boolean",
                             "valid_self_drawn": "boolean"})

    def _display(self) -> Display:
        state = " (complete)" if self.complete else " (tenpai)" if self.shanten == 0 else ""
        title = (f"HandAnalysis: {self.hand} ({self.tiles} tiles, rules={self.rules}), shanten {self.shanten}{state}; "
                 "by form: " + ", ".join(f"{f} {v}" for f, v in self.shanten_by_form.items()))
        notes = []
        if self.visible:
            notes.append("visible: " + " ".join(f"{k}x{v}" for k, v in self.visible.items()))
        notes += ["decomposition: " + " ".join(d) for d in self.decompositions]
        tables = []
        rows: list[tuple]
        head: tuple[str, ...]
        if self.concealed % 3 == 1:
            rows = [(r["tile"], r["unseen"], r["wait"]) for r in self._records() if r["tile"]]
            tables.append(Table(("tile", "unseen", "wins"), rows,
                                f"tiles that improve the hand: {self.effective_count} unseen"))
        else:
            rows = [(o.discard, o.shanten, o.count, " ".join(f"{k}x{v}" for k, v in o.tiles.items()), " ".join(o.waits))
                    for o in self.discards]
            tables.append(Table(("discard", "shanten", "unseen", "effective tiles (unseen copies)", "waits"), rows,
                                "discards, best first"))
        if self.min_fan is not None:
            rows = [(r["discard"], r["tile"], r["unseen"], r["fan_discard"], r["valid_discard"], r["fan_self_drawn"],
                     r["valid_self_drawn"]) for r in self._records() if r["wait"]]
            head = ("discard", "wait", "unseen", "fan on discard", "valid", "fan self-drawn", "valid")
            if self.concealed % 3 == 1:
                head, rows = head[1:], [r[1:] for r in rows]
            tables.append(Table(head, rows, f"Chinese Official fans of each wait (min_fan {self.min_fan}, seat wind "
                                            f"{self.seat_wind}, prevalent wind {self.prevalent_wind}; flowers never count)"))
        return Display(title, tables, notes)

    def table(self) -> str:
        lines = [f"hand      {self.hand}   ({self.tiles} tiles, rules={self.rules})",
                 f"shanten   {self.shanten}"
                 + ("  (complete)" if self.complete else "  (tenpai)" if self.shanten == 0 else "")
                 + "   by form: " + ", ".join(f"{f} {s}" for f, s in self.shanten_by_form.items())]
        if self.visible:
            lines.append("visible   " + " ".join(f"{k}x{v}" for k, v in self.visible.items()))
        for d in self.decompositions:
            lines.append("decomp    " + " ".join(d))
        if self.concealed % 3 == 1:
            if self.waits:
                lines.append("waits     " + " ".join(self.waits))
            lines.append(f"improve   {self.effective_count} unseen tiles: "
                         + " ".join(f"{k}x{v}" for k, v in self.effective.items()))
        elif self.discards:
            lines.append(f"  {'discard':<8}{'shanten':>8}{'unseen':>8}  effective tiles (unseen copies)")
            for o in self.discards:
                extra = ("   waits " + " ".join(o.waits)) if o.waits else ""
                lines.append(f"  {o.discard:<8}{o.shanten:>8}{o.count:>8}  "
                             + " ".join(f"{k}x{v}" for k, v in o.tiles.items()) + extra)
        if self.min_fan is not None:
            lines.extend(self._fan_lines())
        return "\n".join(lines)

    def _fan_lines(self) -> list:
        """The fan columns of the Chinese Official rules: one row per (discard,) wait."""
        head = (f"fans      min_fan {self.min_fan} (flowers never count), seat wind {self.seat_wind}, "
                f"prevalent wind {self.prevalent_wind}; * = reaches min_fan")
        if self.concealed % 3 == 1:
            rows = [("", f) for f in self.fans or ()]
        else:
            rows = [(o.discard, f) for o in self.discards for f in o.fans or ()]
        scored = self.fans if self.concealed % 3 == 1 else self.discards[0].fans
        if scored is None:
            return ["fans      not scored: a Chinese Official hand holds 13 or 14 tiles (counting 3 per set)"]
        if not rows:
            return [head, "  no wait yet"]
        with_discard = self.concealed % 3 == 2
        out = [head, ("  discard  " if with_discard else "  ") + f"{'wait':<6}{'unseen':>6}{'on discard':>12}"
               f"{'self-drawn':>12}"]
        for d, f in rows:
            lead = f"  {d:<9}" if with_discard else "  "
            out.append((lead + f"{f.wait:<6}{f.unseen:>6}"
                        + f"{f.fan_discard:>11}{'*' if f.valid_discard else ' '}"
                        + f"{f.fan_self_drawn:>11}{'*' if f.valid_self_drawn else ' '}").rstrip())
        return out

    __str__ = table


def analyze(hand: Any, *, visible: Any = None, rules: str | None = "classical", min_fan: int | None = None,
            seat_wind: str | int | None = None, prevalent_wind: str | int | None = None) -> HandAnalysis:
    """Shanten per form, waits and the effective tiles of each discard of one hand; under
    ``rules="mcr"`` also the fans each wait would score.

    Parameters
    ----------
    hand : str or array_like of shape (34,)
        A hand of 3k+1 tiles (e.g. 13, before drawing) or 3k+2 (e.g. 14, before discarding),
        counting 3 per called set. Text may hold called sets ``[555z]`` and concealed kongs
        ``(1111m)``; their tiles count as seen.
    visible : str or array_like of shape (34,), optional
        Tiles seen elsewhere (discards, other players' sets). They reduce the unseen counts.
    rules : {"classical", "basic", "mcr", None}, default "classical"
        Which forms win (see :func:`mjfast.shanten`): classical/basic the standard form only,
        mcr all five Chinese Official forms, None standard + seven pairs + thirteen orphans.
    min_fan : int, optional
        ``rules="mcr"`` only: the minimum of a valid win, in fans without flowers (default 8).
    seat_wind, prevalent_wind : {"E", "S", "W", "N"} or 0-3, optional
        ``rules="mcr"`` only: the winds the fans are counted with (default "E", "E").

    Returns
    -------
    HandAnalysis
        ``shanten`` (minimum over the rule set's forms) and ``shanten_by_form``; for a 3k+2
        hand ``complete`` with its standard ``decompositions`` and ``discards``: one
        :class:`DiscardOption` per distinct tile, best first (lowest shanten after the discard,
        then most unseen effective copies, then tile order, as :func:`mjfast.effective_tiles`);
        for a 3k+1 hand ``waits`` (when tenpai) and ``effective`` tiles with unseen copies.

        ``rules="mcr"`` adds, for every wait (of the 13-tile hand, or of each discard of the
        14-tile hand), a :class:`WaitFan`: the fans of the win on a discard
        (``fan_discard``) and self-drawn (``fan_self_drawn``), computed as
        :func:`mjfast.mcr.fan` computes them with the hand's called sets and concealed kongs,
        and whether each reaches ``min_fan``. Last Tile counts when the visible tiles and the
        hand's sets show the other three copies of the wait (a discarded copy counts as
        shown). The order of the discards stays that of the effective tiles. Hands that are
        not 13 or 14 tiles counting 3 per set are not scored (``fans`` None).

    Raises
    ------
    ValueError
        Malformed text, a hand size that cannot occur, more than four copies of a kind counting
        the visible tiles, rules="american" (not supported here yet) or unknown rules;
        ``min_fan``, ``seat_wind`` or ``prevalent_wind`` under rules other than "mcr" (named).

    Examples
    --------
    >>> import mjfast
    >>> a = mjfast.analyze("123m456p789s11223z", visible="3z")
    >>> a.shanten, a.best.discard, a.best.waits, a.best.count
    (0, '3z', ['1z', '2z'], 4)
    >>> print(mjfast.analyze("123m456p1z [555z]", visible="1z"))
    hand      123m456p1z [555z]   (10 tiles, rules=classical)
    shanten   0  (tenpai)   by form: standard 0
    visible   1zx1 5zx3
    waits     1z
    improve   2 unseen tiles: 1zx2

    Chinese Official: the fans of each wait, and whether the win is valid (8 fans without
    flowers). Only 9m makes the Pure Straight here.

    >>> a = mjfast.analyze("12345678m [999p] 11z", rules="mcr")
    >>> [(f.wait, f.fan_discard, f.valid_discard) for f in a.fans]
    [('3m', 3, False), ('6m', 3, False), ('9m', 18, True)]
    >>> print(mjfast.analyze("12345678m [999p] 11z5z", rules="mcr", seat_wind="S"))   # doctest: +ELLIPSIS
    hand      12345678m [999p] 11z5z   (14 tiles, rules=mcr)
    ...
    fans      min_fan 8 (flowers never count), seat wind S, prevalent wind E; * = reaches min_fan
      discard  wait  unseen  on discard  self-drawn
      5z       3m         3          3           4
      5z       6m         3          3           4
      5z       9m         4         18*         19*
    """
    rules = check_rules(rules)
    mcr_only(rules, min_fan=min_fan, seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    ctx: tuple[int, str, str] | None = None     # (min_fan, seat wind, prevalent wind) of the Chinese Official fans
    if is_mcr(rules):
        ctx = (check_min_fan(8 if min_fan is None else min_fan),
               wind_letter("E" if seat_wind is None else seat_wind, "seat_wind"),
               wind_letter("E" if prevalent_wind is None else prevalent_wind, "prevalent_wind"))
    h = read_hand(hand, visible)
    conc = h.concealed
    n = int(conc.sum())
    forms = tuple(f for f in _rules.hand_facts(rules).forms if forms_sizes(form_bits(f, rules), 1 << n))
    seen = h.seen
    by_form = {f: int(shanten_rows(conc[None, :], form_bits(f, rules), h.called)[0]) for f in forms}
    sh = min(by_form.values())
    bits = form_bits("all", rules)
    vis = {_NAMES[k]: int(seen[k]) for k in np.flatnonzero(seen).tolist()}
    complete, decomps, waits, eff, eff_count, options = False, [], [], {}, 0, []
    scored = n + 3 * len(h.melds) in (13, 14)
    fans: list | None = None
    if n % 3 == 1:
        (_, eff, eff_count, waits), = _options(conc[None, :], seen[None, :], bits, h.called)
        if ctx is not None and scored:
            fans = _wait_fans(conc[None, :], seen[None, :], [waits], h.melds, ctx)[0]
    else:
        complete = sh == -1
        if complete and by_form.get("standard", 1) == -1:
            decomps = hands.decompose(conc)
        held = np.flatnonzero(conc)
        rows = np.repeat(conc[None, :], len(held), axis=0)
        rows[np.arange(len(held)), held] -= 1
        seen_rows = np.repeat(seen[None, :], len(held), axis=0)
        seen_rows[np.arange(len(held)), held] += 1      # the discarded copy is seen
        res = _options(rows, seen_rows, bits, h.called)
        order = sorted(range(len(held)), key=lambda i: (res[i][0], -res[i][2], int(held[i])))
        per_option: list = (_wait_fans(rows, seen_rows, [r[3] for r in res], h.melds, ctx)
                            if ctx is not None and scored else [None] * len(res))
        options = [DiscardOption(_NAMES[int(held[i])], res[i][0], res[i][1], res[i][2], res[i][3], per_option[i])
                   for i in order]
    min_f, seat, prevalent = ctx if ctx is not None else (None, None, None)
    return HandAnalysis(h.text, rules_label(rules), n + 3 * len(h.melds), n, h.melds, vis, sh, by_form, complete,
                        decomps, waits, eff, eff_count, options, min_f, seat, prevalent, fans)


_NAMES = [tiles.tile_name(k) for k in range(34)]
_KIND = {name: k for k, name in enumerate(_NAMES)}


def _wait_fans(rows: np.ndarray, seen_rows: np.ndarray, waits: list, melds: tuple, ctx: tuple[int, str, str]) -> list:
    """For each 3k+1 row of concealed tiles (13 with its sets) and its waits (names), one
    :class:`WaitFan` per wait: one fan kernel call for every (row, wait), on a discard and
    self-drawn. ``seen_rows``: the tiles shown outside each row (its sets, the visible tiles,
    a discarded copy); a wait three of whose copies are shown is won as the last copy. ``ctx``:
    (min_fan, seat wind, prevalent wind)."""
    min_fan, seat_wind, prevalent_wind = ctx
    pairs = [(i, _KIND[w]) for i, ws in enumerate(waits) for w in ws]
    out: list = [[] for _ in waits]
    if not pairs:
        return out
    r = np.array([i for i, _ in pairs])
    k = np.array([w for _, w in pairs])
    shown = seen_rows[r, k]
    on_discard, on_draw = win_fans(rows[r], k, melds_array(melds), fourth_tile=shown == 3,
                                          seat_wind=seat_wind, prevalent_wind=prevalent_wind)
    unseen = 4 - rows[r, k].astype(np.int64) - shown
    for j, (i, w) in enumerate(pairs):
        d, s = int(on_discard[j]), int(on_draw[j])
        out[i].append(WaitFan(_NAMES[w], int(unseen[j]), d, s, d >= min_fan and d > 0, s >= min_fan and s > 0))
    return out


def _options(rows: np.ndarray, seen_rows: np.ndarray, bits: int, called: np.ndarray) -> list:
    """(shanten, effective tiles, unseen count, waits) of each 3k+1 row, with one kernel call for
    the rows and one for every row plus every kind (the numbers of mjfast.effective_tiles and
    mjfast.waits, computed together). ``called``: the hand's called tiles (they count against
    the four copies of a kind)."""
    n = len(rows)
    base = shanten_rows(rows, bits, called)
    addable = rows + called < 4
    plus = np.repeat(rows, 34, axis=0)
    plus[np.arange(34 * n), np.tile(np.arange(34), n)] += addable.reshape(-1).astype(np.uint8)
    after = shanten_rows(plus, bits, called).reshape(n, 34)
    unseen = (4 - rows.astype(np.int64) - seen_rows)
    better = addable & (after < base[:, None])
    eff_mask = (better & (unseen > 0)).tolist()
    win_mask = (addable & (after == -1)).tolist()
    unseen_l = unseen.tolist()
    base_l = base.tolist()
    out = []
    for i in range(n):
        eff = {_NAMES[k]: unseen_l[i][k] for k, ok in enumerate(eff_mask[i]) if ok}
        waits = [_NAMES[k] for k, ok in enumerate(win_mask[i]) if ok] if base_l[i] == 0 else []
        out.append((base_l[i], eff, sum(eff.values()), waits))
    return out
