"""Standard odds tables as tidy records: deal odds, win-by-turn curves, win rates per seat.

:func:`odds_table` builds one of four kinds of table and returns an :class:`OddsTable`: a
list of records (one dict per row, the same keys in every row) that exports to pandas, CSV,
JSON and Markdown. Each kind reuses the library's own computations:

``"deal"``
    Shanten distribution of the dealt hand per rule set, seat and form:
    :func:`mjfast.exact_deal_odds` (``method="exact"``) or :func:`mjfast.deal_stats`
    (``method="monte_carlo"``).
``"win_by_turn"``
    P(tenpai) and P(won) by each draw t: from each starting shanten of random 13-tile hands
    (:func:`mjfast.win_by_turn_random`), or for given ``hands`` (:func:`mjfast.win_by_turn`,
    exact where the method allows).
``"win_rate"``
    Win rate, deal-in rate and mean points per seat and policy of simulated games
    (:func:`mjfast.simulate`).
``"mcr_ready"``
    Chinese Official deals one tile from a valid win: per seat, how often the dealt hand is
    ready at all, and ready with a wait whose win reaches ``min_fan`` (8) fans without
    flowers, on a discard or self-drawn (Monte Carlo over :func:`mjfast.deal`, the shanten and
    winning kernels and :func:`mjfast.mcr.fan_batch`).
``"american_lines"``
    Deal-time odds per line of an American card (``card=``): for the dealer's 14 tiles and a
    non-dealer's 13, how often the dealt hand is within ``d`` tiles of each line (Monte Carlo
    over :func:`mjfast.deal` and :meth:`mjfast.card.Card.distance`).
``"mcr_fans"``
    The fans of wins in Chinese Official play (:func:`mjfast.simulate` with ``games`` and
    ``policies``): how often hands end in a valid win or an exhaustive draw, the share of wins
    in which each fan counts, and the distribution of the hand fan (flowers not counted).

Estimated numbers carry their standard error and 95% interval (``*_se``, ``*_low``,
``*_high``); exact numbers have se 0 and a zero-width interval.
"""
from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import json
import math
from fractions import Fraction
from typing import Any

import numpy as np

from .. import _core, deals, exact
from .. import game as sim
from .._display import Display, Displayed, Table, frame, text_width
from .._kernels import deal as _deal
from .._runtime.progress import Progress, shared_bar, timed_chunks
from .._runtime.seeding import root_key, seed_to_json
from .._runtime.threads import resolve_threads
from .._runtime.validation import check_choice, check_count
from ..card import Card, load_card
from ..hands._standard import form_bits, is_mcr
from ..mcr import FANS
from ..mcr._fan import win_fans
from ..mcr._input import check_min_fan
from ..stats import Estimate
from . import winturn

KINDS = ("deal", "win_by_turn", "win_rate", "mcr_ready", "mcr_fans", "american_lines")
_SEATS = (("dealer", 14), ("non_dealer", 13))


class _KindDefault:
    """The default ``rules`` of :func:`odds_table`: "classical", or "mcr" for kind "mcr_ready"."""

    def __repr__(self) -> str:
        return "<'classical'; 'mcr' for kinds 'mcr_ready' and 'mcr_fans'>"


_RULES_DEFAULT: Any = _KindDefault()


