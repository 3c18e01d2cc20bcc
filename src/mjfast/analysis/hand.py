"""Analysis of one hand: shanten per form, waits, and the effective tiles of every discard.

:func:`analyze` is the one-hand counterpart of the batch kernels: every number it shows comes
from the same kernels (:func:`mjfast.shanten`, :func:`mjfast.waits`,
:func:`mjfast.effective_tiles`), so it always agrees with them.

Unseen copies of a kind = 4 - copies in the concealed hand - copies in the hand's called sets
and declared kongs - copies in ``visible`` (discards, other players' exposures...). A hand
whose tiles and visible tiles together hold a fifth copy of a kind is rejected.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np

from .. import hands, tiles
from .. import rules as _rules


def _check_rules(rules):
    """``rules`` (None, a name or a RuleSet) checked for hand analysis: any rule set whose
    hands are read by the standard model."""
    if _rules.facts(rules)[2] != "standard":
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
        concealed = hands._single_counts(hand, hands._SIZES_ALL, "hand")
        melds = ()
        meld_counts = np.zeros(34, np.int64)
    n = int(concealed.sum())
    if n == 0 or n % 3 == 0 or n > 14:
        raise ValueError(f"hand: the concealed part has {n} tiles; it must hold 3k+1 or 3k+2 tiles (1-14)")
    if n + 3 * len(melds) > 14:
        raise ValueError(f"hand: {n} concealed tiles and {len(melds)} sets make more than 14 tiles")
    total_hand = concealed.astype(np.int64) + meld_counts
    vis = hands._visible_array(visible, extras_ok=False)
    total = total_hand + vis
    if total.max() > 4:
        k = int(np.argmax(total))
        raise ValueError(f"{tiles.tile_name(k)}: {int(total_hand[k])} in the hand (with its sets) + {int(vis[k])} "
                         f"visible = {int(total[k])} copies; only 4 exist")
    text = hand if isinstance(hand, str) else str(tiles.ParsedHand(concealed, melds=tuple(melds)))
    return HandInput(text.strip(), concealed, tuple(melds), meld_counts + vis, meld_counts.astype(np.uint8))


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
    """

    discard: str
    shanten: int
    tiles: dict
    count: int
    waits: list

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class HandAnalysis:
    """Result of :func:`analyze` (see there). ``str()`` and ``table()`` give a readable table;
    ``to_dict()`` a JSON-ready dict."""

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

    @property
    def best(self):
        """The best discard (a :class:`DiscardOption`), or None for a 3k+1 hand."""
        return self.discards[0] if self.discards else None

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["melds"] = [str(m) for m in self.melds]
        d["shanten_by_form"] = dict(self.shanten_by_form)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

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
        return "\n".join(lines)

    __str__ = table


def analyze(hand: Any, *, visible: Any = None, rules: str | None = "classical") -> HandAnalysis:
    """Shanten per form, waits and the effective tiles of each discard of one hand.

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

    Returns
    -------
    HandAnalysis
        ``shanten`` (minimum over the rule set's forms) and ``shanten_by_form``; for a 3k+2
        hand ``complete`` with its standard ``decompositions`` and ``discards``: one
        :class:`DiscardOption` per distinct tile, best first (lowest shanten after the discard,
        then most unseen effective copies, then tile order, as :func:`mjfast.effective_tiles`);
        for a 3k+1 hand ``waits`` (when tenpai) and ``effective`` tiles with unseen copies.

    Raises
    ------
    ValueError
        Malformed text, a hand size that cannot occur, more than four copies of a kind counting
        the visible tiles, rules="american" (not supported here yet) or unknown rules.

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
    """
    rules = _check_rules(rules)
    h = read_hand(hand, visible)
    conc = h.concealed
    n = int(conc.sum())
    forms = tuple(f for f in _rules.facts(rules)[0] if hands._forms_sizes(hands.form_bits(f, rules), 1 << n))
    seen = h.seen
    by_form = {f: int(hands.shanten_rows(conc[None, :], hands.form_bits(f, rules), h.called)[0]) for f in forms}
    sh = min(by_form.values())
    bits = hands.form_bits("all", rules)
    vis = {_NAMES[k]: int(seen[k]) for k in np.flatnonzero(seen).tolist()}
    complete, decomps, waits, eff, eff_count, options = False, [], [], {}, 0, []
    if n % 3 == 1:
        (_, eff, eff_count, waits), = _options(conc[None, :], seen[None, :], bits, h.called)
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
        options = [DiscardOption(_NAMES[int(held[i])], *res[i]) for i in order]
    return HandAnalysis(h.text, rules_label(rules), n + 3 * len(h.melds), n, h.melds, vis, sh, by_form, complete,
                        decomps, waits, eff, eff_count, options)


_NAMES = [tiles.tile_name(k) for k in range(34)]


def _options(rows: np.ndarray, seen_rows: np.ndarray, bits: int, called: np.ndarray) -> list:
    """(shanten, effective tiles, unseen count, waits) of each 3k+1 row, with one kernel call for
    the rows and one for every row plus every kind (the numbers of mjfast.effective_tiles and
    mjfast.waits, computed together). ``called``: the hand's called tiles (they count against
    the four copies of a kind)."""
    n = len(rows)
    base = hands.shanten_rows(rows, bits, called)
    addable = rows + called < 4
    plus = np.repeat(rows, 34, axis=0)
    plus[np.arange(34 * n), np.tile(np.arange(34), n)] += addable.reshape(-1).astype(np.uint8)
    after = hands.shanten_rows(plus, bits, called).reshape(n, 34)
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
