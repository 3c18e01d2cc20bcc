"""``mjfast odds-table``: deal odds, win-by-turn curves, win rates, Chinese Official ready deals
and fans, American card lines as a table (and a plot).
"""
from __future__ import annotations

import sys
import warnings
from typing import Any

from .. import rules as _rules
from ._common import (
    announce_notes,
    announce_seed,
    check_run_args,
    encodable,
    inapplicable,
    load_card_file,
    parse_policies,
    progress_arg,
    seed_note,
    seed_or_fresh,
)
from ._options import (
    Deprecated,
    Spelled,
    add_format,
    add_policies,
    add_progress,
    add_seed,
    add_threads,
    given_spelling,
    positive_count,
    rules_arg,
    whole_number,
)


def add_parser(sub) -> None:
    """Add ``mjfast odds-table`` to the subcommands."""
    ot = sub.add_parser("odds-table", help="standard odds tables: deal odds, win-by-turn curves, win rates per seat, "
                                           "Chinese Official ready deals and fans, American card lines",
                        description="Standard odds tables (mjfast.odds_table). Each option applies to the kinds "
                                    "it names; -n counts what the kind counts: deals (deal, mcr-ready, "
                                    "american-lines), samples "
                                    "(win-by-turn) or games (win-rate, mcr-fans).")
    ot.add_argument("kind", type=_kind,
                    choices=["deal", "win-by-turn", "win-rate", "mcr-ready", "mcr-fans", "american-lines"],
                    help="deal: shanten odds of the dealt hand; win-by-turn: P(tenpai) and P(won) by each draw; "
                         "win-rate: win rates of simulated games; mcr-ready: Chinese Official deals one tile from "
                         "a valid win; mcr-fans: the fans of Chinese Official wins; american-lines: per line of "
                         "an American card (--card), P(the dealt hand is within d tiles of it)")
    ot.add_argument("--rules", default=None,
                    help="rule set or comma-separated list (default classical; mcr for mcr-ready and mcr-fans; "
                         "none for win-by-turn without a rule set's forms)")
    ot.add_argument("-n", "--games", "--deals", "--samples", dest="n", action=Spelled, type=positive_count, default=None,
                    metavar="N", help="Monte Carlo size: deals (--deals) for deal --method monte_carlo (default "
                                      "1,000,000), mcr-ready and american-lines (100,000), samples (--samples) for "
                                      "win-by-turn (100,000), games (--games) for win-rate and mcr-fans (2,000)")
    ot.add_argument("--method", choices=["exact", "monte_carlo", "auto"], default=None,
                    help="deal: exact (default) or monte_carlo; win-by-turn with --hand: auto (default), exact, "
                         "monte_carlo; mcr-ready: monte_carlo")
    ot.add_argument("--hand", action="append", default=None, help="win-by-turn: a hand (repeat for several)")
    ot.add_argument("--draws", type=whole_number, default=None, metavar="T",
                    help="win-by-turn: number of draws (default 18)")
    ot.add_argument("--draw-policy", dest="draw_policy", action=Spelled, choices=["greedy", "first", "greedy_swap"],
                    default=None, help="win-by-turn: the drawing policy (default greedy; see mjfast.analysis.winturn)")
    ot.add_argument("--policy", dest="draw_policy", action=Deprecated, use="--draw-policy",
                    choices=["greedy", "first", "greedy_swap"])
    ot.add_argument("--min-fan", type=whole_number, default=None, metavar="F",
                    help="mcr-ready: the minimum of a valid win (default 8)")
    add_policies(ot, kinds="win-rate, mcr-fans: ", alias=False)
    ot.add_argument("--by", choices=["seat", "policy"], default=None,
                    help="win-rate: rows per seat (default) or per policy")
    ot.add_argument("--card", default=None, metavar="FILE",
                    help="american-lines: the card (an mjfast-card/1 file: .json, .toml, .yaml)")
    add_seed(ot)
    add_threads(ot)
    add_format(ot, ["table", "json", "csv", "markdown"])
    ot.add_argument("--output", default=None, metavar="PATH", help="write the table to this file instead of stdout")
    ot.add_argument("--plot", default=None, metavar="PATH",
                    help="deal, win-by-turn, win-rate: also draw the table to an image (needs mjfast[plot])")
    add_progress(ot)
    ot.set_defaults(func=run)