@dataclasses.dataclass(frozen=True, repr=False)
class OddsTable(Displayed):
    """A tidy table: ``rows`` (list of dicts with the keys ``columns``) plus ``meta``.

    ``repr`` (and Jupyter) show it rounded; ``str()`` / ``table()`` as aligned text to 6
    digits; ``to_pandas()``, ``to_dict()``, ``to_csv()``, ``to_json()`` and ``to_markdown()``
    export it.

    Examples
    --------
    >>> import mjfast
    >>> t = mjfast.odds_table("deal", rules="classical")
    >>> t.columns[:5]
    ('rules', 'seat', 'tiles', 'form', 'shanten')
    >>> print(t.to_csv().splitlines()[0])
    rules,seat,tiles,form,shanten,p,se,low,high,one_in,count,n,exact,method
    """

    kind: str
    columns: tuple
    rows: list
    meta: dict = dataclasses.field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def column(self, name: str) -> list:
        """All values of one column, in row order."""
        if name not in self.columns:
            raise KeyError(f"no column {name!r}; columns are {self.columns}")
        return [r[name] for r in self.rows]

    def select(self, **where) -> OddsTable:
        """The rows whose columns equal the given values, e.g. ``select(seat="dealer")``."""
        rows = [r for r in self.rows if all(r.get(k) == v for k, v in where.items())]
        return OddsTable(self.kind, self.columns, rows, dict(self.meta))

    def to_pandas(self):
        """The table as a pandas DataFrame, one column per ``columns`` with its dtype (int64,
        float64, a string dtype; the nullable Int64 where some rows have no value, such as
        ``count`` of exact rows); ``df.attrs`` holds ``meta`` (needs pandas:
        ``pip install "mjfast[pandas]"``).

        Examples
        --------
        >>> import mjfast
        >>> df = mjfast.odds_table("deal", rules="classical").to_pandas()   # doctest: +SKIP
        >>> str(df["shanten"].dtype), str(df["p"].dtype), str(df["count"].dtype)   # doctest: +SKIP
        ('int64', 'float64', 'Int64')
        """
        dtypes = {c: "Int64" for c in ("count", "n", "hands") if c in self.columns}
        if self.kind == "win_rate":      # seat: missing in the per-policy rows
            dtypes["seat"] = "Int64"
        dtypes.update({c: "text" for c in ("exact", "hand", "policy", "rules", "fan", "chinese") if c in self.columns})
        return frame(self.columns, self.rows, what="OddsTable.to_pandas()", attrs=self.meta, dtypes=dtypes)

    def to_dict(self) -> dict:
        """JSON-ready ``{"kind", "meta", "columns", "rows"}`` (what :meth:`to_json` writes;
        non-finite floats as "inf" / None, exact fractions as "p/q")."""
        return {"kind": self.kind, "meta": _jsonable(self.meta), "columns": list(self.columns),
                "rows": [_jsonable(r) for r in self.rows]}

    def _display(self) -> Display:
        title = ", ".join(f"{k}={v}" for k, v in self.meta.items() if not isinstance(v, (list, dict)))
        return Display(f"OddsTable: {self.kind}" + (f" ({title})" if title else "") + f", {len(self.rows):,} rows",
                       [Table(self.columns, [[r[c] for c in self.columns] for r in self.rows])])

    def to_records(self) -> list:
        """The rows as a list of plain dicts (a copy)."""
        return [dict(r) for r in self.rows]

    def _cols(self, columns) -> tuple:
        if columns is None:
            return self.columns
        columns = tuple(columns)
        bad = [c for c in columns if c not in self.columns]
        if bad:
            raise KeyError(f"no column {bad[0]!r}; columns are {self.columns}")
        return columns

    def to_csv(self, path=None, columns=None) -> str:
        """CSV text (header + one line per row; floats at full precision); written to ``path`` if given."""
        cols = self._cols(columns)
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(cols)
        for r in self.rows:
            w.writerow(["" if r[c] is None else (repr(r[c]) if isinstance(r[c], float) else r[c]) for c in cols])
        return _maybe_write(buf.getvalue(), path)

    def to_json(self, path=None, indent: int | None = 1) -> str:
        """JSON text ``{"kind", "meta", "columns", "rows"}``; written to ``path`` if given. Strict
        JSON: a number with no value (NaN) is null, never a bare ``NaN`` token."""
        return _maybe_write(json.dumps(self.to_dict(), indent=indent, allow_nan=False), path)

    def to_markdown(self, path=None, digits: int = 6, columns=None) -> str:
        """A GitHub-flavoured Markdown table (floats to ``digits`` significant digits)."""
        cols = self._cols(columns)
        head = "| " + " | ".join(cols) + " |"
        sep = "|" + "|".join("---:" if self._numeric(c) else "---" for c in cols) + "|"
        body = ["| " + " | ".join(_fmt(r[c], digits) for c in cols) + " |" for r in self.rows]
        return _maybe_write("\n".join([head, sep] + body) + "\n", path)

    def table(self, digits: int = 6, columns=None) -> str:
        """Plain aligned text."""
        cols = self._cols(columns)
        cells = [list(cols)] + [[_fmt(r[c], digits) for c in cols] for r in self.rows]
        # aligned by the columns a cell takes on a terminal: a Chinese fan name takes two per character
        widths = [max(text_width(row[i]) for row in cells) for i in range(len(cols))]
        lines = ["  ".join(" " * (w - text_width(v)) + v for v, w in zip(row, widths)) for row in cells]
        title = ", ".join(f"{k}={v}" for k, v in self.meta.items() if not isinstance(v, (list, dict)))
        return (f"odds table: {self.kind}" + (f" ({title})" if title else "") + "\n" + "\n".join(lines))

    __str__ = table

    def _numeric(self, c) -> bool:
        vals = [r[c] for r in self.rows if r[c] is not None]
        return bool(vals) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals)


