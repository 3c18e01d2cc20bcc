"""``mjfast simulate``: win rates of simulated games (the README's first command), and with
``--charleston-effect`` the paired effect of each optional American pass.
"""
from __future__ import annotations

import io
import sys
import time

from .. import _core
from .. import rules as _rules
from ._common import (
    announce_seed,
    backend_client,
    check_run_args,
    dump_json,
    inapplicable,
    parse_policies,
    progress_arg,
    seed_or_fresh,
)
from ._options import (
    GAMES,
    add_backend_args,
    add_format,
    add_policies,
    add_progress,
    add_rule_options,
    add_rules,
    add_seed,
    add_threads,
    rule_options,
)


def add_parser(sub) -> None:
    """Add ``mjfast simulate`` to the subcommands."""
    sm = sub.add_parser("simulate", help="simulate complete games and print win rates with intervals",
                        description="Simulate complete games and print win rates with 95% intervals.")
    add_rules(sm)
    sm.add_argument("-n", "--games", type=GAMES, default=100_000, metavar="N",
                    help="games to play (default 100,000; --duplicate: wall sets, each played 4 times)")
    add_policies(sm)
    add_seed(sm)
    add_threads(sm)
    add_format(sm, ["table", "json", "csv"])
    sm.add_argument("--duplicate", action="store_true", help="play each wall set once per seat rotation")
    sm.add_argument("--charleston-effect", action="store_true",
                    help="american: play the games with each optional pass on and off (same walls) "
                         "and print the paired differences")
    add_progress(sm)
    add_rule_options(sm)
    add_backend_args(sm)
    sm.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast simulate``; the exit status."""
    from ..game import simulate

    opts = rule_options(args)
    rules = _rules.get(args.rules, **opts)
    if args.charleston_effect:
        for option, given in (("--duplicate", args.duplicate), ("--backend", args.backend != "local")):
            if given:
                raise inapplicable(option, "simulate --charleston-effect",
                                    "it plays its own paired games, on this machine")
    policies = parse_policies(args.policies or "greedy", rules)
    check_run_args(args, rules, policies)
    if args.charleston_effect:
        return _charleston_effect(args, opts, policies)
    seed = seed_or_fresh(args.seed)
    _core.ensure_tables()
    t0 = time.perf_counter()
    try:
        with backend_client(args) as client:
            announce_seed()  # the arguments are valid and the cluster (if any) is up
            res = simulate(args.games, rules=rules, policies=policies, seed=seed, threads=args.threads,
                           duplicate=args.duplicate, progress=progress_arg(args), backend=args.backend,
                           client=client)
    except KeyboardInterrupt as exc:      # the games played so far: their table, then exit status 130
        part = getattr(exc, "partial", None)
        if part is not None and part.games:
            _print_simulate(part, args, time.perf_counter() - t0)
        print(f"mjfast: interrupted after {part.games if part else 0:,} games"
              + (" (the table above covers them)" if part is not None and part.games else ""), file=sys.stderr)
        return 130
    _print_simulate(res, args, time.perf_counter() - t0)
    return 0


def _print_simulate(res, args, dt: float) -> None:
    """The result of mjfast simulate (or the part played before Ctrl-C) in the chosen format."""
    import csv  # (start-up: only the csv format needs it)

    from ..game import AmericanSimResult

    american = isinstance(res, AmericanSimResult)
    if args.format == "json":
        data = res.to_dict()
        data["seconds"] = dt
        data["games_per_second"] = res.games / dt
        data["turns_per_second"] = res.turns / dt
        print(dump_json(data))
    elif args.format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["seat", "policy", "hands", "wins", "self_draw_wins", "discard_wins", "deal_ins", "win_rate",
                    "win_rate_ci95_low", "win_rate_ci95_high", "deal_in_rate", "mean_points", "mean_points_se"]
                   + (["jokerless_wins", "dead_hands", "mean_distance_before", "mean_distance_after"] if american else []))
        for s in range(4):
            e, d, m = res.win_rate(s), res.deal_in_rate(s), res.mean_points(s)
            pol = "" if res.duplicate else (res.policies[s] if isinstance(res.policies[s], str) else res.policies[s].name)
            extra = ([int(res.jokerless_wins[s]), int(res.dead_hands[s]), repr(res.mean_distance("before", s).mean),
                      repr(res.mean_distance("after", s).mean)] if american else [])
            w.writerow([s, pol, res.hands, int(res.wins[s]), int(res.self_draw_wins[s]), int(res.discard_wins[s]),
                        int(res.deal_ins[s]), repr(e.p), repr(e.low), repr(e.high), repr(d.p), repr(m.mean), repr(m.se)]
                       + extra)
        print(buf.getvalue(), end="")
    else:
        print(res.table())
        print(f"\n{res.games:,} games ({res.hands:,} hands, {res.turns:,} turns) in {dt:.2f} s: "
              f"{res.games / dt:,.0f} games/s, {res.hands / dt:,.0f} hands/s, {res.turns / dt / 1e6:.2f} M turns/s")


def _charleston_effect(args, opts: dict, policies) -> int:
    from ..game import charleston_effect
    from ..stats import Z95

    seed = seed_or_fresh(args.seed)
    announce_seed()  # run checked the policies and threads
    t0 = time.perf_counter()
    eff = charleston_effect(args.games, policies=policies, seed=seed, threads=args.threads,
                            progress=progress_arg(args), **opts)
    dt = time.perf_counter() - t0
    if args.format == "json":
        print(dump_json({"rules": "american", "games": args.games, "seed": seed, "seconds": dt,
                     "effects": {k: e.to_dict() for k, e in eff.items()}}))
        return 0
    cols = ("distance_after", "win_rate", "wall_game_rate", "mean_turns")
    if args.format == "csv":
        print("option," + ",".join(f"{c},{c}_se" for c in cols))
        for name, e in eff.items():
            print(name + "," + ",".join(f"{getattr(e, c).mean!r},{getattr(e, c).se!r}" for c in cols))
        return 0
    print(f"mjfast charleston effect: games={args.games:,} per setting, seed={seed}; each optional pass on "
          "minus off, same walls (mean ± 95% half-width over games)")
    print(f"{'option':<20}" + "".join(f"{c:>26}" for c in cols))
    for name, e in eff.items():
        print(f"{name:<20}" + "".join(f"{getattr(e, c).mean:>+14.4f} ± {Z95 * getattr(e, c).se:<9.4f}" for c in cols))
    print(f"\n{6 * args.games:,} games in {dt:.2f} s")
    return 0
