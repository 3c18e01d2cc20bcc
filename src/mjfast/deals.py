"""Random deals and Monte Carlo deal statistics for every rule set.

Rule presets (see docs/rules.md and mjfast.rules):

============  ========  =======================================  ================================
rules         tiles     bonus tiles                               forms classified by deal_stats
============  ========  =======================================  ================================
classical     136       none (``flowers=True``: 144, set aside    standard
                        and replaced from the back end)
basic         136       none (seed 001's game)                    standard
mcr           144       set aside and replaced (Chinese Official)  standard, seven_pairs (a kong
                                                                  counts as two pairs),
                                                                  thirteen_orphans, honors_knitted,
                                                                  knitted_straight
american      144 + 8   none: the 8 flowers are ordinary tiles;   beginner (3 sets of four + a
              jokers    ``jokers`` changes the joker count        pair, jokers in the sets)
============  ========  =======================================  ================================

East (the dealer) gets 14 tiles, the others 13. Random streams: deal ``i`` of a run is a pure
function of the seed and ``i`` (its own xoshiro256** stream keyed by numpy's SeedSequence), so
the same seed gives bit-identical deals whatever the thread count, chunk size or backend, and
``deal(n, seed=s, start=k)`` returns deals k .. k+n-1 of the run with seed ``s``. The fast path
deals from a uniformly shuffled set; :mod:`mjfast.wall` implements the physical procedure
(walls, dice, 4-4-4 deal, replacement from the back end), which has the same distribution.
"""
from __future__ import annotations

import dataclasses
import numbers
from typing import Any

import numpy as np

from . import _core, tiles
from . import rules as _rules
from ._display import Display, Displayed, Table, fmt, frame, interval, render_text, require_pandas
from ._kernels import deal as _deal
from ._runtime import dask as _dask
from ._runtime.progress import Progress, attach_partial, timed_chunks
from ._runtime.seeding import root_key, seed_to_json
from ._runtime.threads import resolve_threads
from ._runtime.validation import check_count, check_flag
from .hands._input import register_deals
from .hands._standard import form_bits
from .stats import Estimate

DEAL_RULES = _rules.names()
SEATS = ("dealer", "non_dealer")
_N_BINS = _deal.N_SHANTEN_BINS
_N_COUNT = _deal.N_COUNT_BINS
MAX_DEAL_BYTES = 8 << 30  # deal() refuses outputs above 8 GiB: stream with deal_stats or start=


@dataclasses.dataclass(frozen=True)
class DealSpec:
    """A rule preset resolved to what the kernels need."""

    rules: str
    n_tiles: int
    replace_bonus: bool
    flowers: bool
    jokers: int
    forms: tuple
    form_bits: tuple
    rule_set: _rules.RuleSet | None = dataclasses.field(repr=False, compare=False, default=None)
    american: bool = False     # the American hand model (one form, flowers a kind, jokers)
    all_joker_sets: bool = True  # American: the rules' joker reading of the beginner hand

    @property
    def options(self) -> dict:
        return {"flowers": self.flowers, "jokers": self.jokers, "tiles": self.n_tiles}

    @property
    def stats_options(self) -> dict:
        """The options of deal statistics: the tile set's, and the American joker reading when
        it is not the default (the beginner-hand distances depend on it; the deals do not)."""
        if self.american and not self.all_joker_sets:
            return {**self.options, "all_joker_sets": False}
        return self.options


def deal_spec(rules: str = "classical", *, flowers: bool | None = None, jokers: int | None = None,
              forms=None) -> DealSpec:
    """Resolve a rule preset and its options; raises ValueError/TypeError for bad ones.

    ``forms`` (deal_stats only) replaces the rule set's forms by the given form names.
    """
    spec = _preset(rules, flowers, jokers)
    if forms is None:
        return spec
    if spec.american:
        raise ValueError(f"forms cannot be chosen for rules={spec.rules!r} (its one form is the beginner hand)")
    if isinstance(forms, str) or not all(isinstance(f, str) for f in forms):
        raise TypeError("forms must be a sequence of form names, e.g. ('standard', 'seven_pairs')")
    forms = tuple(dict.fromkeys(forms))
    if not forms or len(forms) > 7:
        raise ValueError("forms must name between 1 and 7 forms")
    bits = tuple(form_bits(f, spec.rule_set) for f in forms)  # raises for unknown names and "all"
    if "all" in forms:
        raise ValueError("'all' is always reported (the minimum over forms); do not list it")
    return dataclasses.replace(spec, forms=forms, form_bits=bits)