def _maybe_write(text: str, path) -> str:
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text


def _jsonable(v):
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return None if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    if hasattr(v, "item"):
        return v.item()
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    return str(v)


def _fmt(v, digits: int) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    return str(v)


def _rules_list(rules) -> list:
    if rules is None or isinstance(rules, str):
        return [rules]
    if not isinstance(rules, (list, tuple)):
        raise TypeError(f"rules must be a rule set name, None, or a list of them, not {type(rules).__name__}")
    rules = list(rules)
    if not rules:
        raise ValueError("rules must name at least one rule set")
    return rules


def odds_table(kind: str, *, rules=_RULES_DEFAULT, method: str | None = None, hands: Any = None,
               draws: int = 18, samples: int | None = None, games: int | None = None, policies="greedy",
               policy: str = "greedy", by: str = "seat", seed=None, threads: int | None = None,
               progress: bool = True, as_frame: bool = False, min_fan: int | None = None, card: Any = None,
               deals: int | None = None):
    """Build a standard odds table (tidy rows; see :class:`OddsTable` for the exports).

    Parameters
    ----------
    kind : {"deal", "win_by_turn", "win_rate", "mcr_ready", "mcr_fans", "american_lines"}
        What the table holds (see :mod:`mjfast.analysis.odds`).
    rules : str, None or sequence
        One rule set or several (rows carry a ``rules`` column). "deal": classical, basic,
        mcr, american; "win_by_turn": classical, basic, mcr, None; "win_rate": classical,
        basic, mcr; "mcr_ready" and "mcr_fans": mcr; "american_lines": american. Default
        "classical" ("mcr" for "mcr_ready" and "mcr_fans", "american" for "american_lines").
    method : {"exact", "monte_carlo"} or None
        "deal": exact (default; the Chinese Official "all" takes about 10 s per seat) or Monte
        Carlo. "win_by_turn" with ``hands``: passed to :func:`mjfast.win_by_turn` (default
        "auto"); random hands are always Monte Carlo.
    hands : str or sequence of str, optional
        "win_by_turn": these hands instead of random 13-tile hands grouped by starting shanten.
    draws : int, default 18
        "win_by_turn": number of draws T.
    samples : int, optional
        "win_by_turn": Monte Carlo samples (default 100,000). For "deal", "mcr_ready" and
        "american_lines" it is the earlier spelling of ``deals`` and still accepted.
    games : int, optional
        "win_rate" and "mcr_fans": games to simulate (each = 4 hands; default 2,000).
    policies : str or sequence of 4 str
        "win_rate" and "mcr_fans": the seats' policies, as :func:`mjfast.simulate`.
    policy : {"greedy", "first", "greedy_swap"}
        "win_by_turn": the drawing policy (see :mod:`mjfast.analysis.winturn`).
    by : {"seat", "policy"}
        "win_rate": one row per seat (with its policy), or one row per policy with its seats
        pooled (``seat`` is then None).
    seed, threads, progress
        As for the underlying functions; ``seed`` makes every Monte Carlo table reproducible.
    as_frame : bool, default False
        Return ``table.to_pandas()`` (a DataFrame; needs pandas) instead of the OddsTable.
    min_fan : int, optional
        "mcr_ready" only: the minimum of a valid win, fans without flowers (default 8).
    card : mjfast.card.Card, path or mapping
        "american_lines" only (required): the card whose lines the table covers.
    deals : int, optional
        Monte Carlo size of the deal kinds: deals for "deal" with ``method="monte_carlo"``
        (default 1,000,000), "mcr_ready" and "american_lines" (default 100,000). Each kind's
        size has the name the command line gives it (``--deals``, ``--samples``, ``--games``);
        a size that the kind does not count is an error.

    Returns
    -------
    OddsTable (or pandas.DataFrame with ``as_frame=True``)

    Notes
    -----
    "mcr_ready" rows, per seat (``dealer``: East's 14 tiles, seat wind E; ``non_dealer``:
    South's 13, seat wind S; prevalent wind E) and ``event``:

    - ``ready``: the dealt hand is one tile from a win under the Chinese Official forms (13
      tiles: tenpai; 14 tiles: some discard leaves it tenpai, a complete hand included);
    - ``ready_min_fan``: ready with a wait whose win on a discard scores at least ``min_fan``
      fans (for the dealer, after some discard);
    - ``ready_min_fan_self_drawn``: the same, the win self-drawn;
    - ``min_fan_given_ready``: ``ready_min_fan`` among the ready hands (n = ready count).

    Flowers never count; a wait is any kind the hand does not hold four times (other
    players' tiles are not looked at).

    "american_lines" rows, per seat (``dealer``: 14 tiles, ``non_dealer``: 13), line and
    ``at_most`` = 0 .. 14: ``p`` = P(the dealt hand is within ``at_most`` tiles of the line),
    cumulative, so the row ``at_most = 14`` is 1 (``distance`` counts tiles still needed, as
    :meth:`~mjfast.card.Card.distance`; no exposures, nothing visible). The deals are those
    of ``mjfast.deal(n, rules="american", seed=seed)``.

    The deals of "mcr_ready" are those of ``mjfast.deal(n, rules="mcr", seed=seed)``: the table
    is a pure function of (seed, deals, min_fan), whatever ``threads``.

    Examples
    --------
    >>> import mjfast
    >>> t = mjfast.odds_table("win_by_turn", hands="123m456p789s1122z", draws=4)
    >>> [round(p, 4) for p in t.column("win")]
    [0.0325, 0.0642, 0.0952, 0.1253]
    >>> r = mjfast.odds_table("win_rate", games=200, seed=1, progress=False)
    >>> len(r), r.rows[0]["seat"], r.rows[0]["hands"]
    (4, 0, 800)
    >>> m = mjfast.odds_table("mcr_ready", deals=20_000, seed=1, progress=False)
    >>> [(r["seat"], r["event"], r["count"], r["n"]) for r in m.rows][:4]   # doctest: +NORMALIZE_WHITESPACE
    [('dealer', 'ready', ..., 20000), ('dealer', 'ready_min_fan', ..., 20000),
     ('dealer', 'ready_min_fan_self_drawn', ..., 20000), ('dealer', 'min_fan_given_ready', ..., ...)]
    """
    check_choice("kind", kind, KINDS)
    if method is not None and not isinstance(method, str):
        raise TypeError(f"method must be a str or None, not {type(method).__name__}")
    if not isinstance(as_frame, bool):
        raise TypeError(f"as_frame must be True or False, not {type(as_frame).__name__}")
    if min_fan is not None and kind != "mcr_ready":
        raise ValueError(f"min_fan is an option of kind 'mcr_ready' only (got kind {kind!r})")
    if kind == "american_lines" and card is None:
        raise ValueError("odds_table('american_lines') needs a card, the lines it gives odds for: pass card= a card file "
                         "(card='my-card.toml'), a loaded card (mjfast.load_card(...)) or mjfast.card.toy_card() to try "
                         "it; mjfast ships no published card")
    if card is not None and kind != "american_lines":
        raise ValueError(f"card is an option of kind 'american_lines' only, not of kind {kind!r}")
    samples, games = _run_size(kind, deals, samples, games)
    if kind == "deal" and method in (None, "exact") and samples is not None:
        raise ValueError("deals applies to kind 'deal' with method='monte_carlo' only: exact odds use no random deals")
    if rules is _RULES_DEFAULT:
        rules = {"mcr_ready": "mcr", "mcr_fans": "mcr", "american_lines": "american"}.get(kind, "classical")
    if kind == "american_lines":
        table = _american_lines_table(_rules_list(rules), card, method, samples, seed, threads, progress)
    elif kind == "mcr_fans":
        table = _mcr_fans_table(_rules_list(rules), games, policies, seed, threads, progress)
    elif kind == "mcr_ready":
        table = _mcr_ready_table(_rules_list(rules), method, samples, min_fan, seed, threads, progress)
    elif kind == "deal":
        table = _deal_table(_rules_list(rules), method or "exact", samples, seed, threads, progress)
    elif kind == "win_by_turn":
        table = _win_by_turn_table(_rules_list(rules), hands, draws, method, samples, policy, seed, threads, progress)
    else:
        check_choice("by", by, ("seat", "policy"))
        table = _win_rate_table(_rules_list(rules), games, policies, by, seed, threads, progress)
    return table.to_pandas() if as_frame else table