#: odds-table options and the kinds they apply to
_KIND_OPTIONS = (
    ("--method", "method", ("deal", "win_by_turn", "mcr_ready")),
    ("--hand", "hand", ("win_by_turn",)),
    ("--draws", "draws", ("win_by_turn",)),
    ("--draw-policy", "draw_policy", ("win_by_turn",)),
    ("--min-fan", "min_fan", ("mcr_ready",)),
    ("--policies", "policies", ("win_rate", "mcr_fans")),
    ("--by", "by", ("win_rate",)),
    ("--plot", "plot", ("deal", "win_by_turn", "win_rate")),
    ("--card", "card", ("american_lines",)),
)
#: what -n counts for each kind, and its long spelling
_KIND_COUNTS = {"deal": "--deals", "mcr_ready": "--deals", "win_by_turn": "--samples", "win_rate": "--games",
                "mcr_fans": "--games", "american_lines": "--deals"}


def _kind(text: str) -> str:
    return text.replace("_", "-")       # the Python names (win_by_turn) are accepted too


def _kind_name(kind: str) -> str:
    return "odds-table " + kind.replace("_", "-")


def _check_odds_table(args, kind: str, rules: list) -> None:
    """Options that do not apply to the kind (or to its exact method), and rule sets it has no
    numbers for."""
    for option, dest, kinds in _KIND_OPTIONS:
        if getattr(args, dest) is not None and kind not in kinds:
            given = given_spelling(args, dest, option)
            raise inapplicable(given, _kind_name(kind),
                                f"it is an option of {' and '.join(_kind_name(k) for k in kinds)}")
    if args.n is not None:
        spelled = given_spelling(args, "n", "-n")
        if spelled != "-n" and spelled != _KIND_COUNTS[kind]:
            raise inapplicable(spelled, _kind_name(kind), f"it counts {_KIND_COUNTS[kind][2:]} "
                                                           f"(-n or {_KIND_COUNTS[kind]})")
    for r in rules:
        if r is None and kind != "win_by_turn":
            raise ValueError(f"--rules none is for win-by-turn odds only; {_kind_name(kind)} needs a rule set: "
                             f"{', '.join(_rules.names())}")
        if r is not None and r not in _rules.names():
            raise ValueError(f"--rules: unknown rule set {r!r}; choose from {', '.join(_rules.names())}"
                             + (" or none" if kind == "win_by_turn" else ""))
        if kind in ("mcr_ready", "mcr_fans") and r != "mcr":
            raise ValueError(f"{_kind_name(kind)} is of the Chinese Official rules: it needs --rules mcr, "
                             f"not --rules {r or 'none'}")
        if kind == "american_lines" and r != "american":
            raise ValueError(f"{_kind_name(kind)} is of the American rules: it needs --rules american, "
                             f"not --rules {r or 'none'}")
    if kind == "american_lines" and args.card is None:
        raise ValueError("odds-table american-lines needs --card FILE (the card whose lines it covers)")
    exact = (kind == "deal" and args.method in (None, "exact")) or (kind == "win_by_turn" and args.method == "exact")
    if kind == "win_by_turn" and not args.hand and args.method not in (None, "monte_carlo"):
        raise ValueError(f"--method {args.method}: win-by-turn odds of random hands are Monte Carlo only; "
                         "give --hand HAND for exact curves")
    if kind == "mcr_ready" and args.method not in (None, "monte_carlo"):
        raise ValueError(f"--method {args.method}: odds-table mcr-ready is Monte Carlo only")
    if kind == "deal" and args.method == "auto":
        raise ValueError("--method auto: odds-table deal takes exact (the default) or monte_carlo")
    if exact:
        where = _kind_name(kind) + (" (exact by default)" if kind == "deal" and args.method is None
                                    else " --method exact")
        why = ("exact odds use no random deals; add --method monte_carlo for a Monte Carlo table"
               if kind == "deal" else "the curves are computed exactly, with no random samples")
        for option, dest in ((given_spelling(args, "n", "-n"), "n"), ("--seed", "seed"), ("--threads", "threads")):
            if getattr(args, dest) is not None:
                raise inapplicable(option, where, why)