def _preset(rules, flowers, jokers) -> DealSpec:
    """The tile set and forms of a rule set (a name or a RuleSet); ``flowers`` (rule sets with
    that option) and ``jokers`` (the American set: 0-16, TileSet.MAX_JOKERS, beyond the 10 of
    play) override its tile set."""
    r = _rules.get(rules)
    if flowers is not None and not isinstance(flowers, (bool, np.bool_)):
        raise TypeError(f"flowers must be True, False or None, not {type(flowers).__name__}")
    ts = r.tile_set
    if jokers is not None and r.hand_model != "american":
        raise ValueError(f"jokers is an option of rules='american' only (got rules={r.name!r})")
    if r.hand_model == "american":
        if flowers is False:
            raise ValueError("the American set always holds its 8 flowers; flowers=False is not an option there")
        j = ts.jokers if jokers is None else jokers
        if isinstance(j, bool) or not isinstance(j, numbers.Integral):
            raise TypeError(f"jokers must be an int, not {type(j).__name__}")
        if not 0 <= int(j) <= _rules.TileSet.MAX_JOKERS:
            raise ValueError(f"jokers must be between 0 and {_rules.TileSet.MAX_JOKERS}, got {j}")
        return DealSpec(r.name, 144 + int(j), False, True, int(j), r.forms, (0,), r, True,
                        bool(getattr(r, "all_joker_sets", True)))
    if flowers is not None:
        r = r.replace(flowers=bool(flowers))
        ts = r.tile_set
    return DealSpec(r.name, ts.n_tiles, ts.replace_bonus, ts.flowers, 0, r.forms,
                    tuple(form_bits(f, r) for f in r.forms), r, False)