#: what the size of each kind counts, and the parameter that gives it (the command line's -n
#: spelled --deals, --samples or --games)
SIZE_OF_KIND = {"deal": "deals", "mcr_ready": "deals", "american_lines": "deals", "win_by_turn": "samples",
                "win_rate": "games", "mcr_fans": "games"}


def _run_size(kind: str, deals, samples, games) -> tuple:
    """The Monte Carlo size of ``kind`` as ``(samples, games)`` for the table builders (which
    call the deal kinds' size ``samples``), from the parameter named for what the kind counts:
    ``deals`` (or its earlier spelling ``samples``), ``samples`` or ``games``. A size the kind
    does not count is an error naming the one it does."""
    counts = SIZE_OF_KIND[kind]
    given = {name: v for name, v in (("deals", deals), ("samples", samples), ("games", games)) if v is not None}
    allowed = {"deals", "samples"} if counts == "deals" else {counts}
    for name in given:
        if name not in allowed:
            raise ValueError(f"{name} does not apply to kind {kind!r}: it counts {counts} ({counts}=)")
    if "deals" in given and "samples" in given:
        raise ValueError(f"kind {kind!r} counts deals: give deals= only (samples= is its earlier spelling)")
    if counts == "games":
        return None, 2000 if games is None else games
    return (deals if deals is not None else samples), None


