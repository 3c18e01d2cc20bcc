"""``mjfast deal-stats``: odds of dealt hands, Monte Carlo or exact (``--exact``)."""
from __future__ import annotations

import io
import sys
import time
from fractions import Fraction
from typing import Any

from .. import _core
from .._runtime.progress import exact_odds_label, shared_bar
from ._common import (
    announce_notes,
    announce_seed,
    backend_client,
    check_run_args,
    dump_json,
    inapplicable,
    progress_arg,
    seed_or_fresh,
)
from ._options import DEALS, add_backend_args, add_format, add_progress, add_rules, add_seed, add_threads, whole_number


def add_parser(sub) -> None:
    """Add ``mjfast deal-stats`` to the subcommands."""
    ds = sub.add_parser("deal-stats", help="odds of dealt hands: shanten per form, complete, tenpai, bonus tiles",
                        description="Odds of dealt hands, Monte Carlo (default) or exact (--exact).")
    add_rules(ds)
    ds.add_argument("-n", "--deals", type=DEALS, default=None, metavar="N",
                    help="number of deals (default 10,000,000; not with --exact)")
    add_seed(ds)
    add_threads(ds)
    add_format(ds, ["table", "json", "csv"])
    ds.add_argument("--exact", action="store_true", help="exact probabilities instead of Monte Carlo")
    ds.add_argument("--flowers", action="store_true", help="classical, basic, mcr: the 144-tile set with the 8 "
                                                           "bonus tiles (replaced as they are dealt)")
    ds.add_argument("--jokers", type=whole_number, default=None, metavar="J", help="american: number of jokers (default 8)")
    add_progress(ds)
    add_backend_args(ds)
    ds.set_defaults(func=run)


def _exact_shape(rules: str, flowers, jokers, progress: bool = True) -> dict:
    """Exact deal odds in the JSON shape of DealStats.to_dict, "num/den" strings for counts."""
    from .. import exact
    from ..deals import deal_spec

    spec = deal_spec(rules, flowers=flowers, jokers=jokers)
    out: dict[str, Any] = {"rules": rules, "exact": True, "options": spec.options, "forms": list(spec.forms) + ["all"]}
    extra: dict[str, Any] = {"jokers": spec.jokers} if spec.american else {}
    # one progress bar for both seats, a step per form and "all" (the Chinese Official "all" form takes seconds)
    with shared_bar(progress, exact_odds_label(rules), 2 * len(exact.TABLE_FORMS[rules])):
        for seat, tiles in (("dealer", 14), ("non_dealer", 13)):
            table = exact.exact_deal_odds_table(rules=rules, tiles=tiles, jokers=extra.get("jokers"))
            out[seat] = _exact_seat(table, spec, tiles)
    return out


def _exact_seat(table: dict, spec, tiles: int) -> dict:
    sh = {}
    any_res = None
    for form, res in table.items():
        sh[form] = {str(k): f"{v.numerator}/{v.denominator}" for k, v in sorted(res["shanten"].items())}
        any_res = res
    if "all" not in sh and len(spec.forms) == 1:
        sh["all"] = sh[spec.forms[0]]
    final = table.get("all") or any_res
    assert final is not None and any_res is not None  # the table has a row per form of the rule set
    seat_data: dict[str, Any] = {
        "tiles": tiles,
        "shanten": sh,
        "complete": _frac(final["complete"]),
        "tenpai": _frac(final["tenpai"]),
        "four_of_a_kind": _frac(any_res["four_of_a_kind"]),
    }
    if spec.american:  # the exact flower and joker distributions, as DealStats gives them
        for key in ("bonus_tiles", "jokers"):
            seat_data[key] = {str(k): _frac(v) for k, v in final[key].items()}
    return seat_data


def _frac(f) -> str:
    return f"{f.numerator}/{f.denominator}"