def run(args) -> int:
    """Run ``mjfast odds-table``; the exit status."""
    from ..analysis.odds import SIZE_OF_KIND, odds_table

    kind = args.kind.replace("-", "_")
    rules = ([rules_arg(r) for r in args.rules.split(",")] if args.rules
             else [{"mcr_ready": "mcr", "mcr_fans": "mcr", "american_lines": "american"}.get(kind, "classical")])
    _check_odds_table(args, kind, rules)
    policies = parse_policies(args.policies or "greedy", rules[0] if len(rules) == 1 else None)
    if args.threads is not None:
        check_run_args(args)
    if args.plot:
        from ..plot import INSTALL_HINT

        try:                          # before the work: a missing matplotlib says how to install it
            import matplotlib.figure  # noqa: F401
        except ImportError as exc:
            raise ImportError(INSTALL_HINT) from exc
    needs_seed = (kind in ("win_rate", "mcr_ready", "mcr_fans", "american_lines")
                  or (kind == "deal" and args.method == "monte_carlo")
                  or (kind == "win_by_turn" and (not args.hand or args.method == "monte_carlo")))
    # win-by-turn curves of given hands, method auto: exact or Monte Carlo, whichever is estimated cheaper
    may_need_seed = kind == "win_by_turn" and bool(args.hand) and args.method in (None, "auto")
    seed = seed_or_fresh(args.seed) if needs_seed or may_need_seed else args.seed
    kw: dict[str, Any] = {}
    if args.n is not None:
        kw[SIZE_OF_KIND[kind]] = args.n     # deals, samples or games, as -n is spelled for the kind
    if args.min_fan is not None:
        kw["min_fan"] = args.min_fan
    if args.card is not None:
        kw["card"] = load_card_file(args.card)
    announce_notes()
    try:
        table = odds_table(kind, rules=rules if len(rules) > 1 else rules[0], method=args.method,
                           hands=args.hand or None, draws=18 if args.draws is None else args.draws,
                           policies=policies, policy=args.draw_policy or "greedy", by=args.by or "seat", seed=seed,
                           threads=args.threads, progress=progress_arg(args), **kw)
    except KeyboardInterrupt:
        announce_seed()
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    # odds_table checks some arguments only as it goes (each rule set in turn): the seed is
    # announced once the table is built
    if not needs_seed and not any(row.get("method") == "monte_carlo" for row in table.rows):
        seed_note.clear()
    announce_seed()
    columns = None
    if (not args.output and args.format != "json" and "chinese" in table.columns
            and not encodable("".join(str(r.get("chinese") or "") for r in table.rows))):
        # a console that cannot write Chinese (cp1252): the table without its Chinese names
        columns = [c for c in table.columns if c != "chinese"]
        print(f"mjfast: note: the chinese column is left out: stdout's encoding ({sys.stdout.encoding}) cannot "
              "write it (--output FILE writes UTF-8; so does stdout with PYTHONIOENCODING=utf-8)", file=sys.stderr)
    text = {"table": table.table, "json": table.to_json, "csv": table.to_csv,
            "markdown": table.to_markdown}[args.format](**({} if columns is None else {"columns": columns}))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text if text.endswith("\n") else text + "\n")
    else:
        print(text, end="" if text.endswith("\n") else "\n")
    if args.plot:
        from ..plot import plot_table

        with warnings.catch_warnings(record=True) as caught:    # groups too small to draw: a note each
            warnings.simplefilter("always")
            plot_table(table, args.plot)
        for w in caught:
            note = str(w.message).replace(" (min_hands)", "").replace("pass a smaller min_hands to draw them",
                                                                       "a larger -n draws them")
            print(f"mjfast: note: {note}", file=sys.stderr)
        print(f"mjfast: plot written to {args.plot}", file=sys.stderr)
    return 0