DEAL_COLUMNS = ("rules", "seat", "tiles", "form", "shanten", "p", "se", "low", "high", "one_in", "count", "n",
                 "exact", "method")


def _deal_table(rules_list, method, samples, seed, threads, progress) -> OddsTable:
    check_choice("method", method, ("exact", "monte_carlo"))
    rows: list[dict] = []
    meta: dict[str, Any] = {"method": method}
    specs = [deals.deal_spec(rules) for rules in rules_list]
    forms_of = [list(spec.forms) + (["all"] if len(spec.forms) > 1 else []) for spec in specs]
    # exact: one progress bar over every (rule set, seat, form), in steps (exact_deal_odds)
    steps = len(_SEATS) * sum(len(f) for f in forms_of)
    bar = shared_bar(progress, "odds-table deal exact", steps) if method == "exact" else contextlib.nullcontext()
    with bar:
        for rules, forms in zip(rules_list, forms_of):
            _deal_rows(rows, meta, rules, forms, method, samples, seed, threads, progress)
    return OddsTable("deal", DEAL_COLUMNS, rows, meta)


def _deal_rows(rows, meta, rules, forms, method, samples, seed, threads, progress) -> None:
    if method == "exact":
        for seat, n_tiles in _SEATS:
            for form in forms:
                res = exact.exact_deal_odds(rules=rules, tiles=n_tiles, form=form, progress=progress)
                for s, p in sorted(res["shanten"].items()):
                    pf = float(p)
                    rows.append({"rules": rules, "seat": seat, "tiles": n_tiles, "form": form, "shanten": int(s),
                                 "p": pf, "se": 0.0, "low": pf, "high": pf,
                                 "one_in": (1 / pf) if pf else math.inf, "count": None, "n": None,
                                 "exact": f"{p.numerator}/{p.denominator}", "method": "exact"})
    else:
        n = 1_000_000 if samples is None else samples
        st = deals.deal_stats(n, rules=rules, seed=seed, threads=threads, progress=progress)
        meta["seed"] = seed_to_json(st.seed if hasattr(st, "seed") else seed)
        for seat, n_tiles in _SEATS:
            for form in forms:
                for s, e in st.shanten_estimates(seat, form).items():
                    rows.append({"rules": rules, "seat": seat, "tiles": n_tiles, "form": form, "shanten": int(s),
                                 "p": e.p, "se": e.se, "low": e.low, "high": e.high, "one_in": e.one_in,
                                 "count": e.count, "n": e.n, "exact": None, "method": "monte_carlo"})


_WBT_COLUMNS = ("rules", "policy", "hand", "start_shanten", "hands", "method", "t", "win", "win_se", "win_low",
                "win_high", "tenpai", "tenpai_se", "tenpai_low", "tenpai_high")