def run(args) -> int:
    """Run ``mjfast deal-stats``; the exit status."""
    from ..deals import deal_spec, deal_stats

    _check_deal_stats(args)
    if args.exact:
        announce_notes()
        data = _exact_shape(args.rules, args.flowers or None, args.jokers, progress=progress_arg(args))
        if args.format == "json":
            print(dump_json(data))
        else:
            _print_exact(data, csv_out=args.format == "csv")
        return 0
    deal_spec(args.rules, flowers=args.flowers or None, jokers=args.jokers)  # validate before seeding
    check_run_args(args)
    seed = seed_or_fresh(args.seed)

    _core.ensure_tables()
    t0 = time.perf_counter()
    try:
        with backend_client(args) as client:
            announce_seed()  # the arguments are valid and the cluster (if any) is up
            st = deal_stats(args.deals, rules=args.rules, seed=seed, threads=args.threads,
                            progress=progress_arg(args), flowers=args.flowers or None, jokers=args.jokers,
                            backend=args.backend, client=client)
    except KeyboardInterrupt as exc:      # the deals made so far: their table, then exit status 130
        part = getattr(exc, "partial", None)
        if part is not None and part.n:
            _print_deal_stats(part, args, time.perf_counter() - t0)
        print(f"mjfast: interrupted after {part.n if part else 0:,} deals"
              + (" (the table above covers them)" if part is not None and part.n else ""), file=sys.stderr)
        return 130
    _print_deal_stats(st, args, time.perf_counter() - t0)
    return 0


def _print_deal_stats(st, args, dt: float) -> None:
    """The result of mjfast deal-stats (or the part dealt before Ctrl-C) in the chosen format."""
    import csv  # (start-up: only the csv format needs it)

    if args.format == "json":
        data = st.to_dict()
        data["seconds"] = dt
        print(dump_json(data))
    elif args.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["seat", "form", "shanten", "count", "n", "p", "se", "ci95_low", "ci95_high", "one_in"])
        for seat in ("dealer", "non_dealer"):
            for form in st.forms + ("all",):
                for s, e in st.shanten_estimates(seat, form).items():
                    w.writerow([seat, form, s, e.count, e.n, repr(e.p), repr(e.se), repr(e.low), repr(e.high),
                                repr(e.one_in)])
        print(buf.getvalue(), end="")
    else:
        print(st.table())
        print(f"\n{st.n:,} deals in {dt:.2f} s ({st.n / dt / 1e6:.1f} M deals/s, "
              f"{2 * st.n / dt / 1e6:.1f} M hands classified/s)")


def _check_deal_stats(args) -> None:
    """Options that do not apply to the rule set, or to --exact."""
    american = args.rules == "american"
    if args.flowers and american:
        raise inapplicable("--flowers", "--rules american", "American sets always hold the 8 flowers")
    if args.jokers is not None and not american:
        raise inapplicable("--jokers", f"--rules {args.rules}", "jokers are in American sets only (--rules american)")
    if args.exact:
        for option, given in (("-n/--deals", args.deals is not None), ("--seed", args.seed is not None),
                              ("--threads", args.threads is not None), ("--backend", args.backend != "local")):
            if given:
                raise inapplicable(option, "deal-stats --exact", "the odds are computed exactly, with no random deals")
    elif args.deals is None:
        args.deals = 10_000_000


def _print_exact(data: dict, csv_out: bool) -> None:
    if csv_out:
        print("seat,form,shanten,probability,fraction")
    else:
        print(f"mjfast exact deal odds: rules={data['rules']} {data['options']}")
    for seat in ("dealer", "non_dealer"):
        if not csv_out:
            print(f"\n{seat.replace('_', '-')} ({data[seat]['tiles']} tiles)")
        for form, dist in data[seat]["shanten"].items():
            if not csv_out:
                print(f"  form={form}")
                print(f"    {'shanten':>8} {'probability':>14} {'1 in':>12}  exact")
            for s, frac in dist.items():
                p = Fraction(frac)
                if csv_out:
                    print(f"{seat},{form},{s},{float(p)!r},{frac}")
                else:
                    one_in = f"{1 / float(p):.4g}" if p else "inf"
                    print(f"    {s:>8} {float(p):>14.8g} {one_in:>12}  {frac}")