def _check_n(n, name: str = "n") -> int:
    return check_count(n, name)


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Deals(Displayed):
    """A batch of deals (see :func:`deal`).

    ``repr`` (and Jupyter) show how the deals were made and the first few hands;
    ``to_pandas()`` gives one row per (deal, seat) with its tile counts; ``to_dict()`` the
    arrays as JSON lists.

    Attributes
    ----------
    hands : ndarray of shape (n, 4, 34), uint8
        Concealed standard tiles of East, South, West, North (East 14 tiles, others 13, bonus
        tiles already set aside and replaced; American: together with ``bonus`` and ``jokers``).
    bonus : ndarray of shape (n, 4, 8), uint8
        Bonus tiles f1..f8 each seat set aside (American: flowers held in the hand).
    jokers : ndarray of shape (n, 4), uint8
        Jokers held (American only; zeros otherwise).
    ids : ndarray of shape (n, 4, 14), uint8, or None
        With ``deal(..., ids=True)``: physical tile ids of each concealed hand in the order
        received (0-135: kind = id // 4, 136-143 bonus, 144+ jokers), padded with 255.
    rules, options, seed, start
        How the deals were made: ``deal(n, rules=rules, seed=seed, start=start, **options)``
        reproduces them.
    """

    hands: np.ndarray
    bonus: np.ndarray
    jokers: np.ndarray
    ids: np.ndarray | None
    rules: str
    options: dict
    seed: Any
    start: int

    def __len__(self) -> int:
        return len(self.hands)

    @property
    def dealer(self) -> np.ndarray:
        """East's 14-tile hands, shape (n, 34)."""
        return self.hands[:, 0]

    def hand_text(self, i: int, seat: int) -> str:
        """Deal ``i``'s hand of ``seat`` (0 = East .. 3 = North) as text, with its bonus tiles
        (American: flowers) and jokers."""
        return str(tiles.ParsedHand(self.hands[i, seat], bonus=np.minimum(self.bonus[i, seat], 1),
                                    jokers=int(self.jokers[i, seat])))

    def _attrs(self) -> dict:
        return {"rules": self.rules, "options": dict(self.options), "seed": seed_to_json(self.seed),
                "start": self.start, "n": len(self)}

    def to_dict(self) -> dict:
        """JSON-ready: how the deals were made (``rules``, ``options``, ``seed``, ``start``,
        ``n``) and the arrays as nested lists (``hands`` (n, 4, 34), ``bonus`` (n, 4, 8),
        ``jokers`` (n, 4), ``ids`` (n, 4, 14) or None).

        Examples
        --------
        >>> import json, mjfast
        >>> d = mjfast.deal(2, seed=1).to_dict()
        >>> d["n"], len(d["hands"]), sum(d["hands"][0][0]), len(json.dumps(d)) > 0
        (2, 2, 14, True)
        """
        return self._attrs() | {"hands": self.hands.tolist(), "bonus": self.bonus.tolist(),
                                "jokers": self.jokers.tolist(), "ids": None if self.ids is None else self.ids.tolist()}

    def to_pandas(self, text: bool = False):
        """One row per (deal, seat): ``deal`` (its index in the run: start + i), ``seat`` (0 =
        East, the dealer), ``tiles`` (the hand's size), the 34 counts ``1m`` .. ``7z``, the
        bonus tiles ``f1`` .. ``f8`` and ``jokers`` (uint8), and with ``text=True`` the hand
        as text (``hand``; one Python call per row: slower). ``df.attrs`` holds rules,
        options, seed, start and n (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> df = mjfast.deal(3, seed=1).to_pandas(text=True)   # doctest: +SKIP
        >>> df.shape, df["tiles"].tolist()[:4], str(df["1m"].dtype)   # doctest: +SKIP
        ((12, 47), [14, 13, 13, 13], 'uint8')
        """
        pd = require_pandas("Deals.to_pandas()")
        n = len(self)
        counts = self.hands.reshape(n * 4, 34)
        data: dict = {"deal": np.repeat(np.arange(self.start, self.start + n, dtype=np.int64), 4),
                      "seat": np.tile(np.arange(4, dtype=np.int64), n),
                      "tiles": (counts.sum(axis=1, dtype=np.int64) + self.jokers.reshape(-1)
                                + (self.bonus.reshape(n * 4, 8).sum(axis=1, dtype=np.int64)
                                   if self.rules == "american" else 0))}
        if text:
            data["hand"] = pd.Series([self.hand_text(i, s) for i in range(n) for s in range(4)],
                                     dtype="str" if int(pd.__version__.split(".")[0]) >= 3 else "string")
        data.update({tiles.tile_name(k): counts[:, k] for k in range(34)})
        data.update({f"f{k + 1}": self.bonus.reshape(n * 4, 8)[:, k] for k in range(8)})
        data["jokers"] = self.jokers.reshape(-1)
        df = pd.DataFrame(data)
        df.attrs.update(self._attrs())
        return df

    def _display(self) -> Display:
        n, show = len(self), min(len(self), 5)
        rows = [[self.start + i] + [self.hand_text(i, s) for s in range(4)] for i in range(show)]
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        notes = [f"... {n - show:,} more deals: .hands {self.hands.shape}, .to_pandas()"] if n > show else []
        return Display(f"Deals: {n:,} deals, rules={self.rules} ({opts}), seed={seed_to_json(self.seed)}, "
                       f"start={self.start}" + (", with tile ids" if self.ids is not None else ""),
                       [Table(("deal", "East (dealer)", "South", "West", "North"), rows)], notes)


def _out_arrays(out, n: int, ids: bool):
    """The arrays of a Deals passed as ``out=``, checked to hold n deals (and ids if wanted)."""
    if not isinstance(out, Deals):
        raise TypeError(f"out must be a Deals returned by mjfast.deal, not {type(out).__name__}")
    if ids and out.ids is None:
        raise ValueError("out has no ids array; make it with ids=True to deal with ids=True into it")
    arrays: list[tuple[np.ndarray | None, tuple[int, ...], str]] = [
        (out.hands, (n, 4, 34), "hands"), (out.bonus, (n, 4, 8), "bonus"), (out.jokers, (n, 4), "jokers")]
    if ids:
        arrays.append((out.ids, (n, 4, 14), "ids"))
    for arr, shape, name in arrays:
        if not isinstance(arr, np.ndarray) or arr.shape != shape or arr.dtype != np.uint8:
            got = getattr(arr, "shape", None)
            raise ValueError(f"out.{name} must be a uint8 array of shape {shape} for n={n}; got {got}")
        if not arr.flags.c_contiguous or not arr.flags.writeable:
            raise ValueError(f"out.{name} must be C-contiguous and writeable")
    return out.hands, out.bonus, out.jokers, (out.ids if ids else None)