def _win_by_turn_table(rules_list, hands, draws, method, samples, policy, seed, threads, progress) -> OddsTable:
    rows = []
    meta = {"draws": draws, "policy": policy}
    if hands is None:
        n = 100_000 if samples is None else samples
        meta.update(samples=n, model="random 13-tile hands from the 136 tiles, grouped by starting shanten")
        if method not in (None, "monte_carlo"):
            raise ValueError("win_by_turn tables of random hands are Monte Carlo only; pass hands=... for exact curves")
        for rules in rules_list:
            res = winturn.win_by_turn_random(n, draws=draws, rules=rules, policy=policy, seed=seed, threads=threads,
                                             progress=progress)
            meta["seed"] = seed_to_json(res.seed)
            for r in res.rows():
                rows.append({"rules": rules, "policy": policy, "hand": None, "start_shanten": r["start_shanten"],
                             "hands": r["hands"], "method": "monte_carlo", **_pick_curve(r)})
    else:
        if not isinstance(hands, (str, list, tuple)):
            raise TypeError(f"hands must be a hand's text or a list of them, not {type(hands).__name__}")
        hand_list = [hands] if isinstance(hands, str) else list(hands)
        for rules in rules_list:
            for h in hand_list:
                kw = {} if samples is None else {"samples": samples}
                curve = winturn.win_by_turn(h, draws=draws, rules=rules, policy=policy, method=method or "auto",
                                            seed=seed, threads=threads, progress=progress, **kw)
                for r in curve.rows():
                    rows.append({"rules": rules, "policy": policy, "hand": curve.hand, "start_shanten": curve.shanten,
                                 "hands": curve.samples, "method": curve.method, **_pick_curve(r)})
    return OddsTable("win_by_turn", _WBT_COLUMNS, rows, meta)


def _pick_curve(r: dict) -> dict:
    keys = ("t", "win", "win_se", "win_low", "win_high", "tenpai", "tenpai_se", "tenpai_low", "tenpai_high")
    return {k: r[k] for k in keys}


_RATE_COLUMNS = ("rules", "seat", "policy", "hands", "wins", "win_rate", "win_rate_se", "win_rate_low",
                 "win_rate_high", "self_draw_wins", "deal_ins", "deal_in_rate", "deal_in_rate_se",
                 "deal_in_rate_low", "deal_in_rate_high", "mean_points", "mean_points_se")


def _win_rate_table(rules_list, games, policies, by, seed, threads, progress) -> OddsTable:
    rows = []
    meta = {"games": games, "policies": policies if isinstance(policies, str) else list(policies), "by": by}
    for rules in rules_list:
        res = sim.simulate(games, rules=rules, policies=policies, seed=seed, threads=threads, progress=progress)
        meta["seed"] = seed_to_json(res.seeds[0] if res.seeds else seed)
        groups: list[tuple[int | None, str, dict[str, Any]]]
        if by == "seat":
            groups = []
            for s in range(4):
                pol = res.policies[s] if not res.duplicate else "rotated"
                groups.append((s, pol if isinstance(pol, str) else getattr(pol, "name", type(pol).__name__),
                               {"seat": s}))
        else:
            groups = [(None, name, {"policy": name}) for name in sorted(res.by_policy)]
        for seat, pol, key in groups:
            w, d, m = res.win_rate(**key), res.deal_in_rate(**key), res.mean_points(**key)
            sd = res.self_draw_share(**key)
            di = d.count
            rows.append({"rules": rules, "seat": seat, "policy": pol, "hands": w.n, "wins": w.count,
                         "win_rate": w.p, "win_rate_se": w.se, "win_rate_low": w.low, "win_rate_high": w.high,
                         "self_draw_wins": sd.count, "deal_ins": di,
                         "deal_in_rate": d.p, "deal_in_rate_se": d.se, "deal_in_rate_low": d.low,
                         "deal_in_rate_high": d.high, "mean_points": m.mean - res.points_start(),
                         "mean_points_se": m.se})
    return OddsTable("win_rate", _RATE_COLUMNS, rows, meta)


_MCR_FANS_COLUMNS = ("rules", "policies", "min_fan", "statistic", "fan", "chinese", "value", "p", "se", "low", "high",
                     "count", "n")


def _mcr_fans_table(rules_list, games, policies, seed, threads, progress) -> OddsTable:
    rows = []
    meta = {"games": games, "policies": policies if isinstance(policies, str) else list(policies)}
    for rules in rules_list:
        res = sim.simulate(games, rules=rules, policies=policies, seed=seed, threads=threads, progress=progress)
        f = res.fans
        if f is None:
            raise ValueError(f"mcr_fans tables need a rule set with fans (rules='mcr'); got {rules!r}")
        meta["seed"] = seed_to_json(res.seeds[0] if res.seeds else seed)
        label = res.rules.name
        pols = meta["policies"] if isinstance(meta["policies"], str) else ",".join(meta["policies"])
        base = {"rules": label, "policies": pols, "min_fan": f.min_fan}

        def row(statistic, fan, chinese, value, e, base=base):
            rows.append(base | {"statistic": statistic, "fan": fan, "chinese": chinese, "value": value, "p": e.p,
                                "se": e.se, "low": e.low, "high": e.high, "count": e.count, "n": e.n})

        row("hands", "valid win", None, None, Estimate.from_counts(f.wins, res.hands))
        row("hands", "exhaustive draw", None, None, res.exhaustive_draw_rate())
        chinese = {name: (zh, v) for name, zh, v in FANS}
        for name, e in f.frequency().items():
            row("fan", name, chinese[name][0], chinese[name][1], e)
        for total in range(len(f.hist)):
            row("hand_fan", total, None, None, Estimate.from_counts(int(f.hist[total]), f.wins))
    return OddsTable("mcr_fans", _MCR_FANS_COLUMNS, rows, meta)


_MCR_READY_COLUMNS = ("rules", "seat", "tiles", "min_fan", "event", "p", "se", "low", "high", "one_in", "count", "n",
                      "method")
#: (seat row, deal seat, tiles, seat wind): East deals 14 tiles, South 13 (as mjfast.deal_stats)
_MCR_SEATS = (("dealer", 0, 14, 0), ("non_dealer", 1, 13, 1))


def _mcr_ready_table(rules_list, method, samples, min_fan, seed, threads, progress) -> OddsTable:
    for rules in rules_list:
        if not is_mcr(rules):
            raise ValueError(f"mcr_ready tables are of the Chinese Official rules; rules must be 'mcr', got {rules!r}")
    if method not in (None, "monte_carlo"):
        raise ValueError(f"mcr_ready tables are Monte Carlo only; got method={method!r}")
    n = 100_000 if samples is None else check_count(samples, "samples", 1)
    min_fan = check_min_fan(8 if min_fan is None else min_fan)
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, not {type(progress).__name__}")
    threads = resolve_threads(threads)
    key = root_key(seed)
    spec = deals.deal_spec("mcr")
    bits = form_bits("all", "mcr")
    _core.ensure_tables()
    counts = np.zeros((len(_MCR_SEATS), 3), np.int64)
    bar = Progress(n, label="odds-table mcr_ready", unit="deals", enabled=progress)
    try:
        for lo, m in timed_chunks(0, n, 1 << 18, 1 << 14):
            counts += _mcr_ready_chunk(spec, key, lo, m, bits, min_fan, threads)
            bar.update(lo + m)
    finally:        # Ctrl-C: the bar's line ends before the interruption is reported
        bar.close()
    meta = {"samples": n, "min_fan": min_fan, "seed": seed_to_json(key.seed_value()), "prevalent_wind": "E",
            "seat_winds": {"dealer": "E", "non_dealer": "S"}}
    rows = []
    for rules in rules_list:
        label = rules.name if hasattr(rules, "name") else rules
        for (seat, _, n_tiles, _), (ready, ready_min, ready_min_drawn) in zip(_MCR_SEATS, counts.tolist()):
            for event, count, trials in (("ready", ready, n), ("ready_min_fan", ready_min, n),
                                         ("ready_min_fan_self_drawn", ready_min_drawn, n),
                                         ("min_fan_given_ready", ready_min, ready)):
                e = Estimate.from_counts(count, trials)
                rows.append({"rules": label, "seat": seat, "tiles": n_tiles, "min_fan": min_fan, "event": event,
                             "p": e.p, "se": e.se, "low": e.low, "high": e.high, "one_in": e.one_in,
                             "count": e.count, "n": e.n, "method": "monte_carlo"})
    return OddsTable("mcr_ready", _MCR_READY_COLUMNS, rows, meta)