register_deals(Deals)     # hand functions take a Deals as a batch of hands


def deal(n: int, *, rules: str = "classical", seed=None, threads: int | None = None,
         flowers: bool | None = None, jokers: int | None = None, start: int = 0, ids: bool = False,
         out: Deals | None = None, progress: bool = True) -> Deals:
    """Deal ``n`` random deals.

    Parameters
    ----------
    n : int
        Number of deals.
    rules : {"classical", "basic", "mcr", "american"}
        Rule preset (see the module docstring for the tile sets).
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        Deal i depends only on (seed, start + i). None draws fresh entropy; ``Deals.seed``
        then tells how to repeat the run.
    threads : int or None
        Threads (None = all CPUs). Never changes the result.
    flowers : bool, optional
        ``rules="classical"``: play with the 8 bonus tiles (144 tiles).
    jokers : int, optional
        ``rules="american"``: number of jokers (default 8).
    start : int
        Index of the first deal, so that runs can be split: ``deal(10, seed=1, start=5)``
        equals deals 5..14 of ``deal(20, seed=1)``.
    ids : bool
        Also return the physical tile ids of every hand (``Deals.ids``).
    out : Deals, optional
        A previous result with room for ``n`` deals (and ids if ``ids=True``) whose arrays are
        overwritten instead of allocating new ones; the returned Deals shares them. Useful
        when dealing many batches in a loop (with ``start=``): fresh arrays cost the
        operating system a page fault and a zeroed page per 4 KiB, about a fifth of the
        dealing time.
    progress : bool
        A progress bar on stderr when dealing takes more than half a second (millions of
        deals; on a terminal, see :func:`mjfast.set_options`).

    Returns
    -------
    Deals

    Examples
    --------
    >>> import mjfast
    >>> d = mjfast.deal(3, seed=1)
    >>> d.hands.shape, d.hands.sum(axis=2)[0].tolist()
    ((3, 4, 34), [14, 13, 13, 13])
    >>> bool((mjfast.deal(2, seed=1, start=1).hands == d.hands[1:]).all())
    True
    >>> m = mjfast.deal(1000, rules="mcr", seed=2)
    >>> int(m.bonus.sum()) > 0
    True
    >>> buf = mjfast.deal(2, seed=1)
    >>> again = mjfast.deal(2, seed=1, start=1, out=buf)   # reuses buf's arrays
    >>> again.hands is buf.hands, bool((again.hands == d.hands[1:]).all())
    (True, True)
    """
    n = _check_n(n)
    start = _check_n(start, "start")
    spec = deal_spec(rules, flowers=flowers, jokers=jokers)
    if not isinstance(ids, (bool, np.bool_)):
        raise TypeError("ids must be True or False")
    progress = check_flag("progress", progress)
    if n * 228 > MAX_DEAL_BYTES:
        raise ValueError(f"n={n:,} deals would need {n * 228 / 2**30:.1f} GiB; deal in pieces with start=, "
                         "or use deal_stats() for statistics over any number of deals")
    key = root_key(seed)
    if out is None:
        # zeros (fresh pages from the OS, zeroed on first touch anyway): the 136-tile sets
        # never touch bonus / jokers
        hands = np.zeros((n, 4, 34), np.uint8)
        bonus = np.zeros((n, 4, 8), np.uint8)
        jok = np.zeros((n, 4), np.uint8)
        id_arr = np.empty((n, 4, 14), np.uint8) if ids else None
    else:
        hands, bonus, jok, id_arr = _out_arrays(out, n, ids)
    threads = resolve_threads(threads)
    bar = Progress(n, label=f"deal {spec.rules}", unit="deals", enabled=progress)
    try:
        for lo, m in timed_chunks(0, n, 1 << 22, 1 << 16):  # pieces of ~0.1 s: Ctrl-C stops a big deal quickly
            _deal.deal_batch(m, start + lo, key.k0, key.k1, spec.n_tiles, spec.replace_bonus, hands[lo : lo + m],
                             bonus[lo : lo + m], jok[lo : lo + m], None if id_arr is None else id_arr[lo : lo + m],
                             threads, out is None)
            bar.update(lo + m)
    finally:
        bar.close()
    return Deals(hands, bonus, jok, id_arr, spec.rules, spec.options, key.seed_value(), start)


@dataclasses.dataclass(eq=False, repr=False)
class DealStats(Displayed):
    """Monte Carlo statistics of deals (see :func:`deal_stats`). Merge runs with ``a + b``.

    Seats: ``"dealer"`` (East, 14 tiles) and ``"non_dealer"`` (South, 13 tiles).

    Attributes
    ----------
    rules : str
    n : int
        Number of deals.
    forms : tuple of str
        Forms classified; ``"all"`` (their minimum) comes on top.
    shanten : dict
        ``shanten[seat][form]`` = int64 counts of shanten -1, 0, 1, ... (index = shanten + 1).
    four_of_a_kind : dict
        ``four_of_a_kind[seat]`` = deals in which that hand holds some kind four times.
    bonus, jokers : dict
        ``bonus[seat][k]`` = deals in which that seat received k bonus tiles (American: flowers
        held); ``jokers[seat][k]`` likewise for jokers.
    seeds : tuple
        The seed of each merged run (None for a run seeded by a Generator).
    options : dict
        Tile-set options (flowers, jokers, tiles); ``all_joker_sets: False`` when American
        statistics were taken under that joker reading (``rules=mjfast.rules.get("american",
        all_joker_sets=False)``).
    """

    rules: str
    n: int
    forms: tuple
    shanten: dict
    four_of_a_kind: dict
    bonus: dict
    jokers: dict
    seeds: tuple
    options: dict

    @classmethod
    def _from_hist(cls, spec: DealSpec, n: int, hist: np.ndarray, seed) -> DealStats:
        nf = len(spec.forms)
        names = spec.forms + ("all",)
        shan: dict[str, dict[str, np.ndarray]] = {seat: {} for seat in SEATS}
        for e, seat in enumerate(SEATS):
            for f, name in enumerate(names):
                lo = (e * (nf + 1) + f) * _N_BINS
                shan[seat][name] = hist[lo : lo + _N_BINS].copy()
        base_four = 2 * (nf + 1) * _N_BINS
        base_bonus = base_four + 2
        base_jok = base_bonus + 2 * _N_COUNT
        four = {seat: int(hist[base_four + e]) for e, seat in enumerate(SEATS)}
        bonus = {seat: hist[base_bonus + e * _N_COUNT : base_bonus + (e + 1) * _N_COUNT].copy()
                 for e, seat in enumerate(SEATS)}
        jok = {seat: hist[base_jok + e * _N_COUNT : base_jok + (e + 1) * _N_COUNT].copy() for e, seat in enumerate(SEATS)}
        return cls(spec.rules, n, spec.forms, shan, four, bonus, jok, (seed,), spec.stats_options)

    # -- merging ---------------------------------------------------------------------------
    def __add__(self, other: DealStats) -> DealStats:
        if not isinstance(other, DealStats):
            return NotImplemented
        if (self.rules, self.forms, self.options) != (other.rules, other.forms, other.options):
            raise ValueError(f"cannot merge deal statistics of different rule sets or options: "
                             f"{self.rules} {self.options} vs {other.rules} {other.options}")
        return DealStats(
            self.rules, self.n + other.n, self.forms,
            {s: {f: self.shanten[s][f] + other.shanten[s][f] for f in self.shanten[s]} for s in SEATS},
            {s: self.four_of_a_kind[s] + other.four_of_a_kind[s] for s in SEATS},
            {s: self.bonus[s] + other.bonus[s] for s in SEATS},
            {s: self.jokers[s] + other.jokers[s] for s in SEATS},
            self.seeds + other.seeds, self.options,
        )

    # -- estimates -------------------------------------------------------------------------
    def _seat(self, seat: str) -> str:
        if seat not in SEATS:
            raise ValueError(f"seat must be one of {SEATS}, got {seat!r}")
        return seat

    def _form(self, form: str) -> str:
        if form not in self.shanten["dealer"]:
            raise ValueError(f"form must be one of {self.forms + ('all',)} for rules={self.rules!r}, got {form!r}")
        return form

    def shanten_estimates(self, seat: str = "dealer", form: str = "all") -> dict:
        """{shanten: Estimate} for every shanten value seen (-1 = complete)."""
        counts = self.shanten[self._seat(seat)][self._form(form)]
        return {k - 1: Estimate.from_counts(c, self.n) for k, c in enumerate(counts) if c}

    def complete(self, seat: str = "dealer", form: str = "all") -> Estimate:
        """Probability that the deal is already a complete hand (shanten -1)."""
        return Estimate.from_counts(self.shanten[self._seat(seat)][self._form(form)][0], self.n)

    def tenpai(self, seat: str = "dealer", form: str = "all") -> Estimate:
        """Probability that the deal is tenpai (shanten exactly 0)."""
        return Estimate.from_counts(self.shanten[self._seat(seat)][self._form(form)][1], self.n)

    def four(self, seat: str = "dealer") -> Estimate:
        """Probability that the hand holds some kind four times."""
        return Estimate.from_counts(self.four_of_a_kind[self._seat(seat)], self.n)

    # -- output ----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The stable JSON schema (documented in the README)."""
        out = {"rules": self.rules, "n": self.n, "seed": _seed_json(self.seeds), "options": dict(self.options),
               "forms": list(self.forms) + ["all"]}
        for seat in SEATS:
            sh = {f: {str(k - 1): int(c) for k, c in enumerate(v) if c} for f, v in self.shanten[seat].items()}
            out[seat] = {
                "tiles": 14 if seat == "dealer" else 13,
                "shanten": sh,
                "complete": self.complete(seat).to_dict(),
                "tenpai": self.tenpai(seat).to_dict(),
                "four_of_a_kind": self.four(seat).to_dict(),
                "bonus_tiles": {str(k): int(c) for k, c in enumerate(self.bonus[seat]) if c},
                "jokers": {str(k): int(c) for k, c in enumerate(self.jokers[seat]) if c},
            }
        return out

    # -- notebooks: repr, HTML, pandas ------------------------------------------------------
    def _records(self) -> list:
        rows = []
        for seat in SEATS:
            for form in self.forms + ("all",):
                for s, e in self.shanten_estimates(seat, form).items():
                    rows.append({"seat": seat, "tiles": 14 if seat == "dealer" else 13, "form": form, "shanten": s,
                                 "count": e.count, "n": e.n, "p": e.p, "se": e.se, "low": e.low, "high": e.high,
                                 "one_in": e.one_in})
        return rows

    def _attrs(self) -> dict:
        return {"rules": self.rules, "n": self.n, "seed": _seed_json(self.seeds), "options": dict(self.options),
                "forms": list(self.forms) + ["all"],
                "four_of_a_kind": {seat: int(self.four_of_a_kind[seat]) for seat in SEATS}}

    def to_pandas(self):
        """The shanten distributions as a tidy DataFrame: one row per seat, form (``"all"``
        included) and shanten seen, with ``count``, ``n``, ``p``, ``se``, ``low``, ``high``
        (95% Wilson interval) and ``one_in``. ``df.attrs`` holds rules, n, seed, options,
        forms and the four-of-a-kind counts (needs pandas).

        Examples
        --------
        >>> import mjfast
        >>> df = mjfast.deal_stats(2000, seed=1, progress=False).to_pandas()   # doctest: +SKIP
        >>> df.groupby(["seat", "form"])["count"].sum().tolist(), str(df["shanten"].dtype)   # doctest: +SKIP
        ([2000, 2000, 2000, 2000], 'int64')
        """
        cols = ("seat", "tiles", "form", "shanten", "count", "n", "p", "se", "low", "high", "one_in")
        return frame(cols, self._records(), what="DealStats.to_pandas()", attrs=self._attrs())

    def _display(self) -> Display:
        forms = self.forms + (("all",) if len(self.forms) > 1 else ())
        tables, notes = [], []
        for seat in SEATS:
            est = {f: self.shanten_estimates(seat, f) for f in forms}
            shanten = sorted(set().union(*est.values()))
            last = forms[-1]
            head = ("shanten",) + tuple(f"p({f})" if len(forms) > 1 else "p" for f in forms) + (
                "95% interval", "1 in", "count")
            rows = []
            for s in shanten:
                e = est[last].get(s)
                rows.append((s,) + tuple(est[f][s].p if s in est[f] else 0.0 for f in forms)
                            + ((interval(e.low, e.high), e.one_in, e.count) if e is not None else ("", None, 0)))
            title = f"{seat.replace('_', '-')} ({14 if seat == 'dealer' else 13} tiles)" + (
                f"; interval, 1 in and count of form {last}" if len(forms) > 1 else "")
            tables.append(Table(head, rows, title))
            f4 = self.four(seat)
            notes.append(f"{seat.replace('_', '-')}: some kind held four times {f4.p:.4g} {interval(f4.low, f4.high)}")
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return Display(f"DealStats: rules={self.rules} ({opts}), {self.n:,} deals, seed={_seed_json(self.seeds)}",
                       tables, notes)

    def table(self) -> str:
        """Readable tables: per seat and form, each shanten's probability with its 95% interval,
        "1 in N" and count, then the four-of-a-kind, bonus-tile and joker odds. The numbers are
        formatted as the ``repr`` formats them (about four significant digits, thousands
        separators); the ``repr`` is the shorter summary (every form's p side by side)."""
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        parts = [f"mjfast deal statistics: rules={self.rules} ({opts}), {self.n:,} deals, seed={_seed_json(self.seeds)}"]
        for seat in SEATS:
            tiles = 14 if seat == "dealer" else 13
            tables = []
            for form in self.forms + ("all",):
                if form == "all" and len(self.forms) == 1:
                    continue
                rows = [(s, e.p, interval(e.low, e.high), e.one_in, e.count)
                        for s, e in self.shanten_estimates(seat, form).items()]
                tables.append(Table(("shanten", "p", "95% interval", "1 in", "count"), rows, f"  form={form}"))
            f4 = self.four(seat)
            notes = [f"  four of a kind held: {fmt(f4.p)} {interval(f4.low, f4.high)}"]
            if self.options.get("flowers"):
                american = _rules.get(self.rules).hand_model == "american"
                name = "flowers held" if american else "bonus tiles received"
                notes.append(f"  {name}: " + ", ".join(f"{k}: {fmt(c / self.n)}" for k, c in enumerate(self.bonus[seat])
                                                       if c))
            if self.options.get("jokers"):
                notes.append("  jokers held: " + ", ".join(f"{k}: {fmt(c / self.n)}" for k, c in enumerate(self.jokers[seat])
                                                          if c))
            parts.append(render_text(Display(f"{seat.replace('_', '-')} ({tiles} tiles)", tables, notes),
                                     max_rows=1000))
        return "\n\n".join(parts)