def _mcr_ready_chunk(spec, key, lo: int, m: int, bits: int, min_fan: int, threads: int) -> np.ndarray:
    """Deals lo .. lo+m-1 of the run: per seat of :data:`_MCR_SEATS`, the hands (ready, ready with
    a wait reaching min_fan on a discard, the same self-drawn). Batch kernels throughout: the
    deal, the shanten of every hand, the winning check of every (ready 13-tile hand, tile) and
    the fans of every (hand, wait)."""
    dealt = np.zeros((m, 4, 34), np.uint8)
    _deal.deal_batch(m, lo, key.k0, key.k1, spec.n_tiles, spec.replace_bonus, dealt, np.zeros((m, 4, 8), np.uint8),
                     np.zeros((m, 4), np.uint8), None, threads, True)
    out = np.zeros((len(_MCR_SEATS), 3), np.int64)
    for row, (_, seat, n_tiles, wind) in enumerate(_MCR_SEATS):
        h = np.ascontiguousarray(dealt[:, seat])
        sh = _shanten(_core, h, bits, threads)
        ready = np.flatnonzero(sh <= 0)
        out[row, 0] = len(ready)
        if not len(ready):
            continue
        if n_tiles == 14:             # every distinct discard; keep those that leave the hand tenpai
            owner, kind = np.nonzero(h[ready])
            rows13 = h[ready][owner]
            rows13[np.arange(len(owner)), kind] -= 1
            tenpai = _shanten(_core, rows13, bits, threads) == 0
            rows13, owner = rows13[tenpai], owner[tenpai]
        else:
            rows13, owner = h[ready], np.arange(len(ready))
        if not len(rows13):
            continue
        addable = rows13 < 4
        plus = np.repeat(rows13, 34, axis=0)
        plus[np.arange(len(plus)), np.tile(np.arange(34), len(rows13))] += addable.reshape(-1).astype(np.uint8)
        won = np.empty(len(plus), np.uint8)
        _core.winning_counts_batch(plus, bits, won, threads)
        pair_row, pair_kind = np.nonzero(won.reshape(-1, 34).astype(bool) & addable)
        on_discard, on_draw = win_fans(rows13[pair_row], pair_kind, seat_wind=wind, prevalent_wind=0,
                                              threads=threads)
        for col, total in ((1, on_discard), (2, on_draw)):
            hit = np.zeros(len(ready), bool)
            hit[owner[pair_row[(total >= min_fan) & (total > 0)]]] = True
            out[row, col] = int(hit.sum())
    return out


def _shanten(core, rows: np.ndarray, bits: int, threads: int) -> np.ndarray:
    out = np.empty(len(rows), np.int8)
    if len(rows):
        core.shanten_counts_batch(np.ascontiguousarray(rows, dtype=np.uint8), bits, out, threads)
    return out


_AMERICAN_LINES_COLUMNS = ("rules", "seat", "tiles", "line", "section", "points", "at_most", "p", "se", "low", "high",
                           "one_in", "count", "n", "method")


def _american_lines_table(rules_list, card, method, samples, seed, threads, progress) -> OddsTable:
    """Deal-time odds per line of an American card (Monte Carlo; see odds_table)."""
    for rules in rules_list:
        if (rules.name if hasattr(rules, "name") else rules) != "american":
            raise ValueError(f"american_lines tables are of the American rules; rules must be 'american', got {rules!r}")
    if method not in (None, "monte_carlo"):
        raise ValueError(f"american_lines tables are Monte Carlo only; got method={method!r}")
    if not isinstance(card, Card):
        card = load_card(card)
    n = 100_000 if samples is None else check_count(samples, "samples", 1)
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, not {type(progress).__name__}")
    threads = resolve_threads(threads)
    key = root_key(seed)
    n_lines = len(card.ids)
    counts = np.zeros((2, n_lines, 16), np.int64)        # seat, line, distance 0..14 (15: dead, never here)
    bar = Progress(n, label="odds-table american_lines", enabled=progress)
    for lo, m in timed_chunks(0, n, 1 << 16, 1 << 12):
        d = deals.deal(m, rules="american", seed=key.seed_value(), start=lo, threads=threads)
        for row, seat_index in enumerate((0, 1)):
            h = np.concatenate([d.hands[:, seat_index], d.bonus[:, seat_index], d.jokers[:, seat_index, None]],
                               axis=1)
            dist = card.distance(np.ascontiguousarray(h, dtype=np.uint8), threads=threads).astype(np.int64)
            for li in range(n_lines):
                counts[row, li] += np.bincount(np.minimum(dist[:, li], 15), minlength=16)
        bar.update(lo + m)
    bar.close()
    meta: dict[str, Any] = {"samples": n, "seed": seed_to_json(key.seed_value()), "card": card.name,
                            "lines": list(card.ids)}
    rows = []
    for rules in rules_list:
        label = rules.name if hasattr(rules, "name") else rules
        for row, (seat, n_tiles) in enumerate(_SEATS):
            for li, line in enumerate(card.lines):
                cum = np.cumsum(counts[row, li, :15])
                for at_most in range(15):
                    e = Estimate.from_counts(int(cum[at_most]), n)
                    rows.append({"rules": label, "seat": seat, "tiles": n_tiles, "line": line.id,
                                 "section": line.section, "points": line.points, "at_most": at_most,
                                 "p": e.p, "se": e.se, "low": e.low, "high": e.high, "one_in": e.one_in,
                                 "count": e.count, "n": e.n, "method": "monte_carlo"})
    return OddsTable("american_lines", _AMERICAN_LINES_COLUMNS, rows, meta)