def _seed_json(seeds: tuple):
    vals = [seed_to_json(s) for s in seeds]
    return vals[0] if len(vals) == 1 else vals


def deal_stats(n: int, *, rules: str = "classical", seed=None, threads: int | None = None, progress: bool = True,
               flowers: bool | None = None, jokers: int | None = None, forms=None,
               chunk_size: int = 1 << 20, backend: str = "local", client=None) -> DealStats:
    """Monte Carlo statistics of ``n`` random deals, streamed in chunks (bounded memory).

    For the dealer's 14 tiles and a non-dealer's 13 (South's): the shanten distribution of
    every form the rule set allows and of their minimum, the probability that the deal is
    complete, tenpai, or holds a four-of-a-kind, and the distribution of bonus tiles received
    (and jokers, American). Every estimate comes with its count, n, standard error and a 95%
    Wilson interval (:class:`mjfast.stats.Estimate`). Runs merge exactly with ``a + b``.

    Parameters
    ----------
    n : int
        Number of deals (any size: memory does not grow with n).
    rules : {"classical", "basic", "mcr", "american"}
    seed : None, int, SeedSequence or Generator
        The statistics are a pure function of (seed, n): the same whatever ``threads`` and
        ``chunk_size``; deal i is the same deal that :func:`deal` returns for this seed.
    threads : int or None
    progress : bool
        Show a progress bar on stderr when the run takes more than half a second (on a
        terminal; see :func:`mjfast.set_options`).
    flowers, jokers
        Tile-set options, as for :func:`deal`.
    forms : sequence of str, optional
        Classify these forms instead of the rule set's (e.g. ``("standard", "seven_pairs",
        "thirteen_orphans")`` for the riichi-style forms); "all" is their minimum. Under
        ``rules="mcr"`` seven pairs counts a four-of-a-kind as two pairs.
    chunk_size : int
        At most this many deals per kernel call (calls are also sized to take about 0.1 s, so
        that Ctrl-C stops quickly); with ``backend="dask"``, exactly the deals per Dask task.
        Never changes the result.
    backend : {"local", "dask"}
        ``"local"`` runs on this machine's threads. ``"dask"`` splits the deals into tasks of
        ``chunk_size`` deals, keyed by (seed, chunk), runs them on a Dask cluster and adds
        their exact counts: the result is bit-identical to the local run with the same seed
        (needs ``pip install "mjfast[dask]"``; ``threads`` is then the threads per task,
        default 1, resolved on this machine).
    client : distributed.Client, str or None
        ``backend="dask"`` only: the client to use (None = the current client, e.g. the last
        ``Client(...)`` created), or a scheduler address such as ``"tcp://scheduler:8786"``.

    Returns
    -------
    DealStats

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C, after the current chunk (well under a second); the statistics of the deals
        finished so far are attached as ``exc.partial``. On the Dask backend the outstanding
        tasks are cancelled, and the finished chunks need not be the first ones.

    Examples
    --------
    >>> import mjfast
    >>> st = mjfast.deal_stats(20000, seed=1, progress=False)
    >>> st.n, int(st.shanten["dealer"]["standard"].sum())
    (20000, 20000)
    >>> t = st.tenpai("dealer")
    >>> t.low <= t.p <= t.high
    True
    >>> both = st + mjfast.deal_stats(20000, seed=2, progress=False)
    >>> both.n
    40000
    """
    n = _check_n(n)
    chunk_size = _check_n(chunk_size, "chunk_size")
    if chunk_size == 0:
        raise ValueError("chunk_size must be positive")
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress must be True or False, not {type(progress).__name__}")
    backend = _dask.check_backend(backend, client)
    spec = deal_spec(rules, flowers=flowers, jokers=jokers, forms=forms)
    key = root_key(seed)
    if backend == "dask":
        bar = Progress(n, label=f"deal-stats {spec.rules}", unit="deals", enabled=bool(progress))
        threads = 1 if threads is None else resolve_threads(threads)
        pieces = (((spec, key.k0, key.k1, lo, min(chunk_size, n - lo), threads), min(chunk_size, n - lo))
                  for lo in range(0, n, chunk_size))

        def finish(hist, done):
            return DealStats._from_hist(spec, done, hist, key.seed_value())

        return _dask.run_chunks(client, _deal_stats_chunk, pieces, "mjfast-deal-stats", bar, finish,
                                _stats_zero(spec), _add_hist)
    threads = resolve_threads(threads)
    hist = _stats_zero(spec)
    done = 0
    local_bar: Progress | None = None
    try:
        _core.ensure_tables()      # before the bar starts: its rate and ETA must not count the one-time build
        local_bar = Progress(n, label=f"deal-stats {spec.rules}", unit="deals", enabled=bool(progress))
        for lo, m in timed_chunks(0, n, chunk_size, 1 << 16):
            hist += _deal_stats_chunk(spec, key.k0, key.k1, lo, m, threads)
            done += m
            local_bar.update(done)
    except KeyboardInterrupt as exc:
        if local_bar is not None:
            local_bar.close()
        attach_partial(exc, DealStats._from_hist(spec, done, hist, key.seed_value()))
        raise
    local_bar.close()
    return DealStats._from_hist(spec, n, hist, key.seed_value())


def _stats_zero(spec: DealSpec) -> np.ndarray:
    return np.zeros(_deal.stats_row_size(len(spec.form_bits)), np.int64)


def _add_hist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a += b
    return a


def _deal_stats_chunk(spec: DealSpec, k0: int, k1: int, start: int, count: int, threads: int = 1) -> np.ndarray:
    """Exact int64 counts (one stats row) of deals ``start .. start+count-1`` of the run keyed (k0, k1).

    A pure function of its arguments whatever ``threads`` is: the local loop and every Dask
    task call it, and rows of disjoint pieces add up to the row of their union.
    """
    _core.ensure_tables()
    bits = np.array(spec.form_bits, dtype=np.intc)
    hist = np.zeros((threads, _deal.stats_row_size(len(bits))), np.int64)
    _deal.stats_batch(count, start, k0, k1, spec.n_tiles, spec.replace_bonus, bits, spec.american,
                      hist, threads, spec.all_joker_sets)
    return hist.sum(axis=0)
